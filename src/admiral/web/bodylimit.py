"""A cap on request bodies, in the app itself (issue 16: a 60 MB JSON ``POST /games`` was read whole).

nginx caps bodies too (``client_max_body_size``), but the app may run without it (the embedded default) or behind
another proxy: :class:`BodyLimit` answers ``413`` to a request whose ``Content-Length`` is over the cap before
reading a byte, and stops a body without a length (chunked) as soon as it goes over.
"""

from __future__ import annotations

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from admiral import i18n
from admiral.i18n import _

from .deps import api_error

__all__ = ["BodyLimit"]


class _TooLarge(Exception):
    """The body went over the cap while the app read it."""


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``max_bytes`` bytes; larger ones get ``413``
    ``{"error": {"code": "too_large", "message", "detail": {"max_bytes"}}}`` and are not read further.
    WebSocket frames have their own cap (``ws_max_frame``)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except _TooLarge:
            if started:
                raise
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        cookies = cookie_parser(dict(scope["headers"]).get(b"cookie", b"").decode("latin-1"))
        with i18n.use(cookies.get(i18n.COOKIE)):
            response = api_error(413, "too_large", _("Слишком большой запрос."), {"max_bytes": self.max_bytes})
        response.headers["Connection"] = "close"
        await response(scope, receive, send)
