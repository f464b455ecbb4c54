"""The session tier: :class:`~admiral.service.GameService` driven directly — no web app, no sockets — over an
in-memory SQLite store whose writes can be made to fail, the in-process bus, a fake time source and the toy
ruleset of :mod:`.toy` (so nothing here depends on a real game's rules)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from admiral.bus import InProcessBus
from admiral.service import GameService, GameSettings, ServiceOptions
from admiral.store import Base, Store

from .toy import TOY


class FakeTime:
    """A time source moved by hand: :meth:`advance` moves the monotonic and the wall clock together."""

    def __init__(self) -> None:
        self.mono_s = 1000.0
        self.wall = 1_800_000_000_000

    def mono(self) -> float:
        return self.mono_s

    def wall_ms(self) -> int:
        return self.wall

    def utc(self) -> datetime:
        return datetime.fromtimestamp(self.wall / 1000, UTC)

    def advance(self, seconds: float) -> None:
        self.mono_s += seconds
        self.wall += int(seconds * 1000)


class FlakyStore(Store):
    """The real store over an in-memory database, whose named methods can be made to fail (:meth:`fail`)."""

    def __init__(self) -> None:
        engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
        Base.metadata.create_all(engine)
        super().__init__(engine)
        self.failing: dict[str, int] = {}
        self.calls: list[str] = []

    def fail(self, name: str, times: int = 1) -> None:
        """Make the next ``times`` calls of method ``name`` raise ``OSError`` (a database gone away)."""
        self.failing[name] = times

    def __getattribute__(self, name: str) -> Any:
        attr = super().__getattribute__(name)
        if name.startswith("_") or not inspect.ismethod(attr) or name == "fail":
            return attr
        failing = super().__getattribute__("failing")
        calls = super().__getattribute__("calls")

        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            if failing.get(name, 0) > 0:
                failing[name] -= 1
                raise OSError(f"{name}: the database went away")
            return attr(*args, **kwargs)

        return call


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture
def store() -> FlakyStore:
    return FlakyStore()


@pytest.fixture
async def session(store: FlakyStore, now: FakeTime) -> AsyncIterator[GameService]:
    """A started session for the toy game: bots think in this process, answer at once; the sweeper is idle
    (tests call :meth:`GameService.sweep` themselves)."""
    options = ServiceOptions(bot_processes=False, bot_delay_ms=0, sweep_interval_s=3600, claim_grace_ms=60_000)
    service = GameService(store, InProcessBus(), {"toy": TOY}, options, now=now)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


SOUTH, NORTH = "a" * 64, "b" * 64


@pytest.fixture
def friend_game(session: GameService) -> Callable[..., Any]:
    """``await friend_game(**settings)``: a toy game South created and North joined; returns the live game."""

    async def make(**settings: Any) -> Any:
        game_id, code = await session.create_game(SOUTH, GameSettings(game="toy", side="south", **settings))
        assert await session.claim(code, NORTH) == game_id
        return session.games[game_id]

    return make
