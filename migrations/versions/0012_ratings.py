"""Ratings and fair play (issue 19, PROGRESSION.md §2 and §4).

- ``commander_ratings``: a commander's Glicko-2 rating per game of the house (rating, RD, volatility, rated games);
- ``rated_games``: the exactly-once key of a game's rating update, with what each side's rating did;
- ``rating_history``: a commander's rating and RD after each rated game (the profile's chart);
- ``game_seats.browser_key`` / ``game_seats.address_key``: keyed hashes of the browser token and the client address
  a seat was taken from (never the clear values), to find the games §2 leaves unrated (one browser; the same two
  commanders from one address, the 4th game in 24 hours and later). Seats taken before this revision have none.

Downgrade drops the three tables and the two columns: every rating is lost.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.add_column(sa.Column("browser_key", sa.String(32), nullable=True))
        batch.add_column(sa.Column("address_key", sa.String(32), nullable=True))
    op.create_table(
        "commander_ratings",
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_commander_ratings_game_rating", "commander_ratings", ["game", "rating"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_rating_history_commander_game", "rating_history", ["commander_id", "game", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_commander_game", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("ix_commander_ratings_game_rating", table_name="commander_ratings")
    op.drop_table("commander_ratings")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("address_key")
        batch.drop_column("browser_key")
