"""The lobby socket ``/ws/lobby`` (issue 19; docs/protocol.md "Lobby socket"): the open challenges, the games in
play, quick pairing. The server sends the whole list on connect (``lobby``), then coalesced deltas
(``challenges``), the games in play when they change (``live``), ``accepted`` (to a creator whose challenge was
taken), ``go`` (to the one who took it), ``paired``, ``seeking``, ``cancelled``, ``pong`` and ``error``. The client
sends ``accept``, ``cancel``, ``pair``, ``unpair``, ``ping`` (:func:`admiral.service.messages.parse_lobby_message`).
Challenges are created with the form, ``POST /games`` with ``listing=open``.

Budgets, as lila's lobby: a foreign ``Origin`` is refused at the handshake (HTTP 403), as are openings beyond
``RATE_SOCKETS`` per address; at most ``lobby_max_per_browser`` lobby sockets of one browser and
``ws_max_per_address`` sockets of one address (game sockets included) on an instance (1008 with an ``error``);
frames over ``lobby_max_frame`` bytes close with 1009; more than ``lobby_max_rate`` messages in any second close
with 1008 ``flood``; the address's budget across its sockets (``ws_max_rate_per_address``) refuses further
messages with ``flood``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from admiral import i18n
from admiral.i18n import _
from admiral.service import ServiceError, metrics
from admiral.service.lobby_room import LobbyListener, LobbyRoom
from admiral.service.messages import parse_lobby_message

from ..config import Settings
from ..deps import COOKIE, SESSION_COOKIE, browser_hash_of_token, client_address, cross_site, rate_key
from .ws import CLOSE_POLICY, CLOSE_TOO_BIG, SocketGate, _over, _refuse, receive_frame

__all__ = ["router"]

router = APIRouter()
room_log = logging.getLogger("admiral.lobby")


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """Serve one lobby socket (see the module docstring)."""
    settings: Settings = ws.app.state.settings
    room: LobbyRoom = ws.app.state.lobby
    gate: SocketGate = ws.app.state.sockets
    i18n.set_language(ws.cookies.get(i18n.COOKIE))
    if cross_site(ws, settings.allowed_origins):
        await ws.close(CLOSE_POLICY, "origin")  # before accept: the handshake is refused with HTTP 403
        return
    address = rate_key(client_address(ws))
    if not ws.app.state.limits.hit("sockets", address):
        await ws.close(CLOSE_POLICY, "rate limited")
        return
    browser = browser_hash_of_token(ws.cookies.get(COOKIE))
    if browser is None:
        error = ServiceError("no_cookie", _("Браузер не прислал cookie. Откройте страницу заново."))
        await _refuse(ws, error.to_message(), "no cookie")
        return
    commander = None
    if ws.cookies.get(SESSION_COOKIE):
        browser, commander = ws.app.state.accounts.resolve(browser, ws.cookies.get(SESSION_COOKIE))
    if room.sockets_of(browser) >= settings.lobby_max_per_browser:
        error = ServiceError(
            "too_many_tabs", _("Главная страница уже открыта в %(n)s вкладках. Закройте лишние.",
                               n=settings.lobby_max_per_browser),
            {"max": settings.lobby_max_per_browser},
        )  # fmt: skip
        await _refuse(ws, error.to_message(), "too many tabs")
        return
    if not gate.admit(address):
        error = ServiceError(
            "too_many_sockets", _("С вашего адреса открыто слишком много вкладок. Закройте лишние."),
            {"max": gate.max_open},
        )  # fmt: skip
        await _refuse(ws, error.to_message(), "too many sockets")
        return
    try:
        await ws.accept()
        marks = ws.app.state.service.seat_marks(address, ws.cookies.get(COOKIE))
        listener = await room.join(browser, guest=commander is None, marks=marks)
        metrics.SOCKETS.inc()
        try:
            await _serve(ws, settings, room, gate, listener, address)
        finally:
            metrics.SOCKETS.dec()
            room.leave(listener)
    finally:
        gate.release(address)


async def _serve(
    ws: WebSocket, settings: Settings, room: LobbyRoom, gate: SocketGate, listener: LobbyListener, address: str
) -> None:
    """The accepted lobby socket of ``listener`` until it closes: a writer drains the listener's outbox (the room
    fills it), the reader below takes the client's messages."""
    lock = asyncio.Lock()

    async def send(text: str) -> None:
        async with lock:
            if ws.application_state == WebSocketState.CONNECTED:
                await ws.send_text(text)

    async def send_error(e: ServiceError) -> None:
        await send(_json(e.to_message()))

    async def writer() -> None:
        while True:
            text = await listener.queue.get()
            await send(room.full_text(listener) if text is None else text)

    listener.push(None)  # the first message: the whole list
    writer_task = asyncio.create_task(writer())
    own: deque[float] = deque()  # this socket's messages in the last second
    shared: deque[float] = deque()  # its messages as SocketGate counts them for the address
    try:
        while (frame := await receive_frame(ws)) is not None:
            data, size, received = frame
            if size > settings.lobby_max_frame:
                await send_error(ServiceError("too_big", _("Слишком большое сообщение."),
                                              {"max_bytes": settings.lobby_max_frame}))  # fmt: skip
                async with lock:
                    await ws.close(CLOSE_TOO_BIG, "too big")
                break
            if _over(own, received, settings.lobby_max_rate):
                detail = {"max_per_second": settings.lobby_max_rate, "per": "socket"}
                await send_error(ServiceError("flood", _("Слишком много сообщений."), detail))
                async with lock:
                    await ws.close(CLOSE_POLICY, "flood")
                break
            if gate.message(address, shared, received) is not None:
                await send_error(ServiceError("flood", _("Слишком много сообщений."),
                                              {"max_per_second": settings.ws_max_rate_per_address,
                                               "per": "address"}))  # fmt: skip
                continue
            try:
                replies = await room.handle(listener, parse_lobby_message(data))
            except ServiceError as e:
                replies = [e.to_message()]
            except Exception:
                room_log.exception("lobby message failed")
                replies = [{"type": "error", "code": "internal", "message": _("Внутренняя ошибка сервера."),
                            "detail": None}]  # fmt: skip
            for reply in replies:
                await send(_json(reply))
    except WebSocketDisconnect:
        pass
    finally:
        writer_task.cancel()


def _json(message: dict) -> str:
    return orjson.dumps(message).decode()
