"""The instance cache of live games and the catch-up with other instances: load on first use, rebuild from the
stored rows, apply other instances' deltas, re-read what does not fit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiral.games import DEFAULT_GAME, Ruleset
from admiral.i18n import _
from admiral.store import GameRow
from admiral.store.repo import LoadedGame

from .. import metrics
from ..clock import GameClock
from ..errors import ServiceError
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    Seat,
)


class CacheMixin(SessionBase):
    """The instance cache of live games and the catch-up with other instances (a part of
    :class:`~admiral.service.session.GameService`)."""

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
        mono = self.now.mono()
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
                    await self._catch_up(g, stale=True)  # a delta did not apply: the copy stayed as it was
                    changed = True
                elif outcome:
                    changed = applied = True
                else:
                    behind = revision is not None and revision > (self.store.known.get(g.id) or -1)
                    changed = await self._catch_up(g, stale=behind)
        if not applied or mono - g.presence_at >= self.PRESENCE_READ_S:
            g.presence_at = mono
            elsewhere = await self.bus.present_elsewhere(g.id)
            mono = self.now.mono()
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
            the rest (what did apply stays), ``None`` when an action did not apply (the copy stays at the
            revision before that delta; the database supplies the rest)."""
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
            game, turns = g.rules.copy(g.game), dict(g.turns)  # applied to a copy, swapped in whole
            try:
                for ply, notation in rows:
                    if g.rules.ply(game) != ply:
                        raise ValueError(f"delta ply {ply} at engine ply {g.rules.ply(game)}")
                    done = g.rules.apply(game, notation)
                    if done.turn and done.actor:
                        turns[done.actor] += 1
            except Exception:
                g.log.exception("a delta did not apply; the game is read from the database")
                return None
            g.game, g.turns = game, turns
            g.draw_offer = values.get("draw_offer")
            if g.settings.base_ms and "clock_south_ms" in values:
                g.clock = self._restore_clock(
                    values["clock_south_ms"], values["clock_north_ms"], values["clock_running"],
                    values["clock_started_at"],
                )  # fmt: skip
            g.drop_views()
            self.store.known[g.id] = rev
            applied = True
            self.catch_ups["event"] += 1
            metrics.CATCH_UPS.labels(source="event").inc()
        if applied:
            self._schedule(g)
        known = self.store.known.get(g.id)
        return applied and (revision is None or (known is not None and known >= revision))

    async def current(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` as the database holds it now: loaded on first use (the read in a database
        thread), else this instance's copy, which, with instances sharing the games, is first checked against
        the database's revision (and learns where the players' sockets are). Whatever answers a request or
        opens a socket (the seat, the invite's state, the record) therefore never comes from a copy behind
        another instance's changes (issue 16: a joiner whose invite was claimed through the other instance
        was taken for a spectator). One revision read (and one presence read) per call when shared; the
        players' names are read once per seat holder (:meth:`_ensure_profiles`).

        :raises ServiceError: ``not_found``.
        """
        g = self.games.get(game_id)
        if g is None and len(game_id) <= 16:
            loaded = await self._db(self.store.load_game, game_id)
            g = self.games.get(game_id)  # another request may have loaded it meanwhile: keep that copy
            if g is None and loaded is not None:
                g = self._adopt(loaded)
                g.touched = self.now.mono()
                await self._ensure_profiles(g)  # QA (issue 19): a game loaded here showed «Гость» for both
                return g
        if g is None:
            raise ServiceError("not_found", _("Партия не найдена."))
        g.touched = self.now.mono()  # what asked for it holds it now: not dropped from under it (``_evictable``)
        if self.bus.shared:
            await self.refresh(g)
        await self._ensure_profiles(g)
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
        g.touched = self.now.mono()
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
        g.draw_offer, g.rematch_id, g.rematch_offer = row.draw_offer, row.rematch_id, row.rematch_offer
        g.setup_deadline_ms = row.setup_deadline
        g.start_settings = row.start_settings
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
                seat.profile, seat.profile_of = before.profile, before.profile_of
        g.drop_views()
        tail = loaded.since_ply > 0 and g.game is not None and g.rules.ply(g.game) == loaded.since_ply
        # The stored actions are applied to a copy (a tail) or a new game, swapped in whole: a game handle, once
        # live, never changes (a bot thinking over it meanwhile keeps a consistent position).
        game, turns = (g.rules.copy(g.game), dict(g.turns)) if tail else (None, {"south": 0, "north": 0})
        if not tail:
            g.bots, g.bot_seen = {}, {}
        if game is None and all(g.seats[s].ready for s in SIDES) and row.started_at is not None:
            game = g.rules.new_game({s: g.seats[s].draft for s in SIDES}, self._record_settings(g))
        if game is not None:
            for a in loaded.actions:
                applied = g.rules.apply(game, a.notation)
                if applied.turn and applied.actor:
                    turns[applied.actor] += 1
        g.game, g.turns = game, turns
        if g.game is not None:
            result = g.rules.result(g.game)
            if result is not None:
                g.result = result
                if self.progress is not None:
                    g.credited = self.progress.results(g.id)
                    humans = sum(1 for s in g.seats.values() if s.bot_level is None)
                    # a crash between the end and the credit, or another instance between its credit and its rating
                    # (a rated game read here without its rating would never show it: the rating bumps no
                    # revision): finish the job, exactly once as ever
                    unrated_yet = g.settings.rated and any("rating" not in c for c in g.credited.values())
                    if len(g.credited) < humans or unrated_yet:
                        self._credit(g)
                    self._show_new_ratings(g)
        if g.settings.base_ms and g.game is not None:
            g.clock = self._restore_clock(row.clock_south_ms, row.clock_north_ms, row.clock_running,
                                          row.clock_started_at)  # fmt: skip
        else:
            g.clock = None

    def _restore_clock(
        self, south_ms: int | None, north_ms: int | None, running: str | None, started: int | None
    ) -> GameClock:
        """A clock from its stored values. The running clock has run since its stored stamp (a reload, or another
        instance's game): that time is charged; a restart of a lone server then restarts the clocks from "now"
        (``_resume_all``)."""
        clock = GameClock({"south": south_ms or 0, "north": north_ms or 0})
        wall = self.now.wall_ms()
        started = started or wall
        clock.start(running, self.now.mono() - max(0, wall - started) / 1000, started)
        return clock

    def _record_settings(self, g: LiveGame, start: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The settings a game's record keeps: its id, the lobby settings (with the room options), for a game
        whose rules draw at random the seed they draw from (shown with the record once the game is over), and what
        the seats brought when play started (``start``, else the stored ``g.start_settings``: capability
        ``"start_settings"``) merged over them."""
        settings = {"game_id": g.id, **g.settings.to_dict()}
        if g.rules.info.chance:
            settings["seed"] = g.seed
        settings.update((g.start_settings if start is None else start) or {})
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
