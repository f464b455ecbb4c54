"""The game WebSocket ``/ws/games/{game_id}`` (docs/protocol.md).

The cookie decides the seat (a forged or missing token: spectator), from the game as the database holds it
(``GameService.current``: with several instances, never a copy behind another instance's changes). One reader
loop validates each message and hands it to the service; one writer task turns "game changed" bus messages
into this seat's snapshot. A foreign ``Origin`` is refused at the handshake (HTTP 403).

Floods (issue 16), each refused with an ``error`` message and a close: frames over ``ws_max_frame`` bytes
(1009); more than ``ws_max_rate`` messages in any second on one socket (1008 ``flood``); beyond
``ws_max_rate_per_address`` from one client address across all its sockets, each further message is refused
(``flood``, the socket stays open); at the opening, more than ``ws_max_per_address`` open
sockets of one address on this instance or more than ``ws_max_per_seat`` of one seat (1008); socket openings
beyond ``RATE_SOCKETS`` per address are refused at the handshake (HTTP 403). Chat messages (issue 19) are counted
per seat of the game (``RATE_CHAT`` through ``app.state.limits``): beyond, ``chat_flood`` and nothing stored.

The seats' chat rides on the game's bus channel beside "game changed": a ``chat`` event goes to this socket as it is
(unless its seat blocks the writer; never to a spectator), a ``chat.blocks`` event re-reads a seat's block list and
sends that seat a snapshot (``GameService.chat_event``); neither makes the socket re-read the game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, deque
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from admiral import i18n
from admiral.i18n import _
from admiral.service import GameService, HeldView, ServiceError, metrics, parse_client_message

from ..config import Settings
from ..deps import COOKIE, SESSION_COOKIE, browser_hash_of_token, client_address, cross_site, rate_key

__all__ = ["SocketGate", "receive_frame", "router"]

router = APIRouter()
log = logging.getLogger("admiral.ws")

CLOSE_POLICY = 1008
#: Instances sharing the games: seconds between re-reads of a game whose socket heard nothing (resync; pub/sub
#: loses messages only around a Redis reconnect, which triggers a resync of its own).
RESYNC_S = 10.0
CLOSE_TOO_BIG = 1009
#: Bus events of the seats' chat (:mod:`admiral.service.session.chat`): a socket's writer hands them on itself.
CHAT_EVENTS = ("chat", "chat.blocks")


async def receive_frame(ws: WebSocket) -> tuple[str | bytes, int, float] | None:
    """The next frame of ``ws`` as the sockets' budgets read it: ``(data, size in bytes, monotonic time it was
    received in seconds)``; ``None`` once the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    received = time.monotonic()
    data = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    return data, len(data.encode() if isinstance(data, str) else data), received


