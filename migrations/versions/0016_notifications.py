"""notify_prefs and turn_mails: e-mail «ваш ход» in correspondence games (issue 19).

``notify_prefs`` holds a registered commander's opt-in (off by default: no row) and the language of the mails;
``turn_mails`` the last mail per seat of a game (its ply and time), which a conditional UPDATE claims so that one
instance sends each mail. Correspondence itself needs no column: ``games.settings`` carries ``days_per_move``.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notify_prefs",
        sa.Column("commander_id", sa.Integer(), sa.ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("turn_mail", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "turn_mails",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(8), primary_key=True),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("mailed_at", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_mails")
    op.drop_table("notify_prefs")
