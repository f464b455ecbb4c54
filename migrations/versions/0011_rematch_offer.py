"""games.rematch_offer: a rematch is an offer the other player accepts or declines (issue 18).

Until now «Реванш» made the new game at once, with both seats bound, and took the opponent there; now the first
seat's request is stored as the side that offered it (like ``draw_offer``) until the other seat accepts (the new
game is made then), declines or the offerer cancels. Games finished before this revision have no offer.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch_offer", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_offer")
