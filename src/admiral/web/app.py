"""The app factory: ``create_app(settings)`` wires settings → database → bus → service → routes."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIWebSocketRoute
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Router, WebSocketRoute
from starlette.types import Receive, Scope, Send

from admiral import i18n
from admiral.bus import EventBus, InProcessBus
from admiral.games import GAMES
from admiral.i18n import N_, _
from admiral.service import GameService, ServiceOptions, metrics, new_browser_token
from admiral.service.accounts import AccountService
from admiral.service.history import HistoryService
from admiral.service.lobby_room import LobbyRoom
from admiral.service.mail import MailConfig, Mailer
from admiral.service.progress import ProgressService
from admiral.service.turnmail import TurnMail
from admiral.service.tutorial import TutorialService
from admiral.store import AccountStore, Store, TutorialStore, make_engine, upgrade_database
from admiral.store.history import HistoryStore
from admiral.store.notify import NotifyStore

from .config import Settings
from .deps import (
    COOKIE,
    COOKIE_MAX_AGE,
    SESSION_COOKIE,
    RateLimits,
    api_error,
    client_address,
    cross_site,
    csrf_token,
    hash_token,
    rate_key,
    valid_token,
)
from .routes import accounts, api, history, install, lobby, notify, ops, pages, tutorial, ws
from .routes import i18n as i18n_routes
from .routes.ws import SocketGate

__all__ = ["create_app"]

#: Scripts come from this site only (no inline script, no eval: an injected tag runs nothing), and so do
#: connections (the game socket), images, fonts and forms' targets; nobody frames the pages. Inline style
#: attributes stay allowed (the rules page sizes its small boards with one).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: Paths whose GETs are not counted against RATE_PAGES: files, probes, the catalogs' scripts, the service worker
#: and the manifest (a browser checks them on every navigation).
UNLIMITED_PATHS = ("/static/", "/healthz", "/readyz", "/metrics", "/i18n/", "/sw.js", "/manifest.webmanifest")
#: POSTs that need no browser cookie: a mail client's one-click unsubscribe (RFC 8058), authorised by its signed
#: token alone.
COOKIELESS_POSTS = ("/mail/off/",)
#: Methods that never change state: the only ones that may issue a browser cookie.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def refuse(request: Request, code: str, message: str) -> Response:
    """A 403 without a cookie: JSON for API callers, the error page for browsers."""
    if "application/json" in request.headers.get("content-type", "") or request.url.path.startswith("/api/"):
        return api_error(403, code, message)
    templates = request.app.state.templates
    return templates.TemplateResponse(
        request, "error.html", {"request": request, "status": 403, "message": message}, status_code=403
    )


log = logging.getLogger("admiral.web")


def _think_budgets(max_ms: int) -> dict[int, float]:
    """Each AI level's think budget in seconds (the service's own), capped at ``max_ms`` when it is set
    (``BOT_THINK_MAX_MS``)."""
    budgets = ServiceOptions().bot_think_s
    if max_ms <= 0:
        return budgets
    return {level: min(s, max_ms / 1000) for level, s in budgets.items()}


def create_app(settings: Settings | None = None) -> FastAPI:
    """A ready FastAPI app for ``settings`` (read from the environment when ``None``).

    At startup it applies the Alembic migrations (``migrate_on_start``), resumes the timed games (the others load
    on first access) and
    starts the sweeper; at shutdown it checkpoints the clocks.
    """
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for lang in i18n.LANGUAGES:  # compile the catalogs now: a broken .po stops the start, not a request
            i18n.translations(lang), i18n_routes.client_script(lang)
        if settings.migrate_on_start:
            upgrade_database(settings.database_url)
        engine = app.state.engine = make_engine(settings.database_url)
        account_store = AccountStore(engine)
        bus: EventBus = InProcessBus()
        if settings.redis_url:  # several instances share the games: events, locks and presence through Redis
            from admiral.bus.redis import RedisBus

            bus = RedisBus(settings.redis_url)
            await bus.start()
        service = GameService(
            Store(engine),
            bus,
            GAMES,
            ServiceOptions(
                claim_grace_ms=settings.claim_grace_ms,
                sweep_interval_s=settings.sweep_interval_s,
                secret_key=settings.secret_key,
                waiting_ttl_s=settings.waiting_ttl_s,
                bot_workers=settings.bot_workers,
                bot_processes=settings.bot_processes,
                bot_delay_ms=settings.bot_delay_ms,
                bot_think_s=_think_budgets(settings.bot_think_max_ms),
                max_bot_games=settings.max_bot_games,
                max_bot_games_per_address=settings.max_bot_games_per_address,
                turn_mail_interval_s=settings.turn_mail_interval_s,
                idle_evict_s=settings.idle_evict_s,
            ),
            progress=ProgressService(account_store),
        )
        app.state.service = service
        mail = MailConfig(
            backend=settings.mail_backend, sender=settings.mail_from, directory=settings.mail_dir,
            host=settings.smtp_host, port=settings.smtp_port, user=settings.smtp_user,
            password=settings.smtp_password, starttls=settings.smtp_starttls,
        )  # fmt: skip
        app.state.accounts = AccountService(account_store, Mailer(mail), settings.public_url, on_rekey=service.rekey)
        app.state.tutorial = TutorialService(TutorialStore(engine))
        app.state.history = HistoryService(HistoryStore(engine), GAMES)  # «Мои партии» (issue 19)
        # issue 19: «ваш ход» mails of correspondence games, sent by the sweeper
        service.turn_mail = app.state.turn_mail = TurnMail(
            NotifyStore(engine), Mailer(mail), settings.public_url, settings.secret_key
        )
        await service.start()
        app.state.lobby = LobbyRoom(service, settings.secret_key)  # the lobby's copy and ticks (issue 19)
        await app.state.lobby.start()
        # What is loaded by now (modules, the ORM, catalogs, the games resumed) lives as long as the process:
        # out of the collector's sight, a full collection has that much less to scan (issue 16: full
        # collections of 200-320 ms every ~10 s under 500 games were the latency's tail).
        gc.collect()
        gc.freeze()
        freezer = asyncio.create_task(_freeze_forever(settings.gc_freeze_s, settings.gc_thaw_s))
        watch = asyncio.create_task(_watch_loop(metrics.LOOP_TICK_S))
        log.info("started environment=%s database=%s", settings.environment, engine.url.render_as_string())
        try:
            yield
        finally:
            freezer.cancel()
            watch.cancel()
            try:  # bounded: a stuck network call must not hold the process (or a test) forever
                await asyncio.wait_for(app.state.lobby.stop(), 5)
            except TimeoutError:
                log.error("lobby stop timed out")
            try:
                await asyncio.wait_for(service.stop(), 15)
            except TimeoutError:
                log.error("service stop timed out")
            try:
                await asyncio.wait_for(service.bus.close(), 5)
            except TimeoutError:
                log.error("bus close timed out")
            engine.dispose()

    # The API's description (/docs, /openapi.json) is for developers: a production server does not publish it.
    development = settings.environment == "development"
    app = AdmiralApp(
        title="«Адмирал» online", lifespan=lifespan, redoc_url=None, docs_url="/docs" if development else None,
        openapi_url="/openapi.json" if development else None,
        # Bodies over the cap get 413 before they are read whole (a 60 MB POST /games was: issue 16).
        max_body_size=settings.max_body_bytes,
    )  # fmt: skip
    app.state.settings = settings
    app.state.sockets = SocketGate(settings)
    app.state.limits = RateLimits(
        settings.rate_limit_storage,
        {
            "login": settings.rate_login, "login_account_address": settings.rate_login_account_address,
            "login_account": settings.rate_login_account, "register": settings.rate_register,
            "recover": settings.rate_recover, "recover_account_address": settings.rate_recover_account_address,
            "recover_account": settings.rate_recover_account, "feedback": settings.rate_feedback,
            "games": settings.rate_games, "challenges": settings.rate_challenges, "tutorial": settings.rate_tutorial,
            "sockets": settings.rate_sockets, "pages": settings.rate_pages, "chat": settings.rate_chat,
        },
    )  # fmt: skip

    def page_context(request: Request) -> dict:
        """What every page's template gets: the anti-CSRF token of forms, the logged-in commander, and for the
        language switch the current language, the choices and the page to come back to."""
        token = getattr(request.state, "browser_token", None)
        lang = i18n.current()
        return {
            "csrf_token": csrf_token(settings.secret_key, token) if token else "",
            "me": getattr(request.state, "commander", None),
            "lang": lang,
            "languages": i18n_routes.SWITCH,
            "here": i18n_routes.current_page(request),
            "catalog_version": i18n_routes.client_script(lang)[1],
        }

    app.state.templates = Jinja2Templates(directory=str(settings.templates_dir), context_processors=[page_context])
    # Every UI string in a template goes through gettext: `{{ _("…") }}` or `{% trans %}…{% endtrans %}`
    # (issue 7), in the language of the request (admiral.i18n: Russian unless the browser chose another).
    app.state.templates.env.add_extension("jinja2.ext.i18n")
    app.state.templates.env.install_gettext_callables(
        gettext=lambda s: i18n.translations(i18n.current()).gettext(s),
        ngettext=lambda s, p, n: i18n.translations(i18n.current()).ngettext(s, p, n),
        pgettext=lambda c, s: i18n.translations(i18n.current()).pgettext(c, s),
        npgettext=lambda c, s, p, n: i18n.translations(i18n.current()).npgettext(c, s, p, n),
        newstyle=True,
    )

    @app.middleware("http")
    async def browser_cookie(request: Request, call_next):
        """Give every browser a token cookie (docs/protocol.md "Identity"), and refuse state-changing
        requests from other sites.

        A cross-site form POST arrives without our SameSite=Lax cookie; answering it with a fresh cookie
        would overwrite the player's identity (their seats and setups). So a request that changes state
        must come from our own pages (``Origin``/``Sec-Fetch-Site``) and carry the cookie; only a safe
        request (GET, HEAD) ever issues one. Everything the request answers is in the browser's language
        (cookie ``admiral_lang``, Russian by default).
        """
        with i18n.use(request.cookies.get(i18n.COOKIE)):
            return await _serve(request, call_next)

    async def _serve(request: Request, call_next) -> Response:
        if (
            request.method in ("GET", "HEAD")
            and not request.url.path.startswith(UNLIMITED_PATHS)
            and not request.app.state.limits.hit("pages", rate_key(client_address(request)))
        ):  # pages cost the server's CPU: QA saw 16 clients of one address take two instances' cores (issue 16)
            message = _("Слишком много запросов подряд. Подождите минуту.")
            if _wants_json(request):
                return api_error(429, "rate_limited", message)
            return pages.error_page(request, 429, message)
        token = request.cookies.get(COOKIE)
        issued = None
        if request.method not in SAFE_METHODS:
            if cross_site(request, settings.allowed_origins):
                return refuse(request, "cross_site", _("Запрос с чужого сайта отклонён."))
            if not valid_token(token):
                if not request.url.path.startswith(COOKIELESS_POSTS):
                    return refuse(request, "no_cookie", _("Браузер не прислал cookie. Откройте страницу заново."))
                token = new_browser_token()  # a passing identity for this request only: no cookie is set
        elif not valid_token(token):
            token = issued = new_browser_token()
        request.state.browser_token = token
        request.state.player_key, request.state.commander = hash_token(token), None
        session = request.cookies.get(SESSION_COOKIE)
        if session and hasattr(request.app.state, "accounts"):
            try:
                key, commander = request.app.state.accounts.resolve(hash_token(token), session)
            except Exception:  # the database is down: serve as the browser's guest
                log.exception("session lookup failed")
            else:
                request.state.player_key, request.state.commander = key, commander
        response = await call_next(request)
        # Pages are never framed by other sites (clickjacking on the account forms), nor sniffed, nor referred.
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if response.status_code == 429:  # a refusal that names no wait of its own says "a minute" (the account
            response.headers.setdefault("Retry-After", "60")  # forms compute theirs: RateLimits.retry_after)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        if issued is not None:
            response.set_cookie(
                COOKIE, issued, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax",
                secure=request.url.scheme == "https",
            )  # fmt: skip
        return response

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        fields = [".".join(str(p) for p in e["loc"]) for e in exc.errors()[:5]]
        if not _wants_json(request) and request.method in ("GET", "HEAD"):  # a page's bad query: /leaders?page=x
            return pages.error_page(request, 400, _("Неверный адрес страницы."))
        return api_error(422, "bad_request", _("Неверный запрос."), {"fields": fields})

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        message = _(_HTTP_RU.get(exc.status_code, N_("Ошибка запроса.")))
        if _wants_json(request):
            return api_error(exc.status_code, "http_error", message)
        return pages.error_page(request, exc.status_code, message)

    routers = (
        ops.router, pages.router, accounts.router, history.router, api.router, tutorial.router, ws.router,
        lobby.router, i18n_routes.router,
        install.router,  # issue 19: the manifest, the service worker, the offline page
        notify.router,  # issue 19: «ваш ход» mails: the profile's switch, the unsubscribe link
    )  # fmt: skip
    for router in routers:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(settings.static_dir), check_dir=False), name="static")
    sockets = [r for router in routers for r in router.routes if isinstance(r, APIWebSocketRoute)]
    app.sockets = Router(routes=[WebSocketRoute(r.path, _direct(r.endpoint)) for r in sockets])
    return app


class AdmiralApp(FastAPI):
    """The FastAPI app, whose WebSockets skip the HTTP middleware stack and FastAPI's dependency machinery.

    A socket's handler runs for the whole game, and every layer it passes through stays in memory with it: the
    middleware stack (errors, the browser cookie, body limits, exception handlers, telemetry) and FastAPI's
    routing held ~11 KiB of each open socket (issue 23, tracemalloc), and none of them does anything for a
    socket: its handler checks the origin, the rate limit and the identity itself (:mod:`.routes.ws`,
    :mod:`.routes.lobby`). The routes are declared on the routers as ever; :func:`create_app` lists them in
    :attr:`sockets`."""

    #: The WebSocket routes, served straight from :meth:`__call__` (``None``: through the stack, as FastAPI does).
    sockets: Router | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.sockets is not None:
            for route in self.sockets.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    scope["app"] = self  # what ``WebSocket.app`` reads, as Starlette's own call sets it
                    await route.handle(scope, receive, send)
                    return
        await super().__call__(scope, receive, send)  # any other path: the whole stack, as ever


def _direct(endpoint: Callable[..., Awaitable[None]]) -> Callable[[WebSocket], Awaitable[None]]:
    """A FastAPI WebSocket endpoint ``(ws, **path params)`` as a Starlette one ``(ws)``."""

    async def run(websocket: WebSocket) -> None:
        await endpoint(websocket, **websocket.path_params)

    return run


async def _freeze_forever(every_s: float, thaw_s: float) -> None:
    """Every ``every_s`` seconds (0: never), move what is alive out of the collector's sight (``gc.freeze``): a
    full collection then scans only the objects made since, not every open game's and socket's. Every ``thaw_s``
    seconds the frozen objects are given back and collected once (one full pause), so that garbage cycles among
    them do not stay for the process's life. Settings ``GC_FREEZE_S``, ``GC_THAW_S``."""
    if every_s <= 0:
        return
    thawed = time.monotonic()
    while True:
        await asyncio.sleep(every_s)
        if time.monotonic() - thawed >= thaw_s:
            started = time.perf_counter()
            gc.unfreeze()
            garbage = gc.collect()
            # What waited for the thaw (cyclic garbage frozen with the living) and what giving it back cost.
            log.info(
                "gc thaw: %d unreachable objects collected in %.0f ms", garbage, (time.perf_counter() - started) * 1000
            )
            thawed = time.monotonic()
        gc.freeze()


async def _watch_loop(tick_s: float) -> None:
    """Forever: sleep ``tick_s`` seconds and observe how late the event loop woke this task into
    :data:`admiral.service.metrics.LOOP_LAG_SECONDS` (seconds; a collection's pause, a blocking call or a burst of
    messages shows there as lag)."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + tick_s
        await asyncio.sleep(tick_s)
        metrics.LOOP_LAG_SECONDS.observe(max(0.0, loop.time() - due))


def _wants_json(request: Request) -> bool:
    """Whether an error goes out as the JSON API's body (under ``/api/``, or asked for JSON) rather than a page."""
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


_HTTP_RU = {
    413: N_("Слишком большой запрос."),
    404: N_("Страница не найдена."),
    405: N_("Метод не поддерживается."),
    400: N_("Неверный запрос."),
}