class SocketGate:
    """What the sockets of one client address may take on this instance (issue 16): at most
    ``ws_max_per_address`` open at once, ``ws_max_rate_per_address`` messages in any one second across all of
    them, and ``ws_max_rate`` in any one second on one socket. The counts live in this process, a deque of the
    last second's message times per socket and per address: a check is a few operations and no network round
    trip, where ``limits``' memory storage (tried first) started a thread every 10 ms to expire its windows and
    cost the server 6 % of a core under load. nginx caps the sockets of an address across the instances
    (``deploy/nginx.conf``)."""

    def __init__(self, settings: Settings) -> None:
        self.max_open = settings.ws_max_per_address
        self.open: Counter[str] = Counter()
        self._per_socket = settings.ws_max_rate
        self._per_address = settings.ws_max_rate_per_address
        self._recent: dict[str, deque[float]] = {}  # address → times of its sockets' messages in the last second

    def admit(self, address: str) -> bool:
        """Count a socket of ``address`` opening; ``False`` (not counted) when it already has the most."""
        if self.open[address] >= self.max_open:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        """A socket :meth:`admit` counted has closed."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
            self._recent.pop(address, None)

    def message(self, address: str, stamps: deque[float], now: float) -> str | None:
        """Count one message of a socket of ``address`` at monotonic time ``now`` (``stamps``: that socket's own
        recent message times); ``None`` if allowed, else which budget it broke: ``socket`` or ``address``."""
        if _over(stamps, now, self._per_socket):
            return "socket"
        recent = self._recent.setdefault(address, deque())
        if _over(recent, now, self._per_address):
            return "address"
        return None


def _over(stamps: deque[float], now: float, limit: int) -> bool:
    """Add ``now`` to ``stamps`` (times within the last second, oldest first); whether they are now over
    ``limit``."""
    stamps.append(now)
    while stamps and now - stamps[0] > 1.0:
        stamps.popleft()
    return len(stamps) > limit


class _Socket:
    """One open socket: serialised sends, and the revision of the game (``games.revision`` as this instance
    knows it) its last snapshot showed."""

    def __init__(self, ws: WebSocket, *, deltas: bool = False) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self.shown: int | None = None
        #: With ``?delta=1`` (docs/protocol.md) the view this socket holds: the next one is sent as a change of it.
        self.held = HeldView() if deltas else None
        #: The instance's ``chat_version`` of the game when this socket last got the chat's messages: once a check
        #: found the copy behind (a lost event), the socket gets them again.
        self.chat_version = 0

    async def send_snapshot(
        self, service: GameService, g: Any, side: str | None, browser: str | None, *, chat_history: bool = False
    ) -> None:
        """Send ``side``'s snapshot of ``g`` (the live game only ever holds what is stored: a change is swapped
        in after its write); with ``chat_history`` its chat's messages too (else only the chat's state)."""
        await service.ensure_notes(g, side)
        # Built under the send lock: with deltas, each view is a change of the one sent just before on this socket.
        async with self.lock:
            self.shown = service.store.known.get(g.id)
            message = service.snapshot(g, side, browser, chat_history=chat_history, wire=True, held=self.held)
            if chat_history:
                self.chat_version = g.chat_version
            await self._write(message)

    async def send(self, message: dict[str, Any]) -> None:
        async with self.lock:
            await self._write(message)

    async def _write(self, message: dict[str, Any]) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            # orjson: serialising snapshots was the largest single cost of a move with the stdlib encoder.
            await self.ws.send_text(orjson.dumps(message).decode())

    async def close(self, code: int, reason: str) -> None:
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.close(code, reason)


def _outcome(task: asyncio.Task) -> None:
    """Retrieve a finished writer's outcome: a send to a socket that just closed fails, and is no news."""
    exc = None if task.cancelled() else task.exception()
    if exc is not None and not isinstance(exc, WebSocketDisconnect | OSError):
        log.warning("socket writer failed", exc_info=exc)


