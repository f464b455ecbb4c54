"""The games' locks across instances (issue 23): a held lock keeps its lease while the instance's Redis pool is
taken by other commands, or its event loop is busy, as they were at 2,000 games on two instances (~50 locks a
minute lost while held)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from admiral.bus.redis import RedisBus

from .conftest import REDIS_URL

pytestmark = pytest.mark.skipif(REDIS_URL is None, reason="needs ADMIRAL_TEST_REDIS_URL (Redis)")


class QuickLeases(RedisBus):
    """Leases of 0.4 s (renewed every 0.1 s) and a pool of two connections, so that a test takes a second."""

    POOL_SIZE = 2
    LOCK_LEASE_S = 0.4


async def hold_while(name: str, meanwhile) -> tuple[bool, bool, str | None]:
    """Hold ``name``'s lock on one bus while ``await meanwhile(bus)`` runs (three leases long); then whether the key
    still held the holder's token at the end, whether a rival bus could take the lock then, and the key's value once
    the holder released it."""
    bus, rival = QuickLeases(REDIS_URL), QuickLeases(REDIS_URL)
    key = f"admiral:lock:{name}"
    try:
        async with bus.lock(name):
            token = await bus.redis.get(key)
            await meanwhile(bus)
            still = await rival.redis.get(key) == token
            stolen = await rival.redis.set(key, "rival", nx=True, px=1000)
        return still, bool(stolen), await rival.redis.get(key)
    finally:
        await rival.redis.delete(key)
        await bus.close()
        await rival.close()


async def pool_taken(bus: QuickLeases) -> None:
    """Both of the bus's command connections taken by others for three leases."""
    taken = [await bus._pool.get_connection() for _ in range(QuickLeases.POOL_SIZE)]
    try:
        await asyncio.sleep(3 * QuickLeases.LOCK_LEASE_S)
    finally:
        for conn in taken:
            await bus._pool.release(conn)


async def loop_blocked(_bus: QuickLeases) -> None:
    """The event loop blocked for three leases (what a loop far behind its work does to a task that renews from
    it)."""
    time.sleep(3 * QuickLeases.LOCK_LEASE_S)  # blocks the loop: the point of the test


async def renewal_fails_once(bus: QuickLeases) -> None:
    """The lease thread's first renewal fails with an error nobody foresaw; three leases pass."""
    renew, calls = bus._leases.renew, []

    def flaky(held):
        calls.append(len(held))
        if len(calls) == 1:
            raise ValueError("unforeseen")
        return renew(held)

    bus._leases.renew = flaky
    await asyncio.sleep(3 * QuickLeases.LOCK_LEASE_S)
    assert len(calls) >= 3  # it went on renewing


@pytest.mark.parametrize("meanwhile", [pool_taken, loop_blocked, renewal_fails_once])
def test_a_held_lock_keeps_its_lease(meanwhile, caplog) -> None:
    caplog.set_level(logging.ERROR, logger="admiral.bus")
    kept = asyncio.run(hold_while(f"test-lease-{meanwhile.__name__}", meanwhile))
    assert kept == (True, False, None)  # kept while held, nobody else took it, released at the end
    assert not [r for r in caplog.records if "lost while held" in r.getMessage()]


async def lose_the_lease(name: str) -> list[str]:
    """Hold ``name``'s lock while its key is deleted behind the holder's back (a lease run out, or Redis flushed):
    the log lines of the bus meanwhile."""
    bus = QuickLeases(REDIS_URL)
    key = f"admiral:lock:{name}"
    try:
        async with bus.lock(name):
            await bus.redis.delete(key)
            await asyncio.sleep(3 * QuickLeases.LOCK_LEASE_S / 4)
            return [await bus.redis.get(key) or ""]
    finally:
        await bus.close()


def test_a_lease_found_run_out_is_logged_once_and_not_renewed(caplog) -> None:
    caplog.set_level(logging.ERROR, logger="admiral.bus")
    assert asyncio.run(lose_the_lease("test-lease-lost")) == [""]  # not set again by a renewal
    lost = [r.getMessage() for r in caplog.records if "lost while held" in r.getMessage()]
    assert lost == ["lock test-lease-lost was lost while held (its lease ran out)"]
