"""Typed dependencies of the routes and the browser-token cookie (docs/protocol.md "Identity")."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from admiral.service import GameService, hash_token

from .config import Settings

__all__ = [
    "COOKIE", "BrowserHash", "ServiceDep", "SettingsDep", "api_error", "browser_hash_of_token", "cross_site",
    "valid_token",
]  # fmt: skip

#: The browser-token cookie.
COOKIE = "admiral_browser"
#: One year, seconds.
COOKIE_MAX_AGE = 365 * 24 * 3600


def valid_token(token: str | None) -> bool:
    """Whether ``token`` looks like one the server issued (43 URL-safe base64 characters)."""
    return isinstance(token, str) and len(token) == 43 and all(c.isalnum() or c in "-_" for c in token)


def browser_hash_of_token(token: str | None) -> str | None:
    """``sha256`` hex of a well-formed token, else ``None`` (a forged or missing token: spectator)."""
    return hash_token(token) if valid_token(token) else None


def cross_site(request: HTTPConnection, allowed_origins: list[str]) -> bool:
    """Whether a request comes from another site: ``Sec-Fetch-Site: cross-site``, or an ``Origin`` that
    names neither this host nor one of ``allowed_origins``. Clients that send neither (scripts, tests)
    are not cross-site: they cannot carry a victim's cookie."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        return True
    origin = request.headers.get("origin")
    if origin is None or origin in allowed_origins:
        return False
    return urlsplit(origin).netloc.lower() != request.headers.get("host", "").lower()


def get_service(request: Request) -> GameService:
    """The app's :class:`GameService`."""
    return request.app.state.service


def get_settings(request: Request) -> Settings:
    """The app's :class:`Settings`."""
    return request.app.state.settings


def get_browser_hash(request: Request) -> str:
    """The hash of this request's browser token (the middleware issued one if there was none)."""
    return hash_token(request.state.browser_token)


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
BrowserHash = Annotated[str, Depends(get_browser_hash)]


def api_error(status: int, code: str, message: str, detail: object = None) -> JSONResponse:
    """The JSON API's error body ``{"error": {"code", "message"[, "detail"]}}`` with a 4xx ``status``."""
    body: dict = {"code": code, "message": message}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse({"error": body}, status_code=status)
