"""Commanders: accounts, sessions, password recovery, per-game results, feedback (issue 5).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "commanders",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("email", sa.String(254)),
        sa.Column("nickname", sa.String(24)),
        sa.Column("nickname_key", sa.String(96)),
        sa.Column("password_hash", sa.String(255)),
        sa.Column("points", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("career", sa.JSON(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("registered_at", TZ),
    )
    op.create_index("ix_commanders_key", "commanders", ["key"], unique=True)
    op.create_index("ix_commanders_email", "commanders", ["email"], unique=True)
    op.create_index("ix_commanders_nickname_key", "commanders", ["nickname_key"], unique=True)
    op.create_index("ix_commanders_points", "commanders", ["points"])
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_index("ix_sessions_commander_id", "sessions", ["commander_id"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
        sa.Column("used_at", TZ),
    )
    op.create_index("ix_password_resets_commander_id", "password_resets", ["commander_id"])
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(8), primary_key=True),
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_game_results_commander_id", "game_results", ["commander_id"])
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="SET NULL")),
        sa.Column("contact", sa.String(254)),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )


def downgrade() -> None:
    for table in ("feedback", "game_results", "password_resets", "sessions", "commanders"):
        op.drop_table(table)
