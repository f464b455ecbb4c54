"""games.start_settings: what the seats brought when play started (issue 20: the commanders' levels in «Морской бой:
расширенный», D11), merged into the settings the game is built from, so that a reload or another instance rebuilds
the very same game even after a commander's career changed. Nullable: ``None`` before play and for every game
without the capability ``start_settings`` (every game stored before).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("start_settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("start_settings")
