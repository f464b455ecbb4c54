"""The repository: every database read and write of the service, one short transaction each.

Methods are synchronous (SQLAlchemy 2.0 ``Session``); each opens and commits its own session, so
no transaction outlives a call. Returned rows are detached (``expire_on_commit=False``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .models import GameActionRow, GameRow, GameSeatRow, SavedSetupRow, utcnow

__all__ = ["ACTIVE", "DuplicatePly", "LoadedGame", "Store"]

#: Statuses of a game that is not finished.
ACTIVE = ("waiting", "setup", "play")


class DuplicatePly(Exception):
    """An action row for this ``(game_id, ply)`` exists already: the action was applied before."""


@dataclass
class LoadedGame:
    """A game as stored: its row, its two seats (``"south"``/``"north"`` → row) and its actions in ply order."""

    game: GameRow
    seats: dict[str, GameSeatRow]
    actions: list[GameActionRow]


_GAMES = GameRow.__table__
_SEATS = GameSeatRow.__table__
_ACTIONS = GameActionRow.__table__


class Store:
    """Database access for games and saved setups over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new session (use as a context manager)."""
        return self.sessions()

    # -- games ---------------------------------------------------------------------------------

    def create_game(self, game: GameRow, seats: Iterable[GameSeatRow]) -> None:
        """Insert a game with its seats in one transaction."""
        with self.sessions.begin() as s:
            s.add(game)
            s.flush()
            s.add_all(seats)

    def load_game(self, game_id: str) -> LoadedGame | None:
        """The stored game, its seats and actions; ``None`` if there is no such game."""
        with self.session() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return None
            seats = {r.side: r for r in s.scalars(select(GameSeatRow).where(GameSeatRow.game_id == game_id))}
            actions = list(
                s.scalars(select(GameActionRow).where(GameActionRow.game_id == game_id).order_by(GameActionRow.ply))
            )
            return LoadedGame(game, seats, actions)

    def game_id_by_invite(self, invite_hash: str) -> str | None:
        """The id of the game whose invite code hashes to ``invite_hash``."""
        with self.session() as s:
            return s.scalar(select(GameRow.id).where(GameRow.invite_hash == invite_hash))

    def active_game_ids(self) -> list[str]:
        """Ids of every game not finished (waiting, setup, play)."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status.in_(ACTIVE))))

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

    def expire_waiting(self, created_before: datetime, finished_at: datetime) -> list[str]:
        """Abort every game still ``waiting`` (invite not accepted) created before ``created_before``: one
        ``UPDATE … RETURNING``. :returns: the ids of the games aborted."""
        with self.engine.begin() as conn:
            res = conn.execute(
                _GAMES.update()
                .where(_GAMES.c.status == "waiting", _GAMES.c.created_at < created_before)
                .values(status="aborted", finished_at=finished_at)
                .returning(_GAMES.c.id)
            )
            return [r[0] for r in res]

    def claim_seat(self, game_id: str, side: str, browser_hash: str) -> bool:
        """Atomically bind the free seat ``side`` to ``browser_hash`` (``UPDATE … WHERE browser_hash IS NULL``).

        :returns: ``True`` for the one caller that won the seat, ``False`` if it was taken.
        """
        with self.sessions.begin() as s:
            res = s.execute(
                update(GameSeatRow)
                .where(GameSeatRow.game_id == game_id, GameSeatRow.side == side, GameSeatRow.browser_hash.is_(None))
                .values(browser_hash=browser_hash, joined_at=utcnow())
            )
            return res.rowcount == 1

    def update_game(self, game_id: str, **values: Any) -> None:
        """Set columns of one game."""
        with self.engine.begin() as conn:
            conn.execute(_GAMES.update().where(_GAMES.c.id == game_id).values(**values))

    def update_seat(self, game_id: str, side: str, **values: Any) -> None:
        """Set columns of one seat."""
        with self.engine.begin() as conn:
            conn.execute(_SEATS.update().where(_SEATS.c.game_id == game_id, _SEATS.c.side == side).values(**values))

    def append_actions(self, game_id: str, rows: list[tuple[int, str, str | None]], **game_values: Any) -> None:
        """Append action rows ``(ply, notation, side)`` and set columns of the game, in one transaction.

        :raises DuplicatePly: if a row for one of these plies exists (nothing is written then).
        """
        # Core statements on the Table objects: on this hot path (every move) the ORM's bulk machinery
        # cost several times the write itself.
        now = utcnow()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    _ACTIONS.insert(),
                    [
                        {"game_id": game_id, "ply": p, "notation": n, "side": side, "created_at": now}
                        for p, n, side in rows
                    ],
                )
                if game_values:
                    conn.execute(_GAMES.update().where(_GAMES.c.id == game_id).values(**game_values))
        except IntegrityError as e:
            raise DuplicatePly(str(e)) from None

    def checkpoint(self, rows: list[dict[str, Any]]) -> None:
        """Bulk-update games: each dict has ``id`` plus the columns to set (the sweeper's clock checkpoints)."""
        if not rows:
            return
        with self.sessions.begin() as s:
            s.execute(update(GameRow), rows)

    # -- saved setups ----------------------------------------------------------------------------

    def list_setups(self, browser_hash: str) -> list[SavedSetupRow]:
        """The setups saved by a browser, oldest first."""
        with self.session() as s:
            return list(
                s.scalars(
                    select(SavedSetupRow).where(SavedSetupRow.browser_hash == browser_hash).order_by(SavedSetupRow.id)
                )
            )

    def count_setups(self, browser_hash: str) -> int:
        """How many setups a browser has saved."""
        with self.session() as s:
            return s.scalar(select(func.count()).where(SavedSetupRow.browser_hash == browser_hash)) or 0

    def add_setup(self, browser_hash: str, name: str, setup: dict[str, str]) -> SavedSetupRow:
        """Save a setup; returns the new row (with its id)."""
        with self.sessions.begin() as s:
            row = SavedSetupRow(browser_hash=browser_hash, name=name, setup=setup)
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
