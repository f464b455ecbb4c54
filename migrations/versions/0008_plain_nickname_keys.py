"""Nickname keys without diacritics and small capitals (issue 16, QA): «BOPAXḰ», «BOPAXḲ» and «ʙᴏᴘᴀxᴋ»
registered beside «BOPAXK».

``admiral.service.nicknames.nickname_keys`` now computes the three keys of a nickname's ``plain`` form (no
diacritics on letters that have case, small capitals as the capitals they show), so every registered
commander's keys are recomputed by migration 0006's :func:`recompute`, with its rule: earliest registered
first, and a key an earlier commander holds already is stored as ``key#<id>``. A nickname that only now
collides with an earlier one (a twin registered before this fix, or «Андреи» beside «Андрей») keeps its
nickname, profile and games; logging in by that nickname finds the earlier commander, so it logs in by e-mail.

Downgrade: the keys by skeleton alone (``skeleton_keys``, what revisions 0006 and 0007 computed).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-15
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from alembic import context, op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _recompute(keys: Callable[[str], Sequence[str]]) -> None:
    """Migration 0006's ``recompute`` of every commander's three nickname keys with ``keys``."""
    previous = context.script.get_revision("0006").module  # Alembic loaded it: its code, not a copy
    previous.recompute(op.get_bind(), keys, previous.KEY_COLUMNS)


def upgrade() -> None:
    from admiral.service.nicknames import nickname_keys

    _recompute(nickname_keys)


def downgrade() -> None:
    from admiral.service.nicknames import skeleton_keys

    _recompute(skeleton_keys)
