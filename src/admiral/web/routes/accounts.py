"""Commander pages (issue 5, PROGRESSION.md §1): register, log in and out, recover a password, the
service record «Личное дело», public profiles, the leaderboard and «Обратная связь».

Every form carries the browser's anti-CSRF token (:func:`~admiral.web.deps.checked_form`); login,
registration, recovery and feedback are rate-limited per client address (an IPv6 one by its /64:
:func:`~admiral.web.deps.rate_key`); login and recovery also per account named, from this address and, far
higher, from anywhere (failed logins only: README's settings). A refusal (``429``) says how long to wait: the
minutes in its message, the seconds in ``Retry-After``, until every window that refused has room again.
Password hashing runs in the thread pool, off the event loop.
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from admiral.games import progression_games
from admiral.i18n import N_, _, ngettext
from admiral.progression import Career, rank_for
from admiral.progression.rating import DEFAULT_RATING, PROVISIONAL_RD
from admiral.service import ServiceError
from admiral.service.accounts import account_key

from ..charts import rating_chart
from ..deps import SESSION_COOKIE, AccountsDep, BrowserHash, CommanderDep, checked_form, client_address, rate_key
from .history import get_history, recent_context
from .notify import turn_mail_state
from .pages import error_page, render

__all__ = ["router"]

router = APIRouter(tags=["commanders"])

SESSION_MAX_AGE = 30 * 24 * 3600
PAGE_SIZE = 25
#: Rated games a commander needs to stand in the rating table (PROGRESSION.md §4; and RD ≤ 110).
RATED_GAMES_MIN = 10
_CSRF_MESSAGE = N_("Форма устарела или пришла с чужого сайта. Обновите страницу и попробуйте снова.")


def _login_response(request: Request, url: str, session: str) -> Response:
    response = RedirectResponse(url, status_code=303)
    response.set_cookie(
        SESSION_COOKIE, session, max_age=SESSION_MAX_AGE, path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )  # fmt: skip
    return response


def _address(request: Request) -> str:
    """The client address as the rate limits key it (:func:`~admiral.web.deps.rate_key`: an IPv6 one's /64)."""
    return rate_key(client_address(request))


def _limited(request: Request, name: str) -> bool:
    """Count the request against limit ``name`` per client address; whether that limit is exceeded."""
    return not request.app.state.limits.hit(name, _address(request))


def _wait(request: Request, name: str, account: str | None = None) -> int:
    """Whole seconds (at least 1) until a refused request has room under limit ``name`` of this address and, with
    ``account``, under ``{name}_account_address`` and ``{name}_account`` (:func:`_account_allows`): the longest
    wait of the windows that are full. Counts nothing."""
    limits, address = request.app.state.limits, _address(request)
    waits = [limits.retry_after(name, address)]
    if account is not None:
        waits += [limits.retry_after(f"{name}_account_address", account, address)]
        waits += [limits.retry_after(f"{name}_account", account)]
    return max(1, *waits)


def _slow_down(seconds: int) -> str:
    """The refusal of a request over a rate limit, in the current language, with the wait in whole minutes
    (rounded up): «Слишком много попыток. Подождите 60 минут и попробуйте снова.» for ``3600``."""
    return ngettext(
        "Слишком много попыток. Подождите %(num)s минуту и попробуйте снова.",
        "Слишком много попыток. Подождите %(num)s минут и попробуйте снова.",
        max(1, math.ceil(seconds / 60)),
    )


def _too_many(response: Response, seconds: int) -> Response:
    """A ``429`` ``response`` with ``Retry-After: seconds`` (the app's middleware keeps it: its default, 60, is
    for the limits that do not say)."""
    response.headers["Retry-After"] = str(seconds)
    return response


def _account_allows(request: Request, name: str, account: str) -> bool:
    """Whether ``account`` (a key from :meth:`~admiral.service.accounts.AccountService.account_of`) has room
    for one more try from this client address: under limit ``{name}_account_address`` (this account from
    this address) and under ``{name}_account`` (this account from any address, the backstop). Counts
    nothing (:func:`_account_count` does), so a try refused here is not held against the account."""
    limits = request.app.state.limits
    return limits.test(f"{name}_account_address", account, _address(request)) and limits.test(
        f"{name}_account", account
    )


def _account_count(request: Request, name: str, account: str) -> None:
    """Count one try of ``account`` from this address against ``{name}_account_address`` and
    ``{name}_account`` (for a login: a failed one only, OWASP ASVS 5.0 V6.3: someone else's failures at
    other addresses slow the account down but, below the backstop, never lock its owner out).

    Checked first and counted after the password check, two tries of one account from one address that
    run at the same moment can both pass a limit with one place left: the per-address limit bounds that."""
    limits = request.app.state.limits
    limits.hit(f"{name}_account_address", account, _address(request))
    limits.hit(f"{name}_account", account)


# -- registration ------------------------------------------------------------------------------------


@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, me: CommanderDep) -> Response:
    """The registration form (a logged-in commander goes to the profile)."""
    if me is not None:
        return RedirectResponse("/profile", status_code=303)
    return render(request, "register.html", {"form": {}, "error": None})


