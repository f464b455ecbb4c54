"""Friend games: games, game_seats, game_actions, saved_setups.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("invite_sealed", sa.String(64)),
        sa.Column("creator_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True)),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("result_winner", sa.String(8)),
        sa.Column("result_reason", sa.String(16)),
        sa.Column("clock_south_ms", sa.BigInteger()),
        sa.Column("clock_north_ms", sa.BigInteger()),
        sa.Column("clock_running", sa.String(8)),
        sa.Column("clock_started_at", sa.BigInteger()),
        sa.Column("setup_deadline", sa.BigInteger()),
        sa.Column("checkpoint_at", sa.BigInteger()),
        sa.Column("draw_offer", sa.String(8)),
        sa.Column("rematch_id", sa.String(16)),
        sa.Column("rematch_of", sa.String(16)),
    )
    op.create_index("ix_games_invite_hash", "games", ["invite_hash"], unique=True)
    op.create_index("ix_games_creator_hash", "games", ["creator_hash"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(8), primary_key=True),
        sa.Column("browser_hash", sa.String(64)),
        sa.Column("draft", sa.JSON(), nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("auto_declare", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_game_seats_browser_hash", "game_seats", ["browser_hash"])
    op.create_table(
        "game_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("notation", sa.String(80), nullable=False),
        sa.Column("side", sa.String(8)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "ply", name="uq_game_actions_game_ply"),
    )
    op.create_index("ix_game_actions_game_id", "game_actions", ["game_id"])
    op.create_table(
        "saved_setups",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("browser_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_saved_setups_browser_hash", "saved_setups", ["browser_hash"])


def downgrade() -> None:
    op.drop_table("saved_setups")
    op.drop_table("game_actions")
    op.drop_table("game_seats")
    op.drop_table("games")
