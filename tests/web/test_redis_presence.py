"""Presence across instances (issue 23): an instance learns where the other instances' sockets are from the marks
they publish, not from a Redis read on every event of a game. It reads Redis in its first mark's life after
(re)connecting, before it has heard every live mark, and while it has not heard its own heartbeat come back."""

from __future__ import annotations

import asyncio
import inspect
import json
import secrets
import time

import pytest

from admiral.bus.redis import RedisBus

from .conftest import REDIS_URL

pytestmark = pytest.mark.skipif(REDIS_URL is None, reason="needs ADMIRAL_TEST_REDIS_URL (Redis)")


class QuickMarks(RedisBus):
    """Marks that live two seconds (trusted while a presence message came in the last three), so that a test waits
    seconds, not minutes, and a loaded machine has time to look before a mark runs out."""

    PRESENCE_TTL_S = 2
    PRESENCE_HEARD_S = 3


async def until(check, timeout: float = 5.0) -> bool:
    """Whether ``check()`` (a bool, or an awaitable of one) became true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = check()
        if await done if inspect.isawaitable(done) else done:
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


async def warm(bus: RedisBus) -> None:
    """Wait until ``bus`` has listened for a mark's life, then until it hears its own heartbeat."""

    async def listened() -> bool:
        return bus._heard_since is not None and time.monotonic() - bus._heard_since >= bus.PRESENCE_TTL_S

    assert await until(listened)
    sent = time.monotonic()
    await bus.heartbeat([])
    assert await until(lambda: bus._heard_at >= sent)


def test_a_warm_instance_answers_from_the_marks_it_heard_without_reading_redis() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await warm(there)
        await here.mark_present(game_id, "south", True)
        assert await until(lambda: _sides(there, game_id, {"south": True, "north": False}))
        # Redis loses the mark: the warm instance still knows it (it did not ask Redis)
        await here.redis.delete(f"admiral:presence:{game_id}:south")
        assert await there.present_elsewhere(game_id) == {"south": True, "north": False}
        await here.mark_present(game_id, "south", False)  # the socket closed: heard at once
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": False}), timeout=0.5)
        assert await here.present_elsewhere(game_id) == {"south": False, "north": False}  # never its own marks

    run(scenario)


def test_a_mark_not_renewed_runs_out_and_is_forgotten() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await warm(there)
        await here.heartbeat([(game_id, "north")])
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": True}))
        await asyncio.sleep(QuickMarks.PRESENCE_TTL_S + 0.1)  # the instance died: no heartbeat came
        await warm(there)
        assert await there.present_elsewhere(game_id) == {"south": False, "north": False}
        assert (game_id, "north") not in there._marks  # its own heartbeat forgot what ran out

    run(scenario)


def test_a_heartbeat_made_before_a_removal_and_heard_after_it_is_not_taken() -> None:
    """The removal and the heartbeat go out on two connections: Redis may run the removal between the heartbeat's
    writes and its publish. The numbers of one instance's messages order them."""

    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await warm(there)

        async def say(number: int, present: bool) -> None:
            message = {"origin": "elsewhere", "number": number, "marks": [[game_id, "south"]], "present": present}
            await here.redis.publish(RedisBus.PRESENCE_CHANNEL, json.dumps(message))

        await say(7, True)
        assert await until(lambda: _sides(there, game_id, {"south": True, "north": False}))
        await say(9, False)  # the socket closed
        await say(8, True)  # a heartbeat made before it closed, heard after
        await say(1, True)
        await here.mark_present(game_id, "north", True)  # heard after all of them
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": True}))
        await say(10, True)  # the socket opened again
        assert await until(lambda: _sides(there, game_id, {"south": True, "north": True}))
        await say(11, False)
        await asyncio.sleep(QuickMarks.PRESENCE_TTL_S + 0.1)  # what ran out stands against nothing: an id reused
        await say(1, True)
        assert await until(lambda: _sides(there, game_id, {"south": True, "north": False}))

    run(scenario)


