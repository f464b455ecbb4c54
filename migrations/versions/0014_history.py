"""ix_games_over_finished: the history of finished games, newest first («Мои партии», issue 19).

``admiral.store.history.HistoryStore.finished`` lists a commander's games with status ``over`` by
``finished_at DESC, id DESC``. For a commander with few games PostgreSQL starts from the commander's seats
(``ix_game_seats_browser_hash``); for one with thousands it walks this partial index newest first and stops after a
page (measured on 200 000 games, a commander in 10 000 of them: the first page 290 ms → 6 ms).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    over = sa.text("status = 'over'")
    op.create_index(
        "ix_games_over_finished", "games", [sa.text("finished_at DESC"), sa.text("id DESC")],
        postgresql_where=over, sqlite_where=over,
    )  # fmt: skip


def downgrade() -> None:
    op.drop_index("ix_games_over_finished", table_name="games")
