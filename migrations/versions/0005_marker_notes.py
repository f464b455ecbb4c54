"""marker_notes: a player's private guesses about enemy markers (issue 7, «playing in comfort»).

One row per noted marker of a seat: the cell the marker stood on at ``ply`` (the game's version when the
notes were last written) and the note (a kind code, ``?``, ``weak`` or ``strong``). The server follows
the markers from ``ply`` to the present through the seat's own view, so a note moves with its marker.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "marker_notes",
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("side", sa.String(8), primary_key=True),
        sa.Column("cell", sa.String(4), primary_key=True),
        sa.Column("note", sa.String(8), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id", "side"],
            ["game_seats.game_id", "game_seats.side"],
            ondelete="CASCADE",
            name="fk_marker_notes_seat",
        ),
    )


def downgrade() -> None:
    op.drop_table("marker_notes")