@router.post("/register", response_model=None)
async def register(request: Request, accounts: AccountsDep, key: BrowserHash, me: CommanderDep) -> Response:
    """Register this browser's guest (keeping what it earned) and log in: ``303`` to the profile."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    shown = {"email": form.get("email", "")[:254], "nickname": form.get("nickname", "")[:64]}
    if me is not None:
        return RedirectResponse("/profile", status_code=303)
    if _limited(request, "register"):
        wait = _wait(request, "register")
        return _too_many(render(request, "register.html", {"form": shown, "error": _slow_down(wait)}, 429), wait)
    if form.get("password", "") != form.get("password2", ""):
        return render(request, "register.html", {"form": shown, "error": _("Пароли не совпадают.")}, 400)
    try:
        commander, session = await run_in_threadpool(
            accounts.register, key, form.get("email", ""), form.get("nickname", ""), form.get("password", "")
        )
    except ServiceError as e:
        return render(request, "register.html", {"form": shown, "error": e.message}, 400)
    # the guest's open challenges moved to the new identity: every lobby lists them as the commander's, and the
    # browser's open home tabs become the commander's (issue 19)
    lobby = getattr(request.app.state, "lobby", None)
    if lobby is not None:
        await lobby.rekeyed(key, commander.key)
    return _login_response(request, "/profile", session)


# -- login and logout ----------------------------------------------------------------------------------


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request) -> HTMLResponse:
    """The login form."""
    return render(request, "login.html", {"login": "", "error": None})


@router.post("/login", response_model=None)
async def login(request: Request, accounts: AccountsDep, key: BrowserHash, me: CommanderDep) -> Response:
    """Log in by e-mail or nickname: a new session (``303`` to the profile), or the form again with an error."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    name = form.get("login", "")[:254]
    if _limited(request, "login"):
        wait = _wait(request, "login")
        return _too_many(render(request, "login.html", {"login": name, "error": _slow_down(wait)}, 429), wait)
    account = await run_in_threadpool(accounts.account_of, name)
    if not _account_allows(request, "login", account):
        wait = _wait(request, "login", account)
        return _too_many(render(request, "login.html", {"login": name, "error": _slow_down(wait)}, 429), wait)
    try:
        commander, session = await run_in_threadpool(accounts.login, name, form.get("password", ""))
    except ServiceError as e:
        _account_count(request, "login", account)  # only a failure counts against the account
        return render(request, "login.html", {"login": name, "error": e.message}, 400)
    lobby = getattr(request.app.state, "lobby", None)
    if me is None and lobby is not None:  # a guest logged in: its challenges and seek are withdrawn, its home tabs
        await lobby.left_identity(key, commander.key)  # become the account's
    # a browser holds one session: logging in as someone else ends the previous one on the server too
    await run_in_threadpool(accounts.logout, request.cookies.get(SESSION_COOKIE))
    return _login_response(request, "/profile", session)


@router.post("/logout", response_model=None)
async def logout(request: Request, accounts: AccountsDep) -> Response:
    """End the session on the server and drop its cookie: ``303`` home."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    await run_in_threadpool(accounts.logout, request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# -- password recovery ------------------------------------------------------------------------------------


@router.get("/recover", response_class=HTMLResponse)
async def recover_page(request: Request) -> HTMLResponse:
    """The «Восстановить доступ» form."""
    return render(request, "recover.html", {"sent": False, "error": None})


@router.post("/recover", response_model=None)
async def recover(request: Request, accounts: AccountsDep) -> Response:
    """Send a recovery link if the address is registered; the answer is the same either way."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    email = form.get("email", "")[:254]
    if _limited(request, "recover") or not _account_allows(request, "recover", account_key(email)):
        wait = _wait(request, "recover", account_key(email))
        return _too_many(render(request, "recover.html", {"sent": False, "error": _slow_down(wait)}, 429), wait)
    _account_count(request, "recover", account_key(email))  # every request served counts: each may send a mail
    await run_in_threadpool(accounts.request_reset, email)
    return render(request, "recover.html", {"sent": True, "error": None})


@router.get("/reset/{token}", response_class=HTMLResponse)
async def reset_page(request: Request, token: str, accounts: AccountsDep) -> HTMLResponse:
    """The new-password form of a recovery link (or why the link no longer works)."""
    valid = await run_in_threadpool(accounts.reset_valid, token)
    return render(request, "reset.html", {"token": token, "valid": valid, "error": None, "done": False})


