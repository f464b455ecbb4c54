"""games.game and saved_setups.game/variant: which game of the house a row belongs to (issue 17).

The server hosts several games (``admiral.games.GAMES``). Every game and every saved setup stored before this
revision is «Адмирал»: the server default fills them in. ``saved_setups.variant`` tells setups of one game's rule
sets apart (a classic «Морской бой» fleet is no Hasbro fleet; «Адмирал» has one: ``""``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game", sa.String(32), nullable=False, server_default="admiral"))
        batch.create_index("ix_games_game", ["game"])
    with op.batch_alter_table("saved_setups") as batch:
        batch.add_column(sa.Column("game", sa.String(32), nullable=False, server_default="admiral"))
        batch.add_column(sa.Column("variant", sa.String(32), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("saved_setups") as batch:
        batch.drop_column("variant")
        batch.drop_column("game")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_game")
        batch.drop_column("game")