def test_a_cold_instance_reads_the_marks_it_has_not_heard_from_redis() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await here.mark_present(game_id, "south", True)
        late = QuickMarks(REDIS_URL)  # an instance started after the mark was sent
        await late.start()
        try:
            assert await until(lambda: late._heard_since is not None)
            assert (game_id, "south") not in late._marks
            assert await late.present_elsewhere(game_id) == {"south": True, "north": False}
        finally:
            await late.close()

    run(scenario)


def test_a_listener_that_hears_nothing_is_not_trusted_and_a_reconnect_starts_over() -> None:
    """A half-open connection to Redis hears nothing and raises nothing: once no presence message (its own heartbeat
    included) came for ``PRESENCE_HEARD_S``, Redis answers. After the connection drops and comes back, Redis answers
    for a mark's life."""

    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await warm(there)
        # a mark Redis holds and no message told: memory says absent, Redis says present
        await here.redis.hset(f"admiral:presence:{game_id}:north", "ghost", int(time.time() * 1000) + 60_000)
        assert await there.present_elsewhere(game_id) == {"south": False, "north": False}
        heard = there._heard
        there._heard = lambda channel, raw: None  # the listener runs, and hears nothing
        await asyncio.sleep(QuickMarks.PRESENCE_HEARD_S)
        assert await there.present_elsewhere(game_id) == {"south": False, "north": True}  # read from Redis
        there._heard = heard
        await warm(there)
        assert await there.present_elsewhere(game_id) == {"south": False, "north": False}  # memory again
        since = there._heard_since
        await here.redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # every listener's connection drops
        assert await until(lambda: there._heard_since is not None and there._heard_since != since)
        await there.heartbeat([])
        assert await until(lambda: there._heard_at > there._heard_since)
        assert await there.present_elsewhere(game_id) == {"south": False, "north": True}  # read from Redis

    run(scenario)


def test_malformed_presence_messages_change_nothing_and_the_listener_goes_on() -> None:
    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        await warm(there)
        good = {"origin": "x", "number": 1, "marks": [[game_id, "south"]], "present": True}
        garbage = ["not json", "[1, 2]", "[" * 100_000, "1e400", json.dumps({**good, "marks": "south"}),
                   json.dumps({**good, "marks": [[game_id], [game_id, "south", 3], [game_id, 5], 7, None]}),
                   json.dumps({**good, "number": 1e400}), json.dumps({**good, "number": "2"}),
                   json.dumps({**good, "number": True}), json.dumps({**good, "present": 1}),
                   json.dumps({**good, "origin": 5}),
                   '{"origin": "x", "number": Infinity, "marks": [], "present": true}',
                   json.dumps({**good, "marks": [[{"a": 1}, "south"]]})]  # fmt: skip
        for raw in garbage:
            await here.redis.publish(RedisBus.PRESENCE_CHANNEL, raw)
            await here.redis.publish("admiral:hello", raw)  # a game's channel: the same listener
        await here.mark_present(game_id, "north", True)  # heard after the garbage: the listener still runs
        assert await until(lambda: _sides(there, game_id, {"south": False, "north": True}))
        assert not there._reader.done()
        assert set(there._marks) == {(game_id, "north")}

    run(scenario)


async def _sides(bus: RedisBus, game_id: str, expected: dict[str, bool]) -> bool:
    return await bus.present_elsewhere(game_id) == expected


def test_the_connections_to_redis_probe_a_silent_peer() -> None:
    """A half-open connection (the peer gone without a word) fails within ~25 s: TCP keep-alive after 10 s idle,
    every 5 s, 3 unanswered; redis-py's own health check does not wait for its PING's reply."""
    import socket

    async def scenario(here: QuickMarks, there: QuickMarks, game_id: str) -> None:
        conn = await here._pool.get_connection()
        try:
            sock = conn._writer.get_extra_info("socket")
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            if hasattr(socket, "TCP_KEEPIDLE"):
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 10
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == 5
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 3
        finally:
            await here._pool.release(conn)

    run(scenario)
