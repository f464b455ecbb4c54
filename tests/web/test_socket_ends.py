"""Every socket ends (issue 16): a socket closed right after opening used to leave its handler running forever
on PostgreSQL (``GameService._db`` swallowed the cancellation of the socket's writer, and the handler waited for
that writer), so its player stayed "present" and the claim was never offered. These run on SQLite and, in CI's
second run, on PostgreSQL + Redis, where the writer reads the database in a thread."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from admiral.service import metrics

from .conftest import REDIS_URL, Browser, snapshot


def _gauge() -> float:
    return metrics.SOCKETS._value.get()


def test_a_cancelled_database_call_is_not_waited_for(client) -> None:
    service = client.app.state.service
    service.db_threads = True  # the PostgreSQL path, on any database
    started, release = threading.Event(), threading.Event()

    def slow_read() -> int:
        started.set()
        release.wait(10)
        return 1

    async def scenario() -> tuple[bool, bool]:
        task = asyncio.create_task(service._db(slow_read))
        while not started.is_set():
            await asyncio.sleep(0.005)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=2)
        return task in done, task.cancelled()

    try:
        assert client.portal.call(scenario) == (True, True)
    finally:
        release.set()


def _wait(pred, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_sockets_closed_right_after_opening_all_end(client) -> None:
    service = client.app.state.service
    south, north = Browser(client), Browser(client)
    game_id, invite = south.create(side="south")
    north.join(invite)
    before = _gauge()
    for _ in range(30):
        with south.ws(game_id), north.ws(game_id):
            pass  # gone before reading anything: the writers may be inside their first re-read
    g = service.games[game_id]
    assert _wait(lambda: g.seats["south"].connections == 0 and g.seats["north"].connections == 0)
    assert _wait(lambda: _gauge() == before)
    with north.ws(game_id) as ws:  # the seats are free and in order
        assert snapshot(ws)["game"]["players"]["south"]["connected"] is False


@pytest.mark.skipif(not REDIS_URL, reason="presence marks live in Redis (instances sharing the games)")
def test_a_quick_open_and_close_leaves_no_presence_mark(client) -> None:
    import redis

    service = client.app.state.service
    south, north = Browser(client), Browser(client)
    game_id, invite = south.create(side="south")
    north.join(invite)
    for _ in range(20):
        with south.ws(game_id):
            pass
    g = service.games[game_id]
    assert _wait(lambda: g.seats["south"].connections == 0 and not g.seats["south"].presence_lock.locked())
    r = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        marks = r.hgetall(f"admiral:presence:{game_id}:south")
    finally:
        r.close()
    assert service.bus.instance_id not in marks
