"""Nickname keys by confusable skeleton (issue 16): «ВОРАХК» beside «BOPAXK» was a second commander.

``commanders.nickname_key`` was the case-folded nickname. Now a nickname has three uniqueness keys, each
unique (``admiral.service.nicknames``: how it looks in lower case — still ``nickname_key``, the key that
finds an account by nickname —, in capitals — ``nickname_key_upper`` — and as typed —
``nickname_key_typed``). The columns grow from 96 to 192 characters: a skeleton is longer than its
nickname (up to 7 code points for one character).

Every registered commander's keys are recomputed, in order of registration (``registered_at``, then
``id``). Commanders registered before this fix may now collide (twins, or nicknames a skeleton merges such
as «mike» and «rnike»): the earlier registered keeps its keys as computed; a later one gets, for each key
that is taken already, that key suffixed with ``#<its id>`` — no nickname's key contains ``#`` (nicknames
are letters, digits, ``_``, ``-`` and spaces, and no skeleton of those has one), so the suffixed key
collides with nothing and the migration never fails on a collision. Such a later commander keeps its
nickname, profile and games; if its ``nickname_key`` was the suffixed one, logging in by nickname (and
``/c/{nickname}``) finds the earlier commander, so it logs in by e-mail. Nobody new can take a nickname
that collides with either.

The keys are those of ``admiral.service.nicknames`` as it is when this migration runs (ICU's confusables
data): a later change of that function or of ICU's data needs a migration that recomputes them again
(:func:`recompute` takes the key function).

Downgrade: back to the case-folded nickname in ``nickname_key`` (unique again: nicknames equal after
case-folding have equal skeleton keys, so no two registered commanders share one), the two new columns
dropped.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-14
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY_LENGTH = 192
KEY_COLUMNS = ("nickname_key", "nickname_key_upper", "nickname_key_typed")

commanders = sa.table(
    "commanders",
    sa.column("id", sa.Integer()),
    sa.column("nickname", sa.String()),
    sa.column("registered_at", sa.DateTime(timezone=True)),
    *(sa.column(name, sa.String()) for name in KEY_COLUMNS),
)


def recompute(conn: sa.Connection, keys: Callable[[str], Sequence[str]], columns: Sequence[str]) -> int:
    """Set ``columns`` of every commander with a nickname to ``keys(nickname)`` (one value per column),
    earliest registered first; a key an earlier commander holds already is stored as ``key#<id>``.
    The columns are cleared first, so no old key stands in the way of a new one.

    :returns: how many keys got the suffix.
    """
    rows = conn.execute(
        sa.select(commanders.c.id, commanders.c.nickname, commanders.c.registered_at).where(
            commanders.c.nickname.is_not(None)
        )
    ).all()
    rows.sort(key=lambda r: (r.registered_at is None, _naive(r.registered_at), r.id))
    conn.execute(
        sa.update(commanders).where(commanders.c.nickname.is_not(None)).values({name: None for name in columns})
    )
    taken: list[set[str]] = [set() for _ in columns]
    suffixed = 0
    for row in rows:
        values = {}
        for name, seen, key in zip(columns, taken, keys(row.nickname), strict=True):
            if key in seen:
                key, suffixed = f"{key}#{row.id}", suffixed + 1
            seen.add(key)
            values[name] = key
        conn.execute(sa.update(commanders).where(commanders.c.id == row.id).values(values))
    return suffixed


def _naive(moment: datetime | None) -> datetime:
    """A registration time comparable with any other: naive UTC (SQLite gives naive UTC, PostgreSQL aware)."""
    if moment is None:
        return datetime.min
    return moment if moment.tzinfo is None else moment.astimezone(UTC).replace(tzinfo=None)


def upgrade() -> None:
    from admiral.service.nicknames import KEY_LENGTH as SERVICE_KEY_LENGTH
    from admiral.service.nicknames import nickname_keys

    assert SERVICE_KEY_LENGTH == KEY_LENGTH
    with op.batch_alter_table("commanders") as batch:
        batch.alter_column("nickname_key", existing_type=sa.String(96), type_=sa.String(KEY_LENGTH))
        batch.add_column(sa.Column("nickname_key_upper", sa.String(KEY_LENGTH)))
        batch.add_column(sa.Column("nickname_key_typed", sa.String(KEY_LENGTH)))
    op.create_index("ix_commanders_nickname_key_upper", "commanders", ["nickname_key_upper"], unique=True)
    op.create_index("ix_commanders_nickname_key_typed", "commanders", ["nickname_key_typed"], unique=True)
    recompute(op.get_bind(), nickname_keys, KEY_COLUMNS)


def downgrade() -> None:
    op.drop_index("ix_commanders_nickname_key_typed", "commanders")
    op.drop_index("ix_commanders_nickname_key_upper", "commanders")
    recompute(op.get_bind(), lambda nickname: (nickname.casefold(),), ("nickname_key",))
    with op.batch_alter_table("commanders") as batch:
        batch.drop_column("nickname_key_typed")
        batch.drop_column("nickname_key_upper")
        batch.alter_column("nickname_key", existing_type=sa.String(KEY_LENGTH), type_=sa.String(96))
