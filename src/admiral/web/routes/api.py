"""JSON API: the game record and replay after the end, saved setups (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from admiral.games import DEFAULT_GAME, GAMES
from admiral.i18n import _
from admiral.service import ServiceError

from ..deps import BrowserHash, ServiceDep, api_error
from .pages import form_option_value

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["api"])

_STATUS = {"not_found": 404, "not_over": 409}


def _error(e: ServiceError) -> JSONResponse:
    return api_error(_STATUS.get(e.code, 400), e.code, e.message, e.detail)


class SetupCreate(BaseModel):
    """``POST /api/setups`` body: a name and a side-neutral setup ``{cell: kind}`` (rows 1–5)."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    setup: Annotated[
        dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=8)]], Field(max_length=80)
    ]
    #: The game of the house and its room options (they choose the fleet: docs/protocol.md).
    game: Annotated[str, Field(max_length=32)] = DEFAULT_GAME
    options: Annotated[
        dict[Annotated[str, Field(max_length=32)], Annotated[str, Field(max_length=32)] | bool | int],
        Field(max_length=8),
    ] = {}


class SetupPublic(BaseModel):
    """A saved setup as the API returns it."""

    id: int
    name: str
    setup: dict[str, str]
    created_at: str


@router.get("/games/{game_id}/record.json", response_model=None)
async def game_record(game_id: str, service: ServiceDep) -> Response:
    """The game record (``GameRecord.to_json()``), after the end only (``409`` before)."""
    try:
        g = await service.current(game_id)
        text = service.record_json(g)
    except ServiceError as e:
        return _error(e)
    return Response(
        text, media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{g.rules.info.key}-{g.id}.json"'},
    )  # fmt: skip


@router.get("/games/{game_id}/replay", response_model=None)
async def game_replay(game_id: str, service: ServiceDep, browser: BrowserHash) -> Any:
    """Setups and per-ply deltas for stepping through a finished game (``409`` before the end). To the game's two
    players only it adds ``chat``: the seats' messages (issue 19; ``ChatMixin.chat_replay``); anyone else gets
    no ``chat`` key at all."""
    try:
        g = await service.current(game_id)
        data = service.replay(g)
    except ServiceError as e:
        return _error(e)
    chat = service.chat_replay(g, browser)
    return data if chat is None else {**data, "chat": chat}


@router.get("/setups", response_model=list[SetupPublic], responses={400: {}})
async def list_setups(request: Request, service: ServiceDep, browser: BrowserHash, game: str = DEFAULT_GAME) -> Any:
    """This browser's saved setups of ``game`` under the room options given as the other query parameters
    (``?game=battleship&rules=hasbro``, ``?game=battleship_ext&board=giant&mines=3&sweepers=1``): a query value is
    a word, read as a form's is (an integer option's digits as its number, a ``bool`` option's ``true``/``false``)."""
    declared = {o.name: o for o in GAMES[game].info.options} if game in GAMES else {}
    options = {
        k: form_option_value(declared[k], v) if k in declared else v
        for k, v in list(request.query_params.items())[:8]
        if k != "game"
    }
    try:
        return service.list_setups(browser, game, options)
    except ServiceError as e:
        return _error(e)


@router.post("/setups", response_model=SetupPublic, status_code=201, responses={400: {}})
async def save_setup(body: SetupCreate, service: ServiceDep, browser: BrowserHash) -> Any:
    """Save a setup under a name (at most 50 per browser)."""
    try:
        return service.save_setup(browser, body.name, body.setup, body.game, body.options)
    except ServiceError as e:
        return _error(e)


@router.delete("/setups/{setup_id}", status_code=204, response_model=None)
async def delete_setup(setup_id: int, service: ServiceDep, browser: BrowserHash) -> Response:
    """Delete one of this browser's saved setups."""
    if not 0 < setup_id < 2**63:  # no such row, and beyond what the database's integer can hold
        return api_error(404, "not_found", _("Расстановка не найдена."))
    try:
        service.delete_setup(browser, setup_id)
    except ServiceError as e:
        return _error(e)
    return Response(status_code=204)
