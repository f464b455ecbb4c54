"""tutorial_progress: how far each commander got in each lesson of «Обучение» (issue 7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tutorial_progress",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("slug", sa.String(32), primary_key=True),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("done_at", TZ),
        sa.Column("updated_at", TZ, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tutorial_progress")
