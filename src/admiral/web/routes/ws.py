"""The game WebSocket ``/ws/games/{game_id}`` (docs/protocol.md).

The cookie decides the seat (a forged or missing token: spectator). One reader loop validates each
message and hands it to the service; one writer task turns "game changed" bus messages into this seat's
snapshot. Frames over ``ws_max_frame`` bytes close the socket with 1009, more than ``ws_max_rate``
messages in any second with 1008; a foreign ``Origin`` is refused with 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from admiral import i18n
from admiral.i18n import _
from admiral.service import GameService, ServiceError, metrics, parse_client_message

from ..config import Settings
from ..deps import COOKIE, SESSION_COOKIE, browser_hash_of_token, client_address, cross_site

__all__ = ["router"]

router = APIRouter()
log = logging.getLogger("admiral.ws")

CLOSE_POLICY = 1008
#: Instances sharing the games: seconds between re-reads of a game whose socket heard nothing (resync; pub/sub
#: loses messages only around a Redis reconnect, which triggers a resync of its own).
RESYNC_S = 10.0
CLOSE_TOO_BIG = 1009


class _Socket:
    """One open socket: serialised sends."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                # orjson: serialising snapshots was the largest single cost of a move with the stdlib encoder.
                await self.ws.send_text(orjson.dumps(message).decode())

    async def close(self, code: int, reason: str) -> None:
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.close(code, reason)


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Serve one game tab (see the module docstring)."""
    settings: Settings = ws.app.state.settings
    service: GameService = ws.app.state.service
    i18n.set_language(ws.cookies.get(i18n.COOKIE))  # this socket's messages (and its writer's) in its language
    if cross_site(ws, settings.allowed_origins):
        await ws.close(CLOSE_POLICY, "origin")
        return
    try:
        g = service.get(game_id)
    except ServiceError as e:
        await ws.accept()
        await ws.send_text(json.dumps(e.to_message(), ensure_ascii=False))
        await ws.close(CLOSE_POLICY, "not found")
        return
    browser = browser_hash_of_token(ws.cookies.get(COOKIE))
    if browser is not None and ws.cookies.get(SESSION_COOKIE):
        browser, _commander = ws.app.state.accounts.resolve(browser, ws.cookies.get(SESSION_COOKIE))
    side = g.seat_of(browser)
    await ws.accept()
    sock = _Socket(ws)
    sub = service.bus.subscribe(f"game:{g.id}")
    await service.connect(g, side)
    g.log.info("socket open role=%s", side or "spectator")

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
                if not changed and checks:
                    continue
            if all(m.get("type") == "notes" and m.get("side") != side for m in batch):
                continue  # another seat's private notes changed: nothing this socket may see
            for m in batch:
                if m.get("rematch_url") and side is not None:
                    await sock.send({"type": "rematch", "url": m["rematch_url"]})
            await g.settled.wait()  # an action's write in flight: show the game once it is stored (or undone)
            await sock.send(service.snapshot(g, side, browser))

    writer_task = asyncio.create_task(writer())
    stamps: deque[float] = deque()
    limits, address = ws.app.state.limits, client_address(ws)  # a rematch makes a game: RATE_GAMES counts it
    metrics.SOCKETS.inc()
    try:
        await service.refresh(g)  # sharing instances: this one's copy may be behind
        await g.settled.wait()
        await sock.send(service.snapshot(g, side, browser))
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            size = len(data.encode() if isinstance(data, str) else data)
            if size > settings.ws_max_frame:
                await sock.send({"type": "error", "code": "too_big", "message": _("Слишком большое сообщение."),
                                 "detail": {"max_bytes": settings.ws_max_frame}})  # fmt: skip
                await sock.close(CLOSE_TOO_BIG, "too big")
                break
            now = time.monotonic()
            stamps.append(now)
            while stamps and now - stamps[0] > 1.0:
                stamps.popleft()
            if len(stamps) > settings.ws_max_rate:
                await sock.send({"type": "error", "code": "flood", "message": _("Слишком много сообщений."),
                                 "detail": {"max_per_second": settings.ws_max_rate}})  # fmt: skip
                await sock.close(CLOSE_POLICY, "flood")
                g.log.warning("socket closed: flood role=%s", side or "spectator")
                break
            try:
                msg = parse_client_message(data)
                makes_game = side is not None and getattr(msg, "type", None) == "rematch" and g.rematch_id is None
                if makes_game and not limits.hit("games", address):
                    raise ServiceError("rate_limited", _("Слишком много новых партий подряд. Подождите минуту."))
                replies = await service.handle(g, side, msg)
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
        metrics.SOCKETS.dec()
        writer_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer_task
        sub.close()
        await service.disconnect(g, side)
        g.log.info("socket closed role=%s", side or "spectator")
