"""The repository of commanders: accounts, sessions, recovery links, per-game results, feedback.

Same rules as :mod:`.repo`: synchronous, one short transaction per call, detached rows returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Engine, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

import admiral.games  # noqa: F401  (first: admiral.progression and the games' registry import each other)
from admiral.progression.rating import Rating

from .models import (
    ChatBlockRow,
    CommanderGameRow,
    CommanderRatingRow,
    CommanderRow,
    FeedbackRow,
    GameResultRow,
    GameRow,
    GameSeatRow,
    LobbySeekRow,
    PasswordResetRow,
    RatedGameRow,
    RatingHistoryRow,
    SavedSetupRow,
    SessionRow,
    TutorialProgressRow,
    utcnow,
)

__all__ = ["AccountStore", "Folded", "Leader", "RatingLeader", "SeatMark", "Taken"]

#: The outcomes a counted game adds to: ``"win"``, ``"draw"``, ``"loss"`` → the counter of ``commander_games``.
_OUTCOME_COLUMNS = {"win": "wins", "draw": "draws", "loss": "losses"}


class Taken(Exception):
    """A unique field is taken already: ``field`` is ``email`` or ``nickname``."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


class Folded(NamedTuple):
    """What crediting one finished game does to one commander (the answer of :meth:`AccountStore.apply_result`'s
    ``fold``): ``points`` earned (≥ 0); ``outcome`` ``"win"``/``"draw"``/``"loss"``, or ``None`` for a game that
    does not count (aborted: nothing but the result row is stored); ``career``: the game's own career after the
    game (JSON-ready); ``changes``: what the result screen shows (JSON-ready, stored with the result row)."""

    points: int
    outcome: str | None
    career: dict[str, Any]
    changes: dict[str, Any]


class Leader(NamedTuple):
    """One line of the leaderboard: the commander, its points (the total, or one game's) and its counted games (all
    games, or that game's)."""

    commander: CommanderRow
    points: int
    games: int


class RatingLeader(NamedTuple):
    """One line of the rating leaderboard (PROGRESSION.md §4): the commander and its rating in the game."""

    commander: CommanderRow
    rating: Rating


class SeatMark(NamedTuple):
    """Who took one seat of a game (PROGRESSION.md §2's unrated games): ``holder`` the commander's identity key
    (``None`` for a free seat, ``bot:N`` for the AI), ``browser_key`` and ``address_key`` the keyed hashes of the
    browser token and client address it was taken from (``None`` when unknown: a seat taken before issue 19)."""

    holder: str | None
    browser_key: str | None
    address_key: str | None


