"""Open challenges and quick pairing (issue 19): ``games.listed``, ``games.creator_seen_at``, ``lobby_seeks``.

An open challenge is a waiting game listed in the lobby; ``creator_seen_at`` (epoch ms) is renewed while its creator
has a socket open, and a listed game whose creator is gone is aborted. ``lobby_seeks`` is the quick-pairing pool,
shared by the instances. Existing games are not listed.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("creator_seen_at", sa.BigInteger(), nullable=True))
        batch.create_index("ix_games_listed", ["listed"])
    op.create_table(
        "lobby_seeks",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("time_control", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.BigInteger(), nullable=False),
        sa.Column("seen_at", sa.BigInteger(), nullable=False),
        sa.Column("browser_key", sa.String(32), nullable=True),
        sa.Column("address_key", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lobby_seeks")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_listed")
        batch.drop_column("creator_seen_at")
        batch.drop_column("listed")
