"""«Мои партии»: a commander's finished games (PROGRESSION.md §4, issue 19), newest first, 20 a page, filtered by
game: ``GET /games`` (this browser's commander, a guest too) and ``GET /c/{nickname}/games`` (a registered
commander's, for anyone); the latest ten also stand on «Личное дело» (:func:`recent_context`).

Privacy: a guest's games are reached only through its own browser (``/games``, ``/profile``); a public list
exists only for registered commanders; only finished games (status ``over``) are listed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from admiral import i18n
from admiral.games import GAMES
from admiral.i18n import N_, _
from admiral.service.history import HistoryPage, HistoryService

from ..deps import AccountsDep, BrowserHash, CommanderDep
from .pages import error_page, render

__all__ = ["RECENT", "get_history", "recent_context", "router"]

router = APIRouter(tags=["commanders"])

#: Finished games shown on «Личное дело» above the link to the full list.
RECENT = 10


def get_history(request: Request) -> HistoryService:
    """The app's :class:`~admiral.service.history.HistoryService` (``app.state.history``)."""
    return request.app.state.history


def _lines(page: HistoryPage) -> list[dict[str, Any]]:
    """The page's items with their date in the viewer's language (``date``: «3 дек. 2026 г.»; ``iso``: for
    ``<time datetime>``), UTC."""
    lang = i18n.current()
    return [
        {"item": it, "date": format_date(it.finished_at, "medium", locale=lang) if it.finished_at else "",
         "iso": it.finished_at.isoformat() if it.finished_at else ""}
        for it in page.items
    ]  # fmt: skip


def _switch() -> list[tuple[str, str]]:
    """The game tabs above a list: every game of the registry after «Все игры» (``("", …)``)."""
    return [("", N_("Все игры"))] + [(key, rules.info.name) for key, rules in GAMES.items()]


def recent_context(history: HistoryService, key: str) -> dict[str, Any]:
    """What «Личное дело» shows of the history of the commander of identity ``key``: ``{"history": [lines],
    "history_more": bool}``, the latest :data:`RECENT` finished games. Reads the database: call it off the loop."""
    page = history.page(key, size=RECENT)
    return {"history": _lines(page), "history_more": page.has_next}


async def _list_page(
    request: Request, history: HistoryService, key: str, *, base: str, page: int, game: str, context: dict[str, Any]
) -> HTMLResponse:
    """The full list page (``templates/history.html``) of identity ``key``: 404 for an unknown ``game``; a page
    out of range is an empty page with the way back to the first."""
    if game and game not in GAMES:
        return error_page(request, 404, _("Такой игры на сайте нет."))
    result = await run_in_threadpool(history.page, key, page=page, game=game or None)
    ctx = {
        **context, "lines": _lines(result), "page": result.page, "has_next": result.has_next,
        "has_prev": result.has_prev, "game": game, "switch": _switch(), "base": base,
        "game_name": GAMES[game].info.name if game else None,
    }  # fmt: skip
    return render(request, "history.html", ctx)


@router.get("/games", response_class=HTMLResponse)
async def my_games(
    request: Request, accounts: AccountsDep, key: BrowserHash, me: CommanderDep, page: int = 1, game: str = ""
) -> HTMLResponse:
    """«Мои партии»: this browser's commander's finished games (a guest's too: they live only in this browser),
    ``?game=<key>`` one game only, ``?page=N`` (20 a page). ``404`` for an unknown game; ``400`` for a page that is
    not a number."""
    commander = me or await run_in_threadpool(accounts.commander, key)
    ctx = {"commander": commander, "own": True}
    return await _list_page(
        request, get_history(request), commander.key, base="/games", page=page, game=game, context=ctx
    )


@router.get("/c/{nickname}/games", response_class=HTMLResponse)
async def commander_games(
    request: Request, nickname: str, accounts: AccountsDep, me: CommanderDep, page: int = 1, game: str = ""
) -> HTMLResponse:
    """A registered commander's finished games, for anyone (``404`` for a nickname nobody registered: a guest's
    games are never public)."""
    commander = await run_in_threadpool(accounts.public, nickname[:64])
    if commander is None:
        return error_page(request, 404, _("Командир не найден."))
    ctx = {"commander": commander, "own": me is not None and me.id == commander.id}
    base = f"/c/{quote(commander.nickname or '', safe='')}/games"
    return await _list_page(request, get_history(request), commander.key, base=base, page=page, game=game, context=ctx)
