"""SQLAlchemy 2.0 models: games, seats, the append-only action log, saved setups (docs/protocol.md "Storage").

Times the clocks depend on are integers in milliseconds since the Unix epoch (``*_at`` ``BigInteger``
columns): exact, portable between SQLite and PostgreSQL, free of time-zone handling.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Base", "ChatBlockRow", "ChatMessageRow", "CommanderGameRow", "CommanderRatingRow", "CommanderRow", "FeedbackRow",
    "GameActionRow", "GameResultRow", "GameRow", "GameSeatRow", "LobbySeekRow", "MarkerNoteRow", "NotifyPrefRow",
    "PasswordResetRow", "RatedGameRow", "RatingHistoryRow", "SavedSetupRow", "SessionRow", "TurnMailRow",
    "TutorialProgressRow", "utcnow",
]  # fmt: skip


def utcnow() -> datetime:
    """The current time, UTC, aware."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class GameRow(Base):
    """One friend game. ``status``: ``waiting`` (friend not joined), ``setup``, ``play``, ``over``, ``aborted``.

    Clocks: ``clock_south_ms``/``clock_north_ms`` remaining (``None``: no time limit), ``clock_running``
    the side whose clock runs, ``clock_started_at`` the wall time (epoch ms) it last started or was
    checkpointed. ``invite_sealed``: the invite code XOR a key derived from the secret key (so the creator's
    page can show the link again after a restart; the database alone cannot take the seat).
    ``setup_deadline`` (epoch ms) ends the setup phase; ``checkpoint_at`` (epoch ms) is the last moment
    the server vouched for this game, so time the server was down is charged to nobody.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    invite_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    invite_sealed: Mapped[str | None] = mapped_column(String(64))
    creator_hash: Mapped[str] = mapped_column(String(64), index=True)
    #: A keyed hash of the creator's client address (never the address itself), to count games against the AI
    #: per address; ``None`` for games created before it was kept.
    creator_address: Mapped[str | None] = mapped_column(String(32), index=True)
    #: The game of the house (``admiral.games.GAMES`` key); rows from before the registry are «Адмирал».
    game: Mapped[str] = mapped_column(String(32), index=True, default="admiral", server_default="admiral")
    status: Mapped[str] = mapped_column(String(16), index=True, default="waiting")
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger, default=0)
    #: What the seats brought when play started (capability ``"start_settings"``: their levels), merged into the
    #: settings the game is built from; ``None`` before play or for a game without the capability.
    start_settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ply: Mapped[int] = mapped_column(Integer, default=0)
    result_winner: Mapped[str | None] = mapped_column(String(8))
    result_reason: Mapped[str | None] = mapped_column(String(16))
    clock_south_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_north_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_running: Mapped[str | None] = mapped_column(String(8))
    clock_started_at: Mapped[int | None] = mapped_column(BigInteger)
    setup_deadline: Mapped[int | None] = mapped_column(BigInteger)
    checkpoint_at: Mapped[int | None] = mapped_column(BigInteger)
    draw_offer: Mapped[str | None] = mapped_column(String(8))
    rematch_id: Mapped[str | None] = mapped_column(String(16))
    #: The side that offered a rematch after the end, until the other answers (issue 18).
    rematch_offer: Mapped[str | None] = mapped_column(String(8))
    rematch_of: Mapped[str | None] = mapped_column(String(16))
    #: Bumped by every write of the game or its seats (not by clock checkpoints): instances sharing the
    #: database compare it with the revision they cached.
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: An open challenge («Вызовы», issue 19): a waiting game listed in the lobby, which anyone may accept (its free
    #: seat is claimed); ``False`` for a game with a friend by invite link.
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0", index=True)
    #: Epoch ms an instance last saw a socket of a listed game's creator (the lobby's or the game page's): the
    #: lobby's sweep aborts a listed game whose creator has not been seen for ``LobbyRoom.CREATOR_GONE_MS``.
    creator_seen_at: Mapped[int | None] = mapped_column(BigInteger)


class LobbySeekRow(Base):
    """A commander waiting in the quick-pairing pool (issue 19; docs/protocol.md "Lobby"): one per identity ``key``
    (a new seek replaces the old), for ``game``, ``time_control`` (a :data:`~admiral.service.lobby.TIME_CONTROLS`
    name) and ``rated``; ``rating`` as it was when they joined (1500 for a guest); ``joined_at`` (epoch ms) widens
    their rating window; ``seen_at`` (epoch ms) is renewed while a lobby socket of theirs is open on some instance,
    and a seek not seen for 20 s is dropped. ``browser_key``/``address_key``: the seeker's keyed marks, given to the
    seat the pairing makes (PROGRESSION.md §2's unrated games)."""

    __tablename__ = "lobby_seeks"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    time_control: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[int] = mapped_column(Integer, default=1500)
    joined_at: Mapped[int] = mapped_column(BigInteger)
    seen_at: Mapped[int] = mapped_column(BigInteger)
    browser_key: Mapped[str | None] = mapped_column(String(32))
    address_key: Mapped[str | None] = mapped_column(String(32))


#: «Мои партии» (issue 19, :mod:`.history`): finished games newest first. PostgreSQL walks it for a commander with
#: many games (the first page reads a few hundred index entries, not every game of theirs); the order matches
#: :meth:`~admiral.store.history.HistoryStore.finished`'s.
Index(
    "ix_games_over_finished", GameRow.finished_at.desc(), GameRow.id.desc(),
    postgresql_where=GameRow.status == "over", sqlite_where=GameRow.status == "over",
)  # fmt: skip


class GameSeatRow(Base):
    """A side of a game: the browser that holds it (``sha256`` hex of its token), its setup draft
    (``{cell: kind}``, the locked setup once ``ready``) and its preferences."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    browser_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    draft: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    auto_declare: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: Who took the seat, as PROGRESSION.md §2's unrated games need it (never in clear): a keyed hash (32 hex) of
    #: the browser token it was taken from, and of the client address (``GameService.address_key``).
    browser_key: Mapped[str | None] = mapped_column(String(32))
    address_key: Mapped[str | None] = mapped_column(String(32))


class MarkerNoteRow(Base):
    """A seat's private note on one enemy marker (issue 7): the marker stood on ``cell`` at version ``ply``.

    Notes belong to the seat, i.e. to the commander who holds it (``game_seats.browser_hash`` is the
    commander's key), and are shown only to that seat. ``note``: a kind code, ``?``, ``weak`` or ``strong``.
    """

    __tablename__ = "marker_notes"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "side"],
            ["game_seats.game_id", "game_seats.side"],
            ondelete="CASCADE",
            name="fk_marker_notes_seat",
        ),
    )

    game_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    cell: Mapped[str] = mapped_column(String(4), primary_key=True)
    note: Mapped[str] = mapped_column(String(8))
    ply: Mapped[int] = mapped_column(Integer)


class GameActionRow(Base):
    """One applied action (append-only); ``(game_id, ply)`` is unique so nothing is applied twice."""

    __tablename__ = "game_actions"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_game_actions_game_ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(80))
    side: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SavedSetupRow(Base):
    """A setup a browser saved under a name, side-neutral (as South's), for one ``game`` of the house and one
    ``variant`` of its rules (the ruleset's ``setup_variant``; ``""`` where a game has one fleet)."""

    __tablename__ = "saved_setups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    browser_hash: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(32), default="admiral", server_default="admiral")
    variant: Mapped[str] = mapped_column(String(32), default="", server_default="")
    name: Mapped[str] = mapped_column(String(40))
    setup: Mapped[dict[str, str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CommanderRow(Base):
    """A commander (PROGRESSION.md §1): a guest (``email`` ``None``) or a registered one.

    ``key`` is the identity the games and saved setups are bound to (``game_seats.browser_hash``,
    ``saved_setups.browser_hash``): a guest's is the hash of its browser token; registering gives the
    commander a fresh random key and moves everything of the guest's to it. ``nickname_key``,
    ``nickname_key_upper``, ``nickname_key_typed``: the nickname's uniqueness keys by confusable skeleton
    (``admiral.service.nicknames``: how it looks in lower case, in capitals, as typed), each unique; the first
    finds an account by nickname. ``points``: the one points total over every game (decides the rank); each game's
    own career is a :class:`CommanderGameRow`.
    """

    __tablename__ = "commanders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254), unique=True, index=True)
    nickname: Mapped[str | None] = mapped_column(String(24))
    # 192: KEY_LENGTH of admiral.service.nicknames (a skeleton is longer than its nickname)
    nickname_key: Mapped[str | None] = mapped_column(String(192), unique=True, index=True)
    nickname_key_upper: Mapped[str | None] = mapped_column(String(192), unique=True, index=True)
    nickname_key_typed: Mapped[str | None] = mapped_column(String(192), unique=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    points: Mapped[int] = mapped_column(Integer, default=0, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CommanderGameRow(Base):
    """A commander's career in one game of the house (``docs/points.md``): counted games (aborted ones are not),
    ``wins``/``draws``/``losses`` (a resignation is a loss), the ``points`` earned in this game (part of
    ``commanders.points``) and ``career``, the game's own totals in its own JSON form (only the game reads it:
    ``admiral.games.Progression``). Made by the commander's first counted game of ``game``."""

    __tablename__ = "commander_games"
    __table_args__ = (Index("ix_commander_games_game_points", "game", "points"),)

    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    career: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class SessionRow(Base):
    """A login session: ``id_hash`` is ``sha256`` of the session cookie; deleted at logout."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PasswordResetRow(Base):
    """A password-recovery link: single use (``used_at``), expiring (``expires_at``); a newer link or a
    password change deletes the older ones."""

    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameResultRow(Base):
    """What one commander got from one finished game; the primary key makes the award exactly-once."""

    __tablename__ = "game_results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), index=True)
    points: Mapped[int] = mapped_column(Integer, default=0)
    changes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FeedbackRow(Base):
    """A message for the site's author («Обратная связь»), with the commander if known."""

    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    commander_id: Mapped[int | None] = mapped_column(ForeignKey("commanders.id", ondelete="SET NULL"))
    contact: Mapped[str | None] = mapped_column(String(254))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TutorialProgressRow(Base):
    """How far a commander got in one lesson of «Обучение»: ``key`` is the commander's identity key (as
    ``saved_setups.browser_hash``: a guest's browser hash, or a registered commander's key), ``slug`` the
    lesson, ``step`` the furthest step reached (the lesson's step count once done), ``done_at`` when it was
    first completed."""

    __tablename__ = "tutorial_progress"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    slug: Mapped[str] = mapped_column(String(32), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotifyPrefRow(Base):
    """A registered commander's notification choices (issue 19): ``turn_mail`` — an e-mail when it is their move in
    a correspondence game (off unless they switch it on in «Личное дело»); ``lang``: the language of those mails (the
    site's language when they switched it on). No row: everything off."""

    __tablename__ = "notify_prefs"

    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True)
    turn_mail: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    lang: Mapped[str | None] = mapped_column(String(8))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class TurnMailRow(Base):
    """The last «ваш ход» e-mail about one seat of one game (issue 19): ``ply`` — the game's ply it was sent at,
    ``mailed_at`` — when (epoch ms). A conditional ``UPDATE`` of this row (a later ply, ``mailed_at`` at least 6 h
    back) claims the next mail: exactly one instance sends it."""

    __tablename__ = "turn_mails"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, default=-1)
    mailed_at: Mapped[int] = mapped_column(BigInteger, default=0)


class ChatMessageRow(Base):
    """One chat message between the two seats of a game (issue 19, docs/protocol.md "Chat"): ``side`` the seat
    that wrote it, ``kind`` ``phrase`` (``body`` is a quick phrase's key, shown in each reader's language) or
    ``text`` (``body`` is the free text as stored: control characters stripped, at most
    :data:`admiral.service.session.chat.TEXT_MAX` characters as the user sees them). Never shown to a spectator;
    the replay shows it to the two players only."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(String(8))
    kind: Mapped[str] = mapped_column(String(8))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatBlockRow(Base):
    """A commander who no longer sees another's chat messages (issue 19): ``blocker_key`` and ``blocked_key`` are
    identity keys as ``game_seats.browser_hash`` (a guest's browser hash or a registered commander's key). Kept
    across games; the blocked one is never told."""

    __tablename__ = "chat_blocks"

    blocker_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    blocked_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CommanderRatingRow(Base):
    """A commander's Glicko-2 rating in one game of the house (PROGRESSION.md §4, :mod:`admiral.progression.rating`):
    ``rating`` and ``rd`` in rating points, ``volatility`` σ, ``games`` the rated games. Made by its first rated game;
    a commander without a row has the starting 1500 / 350 / 0.06."""

    __tablename__ = "commander_ratings"
    __table_args__ = (Index("ix_commander_ratings_game_rating", "game", "rating"),)

    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class RatedGameRow(Base):
    """The exactly-once key of a game's rating update (§4): inserted in the one transaction that rates both players,
    so two ends racing (two instances) rate a game once. ``changes``: side → ``{"before", "after", "rd", "delta",
    "provisional"}`` (whole points), what the result screen shows."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    changes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(Base):
    """One point of a commander's rating chart (§4): its rating and RD after the rated game ``game_id`` of ``game``,
    at ``created_at``."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_commander_game", "commander_id", "game", "created_at"),)

    commander_id: Mapped[int] = mapped_column(ForeignKey("commanders.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
