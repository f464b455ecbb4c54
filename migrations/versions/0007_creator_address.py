"""games.creator_address: a keyed hash of the creator's client address (issue 16).

Games against the AI are limited per commander and, since this revision, per client address too: fresh cookies
no longer give unlimited level-5 games. The address itself is never stored, only an HMAC of it under the
server's secret key (``GameService.address_key``); games created before this revision have none and count
for nobody's address.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator_address", sa.String(32), nullable=True))
        batch.create_index("ix_games_creator_address", ["creator_address"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_creator_address")
        batch.drop_column("creator_address")
