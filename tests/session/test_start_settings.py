"""The capability ``start_settings`` (issue 20, BATTLESHIP.md D11): what the seats bring to a game — their levels,
from their careers in the game — is fixed when play starts, stored with the game and merged into the settings it is
built from, so that a reload or another instance rebuilds the very same game after a career changed. An AI seat
brings no career, only its level. Driven over a toy game with the capability (nothing of a real game)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from admiral.bus import InProcessBus
from admiral.games import StartSettings
from admiral.service import GameService, GameSettings, ServiceError, ServiceOptions

from .conftest import NORTH, SOUTH, FakeTime, FlakyStore
from .test_session import _ready
from .toy import INFO, ToyRules

pytestmark = pytest.mark.anyio


class LevelToy(ToyRules):
    """«Двадцать» whose seats bring a level: 1 + the career's ``xp`` // 10 (an AI seat: its AI level × 100)."""

    info = replace(INFO, key="leveltoy", capabilities=frozenset({"start_settings"}))

    def __init__(self) -> None:
        self.asked: list[tuple[dict, dict]] = []

    def start_settings(self, careers: Mapping[str, Mapping[str, Any] | None], ai: Mapping[str, int | None]) -> dict:
        self.asked.append((dict(careers), dict(ai)))
        levels = {
            side: ai[side] * 100 if career is None else 1 + career.get("xp", 0) // 10  # type: ignore[operator]
            for side, career in careers.items()
        }
        return {"levels": levels}


class FakeProgress:
    """The progression store's careers, changeable by hand; ``fail`` makes the next read raise."""

    def __init__(self) -> None:
        self.by_key: dict[str, dict[str, Any]] = {}
        self.fail = False

    def careers(self, game: str, holders: Mapping[str, str | None]) -> dict[str, dict[str, Any]]:
        assert game == "leveltoy"
        if self.fail:
            self.fail = False
            raise OSError("the database went away")
        return {side: dict(self.by_key.get(key or "", {})) for side, key in holders.items()}


@pytest.fixture
def progress() -> FakeProgress:
    return FakeProgress()


@pytest.fixture
def toy() -> LevelToy:
    return LevelToy()


@pytest.fixture
async def service(
    store: FlakyStore, now: FakeTime, progress: FakeProgress, toy: LevelToy
) -> AsyncIterator[GameService]:
    options = ServiceOptions(bot_processes=False, bot_delay_ms=0, sweep_interval_s=3600, claim_grace_ms=60_000)
    rulesets = {"leveltoy": toy}
    service = GameService(store, InProcessBus(), rulesets, options, now=now, progress=progress)  # type: ignore[arg-type]
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


async def _friend_game(service: GameService) -> Any:
    game_id, code = await service.create_game(SOUTH, GameSettings(game="leveltoy", side="south"))
    assert await service.claim(code, NORTH) == game_id
    return service.games[game_id]


def test_the_toy_has_the_capability(toy: LevelToy) -> None:
    assert isinstance(toy, StartSettings) and "start_settings" in toy.info.capabilities


async def test_levels_are_fixed_at_the_start_and_survive_a_reload(service, progress, store, toy) -> None:
    # rules D11: a commander's level is fixed at the start of a game
    progress.by_key = {SOUTH: {"xp": 42}}
    g = await _friend_game(service)
    assert g.start_settings is None
    await _ready(service, g)
    assert g.status == "play"
    assert toy.asked == [({"south": {"xp": 42}, "north": {}}, {"south": None, "north": None})]
    assert g.game.settings["levels"] == {"south": 5, "north": 1}
    assert g.start_settings == {"levels": {"south": 5, "north": 1}}
    assert store.load_game(g.id).game.start_settings == {"levels": {"south": 5, "north": 1}}
    progress.by_key = {SOUTH: {"xp": 990}, NORTH: {"xp": 300}}  # careers move on meanwhile
    await service.submit(g, "south", 0, "+1")
    fresh = GameService(store, service.bus, service.rulesets, service.options, now=service.now, progress=progress)  # type: ignore[arg-type]
    again = fresh.get(g.id)
    assert again.game.settings["levels"] == {"south": 5, "north": 1} and again.game.actions == ["+1"]
    assert again.game.settings["game_id"] == g.id
    assert len(toy.asked) == 1  # a reload never asks again


async def test_an_ai_seat_brings_its_level_and_no_career(service, progress, toy) -> None:
    progress.by_key = {SOUTH: {"xp": 10}}
    game_id, _code = await service.create_game(SOUTH, GameSettings(game="leveltoy", side="south", ai_level=1))
    g = service.games[game_id]
    await _ready(service, g, "south")
    assert toy.asked == [({"south": {"xp": 10}, "north": None}, {"south": None, "north": 1})]
    assert g.game.settings["levels"] == {"south": 2, "north": 100}


async def test_a_failed_read_of_the_careers_leaves_the_game_in_setup(service, progress, store) -> None:
    g = await _friend_game(service)
    await _ready(service, g, "south")
    progress.fail = True
    with pytest.raises(ServiceError) as refused:
        await _ready(service, g, "north")
    assert refused.value.code == "unavailable"
    assert g.status == "setup" and g.game is None and g.start_settings is None
    assert store.load_game(g.id).game.start_settings is None
    await service.sweep()
    assert g.status == "play" and g.game.settings["levels"] == {"south": 1, "north": 1}


async def test_a_game_without_the_capability_stores_nothing(session, friend_game, store) -> None:
    g = await friend_game()
    await _ready(session, g)
    assert g.status == "play" and g.start_settings is None
    assert store.load_game(g.id).game.start_settings is None and "levels" not in g.game.settings
