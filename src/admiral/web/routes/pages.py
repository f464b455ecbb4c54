"""HTML pages: home, rules, game, invite, errors; ``POST /games`` and ``POST /j/{invite}`` (docs/protocol.md)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from admiral.games import DEFAULT_GAME, GAMES, GameInfo, Option, RulesPage, UnknownGame, ruleset
from admiral.i18n import _
from admiral.service import GameSettings, ServiceError
from admiral.service.lobby import room_labels

from ..deps import BrowserHash, ServiceDep, SettingsDep, api_error, checked_form, client_address, rate_key

__all__ = ["error_page", "router"]

router = APIRouter(tags=["pages"])
#: A form field ``opt_<name>`` carries the room option ``<name>`` of the chosen game.
OPTION_PREFIX = "opt_"


def client_entry(key: str) -> str:
    """The URL of the entry module of game ``key``'s browser client (``/static/js/games/<key>/main.js``)."""
    return f"/static/js/games/{key}/main.js"


@cache
def manifest_text(key: str) -> tuple[str, str]:
    """Game ``key``'s manifest as JSON text and its version (a hash of the text).

    :raises UnknownGame: for a key no game has."""
    text = json.dumps(ruleset(key).manifest(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


def manifest_url(key: str) -> str:
    """``/games/{key}/manifest.json?v={version}``: the URL pages give their client, cacheable for a year."""
    return f"/games/{key}/manifest.json?v={manifest_text(key)[1]}"


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """Render ``templates/{name}`` with ``request`` plus ``context``."""
    return request.app.state.templates.TemplateResponse(request, name, context, status_code=status)


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    """The error page (``templates/error.html``: ``status``, ``message``)."""
    return render(request, "error.html", {"status": status, "message": message}, status)


class GameCreate(BaseModel):
    """``POST /games`` body (form or JSON). ``game``: a key of the registry (default «Адмирал»); ``options``: its
    room options (JSON; a form sends each as a field ``opt_<name>``). ``opponent``: ``friend`` or ``ai`` (then
    ``ai_level`` 1–5). ``base_ms``/``increment_ms``/``setup_ms`` are accepted only with the
    ``TEST_TIME_CONTROLS`` setting (tests, benchmarks)."""

    model_config = ConfigDict(extra="ignore")

    game: Annotated[str, Field(max_length=32)] = DEFAULT_GAME
    options: Annotated[
        dict[Annotated[str, Field(max_length=32)], Annotated[str, Field(max_length=32)] | bool | int],
        Field(max_length=8),
    ] = {}
    time_control: str = "none"
    base_minutes: int | None = None
    increment_seconds: int | None = None
    setup_minutes: int = 0
    #: Days per move of a correspondence game (``time_control=correspondence``; 1, 3 or 7).
    days_per_move: int | None = None
    side: str = "random"
    opponent: str = "friend"
    ai_level: int | None = None
    #: A rated game (PROGRESSION.md §4); a form's checkbox sends ``on``.
    rated: bool = False
    #: ``invite`` (a friend by the invite link) or ``open``: an open challenge in the lobby anyone may accept
    #: (issue 19, docs/protocol.md "Lobby").
    listing: Literal["invite", "open"] = "invite"
    base_ms: Annotated[int, Field(ge=1, le=6 * 3600 * 1000)] | None = None
    increment_ms: Annotated[int, Field(ge=0, le=600_000)] | None = None
    setup_ms: Annotated[int, Field(ge=0, le=3600 * 1000)] | None = None

    @field_validator("ai_level", mode="before")
    @classmethod
    def _whole_number(cls, v: Any) -> Any:
        """A level is a whole number: an int (not a bool) or a string of ASCII digits (a form field)."""
        if v is None or (type(v) is int) or (isinstance(v, str) and v.isascii() and v.isdigit()):
            return v
        raise ValueError("ai_level must be a whole number")


def _ai_level(body: GameCreate) -> int:
    """0 for a friend game; the chosen level for ``opponent=ai``. :raises ServiceError: ``bad_settings``."""
    if body.opponent == "friend" and body.ai_level is None:
        return 0
    if body.opponent != "ai" or body.ai_level is None or body.ai_level < 1:
        raise ServiceError("bad_settings", _("Соперник: «friend» или «ai» с уровнем от 1 до 5."))
    return body.ai_level


def form_options(info: GameInfo) -> list[dict[str, Any]]:
    """The room options of a game as the home page's forms draw them (fields ``opt_<name>``): a ``bool`` option is
    a checkbox named by its label whose value is its other choice (unchecked sends nothing: the default), any other
    a row of radio buttons. ``applies`` (``{option: [values]}``) and ``only`` (the labels of those values, translated,
    for «только: …») say when it matters; ``choice_applies`` (``{value as a word: {option: [values as words]}}``)
    when each of its choices is allowed (:attr:`Option.choice_applies`; home.js disables the others)."""
    out = []
    for o in info.options:
        flag = isinstance(o.default, bool)
        only = [
            label
            for other in info.options
            for value, label in other.choices
            if value in o.applies.get(other.name, ()) and other.name != o.name
        ]
        out.append({
            "name": o.name, "label": o.label, "flag": flag, "choices": o.choices,
            "value": ("false" if o.default else "true") if flag else None,
            "note": next((label for value, label in o.choices if value != o.default), "") if flag else "",
            "applies": {k: list(v) for k, v in o.applies.items()}, "only": ", ".join(_(label) for label in only),
            "choice_applies": {
                str(value): {k: [str(x) for x in v] for k, v in when.items()}
                for value, when in o.choice_applies.items()
            },
        })  # fmt: skip
    return out


def form_option_value(option: Option, value: Any) -> Any:
    """A form field's value of a room option: a ``bool`` option's checkbox sends the word :func:`form_options`
    gave it, ``"true"`` or ``"false"``, read as the JSON boolean the rules take; any other word is left as it is,
    for the rules to refuse (``bad_options``); an integer option's digits are read as the JSON integer (a mine count);
    other options' values are their own words."""
    if isinstance(option.default, bool) and value in ("true", "false"):
        return value == "true"
    if type(option.default) is int and isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)  # an integer option's radio button sends its number as a word
    return value


def room_text(info: GameInfo, options: dict[str, Any]) -> str:
    """The room options of a game in words, translated: each non-``bool`` option's chosen label, and the label of
    each ``bool`` option that is not at its default, joined by « · » (e.g. «Hasbro · Залп»); ``""`` without
    options (:func:`~admiral.service.lobby.room_labels`)."""
    return " · ".join(_(label) for label in room_labels(info, options))


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, service: ServiceDep, browser: BrowserHash, game: str = DEFAULT_GAME) -> HTMLResponse:
    """The home page: this browser's unfinished games (if any), the game picker («Адмирал» | «Морской бой»;
    ``?game=battleship`` picks one), the lobby («Вызовы» with quick pairing, «Сейчас играют»: filled over
    ``/ws/lobby`` by ``static/js/lobby.js``), the «Играть с другом» form (an invite link or an open challenge,
    with the chosen game's room options) and «Играть против ИИ» (the chosen game's levels; a note instead for a
    game without bots yet)."""
    chosen = game if game in GAMES else DEFAULT_GAME
    ctx = {
        "games": [r.info for r in GAMES.values()],
        "game_infos": {key: r.info for key, r in GAMES.items()},
        "chosen": chosen,
        "form_options": {key: form_options(r.info) for key, r in GAMES.items()},
        "unfinished": await service.unfinished_games(browser),
        "game_names": {key: _(r.info.name) for key, r in GAMES.items()},  # the lobby's list (issue 19)
        # the games with nothing to arrange: the forms hide the setup time for them
        "fixed_starts": [key for key, r in GAMES.items() if "fixed_start" in r.info.capabilities],
    }
    return render(request, "home.html", ctx)


