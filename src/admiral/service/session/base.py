"""The plumbing every change of a game goes through: the game's lock (and the shared lock with instances sharing
the games), named locks, database calls off the event loop, changes that run whole in a task of their own, and
the ``changed`` event that tells every socket of the game."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from typing import Any

from admiral.bus import EventBus
from admiral.games import Ruleset
from admiral.i18n import _
from admiral.progression.ranks import rank_for
from admiral.store import Store
from admiral.store.repo import ActionWrite

from .. import metrics
from ..errors import ServiceError
from ..progress import ProgressService
from .live import (
    LiveGame,
    ServiceOptions,
    SystemTime,
    T,
    _busy,
    _forget_task,
    log,
)


class SessionBase:
    """The state and plumbing the session modules share (see the module docstring). Part of
    :class:`~admiral.service.session.GameService`."""

    def __init__(
        self,
        store: Store,
        bus: EventBus,
        rulesets: Mapping[str, Ruleset],
        options: ServiceOptions | None = None,
        progress: ProgressService | None = None,
        now: SystemTime | None = None,
    ) -> None:
        #: The time source (:class:`~.live.SystemTime`; a fake one in the session tests).
        self.now = now or SystemTime()
        self.store = store
        self.progress = progress
        self.bus = bus
        self.rulesets = rulesets
        self.options = options or ServiceOptions()
        self.games: dict[str, LiveGame] = {}
        self._tasks: set[asyncio.Task] = set()
        #: Changes of games in flight (:meth:`_shielded`): :meth:`stop` lets them finish.
        self._named: dict[str, asyncio.Lock] = {}
        self._changes: set[asyncio.Task] = set()
        self._sweeper: asyncio.Task | None = None
        self._stopping = False
        self._presence_at = 0.0
        #: The one thread that credits finished games to their commanders (:meth:`_credit_later`).
        self._credit_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="admiral-credit")
        #: Where the bots think (:mod:`.botpool`): made on the first bot turn, anew if a worker died.
        self._bot_pool: concurrent.futures.Executor | None = None
        #: Threads for the database calls of the hot path (an action's write, a catch-up's read), so the
        #: event loop keeps serving the other games meanwhile.
        self._db_pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="admiral-db")
        #: Whether those calls use the threads: yes for a database over the network (PostgreSQL: the loop would
        #: wait for its round trips), no for SQLite, a local file whose short statements cost less than the
        #: hand-off to a thread (ws_load at saturation: 790 actions/s inline, 450–480 in threads).
        self.db_threads = store.engine.dialect.name != "sqlite"
        #: Moves waiting for the next group commit (:meth:`_store_move`), each with the future its mover awaits.
        self._moves: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        #: How this instance brought cached games up to another instance's changes: ``event`` (a delta applied
        #: in memory), ``database`` (read from the database: a gap, no delta, a tick, a lock's check).
        self.catch_ups: Counter[str] = Counter()

    @contextlib.asynccontextmanager
    async def _locked(self, g: LiveGame) -> AsyncIterator[None]:
        """Hold the game for one mutation: its asyncio lock; with instances sharing the games (a Redis bus)
        also the game's Redis lock, and the cached copy is brought up to date if another instance changed it
        (``games.revision``, read in a worker thread). Why a Redis lock rather than a database row lock: the
        repository's transactions are short, one per call, and must not span the engine's work and awaits; the
        lock is held for milliseconds, its short lease is renewed while held, and it frees a game whose instance
        died within ``RedisBus.LOCK_LEASE_S`` (2 s; the mover's clock is not charged for the wait: :meth:`submit`).
        The unique ``(game_id, ply)`` of the action rows stays the last guard should a lease ever expire
        mid-write.

        :raises ServiceError: ``unavailable`` when the game's lock could not be had (Redis down, or held by
            another instance for too long); nothing changed then."""
        async with g.lock:
            if not self.bus.shared:
                yield
                return
            async with contextlib.AsyncExitStack() as held:
                try:
                    await held.enter_async_context(self.bus.lock(f"game:{g.id}"))
                except Exception:
                    g.log.warning("the game's lock could not be had", exc_info=True)
                    raise ServiceError("unavailable", _busy()) from None
                await self._catch_up(g)
                yield

    @contextlib.asynccontextmanager
    async def _serialised(self, *names: str) -> AsyncIterator[None]:
        """Hold the named locks (sorted, so two holders never wait for each other in a cycle): an asyncio lock
        of this process each and, with instances sharing the games, the bus's lock of that name.

        :raises ServiceError: ``unavailable`` when a shared lock could not be had."""
        async with contextlib.AsyncExitStack() as held:
            for name in sorted(set(names)):
                lock = self._named.setdefault(name, asyncio.Lock())
                await held.enter_async_context(lock)
                held.callback(self._drop_named, name, lock)
                if self.bus.shared:
                    try:
                        await held.enter_async_context(self.bus.lock(name))
                    except Exception:
                        log.warning("lock %s could not be had", name, exc_info=True)
                        raise ServiceError("unavailable", _busy()) from None
            yield

    def _drop_named(self, name: str, lock: asyncio.Lock) -> None:
        """Forget a named lock nobody holds or waits for (called as it is released)."""
        if self._named.get(name) is lock and not lock.locked() and not getattr(lock, "_waiters", None):
            del self._named[name]

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking store call in a database thread, off the event loop (inline without ``db_threads``).

        A cancelled caller is cancelled: the call itself runs on in its thread, but nothing waits for it. So a
        caller must not be cancelled halfway through a change of a game; every change runs in a task of its own
        that its requester cannot cancel (:meth:`_shielded`). (This method used to swallow the cancellation to
        see a write through; a socket's writer task, cancelled while it read a game, then never ended, and
        its socket handler waited for it forever: issue 16.)"""
        if not self.db_threads:
            return fn(*args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, functools.partial(fn, *args, **kwargs))

    async def _store_move(self, game_id: str, rows: list[tuple[int, str, str | None]], values: dict[str, Any]) -> None:
        """Store one game's move (action rows ``(ply, notation, side)`` and the game's columns) together with the
        other games' moves made in the same turn of the event loop: one transaction for them all
        (:meth:`Store.append_actions_many`), in a database thread or inline as :meth:`_db` runs its calls. Under
        load a transaction's fixed cost (pool, BEGIN, COMMIT) is then paid once per turn, not once per move.

        :raises DuplicatePly: another writer stored this ply first (nothing of this move is stored);
            any other exception: the database refused the write (nothing of this move is stored either)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._moves.append((ActionWrite(game_id, rows, values), done))
        if len(self._moves) == 1:
            loop.call_soon(self._commit_moves)
        await done

    def _commit_moves(self) -> None:
        """The group commit of :meth:`_store_move`: every move queued since the last one, in one call."""
        batch, self._moves = self._moves, []
        writes = [w for w, _ in batch]
        metrics.MOVES_PER_COMMIT.observe(len(writes))
        if not self.db_threads:
            try:
                outcomes = self.store.append_actions_many(writes)
            except Exception as e:  # append_actions_many reports each write's failure; this is a bug's way out
                outcomes = [e] * len(batch)
            _settle(batch, outcomes)
            return
        call = asyncio.get_running_loop().run_in_executor(self._db_pool, self.store.append_actions_many, writes)

        def settled(f: asyncio.Future[list[BaseException | None]]) -> None:
            if f.cancelled():  # the pool shut down under it (a stop): the movers are told as if cancelled
                for _write, done in batch:
                    done.cancel()
            elif (e := f.exception()) is not None:
                _settle(batch, [e] * len(batch))
            else:
                _settle(batch, f.result())

        call.add_done_callback(settled)

    async def _save(self, g: LiveGame, **values: Any) -> None:
        """Store columns of ``g``'s row (caller holds the lock, and sets the same facts in memory only after
        this returns: a failed write changes nothing anyone can see).

        :raises ServiceError: ``unavailable`` when the database refused the write."""
        try:
            await self._db(self.store.update_game, g.id, **values)
        except Exception:
            g.log.exception("a write of the game failed: %s", sorted(values))
            raise ServiceError("unavailable", _("Не удалось сохранить. Попробуйте ещё раз.")) from None

    async def _shielded(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` (a change of a game: lock → check → apply → store → publish) to its end in a task of its
        own, and return its outcome. If the requester is cancelled meanwhile (its socket closed, its request
        dropped), the change still completes or fails whole, never halfway, and :meth:`stop` waits for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self._changes.add(task)
        task.add_done_callback(_forget_task(self._changes))
        return await asyncio.shield(task)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    #: Most deltas one event carries, and most bytes (JSON) they may take: beyond, the event carries none
    #: and other instances read the database.
    DELTAS_MAX = 8

    DELTAS_MAX_BYTES = 4096

    async def _ensure_profiles(self, g: LiveGame) -> None:
        """Read the public face (:attr:`~.live.Seat.profile`: name, rank and the rating in this game, PROGRESSION.md
        §4) of each seat's commander not read yet for its holder:
        one query for the game's seats when one was bound or changed hands, nothing otherwise, so a snapshot never
        waits for the database. A failed read is logged and tried again on the next call (the seat shows as a
        guest meanwhile)."""
        todo = {
            s.browser_hash: s
            for s in g.seats.values()
            if s.browser_hash is not None and s.bot_level is None and s.profile_of != s.browser_hash
        }
        if not todo:
            return
        try:
            rows = {} if self.progress is None else await self._db(self.progress.store.by_keys, list(todo))
            registered_keys = [k for k, r in rows.items() if r.email is not None and r.nickname]
            ratings = (
                await self._db(self.progress.store.ratings_for, registered_keys, g.rules.info.key)
                if registered_keys and self.progress is not None
                else {}
            )
        except Exception:
            g.log.warning("reading the players' profiles failed", exc_info=True)
            return
        for key, seat in todo.items():
            row = rows.get(key)
            registered = row is not None and row.email is not None and row.nickname
            rank = rank_for(row.points) if registered else None
            # the rank as the profile names it (its number and message id), not the commander's points
            seat.profile = {"name": row.nickname, "rank": {"number": rank.number, "name": rank.name}} if rank else None
            if seat.profile is not None and key in ratings:  # PROGRESSION.md §4: «Nick · 1523?» in the bars
                seat.profile["rating"] = ratings[key].to_dict()
            seat.profile_of = key

    def _show_new_ratings(self, g: LiveGame) -> None:
        """A rated game's seats show the ratings after it in the bars (PROGRESSION.md §4), taken from what the game
        did to them (``g.credited[side]["rating"]``), on whichever instance holds the game: no new read."""
        for side, change in g.credited.items():
            seat, rating = g.seats.get(side), change.get("rating")
            if seat is None or rating is None or seat.profile is None:
                continue
            shown = {"rating": rating["after"], "rd": rating["rd"], "provisional": rating["provisional"],
                     "games": rating.get("games", 0)}  # fmt: skip
            seat.profile = {**seat.profile, "rating": shown}

    async def _publish(self, g: LiveGame, **extra: Any) -> None:
        """Tell every socket of ``g`` (on every instance) that it changed: ``{"type": "changed", "version",
        **extra}`` on the bus (``extra``: one-off facts for some sockets, e.g. ``rematch_url``, ``declined``)."""
        await self._ensure_profiles(g)
        g.touched = self.now.mono()
        message = {"type": "changed", "version": self._version(g), **extra}
        if self.bus.shared:  # lets other instances skip the database when their copy is already this fresh
            message["revision"] = revision = self.store.known.get(g.id)
            deltas, g.outbox = g.outbox, []
            if (
                deltas
                and deltas[-1]["revision"] == revision
                and len(deltas) <= self.DELTAS_MAX
                and len(json.dumps(deltas)) <= self.DELTAS_MAX_BYTES
            ):
                message["deltas"] = deltas
        await self.bus.publish(f"game:{g.id}", message)


def _settle(batch: list[tuple[ActionWrite, asyncio.Future[None]]], outcomes: list[BaseException | None]) -> None:
    """Resolve each waiting mover's future with its write's outcome (``None``: stored); a mover that stopped
    waiting (cancelled) is skipped."""
    for (_write, done), outcome in zip(batch, outcomes, strict=True):
        if done.done():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)
