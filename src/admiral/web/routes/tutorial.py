"""«Обучение» (issue 7, issue 21): the list of lessons under each game's name, a lesson's page, and its JSON
endpoints (docs/protocol.md). Each game brings its lessons (capability ``"tutorial"``); a lesson's page loads its
game's manifest and its game's lesson script, ``/static/js/games/<key>/tutorial.js``.

Lessons run over plain HTTP: the page asks for the lesson's state and sends each try; the server rebuilds
the lesson from its step number, so nothing is kept between requests and any instance can answer. No game
is created, nothing is credited, nothing appears in a lobby.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from admiral.i18n import _
from admiral.service import ServiceError

from ..deps import BrowserHash, TutorialDep, api_error, client_address, rate_key
from .pages import error_page, manifest_url, render

__all__ = ["router"]

router = APIRouter(tags=["tutorial"])

_STATUS = {"not_found": 404, "bad_step": 409, "lesson_done": 409}
#: Steps a lesson may have at most (a bound for the request models).
MAX_STEP = 50


def _error(e: ServiceError) -> JSONResponse:
    return api_error(_STATUS.get(e.code, 400), e.code, e.message, e.detail)


class LessonTry(BaseModel):
    """``POST /api/tutorial/{slug}/act`` body: the ``step`` the page shows and the player's try — an
    ``action`` (engine notation) in a game lesson, or ``op`` with the ``setup`` draft in the setup lesson."""

    model_config = ConfigDict(extra="forbid")

    step: Annotated[StrictInt, Field(ge=0, le=MAX_STEP)]
    action: Annotated[str, Field(max_length=64)] | None = None
    op: Literal["update", "auto", "ready"] | None = None
    setup: (
        Annotated[dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=8)]], Field(max_length=80)]
        | None
    ) = None


@router.get("/tutorial", response_class=HTMLResponse)
async def tutorial_page(request: Request, tutorial: TutorialDep, key: BrowserHash) -> HTMLResponse:
    """«Обучение»: each game's lessons in order under the game's name (``id`` its key: ``/tutorial#naval``), with the
    commander's done marks and a total per game."""
    groups = [
        {"info": info, "lessons": entries, "done": sum(e.done for e in entries), "total": len(entries)}
        for info, entries in tutorial.by_game(key)
    ]
    return render(request, "tutorial.html", {"groups": groups})


@router.get("/tutorial/{slug}", response_class=HTMLResponse)
async def lesson_page(request: Request, slug: str, tutorial: TutorialDep, key: BrowserHash) -> HTMLResponse:
    """One lesson: the board, the coach and every step's texts (translated here, shown by the script); the board
    draws from the lesson's game's manifest (``data-manifest``, as the game page) with that game's lesson script.
    The next lesson offered is the next of the same game."""
    lessons = tutorial.lessons(key)
    index = next((i for i, e in enumerate(lessons) if e.scenario.slug == slug), None)
    if index is None:
        return error_page(request, 404, _("Урок не найден."))
    entry = lessons[index]
    following = lessons[index + 1] if index + 1 < len(lessons) else None
    if following is not None and following.game != entry.game:
        following = None
    ctx = {
        "entry": entry,
        "sc": entry.scenario,
        "following": following,
        "game": entry.game,
        "game_info": tutorial.info(entry.game),
        "manifest_url": manifest_url(entry.game),
        "script_url": f"/static/js/games/{entry.game}/tutorial.js",
    }
    return render(request, "lesson.html", ctx)


@router.get("/api/tutorial/{slug}", response_model=None)
async def lesson_state(
    slug: str, tutorial: TutorialDep, key: BrowserHash, step: Annotated[int | None, Query(ge=0, le=MAX_STEP)] = None
) -> Any:
    """The lesson at ``step`` (default: where the commander stopped): ``{"slug", "kind", "step", "steps",
    "done", "view", "spot", …}`` (the rest is the game's: «Адмирал»'s ``setup``, «Военно-морская игра»'s
    ``tries``). ``409 bad_step`` for a step not reached yet."""
    try:
        return tutorial.start(key, slug, step)
    except ServiceError as e:
        return _error(e)


@router.post("/api/tutorial/{slug}/act", response_model=None)
async def lesson_act(
    request: Request, slug: str, body: LessonTry, tutorial: TutorialDep, key: BrowserHash
) -> Response | Any:
    """Try the step: ``{"accepted", "step", "steps", "done", "frames", "reason", "spot", …}`` (``reason``: the
    rules' refusal in words when the engine refused the try). A try other than what the step expects is answered
    ``accepted: false`` and changes nothing. ``409 lesson_done``
    after the last step; ``429 rate_limited`` past ``RATE_TUTORIAL`` tries per client address (an IPv6 one by
    its /64)."""
    if not request.app.state.limits.hit("tutorial", rate_key(client_address(request))):
        return api_error(429, "rate_limited", _("Слишком много попыток. Подождите минуту и попробуйте снова."))
    try:
        return tutorial.act(key, slug, body.step, action=body.action, op=body.op, setup=body.setup)
    except ServiceError as e:
        return _error(e)