@router.post("/reset/{token}", response_model=None)
async def reset(request: Request, token: str, accounts: AccountsDep) -> Response:
    """Set the new password (the link is spent; every session of the commander ends)."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    ctx = {"token": token, "valid": True, "done": False, "error": None}
    if _limited(request, "recover"):
        wait = _wait(request, "recover")
        return _too_many(render(request, "reset.html", {**ctx, "error": _slow_down(wait)}, 429), wait)
    if form.get("password", "") != form.get("password2", ""):
        return render(request, "reset.html", {**ctx, "error": _("Пароли не совпадают.")}, 400)
    try:
        await run_in_threadpool(accounts.reset, token, form.get("password", ""))
    except ServiceError as e:
        return render(request, "reset.html", {**ctx, "valid": e.code != "bad_link", "error": e.message}, 400)
    response = render(request, "reset.html", {**ctx, "done": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/profile/password", response_model=None)
async def change_password(request: Request, accounts: AccountsDep, me: CommanderDep) -> Response:
    """Change the password (the current one required): other sessions end, this browser gets a new one."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    if me is None:
        return RedirectResponse("/login", status_code=303)
    account = f"commander:{me.id}"  # as AccountService.account_of names it
    if _limited(request, "login") or not _account_allows(request, "login", account):
        wait = _wait(request, "login", account)
        return _too_many(error_page(request, 429, _slow_down(wait)), wait)
    if form.get("password", "") != form.get("password2", ""):
        return error_page(request, 400, _("Пароли не совпадают."))
    try:
        session = await run_in_threadpool(accounts.change_password, me, form.get("old", ""), form.get("password", ""))
    except ServiceError as e:
        if e.code == "bad_login":  # a wrong current password is a failed login
            _account_count(request, "login", account)
        return error_page(request, 400, e.message)
    return _login_response(request, "/profile?password=changed", session)


# -- feedback -------------------------------------------------------------------------------------------


@router.get("/feedback", response_class=HTMLResponse)
async def feedback_page(request: Request) -> HTMLResponse:
    """The «Обратная связь» form."""
    return render(request, "feedback.html", {"sent": False, "error": None, "message": "", "contact": ""})


@router.post("/feedback", response_model=None)
async def feedback(request: Request, accounts: AccountsDep, me: CommanderDep) -> Response:
    """Store a message for the site's author (with the commander, if logged in)."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _(_CSRF_MESSAGE))
    ctx = {"sent": False, "message": form.get("message", "")[:4000], "contact": form.get("contact", "")[:254]}
    if _limited(request, "feedback"):
        wait = _wait(request, "feedback")
        return _too_many(render(request, "feedback.html", {**ctx, "error": _slow_down(wait)}, 429), wait)
    try:
        await run_in_threadpool(accounts.feedback, me, ctx["contact"], form.get("message", ""))
    except ServiceError as e:
        return render(request, "feedback.html", {**ctx, "error": e.message}, 400)
    return render(request, "feedback.html", {"sent": True, "error": None, "message": "", "contact": ""})


# -- the service record, public profiles, the leaderboard ----------------------------------------------------


def _career_badge(rules: Any, career: Any) -> Markup | None:
    """The game's own picture of a career on the profile (e.g. «Морской бой: расширенный»'s ability icons of the
    commander's level, C7), when its ruleset draws one: an optional ``career_badge(career) -> str`` giving inline
    SVG the game builds from fixed shapes only (no text from outside), so it is shown as it is."""
    draw = getattr(rules, "career_badge", None)
    return None if draw is None else Markup(draw(career))


def _record_context(commander: Any, accounts: Any, *, own: bool) -> dict[str, Any]:
    """What «Личное дело» shows: rank and progress from the points total, totals over every game, a block per game
    played (its games, wins, draws, losses, points and the game's own lines), «Адмирал»'s awards left and right (one
    sign each). Reads the database: call it off the event loop."""
    careers = accounts.careers(commander)
    admiral = careers.get("admiral")
    standings = Career.from_dict(admiral.career if admiral is not None else {}).award_standings()
    games = [
        {
            "key": key, "name": rules.info.name, "totals": careers[key],
            "lines": rules.career_stats(careers[key].career), "badge": _career_badge(rules, careers[key].career),
        }
        for key, rules in progression_games().items()
        if key in careers
    ]  # fmt: skip
    rated = accounts.ratings(commander)  # PROGRESSION.md §4: the rating per game and its chart
    ratings = [
        {
            "key": key,
            "name": rules.info.name,
            "rating": rated[key][0],
            "chart": rating_chart(rated[key][1], DEFAULT_RATING),
        }
        for key, rules in progression_games().items()
        if key in rated
    ]
    return {
        "ratings": ratings,
        "commander": commander,
        "own": own,
        "rank": rank_for(commander.points),
        "totals": {n: sum(getattr(c, n) for c in careers.values()) for n in ("games", "wins", "draws", "losses")},
        "games": games,
        "left": [a for a in standings if a.award.side == "left"],
        "right": [a for a in standings if a.award.side == "right"],
        "place": accounts.store.place_of(commander.points) if commander.registered else None,
    }


@router.get("/profile", response_class=HTMLResponse)
async def profile(request: Request, accounts: AccountsDep, key: BrowserHash, me: CommanderDep) -> HTMLResponse:
    """This browser's commander: «Личное дело» (a guest's too, with the offer to register)."""
    commander = me or await run_in_threadpool(accounts.commander, key)
    ctx = await run_in_threadpool(_record_context, commander, accounts, own=True)
    ctx.update(await run_in_threadpool(recent_context, get_history(request), commander.key))  # issue 19
    ctx["password_changed"] = request.query_params.get("password") == "changed"
    ctx["turn_mail"] = await turn_mail_state(request, commander.id if commander.registered else None)  # issue 19
    return render(request, "profile.html", ctx)


@router.get("/c/{nickname}", response_class=HTMLResponse)
async def public_profile(request: Request, nickname: str, accounts: AccountsDep, me: CommanderDep) -> HTMLResponse:
    """A registered commander's public «Личное дело» (no e-mail)."""
    commander = await run_in_threadpool(accounts.public, nickname[:64])
    if commander is None:
        return error_page(request, 404, _("Командир не найден."))
    own = me is not None and me.id == commander.id
    ctx = await run_in_threadpool(_record_context, commander, accounts, own=own)
    ctx.update(await run_in_threadpool(recent_context, get_history(request), commander.key))  # issue 19
    return render(request, "profile.html", {**ctx, "public": True})


