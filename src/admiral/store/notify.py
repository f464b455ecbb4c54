"""The repository of turn notifications by e-mail (issue 19): a commander's opt-in (``notify_prefs``) and the last
mail per seat of a game (``turn_mails``), claimed by a conditional ``UPDATE`` so that one instance sends each mail.

Same rules as :mod:`.repo`: synchronous, one short transaction per call.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from sqlalchemy import Engine, and_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from .models import CommanderRow, GameRow, NotifyPrefRow, TurnMailRow, utcnow

__all__ = ["MailTarget", "NotifyStore"]


class MailTarget(NamedTuple):
    """Who gets a «ваш ход» mail: the commander's ``id``, ``email``, ``nickname`` and mail language ``lang``."""

    id: int
    email: str
    nickname: str | None
    lang: str | None


class NotifyStore:
    """Database access for turn mails over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def turn_mail_on(self, commander_id: int) -> bool:
        """Whether the commander asked for «ваш ход» mails (``False`` without a row)."""
        with self.sessions() as s:
            row = s.get(NotifyPrefRow, commander_id)
            return bool(row is not None and row.turn_mail)

    def set_turn_mail(self, commander_id: int, on: bool, lang: str | None = None) -> None:
        """Switch the commander's «ваш ход» mails on or off; ``lang`` (when given) becomes their language."""
        for _ in range(2):  # a concurrent first insert of the same row: then update it
            try:
                with self.sessions.begin() as s:
                    row = s.get(NotifyPrefRow, commander_id, with_for_update=True)
                    if row is None:
                        row = NotifyPrefRow(commander_id=commander_id)
                        s.add(row)
                    row.turn_mail = on
                    row.updated_at = utcnow()
                    if lang:
                        row.lang = lang
                return
            except IntegrityError:
                continue

    def mail_targets(self, keys: Collection[str]) -> dict[str, MailTarget]:
        """Of the identity ``keys``, those of registered commanders with an e-mail who asked for «ваш ход» mails:
        key → :class:`MailTarget`. One query however many keys (the sweeper asks for all its candidates at once)."""
        if not keys:
            return {}
        with self.sessions() as s:
            rows = s.execute(
                select(CommanderRow.key, CommanderRow.id, CommanderRow.email, CommanderRow.nickname, NotifyPrefRow.lang)
                .join(NotifyPrefRow, NotifyPrefRow.commander_id == CommanderRow.id)
                .where(CommanderRow.key.in_(list(keys)), CommanderRow.email.is_not(None))
                .where(NotifyPrefRow.turn_mail.is_(True))
            )
            return {r[0]: MailTarget(r[1], r[2], r[3], r[4]) for r in rows}

    def claim_turn_mail(self, game_id: str, side: str, now_ms: int, gap_ms: int) -> int | None:
        """Claim the «ваш ход» mail to ``side`` of ``game_id``: exactly one caller (on any instance) gets the game's
        ply back, and only while the game is in play with ``side``'s clock running, at a ply later than the last
        mail to that seat, and at least ``gap_ms`` after it (epoch ms ``now_ms``). Otherwise ``None``.

        One conditional ``UPDATE … RETURNING`` decides, reading the game's stored state (never a cached copy)."""
        with self.sessions() as s:
            missing = s.get(TurnMailRow, (game_id, side)) is None
        if missing:
            try:
                with self.sessions.begin() as s:
                    s.add(TurnMailRow(game_id=game_id, side=side, ply=-1, mailed_at=0))
            except IntegrityError:  # another instance made it first (or the game is gone: then nothing matches)
                pass
        current = (
            select(GameRow.ply)
            .where(GameRow.id == game_id, GameRow.status == "play", GameRow.clock_running == side)
            .scalar_subquery()
        )
        t = TurnMailRow.__table__
        with self.engine.begin() as conn:
            got = conn.execute(
                update(t)
                .where(and_(t.c.game_id == game_id, t.c.side == side, t.c.ply < current))
                .where(t.c.mailed_at <= now_ms - gap_ms)
                .values(ply=current, mailed_at=now_ms)
                .returning(t.c.ply)
            ).first()
            return None if got is None else int(got[0])
