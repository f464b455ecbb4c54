"""commander_games: a commander's career per game of the house (issue 17, docs/points.md).

Until now a commander had one career, «Адмирал»'s, in ``commanders.career``, and ``commanders.points`` was its
points. «Морской бой» counts too now: ``commanders.points`` stays the one total over every game (it decides the
rank), and each game a commander has played gets a ``commander_games`` row — counted games, wins, draws, losses, the
points earned in that game and the game's own career (JSON, only the game reads it). The leaderboard of one game
sorts by ``(game, points)``.

Upgrade moves every ``commanders.career`` that counted a game into an ``admiral`` row (its totals copied from the
career: ``games_played``, ``games_won``, ``games_drawn``, ``games_lost``, ``points``), then drops the column.
Downgrade puts the ``admiral`` rows' careers back (``{}`` for the others) and drops the table: what other games
earned is lost, and ``commanders.points`` keeps them until the commander's next «Адмирал» game sets it to the
career's points again.

Stop every instance of the previous version before upgrading: it reads ``commanders.career``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-20
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)
#: The tables as this revision sees them (not the models: they move on).
_COMMANDERS = sa.table("commanders", sa.column("id", sa.Integer()), sa.column("career", sa.JSON()))
_GAMES = sa.table(
    "commander_games", sa.column("commander_id", sa.Integer()), sa.column("game", sa.String()),
    sa.column("games", sa.Integer()), sa.column("wins", sa.Integer()), sa.column("draws", sa.Integer()),
    sa.column("losses", sa.Integer()), sa.column("points", sa.Integer()), sa.column("career", sa.JSON()),
    sa.column("updated_at", TZ),
)  # fmt: skip
_BATCH = 500


def _int(career: dict, name: str) -> int:
    value = career.get(name, 0)
    return value if type(value) is int and value >= 0 else 0


def upgrade() -> None:
    op.create_table(
        "commander_games",
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("career", sa.JSON(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_commander_games_game_points", "commander_games", ["game", "points"])
    conn = op.get_bind()
    now = datetime.now(UTC)
    rows = []
    for cid, career in conn.execute(sa.select(_COMMANDERS.c.id, _COMMANDERS.c.career).order_by(_COMMANDERS.c.id)):
        if not isinstance(career, dict) or _int(career, "games_played") == 0:
            continue  # no counted game: nothing to keep
        rows.append({
            "commander_id": cid, "game": "admiral", "games": _int(career, "games_played"),
            "wins": _int(career, "games_won"), "draws": _int(career, "games_drawn"),
            "losses": _int(career, "games_lost"), "points": _int(career, "points"), "career": career,
            "updated_at": now,
        })  # fmt: skip
        if len(rows) >= _BATCH:
            conn.execute(sa.insert(_GAMES), rows)
            rows = []
    if rows:
        conn.execute(sa.insert(_GAMES), rows)
    # Not in batch mode: on SQLite that copies ``commanders`` and drops the old table, and with foreign keys on the
    # drop deletes every row that cascades from a commander (sessions, results, these careers). SQLite ≥ 3.35 drops
    # a plain column in place.
    op.drop_column("commanders", "career")


def downgrade() -> None:
    # In place, with a default for the rows there are (no batch mode: see upgrade); PostgreSQL then drops the
    # default, SQLite cannot without copying the table and keeps it (the models always send a value).
    op.add_column("commanders", sa.Column("career", sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
    conn = op.get_bind()
    careers = conn.execute(
        sa.select(_GAMES.c.commander_id, _GAMES.c.career).where(_GAMES.c.game == "admiral")
    ).all()  # fmt: skip
    for cid, career in careers:
        conn.execute(sa.update(_COMMANDERS).where(_COMMANDERS.c.id == cid).values(career=career))
    if conn.dialect.name != "sqlite":
        op.alter_column("commanders", "career", existing_type=sa.JSON(), server_default=None)
    op.drop_index("ix_commander_games_game_points", table_name="commander_games")
    op.drop_table("commander_games")
