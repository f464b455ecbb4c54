"""The repository of finished games as a commander's history («Мои партии», PROGRESSION.md §4, issue 19).

Same rules as :mod:`.repo`: synchronous, one short transaction per call, detached values returned.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Engine, and_, or_, select
from sqlalchemy.orm import aliased, sessionmaker

from .models import CommanderRow, GameResultRow, GameRow, GameSeatRow, RatedGameRow

__all__ = ["HistoryRow", "HistoryStore"]


class HistoryRow(NamedTuple):
    """One finished game as one of its seats played it.

    ``game_id``; ``game``: the registry's key; ``finished_at``: aware UTC time (``None`` for rows from before
    it was kept); ``ply``: actions in the record (the end action, a resignation or a flag, included);
    ``winner``: ``"south"``/``"north"``, ``None`` for a draw; ``reason``: the game's own end reason code;
    ``settings``: the game's stored settings (``GameSettings.to_dict()``: ``rated``, ``ai_level``…);
    ``side``: the commander's seat; ``opponent_key``: who held the other seat (a commander's key or a bot's
    ``bot:N``; ``None`` if never taken); ``opponent_nickname``: that commander's nickname if registered, else
    ``None``; ``points``: what the commander got (``game_results.points``), ``None`` when nothing was credited
    (a game not credited yet, a game whose crediting failed); ``credit``: that row's changes; ``rating``: the
    commander's rating change by this game (``rated_games.changes[side]``: ``before``, ``after``, ``delta``…),
    ``None`` for a game that moved no rating."""

    game_id: str
    game: str
    finished_at: datetime | None
    ply: int
    winner: str | None
    reason: str | None
    settings: dict[str, Any]
    side: str
    opponent_key: str | None
    opponent_nickname: str | None
    points: int | None
    credit: dict[str, Any] | None
    rating: dict[str, Any] | None = None


class HistoryStore:
    """Finished games of one commander over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def finished(self, key: str, offset: int, limit: int, game: str | None = None) -> list[HistoryRow]:
        """The games (status ``over``; aborted and unfinished ones are not) in which the commander of identity
        ``key`` (``game_seats.browser_hash``) held a seat, newest end first (then by id), ``limit`` of them from
        ``offset``; only those of ``game`` (a registry key) if given. One query: the other seat, the opponent's
        commander row and the commander's ``game_results`` row are joined (no query per game). A commander who
        held both seats of a game gets one line, South's.

        Served by ``ix_game_seats_browser_hash`` (a commander with few games) or the partial index
        ``ix_games_over_finished`` walked newest first (one with many: migration 0014), and the primary keys of
        ``game_seats`` and ``game_results`` and the unique index of ``commanders.key``."""
        mine, other, opponent = aliased(GameSeatRow), aliased(GameSeatRow), aliased(CommanderRow)
        registered = and_(opponent.key == other.browser_hash, opponent.email.is_not(None))
        credited = and_(GameResultRow.game_id == GameRow.id, GameResultRow.side == mine.side)
        # both seats held by the commander: South's line only (the house's first side, admiral.games.SIDES)
        one_line = or_(mine.side == "south", other.browser_hash.is_distinct_from(key))
        query = (
            select(
                GameRow.id, GameRow.game, GameRow.finished_at, GameRow.ply, GameRow.result_winner,
                GameRow.result_reason, GameRow.settings, mine.side, other.browser_hash, opponent.nickname,
                GameResultRow.points, GameResultRow.changes, RatedGameRow.changes,
            )
            .join(mine, mine.game_id == GameRow.id)
            .join(other, and_(other.game_id == GameRow.id, other.side != mine.side))
            .outerjoin(opponent, registered)
            .outerjoin(GameResultRow, credited)
            .outerjoin(RatedGameRow, RatedGameRow.game_id == GameRow.id)
            .where(mine.browser_hash == key, GameRow.status == "over", one_line)
        )  # fmt: skip
        if game is not None:
            query = query.where(GameRow.game == game)
        query = query.order_by(GameRow.finished_at.desc(), GameRow.id.desc())
        with self.sessions() as s:
            rows = s.execute(query.offset(offset).limit(limit)).all()
        return [
            HistoryRow(
                game_id, game_key, finished_at, ply or 0, winner, reason, dict(settings or {}), side, holder, nick,
                points, None if points is None else dict(changes or {}), (rated or {}).get(side),
            )
            for game_id, game_key, finished_at, ply, winner, reason, settings, side, holder, nick, points, changes,
            rated in rows
        ]  # fmt: skip