class AccountStore:
    """Database access for commanders over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- commanders ----------------------------------------------------------------------------

    def by_key(self, key: str) -> CommanderRow | None:
        """The commander whose identity key is ``key``."""
        with self.sessions() as s:
            return s.scalar(select(CommanderRow).where(CommanderRow.key == key))

    def by_keys(self, keys: Sequence[str]) -> dict[str, CommanderRow]:
        """The commanders whose identity keys are among ``keys``, by key (unknown keys are left out), in one query."""
        if not keys:
            return {}
        with self.sessions() as s:
            return {row.key: row for row in s.scalars(select(CommanderRow).where(CommanderRow.key.in_(set(keys))))}

    def by_id(self, commander_id: int) -> CommanderRow | None:
        """The commander ``commander_id``."""
        with self.sessions() as s:
            return s.get(CommanderRow, commander_id)

    def by_email(self, email: str) -> CommanderRow | None:
        """The registered commander with this (normalised) e-mail."""
        with self.sessions() as s:
            return s.scalar(select(CommanderRow).where(CommanderRow.email == email))

    def by_nickname_key(self, nickname_key: str) -> CommanderRow | None:
        """The registered commander whose ``nickname_key`` (the lower-case look of its nickname) is this."""
        with self.sessions() as s:
            return s.scalar(select(CommanderRow).where(CommanderRow.nickname_key == nickname_key))

    def guest(self, key: str) -> CommanderRow:
        """The guest commander of identity ``key``, created on first need."""
        found = self.by_key(key)
        if found is not None:
            return found
        try:
            with self.sessions.begin() as s:
                row = CommanderRow(key=key, points=0)
                s.add(row)
            return row
        except IntegrityError:  # created meanwhile by another request
            found = self.by_key(key)
            assert found is not None
            return found

    def register(
        self, old_key: str, new_key: str, *, email: str, nickname: str, nickname_keys: Sequence[str], password_hash: str
    ) -> CommanderRow:
        """Turn the guest of ``old_key`` (created if absent) into a registered commander with identity
        ``new_key``, and move the guest's seats, games created, saved setups, tutorial progress and seek in the
        lobby's pool to ``new_key`` — all in one transaction. ``nickname_keys``: the nickname's three uniqueness keys
        (``nickname_key``, ``nickname_key_upper``, ``nickname_key_typed``; ``admiral.service.nicknames``).

        :raises Taken: the e-mail, or a key of the nickname, belongs to someone else (nothing changes).
        """
        folded, upper, typed = nickname_keys
        self.guest(old_key)
        try:
            with self.sessions.begin() as s:
                if s.scalar(select(CommanderRow.id).where(CommanderRow.email == email)) is not None:
                    raise Taken("email")
                same = or_(
                    CommanderRow.nickname_key == folded, CommanderRow.nickname_key_upper == upper,
                    CommanderRow.nickname_key_typed == typed,
                )  # fmt: skip
                if s.scalar(select(CommanderRow.id).where(same).limit(1)) is not None:
                    raise Taken("nickname")
                row = s.scalar(select(CommanderRow).where(CommanderRow.key == old_key).with_for_update())
                if row is None or row.email is not None:
                    raise Taken("email")
                row.key, row.email, row.nickname = new_key, email, nickname
                row.nickname_key, row.nickname_key_upper, row.nickname_key_typed = folded, upper, typed
                row.password_hash, row.registered_at = password_hash, utcnow()
                s.execute(update(GameSeatRow).where(GameSeatRow.browser_hash == old_key).values(browser_hash=new_key))
                s.execute(update(GameRow).where(GameRow.creator_hash == old_key).values(creator_hash=new_key))
                s.execute(
                    update(SavedSetupRow).where(SavedSetupRow.browser_hash == old_key).values(browser_hash=new_key)
                )
                s.execute(update(TutorialProgressRow).where(TutorialProgressRow.key == old_key).values(key=new_key))
                # a seek in the lobby's pool (issue 19): the commander's home tabs follow it, and a pairing must
                # seat the new identity, not the guest's that nobody holds any more
                s.execute(update(LobbySeekRow).where(LobbySeekRow.key == old_key).values(key=new_key))
                # the guest's chat blocks, both ways (issue 19): the new key is fresh, so no pair exists yet
                s.execute(update(ChatBlockRow).where(ChatBlockRow.blocker_key == old_key).values(blocker_key=new_key))
                s.execute(update(ChatBlockRow).where(ChatBlockRow.blocked_key == old_key).values(blocked_key=new_key))
                moved = select(GameSeatRow.game_id).where(GameSeatRow.browser_hash == new_key)
                s.execute(  # other instances caching these games must see the change
                    update(GameRow).where(GameRow.id.in_(moved)).values(revision=GameRow.revision + 1)
                    .execution_options(synchronize_session=False)
                )  # fmt: skip
            return row
        except IntegrityError:
            raise Taken("nickname") from None

    def set_password(self, commander_id: int, password_hash: str) -> None:
        """Change the password hash; every recovery link and every session of the commander is deleted."""
        with self.sessions.begin() as s:
            s.execute(update(CommanderRow).where(CommanderRow.id == commander_id).values(password_hash=password_hash))
            s.execute(delete(PasswordResetRow).where(PasswordResetRow.commander_id == commander_id))
            s.execute(delete(SessionRow).where(SessionRow.commander_id == commander_id))

    def leaderboard(self, offset: int, limit: int, game: str | None = None) -> tuple[list[Leader], int]:
        """Registered commanders by points (then by registration), a page of them and how many there are.

        ``game`` ``None``: every registered commander by the points total, with its games over every game;
        a game's key: the commanders with a counted game of it, by the points earned in it, with its games.
        """
        with self.sessions() as s:
            where = CommanderRow.email.is_not(None)
            if game is None:
                games = (
                    select(func.coalesce(func.sum(CommanderGameRow.games), 0))
                    .where(CommanderGameRow.commander_id == CommanderRow.id).scalar_subquery()
                )  # fmt: skip
                query = select(CommanderRow, CommanderRow.points, games).where(where)
                order = CommanderRow.points.desc()
                count = select(func.count()).select_from(CommanderRow).where(where)
            else:
                joined = CommanderGameRow.commander_id == CommanderRow.id
                mine = (CommanderGameRow.game == game, CommanderGameRow.games > 0)
                query = select(CommanderRow, CommanderGameRow.points, CommanderGameRow.games).join(
                    CommanderGameRow, joined
                ).where(where, *mine)  # fmt: skip
                order = CommanderGameRow.points.desc()
                count = (
                    select(func.count()).select_from(CommanderRow).join(CommanderGameRow, joined).where(where, *mine)
                )
            rows = s.execute(
                query.order_by(order, CommanderRow.registered_at, CommanderRow.id).offset(offset).limit(limit)
            ).all()  # fmt: skip
            total = s.scalar(count) or 0
            return [Leader(row, int(points), int(n)) for row, points, n in rows], total

    def careers(self, commander_id: int) -> dict[str, CommanderGameRow]:
        """The commander's career in each game it has a counted game of: game key → row."""
        with self.sessions() as s:
            rows = s.scalars(select(CommanderGameRow).where(CommanderGameRow.commander_id == commander_id))
            return {r.game: r for r in rows}

    def place_of(self, points: int) -> int:
        """The leaderboard place (1-based) of a registered commander with ``points``."""
        with self.sessions() as s:
            ahead = s.scalar(
                select(func.count()).select_from(CommanderRow).where(
                    CommanderRow.email.is_not(None), CommanderRow.points > points
                )
            )  # fmt: skip
            return (ahead or 0) + 1

    # -- sessions --------------------------------------------------------------------------------

    def add_session(self, id_hash: str, commander_id: int, expires_at: datetime) -> None:
        """Store a new session."""
        with self.sessions.begin() as s:
            s.add(SessionRow(id_hash=id_hash, commander_id=commander_id, expires_at=expires_at))

    def session_commander(self, id_hash: str, now: datetime) -> CommanderRow | None:
        """The commander of a live session, ``None`` for an unknown or expired one."""
        with self.sessions() as s:
            return s.scalar(
                select(CommanderRow).join(SessionRow, SessionRow.commander_id == CommanderRow.id)
                .where(SessionRow.id_hash == id_hash, SessionRow.expires_at > now)
            )  # fmt: skip

    def delete_session(self, id_hash: str) -> None:
        """Invalidate a session (logout)."""
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    # -- recovery links ----------------------------------------------------------------------------

    def add_reset(self, token_hash: str, commander_id: int, expires_at: datetime) -> None:
        """Store a recovery link, deleting the commander's older ones (a newer link invalidates them)."""
        with self.sessions.begin() as s:
            s.execute(delete(PasswordResetRow).where(PasswordResetRow.commander_id == commander_id))
            s.add(PasswordResetRow(token_hash=token_hash, commander_id=commander_id, expires_at=expires_at))

    def live_reset(self, token_hash: str, now: datetime) -> PasswordResetRow | None:
        """The recovery link if it is unused and unexpired."""
        with self.sessions() as s:
            return s.scalar(
                select(PasswordResetRow).where(
                    PasswordResetRow.token_hash == token_hash, PasswordResetRow.used_at.is_(None),
                    PasswordResetRow.expires_at > now,
                )
            )  # fmt: skip

    def use_reset(self, token_hash: str, now: datetime, password_hash: str) -> bool:
        """Spend a recovery link and set the new password, atomically (``UPDATE … WHERE used_at IS NULL``);
        then every link and session of the commander is deleted. :returns: whether the link was live."""
        with self.sessions.begin() as s:
            row = s.scalar(select(PasswordResetRow).where(PasswordResetRow.token_hash == token_hash))
            if row is None:
                return False
            spent = s.execute(
                update(PasswordResetRow).where(
                    PasswordResetRow.token_hash == token_hash, PasswordResetRow.used_at.is_(None),
                    PasswordResetRow.expires_at > now,
                ).values(used_at=now).execution_options(synchronize_session=False)
            )  # fmt: skip
            if spent.rowcount != 1:
                return False
            cid = row.commander_id
            s.execute(update(CommanderRow).where(CommanderRow.id == cid).values(password_hash=password_hash))
            s.execute(delete(PasswordResetRow).where(PasswordResetRow.commander_id == cid))
            s.execute(delete(SessionRow).where(SessionRow.commander_id == cid))
            return True

    # -- progression --------------------------------------------------------------------------------

    def apply_result(
        self, game_id: str, side: str, key: str, game: str, fold: Callable[[dict[str, Any], int], Folded]
    ) -> dict[str, Any] | None:
        """Credit one finished game of ``game`` to the commander of identity ``key`` (a guest record is made if
        needed), exactly once: in one transaction the commander's row is locked, ``fold(career, total)`` runs on
        the commander's career in ``game`` (``{}`` before its first counted game) and its points total, the
        ``(game_id, side)`` result row is inserted and, for a game that counts, the ``commander_games`` row of
        ``game`` (made if needed) and the total are brought up to date.

        :returns: the ``changes``, or ``None`` if this game was credited already (nothing changes then).
        :raises ValueError: for negative points or an unknown outcome (nothing changes).
        """
        self.guest(key)
        try:
            with self.sessions.begin() as s:
                if s.get(GameResultRow, (game_id, side)) is not None:
                    return None
                row = s.scalar(select(CommanderRow).where(CommanderRow.key == key).with_for_update())
                if row is None:
                    return None
                own = s.get(CommanderGameRow, (row.id, game), with_for_update=True)
                folded = fold(dict(own.career or {}) if own is not None else {}, row.points)
                if folded.points < 0 or (folded.outcome is not None and folded.outcome not in _OUTCOME_COLUMNS):
                    raise ValueError(f"bad credit: {folded.points} points, outcome {folded.outcome!r}")
                s.add(GameResultRow(
                    game_id=game_id, side=side, commander_id=row.id, points=folded.points, changes=folded.changes,
                ))  # fmt: skip
                s.flush()
                if folded.outcome is not None:
                    if own is None:
                        own = CommanderGameRow(commander_id=row.id, game=game, games=0, wins=0, draws=0, losses=0,
                                               points=0)  # fmt: skip
                        s.add(own)
                    own.games += 1
                    column = _OUTCOME_COLUMNS[folded.outcome]
                    setattr(own, column, getattr(own, column) + 1)
                    own.points += folded.points
                    own.career = dict(folded.career)
                    row.points += folded.points
            return folded.changes
        except IntegrityError:  # credited meanwhile (another instance)
            return None

    def results(self, game_id: str) -> dict[str, GameResultRow]:
        """What each side's commander got from a game: side → row."""
        with self.sessions() as s:
            return {r.side: r for r in s.scalars(select(GameResultRow).where(GameResultRow.game_id == game_id))}

    # -- fair play and rating (PROGRESSION.md §2, §4) --------------------------------------------------

    def seat_marks(self, game_id: str) -> dict[str, SeatMark]:
        """Each seat of a game: side → :class:`SeatMark`."""
        with self.sessions() as s:
            rows = s.scalars(select(GameSeatRow).where(GameSeatRow.game_id == game_id))
            return {r.side: SeatMark(r.browser_hash, r.browser_key, r.address_key) for r in rows}

    def finished_at(self, game_id: str) -> datetime | None:
        """When a game finished (aware UTC), ``None`` for an unknown or unfinished one."""
        with self.sessions() as s:
            return s.scalar(select(GameRow.finished_at).where(GameRow.id == game_id))

    def finished_together(
        self, key_a: str, key_b: str, address_key: str, since: datetime, before: str, until: datetime | None = None
    ) -> int:
        """How many games other than ``before`` the commanders ``key_a`` and ``key_b`` finished against each other
        (status ``over``, ``since`` ≤ ``finished_at`` < ``until``, aware UTC) with both seats taken from the address
        ``address_key`` (PROGRESSION.md §2: from the 4th such game in 24 hours, unrated)."""
        with self.sessions() as s:
            seat = GameSeatRow
            games = (
                select(seat.game_id)
                .join(GameRow, GameRow.id == seat.game_id)
                .where(
                    GameRow.status == "over", GameRow.finished_at >= since, GameRow.id != before,
                    *((GameRow.finished_at < until,) if until is not None else ()),
                    seat.browser_hash.in_((key_a, key_b)), seat.address_key == address_key,
                )
                .group_by(seat.game_id)
                .having(func.count(func.distinct(seat.browser_hash)) == 2)
            )  # fmt: skip
            return s.scalar(select(func.count()).select_from(games.subquery())) or 0

    def ratings_for(self, keys: Iterable[str], game: str) -> dict[str, Rating]:
        """The rating in ``game`` of each commander key (PROGRESSION.md §4), in one query: key → :class:`Rating`;
        the starting 1500 / 350 / 0.06 for a key without a rated game, of a guest, or unknown. The contract the
        lobby pairs by."""
        keys = list(dict.fromkeys(keys))
        out = dict.fromkeys(keys, Rating())
        if not keys:
            return out
        with self.sessions() as s:
            rows = s.execute(
                select(CommanderRow.key, CommanderRatingRow)
                .join(CommanderRatingRow, CommanderRatingRow.commander_id == CommanderRow.id)
                .where(CommanderRow.key.in_(keys), CommanderRow.email.is_not(None), CommanderRatingRow.game == game)
            ).all()  # fmt: skip
        for key, row in rows:
            out[key] = _rating(row)
        return out

    def ratings_of(self, commander_id: int) -> dict[str, Rating]:
        """The commander's rating in each game it has a rated game of: game key → :class:`Rating`."""
        with self.sessions() as s:
            rows = s.scalars(select(CommanderRatingRow).where(CommanderRatingRow.commander_id == commander_id))
            return {r.game: _rating(r) for r in rows}

    def rating_history(self, commander_id: int, game: str, limit: int = 200) -> list[RatingHistoryRow]:
        """The commander's rating after each of its last ``limit`` rated games of ``game``, oldest first."""
        with self.sessions() as s:
            rows = list(s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.commander_id == commander_id, RatingHistoryRow.game == game)
                .order_by(RatingHistoryRow.created_at.desc()).limit(limit)
            ))  # fmt: skip
            return rows[::-1]

    def rating_leaderboard(
        self, game: str, offset: int, limit: int, min_games: int, max_rd: float
    ) -> tuple[list[RatingLeader], int]:
        """Registered commanders by rating in ``game`` (PROGRESSION.md §4: at least ``min_games`` rated games and
        RD ≤ ``max_rd``), a page of them and how many there are."""
        with self.sessions() as s:
            where = (
                CommanderRow.email.is_not(None), CommanderRatingRow.game == game,
                CommanderRatingRow.games >= min_games, CommanderRatingRow.rd <= max_rd,
            )  # fmt: skip
            joined = CommanderRatingRow.commander_id == CommanderRow.id
            rows = s.execute(
                select(CommanderRow, CommanderRatingRow).join(CommanderRatingRow, joined).where(*where)
                .order_by(CommanderRatingRow.rating.desc(), CommanderRow.id).offset(offset).limit(limit)
            ).all()  # fmt: skip
            total = s.scalar(
                select(func.count()).select_from(CommanderRow).join(CommanderRatingRow, joined).where(*where)
            )
            return [RatingLeader(c, _rating(r)) for c, r in rows], total or 0

    def apply_rating(
        self,
        game_id: str,
        game: str,
        holders: dict[str, str],
        rate: Callable[[dict[str, Rating]], dict[str, Rating]],
    ) -> dict[str, Any] | None:
        """Rate one finished game of ``game`` exactly once (PROGRESSION.md §4): in one transaction the two
        commanders' rows are locked in the order of their ids (two games rating the same pair never wait for each
        other in a cycle), their ratings in ``game`` read (the start for none), ``rate({side: before})`` gives
        ``{side: after}``, the ``rated_games`` key is inserted (a second try of the game, here or on another
        instance, conflicts and changes nothing), the ratings written and a ``rating_history`` row added per side.

        ``holders``: side → the commander's identity key; both must be registered commanders.

        :returns: side → ``{"before", "after", "delta", "rd", "provisional", "games"}`` (whole points; ``games``
            the rated games after this one), or ``None`` when the
            game was rated already or a commander is missing or unregistered (nothing changes then).
        """
        try:
            with self.sessions.begin() as s:
                if s.get(RatedGameRow, game_id) is not None:
                    return None
                rows = list(s.scalars(
                    select(CommanderRow).where(CommanderRow.key.in_(list(holders.values())))
                    .order_by(CommanderRow.id).with_for_update()
                ))  # fmt: skip
                by_key = {r.key: r for r in rows}
                if len(rows) != 2 or any(by_key.get(k) is None or by_key[k].email is None for k in holders.values()):
                    return None
                if s.get(RatedGameRow, game_id) is not None:  # rated while this waited for the locks
                    return None
                own: dict[str, CommanderRatingRow | None] = {}
                for row in rows:  # the rating rows in the same order
                    side = next(sd for sd, k in holders.items() if k == row.key)
                    own[side] = s.get(CommanderRatingRow, (row.id, game), with_for_update=True)
                before = {side: _rating(r) if r is not None else Rating() for side, r in own.items()}
                after = rate(before)
                changes = {
                    side: {
                        "before": round(before[side].rating), "after": round(after[side].rating),
                        "delta": round(after[side].rating) - round(before[side].rating), "rd": round(after[side].rd),
                        "provisional": after[side].provisional, "games": after[side].games,
                    }
                    for side in holders
                }  # fmt: skip
                s.add(RatedGameRow(game_id=game_id, changes=changes))
                s.flush()
                now = utcnow()
                for side, key in holders.items():
                    cid, new = by_key[key].id, after[side]
                    row = own[side]
                    if row is None:
                        row = CommanderRatingRow(commander_id=cid, game=game)
                        s.add(row)
                    row.rating, row.rd, row.volatility, row.games = new.rating, new.rd, new.volatility, new.games
                    s.add(RatingHistoryRow(commander_id=cid, game_id=game_id, game=game, rating=new.rating, rd=new.rd,
                                           created_at=now))  # fmt: skip
            return changes
        except IntegrityError:  # rated meanwhile (another instance)
            return None

    def rated(self, game_id: str) -> dict[str, Any]:
        """What a rated game did to each side's rating (:meth:`apply_rating`'s answer), ``{}`` if it was not rated."""
        with self.sessions() as s:
            row = s.get(RatedGameRow, game_id)
            return dict(row.changes) if row is not None else {}

    # -- feedback -------------------------------------------------------------------------------------

    def add_feedback(self, commander_id: int | None, contact: str | None, message: str) -> int:
        """Store a feedback message; returns its id."""
        with self.sessions.begin() as s:
            row = FeedbackRow(commander_id=commander_id, contact=contact, message=message)
            s.add(row)
            s.flush()
            return row.id

    def feedback(self, limit: int = 100) -> list[FeedbackRow]:
        """The latest feedback messages, newest first."""
        with self.sessions() as s:
            return list(s.scalars(select(FeedbackRow).order_by(FeedbackRow.id.desc()).limit(limit)))


def _rating(row: CommanderRatingRow) -> Rating:
    return Rating(row.rating, row.rd, row.volatility, row.games)
