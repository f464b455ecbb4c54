"""The Redis pub/sub bus: "game changed" events fan out between app instances (issue 6).

Every instance publishes to Redis and listens to the channels its sockets subscribed to. A message carries
the publishing instance's id (``origin``): the instance delivers its own messages to its local subscribers at
once and skips their echo from Redis, so local delivery never waits for the network. Pub/sub keeps nothing:
when a channel's subscription reaches Redis (a game's first socket here, up to 0.2 s after it opened, or
every channel after the connection to Redis dropped and came back), its local subscribers get
``{"type": "changed", "resync": true}`` so that their sockets re-read the game (clients resynchronise by
version).

Presence (which instance holds an open socket of which seat) is written to Redis, and the same marks go out on
one channel every instance listens to (``admiral:presence``), so an instance answers "is this seat open
elsewhere?" from memory instead of asking Redis on every event of a game (issue 23). It asks Redis instead in its
first ``PRESENCE_TTL_S`` after (re)connecting, before it has heard every live mark, and whenever it has heard no
presence message (its own heartbeat's echo among them) for ``PRESENCE_HEARD_S``: a listener that hears nothing
cannot be trusted.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.exceptions import LockError, RedisError
from redis.lock import Lock as SyncLock
from redis.retry import Retry

from . import EventBus, InProcessBus, Subscription

__all__ = ["RedisBus"]

log = logging.getLogger("admiral.bus")


class RedisBus(EventBus):
    """:class:`EventBus` over Redis pub/sub. ``url``: ``redis://host:port/db``; ``instance_id`` names this
    instance in messages (random by default). Call :meth:`start` in the running loop before use."""

    def __init__(self, url: str, instance_id: str | None = None) -> None:
        self.url = url
        self.instance_id = instance_id or secrets.token_hex(6)
        # A blocking pool: under a burst, a command waits (up to 10 s) for a free connection instead of failing
        # with "Too many connections". A command holds its connection until the event loop reads the reply, so
        # a busy loop holds many at once: 64 were all taken for seconds at 2,000 games (issue 23).
        # TCP keep-alive probes (after 10 s idle, every 5 s, 3 unanswered: the connection is dropped): a connection
        # whose peer is gone without a word (a half-open one: a partition, a NAT's timeout) fails within ~25 s,
        # and the listener reconnects; its health check only sends a PING, and waits for no reply.
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            decode_responses=True,
            health_check_interval=10,
            max_connections=self.POOL_SIZE,
            timeout=10,
            socket_keepalive=True,
            socket_keepalive_options=_KEEPALIVE,
        )
        self._pool = pool
        self.redis = aioredis.Redis(connection_pool=pool)
        self._leases = _LeaseKeeper(url, self.LOCK_LEASE_S)
        self._local = InProcessBus()
        self._channels: dict[str, int] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Event()
        self._closing = False
        # Presence marks of the other instances heard on PRESENCE_CHANNEL: (game, side) → {instance id: _Heard}
        self._marks: dict[tuple[str, str], dict[str, _Heard]] = {}
        self._marks_sent = 0  # the number of this instance's last presence message (its order: _Heard.number)
        self._heard_since: float | None = None  # monotonic s the channel was last (re)subscribed; None: not now
        self._heard_at = -1e9  # monotonic s a presence message was last heard (this instance's own echo too)
        self._pruned_at = -1e9  # monotonic s the marks that ran out were last forgotten

    async def start(self) -> None:
        """Start the listener task (it connects, and reconnects with a backoff after errors)."""
        self._reader = asyncio.create_task(self._listen(), name="admiral-redis-bus")

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver to local subscribers now, then to the other instances through Redis (a failure is logged:
        the others resynchronise by version on their next event or tick)."""
        self._local.deliver(channel, message)
        try:
            await self.redis.publish(channel, json.dumps({"origin": self.instance_id, "message": message}))
        except RedisError:
            log.warning("publish to %s failed", channel, exc_info=True)

    def subscribe(self, channel: str) -> Subscription:
        """Receive ``channel``'s messages from every instance."""

        def closed() -> None:
            left = self._channels.get(channel, 1) - 1
            if left <= 0:
                self._channels.pop(channel, None)
                self._changed.set()
            else:
                self._channels[channel] = left

        sub = self._local.subscribe(channel, on_close=closed)
        self._channels[channel] = self._channels.get(channel, 0) + 1
        if self._channels[channel] == 1:
            self._changed.set()
        return sub

    async def _sync(self, pubsub: Any, subscribed: set[str], *, reconnect: bool = False) -> None:
        """Bring the Redis subscriptions in line with the local subscribers' channels. A channel just subscribed
        (a first socket of a game here, or every channel after a reconnect) may have missed messages published
        before Redis knew of it: its subscribers get ``{"type": "changed", "resync": true}`` (with ``"reconnect":
        true`` after a reconnect)."""
        wanted = set(self._channels)
        if add := wanted - subscribed:
            await pubsub.subscribe(*add)
            message = {"type": "changed", "resync": True, **({"reconnect": True} if reconnect else {})}
            for channel in add:
                self._local.deliver(channel, dict(message))
        if drop := subscribed - wanted:
            await pubsub.unsubscribe(*drop)
        subscribed.clear()
        subscribed.update(wanted)

    async def _listen(self) -> None:
        delay = 0.2
        first = True
        while not self._closing:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            subscribed: set[str] = set()
            try:
                # a channel to hold the connection open, and every instance's presence marks
                await pubsub.subscribe("admiral:hello", self.PRESENCE_CHANNEL)
                self._heard_since = time.monotonic()
                delay = 0.2  # every channel is subscribed anew below, each with a resync (see _sync)
                reconnect, first = not first, False
                self._changed.set()
                while not self._closing:
                    if self._changed.is_set():
                        self._changed.clear()
                        await self._sync(pubsub, subscribed, reconnect=reconnect)
                        reconnect = False
                    msg = await pubsub.get_message(timeout=0.2)
                    if msg is not None and msg.get("type") == "message":
                        try:
                            self._heard(msg["channel"], msg["data"])
                        except Exception:  # a message nobody foresaw: the listener, and every game, goes on
                            log.warning("message on %s skipped", msg["channel"], exc_info=True)
            except asyncio.CancelledError:
                self._heard_since = None
                raise
            except Exception:  # the connection lost (RedisError, OSError), or anything redis-py did not foresee
                self._heard_since = None  # marks sent meanwhile are missed: Redis answers until heard again
                if self._closing:
                    break
                log.warning("redis bus connection lost; retrying in %.1f s", delay, exc_info=True)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                self._changed.set()

    def _heard(self, channel: str, raw: str) -> None:
        """One message from Redis (``{"origin": instance id, "message": {…}}`` on a game's channel, a presence
        message on ``PRESENCE_CHANNEL``): delivered to the local subscribers unless it is this instance's echo; one
        that is not JSON of that shape is skipped.

        :raises RecursionError: hostile nesting (the listener logs it and goes on)."""
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            return
        if not isinstance(data, dict):
            return
        if channel == self.PRESENCE_CHANNEL:
            self._hear_marks(data)
            return
        if data.get("origin") == self.instance_id:
            return
        message = data.get("message")
        if isinstance(message, dict):
            self._local.deliver(channel, {**message, "origin": data.get("origin")})

    @property
    def shared(self) -> bool:
        """Other instances share the games."""
        return True

    #: Connections to Redis for commands (publish, locks, presence, caches) at most; a command waits for one.
    POOL_SIZE = 256

    #: Seconds a game's lock lives unless its holder renews it (every quarter of it, while held): an instance
    #: that dies holding one costs the next mover at most this long a wait, and no clock time (a move's clock
    #: stops when it is received). It was 10 s (issue 16); 1 s lost locks whenever a busy instance's loop
    #: stalled past 0.67 s (QA): a renewal every 0.5 s now survives a 1.5 s stall.
    LOCK_LEASE_S = 2.0
    #: Seconds a mutation waits for a game's lock before it gives up (``redis.exceptions.LockError``).
    LOCK_WAIT_S = 5.0

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """A lock on ``name`` across the instances: a redis-py ``Lock`` (``SET NX PX`` with a token, released
        only by its holder) with a short lease (``LOCK_LEASE_S``) that this process renews while the lock is held
        (a thread of its own, :class:`_LeaseKeeper`, so a busy event loop does not let it run out), so a long hold
        keeps it and a dead holder frees it within the lease.

        :raises redis.exceptions.LockError: not acquired within ``LOCK_WAIT_S``."""
        lock = self.redis.lock(
            f"admiral:lock:{name}", timeout=self.LOCK_LEASE_S, blocking_timeout=self.LOCK_WAIT_S, sleep=0.02
        )
        if not await lock.acquire():
            raise LockError(f"lock {name} not acquired within {self.LOCK_WAIT_S} s")
        token = lock.local.token  # unique to this acquisition
        self._leases.hold(lock.name, token)
        try:
            yield
        finally:
            self._leases.release(token)
            with contextlib.suppress(LockError, RedisError, OSError):
                await lock.release()

    #: Seconds a presence mark lives without a heartbeat (an instance that died stops counting after this).
    PRESENCE_TTL_S = 30
    #: Seconds without hearing a presence message (this instance's own heartbeat, every 10 s, comes back too) after
    #: which the marks in memory are not trusted and Redis is read (a half-open connection hears nothing).
    PRESENCE_HEARD_S = 15
    #: The channel every instance's presence marks go out on (:meth:`_hear_marks`).
    PRESENCE_CHANNEL = "admiral:presence"

    async def mark_present(self, game_id: str, side: str, present: bool) -> None:
        """Presence hash ``admiral:presence:{game}:{side}``: field = instance id, value = expiry (epoch ms); the
        same mark published on ``PRESENCE_CHANNEL``, in the same round trip. Instances refresh their marks
        (heartbeat) well inside the TTL."""
        if present:
            await self.heartbeat([(game_id, side)])
            return
        message = self._marks_message([(game_id, side)], False)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hdel(f"admiral:presence:{game_id}:{side}", self.instance_id)
                pipe.publish(self.PRESENCE_CHANNEL, message)
                await pipe.execute()
        except RedisError:
            log.warning("presence update failed", exc_info=True)

    async def heartbeat(self, marks: list[tuple[str, str]]) -> None:
        """Set (or renew) the presence marks ``(game_id, side)`` of this instance, written and published in one
        round trip (published even when there are none: every instance hears that this one's listener hears);
        forget the marks heard that ran out."""
        message = self._marks_message(marks, True)  # numbered now, in the step the caller took ``marks`` in
        mono = time.monotonic()
        if mono - self._pruned_at >= self.PRESENCE_TTL_S / 3:  # not on every socket's opening: a reconnect storm
            self._pruned_at = mono
            for key in list(self._marks):
                held = self._marks[key]
                for origin in [o for o, h in held.items() if h.until <= mono]:
                    del held[origin]
                if not held:
                    del self._marks[key]
        expiry = int(time.time() * 1000) + self.PRESENCE_TTL_S * 1000
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id, side in marks:
                    key = f"admiral:presence:{game_id}:{side}"
                    pipe.hset(key, self.instance_id, expiry)
                    pipe.expire(key, self.PRESENCE_TTL_S * 2)
                pipe.publish(self.PRESENCE_CHANNEL, message)
                await pipe.execute()
        except RedisError:
            log.warning("presence update failed", exc_info=True)

    def _marks_message(self, marks: list[tuple[str, str]], present: bool) -> str:
        """``{"origin": instance id, "number": n, "marks": [[game, side], …], "present": bool}``; ``n`` counts this
        instance's presence messages in the order they were made (a heartbeat's marks are taken in the same step of
        the event loop), so a heartbeat made before a socket closed and heard after its removal is not taken."""
        self._marks_sent += 1
        return json.dumps({"origin": self.instance_id, "number": self._marks_sent,
                           "marks": [[g, s] for g, s in marks], "present": present})  # fmt: skip

    def _hear_marks(self, data: dict[str, Any]) -> None:
        """Keep another instance's marks from a ``PRESENCE_CHANNEL`` message (:meth:`_marks_message`) for
        ``PRESENCE_TTL_S`` of this instance's own clock, unless a later message of that instance said otherwise; a
        message of another shape, or a mark that is not a pair of strings, is skipped."""
        origin, number, marks, present = (data.get(k) for k in ("origin", "number", "marks", "present"))
        if not isinstance(origin, str) or type(number) is not int or type(present) is not bool:
            return
        if not isinstance(marks, list):
            return
        mono = time.monotonic()
        self._heard_at = mono
        if origin == self.instance_id:
            return
        until = mono + self.PRESENCE_TTL_S
        for mark in marks:
            if not (isinstance(mark, list) and len(mark) == 2 and all(isinstance(x, str) for x in mark)):
                continue
            held = self._marks.setdefault((mark[0], mark[1]), {})
            before = held.get(origin)
            # a removal is kept as long as a mark, to stand against a stale one; what ran out no longer stands
            if before is None or before.number < number or before.until <= mono:
                held[origin] = _Heard(number, present, until)

    async def present_elsewhere(self, game_id: str) -> dict[str, bool]:
        """Sides with a live presence mark of another instance: from the marks heard on ``PRESENCE_CHANNEL``
        once it has been listened to for a mark's whole life (``PRESENCE_TTL_S``) and a presence message was
        heard in the last ``PRESENCE_HEARD_S``, else from Redis."""
        mono = time.monotonic()
        since = self._heard_since
        if since is not None and mono - since >= self.PRESENCE_TTL_S and mono - self._heard_at < self.PRESENCE_HEARD_S:
            return {
                side: any(h.present and h.until > mono for h in self._marks.get((game_id, side), {}).values())
                for side in ("south", "north")
            }
        now = int(time.time() * 1000)
        out: dict[str, bool] = {}
        try:
            async with self.redis.pipeline(transaction=False) as pipe:  # one round trip for both sides
                for side in ("south", "north"):
                    pipe.hgetall(f"admiral:presence:{game_id}:{side}")
                both = await pipe.execute()
            for side, marks in zip(("south", "north"), both, strict=True):
                out[side] = any(k != self.instance_id and int(v) > now for k, v in marks.items())
        except (RedisError, ValueError):
            log.warning("presence read failed", exc_info=True)
        return out

    async def ping(self) -> bool:
        """Whether Redis answers (readiness)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 2.0))
        except (RedisError, OSError, TimeoutError):
            return False

    async def close(self) -> None:
        """Stop listening and close the connections."""
        self._closing = True
        self._leases.stop()  # at once: the awaits below may be cut short by the app's own stop timeout
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=1)  # it sees the flag within 0.2 s
            self._reader.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pool.disconnect(), 2)
        await asyncio.to_thread(self._leases.close)


_KEEPALIVE = {
    opt: value
    for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3))
    if (opt := getattr(socket, name, None)) is not None  # Linux names; elsewhere the system's defaults
}


@dataclasses.dataclass(frozen=True, slots=True)
class _Heard:
    """One instance's last word on one seat: its message's ``number``, whether the seat is open there, and until
    when (monotonic seconds of this instance) it counts."""

    number: int
    present: bool
    until: float


class _LeaseKeeper:
    """Renews the leases of the locks this process holds, every quarter of ``lease_s`` seconds, from a daemon thread
    with its own Redis connection: all of them in one pipeline of redis-py's reacquire script (redis-py checks the
    script is loaded first: two round trips).

    Renewed from the event loop, a lease ran out whenever the loop fell 1.5 s behind: at 2,000 games on two instances
    ~50 game locks an instance were lost while held in the games' first two minutes of setup (issue 23). A thread
    does not wait for the loop's backlog, only for its turn at the interpreter: at 1,000 games on an overloaded
    machine 7 locks were lost instead of 244 (all in one late renewal, as the games ended together), so a lease runs
    out when the process is gone, stopped or starved for most of the lease, or Redis cannot be reached for as long.
    """

    def __init__(self, url: str, lease_s: float) -> None:
        self.lease_ms = int(lease_s * 1000)
        self.every_s = lease_s / 4
        # A reply late by a quarter lease is given up for the next round (the loop tries again then) rather than
        # waited for, or retried with a backoff, past the lease itself.
        self._redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=self.every_s,
            socket_connect_timeout=self.every_s,
            retry=Retry(NoBackoff(), 1),
        )
        self._script = self._redis.register_script(SyncLock.LUA_REACQUIRE_SCRIPT)
        self._held: dict[str | bytes, str] = {}  # token (unique to an acquisition) → key
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def hold(self, key: str, token: str | bytes) -> None:
        """Keep ``key``'s lease (owned by ``token``) until :meth:`release` of ``token``."""
        with self._guard:
            self._held[token] = key
            if (self._thread is None or not self._thread.is_alive()) and not self._stop.is_set():
                self._thread = threading.Thread(target=self._run, name="admiral-lock-leases", daemon=True)
                self._thread.start()

    def release(self, token: str | bytes) -> None:
        """Stop renewing the lease owned by ``token`` (the lock itself is released by its holder)."""
        with self._guard:
            self._held.pop(token, None)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            with self._guard:
                held = list(self._held.items())
            if held:
                try:
                    self.renew(held)
                except Exception:  # never let the thread die: every held lease depends on it
                    log.exception("renewing %d lock leases failed unexpectedly; trying again", len(held))

    def renew(self, held: list[tuple[str | bytes, str]]) -> None:
        """Reset the leases of ``held`` (``(token, key)``) in one pipeline; a lease found run out (its
        key gone or another holder's) is logged and no longer renewed."""
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for token, key in held:
                    self._script(keys=[key], args=[token, self.lease_ms], client=pipe)
                kept = pipe.execute()
        except (RedisError, OSError):
            log.warning("renewing %d lock leases failed; trying again", len(held), exc_info=True)
            return
        for (token, key), ok in zip(held, kept, strict=True):
            if not ok:
                with self._guard:
                    still = self._held.pop(token, None) is not None
                if still:
                    log.error("lock %s was lost while held (its lease ran out)", key.removeprefix("admiral:lock:"))

    def stop(self) -> None:
        """Stop renewing (the thread ends within a quarter lease)."""
        self._stop.set()

    def close(self) -> None:
        """Stop the thread, wait for it (2 s at most) and close its connection."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with contextlib.suppress(Exception):
            self._redis.close()
