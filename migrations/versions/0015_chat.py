"""Chat in a game between its two players (issue 19): ``chat_messages`` (one row a message: game, seat side, kind
``phrase``/``text``, body, time) and ``chat_blocks`` (a commander's list of commanders whose messages they no longer
see, kept across games).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_table(
        "chat_blocks",
        sa.Column("blocker_key", sa.String(64), primary_key=True),
        sa.Column("blocked_key", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_blocks")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")
