"""Typed dependencies of the routes and the browser-token cookie (docs/protocol.md "Identity")."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import time
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from admiral.service import GameService, hash_token
from admiral.service.accounts import AccountService, Commander
from admiral.service.tutorial import TutorialService

from .config import Settings

__all__ = [
    "COOKIE", "SESSION_COOKIE", "AccountsDep", "BrowserHash", "CommanderDep", "RateLimits", "ServiceDep",
    "SettingsDep", "TutorialDep", "api_error", "browser_hash_of_token", "checked_form", "client_address",
    "cross_site", "csrf_token", "hash_token", "rate_key", "valid_token",
]  # fmt: skip

#: The browser-token cookie.
COOKIE = "admiral_browser"
#: The login-session cookie (a registered commander logged in on this browser).
SESSION_COOKIE = "admiral_session"
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
    """The identity key of this request: the logged-in commander's, else the hash of the browser token (the
    middleware resolved it; it issued a token if there was none)."""
    return request.state.player_key


def get_commander(request: Request) -> Commander | None:
    """The registered commander logged in on this request, else ``None`` (a guest)."""
    return request.state.commander


def get_accounts(request: Request) -> AccountService:
    """The app's :class:`AccountService`."""
    return request.app.state.accounts


def get_tutorial(request: Request) -> TutorialService:
    """The app's :class:`TutorialService`."""
    return request.app.state.tutorial


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
BrowserHash = Annotated[str, Depends(get_browser_hash)]
CommanderDep = Annotated[Commander | None, Depends(get_commander)]
AccountsDep = Annotated[AccountService, Depends(get_accounts)]
TutorialDep = Annotated[TutorialService, Depends(get_tutorial)]


def csrf_token(secret: str, browser_token: str) -> str:
    """The anti-CSRF token of a browser: an HMAC of its (HttpOnly) token, so another site can neither read
    nor compute it. Every state-changing form carries it in ``csrf_token``."""
    return hmac.new(secret.encode(), f"csrf:{browser_token}".encode(), hashlib.sha256).hexdigest()[:40]


async def checked_form(request: Request) -> dict[str, str] | None:
    """The submitted form's fields if its ``csrf_token`` matches this browser's, else ``None`` (refuse it).
    Values that are not text (files) are dropped.

    :raises starlette.exceptions.HTTPException: 400 for a body that is not a form Starlette accepts (over 1000
        fields, a broken multipart body): it is not an outdated form, and must not be told it is (QA, issue 16)."""
    try:
        form = await request.form()
    except Exception:
        raise StarletteHTTPException(400) from None
    data = {k: v for k, v in form.items() if isinstance(v, str)}
    expected = csrf_token(request.app.state.settings.secret_key, request.state.browser_token)
    if not hmac.compare_digest(data.pop("csrf_token", ""), expected):
        return None
    return data


class RateLimits:
    """Named rate limits over the ``limits`` library (moving window): ``hit(name, *key)`` counts one request
    of ``key`` (a client address's :func:`rate_key`, an account, an account and an address) against limit
    ``name`` and says whether it is allowed; ``test(name, *key)`` says whether one more would be, counting
    nothing; ``retry_after(name, *key)`` how many seconds until it would be. ``storage``: a ``limits`` storage
    URI (``memory://``, ``redis://…``); ``limits``: name → ``limits`` notation (``"5/minute;20/hour"``: every
    window must have room).

    >>> limits = RateLimits("memory://", {"try": "2/minute"})
    >>> limits.test("try", "a"), limits.hit("try", "a"), limits.hit("try", "a"), limits.test("try", "a")
    (True, True, True, False)
    >>> limits.hit("try", "a"), limits.test("try", "a", "b"), limits.retry_after("try", "a")
    (False, True, 60)
    """

    def __init__(self, storage: str, limits: dict[str, str]) -> None:
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage))
        self.limits = {name: parse_many(text) for name, text in limits.items()}

    def hit(self, name: str, *key: str) -> bool:
        """Count a request; ``False`` when any of the limit's windows is full (the request must be refused).
        The request counts in every window, refused or not."""
        return all([self.limiter.hit(item, name, *key) for item in self.limits[name]])

    def test(self, name: str, *key: str) -> bool:
        """Whether a request of ``key`` would be allowed now (every window has room); counts nothing."""
        return all(self.limiter.test(item, name, *key) for item in self.limits[name])

    def retry_after(self, name: str, *key: str) -> int:
        """Whole seconds until every window of limit ``name`` has room for one more request of ``key`` (the
        oldest request in each full window leaves it), ``0`` if they have now; counts nothing. With
        ``"5/minute;20/hour"`` and the hour full, up to 3600: the answer a refusal's ``Retry-After`` gives."""
        now = time.time()
        waits = [0.0]
        for item in self.limits[name]:
            reset, remaining = self.limiter.get_window_stats(item, name, *key)
            if remaining <= 0:
                waits.append(reset - now)
        return max(0, math.ceil(max(waits)))

    def clear(self) -> None:
        """Forget every counter (tests)."""
        self.limiter.storage.reset()


def client_address(request: HTTPConnection) -> str:
    """The client's address as seen by the server (behind a proxy: run uvicorn with ``--proxy-headers``)."""
    return request.client.host if request.client else "unknown"


def rate_key(address: str) -> str:
    """The key a client address counts under in per-address limits: an IPv6 address's /64 network (one
    subnet, the least an end site is given, RFC 6177; its machines choose their own low 64 bits, so keying
    the full address gave one subscriber 2^64 budgets), an IPv4 address (an IPv4-mapped IPv6 one too) and
    anything that is not an address (``"testclient"``, ``"unknown"``) as they are.

    >>> rate_key("2001:db8:1:2:aaaa::1"), rate_key("2001:DB8:1:2::ffff"), rate_key("2001:db8:1:3::1")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64', '2001:db8:1:3::/64')
    >>> rate_key("203.0.113.7"), rate_key("::ffff:203.0.113.7"), rate_key("testclient")
    ('203.0.113.7', '203.0.113.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def api_error(status: int, code: str, message: str, detail: object = None) -> JSONResponse:
    """The JSON API's error body ``{"error": {"code", "message"[, "detail"]}}`` with a 4xx ``status``."""
    body: dict = {"code": code, "message": message}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse({"error": body}, status_code=status)
