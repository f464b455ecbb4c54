"""The games' locks across instances (issue 23): a held lock keeps its lease while the instance's Redis pool is
taken by other commands, as it was at 2,000 games on two instances (48 locks lost while held)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from admiral.bus.redis import RedisBus

from .conftest import REDIS_URL

pytestmark = pytest.mark.skipif(REDIS_URL is None, reason="needs ADMIRAL_TEST_REDIS_URL (Redis)")


class QuickLeases(RedisBus):
    """Leases of 0.4 s (renewed every 0.1 s) and a pool of two connections, so that a test takes a second."""

    POOL_SIZE = 2
    LOCK_LEASE_S = 0.4


async def hold_with_the_pool_taken(name: str) -> tuple[bool, bool]:
    """Hold ``name``'s lock for three leases while both of the pool's connections are taken; then whether the
    lock's key still held its token at the end, and whether another bus could take the lock meanwhile."""
    bus, rival = QuickLeases(REDIS_URL), QuickLeases(REDIS_URL)
    key = f"admiral:lock:{name}"
    try:
        async with bus.lock(name):
            token = await bus.redis.get(key)
            taken = [await bus._pool.get_connection() for _ in range(QuickLeases.POOL_SIZE)]
            try:
                await asyncio.sleep(3 * QuickLeases.LOCK_LEASE_S)
                still = await rival.redis.get(key) == token
                stolen = await rival.redis.set(key, "rival", nx=True, px=1000)
            finally:
                for conn in taken:
                    await bus._pool.release(conn)
        return still, bool(stolen)
    finally:
        await rival.redis.delete(key)
        await bus.close()
        await rival.close()


def test_a_held_lock_keeps_its_lease_while_the_command_pool_is_taken(caplog) -> None:
    caplog.set_level(logging.ERROR, logger="admiral.bus")
    still, stolen = asyncio.run(hold_with_the_pool_taken("test-lease-pool"))
    assert (still, stolen) == (True, False)
    assert not [r for r in caplog.records if "lost while held" in r.getMessage()]
