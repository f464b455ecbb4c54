"""The game service: lobby, setup, play, clocks, timers and presence of friend games.

One move, end to end (DESIGN.md): a message → :meth:`GameService.handle` → the game's asyncio lock →
the ruleset applies it to the cached game → the action rows are appended (unique ``(game_id, ply)``)
and the game row updated in one transaction → commit → ``{"type": "changed", "version"}`` is published
on ``game:{id}`` → every socket of the game builds ITS seat's snapshot with :meth:`GameService.snapshot`.

Every mutation of a game happens under its lock, so actions of one game run one at a time; games do
not wait for each other. A game in progress is cached in memory (:class:`LiveGame`) and rebuilt after a
restart by replaying its action rows. Clocks (rules §13) are :class:`GameClock` values checkpointed to
the database with every action and by the sweeper every ``sweep_interval_s`` seconds.

Start-up stays light however many games are stored: only games that need a timer (a clock in play, a
setup deadline) are loaded at start; any other game is loaded on first access (:meth:`GameService.get`).
Invites nobody accepted expire after ``waiting_ttl_s`` (one bulk ``UPDATE`` by the sweeper).

Games against the AI (rules §12): the bot's seat is held by the pseudo browser ``bot:<level>`` (never a
real browser's hash, which is 64 hex digits). The bot sets up at once. Whenever the bot's side must act,
a bot turn runs: under the lock it takes the engine's view of its side (the one view function — it never
gets the true state), thinks in a worker process at a lower OS priority (``bot_workers``, :mod:`.botpool`), so
the event loop and other games stay responsive however many bots think, then commits its action like a
player's, under the lock, if the game is still at that ply.
Its clock runs while it thinks, as a human's does. After a restart a bot's memory is rebuilt by
showing it its views again along the record (:meth:`Ruleset.bot_catch_up`).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from admiral.bus import EventBus
from admiral.games import DEFAULT_GAME, AutoReply, MarkerNotes, RuleError, Ruleset
from admiral.i18n import _, ngettext
from admiral.store import GameRow, GameSeatRow, Store
from admiral.store.repo import ACTIVE, DuplicatePly, LoadedGame

from . import botpool, metrics, snapshot
from .clock import GameClock
from .errors import ServiceError, engine_message
from .lobby import GameSettings, hash_token, new_game_id
from .messages import ActionMsg, ClientMessage, NoteMsg, PrefsMsg, SetupAutoMsg, SetupReadyMsg, SetupUpdateMsg
from .progress import ProgressService

__all__ = ["GameService", "LiveGame", "Seat", "ServiceOptions"]

log = logging.getLogger("admiral.game")

SIDES = ("south", "north")
#: Columns of the game row a foreign instance takes from an action's delta (the rest does not change in play).
DELTA_KEYS = ("ply", "status", "draw_offer", "clock_south_ms", "clock_north_ms", "clock_running", "clock_started_at")
T = TypeVar("T")
#: Prefix of the pseudo browser hash that marks a seat held by the AI: ``bot:3``.
BOT_PREFIX = "bot:"


def _busy() -> str:
    """The refusal of a change whose lock could not be had (in the request's language)."""
    return _("Сервер занят. Попробуйте ещё раз через секунду.")


def _other(side: str) -> str:
    return "north" if side == "south" else "south"


def _wall_ms() -> int:
    return int(time.time() * 1000)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class ServiceOptions:
    """Tunables of the service. ``claim_grace_ms``: disconnection before a claim is allowed (rules §10.1);
    ``sweep_interval_s``: period of flag checks and clock checkpoints; ``secret_key`` seals invite codes;
    ``waiting_ttl_s``: a game whose invite was not accepted within this time is aborted.

    Bots: ``bot_workers`` worker processes think for them (threads of this process with ``bot_processes`` off:
    tests that watch a bot from inside); ``bot_delay_ms`` is the least time between the
    position a bot answers and its answer (so that a player sees their own move land first; the bot's
    clock runs meanwhile); ``bot_think_s`` the thinking budget per level in seconds (further capped at
    1/30 of the bot's remaining clock); ``max_bot_games`` unfinished games against the AI one commander may
    have at once, ``max_bot_games_per_address`` those created from one client address (bots cost the server's
    CPU)."""

    claim_grace_ms: int = 60_000
    sweep_interval_s: float = 2.0
    secret_key: str = "dev"
    waiting_ttl_s: float = 24 * 3600
    bot_workers: int = 2
    bot_processes: bool = True
    bot_delay_ms: int = 500
    bot_think_s: dict[int, float] = field(default_factory=lambda: {1: 0.05, 2: 0.3, 3: 0.5, 4: 1.0, 5: 1.0})
    max_bot_games: int = 3
    max_bot_games_per_address: int = 6


@dataclass
class Seat:
    """One side of a live game. ``gone_since``: monotonic time its last socket closed (or the game was loaded)."""

    side: str
    browser_hash: str | None
    draft: dict[str, str]
    ready: bool
    auto_declare: bool
    connections: int = 0
    gone_since: float = field(default_factory=time.monotonic)
    #: An open socket of this seat on another instance (instances sharing the games).
    elsewhere: bool = False
    #: The seat's notes on enemy markers as ``(version, {cell: note})``; ``None`` until read from the database.
    notes: tuple[int, dict[str, str]] | None = None
    #: Serialises the writes of this seat's presence mark (:meth:`GameService._announce`).
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        """Whether the seat's player has a socket open anywhere (a bot is always there)."""
        return self.connections > 0 or self.elsewhere or self.bot_level is not None

    @property
    def bot_level(self) -> int | None:
        """The AI level holding this seat (rules §12), ``None`` for a person or a free seat."""
        return _bot_level(self.browser_hash)


def _forget_task(tasks: set[asyncio.Task]) -> Callable[[asyncio.Task], None]:
    """A done callback: drop the task from ``tasks`` and retrieve its outcome (a change whose requester went away
    has nobody to read its error: it is logged, not left as "exception was never retrieved")."""

    def done(task: asyncio.Task) -> None:
        tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None and not isinstance(exc, ServiceError):
            log.error("a change failed", exc_info=exc)

    return done


def _bot_level(holder: str | None) -> int | None:
    """The AI level of a seat holder (``bot:3`` → 3), ``None`` for a person or a free seat."""
    return int(holder[len(BOT_PREFIX) :]) if holder is not None and holder.startswith(BOT_PREFIX) else None


class GameLog(logging.LoggerAdapter):
    """Log lines about one game, each carrying ``game=<id>``."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        """Prefix the message with the game id and pass it as ``extra["game_id"]`` too."""
        kwargs.setdefault("extra", {})["game_id"] = self.extra["game_id"]
        return f"game={self.extra['game_id']} {msg}", kwargs


class LiveGame:
    """A game cached in memory: its settings, seats, engine handle, clock, timer and lock."""

    def __init__(self, row: GameRow, seats: dict[str, Seat], rules: Ruleset) -> None:
        self.id = row.id
        #: The game's rules (the registry's ruleset of ``row.game``).
        self.rules = rules
        self.status = row.status
        self.settings = GameSettings.from_dict(row.settings)
        self.creator_hash = row.creator_hash
        self.creator_address = row.creator_address
        self.seed = row.seed
        self.invite_sealed = row.invite_sealed
        self.seats = seats
        self.game: Any = None
        self.clock: GameClock | None = None
        self.setup_deadline_ms: int | None = row.setup_deadline
        self.draw_offer = row.draw_offer
        self.rematch_id = row.rematch_id
        self.result: dict[str, Any] | None = (
            {"winner": row.result_winner, "reason": row.result_reason} if row.result_reason else None
        )
        self.turns = {"south": 0, "north": 0}
        #: Wire views by audience, valid for the version in ``views_version`` (every socket of an
        #: audience gets the same view of a version: build it once).
        self.views: dict[str, dict[str, Any]] = {}
        self.views_version = -1
        self.finished = row.finished_at is not None
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None
        #: Open spectator sockets (a seat counts its own in ``Seat.connections``).
        self.spectators = 0
        self.log = GameLog(log, {"game_id": row.id})
        #: Bots of this game by side (made on first need; their memory lives here), the ply each has
        #: seen up to, and the task of the bot turn in progress.
        #: What each side's commander got from the finished game (PROGRESSION.md §2–§5): side → changes.
        self.credited: dict[str, dict[str, Any]] = {}
        self.bots: dict[str, Any] = {}
        self.bot_seen: dict[str, int] = {}
        self.bot_task: asyncio.Task | None = None
        self.bot_lock = asyncio.Lock()
        #: Instances sharing the games: when this copy was last checked against the database, and whether
        #: that check found a change (sockets of the game share one check a second).
        self.refreshed_at = 0.0
        self.refreshed_changed = False
        #: When this instance last read where the players' sockets are (instances sharing the games).
        self.presence_at = 0.0
        #: Clear while an action's write is in flight (the engine copy is ahead of the database then): whoever
        #: shows the game (a socket's snapshot) waits for it, so nobody ever sees a move that is not stored.
        self.settled = asyncio.Event()
        self.settled.set()
        #: Deltas of the actions committed here and not yet published (instances sharing the games): the
        #: next "changed" event carries them, so other instances apply them without reading the database.
        self.outbox: list[dict[str, Any]] = []

    @property
    def active(self) -> bool:
        """Not finished: waiting, setup or play."""
        return self.status in ACTIVE

    @property
    def timed(self) -> bool:
        """Whether a timer watches the game: a clock in play, or a setup deadline."""
        return (self.status == "play" and self.clock is not None) or (
            self.status == "setup" and self.setup_deadline_ms is not None
        )

    @property
    def watched(self) -> bool:
        """Whether any socket (a player's or a spectator's) is open on the game."""
        return self.spectators > 0 or any(s.connections for s in self.seats.values())

    def seat_of(self, browser_hash: str | None) -> str | None:
        """The side held by ``browser_hash``, else ``None``."""
        if browser_hash is None:
            return None
        for side, seat in self.seats.items():
            if seat.browser_hash == browser_hash:
                return side
        return None


class GameService:
    """Friend games: create, join, set up, play, end; clocks and timers; presence. See the module docstring.

    ``store``: the repository; ``bus``: where "game changed" is published; ``rulesets``: the games of the house
    by key (:data:`admiral.games.GAMES`); each game is played by the ruleset of its ``games.game``.
    Call :meth:`start` inside the running event loop before use and :meth:`stop` at shutdown.
    """

    def __init__(
        self,
        store: Store,
        bus: EventBus,
        rulesets: Mapping[str, Ruleset],
        options: ServiceOptions | None = None,
        progress: ProgressService | None = None,
    ) -> None:
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
        #: How this instance brought cached games up to another instance's changes: ``event`` (a delta applied
        #: in memory), ``database`` (read from the database: a gap, no delta, a tick, a lock's check).
        self.catch_ups: Counter[str] = Counter()

    # -- life cycle ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the games that need a timer (a clock in play, a setup deadline; the others load on first
        access), then — loading done, the server about to serve — restart their running clocks from one
        "now" and shift their setup deadlines by the downtime (time the server was down or starting is
        charged to nobody), arm the timers and start the sweeper."""
        loaded: list[tuple[LiveGame, GameRow]] = []
        for game_id in self.store.timed_game_ids():
            try:
                got = self._load(game_id)
            except Exception:  # a broken game must not keep the server down
                log.exception("game=%s load failed", game_id)
                continue
            if got is not None:
                loaded.append(got)
        self._resume_all(loaded)
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="admiral-sweeper")

    #: Seconds :meth:`stop` waits for the sweeper, and then for changes of games in flight, before it goes on
    #: without them (a process asked to stop must be gone within a few seconds: issue 16).
    STOP_WAIT_S = 1.0

    async def stop(self) -> None:
        """Stop the sweeper and the timers, let the changes of games in flight finish (each one whole), cancel
        the bots' turns, checkpoint the running clocks. Bounded: a sweep or a change stuck in a network call
        (Redis, the database) is abandoned after ``STOP_WAIT_S`` rather than holding the shutdown."""
        self._stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            done, _pending = await asyncio.wait({self._sweeper}, timeout=self.STOP_WAIT_S)
            if not done:
                log.warning("the sweeper did not stop within %.0f s; shutting down without it", self.STOP_WAIT_S)
        for g in self.games.values():
            if g.timer is not None:
                g.timer.cancel()
        if self._changes:
            _done, pending = await asyncio.wait(set(self._changes), timeout=self.STOP_WAIT_S)
            if pending:
                log.warning("%d changes of games did not finish before the shutdown", len(pending))
        for task in list(self._tasks):
            task.cancel()
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._checkpoint()
        self._db_pool.shutdown(wait=False)
        self._credit_pool.shutdown(wait=False, cancel_futures=True)

    def _resume_all(self, loaded: list[tuple[LiveGame, GameRow]]) -> None:
        """After a restart, in one pass with one "now": running clocks start again from now, setup
        deadlines move by the downtime (since each game's last checkpoint); one bulk write; timers armed."""
        wall, mono = _wall_ms(), time.monotonic()
        rows: list[dict[str, Any]] = []
        shifting = [] if self.bus.shared else loaded  # shared: other instances served on, time ran as stored
        for g, row in shifting:
            values: dict[str, Any] = {"id": g.id, "checkpoint_at": wall}
            if g.clock is not None and g.status == "play":
                g.clock.start(g.clock.running, mono, wall)
                values["clock_started_at"] = wall
            if g.status == "setup" and g.setup_deadline_ms is not None:
                g.setup_deadline_ms += max(0, wall - (row.checkpoint_at or wall))
                values["setup_deadline"] = g.setup_deadline_ms
            rows.append(values)
        try:
            self.store.checkpoint(rows)
        except Exception:  # the timers still run; the next checkpoint writes the clocks
            log.exception("resume checkpoint failed")
        for g, _row in loaded:
            self._schedule(g)
        log.info("resumed %d timed games", len(loaded))

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

    async def _shielded(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` (a change of a game: lock → check → apply → store → publish) to its end in a task of its
        own, and return its outcome. If the requester is cancelled meanwhile (its socket closed, its request
        dropped), the change still completes or fails whole, never halfway, and :meth:`stop` waits for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self._changes.add(task)
        task.add_done_callback(_forget_task(self._changes))
        return await asyncio.shield(task)

    async def _catch_up(self, g: LiveGame, *, stale: bool = False) -> bool:
        """Apply what another instance wrote since this copy was read (caller holds ``g.lock``): one database
        round trip (in a worker thread) when nothing changed; ``stale``: known to be behind, skip that check.

        :returns: whether the game was re-read."""
        if not stale:
            revision = await self._db(self.store.revision, g.id)
            if revision == self.store.known.get(g.id):
                return False
        await self._areload(g, tail=True)
        self.catch_ups["database"] += 1
        metrics.CATCH_UPS.labels(source="database").inc()
        return True

    #: Seconds between reads of where a game's sockets are, while events with deltas keep its copy fresh.
    PRESENCE_READ_S = 10.0

    async def refresh(
        self, g: LiveGame, *, force: bool = True, revision: int | None = None, deltas: list[dict] | None = None
    ) -> bool:
        """Bring ``g`` up to another instance's changes, and learn where its players' sockets are (instances
        sharing the games only; a no-op otherwise). Without ``force`` (a socket's periodic resync) a game
        checked less than a second ago is not checked again: its sockets share one check. ``revision``: the one
        an event announced; when this copy has it already, the database is not asked. ``deltas``: the events'
        actions (:meth:`_apply_deltas`); when they lead this copy to ``revision`` the database is not asked
        either, and where the sockets are is re-read only every ``PRESENCE_READ_S`` (a socket opening or closing
        sends an event without deltas; a dead instance's marks expire within ``RedisBus.PRESENCE_TTL_S``).

        :returns: whether anything a snapshot shows may have changed."""
        if not self.bus.shared:
            return False
        mono = time.monotonic()
        if not force and mono - g.refreshed_at < 1.0:
            return g.refreshed_changed
        g.refreshed_at = mono
        changed = applied = False
        known = self.store.known.get(g.id)
        fresh = revision is not None and known is not None and revision <= known  # no database trip needed
        if not fresh:
            async with g.lock:  # reading needs no Redis lock: writers take it, and write whole revisions
                known = self.store.known.get(g.id)
                if revision is not None and known is not None and revision <= known:
                    pass  # another socket of the game caught up while this one waited for the lock
                elif (outcome := self._apply_deltas(g, deltas, revision) if deltas else False) is None:
                    g.settled.clear()  # the copy broke: nobody sees it until it is replayed
                    try:
                        await self._catch_up(g, stale=True)
                    finally:
                        g.settled.set()
                    changed = True
                elif outcome:
                    changed = applied = True
                else:
                    behind = revision is not None and revision > (self.store.known.get(g.id) or -1)
                    changed = await self._catch_up(g, stale=behind)
        if not applied or mono - g.presence_at >= self.PRESENCE_READ_S:
            g.presence_at = mono
            elsewhere = await self.bus.present_elsewhere(g.id)
            mono = time.monotonic()
            for side, seat in g.seats.items():
                now_there = elsewhere.get(side, False)
                if now_there != seat.elsewhere:
                    seat.elsewhere, changed = now_there, True
                    if not seat.connected:
                        seat.gone_since = mono
        g.refreshed_changed = changed
        return changed

    def _apply_deltas(self, g: LiveGame, deltas: list[dict], revision: int | None) -> bool | None:
        """Apply other instances' action deltas (``{"base", "revision", "actions": [[ply, notation], …],
        "game": {column: value}}``, see :meth:`_commit`) to the cached copy, in memory. Caller holds ``g.lock``.
        A delta applies only on the revision it was made on (``base``): a gap (a lost or late event, a write
        without a delta), a game that ends, or anything that does not fit is left to the database.

        :returns: ``True`` when the copy reached ``revision`` this way, ``False`` when the database must supply
            the rest (what did apply stays), ``None`` when the copy broke (an action did not apply): it must be
            replayed from the start."""
        applied = False
        for delta in sorted(deltas, key=lambda d: d.get("revision", -1)):
            known = self.store.known.get(g.id)
            try:
                base, rev, rows, values = delta["base"], delta["revision"], delta["actions"], delta["game"]
            except (KeyError, TypeError):
                return False
            if known is not None and rev <= known:
                continue
            if known is None or base != known or rev != base + 1 or not rows:
                return False
            if g.game is None or g.status != "play" or values.get("status", "play") != "play":
                return False  # an end (its credit is in the database) or a game this copy does not hold
            if g.rules.ply(g.game) != rows[0][0]:
                return False
            try:
                for ply, notation in rows:
                    if g.rules.ply(g.game) != ply:
                        raise ValueError(f"delta ply {ply} at engine ply {g.rules.ply(g.game)}")
                    done = g.rules.apply(g.game, notation)
                    if done.turn and done.actor:
                        g.turns[done.actor] += 1
            except Exception:
                g.log.exception("a delta did not apply; the game is replayed from the database")
                g.game = None
                return None
            g.draw_offer = values.get("draw_offer")
            if g.settings.base_ms and "clock_south_ms" in values:
                g.clock = self._restore_clock(
                    values["clock_south_ms"], values["clock_north_ms"], values["clock_running"],
                    values["clock_started_at"],
                )  # fmt: skip
            g.views_version = -1
            self.store.known[g.id] = rev
            applied = True
            self.catch_ups["event"] += 1
            metrics.CATCH_UPS.labels(source="event").inc()
        if applied:
            self._schedule(g)
        known = self.store.known.get(g.id)
        return applied and (revision is None or (known is not None and known >= revision))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- loading ---------------------------------------------------------------------------------------

    async def current(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` as the database holds it now: loaded on first use (the read in a database
        thread), else this instance's copy, which, with instances sharing the games, is first checked against
        the database's revision (and learns where the players' sockets are). Whatever answers a request or
        opens a socket (the seat, the invite's state, the record) therefore never comes from a copy behind
        another instance's changes (issue 16: a joiner whose invite was claimed through the other instance
        was taken for a spectator). One revision read (and one presence read) per call when shared.

        :raises ServiceError: ``not_found``.
        """
        g = self.games.get(game_id)
        if g is None and len(game_id) <= 16:
            loaded = await self._db(self.store.load_game, game_id)
            g = self.games.get(game_id)  # another request may have loaded it meanwhile: keep that copy
            if g is None and loaded is not None:
                return self._adopt(loaded)
        if g is None:
            raise ServiceError("not_found", _("Партия не найдена."))
        if self.bus.shared:
            await self.refresh(g)
        return g

    def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` as this instance holds it (loaded from the database on first use, on the
        event loop): for the service's own timers and sweeps. What answers a request or a socket takes
        :meth:`current`, which checks the copy against other instances' changes.

        :raises ServiceError: ``not_found``.
        """
        g = self.games.get(game_id)
        if g is None and len(game_id) <= 16:
            got = self._load(game_id)
            g = None if got is None else got[0]
            if g is not None and g.timed:  # normally loaded at start; here if that load failed
                self._schedule(g)
            elif g is not None:
                self._drive_bots(g)
        if g is None:
            raise ServiceError("not_found", _("Партия не найдена."))
        return g

    def _load(self, game_id: str) -> tuple[LiveGame, GameRow] | None:
        """Load a game into the cache: ``(live game, its row)``, ``None`` if there is no such game."""
        loaded = self.store.load_game(game_id)
        if loaded is None:
            return None
        g = LiveGame(loaded.game, {}, self._rules_of(loaded.game))
        self._fill(g, loaded)
        self.games[game_id] = g
        return g, loaded.game

    def _adopt(self, loaded: LoadedGame) -> LiveGame:
        """Cache a game just read from the database (:meth:`current`) and arm its timer or bots."""
        g = LiveGame(loaded.game, {}, self._rules_of(loaded.game))
        self._fill(g, loaded)
        self.games[g.id] = g
        if g.timed:
            self._schedule(g)
        else:
            self._drive_bots(g)
        return g

    def _fill(self, g: LiveGame, loaded: LoadedGame) -> None:
        """(Re)build a live game from its rows: seats, the engine game by replay, turns, clock."""
        row = loaded.game
        g.status = row.status
        g.draw_offer, g.rematch_id = row.draw_offer, row.rematch_id
        g.setup_deadline_ms = row.setup_deadline
        old_seats = g.seats
        g.seats = {
            side: Seat(side, s.browser_hash, dict(s.draft or {}), s.ready, s.auto_declare)
            for side, s in loaded.seats.items()
        }
        for side, seat in g.seats.items():  # a reload keeps what this instance knows of the sockets
            if (before := old_seats.get(side)) is not None:
                seat.connections, seat.gone_since = before.connections, before.gone_since
                seat.presence_lock = before.presence_lock
                seat.elsewhere = before.elsewhere
        g.views_version = -1
        tail = loaded.since_ply > 0 and g.game is not None and g.rules.ply(g.game) == loaded.since_ply
        if not tail:
            g.game, g.turns = None, {"south": 0, "north": 0}
            g.bots, g.bot_seen = {}, {}
        if g.game is None and all(g.seats[s].ready for s in SIDES) and row.started_at is not None:
            g.game = g.rules.new_game({s: g.seats[s].draft for s in SIDES}, self._record_settings(g))
        if g.game is not None:
            for a in loaded.actions:
                applied = g.rules.apply(g.game, a.notation)
                if applied.turn and applied.actor:
                    g.turns[applied.actor] += 1
            result = g.rules.result(g.game)
            if result is not None:
                g.result = result
                if self.progress is not None:
                    g.credited = self.progress.results(g.id)
                    if len(g.credited) < sum(1 for s in g.seats.values() if s.bot_level is None):
                        self._credit(g)  # a crash between the end and the credit: finish the job
        if g.settings.base_ms and g.game is not None:
            g.clock = self._restore_clock(row.clock_south_ms, row.clock_north_ms, row.clock_running,
                                          row.clock_started_at)  # fmt: skip
        else:
            g.clock = None

    @staticmethod
    def _restore_clock(
        south_ms: int | None, north_ms: int | None, running: str | None, started: int | None
    ) -> GameClock:
        """A clock from its stored values. The running clock has run since its stored stamp (a reload, or another
        instance's game): that time is charged; a restart of a lone server then restarts the clocks from "now"
        (``_resume_all``)."""
        clock = GameClock({"south": south_ms or 0, "north": north_ms or 0})
        wall = _wall_ms()
        started = started or wall
        clock.start(running, time.monotonic() - max(0, wall - started) / 1000, started)
        return clock

    def _record_settings(self, g: LiveGame) -> dict[str, Any]:
        """The settings a game's record keeps: its id, the lobby settings (with the room options) and, for a
        game whose rules draw at random, the seed they draw from (shown with the record once the game is over)."""
        settings = {"game_id": g.id, **g.settings.to_dict()}
        if g.rules.info.chance:
            settings["seed"] = g.seed
        return settings

    def _rules_of(self, row: GameRow) -> Ruleset:
        """The ruleset of a stored game. :raises ServiceError: ``not_found`` for a game no longer hosted."""
        try:
            return self.rulesets[row.game or DEFAULT_GAME]
        except KeyError:
            raise ServiceError("not_found", _("Партия не найдена.")) from None

    async def _areload(self, g: LiveGame, *, tail: bool = False) -> None:
        """Rebuild ``g`` in place from the database (caller holds the lock, so the copy does not move meanwhile;
        the read runs in a worker thread on PostgreSQL): after a failed write, from scratch; with ``tail``
        (another instance moved the game on), only the action rows past the cached ply are read and applied.
        If even reading fails, drop ``g`` from the cache so that the next access loads it afresh."""
        since = g.rules.ply(g.game) if tail and g.game is not None else 0
        try:
            loaded = await self._db(self._read_game, g.id, since)
        except Exception:
            g.log.exception("reload failed; the game leaves the cache")
            self.games.pop(g.id, None)
            return
        self._refill(g, loaded)

    def _read_game(self, game_id: str, since: int) -> LoadedGame | None:
        """The stored game with its actions from ply ``since`` on, or all of them if that tail does not fit."""
        loaded = self.store.load_game(game_id, since)
        if loaded is not None and since and loaded.game.ply != since + len(loaded.actions):
            loaded = self.store.load_game(game_id)  # the tail does not fit the cache: replay it all
        return loaded

    def _refill(self, g: LiveGame, loaded: LoadedGame | None) -> None:
        if loaded is not None:
            self._fill(g, loaded)
            self._schedule(g)

    # -- invite codes ------------------------------------------------------------------------------------

    def _pad(self, game_id: str) -> bytes:
        return hmac.new(self.options.secret_key.encode(), f"invite:{game_id}".encode(), hashlib.sha256).digest()[:16]

    def _seal(self, game_id: str, code: bytes) -> str:
        return bytes(a ^ b for a, b in zip(code, self._pad(game_id), strict=True)).hex()

    def invite_code(self, g: LiveGame) -> str | None:
        """The plain invite code of ``g`` (kept sealed with the secret key, never in clear in the database)."""
        if not g.invite_sealed:
            return None
        raw = bytes(a ^ b for a, b in zip(bytes.fromhex(g.invite_sealed), self._pad(g.id), strict=True))
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def _new_invite(self, game_id: str) -> tuple[str, str, str]:
        raw = secrets.token_bytes(16)
        code = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return code, hash_token(code), self._seal(game_id, raw)

    # -- lobby -------------------------------------------------------------------------------------------

    async def create_game(
        self, browser_hash: str, settings: GameSettings, address: str | None = None
    ) -> tuple[str, str | None]:
        """Create a game and seat its creator (``settings.side``, or a random side). With a friend the game
        waits for the invite to be accepted; against the AI (``settings.ai_level``) the bot takes the
        other seat and sets up at once, and the game goes straight to the setup. ``address``: the creator's
        client address (only a keyed hash of it is stored, to count AI games per address).

        :returns: ``(game_id, invite_code)``; the invite code is ``None`` in a game against the AI.
        :raises ServiceError: ``too_many_ai_games`` when the creator (or its address) already has the most
            unfinished games against the AI (:meth:`check_bot_games`).
        """
        ai = settings.ai_level
        address_key = self.address_key(address)
        # Check and insert as one, per commander and per address (QA: 20 requests at once made 20 AI games where
        # the limit was 6), in this process and, with instances sharing the games, across them.
        names = (f"ai-games:{browser_hash}", f"ai-games:{address_key}") if ai else ()
        async with self._serialised(*names):
            if ai:
                await self.check_bot_games(browser_hash, address_key)
            side = settings.side if settings.side in SIDES else secrets.choice(SIDES)
            for _attempt in range(5):
                game_id = new_game_id()
                if await self._db(self.store.revision, game_id) is None:
                    break
            code, invite_hash, sealed = self._new_invite(game_id)
            if ai:
                code, sealed = None, None
            wall = _wall_ms()
            row = GameRow(
                id=game_id, invite_hash=invite_hash, invite_sealed=sealed, creator_hash=browser_hash,
                creator_address=address_key, game=settings.game, status="setup" if ai else "waiting",
                settings=settings.to_dict(),
                seed=secrets.randbits(62), ply=0,
                checkpoint_at=wall if ai else None,
                setup_deadline=wall + settings.setup_ms if ai and settings.setup_ms else None,
            )  # fmt: skip
            holders = {side: browser_hash, _other(side): f"{BOT_PREFIX}{ai}" if ai else None}
            seats = [
                GameSeatRow(
                    game_id=game_id,
                    side=s,
                    browser_hash=holders[s],
                    draft={},
                    ready=False,
                    auto_declare=False,
                    joined_at=_now() if holders[s] else None,
                )
                for s in SIDES
            ]
            g = LiveGame(
                row, {s.side: Seat(s.side, s.browser_hash, {}, False, False) for s in seats}, self._rules_of(row)
            )
            self._set_up_bots(g, seats)
            await self._db(self.store.create_game, row, seats)
            self.games[game_id] = g
            g.log.info("created side=%s settings=%s", side, settings.to_dict())
            self._schedule(g)
            return game_id, code

    async def unfinished_games(self, browser_hash: str) -> list[dict[str, Any]]:
        """The games ``browser_hash`` holds a seat in that are not over, newest first (at most 20), for the home
        page: ``{"id", "url", "status" ("waiting"/"setup"/"play"), "side", "ai_level" (None: a friend),
        "created_at" (aware datetime), "game" (its key)}``."""
        out = []
        for row, side, holder in await self._db(self.store.unfinished_games, browser_hash):
            out.append({
                "id": row.id, "url": f"/g/{row.id}", "status": row.status, "side": side,
                "ai_level": _bot_level(holder), "created_at": row.created_at, "game": row.game or DEFAULT_GAME,
            })  # fmt: skip
        return out

    def address_key(self, address: str | None) -> str | None:
        """The stored form of a client address: a keyed hash (32 hex digits), so the database never holds an
        address in clear; ``None`` for none."""
        if not address:
            return None
        digest = hmac.new(self.options.secret_key.encode(), f"address:{address}".encode(), hashlib.sha256)
        return digest.hexdigest()[:32]

    async def check_bot_games(self, browser_hash: str | None, address_key: str | None = None) -> None:
        """Refuse one more game against the AI (each keeps a bot thinking on the server's cores) to a commander
        who already holds ``max_bot_games`` unfinished ones, or to a client address from which
        ``max_bot_games_per_address`` unfinished ones were created (fresh cookies must not give unlimited
        games: issue 16). ``address_key``: the address as :meth:`address_key` stores it.

        :raises ServiceError: ``too_many_ai_games`` (``detail.max``: the limit reached)."""
        if browser_hash is None or browser_hash.startswith(BOT_PREFIX):
            return
        if address_key is not None:
            from_address = await self._db(self.store.active_bot_games_from, address_key, BOT_PREFIX)
            if from_address >= self.options.max_bot_games_per_address:
                raise ServiceError(
                    "too_many_ai_games",
                    ngettext(
                        "С вашего адреса уже идёт %(num)s партия против ИИ — это предел. Доиграйте, сдайте или "
                        "отмените одну из них.",
                        "С вашего адреса уже идут %(num)s партии против ИИ — это предел. Доиграйте, сдайте или "
                        "отмените одну из них.",
                        self.options.max_bot_games_per_address,
                    ),
                    {"max": self.options.max_bot_games_per_address},
                )
        if len(await self._db(self.store.active_bot_games, browser_hash, BOT_PREFIX)) >= self.options.max_bot_games:
            raise ServiceError(
                "too_many_ai_games",
                ngettext(
                    "У вас уже идёт %(num)s партия против ИИ — это предел. Доиграйте, сдайте или отмените её: "
                    "незаконченные партии перечислены на главной странице.",
                    "У вас уже идут %(num)s партии против ИИ — это предел. Доиграйте, сдайте или отмените одну "
                    "из них: незаконченные партии перечислены на главной странице.",
                    self.options.max_bot_games,
                ),
                {"max": self.options.max_bot_games},
            )

    def _set_up_bots(self, g: LiveGame, seats: list[GameSeatRow]) -> None:
        """Let the bots of a new game set up (rules §3): their seats' drafts are filled and ready, in the
        rows about to be written and in ``g``."""
        for row in seats:
            level = g.seats[row.side].bot_level
            if level is None:
                continue
            bot = g.bots[row.side] = g.rules.new_bot(level, g.seed ^ SIDES.index(row.side), g.settings.options)
            row.draft, row.ready = g.rules.bot_setup(bot, row.side), True
            g.seats[row.side].draft, g.seats[row.side].ready = dict(row.draft), True

    async def game_by_invite(self, code: str) -> LiveGame | None:
        """The game an invite code belongs to, if any, current as the database holds it (:meth:`current`)."""
        if not code or len(code) > 64:
            return None
        game_id = await self._db(self.store.game_id_by_invite, hash_token(code))
        return None if game_id is None else await self.current(game_id)

    def invite_state(self, g: LiveGame, browser_hash: str | None) -> str:
        """For the invite page: ``creator``, ``seated`` (this browser holds a seat), ``open`` or ``used``."""
        if browser_hash is not None and browser_hash == g.creator_hash:
            return "creator"
        if g.seat_of(browser_hash) is not None:
            return "seated"
        if g.status == "waiting" and any(s.browser_hash is None for s in g.seats.values()):
            return "open"
        return "used"

    async def claim(self, code: str, browser_hash: str) -> str | None:
        """Claim the free seat of the invite's game for ``browser_hash`` (atomic, single use).

        :returns: the game id (whether or not the seat was won: a loser becomes a spectator), ``None`` for an
            unknown invite.
        """
        g = await self.game_by_invite(code)
        if g is None:
            return None
        if self.invite_state(g, browser_hash) != "open":
            return g.id
        return await self._shielded(self._claim(g, browser_hash))

    async def _claim(self, g: LiveGame, browser_hash: str) -> str:
        async with self._locked(g):
            free = [s for s in SIDES if g.seats[s].browser_hash is None]
            if g.status != "waiting" or not free:
                return g.id
            if not await self._db(self.store.claim_seat, g.id, free[0], browser_hash):
                await self._areload(g)
                return g.id
            g.seats[free[0]].browser_hash = browser_hash
            g.seats[free[0]].gone_since = time.monotonic()
            g.status = "setup"
            values: dict[str, Any] = {"status": "setup"}
            if g.settings.setup_ms:
                g.setup_deadline_ms = _wall_ms() + g.settings.setup_ms
                values["setup_deadline"] = g.setup_deadline_ms
            values["checkpoint_at"] = _wall_ms()
            await self._db(self.store.update_game, g.id, **values)
            g.log.info("joined side=%s", free[0])
            if all(g.seats[s].ready for s in SIDES):
                await self._start_play(g)
            self._schedule(g)
        await self._publish(g)
        return g.id

    def role(self, g: LiveGame, browser_hash: str | None) -> str:
        """``south``, ``north`` or ``spectator`` for the browser ``browser_hash``."""
        return g.seat_of(browser_hash) or "spectator"

    def invite_url_for(self, g: LiveGame, browser_hash: str | None) -> str | None:
        """``/j/{code}`` for the creator until the friend joined, else ``None``."""
        if g.status != "waiting" or browser_hash is None or browser_hash != g.creator_hash:
            return None
        code = self.invite_code(g)
        return None if code is None else f"/j/{code}"

    def rekey(self, old: str, new: str) -> None:
        """A guest registered: its seats and games, moved to the identity ``new`` in the database, follow in
        the cache too (open sockets keep their seat; the next connection finds it under ``new``)."""
        for g in self.games.values():
            if g.creator_hash == old:
                g.creator_hash = new
            for seat in g.seats.values():
                if seat.browser_hash == old:
                    seat.browser_hash = new

    # -- presence ----------------------------------------------------------------------------------------

    def connect(self, g: LiveGame, side: str | None) -> None:
        """A socket of ``side`` (``None``: spectator) opened. Counted at once; telling the other instances and
        the opponent runs in a task of its own (:meth:`_announce`), so it cannot be left halfway."""
        if side is None:
            g.spectators += 1
            return
        seat = g.seats[side]
        seat.connections += 1
        if seat.connections == 1:
            self._spawn(self._announce(g, side))

    def disconnect(self, g: LiveGame, side: str | None) -> None:
        """A socket of ``side`` closed; when its last one closes the claim grace starts. Synchronous, so a socket
        handler's ``finally`` always completes it, even while its task is being cancelled (issue 16: a handler
        that never got here left its player "present" for good)."""
        if side is None:
            g.spectators = max(0, g.spectators - 1)
            return
        seat = g.seats[side]
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0:
            seat.gone_since = time.monotonic()
            self._spawn(self._announce(g, side))
            if g.status == "play":  # let the opponent's page learn when a claim becomes possible
                loop = asyncio.get_running_loop()
                loop.call_later(self.options.claim_grace_ms / 1000 + 0.05, lambda: self._spawn(self._publish(g)))

    async def _announce(self, g: LiveGame, side: str) -> None:
        """Write whether ``side`` has a socket here now (instances sharing the games) and publish the change.
        One write at a time per seat, each of the state at that moment: a quick open-then-close can never
        leave a stale "present" mark behind (two writes on two Redis connections could arrive out of order)."""
        seat = g.seats.get(side)
        if seat is None:
            return
        async with seat.presence_lock:
            await self.bus.mark_present(g.id, side, seat.connections > 0)
        await self._publish(g)

    def _disconnected_ms(self, g: LiveGame, side: str, mono: float) -> int:
        seat = g.seats[side]
        if seat.browser_hash is None or seat.connected:
            return 0
        return int((mono - seat.gone_since) * 1000)

    # -- snapshots ---------------------------------------------------------------------------------------

    def _version(self, g: LiveGame) -> int:
        return 0 if g.game is None else g.rules.ply(g.game)

    def can_abort(self, g: LiveGame) -> bool:
        """Whether the game may still be aborted: before play, or while neither side has made two turns."""
        if g.status in ("waiting", "setup"):
            return True
        return g.status == "play" and all(n < 2 for n in g.turns.values())

    def can_claim(self, g: LiveGame, side: str | None, mono: float | None = None) -> bool:
        """Whether ``side`` may claim the win: in play, its opponent disconnected ≥ the grace time."""
        if side is None or g.status != "play":
            return False
        mono = time.monotonic() if mono is None else mono
        return self._disconnected_ms(g, _other(side), mono) >= self.options.claim_grace_ms

    def snapshot(self, g: LiveGame, side: str | None, browser_hash: str | None = None) -> dict[str, Any]:
        """The ``snapshot`` message for ``side`` (``None``: spectator); see docs/protocol.md."""
        mono = time.monotonic()
        clocks: dict[str, Any] = {"south_ms": None, "north_ms": None, "running": None, "setup_ms": None}
        if g.clock is not None:
            clocks.update(
                south_ms=max(0, g.clock.left("south", mono)),
                north_ms=max(0, g.clock.left("north", mono)),
                running=g.clock.running if g.status == "play" else None,
            )
        elif g.settings.base_ms:
            clocks.update(south_ms=g.settings.base_ms, north_ms=g.settings.base_ms)
        if g.status == "setup" and g.setup_deadline_ms is not None:
            clocks["setup_ms"] = max(0, g.setup_deadline_ms - _wall_ms())
        public = {
            "id": g.id,
            "status": g.status,
            "version": self._version(g),
            "settings": {k: v for k, v in g.settings.to_dict().items() if k != "time_control"},
            "players": {
                s: {
                    "joined": g.seats[s].browser_hash is not None,
                    "connected": g.seats[s].connected,
                    "bot": self._bot_info(g, g.seats[s].bot_level),
                    "ready": g.seats[s].ready,
                    "disconnected_ms": self._disconnected_ms(g, s, mono),
                }
                for s in SIDES
            },
            "clocks": clocks,
            "draw_offer": g.draw_offer,
            "can_abort": self.can_abort(g) and side is not None,
            "can_claim": self.can_claim(g, side, mono),
            "result": g.result,
            "rematch_url": None if g.rematch_id is None else f"/g/{g.rematch_id}",
        }
        invite_url = self.invite_url_for(g, browser_hash) if side is not None else None
        return snapshot.message(g, side, public, invite_url=invite_url, notes=self.notes_of(g, side))

    @staticmethod
    def _bot_info(g: LiveGame, level: int | None) -> dict[str, Any] | None:
        return None if level is None else {"level": level, "name": g.rules.info.levels.get(level, "")}

    def setup_state_message(self, g: LiveGame, side: str) -> dict[str, Any]:
        """The ``setup.state`` message for ``side`` (:func:`.snapshot.setup_state`)."""
        return {"type": "setup.state", **snapshot.setup_state(g, side)}

    #: Most deltas one event carries, and most bytes (JSON) they may take: beyond, the event carries none
    #: and other instances read the database.
    DELTAS_MAX = 8
    DELTAS_MAX_BYTES = 4096

    async def _publish(self, g: LiveGame, **extra: Any) -> None:
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

    # -- the one entry point for socket messages -------------------------------------------------------

    async def handle(
        self, g: LiveGame, side: str | None, msg: ClientMessage, *, received: float | None = None
    ) -> list[dict[str, Any]]:
        """Handle one validated client message from a socket of ``side`` (``None``: spectator), received at
        monotonic time ``received`` (an action's clock stops then: :meth:`submit`). A change runs whole in a
        task of its own (:meth:`_shielded`): the socket closing meanwhile does not cut it short.

        :returns: the messages to send back to that socket (others learn through the bus).
        :raises ServiceError: for a refused request; the game is unchanged then.
        """
        if msg.type == "ping":
            return [{"type": "pong"}]
        if side is None:
            raise ServiceError("not_a_player", _("Вы зритель: действовать могут только игроки."))
        return await self._shielded(self._handle(g, side, msg, received))

    async def _handle(self, g: LiveGame, side: str, msg: ClientMessage, received: float | None) -> list[dict[str, Any]]:
        kind = msg.type
        if isinstance(msg, SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg):
            return await self._setup(g, side, msg)
        if isinstance(msg, ActionMsg):
            await self.submit(g, side, msg.ply, msg.action, received=received)
            return []
        if isinstance(msg, PrefsMsg):
            await self.set_prefs(g, side, auto_declare=msg.auto_declare)
            return []
        if isinstance(msg, NoteMsg):
            await self.set_note(g, side, msg.ply, msg.cell, msg.note)
            return []
        if kind == "resign":
            await self._end(g, side, "resign")
        elif kind == "draw.offer":
            await self.offer_draw(g, side)
        elif kind == "draw.accept":
            await self.accept_draw(g, side)
        elif kind == "draw.decline":
            await self.decline_draw(g, side)
        elif kind == "abort":
            await self.abort(g, side)
        elif kind == "claim":
            await self._end(g, side, "claim")
        elif kind == "rematch":
            url = await self.rematch(g, side)
            return [{"type": "rematch", "url": url}]
        return []

    # -- setup -----------------------------------------------------------------------------------------

    async def _setup(self, g: LiveGame, side: str, msg: SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg) -> list[dict]:
        async with self._locked(g):
            if g.status not in ("waiting", "setup"):
                raise self._not_in_setup(g)
            seat = g.seats[side]
            if seat.ready:
                raise ServiceError("already_ready", _("Расстановка уже зафиксирована: вы готовы."))
            if isinstance(msg, SetupUpdateMsg):
                seat.draft = dict(msg.setup)
            elif isinstance(msg, SetupAutoMsg):
                seat.draft = g.rules.auto_setup(
                    side, secrets.randbits(62), dict(msg.setup), g.settings.options, msg.style
                )
            else:
                problems = g.rules.setup_problems(side, dict(msg.setup), complete=True, options=g.settings.options)
                if problems:
                    raise ServiceError(
                        "invalid_setup",
                        _("Расстановка неверна: %(problems)s", problems=" ".join(p["message"] for p in problems[:3])),
                        {"problems": problems},
                    )  # fmt: skip
                seat.draft, seat.ready = g.rules.canonical_setup(dict(msg.setup), g.settings.options), True
            await self._db(self.store.update_seat, g.id, side, draft=seat.draft, ready=seat.ready)
            started = False
            if seat.ready:
                g.log.info("ready side=%s", side)
                if g.status == "setup" and all(g.seats[s].ready for s in SIDES):
                    await self._start_play(g)
                    started = True
                self._schedule(g)
        if seat.ready or started:
            await self._publish(g)
        return [self.setup_state_message(g, side)] if not started else []

    def _not_in_setup(self, g: LiveGame) -> ServiceError:
        if g.status in ("over", "aborted"):
            return ServiceError("game_over", _("Партия окончена."))
        return ServiceError("not_in_setup", _("Расстановка уже закончена."))

    async def _start_play(self, g: LiveGame) -> None:
        """Both fleets are ready: build the game, start South's clock. Caller holds the lock."""
        if any(g.seats[s].browser_hash is None for s in SIDES):  # never play against nobody
            raise RuntimeError(f"game {g.id}: play cannot start with an empty seat")
        g.game = g.rules.new_game({s: g.seats[s].draft for s in SIDES}, self._record_settings(g))
        g.status = "play"
        g.setup_deadline_ms = None
        wall, mono = _wall_ms(), time.monotonic()
        values: dict[str, Any] = {"status": "play", "started_at": _now(), "setup_deadline": None, "checkpoint_at": wall}
        if g.settings.base_ms:
            g.clock = GameClock({"south": g.settings.base_ms, "north": g.settings.base_ms})
            g.clock.start(g.rules.to_act(g.game), mono, wall)
            values.update(self._clock_values(g))
        for s in SIDES:
            g.seats[s].gone_since = mono
        await self._db(self.store.update_game, g.id, **values)
        g.log.info("play started")

    async def _expire_setup(self, g: LiveGame) -> None:
        """The setup time ran out: complete every unready draft with auto-arrangement and ready it (rules §3.6).
        A game with a seat nobody holds never starts: it is aborted instead. Caller holds the lock."""
        if any(g.seats[s].browser_hash is None for s in SIDES):
            g.status, g.setup_deadline_ms = "aborted", None
            await self._db(self.store.update_game, g.id, status="aborted", setup_deadline=None, finished_at=_now())
            g.log.warning("setup time out with an empty seat: aborted")
            return
        for side in SIDES:
            seat = g.seats[side]
            if not seat.ready:
                seat.draft = g.rules.auto_setup(side, secrets.randbits(62), seat.draft, g.settings.options)
                seat.ready = True
                await self._db(self.store.update_seat, g.id, side, draft=seat.draft, ready=True)
                g.log.info("setup time out: auto-arranged side=%s", side)
        await self._start_play(g)

    async def set_prefs(self, g: LiveGame, side: str, *, auto_declare: bool) -> None:
        """Set the seat's "always declare the strongest formation" preference; if a declaration is pending
        for it now, it is made at once."""
        async with self._locked(g):
            g.seats[side].auto_declare = auto_declare
            await self._db(self.store.update_seat, g.id, side, auto_declare=auto_declare)
            if (
                auto_declare
                and g.status == "play"
                and g.rules.to_act(g.game) == side
                and isinstance(g.rules, AutoReply)
                and (decl := g.rules.auto_reply(g.game)) is not None
            ):
                await self._commit(g, [decl])
        await self._publish(g)

    # -- notes on enemy markers (issue 7) ----------------------------------------------------------------

    def notes_of(self, g: LiveGame, side: str | None) -> dict[str, str] | None:
        """The seat's own notes on enemy markers, at the cells the markers hold now (``None`` for a spectator
        and outside play). Read from the database once per seat and kept in memory, followed along the
        moves the seat saw; a failed read shows no notes rather than failing the snapshot."""
        if side is None or g.status != "play" or g.game is None or not isinstance(g.rules, MarkerNotes):
            return None
        seat = g.seats[side]
        if seat.notes is None:
            try:
                seat.notes = self.store.load_notes(g.id, side)
            except Exception:
                g.log.warning("reading notes failed side=%s", side, exc_info=True)
                return {}
        since, notes = seat.notes
        now = g.rules.ply(g.game)
        if since != now:
            notes = g.rules.follow_notes(g.game, side, notes, since) if notes else {}
            seat.notes = (now, notes)
        return dict(notes)

    async def set_note(self, g: LiveGame, side: str, ply: int, cell: str, note: str | None) -> None:
        """Put ``note`` on the enemy marker on ``cell`` (``None`` or ``""`` removes it), as seen at version ``ply``.

        A ``ply`` older than the game's version is fine: the cell is followed from then to now as the seat saw
        the markers move (a player who reads a battle report while the opponent moves on still notes the
        marker the report showed).

        :raises ServiceError: ``game_over``, ``not_started``, ``stale_ply`` (a version not reached yet),
            ``not_a_marker`` (no enemy marker there now, or it was destroyed since ``ply``), ``bad_note`` (not
            a kind, ``?``, ``weak`` or ``strong``), ``unavailable`` (the database refused the write). Nothing
            changes then.
        """
        note = note or None
        if not isinstance(g.rules, MarkerNotes):
            raise ServiceError("not_a_marker", _("В этой игре заметок на кораблях противника нет."))
        if note is not None and note not in g.rules.note_values():
            raise ServiceError("bad_note", _("Такой заметки нет: тип корабля, «?», «слабый» или «сильный»."))
        async with self._locked(g):
            self._check_playing(g)
            now = g.rules.ply(g.game)
            if ply > now:
                raise ServiceError("stale_ply", _("Такой позиции ещё не было: заметка не сохранена."), {"ply": now})
            if ply < now:  # the marker as the player saw it then, wherever it went since
                cell = next(iter(g.rules.follow_notes(g.game, side, {cell: "?"}, ply)), "")
            if cell not in g.rules.enemy_markers(g.game, side):
                raise ServiceError("not_a_marker", _("Заметку можно поставить только на корабль противника."))
            notes = dict(self.notes_of(g, side) or {})
            if note is None:
                notes.pop(cell, None)
            else:
                notes[cell] = note
            try:
                await self._db(self.store.replace_notes, g.id, side, now, notes)
            except Exception:
                g.log.exception("notes write failed side=%s", side)
                raise ServiceError("unavailable", _("Заметку не удалось сохранить. Попробуйте ещё раз.")) from None
            g.seats[side].notes = (now, notes)
        # Only this seat's sockets answer with a snapshot: the opponent must not even learn that notes changed.
        await self.bus.publish(f"game:{g.id}", {"type": "notes", "side": side, "revision": self.store.known.get(g.id)})

    # -- play --------------------------------------------------------------------------------------------

    async def submit(self, g: LiveGame, side: str, ply: int, action: str, *, received: float | None = None) -> None:
        """A player's action made at version ``ply`` (docs/protocol.md ``action``), received at monotonic time
        ``received`` (default: now). The mover's clock stops at ``received``: time the server then spends
        waiting for the game's lock (another instance holding it, or one that died holding it) is charged to
        nobody (issue 16).

        :raises ServiceError: ``game_over``, ``not_started``, ``stale_ply``, ``not_your_turn``,
            ``illegal_action`` (engine code and reason in ``detail``).
        """
        started = time.perf_counter()
        received = time.monotonic() if received is None else received
        try:
            notation = g.rules.parse_player_action(action)
        except RuleError as e:
            raise ServiceError("illegal_action", engine_message(e.code), {"code": e.code, "reason": e.reason}) from None
        flagged = False
        async with self._locked(g):
            self._check_playing(g)
            if ply != g.rules.ply(g.game):
                raise ServiceError(
                    "stale_ply", _("Позиция уже изменилась: ход не принят."), {"ply": g.rules.ply(g.game)}
                )
            if g.rules.to_act(g.game) != side:
                raise ServiceError("not_your_turn", _("Сейчас не ваш ход."))
            # The mover's clock has run without a break since it last started (a checkpoint or a catch-up meanwhile
            # only moved its reference point), so its time left at ``received`` is still known exactly.
            if g.clock is not None and g.clock.left(side, received) <= 0:
                await self._commit(g, [g.rules.end_action("flag", side)])
                flagged = True
            else:
                await self._commit(g, [notation], at=received)
        await self._publish(g)
        metrics.ACTION_LATENCY.observe(time.perf_counter() - started)
        if flagged:
            raise ServiceError("game_over", _("Ваше время истекло."))

    def _check_playing(self, g: LiveGame) -> None:
        if g.status in ("over", "aborted"):
            raise ServiceError("game_over", _("Партия окончена."))
        if g.status != "play":
            raise ServiceError("not_started", _("Партия ещё не началась."))

    async def _commit(self, g: LiveGame, actions: list[str], *, at: float | None = None) -> None:
        """Apply ``actions`` (then any automatic declarations), append their rows and save the game, in one
        transaction (in a worker thread; ``g.settled`` is clear meanwhile). Caller holds the lock. Instances
        sharing the games: the rows and the game's new values are queued as a delta for the next event.
        ``at``: the monotonic time the mover's clock stops at (default: now); the next side's clock starts now.

        :raises ServiceError: ``illegal_action`` if the first action is illegal (nothing changes then).
        """
        rows: list[tuple[int, str, str | None]] = []
        for i, notation in enumerate(actions):
            try:
                self._apply_one(g, notation, rows, at)
            except RuleError as e:
                if i == 0:
                    raise ServiceError(
                        "illegal_action", engine_message(e.code), {"code": e.code, "reason": e.reason}
                    ) from None
                raise
        while (
            g.game is not None
            and (to_act := g.rules.to_act(g.game)) is not None
            and g.seats[to_act].auto_declare
            and isinstance(g.rules, AutoReply)
            and (decl := g.rules.auto_reply(g.game)) is not None
        ):
            self._apply_one(g, decl, rows, at)
        result = g.rules.result(g.game)
        values = self._clock_values(g)
        values.update(ply=g.rules.ply(g.game), draw_offer=g.draw_offer, checkpoint_at=_wall_ms())
        if result is not None:
            g.status, g.result, g.draw_offer = "over", result, None
            values.update(
                status="over", result_winner=result["winner"], result_reason=result["reason"], finished_at=_now(),
                draw_offer=None,
            )  # fmt: skip
            g.log.info("over winner=%s reason=%s ply=%s", result["winner"], result["reason"], values["ply"])
        base = self.store.known.get(g.id)
        g.settled.clear()  # the engine state runs ahead of the database: never let anyone see a move not stored
        try:
            await self._db(self.store.append_actions, g.id, rows, **values)
        except DuplicatePly:
            g.log.warning("duplicate ply on write; reloading from the database")
            await self._areload(g)
            raise ServiceError("stale_ply", _("Позиция уже изменилась: ход не принят.")) from None
        except Exception:
            g.log.exception("action write failed; reloading from the database")
            await self._areload(g)
            raise ServiceError("unavailable", _("Ход не удалось сохранить. Попробуйте ещё раз.")) from None
        finally:
            g.settled.set()
        revision = self.store.known.get(g.id)
        if self.bus.shared and base is not None and revision == base + 1:
            g.outbox.append({
                "base": base, "revision": revision, "actions": [[ply, notation] for ply, notation, _ in rows],
                "game": {k: values[k] for k in DELTA_KEYS if k in values},
            })  # fmt: skip
            del g.outbox[: -self.DELTAS_MAX]
        for ply, notation, actor in rows:
            g.log.info("ply=%s side=%s action=%s", ply, actor, notation)
        metrics.ACTIONS.inc(len(rows))
        if result is not None:
            self._spawn(self._credit_later(g))
        self._schedule(g)

    async def _credit_later(self, g: LiveGame) -> None:
        """Credit a game that just ended (:meth:`_credit`) in the one crediting thread, off the game's lock, then
        show the players what they got. A wave of ends must not hold other games' moves back: 500 games ending
        together took the database threads for 2 s, under their games' locks (issue 16). Left undone by a
        stop, the credit is finished when the game is next loaded."""
        await asyncio.get_running_loop().run_in_executor(self._credit_pool, self._credit, g)
        await self._publish(g)

    def _credit(self, g: LiveGame) -> None:
        """Credit the finished game to its human commanders, exactly once (a failure is logged: the game's
        end stands, and crediting is retried when the game is next loaded)."""
        if self.progress is None or g.game is None or "progression" not in g.rules.info.capabilities:
            return  # a game without points (it does not say how its statistics become points)
        try:
            holders = {s: g.seats[s].browser_hash for s in SIDES}
            levels = {s: g.seats[s].bot_level for s in SIDES}
            self.progress.credit(g.id, g.rules, g.rules.game_stats(g.game), holders, levels)
            g.credited = self.progress.results(g.id)
        except Exception:
            g.log.exception("crediting the game failed")

    def _apply_one(self, g: LiveGame, notation: str, rows: list, at: float | None = None) -> None:
        applied = g.rules.apply(g.game, notation)
        rows.append((g.rules.ply(g.game) - 1, notation, applied.actor))
        if applied.turn and applied.actor:
            g.turns[applied.actor] += 1
            if g.draw_offer is not None and g.draw_offer != applied.actor:
                g.draw_offer = None  # an offer lapses when the offerer's opponent moves
        if g.clock is not None:
            nxt = g.rules.to_act(g.game)
            mono, wall = time.monotonic(), _wall_ms()
            increment_to = applied.completed if nxt is not None else None
            if at is not None and at < mono:
                # The mover's clock stops at receipt and the next side's starts now: the server's wait in
                # between (for the game's lock) is charged to nobody.
                at_wall = wall - int((mono - at) * 1000)
                g.clock.switch(nxt, at, at_wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)
                g.clock.start(nxt, mono, wall)
            else:
                g.clock.switch(nxt, mono, wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)

    def _clock_values(self, g: LiveGame) -> dict[str, Any]:
        c = g.clock
        if c is None:
            return {}
        return {
            "clock_south_ms": c.remaining["south"],
            "clock_north_ms": c.remaining["north"],
            "clock_running": c.running,
            "clock_started_at": c.started_wall_ms,
        }

    # -- ends --------------------------------------------------------------------------------------------

    async def _end(self, g: LiveGame, side: str, how: str) -> None:
        """Resign (``resign``) or claim the win over a disconnected opponent (``claim``)."""
        async with self._locked(g):
            self._check_playing(g)
            if how == "claim":
                if not self.can_claim(g, side):
                    raise ServiceError(
                        "cannot_claim", _("Победу можно потребовать, когда соперник отключён не меньше минуты.")
                    )
                await self._commit(g, [g.rules.end_action("abandon", _other(side))])
            else:
                await self._commit(g, [g.rules.end_action("resign", side)])
        await self._publish(g)

    async def offer_draw(self, g: LiveGame, side: str) -> None:
        """Offer a draw; an offer already made by the opponent is accepted instead."""
        async with self._locked(g):
            self._check_playing(g)
            if (level := g.seats[_other(side)].bot_level) is not None:
                name = g.rules.info.levels.get(level, "")
                raise ServiceError(
                    "draw_declined", _("ИИ «%(name)s» отклоняет ничью: партия продолжается.", name=_(name))
                )
            if g.draw_offer == _other(side):
                await self._commit(g, [g.rules.end_action("draw", None)])
            elif g.draw_offer == side:
                raise ServiceError("draw_already_offered", _("Вы уже предложили ничью."))
            else:
                g.draw_offer = side
                await self._db(self.store.update_game, g.id, draw_offer=side)
                g.log.info("draw offered side=%s", side)
        await self._publish(g)

    async def accept_draw(self, g: LiveGame, side: str) -> None:
        """Accept the opponent's draw offer: the game ends in a draw by agreement (rules §10.3)."""
        async with self._locked(g):
            self._check_playing(g)
            if g.draw_offer != _other(side):
                raise ServiceError("no_draw_offer", _("Соперник не предлагал ничью."))
            await self._commit(g, [g.rules.end_action("draw", None)])
        await self._publish(g)

    async def decline_draw(self, g: LiveGame, side: str) -> None:
        """Decline the opponent's draw offer."""
        async with self._locked(g):
            self._check_playing(g)
            if g.draw_offer != _other(side):
                raise ServiceError("no_draw_offer", _("Соперник не предлагал ничью."))
            g.draw_offer = None
            await self._db(self.store.update_game, g.id, draw_offer=None)
            g.log.info("draw declined side=%s", side)
        await self._publish(g)

    async def abort(self, g: LiveGame, side: str) -> None:
        """Abort the game: before play, or while neither side has made two turns. Status ``aborted``, no result."""
        async with self._locked(g):
            if g.status in ("over", "aborted"):
                raise ServiceError("game_over", _("Партия окончена."))
            if not self.can_abort(g):
                raise ServiceError(
                    "cannot_abort", _("Отменить партию можно, пока ни одна сторона не сделала двух ходов.")
                )
            g.status, g.draw_offer = "aborted", None
            values: dict[str, Any] = {"status": "aborted", "finished_at": _now(), "draw_offer": None}
            if g.clock is not None:
                g.clock.switch(None, time.monotonic(), _wall_ms())
                values.update(self._clock_values(g))
            await self._db(self.store.update_game, g.id, **values)
            g.log.info("aborted by side=%s", side)
            self._schedule(g)
        await self._publish(g)

    async def rematch(self, g: LiveGame, side: str) -> str:
        """After the end: a new game with the same settings, sides swapped, both seats bound.

        :returns: the new game's URL (the same one if a rematch exists already).
        :raises ServiceError: ``not_over`` while the game is on; ``cannot_rematch`` if a seat was never taken
            (a game aborted before the friend joined); ``too_many_ai_games`` for a game against the AI when the
            player already holds ``max_bot_games`` unfinished ones.
        """
        async with self._locked(g):
            if g.status not in ("over", "aborted"):
                raise ServiceError("not_over", _("Реванш — после окончания партии."))
            if any(g.seats[s].browser_hash is None for s in SIDES):
                raise ServiceError("cannot_rematch", _("Реванш невозможен: соперник так и не присоединился к партии."))
            if g.rematch_id is None:
                if any(g.seats[s].bot_level is not None for s in SIDES):
                    await self.check_bot_games(g.seats[side].browser_hash, g.creator_address)
                new_id = new_game_id()
                _code, invite_hash, _sealed = self._new_invite(new_id)
                row = GameRow(
                    id=new_id, invite_hash=invite_hash, invite_sealed=None, creator_hash=g.creator_hash,
                    creator_address=g.creator_address, game=g.rules.info.key,
                    status="setup", settings=g.settings.to_dict(), seed=secrets.randbits(62), ply=0, rematch_of=g.id,
                    checkpoint_at=_wall_ms(),
                    setup_deadline=_wall_ms() + g.settings.setup_ms if g.settings.setup_ms else None,
                )  # fmt: skip
                seats = [
                    GameSeatRow(
                        game_id=new_id,
                        side=s,
                        browser_hash=g.seats[_other(s)].browser_hash,
                        draft={},
                        ready=False,
                        auto_declare=g.seats[_other(s)].auto_declare,
                        joined_at=_now(),
                    )
                    for s in SIDES
                ]
                new = LiveGame(
                    row,
                    {s.side: Seat(s.side, s.browser_hash, {}, False, s.auto_declare) for s in seats},
                    self._rules_of(row),
                )
                self._set_up_bots(new, seats)
                await self._db(self.store.create_game, row, seats)
                await self._db(self.store.update_game, g.id, rematch_id=new_id)
                g.rematch_id = new_id
                self.games[new_id] = new
                self._schedule(new)
                g.log.info("rematch game=%s by side=%s", new_id, side)
            url = f"/g/{g.rematch_id}"
        await self._publish(g, rematch_url=url)
        return url

    # -- timers and the sweeper ----------------------------------------------------------------------------

    def _schedule(self, g: LiveGame) -> None:
        """(Re)arm the game's timer: the running clock's flag, or the setup deadline."""
        if g.timer is not None:
            g.timer.cancel()
            g.timer = None
        delay: float | None = None
        if g.status == "play" and g.clock is not None and not self._bot_thinking(g, g.clock.running):
            delay = g.clock.seconds_to_flag(time.monotonic())
        elif g.status == "setup" and g.setup_deadline_ms is not None:
            delay = max(0.0, (g.setup_deadline_ms - _wall_ms()) / 1000)
        if delay is not None:
            loop = asyncio.get_running_loop()
            g.timer = loop.call_later(delay + 0.01, lambda: self._spawn(self._on_timer(g)))
        self._drive_bots(g)

    # -- bots (rules §12) ------------------------------------------------------------------------------

    def _drive_bots(self, g: LiveGame) -> None:
        """Start a bot turn if a bot must act in ``g`` and none is under way (see the module docstring)."""
        if g.status != "play" or g.game is None:
            return
        side = g.rules.to_act(g.game)
        if side is None or g.seats[side].bot_level is None:
            return
        running = g.bot_task
        if running is not None and not running.done() and running is not asyncio.current_task():
            return
        g.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(g, side), name=f"admiral-bot-{g.id}")
        self._tasks.add(g.bot_task)
        g.bot_task.add_done_callback(self._tasks.discard)

    def _bot_pause(self, g: LiveGame, side: str) -> float:
        """Seconds the bot waits before answering (so a player sees their own move land first): ``bot_delay_ms``,
        at most 1 % of the bot's remaining clock — a short game is never lost on this courtesy."""
        pause = self.options.bot_delay_ms / 1000
        if g.clock is not None:
            pause = min(pause, max(0.0, g.clock.left(side, time.monotonic()) / 100_000))
        return pause

    def _bot_deadline(self, g: LiveGame, side: str, level: int) -> float:
        """Seconds the bot may think: its level's budget, at most 1/30 of its remaining clock."""
        budget = self.options.bot_think_s.get(level, 1.0)
        if g.clock is not None:
            budget = min(budget, max(0.02, g.clock.left(side, time.monotonic()) / 30_000))
        return budget

    async def _bot_turn(self, g: LiveGame, side: str) -> None:
        """One bot action: view under the lock → think in a worker thread → commit under the lock if the
        game is still at the ply the bot saw. A bot that fails or answers illegally resigns (logged)."""
        try:
            async with g.bot_lock:
                await asyncio.sleep(self._bot_pause(g, side))
                level = g.seats[side].bot_level or 1
                async with self._locked(g):
                    if g.status != "play" or g.rules.to_act(g.game) != side:
                        return
                    game, ply = g.game, g.rules.ply(g.game)
                    bot = g.bots.get(side)
                    fresh = bot is None
                    if fresh:
                        bot = g.bots[side] = g.rules.new_bot(level, g.seed ^ SIDES.index(side), g.settings.options)
                    else:
                        view = snapshot.bot_view(g, side, g.bot_seen.get(side, 0))
                    deadline = self._bot_deadline(g, side, level)
                started = time.perf_counter()
                notation: str | None = None
                queued = 0.0  # seconds the jobs waited for a worker: not the bot's time, its clock gets them back
                try:
                    if fresh:  # a restart (or a reload) lost its memory: show it the game so far
                        submitted = time.monotonic()
                        _seen, bot, began = await self._in_bot_worker(botpool.catch_up, g.rules, bot, game, side)
                        queued += max(0.0, began - submitted)
                        g.bots[side] = bot
                        async with self._locked(g):
                            if g.status != "play" or g.rules.ply(g.game) != ply:
                                return
                            view = snapshot.bot_view(g, side, 0)
                    submitted = time.monotonic()
                    notation, g.bots[side], began = await self._in_bot_worker(
                        botpool.think, g.rules, bot, view, deadline
                    )
                    queued += max(0.0, began - submitted)
                except Exception:
                    g.log.exception("bot level=%s failed at ply=%s; it resigns", level, ply)
                think_ms = (time.perf_counter() - started) * 1000
                metrics.BOT_MOVE_SECONDS.labels(level=str(level)).observe(think_ms / 1000)
                g.bot_seen[side] = ply
                async with self._locked(g):
                    if g.status != "play" or g.game is not game or g.rules.ply(g.game) != ply:
                        return  # the game moved on meanwhile (resignation, flag, abort): the answer is void
                    g.log.info("bot level=%s ply=%s think_ms=%.0f queued_ms=%.0f action=%s", level, ply, think_ms,
                               queued * 1000, notation)  # fmt: skip
                    if g.clock is not None and g.clock.running == side:
                        g.clock.credit(side, int(queued * 1000))  # QA: bots lost on time waiting for a worker
                    if g.clock is not None and g.clock.left(side, time.monotonic()) <= 0:
                        await self._commit(g, [g.rules.end_action("flag", side)])
                    elif notation is None:
                        await self._commit(g, [g.rules.end_action("resign", side)])
                    else:
                        try:
                            await self._commit(g, [notation])
                        except ServiceError as e:
                            if e.code != "illegal_action":
                                raise
                            g.log.error("bot level=%s chose an illegal %s at ply=%s; it resigns", level, notation, ply)
                            await self._commit(g, [g.rules.end_action("resign", side)])
            await self._publish(g)
        except asyncio.CancelledError:
            raise
        except Exception:
            g.log.exception("bot turn failed")

    async def _in_bot_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` where the bots think (:mod:`.botpool`); a pool broken by a dead worker is made anew
        and the call tried once more."""
        for attempt in (1, 2):
            if self._bot_pool is None:  # starting the fork server blocks for ~0.3 s: not on the event loop (QA)
                self._bot_pool = await asyncio.to_thread(
                    botpool.make_pool, self.options.bot_workers, processes=self.options.bot_processes
                )
            pool = self._bot_pool
            try:  # submitting may start a worker process: from a thread as well
                return await asyncio.wrap_future(await asyncio.to_thread(pool.submit, fn, *args))
            except concurrent.futures.BrokenExecutor:
                if self._bot_pool is pool:
                    log.error("a bot worker died; the bots' pool is made anew")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._bot_pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _on_timer(self, g: LiveGame) -> None:
        changed = False
        async with self._locked(g):
            changed = await self._check_deadlines(g)
            if not changed:
                self._schedule(g)
        if changed:
            await self._publish(g)

    def _bot_thinking(self, g: LiveGame, side: str | None) -> bool:
        """Whether ``side`` is a bot whose turn is under way: its flag waits for its answer, which settles its
        clock (the time its job waited for a worker is given back first: :meth:`_bot_turn`)."""
        return (
            side is not None and g.seats[side].bot_level is not None and g.bot_task is not None
            and not g.bot_task.done()
        )  # fmt: skip

    def _due(self, g: LiveGame) -> bool:
        """Whether the cached copy shows a flag fallen or a setup deadline gone by (what :meth:`_check_deadlines`
        acts on)."""
        if g.status == "play" and g.clock is not None and g.clock.running is not None:
            if self._bot_thinking(g, g.clock.running):
                return False
            return g.clock.left(g.clock.running, time.monotonic()) <= 0
        return g.status == "setup" and g.setup_deadline_ms is not None and _wall_ms() >= g.setup_deadline_ms

    async def _check_deadlines(self, g: LiveGame) -> bool:
        """Flag fall or setup expiry, if due. Caller holds the lock. Returns whether the game changed."""
        mono = time.monotonic()
        if g.status == "play" and g.clock is not None and g.clock.running is not None:
            side = g.clock.running
            if g.clock.left(side, mono) <= 0 and not self._bot_thinking(g, side):
                g.log.info("flag side=%s", side)
                await self._commit(g, [g.rules.end_action("flag", side)])
                return True
        elif g.status == "setup" and g.setup_deadline_ms is not None and _wall_ms() >= g.setup_deadline_ms:
            await self._expire_setup(g)
            self._schedule(g)
            return True
        return False

    async def _sweep_forever(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.options.sweep_interval_s)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Check the timed games' deadlines (a backstop for the timers), expire invites nobody accepted,
        checkpoint running clocks and setup deadlines, drop finished games nobody watches from the cache.
        Instances sharing the games also renew their sockets' presence marks and take over the deadlines of
        games whose instance died (any overdue game in the database is loaded and handled here)."""
        if self.bus.shared:
            await self._shared_sweep()
        for g in list(self.games.values()):
            # Only a game whose copy shows a deadline gone by takes its lock (with instances sharing the games a
            # lock is a Redis round trip and a revision check): a copy behind another instance's changes may miss
            # a deadline, but the database's overdue games above catch that.
            if not g.timed or g.lock.locked() or not self._due(g):
                continue
            try:
                async with self._locked(g):
                    changed = await self._check_deadlines(g)
                if changed:
                    await self._publish(g)
            except Exception:
                g.log.exception("deadline check failed")
        try:
            await self._expire_waiting()
        except Exception:
            log.exception("expiring waiting games failed")
        self._checkpoint()
        # Finished games nobody watches need not stay cached (a socket keeps its game: it must see changes).
        for game_id, g in list(self.games.items()):
            if not g.active and not g.watched and not g.lock.locked():
                del self.games[game_id]

    async def _shared_sweep(self) -> None:
        """Presence heartbeats (every 10 s: the marks live 30 s), and the overdue timers of games other
        instances left behind."""
        mono = time.monotonic()
        if mono - self._presence_at >= 10.0:
            self._presence_at = mono
            marks = [(g.id, side) for g in list(self.games.values()) for side, seat in g.seats.items()
                     if seat.connections > 0]  # fmt: skip
            await self.bus.heartbeat(marks)
        for game_id in await self._db(self.store.overdue_game_ids, _wall_ms()):
            try:
                g = self.get(game_id)
                if g.lock.locked():
                    continue
                async with self._locked(g):
                    changed = await self._check_deadlines(g)
                if changed:
                    g.log.info("took over an overdue deadline")
                    await self._publish(g)
            except Exception:
                log.exception("game=%s overdue check failed", game_id)

    async def _expire_waiting(self) -> None:
        """Abort the games whose invite was not accepted within ``waiting_ttl_s``: one bulk ``UPDATE`` in the
        database (such games are mostly not loaded), then the cached ones are brought in line and published."""
        now = _now()
        cutoff = datetime.fromtimestamp(now.timestamp() - self.options.waiting_ttl_s, UTC)
        expired = await self._db(self.store.expire_waiting, cutoff, now)
        changed = []
        for game_id in expired:
            g = self.games.get(game_id)
            if g is not None and g.status == "waiting":
                g.status, g.draw_offer = "aborted", None
                g.log.info("invite expired: aborted")
                changed.append(g)
        if expired:
            log.info("expired %d waiting games", len(expired))
        for g in changed:
            await self._publish(g)

    def _checkpoint(self) -> None:
        """Write the running clocks (and the ``checkpoint_at`` of games with a setup deadline) in one bulk update.
        Games without a timer have nothing that runs: they are not written."""
        wall, mono = _wall_ms(), time.monotonic()
        rows = []
        for g in self.games.values():
            if not g.timed:
                continue
            row: dict[str, Any] = {"id": g.id, "checkpoint_at": wall}
            if g.status == "play" and g.clock is not None and g.clock.running is not None:
                g.clock.charge(mono, wall)
                row.update(self._clock_values(g))
            rows.append(row)
        try:
            self.store.checkpoint(rows, guarded=self.bus.shared)
        except Exception:
            log.exception("checkpoint failed")

    # -- records ---------------------------------------------------------------------------------------

    def record_json(self, g: LiveGame) -> str:
        """The game record (JSON text) after the end. :raises ServiceError: ``not_over``."""
        if g.status != "over" or g.game is None:
            raise ServiceError("not_over", _("Запись партии доступна после её окончания."))
        return g.rules.record_json(g.game)

    def replay(self, g: LiveGame) -> dict[str, Any]:
        """Setups and per-ply deltas after the end. :raises ServiceError: ``not_over``."""
        if g.status != "over" or g.game is None:
            raise ServiceError("not_over", _("Запись партии доступна после её окончания."))
        return g.rules.replay(g.game)

    # -- saved setups ------------------------------------------------------------------------------------

    MAX_SAVED_SETUPS = 50

    def _setup_scope(self, game: str, options: Mapping[str, Any] | None) -> tuple[Ruleset, dict[str, Any], str]:
        """The ruleset, the checked room options and the setup variant saved setups of ``game`` are kept under.

        :raises ServiceError: ``unknown_game``, ``bad_options``."""
        rules = self.rulesets.get(game)
        if rules is None:
            raise ServiceError("unknown_game", _("Такой игры на сайте нет."))
        try:
            checked = rules.options(options or {})
        except RuleError as e:
            raise ServiceError("bad_options", e.reason) from None
        return rules, checked, rules.setup_variant(checked)

    def list_setups(
        self, browser_hash: str, game: str = DEFAULT_GAME, options: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The browser's saved setups for ``game`` under the rule set ``options`` choose:
        ``[{"id", "name", "setup", "created_at"}]``, oldest first. :raises ServiceError: as :meth:`_setup_scope`."""
        _rules, _options, variant = self._setup_scope(game, options)
        return [
            {"id": r.id, "name": r.name, "setup": r.setup, "created_at": r.created_at.isoformat()}
            for r in self.store.list_setups(browser_hash, game, variant)
        ]

    def save_setup(
        self,
        browser_hash: str,
        name: str,
        setup: dict[str, str],
        game: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Save a side-neutral setup of ``game`` (checked as South's; may be partial) under the rule set ``options``
        choose.

        :raises ServiceError: ``bad_name`` (1–40 characters), ``too_many_setups`` (50 per browser),
            ``invalid_setup`` (``detail.problems``), ``unknown_game``, ``bad_options``.
        """
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ServiceError("bad_name", _("Название: от 1 до 40 символов."))
        rules, checked, variant = self._setup_scope(game, options)
        problems = rules.setup_problems("south", setup, complete=False, options=checked)
        if problems:
            raise ServiceError("invalid_setup", _("Расстановка неверна."), {"problems": problems})
        if self.store.count_setups(browser_hash) >= self.MAX_SAVED_SETUPS:
            raise ServiceError("too_many_setups", _("Можно сохранить не больше 50 расстановок."))
        r = self.store.add_setup(browser_hash, name, setup, game, variant)
        return {"id": r.id, "name": r.name, "setup": r.setup, "created_at": r.created_at.isoformat()}

    def delete_setup(self, browser_hash: str, setup_id: int) -> None:
        """Delete one of the browser's saved setups. :raises ServiceError: ``not_found``."""
        if not self.store.delete_setup(browser_hash, setup_id):
            raise ServiceError("not_found", _("Расстановка не найдена."))
