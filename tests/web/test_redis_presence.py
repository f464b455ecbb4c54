"""Presence across instances (issue 23): an instance learns where the other instances' sockets are from the marks
they publish, not from a Redis read on every event of a game; in its first mark's life after (re)connecting, before
it has heard every live mark, it reads Redis."""

from __future__ import annotations

import asyncio
import json
import secrets
import time

import pytest

from admiral.bus.redis import RedisBus

from .conftest import REDIS_URL

pytestmark = pytest.mark.skipif(REDIS_URL is None, reason="needs ADMIRAL_TEST_REDIS_URL (Redis)")


class QuickMarks(RedisBus):
    """Marks that live one second, so that a test waits seconds, not minutes."""

    PRESENCE_TTL_S = 1


async def until(check, timeout: float = 3.0) -> bool:
    """Whether ``await check()`` became true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.02)
    return False


def run(scenario) -> None:
    """Run ``scenario(here, there, game_id)`` with two started buses (two instances) on one Redis."""

    async def main() -> None:
        here, there = QuickMarks(REDIS_URL), QuickMarks(REDIS_URL)
        await here.start()
        await there.start()
        try:
            await scenario(here, there, f"presence-{secrets.token_hex(4)}")
        finally:
            await here.close()
            await there.close()

    asyncio.run(main())


def test_a_warm_instance_answers_from_the_marks_it_heard_without_reading_redis() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        assert await until(lambda: _heard_for_a_ttl(there))
        await here.mark_present(game_id, "south", True)
        assert await until(lambda: _sides(there, game_id, {"south": True, "north": False}))
        # Redis loses the mark: the warm instance still knows it (it did not ask Redis)
        await here.redis.delete(f"admiral:presence:{game_id}:south")
        assert await there.present_elsewhere(game_id) == {"south": True, "north": False}
        await here.mark_present(game_id, "south", False)  # the socket closed: heard at once
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": False}), timeout=0.5)
        assert (game_id, "south") not in there._marks
        assert await here.present_elsewhere(game_id) == {"south": False, "north": False}  # never its own marks

    run(scenario)


def test_a_mark_not_renewed_runs_out_and_is_forgotten() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        assert await until(lambda: _heard_for_a_ttl(there))
        await here.heartbeat([(game_id, "north")])
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": True}))
        await asyncio.sleep(QuickMarks.PRESENCE_TTL_S + 0.1)  # the instance died: no heartbeat came
        assert await there.present_elsewhere(game_id) == {"south": False, "north": False}
        await there.heartbeat([])  # its own sweep forgets what ran out
        assert (game_id, "north") not in there._marks

    run(scenario)


def test_a_cold_instance_reads_the_marks_it_has_not_heard_from_redis() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await here.mark_present(game_id, "south", True)
        late = QuickMarks(REDIS_URL)  # an instance started after the mark was sent
        await late.start()
        try:
            assert await until(lambda: _listening(late))
            assert (game_id, "south") not in late._marks
            assert await late.present_elsewhere(game_id) == {"south": True, "north": False}
        finally:
            await late.close()

    run(scenario)


def test_malformed_presence_messages_change_nothing() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        assert await until(lambda: _heard_for_a_ttl(there))
        for garbage in ("not json", json.dumps([1, 2]), json.dumps({"origin": "x", "marks": "south"}),
                        json.dumps({"origin": "x", "marks": [[game_id, "south"], [game_id, "south", "soon"], 7]}),
                        json.dumps({"origin": 5, "marks": [[game_id, "south", 2**40]]})):  # fmt: skip
            await here.redis.publish(RedisBus.PRESENCE_CHANNEL, garbage)
        await here.mark_present(game_id, "north", True)  # heard after the garbage: the listener still runs
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": True}))
        assert (game_id, "south") not in there._marks

    run(scenario)


async def _heard_for_a_ttl(bus: RedisBus) -> bool:
    since = bus._heard_since
    return since is not None and time.monotonic() - since >= bus.PRESENCE_TTL_S


async def _listening(bus: RedisBus) -> bool:
    return bus._heard_since is not None


async def _sides(bus: RedisBus, game_id: str, expected: dict[str, bool]) -> bool:
    return await bus.present_elsewhere(game_id) == expected
