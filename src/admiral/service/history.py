"""A commander's finished games, newest first («Мои партии», PROGRESSION.md §4 "the commander's finished games",
issue 19): the list on «Личное дело», on a public profile and on a page of its own.

Generic: a game's name, its AI levels' names and its end reasons in words come from the registry
(:attr:`~admiral.games.GameInfo.name`, ``levels``, ``end_reasons``); this module names no game's rule.

Privacy is the callers' part and simple: a commander's own list is reached by its own identity key (a guest's by
its browser), another commander's only through a registered commander's public profile; nothing but status
``over`` is ever listed (aborted games and games in play are not).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from admiral.games import Ruleset
from admiral.store.history import HistoryRow, HistoryStore

from .session.live import BOT_PREFIX

__all__ = ["PAGE_SIZE", "HistoryItem", "HistoryPage", "HistoryService"]

#: Games per page of the full list (``/games``, ``/c/{nickname}/games``).
PAGE_SIZE = 20
#: The highest page number served: deeper ones are empty pages (the database's offset stays small and bounded).
MAX_PAGE = 10_000


@dataclass(frozen=True)
class HistoryItem:
    """One line of the history, as the commander whose history it is played it.

    ``game_id``, ``url`` (its page, the replay after the end: ``/g/{id}``); ``game`` (registry key) and
    ``game_name`` (Russian msgid, ``N_``-marked: translate it); ``side``: the commander's seat;
    ``outcome``: ``"win"``/``"draw"``/``"loss"`` for that seat; ``reason``: the game's end reason code and
    ``reason_text`` its phrase (a msgid of the game's ``end_reasons``; the code itself when the game has none);
    ``opponent``: ``"commander"`` (registered: ``opponent_nickname`` set), ``"guest"``, ``"ai"`` (``ai_level``
    and ``ai_name``, a msgid) or ``"none"`` (a seat never taken); ``ply``: actions in the record, the end action
    included; ``finished_at``: aware UTC (``None`` if unknown); ``rated``: the game moved the commander's rating
    (PROGRESSION.md §4: asked for rated, both seats registered, not unrated by §2), ``rating_delta`` by how much
    (whole points; ``None`` when not rated); ``points``: what the commander got from it (``game_results``),
    ``None`` when nothing was credited; ``counted``: the game counted on the profile (``False``: one that ended
    before each side made two turns, PROGRESSION.md §2 "aborted": no points, no statistics), ``None`` with
    ``points``."""

    game_id: str
    url: str
    game: str
    game_name: str
    side: str
    outcome: str
    reason: str
    reason_text: str
    opponent: str
    opponent_nickname: str | None
    ai_level: int | None
    ai_name: str | None
    ply: int
    finished_at: datetime | None
    rated: bool
    points: int | None
    counted: bool | None = None
    rating_delta: int | None = None


@dataclass(frozen=True)
class HistoryPage:
    """One page of a history: ``items`` (at most ``size``), ``page`` (1-based, as asked, clamped to
    ``1…MAX_PAGE``), ``size``, ``game`` (the filter's registry key, ``None``: every game) and ``has_next``
    (a further page has games). A page past the end has no items: the caller offers the way back to page 1."""

    items: list[HistoryItem]
    page: int
    size: int
    game: str | None
    has_next: bool

    @property
    def has_prev(self) -> bool:
        """Whether a page before this one exists (any page after the first)."""
        return self.page > 1


def _aware(moment: datetime | None) -> datetime | None:
    """A stored time as aware UTC (SQLite gives it back naive)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


class HistoryService:
    """The history of finished games over a :class:`~admiral.store.history.HistoryStore` and the registry
    ``games`` (key → ruleset). Methods are synchronous (one database query): call them off the event loop."""

    def __init__(self, store: HistoryStore, games: Mapping[str, Ruleset]) -> None:
        self.store = store
        self.games = games

    def page(self, key: str, *, page: int = 1, game: str | None = None, size: int = PAGE_SIZE) -> HistoryPage:
        """Page ``page`` (1-based; below 1 means 1, above :data:`MAX_PAGE` gives an empty page) of the finished
        games of the commander of identity ``key``, ``size`` a page, newest first; only those of ``game`` if given.

        :raises KeyError: ``game`` is not a key of the registry (the web answers 404)."""
        if game is not None and game not in self.games:
            raise KeyError(game)
        page = max(1, min(page, MAX_PAGE + 1))
        if page > MAX_PAGE:
            return HistoryPage([], page, size, game, False)
        rows = self.store.finished(key, (page - 1) * size, size + 1, game)
        items = [self._item(r) for r in rows[:size]]
        return HistoryPage(items, page, size, game, len(rows) > size)

    def _item(self, row: HistoryRow) -> HistoryItem:
        """A line from a stored row: the seat's outcome, the opponent's kind, the game's words for its end."""
        rules = self.games.get(row.game)
        info = rules.info if rules is not None else None
        outcome = "draw" if row.winner is None else "win" if row.winner == row.side else "loss"
        reason = row.reason or ""
        holder = row.opponent_key
        ai_level: int | None = None
        if holder is None:
            opponent = "none"
        elif holder.startswith(BOT_PREFIX):
            opponent = "ai"
            try:
                ai_level = int(holder[len(BOT_PREFIX) :])
            except ValueError:
                ai_level = None
        elif row.opponent_nickname is not None:
            opponent = "commander"
        else:
            opponent = "guest"
        ai_name = info.levels.get(ai_level) if info is not None and ai_level is not None else None
        return HistoryItem(
            game_id=row.game_id, url=f"/g/{row.game_id}", game=row.game, game_name=info.name if info else row.game,
            side=row.side, outcome=outcome, reason=reason,
            reason_text=(info.end_reasons.get(reason, reason) if info is not None else reason),
            opponent=opponent, opponent_nickname=row.opponent_nickname if opponent == "commander" else None,
            ai_level=ai_level, ai_name=ai_name, ply=row.ply, finished_at=_aware(row.finished_at),
            rated=row.rating is not None, points=row.points,
            rating_delta=None if row.rating is None else int(row.rating.get("delta", 0)),
            counted=None if row.credit is None else bool(row.credit.get("counted", True)),
        )  # fmt: skip
