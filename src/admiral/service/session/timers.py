"""Timers and the sweeper: the service's start and stop, flag fall and setup deadlines, expired invites, clock
checkpoints, and the overdue deadlines of games another instance left behind."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from admiral.store import GameRow

from .base import SessionBase
from .live import (
    LiveGame,
    clock_values,
    log,
)

if TYPE_CHECKING:
    from admiral.service.turnmail import TurnMail


class TimerMixin(SessionBase):
    """Start and stop, the timers, the sweeper, checkpoints (a part of
    :class:`~admiral.service.session.GameService`)."""

    #: Where «ваш ход» mails of correspondence games go (:class:`~admiral.service.turnmail.TurnMail`, set by the app;
    #: ``None``: no mails). The sweeper tries them every ``options.turn_mail_interval_s`` (issue 19).
    turn_mail: TurnMail | None = None
    _turn_mail_at: float | None = None

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
        wall, mono = self.now.wall_ms(), self.now.mono()
        rows: list[dict[str, Any]] = []
        shifting = [] if self.bus.shared else loaded  # shared: other instances served on, time ran as stored
        for g, row in shifting:
            values: dict[str, Any] = {"id": g.id, "checkpoint_at": wall}
            if g.clock is not None and g.status == "play" and not g.settings.correspondence:
                # a correspondence move's deadline is a date (days away), kept through the downtime
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

    def _schedule(self, g: LiveGame) -> None:
        """(Re)arm the game's timer: the running clock's flag, or the setup deadline."""
        if g.timer is not None:
            g.timer.cancel()
            g.timer = None
        delay: float | None = None
        if g.status == "play" and g.clock is not None and not self._bot_thinking(g, g.clock.running):
            delay = g.clock.seconds_to_flag(self.now.mono())
        elif g.status == "setup" and g.setup_deadline_ms is not None:
            delay = max(0.0, (g.setup_deadline_ms - self.now.wall_ms()) / 1000)
        if delay is not None:
            loop = asyncio.get_running_loop()
            g.timer = loop.call_later(delay + 0.01, lambda: self._spawn(self._on_timer(g)))
        self._drive_bots(g)

    async def _on_timer(self, g: LiveGame) -> None:
        changed = False
        async with self._locked(g):
            changed = await self._check_deadlines(g)
            if not changed:
                self._schedule(g)
        if changed:
            await self._publish(g)

    def _due(self, g: LiveGame) -> bool:
        """Whether the cached copy shows a flag fallen or a setup deadline gone by (what :meth:`_check_deadlines`
        acts on)."""
        if g.status == "play" and g.clock is not None and g.clock.running is not None:
            if self._bot_thinking(g, g.clock.running):
                return False
            return g.clock.left(g.clock.running, self.now.mono()) <= 0
        if self._stalled(g):
            return True
        return g.status == "setup" and g.setup_deadline_ms is not None and self.now.wall_ms() >= g.setup_deadline_ms

    @staticmethod
    def _stalled(g: LiveGame) -> bool:
        """Whether a step between two stored states was left half done (its second write failed): a waiting game
        with both seats held, or a game in setup with both fleets ready."""
        held = all(s.browser_hash is not None for s in g.seats.values())
        return held and (g.status == "waiting" or (g.status == "setup" and all(s.ready for s in g.seats.values())))

    async def _check_deadlines(self, g: LiveGame) -> bool:
        """Flag fall or setup expiry, if due. Caller holds the lock. Returns whether the game changed."""
        mono = self.now.mono()
        if g.status == "play" and g.clock is not None and g.clock.running is not None:
            side = g.clock.running
            if g.clock.left(side, mono) <= 0 and not self._bot_thinking(g, side):
                g.log.info("flag side=%s", side)
                await self._commit(g, [g.rules.end_action("flag", side)])
                return True
        elif self._stalled(g):
            if g.status == "waiting":
                await self._open_setup(g)
            else:
                await self._start_if_ready(g)
            self._schedule(g)
            return True
        elif g.status == "setup" and g.setup_deadline_ms is not None and self.now.wall_ms() >= g.setup_deadline_ms:
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
            if g.lock.locked() or not self._due(g):
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
        try:
            await self._turn_mails()
        except Exception:
            log.exception("turn mails failed")
        self._checkpoint()
        # Games nobody watches need not stay cached (a socket keeps its game: it must see changes): finished ones at
        # once, untimed ones in play once idle (issue 23); the next request or socket reloads them.
        mono = self.now.mono()
        for game_id, g in list(self.games.items()):
            if g.watched or g.touched is None:
                g.touched = mono
            elif not g.lock.locked() and (not g.active or self._evictable(g, mono)):
                del self.games[game_id]

    def _evictable(self, g: LiveGame, mono: float) -> bool:
        """Whether the sweeper may drop ``g``, a game in memory that no socket watches, from the cache (issue 23):
        in play, untimed (nothing here must fire for it: no clock, no deadline; timed games stay, as :meth:`start`
        loads them), no bot's turn under way, nothing waiting to be published, and unwatched and unchanged for
        ``options.idle_evict_s`` seconds (:attr:`LiveGame.touched`: a request or socket that asked for it since
        holds it, so it stays). Dropping it is what a restart does to it: every change is stored, a bot's memory is
        rebuilt from the record, a seat's disconnection counts from the reload (rules §10.1)."""
        limit = self.options.idle_evict_s
        return (
            limit > 0 and g.status == "play" and not g.timed and not g.outbox and not g.bot_lock.locked()
            and (g.bot_task is None or g.bot_task.done()) and mono - (g.touched or mono) >= limit
        )  # fmt: skip

    async def _shared_sweep(self) -> None:
        """Presence heartbeats (every 10 s: the marks live 30 s), and the overdue timers of games other
        instances left behind."""
        mono = self.now.mono()
        if mono - self._presence_at >= 10.0:
            self._presence_at = mono
            marks = [(g.id, side) for g in list(self.games.values()) for side, seat in g.seats.items()
                     if seat.connections > 0]  # fmt: skip
            await self.bus.heartbeat(marks)
        for game_id in await self._db(self.store.overdue_game_ids, self.now.wall_ms()):
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

    async def _turn_mails(self) -> None:
        """Every ``turn_mail_interval_s``: for each cached correspondence game in play whose side to move is a
        person with no socket of the game here, read in one query which of those commanders asked for mails; for each
        of them with no socket of the game on another instance either (Redis presence), :meth:`TurnMail.mail_turn`
        claims the mail in the database (one per turn, 6 h apart, exactly once across instances, and only while the
        stored game still waits for that side) and sends it."""
        if self.turn_mail is None:
            return
        mono = self.now.mono()
        if self._turn_mail_at is not None and mono - self._turn_mail_at < self.options.turn_mail_interval_s:
            return
        self._turn_mail_at = mono
        waiting = []  # (game, side, key): the side to move has no socket of the game here
        for g in list(self.games.values()):
            if not g.settings.correspondence or g.status != "play" or g.clock is None or g.clock.running is None:
                continue
            seat = g.seats[g.clock.running]
            if seat.browser_hash is not None and seat.bot_level is None and seat.connections == 0:
                waiting.append((g, g.clock.running, seat.browser_hash))
        if not waiting:
            return
        targets = await self._db(self.turn_mail.targets, {key for _g, _s, key in waiting})  # one query
        for g, side, key in waiting:
            target = targets.get(key)
            if target is None or g.seats[side].connections > 0:
                continue
            if self.bus.shared and (await self.bus.present_elsewhere(g.id)).get(side):
                continue
            left = max(0, g.clock.left(side, self.now.mono())) if g.clock is not None else 0
            await self._db(self.turn_mail.mail_turn, target, g.id, side, g.rules.info.name, left, self.now.wall_ms())

    async def _expire_waiting(self) -> None:
        """Abort the games whose invite was not accepted within ``waiting_ttl_s``: one bulk ``UPDATE`` in the
        database (such games are mostly not loaded), then the cached ones are brought in line and published."""
        now = self.now.utc()
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
        wall, mono = self.now.wall_ms(), self.now.mono()
        rows = []
        for g in self.games.values():
            if not g.timed:
                continue
            row: dict[str, Any] = {"id": g.id, "checkpoint_at": wall}
            if g.status == "play" and g.clock is not None and g.clock.running is not None:
                g.clock.charge(mono, wall)
                row.update(clock_values(g.clock))
            rows.append(row)
        try:
            self.store.checkpoint(rows, guarded=self.bus.shared)
        except Exception:
            log.exception("checkpoint failed")
