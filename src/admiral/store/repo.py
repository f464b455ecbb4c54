"""The repository: every database read and write of the service, one short transaction each.

Methods are synchronous (SQLAlchemy 2.0 ``Session``); each opens and commits its own session, so
no transaction outlives a call. Returned rows are detached (``expire_on_commit=False``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, bindparam, case, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased, sessionmaker

from .models import GameActionRow, GameRow, GameSeatRow, MarkerNoteRow, SavedSetupRow, utcnow

__all__ = ["ACTIVE", "ActionWrite", "DuplicatePly", "LoadedGame", "Store"]

#: Statuses of a game that is not finished.
ACTIVE = ("waiting", "setup", "play")


class DuplicatePly(Exception):
    """An action row for this ``(game_id, ply)`` exists already: the action was applied before."""


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One game's move to store (:meth:`Store.append_actions_many`): action rows ``(ply, notation, side)`` and the
    game's columns to set."""

    game_id: str
    rows: list[tuple[int, str, str | None]]
    values: dict[str, Any]


@dataclass
class LoadedGame:
    """A game as stored: its row, its two seats (``"south"``/``"north"`` → row) and its actions in ply order."""

    game: GameRow
    seats: dict[str, GameSeatRow]
    actions: list[GameActionRow]
    #: The first ply of ``actions`` (0: the whole game).
    since_ply: int = 0


_GAMES = GameRow.__table__
_SEATS = GameSeatRow.__table__
_ACTIONS = GameActionRow.__table__
_NOTES = MarkerNoteRow.__table__
#: Built once: a statement object's cache key is computed once per object (every move runs this one).
_INSERT_ACTIONS = _ACTIONS.insert()


@functools.cache
def _bump_statement(columns: tuple[str, ...]) -> Any:
    """``UPDATE games SET <columns>, revision = revision + 1 WHERE id = :b_id RETURNING revision``, built once per
    set of columns: on the hot path (every move) building and hashing a new statement cost more than running it."""
    return (
        _GAMES.update()
        .where(_GAMES.c.id == bindparam("b_id"))
        .values({**{c: bindparam(c) for c in columns}, "revision": _GAMES.c.revision + 1})
        .returning(_GAMES.c.revision)
    )


