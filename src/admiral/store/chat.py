"""The chat of a game's two seats and the commanders' block lists (issue 19; tables ``chat_messages`` and
``chat_blocks``, docs/protocol.md "Storage"). One short transaction per call, as :mod:`.repo`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, func, insert, literal, select
from sqlalchemy.exc import IntegrityError

from .models import ChatBlockRow, ChatMessageRow, GameRow, utcnow

__all__ = ["ChatStore", "chat_message"]

_MESSAGES = ChatMessageRow.__table__
_BLOCKS = ChatBlockRow.__table__
_GAMES = GameRow.__table__


def chat_message(row: Any) -> dict[str, Any]:
    """A stored message as the wire carries it: ``{"id", "side", "kind", "body", "at"}`` (``at``: epoch ms)."""
    created: datetime = row.created_at
    if created.tzinfo is None:  # SQLite hands back the stored UTC time without its zone
        created = created.replace(tzinfo=UTC)
    return {
        "id": row.id,
        "side": row.side,
        "kind": row.kind,
        "body": row.body,
        "at": int(created.timestamp() * 1000),
    }


class ChatStore:
    """Reads and writes of the chat tables over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, game_id: str, side: str, kind: str, body: str, at: datetime | None = None) -> dict[str, Any] | None:
        """Store one message of ``side`` in game ``game_id``, only if the game exists (one ``INSERT … SELECT``: a
        game deleted meanwhile gets no row). Returns the wire form (:func:`chat_message`), ``None`` when there is
        no such game."""
        at = at or utcnow()
        source = select(
            literal(game_id), literal(side), literal(kind), literal(body), literal(at, _MESSAGES.c.created_at.type)
        ).where(_GAMES.c.id == game_id)
        stmt = insert(_MESSAGES).from_select(["game_id", "side", "kind", "body", "created_at"], source)
        with self.engine.begin() as conn:
            try:
                result = conn.execute(stmt.returning(_MESSAGES.c.id))
            except IntegrityError:  # the game went between the SELECT and the INSERT
                return None
            new_id = result.scalar()
        if new_id is None:
            return None
        return {"id": new_id, "side": side, "kind": kind, "body": body, "at": int(at.timestamp() * 1000)}

    def recent(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        """The game's last ``limit`` messages, oldest first, in the wire form."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_MESSAGES).where(_MESSAGES.c.game_id == game_id).order_by(_MESSAGES.c.id.desc()).limit(limit)
            ).all()
        return [chat_message(r) for r in reversed(rows)]

    def tip(self, game_id: str) -> tuple[int, int]:
        """``(count, newest id)`` of the game's messages (``(0, 0)``: none): one indexed read, to tell whether a
        copy of the last ones is behind."""
        query = select(func.count(), func.max(_MESSAGES.c.id)).where(_MESSAGES.c.game_id == game_id)
        with self.engine.connect() as conn:
            count, newest = conn.execute(query).one()
        return count, newest or 0

    def blocked_by(self, blocker_key: str) -> set[str]:
        """The identity keys ``blocker_key`` blocks."""
        with self.engine.connect() as conn:
            query = select(_BLOCKS.c.blocked_key).where(_BLOCKS.c.blocker_key == blocker_key)
            return set(conn.execute(query).scalars())

    def set_block(self, blocker_key: str, blocked_key: str, blocked: bool) -> None:
        """Block (``blocked``) or unblock ``blocked_key`` for ``blocker_key``; idempotent (a second block or an
        unblock of someone not blocked changes nothing)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(_BLOCKS).where(_BLOCKS.c.blocker_key == blocker_key, _BLOCKS.c.blocked_key == blocked_key)
            )
            if blocked:
                conn.execute(
                    insert(_BLOCKS).values(blocker_key=blocker_key, blocked_key=blocked_key, created_at=utcnow())
                )