async def _refuse(ws: WebSocket, message: dict[str, Any], reason: str) -> None:
    """Accept, say why in an ``error`` message, and close with 1008 (a browser sees no reason at a refused
    handshake, and would only retry)."""
    await ws.accept()
    await ws.send_text(json.dumps(message, ensure_ascii=False))
    await ws.close(CLOSE_POLICY, reason)


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Serve one game tab (see the module docstring)."""
    settings: Settings = ws.app.state.settings
    service: GameService = ws.app.state.service
    gate: SocketGate = ws.app.state.sockets
    i18n.set_language(ws.cookies.get(i18n.COOKIE))  # this socket's messages (and its writer's) in its language
    if cross_site(ws, settings.allowed_origins):
        await ws.close(CLOSE_POLICY, "origin")  # before accept: the handshake is refused with HTTP 403
        return
    address = rate_key(client_address(ws))  # every per-address budget counts an IPv6 client by its /64
    if not ws.app.state.limits.hit("sockets", address):
        # Refused at the handshake (HTTP 403), the cheapest answer: a flood reconnects as fast as it is refused.
        # A page's socket reconnects with a growing backoff and never comes near this limit.
        await ws.close(CLOSE_POLICY, "rate limited")
        return
    if not gate.admit(address):
        error = ServiceError(
            "too_many_sockets", _("С вашего адреса открыто слишком много вкладок с партиями. Закройте лишние."),
            {"max": gate.max_open},
        )  # fmt: skip
        await _refuse(ws, error.to_message(), "too many sockets")
        return
    sub = None
    try:
        sub = service.bus.subscribe(f"game:{game_id}")  # before the read below: no change can fall in between
        try:
            g = await service.current(game_id)
        except ServiceError as e:
            await _refuse(ws, e.to_message(), "not found")
            return
        browser = browser_hash_of_token(ws.cookies.get(COOKIE))
        if browser is not None and ws.cookies.get(SESSION_COOKIE):
            browser, _commander = ws.app.state.accounts.resolve(browser, ws.cookies.get(SESSION_COOKIE))
        side = g.seat_of(browser)
        if side is not None and g.seats[side].connections >= settings.ws_max_per_seat:
            error = ServiceError(
                "too_many_tabs", _("Эта партия уже открыта в %(n)s вкладках. Закройте лишние.",
                                   n=settings.ws_max_per_seat),
                {"max": settings.ws_max_per_seat},
            )  # fmt: skip
            await _refuse(ws, error.to_message(), "too many tabs")
            return
        await ws.accept()
        await _serve(ws, service, settings, gate, g, side, browser, address, sub)
    finally:
        if sub is not None:
            sub.close()
        gate.release(address)


async def _serve(
    ws: WebSocket,
    service: GameService,
    settings: Settings,
    gate: SocketGate,
    g: Any,
    side: str | None,
    browser: str | None,
    address: str,
    sub: Any,
) -> None:
    """The accepted socket of ``side`` (``None``: spectator) in game ``g``, until it closes. Whatever ends it
    (the client, a flood, the server's shutdown cancelling this task), the seat's presence is given back."""
    sock = _Socket(ws, deltas=ws.query_params.get("delta") == "1")
    shared = service.bus.shared

    async def writer() -> None:
        while True:
            if shared:  # instances sharing the games: a tick re-reads the game even if an event was lost
                try:
                    async with asyncio.timeout(RESYNC_S):  # cheaper than wait_for, which wraps get() in a task
                        msg = await sub.get()
                except TimeoutError:
                    msg = {"type": "tick"}
            else:
                msg = await sub.get()
            batch = [msg]
            while not sub.queue.empty():
                batch.append(sub.queue.get_nowait())
            # Another seat's private notes changed: nothing this socket may see (nor may a tick or a resync answer
            # the revision their write made by a snapshot: :meth:`shows_current`).
            for m in batch:
                if m.get("type") == "notes":
                    service.notes_written(g, m)
            batch = [m for m in batch if m.get("type") != "notes" or m.get("side") == side]
            if not batch:
                continue
            resnap = False  # a block of this seat's changed: its next snapshot brings the chat's messages again
            if any(m.get("type") in CHAT_EVENTS for m in batch):  # the seats' chat (issue 19): no game change
                for m in batch:
                    if m.get("type") in CHAT_EVENTS:
                        out, again = service.chat_event(g, side, m)
                        resnap = resnap or again
                        for reply in out:
                            await sock.send(reply)
                batch = [m for m in batch if m.get("type") not in CHAT_EVENTS]
                if not batch:
                    if resnap:
                        await sock.send_snapshot(service, g, side, browser, chat_history=True)
                    continue
            if shared and side is not None and any(m.get("resync") or m.get("type") == "tick" for m in batch):
                # a chat event may have been lost (this instance's subscription landed late, Redis reconnected):
                # the copy is checked against the database, and a socket behind it gets the chat's messages again
                await service.chat_recheck(g, blocks=any(m.get("reconnect") for m in batch))
                resnap = resnap or g.chat_version != sock.chat_version
            if shared:
                ticks = all(m.get("type") == "tick" for m in batch)
                # a tick, or the resync when this instance's subscription lands, only checks: a snapshot follows
                # if the check found a change (after a Redis reconnect every socket gets one)
                checks = all(m.get("type") == "tick" or (m.get("resync") and not m.get("reconnect")) for m in batch)
                foreign = any(m.get("origin") or m.get("resync") or m.get("type") == "tick" for m in batch)
                try:
                    revisions = [m.get("revision") for m in batch if m.get("type") == "changed"]
                    newest = max(revisions) if revisions and None not in revisions else None
                    deltas = [d for m in batch if m.get("origin") for d in m.get("deltas") or ()]
                    changed = (
                        await service.refresh(g, force=not ticks, revision=newest, deltas=deltas) if foreign else False
                    )
                except Exception:  # the database or Redis hiccuped: the next event or tick tries again
                    g.log.warning("refresh failed", exc_info=True)
                    continue
                # A check that found the copy current says nothing of this socket: another request may have
                # brought the copy up to date first (a page load, another socket), after this socket's last
                # snapshot. Skip only when the socket has shown this very revision, or one that differs from it
                # only by notes writes (issue 16: a tab stayed on an old position until its player lost on time).
                if not changed and checks and not resnap and service.shows_current(g, sock.shown):
                    continue
            for m in batch:
                if m.get("rematch_url") and side is not None:
                    await sock.send({"type": "rematch", "url": m["rematch_url"]})
                declined = m.get("declined")
                if isinstance(declined, dict) and side is not None and declined.get("to") == side:
                    await sock.send({"type": "declined", "offer": declined.get("offer")})
            await sock.send_snapshot(service, g, side, browser, chat_history=resnap)

    limits = ws.app.state.limits  # a rematch makes a game: RATE_GAMES counts it
    stamps: deque[float] = deque()  # this socket's messages in the last second
    if shared and side is not None:  # the seat's first snapshot holds every message stored, lost events or not,
        # and the block lists as stored (CI: a blocker's new socket on the other instance showed the blocked one's
        # lines when that instance never got the block's event) — before the writer starts: it must come first
        await service.chat_recheck(g, force=True, blocks=True)
    metrics.SOCKETS.inc()
    service.connect(g, side)
    g.log.info("socket open role=%s", side or "spectator")
    writer_task = asyncio.create_task(writer())
    writer_task.add_done_callback(_outcome)
    try:
        await sock.send_snapshot(service, g, side, browser, chat_history=True)
        while (frame := await receive_frame(ws)) is not None:
            data, size, received = frame
            if size > settings.ws_max_frame:
                await sock.send({"type": "error", "code": "too_big", "message": _("Слишком большое сообщение."),
                                 "detail": {"max_bytes": settings.ws_max_frame}})  # fmt: skip
                await sock.close(CLOSE_TOO_BIG, "too big")
                break
            if (broken := gate.message(address, stamps, received)) is not None:
                limit = settings.ws_max_rate if broken == "socket" else settings.ws_max_rate_per_address
                await sock.send({"type": "error", "code": "flood", "message": _("Слишком много сообщений."),
                                 "detail": {"max_per_second": limit, "per": broken}})  # fmt: skip
                if broken == "address":
                    # The address's sockets together: this message is refused, the socket stays (closing the one
                    # that happened to send next closed a household's every tab for one flooder: QA F12).
                    continue
                await sock.close(CLOSE_POLICY, "flood")
                g.log.warning("socket closed: flood role=%s", side or "spectator")
                break
            try:
                msg = parse_client_message(data)
                if msg.type == "chat" and side is not None:  # refusals first: they do not use up the limit
                    await service.prepare_chat(g, side, phrase=msg.phrase, text=msg.text)  # type: ignore[union-attr]
                if msg.type == "chat" and side is not None and not limits.hit("chat", g.id, side):
                    # per seat (every socket and instance of it: the limits' storage is shared), issue 19
                    raise ServiceError("chat_flood", _("Слишком много сообщений в чате. Подождите немного."),
                                       {"retry_after_s": limits.retry_after("chat", g.id, side)})  # fmt: skip
                makes_game = side is not None and g.rematch_id is None and service.makes_rematch(g, side, msg.type)
                if makes_game and not limits.hit("games", address):
                    raise ServiceError("rate_limited", _("Слишком много новых партий подряд. Подождите минуту."))
                replies = await service.handle(g, side, msg, received=received)
            except ServiceError as e:
                replies = [e.to_message()]
            except Exception:
                g.log.exception("message failed")
                replies = [{"type": "error", "code": "internal", "message": _("Внутренняя ошибка сервера."),
                            "detail": None}]  # fmt: skip
            for reply in replies:
                await sock.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        service.disconnect(g, side)  # synchronous: done even while this task is being cancelled
        metrics.SOCKETS.dec()
        writer_task.cancel()
        g.log.info("socket closed role=%s", side or "spectator")
