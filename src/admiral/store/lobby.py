"""The lobby's reads and writes (issue 19, docs/protocol.md "Lobby"): the open challenges (listed waiting games),
their creators' last-seen times, the games in play for «Сейчас играют», and the quick-pairing pool
(``lobby_seeks``). One short transaction per call, as :class:`~admiral.store.repo.Store`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, delete, func, or_, select, update
from sqlalchemy.orm import aliased, sessionmaker

from .models import GameRow, GameSeatRow, LobbySeekRow

__all__ = ["LiveRow", "LobbyStore"]


@dataclass
class LiveRow:
    """A game in play as «Сейчас играют» lists it: its row and the holders of its seats (side → identity key)."""

    game: GameRow
    holders: dict[str, str | None]


class LobbyStore:
    """Database access of the lobby over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- open challenges ------------------------------------------------------------------------

    def listed(self, limit: int = 500) -> list[GameRow]:
        """The open challenges: listed games still waiting, oldest first (at most ``limit``)."""
        with self.sessions() as s:
            query = (
                select(GameRow)
                .where(GameRow.listed.is_(True), GameRow.status == "waiting")
                .order_by(GameRow.created_at, GameRow.id)
                .limit(limit)
            )
            return list(s.scalars(query))

    def is_listed(self, game_id: str) -> bool:
        """Whether ``game_id`` is an open challenge (listed and waiting)."""
        with self.sessions() as s:
            row = s.execute(select(GameRow.listed, GameRow.status).where(GameRow.id == game_id)).first()
            return bool(row and row.listed and row.status == "waiting")

    def open_challenges_of(self, key: str) -> int:
        """How many open challenges ``key`` has made."""
        with self.sessions() as s:
            query = select(func.count()).where(
                GameRow.creator_hash == key, GameRow.listed.is_(True), GameRow.status == "waiting"
            )
            return s.scalar(query) or 0

    def touch_creators(self, keys: Iterable[str], now_ms: int) -> int:
        """Renew ``creator_seen_at`` (epoch ms) of the open challenges of ``keys``; how many rows."""
        keys = set(keys)
        if not keys:
            return 0
        with self.sessions.begin() as s:
            result = s.execute(
                update(GameRow)
                .where(GameRow.listed.is_(True), GameRow.status == "waiting", GameRow.creator_hash.in_(keys))
                .values(creator_seen_at=now_ms)
            )
            return result.rowcount or 0

    def abandon(self, seen_before_ms: int, finished_at: datetime) -> list[str]:
        """Abort the open challenges whose creator was last seen before ``seen_before_ms`` (epoch ms), in one
        conditional ``UPDATE`` (a game taken meanwhile is no longer ``waiting`` and stays as it is); their ids."""
        cond = and_(GameRow.listed.is_(True), GameRow.status == "waiting", GameRow.creator_seen_at < seen_before_ms)
        with self.sessions.begin() as s:
            ids = list(s.scalars(select(GameRow.id).where(cond)))
            if not ids:
                return []
            s.execute(
                update(GameRow)
                .where(GameRow.id.in_(ids), cond)
                .values(status="aborted", finished_at=finished_at, revision=GameRow.revision + 1)
            )
            return ids

    def withdraw(self, keys: Iterable[str], keep: str | None, finished_at: datetime) -> list[str]:
        """Abort the open challenges made by ``keys`` but ``keep`` (their creator entered a game through the
        lobby), in one conditional ``UPDATE`` (one taken meanwhile is no longer ``waiting`` and stays); their ids."""
        keys = set(keys)
        if not keys:
            return []
        cond = and_(GameRow.listed.is_(True), GameRow.status == "waiting", GameRow.creator_hash.in_(keys))
        if keep is not None:
            cond = and_(cond, GameRow.id != keep)
        with self.sessions.begin() as s:
            ids = list(s.scalars(select(GameRow.id).where(cond)))
            if not ids:
                return []
            s.execute(
                update(GameRow)
                .where(GameRow.id.in_(ids), cond)
                .values(status="aborted", finished_at=finished_at, revision=GameRow.revision + 1)
            )
            return ids

    def entered_since(self, key: str, since: datetime) -> str | None:
        """A game being set up or played in which ``key`` holds a seat and that its players entered since
        ``since`` (made then, or a seat claimed then), if any (the id): a lobby game just entered."""
        fresh = select(GameSeatRow.game_id).where(GameSeatRow.joined_at >= since)
        with self.sessions() as s:
            return s.scalar(
                select(GameRow.id)
                .join(GameSeatRow, GameSeatRow.game_id == GameRow.id)
                .where(GameSeatRow.browser_hash == key, GameRow.status.in_(("setup", "play")))
                .where(or_(GameRow.created_at >= since, GameRow.id.in_(fresh)))
                .limit(1)
            )

    # -- «Сейчас играют» --------------------------------------------------------------------------

    def live_games(self, limit: int = 20) -> list[LiveRow]:
        """Games in play (status ``play``), the most recently started first, at most ``limit``, with their seats."""
        south, north = aliased(GameSeatRow), aliased(GameSeatRow)
        with self.sessions() as s:
            rows = s.execute(
                select(GameRow, south.browser_hash, north.browser_hash)
                .join(south, and_(south.game_id == GameRow.id, south.side == "south"))
                .join(north, and_(north.game_id == GameRow.id, north.side == "north"))
                .where(GameRow.status == "play")
                .order_by(GameRow.started_at.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [LiveRow(game, {"south": s_key, "north": n_key}) for game, s_key, n_key in rows]

    # -- quick pairing ----------------------------------------------------------------------------

    def put_seek(self, **values: Any) -> None:
        """Insert or replace the seek of ``values["key"]`` (columns of :class:`LobbySeekRow`)."""
        with self.sessions.begin() as s:
            s.execute(delete(LobbySeekRow).where(LobbySeekRow.key == values["key"]))
            s.add(LobbySeekRow(**values))

    def drop_seeks(self, keys: Iterable[str]) -> int:
        """Delete the seeks of ``keys``; how many there were (a conditional delete: two instances pairing the
        same seek cannot both take it)."""
        keys = set(keys)
        if not keys:
            return 0
        with self.sessions.begin() as s:
            return s.execute(delete(LobbySeekRow).where(LobbySeekRow.key.in_(keys))).rowcount or 0

    def seeks(self) -> list[LobbySeekRow]:
        """The whole pool, oldest first."""
        with self.sessions() as s:
            return list(s.scalars(select(LobbySeekRow).order_by(LobbySeekRow.joined_at, LobbySeekRow.key)))

    def seek_of(self, key: str) -> LobbySeekRow | None:
        """The seek of ``key`` in the pool, if any."""
        with self.sessions() as s:
            return s.get(LobbySeekRow, key)

    def touch_seeks(self, keys: Iterable[str], now_ms: int) -> None:
        """Renew ``seen_at`` (epoch ms) of the seeks of ``keys``."""
        keys = set(keys)
        if keys:
            with self.sessions.begin() as s:
                s.execute(update(LobbySeekRow).where(LobbySeekRow.key.in_(keys)).values(seen_at=now_ms))

    def drop_stale_seeks(self, seen_before_ms: int) -> int:
        """Delete the seeks not seen since ``seen_before_ms`` (their instance died); how many."""
        with self.sessions.begin() as s:
            return s.execute(delete(LobbySeekRow).where(LobbySeekRow.seen_at < seen_before_ms)).rowcount or 0