class Store:
    """Database access for games and saved setups over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: The same pool for single reads outside a transaction: no BEGIN/ROLLBACK round trips around them.
        self._reads = engine.execution_options(isolation_level="AUTOCOMMIT")
        #: The ``games.revision`` this store last read or wrote, per game: when the database holds another
        #: one, some other instance changed the game (see :meth:`stale`).
        self.known: dict[str, int] = {}

    def _bump(self, conn: Any, game_id: str, **values: Any) -> None:
        """Set ``values`` on a game and bump its revision, in the caller's transaction; remember the new one."""
        rev = conn.execute(_bump_statement(tuple(sorted(values))), {"b_id": game_id, **values}).scalar()
        if rev is not None:
            self.known[game_id] = rev

    def revision(self, game_id: str) -> int | None:
        """The game's revision in the database (``None``: no such game). One statement, no transaction around
        it: every mutation of a game in several instances asks this first."""
        with self._reads.connect() as conn:
            return conn.execute(select(_GAMES.c.revision).where(_GAMES.c.id == game_id)).scalar()

    def stale(self, game_id: str) -> bool:
        """Whether another writer changed the game since this store last read or wrote it."""
        return self.revision(game_id) != self.known.get(game_id)

    def session(self) -> Session:
        """A new session (use as a context manager)."""
        return self.sessions()

    # -- games ---------------------------------------------------------------------------------

    def create_game(self, game: GameRow, seats: Iterable[GameSeatRow]) -> None:
        """Insert a game with its seats in one transaction."""
        with self.sessions.begin() as s:
            game.revision = 0
            s.add(game)
            s.flush()
            s.add_all(seats)
        self.known[game.id] = 0

    def load_game(self, game_id: str, since_ply: int = 0) -> LoadedGame | None:
        """The stored game, its seats and its actions from ``since_ply`` on (all by default: a cache that holds
        the first plies already reads only the tail); ``None`` if there is no such game."""
        with self.session() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return None
            self.known[game_id] = game.revision
            seats = {r.side: r for r in s.scalars(select(GameSeatRow).where(GameSeatRow.game_id == game_id))}
            actions = list(
                s.scalars(
                    select(GameActionRow)
                    .where(GameActionRow.game_id == game_id, GameActionRow.ply >= since_ply)
                    .order_by(GameActionRow.ply)
                )
            )
            return LoadedGame(game, seats, actions, since_ply)

    def game_id_by_invite(self, invite_hash: str) -> str | None:
        """The id of the game whose invite code hashes to ``invite_hash``."""
        with self.session() as s:
            return s.scalar(select(GameRow.id).where(GameRow.invite_hash == invite_hash))

    def active_game_ids(self) -> list[str]:
        """Ids of every game not finished (waiting, setup, play)."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status.in_(ACTIVE))))

    def active_bot_games(self, browser_hash: str, bot_prefix: str) -> list[str]:
        """Ids of the unfinished games (setup, play) where ``browser_hash`` holds a seat against a bot (a seat
        whose holder starts with ``bot_prefix``), oldest first."""
        bot = aliased(GameSeatRow)
        with self.session() as s:
            return list(
                s.scalars(
                    select(GameRow.id)
                    .join(GameSeatRow, GameSeatRow.game_id == GameRow.id)
                    .join(bot, bot.game_id == GameRow.id)
                    .where(
                        GameSeatRow.browser_hash == browser_hash,
                        bot.browser_hash.startswith(bot_prefix, autoescape=True),
                        GameRow.status.in_(("setup", "play")),
                    )
                    .order_by(GameRow.created_at, GameRow.id)
                )
            )

    def active_bot_games_from(self, address_key: str, bot_prefix: str) -> int:
        """How many unfinished games (setup, play) against a bot (a seat whose holder starts with ``bot_prefix``)
        were created from the address stored as ``address_key``."""
        with self.session() as s:
            return (
                s.scalar(
                    select(func.count(func.distinct(GameRow.id)))
                    .join(GameSeatRow, GameSeatRow.game_id == GameRow.id)
                    .where(
                        GameRow.creator_address == address_key,
                        GameSeatRow.browser_hash.startswith(bot_prefix, autoescape=True),
                        GameRow.status.in_(("setup", "play")),
                    )
                )
                or 0
            )

    def unfinished_games(self, browser_hash: str, limit: int = 20) -> list[tuple[GameRow, str, str | None]]:
        """The unfinished games (waiting, setup, play) where ``browser_hash`` holds a seat, newest first, at most
        ``limit``: ``(game row, my side, the other seat's holder or None while the friend has not joined)``."""
        mine, other = aliased(GameSeatRow), aliased(GameSeatRow)
        with self.session() as s:
            rows = s.execute(
                select(GameRow, mine.side, other.browser_hash)
                .join(mine, mine.game_id == GameRow.id)
                .join(other, and_(other.game_id == GameRow.id, other.side != mine.side))
                .where(mine.browser_hash == browser_hash, GameRow.status.in_(ACTIVE))
                .order_by(GameRow.created_at.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [(game, side, holder) for game, side, holder in rows]

    def timed_game_ids(self) -> list[str]:
        """Ids of the games a timer must watch: in play with a clock, or in setup with a deadline."""
        with self.session() as s:
            return list(
                s.scalars(
                    select(GameRow.id).where(
                        or_(
                            and_(GameRow.status == "play", GameRow.clock_south_ms.is_not(None)),
                            and_(GameRow.status == "setup", GameRow.setup_deadline.is_not(None)),
                        )
                    )
                )
            )

    def overdue_game_ids(self, now_ms: int) -> list[str]:
        """Games whose deadline passed by the stored clocks (epoch ms): a running clock whose remaining time
        ran out since its stamp, or a setup deadline gone by. Instances sharing the database use this to take
        over the timers of an instance that died."""
        g = _GAMES.c
        left = case((g.clock_running == "south", g.clock_south_ms), else_=g.clock_north_ms)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(g.id).where(
                    or_(
                        and_(g.status == "play", g.clock_running.is_not(None), g.clock_started_at + left <= now_ms),
                        and_(g.status == "setup", g.setup_deadline.is_not(None), g.setup_deadline <= now_ms),
                    )
                )
            )
            return [r[0] for r in rows]

    def expire_waiting(self, created_before: datetime, finished_at: datetime) -> list[str]:
        """Abort every game still ``waiting`` (invite not accepted) created before ``created_before``: one
        ``UPDATE … RETURNING``. :returns: the ids of the games aborted."""
        with self.engine.begin() as conn:
            res = conn.execute(
                _GAMES.update()
                .where(_GAMES.c.status == "waiting", _GAMES.c.created_at < created_before)
                .values(status="aborted", finished_at=finished_at, revision=_GAMES.c.revision + 1)
                .returning(_GAMES.c.id, _GAMES.c.revision)
            )
            rows = res.all()
        for game_id, rev in rows:
            if game_id in self.known:
                self.known[game_id] = rev
        return [r[0] for r in rows]

    def claim_seat(
        self, game_id: str, side: str, browser_hash: str, browser_key: str | None = None, address_key: str | None = None
    ) -> bool:
        """Atomically bind the free seat ``side`` to ``browser_hash`` (``UPDATE … WHERE browser_hash IS NULL``),
        with the keyed hashes of the claimant's browser token and address (PROGRESSION.md §2).

        :returns: ``True`` for the one caller that won the seat, ``False`` if it was taken.
        """
        with self.engine.begin() as conn:
            res = conn.execute(
                _SEATS.update()
                .where(_SEATS.c.game_id == game_id, _SEATS.c.side == side, _SEATS.c.browser_hash.is_(None))
                .values(browser_hash=browser_hash, joined_at=utcnow(), browser_key=browser_key, address_key=address_key)
            )
            if res.rowcount != 1:
                return False
            self._bump(conn, game_id)
            return True

    def update_game(self, game_id: str, **values: Any) -> None:
        """Set columns of one game."""
        with self.engine.begin() as conn:
            self._bump(conn, game_id, **values)

    def update_seat(self, game_id: str, side: str, **values: Any) -> None:
        """Set columns of one seat."""
        with self.engine.begin() as conn:
            conn.execute(_SEATS.update().where(_SEATS.c.game_id == game_id, _SEATS.c.side == side).values(**values))
            self._bump(conn, game_id)

    def append_actions(self, game_id: str, rows: list[tuple[int, str, str | None]], **game_values: Any) -> None:
        """Append action rows ``(ply, notation, side)`` and set columns of the game, in one transaction.

        :raises DuplicatePly: if a row for one of these plies exists (nothing is written then).
        """
        try:
            with self.engine.begin() as conn:
                self._write_moves(conn, [ActionWrite(game_id, rows, game_values)])
        except IntegrityError as e:
            raise DuplicatePly(str(e)) from None

    def append_actions_many(self, writes: list[ActionWrite]) -> list[BaseException | None]:
        """Store several games' moves in one transaction (group commit: the moves made in one turn of the event
        loop); should that transaction fail, each move is tried again in a transaction of its own
        (:meth:`append_actions`), so one game's duplicate ply or bad value never refuses another game's move.
        At most one write a game (the game's lock is held across its write).

        :returns: for each write in order, ``None`` (stored) or the exception it failed with (:class:`DuplicatePly`,
            or the database's).
        """
        if len(writes) > 1:
            known = {w.game_id: self.known.get(w.game_id) for w in writes}
            try:
                with self.engine.begin() as conn:
                    self._write_moves(conn, writes)
                return [None] * len(writes)
            except Exception:
                # Rolled back: the revisions read inside it are not the database's.
                for game_id, rev in known.items():
                    if rev is None:
                        self.known.pop(game_id, None)
                    else:
                        self.known[game_id] = rev
        outcomes: list[BaseException | None] = []
        for w in writes:
            try:
                self.append_actions(w.game_id, w.rows, **w.values)
            except Exception as e:
                outcomes.append(e)
            else:
                outcomes.append(None)
        return outcomes

    def _write_moves(self, conn: Any, writes: list[ActionWrite]) -> None:
        """Insert the writes' action rows and bump each game with its columns, in the caller's transaction."""
        # Core statements on the Table objects: on this hot path (every move) the ORM's bulk machinery
        # cost several times the write itself.
        now = utcnow()
        conn.execute(
            _INSERT_ACTIONS,
            [
                {"game_id": w.game_id, "ply": p, "notation": n, "side": side, "created_at": now}
                for w in writes
                for p, n, side in w.rows
            ],
        )
        for w in writes:
            self._bump(conn, w.game_id, **w.values)

    def checkpoint(self, rows: list[dict[str, Any]], *, guarded: bool = False) -> None:
        """Bulk-update games: each dict has ``id`` plus the columns to set (the sweeper's clock checkpoints).
        The revision is not bumped (clocks are not news). ``guarded``: write only games whose revision is
        still the one this store knows — an instance must not write clocks of a game another one changed."""
        if not rows:
            return
        if not guarded:
            with self.sessions.begin() as s:
                s.execute(update(GameRow), rows)
            return
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in rows:
            if row["id"] in self.known:
                cols = tuple(sorted(k for k in row if k != "id"))
                groups.setdefault(cols, []).append(
                    {"b_id": row["id"], "b_rev": self.known[row["id"]], **{k: row[k] for k in cols}}
                )
        with self.engine.begin() as conn:
            for cols, params in groups.items():
                stmt = (
                    _GAMES.update()
                    .where(_GAMES.c.id == bindparam("b_id"), _GAMES.c.revision == bindparam("b_rev"))
                    .values({c: bindparam(c) for c in cols})
                )
                conn.execute(stmt, params)

    # -- marker notes (issue 7) ----------------------------------------------------------------------

    def load_notes(self, game_id: str, side: str) -> tuple[int, dict[str, str]]:
        """A seat's notes on enemy markers: ``(ply, {cell: note})``, the cells as they were at version ``ply``
        (``(0, {})`` without notes)."""
        with self.engine.connect() as conn:
            query = select(_NOTES.c.cell, _NOTES.c.note, _NOTES.c.ply)
            rows = conn.execute(query.where(_NOTES.c.game_id == game_id, _NOTES.c.side == side)).all()
        if not rows:
            return 0, {}
        # One write stores every note of a seat at one ply; should rows disagree, the newest ply wins.
        ply = max(r.ply for r in rows)
        return ply, {r.cell: r.note for r in rows if r.ply == ply}

    def replace_notes(self, game_id: str, side: str, ply: int, notes: dict[str, str]) -> None:
        """Replace all of a seat's notes with ``notes`` (cells at version ``ply``), in one transaction; the
        game's revision is bumped so that instances sharing the database drop their copies."""
        with self.engine.begin() as conn:
            conn.execute(_NOTES.delete().where(_NOTES.c.game_id == game_id, _NOTES.c.side == side))
            if notes:
                conn.execute(
                    _NOTES.insert(),
                    [{"game_id": game_id, "side": side, "cell": c, "note": n, "ply": ply} for c, n in notes.items()],
                )
            self._bump(conn, game_id)

    # -- saved setups ----------------------------------------------------------------------------

    def list_setups(self, browser_hash: str, game: str = "admiral", variant: str = "") -> list[SavedSetupRow]:
        """The setups a browser saved for one game and variant of its rules, oldest first."""
        with self.session() as s:
            return list(
                s.scalars(
                    select(SavedSetupRow)
                    .where(
                        SavedSetupRow.browser_hash == browser_hash,
                        SavedSetupRow.game == game,
                        SavedSetupRow.variant == variant,
                    )
                    .order_by(SavedSetupRow.id)
                )
            )

    def count_setups(self, browser_hash: str) -> int:
        """How many setups a browser has saved."""
        with self.session() as s:
            return s.scalar(select(func.count()).where(SavedSetupRow.browser_hash == browser_hash)) or 0

    def add_setup(
        self, browser_hash: str, name: str, setup: dict[str, str], game: str = "admiral", variant: str = ""
    ) -> SavedSetupRow:
        """Save a setup of one game and variant; returns the new row (with its id)."""
        with self.sessions.begin() as s:
            row = SavedSetupRow(browser_hash=browser_hash, name=name, setup=setup, game=game, variant=variant)
            s.add(row)
            s.flush()
            return row

    def delete_setup(self, browser_hash: str, setup_id: int) -> bool:
        """Delete a browser's saved setup; ``False`` if it has none with that id."""
        with self.sessions.begin() as s:
            res = s.execute(
                delete(SavedSetupRow).where(SavedSetupRow.id == setup_id, SavedSetupRow.browser_hash == browser_hash)
            )
            return res.rowcount == 1