@router.get("/about", response_class=HTMLResponse)
async def about_page(request: Request) -> HTMLResponse:
    """«О проекте»: what the site is, the late-Soviet board game it revives, the games of the house (from the
    registry), that playing is free, and how to write to the author (the site's own ``/feedback``)."""
    return render(request, "about.html", {"games": [r.info for r in GAMES.values()]})


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> Response:
    """«Правила» of the default game (:data:`~admiral.games.DEFAULT_GAME`): see :func:`game_rules_page`."""
    return _rules_page(request, DEFAULT_GAME)


@router.get("/rules/{game}", response_class=HTMLResponse)
async def game_rules_page(request: Request, game: str) -> Response:
    """«Правила» of ``game``, the one that brings its page (capability ``"rules_page"``,
    :class:`~admiral.games.RulesPage`): the game's template and what its engine computes, with the site's facts
    (``grace_s``, seconds away before the claim; ``ai_levels``, the game's AI levels by number). A game whose page has
    another URL (``GameInfo.rules_page``: the default game's is ``/rules``) is sent there (301); 404 for an unknown
    game or one without a rules page."""
    return _rules_page(request, game)


def _rules_page(request: Request, key: str) -> Response:
    rules = GAMES.get(key)
    if rules is None:
        return error_page(request, 404, _("Такой игры на сайте нет."))
    if "rules_page" not in rules.info.capabilities or not isinstance(rules, RulesPage):
        return error_page(request, 404, _("Страница не найдена."))
    canonical = rules.info.rules_page
    if canonical and canonical != request.url.path:
        return RedirectResponse(canonical, status_code=301)
    template, ctx = rules.rules_page()
    site = {"grace_s": request.app.state.settings.claim_grace_ms // 1000, "ai_levels": rules.info.levels}
    return render(request, template, {**ctx, **site})


@router.post("/games", response_model=None)
async def create_game(request: Request, service: ServiceDep, settings: SettingsDep, browser: BrowserHash) -> Response:
    """Create a game (with a friend, or against the AI) and seat the creator: ``303`` to the game page (form)
    or ``201`` JSON ``{"game_id", "url", "invite_url", "listed"}`` (``invite_url`` is ``null`` against the AI and
    for an open challenge). ``listing=open`` makes an open challenge (issue 19): counted against ``RATE_CHALLENGES``
    too, refused to a guest asking for a rated game (403 ``guest_rated``) and beyond three open at once (409
    ``too_many_challenges``); the form goes back to the home page (``303 /?game={key}#challenges``)."""
    is_json = request.headers.get("content-type", "").startswith("application/json")
    try:
        raw = await request.json() if is_json else await checked_form(request)
        if raw is None and not is_json:
            return error_page(request, 403, _("Форма устарела или пришла с чужого сайта. Обновите страницу."))
        if not isinstance(raw, dict):
            raise ValueError
        fields = {k: v for k, v in raw.items() if v != "" and not k.startswith(OPTION_PREFIX)}
        if not is_json:  # a form may carry every game's option fields: only the chosen game's count
            declared = {o.name: o for o in GAMES[raw["game"]].info.options} if raw.get("game") in GAMES else {}
            fields["options"] = {
                k[len(OPTION_PREFIX) :]: form_option_value(declared[k[len(OPTION_PREFIX) :]], v)
                for k, v in raw.items()
                if k.startswith(OPTION_PREFIX) and k[len(OPTION_PREFIX) :] in declared
            }
        body = GameCreate.model_validate(fields)
        game_settings = GameSettings.from_form(
            body.time_control, base_minutes=body.base_minutes, increment_seconds=body.increment_seconds,
            setup_minutes=body.setup_minutes, side=body.side, ai_level=_ai_level(body), game=body.game,
            options=body.options, days_per_move=body.days_per_move,
            # a guest's friend games are casual (PROGRESSION.md §4); its open challenge asking for one is refused
            rated=body.rated and (request.state.commander is not None or body.listing == "open"),
        )  # fmt: skip
        if settings.test_time_controls and any(v is not None for v in (body.base_ms, body.increment_ms, body.setup_ms)):
            game_settings = replace(
                game_settings, base_ms=body.base_ms or 0, increment_ms=body.increment_ms or 0,
                setup_ms=body.setup_ms or 0, time_control="custom",
            )  # fmt: skip
    except ServiceError as e:
        if is_json:
            return api_error(400, e.code, e.message, e.detail)
        detail = e.detail if e.code == "bad_options" and isinstance(e.detail, dict) else {}
        # what is wrong (which option, which values it takes) in the page's language; the rules' own English words
        # only when the house cannot word them
        reason = detail.get("explained") or detail.get("reason")
        if reason:
            return error_page(request, 400, _("%(message)s Причина: %(reason)s", message=e.message, reason=reason))
        return error_page(request, 400, e.message)
    except (ValueError, ValidationError, RecursionError):  # RecursionError: hostile nesting
        if is_json:
            return api_error(400, "bad_request", _("Неверные настройки партии."))
        return error_page(request, 400, _("Неверные настройки партии."))
    refusal = None
    address = rate_key(client_address(request))  # an IPv6 client by its /64
    try:
        if game_settings.ai_level:  # before the rate limit: a refused game does not count against it
            await service.check_bot_games(browser, service.address_key(address))
        if body.listing == "open" and not request.app.state.limits.hit("challenges", address):
            refusal = (429, "rate_limited", _("Слишком много вызовов подряд. Подождите минуту."))
        elif not request.app.state.limits.hit("games", address):
            refusal = (429, "rate_limited", _("Слишком много новых партий подряд. Подождите минуту."))
        elif body.listing == "open":
            guest = getattr(request.state, "commander", None) is None
            token = request.state.browser_token
            game_id = await service.create_challenge(browser, game_settings, address, token, guest=guest)
            code = None
            await request.app.state.lobby.announce(game_id)
        else:
            token = request.state.browser_token
            game_id, code = await service.create_game(browser, game_settings, address, browser_token=token)
    except ServiceError as e:
        status = {"too_many_ai_games": 409, "too_many_challenges": 409, "guest_rated": 403}.get(e.code, 400)
        refusal = (status, e.code, e.message)
    if refusal is not None:
        status, error, message = refusal
        return api_error(status, error, message) if is_json else error_page(request, status, message)
    if is_json:
        invite_url = None if code is None else f"/j/{code}"
        return JSONResponse(
            {"game_id": game_id, "url": f"/g/{game_id}", "invite_url": invite_url, "listed": body.listing == "open"},
            status_code=201,
        )
    if body.listing == "open":  # the creator waits on the home page, their challenge listed as theirs
        return RedirectResponse(f"/?game={game_settings.game}#challenges", status_code=303)
    return RedirectResponse(f"/g/{game_id}", status_code=303)


@router.get("/games/{key}/manifest.json", response_model=None)
async def game_manifest(request: Request, key: str) -> Response:
    """What game ``key``'s browser client draws from (:meth:`~admiral.games.protocol.Ruleset.manifest`), the same
    for every language. Asked for with the current version (``?v=``, as pages do) it is cached for a year
    (``immutable``); otherwise ``no-cache`` with an ``ETag`` (``304`` for a fresh ``If-None-Match``). ``404`` for a
    game the house does not have."""
    try:
        text, version = manifest_text(key)
    except UnknownGame:
        return api_error(404, "not_found", _("Такой игры на сайте нет."))
    etag = f'"{version}"'
    fresh = request.query_params.get("v") == version
    headers = {"Cache-Control": "public, max-age=31536000, immutable" if fresh else "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="application/json", headers=headers)


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, service: ServiceDep, browser: BrowserHash) -> HTMLResponse:
    """The game page; the role comes from the cookie. It loads the entry module of the game's own client
    (:func:`client_entry`) and names the game (``data-game``, the title)."""
    try:
        g = await service.current(game_id)
    except ServiceError as e:
        return error_page(request, 404, e.message)
    key = g.settings.game if g.settings.game in GAMES else DEFAULT_GAME
    ctx = {
        "game_id": g.id,
        "role": service.role(g, browser),
        "invite_url": service.invite_url_for(g, browser),
        "game": key,
        "game_name": GAMES[key].info.name,
        "entry": client_entry(key),
        "manifest_url": manifest_url(key),
        "room": room_text(GAMES[key].info, g.settings.options),
        "fixed_start": "fixed_start" in GAMES[key].info.capabilities,  # nothing to arrange: play begins at once
    }
    return render(request, "game.html", ctx)


@router.get("/j/{invite}", response_model=None)
async def invite_page(request: Request, invite: str, service: ServiceDep, browser: BrowserHash) -> Response:
    """The invite page (a ``POST`` takes the seat, so link previews never do)."""
    g = await service.game_by_invite(invite)
    if g is None:
        return error_page(request, 404, _("Приглашение не найдено."))
    state = service.invite_state(g, browser)
    if state != "open":
        return RedirectResponse(f"/g/{g.id}", status_code=303)
    key = g.settings.game if g.settings.game in GAMES else DEFAULT_GAME
    info = GAMES[key].info
    ctx = {
        "game_id": g.id, "invite": invite, "can_join": True, "game": key, "info": info,
        "room": room_text(info, g.settings.options),
    }  # fmt: skip
    return render(request, "invite.html", ctx)


@router.post("/j/{invite}", response_model=None)
async def accept_invite(request: Request, invite: str, service: ServiceDep, browser: BrowserHash) -> Response:
    """Claim the free seat (atomic, single use); ``303`` to the game page either way."""
    if await checked_form(request) is None:
        return error_page(request, 403, _("Форма устарела или пришла с чужого сайта. Обновите страницу."))
    address = rate_key(client_address(request))  # kept as keyed hashes, for PROGRESSION.md §2's unrated games
    game_id = await service.claim(invite, browser, address, browser_token=request.state.browser_token)
    if game_id is None:
        return error_page(request, 404, _("Приглашение не найдено."))
    return RedirectResponse(f"/g/{game_id}", status_code=303)