@router.get("/leaders", response_class=HTMLResponse)
async def leaders(request: Request, accounts: AccountsDep, page: int = 1, game: str = "") -> HTMLResponse:
    """Registered commanders, ``PAGE_SIZE`` a page: by the points total over every game, or with ``game`` (a key of
    a game with points) those who played it, by the points earned in it. A switch above the table picks the game."""
    games = progression_games()
    if game and game not in games:
        return error_page(request, 404, _("Такой игры на сайте нет."))
    page = max(1, min(page, 10_000))
    rows, total = await run_in_threadpool(accounts.store.leaderboard, (page - 1) * PAGE_SIZE, PAGE_SIZE, game or None)
    entries = [
        {"place": (page - 1) * PAGE_SIZE + i + 1, "nickname": r.commander.nickname, "points": r.points,
         "rank": rank_for(r.commander.points), "games": r.games}
        for i, r in enumerate(rows)
    ]  # fmt: skip
    pages = max(1, (total + PAGE_SIZE - 1) // PAGE_SIZE)
    switch = [("", N_("Все игры"))] + [(key, rules.info.name) for key, rules in games.items()]
    by_rating = []  # PROGRESSION.md §4: the second table, by rating, per game (the chosen one, or each)
    for key in [game] if game else list(games):
        top, _n = await run_in_threadpool(
            accounts.store.rating_leaderboard, key, 0, PAGE_SIZE, RATED_GAMES_MIN, PROVISIONAL_RD
        )
        by_rating.append({"key": key, "name": games[key].info.name, "entries": [
            {"place": i + 1, "nickname": r.commander.nickname, "rating": round(r.rating.rating),
             "rd": round(r.rating.rd), "games": r.rating.games}
            for i, r in enumerate(top)
        ]})  # fmt: skip
    return render(
        request, "leaders.html",
        {"entries": entries, "page": page, "pages": pages, "total": total, "game": game,
         "game_name": games[game].info.name if game else None, "switch": switch, "by_rating": by_rating,
         "rated_games_min": RATED_GAMES_MIN},
    )  # fmt: skip


@router.get("/api/me", tags=["api"])
async def api_me(me: CommanderDep, key: BrowserHash, accounts: AccountsDep) -> dict[str, Any]:
    """This browser's commander: ``{"registered", "nickname", "points", "rank", "games_played", "games"}``:
    ``points`` the total over every game and ``rank`` by it, ``games_played`` counted games of every game, and
    ``games`` per game played ``{key: {"games", "wins", "draws", "losses", "points"}}``."""
    commander = me or await run_in_threadpool(accounts.commander, key)
    careers = await run_in_threadpool(accounts.careers, commander)
    per_game = {
        game: {"games": c.games, "wins": c.wins, "draws": c.draws, "losses": c.losses, "points": c.points}
        for game, c in careers.items()
    }
    return {"registered": commander.registered, "nickname": commander.nickname, "points": commander.points,
            "rank": rank_for(commander.points).to_dict(), "games_played": sum(c.games for c in careers.values()),
            "games": per_game}  # fmt: skip
