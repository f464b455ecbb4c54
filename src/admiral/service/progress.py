"""Crediting finished games to commanders (PROGRESSION.md §2–§5, issue 5; every game with the capability
``progression``, issue 17: docs/points.md).

When a game ends (whatever ended it: the last base or ship, a resignation, a flag, a claim), each human seat's
commander gets its points, its career in that game and its rank exactly once: the ``game_results`` row keyed by
``(game, side)`` is inserted in the same transaction as the new career, under a lock on the commander's row. A seat
held by the AI earns nothing; the AI's level sets the human's opponent factor.

Fair play (PROGRESSION.md §2, issue 19): a game is *unrated* — no points, no rating, no award counters, nothing on
the career — when both seats are one commander's or were taken from one browser, or when the same two commanders
already finished 3 games against each other in the last 24 hours with both seats from one client address (the 4th
and later); the result screen says why (``changes["unrated"]``: reason codes). A game against the AI is never unrated
for points (the opponent factor pays less) and never rated.

Rating (§4): a game the creator asked to be rated (``settings.rated``) between two registered commanders, not
unrated, counted (not aborted), moves both Glicko-2 ratings of that game once
(:meth:`~admiral.store.AccountStore.apply_rating`, its own exactly-once key ``rated_games``); the result screen shows
the change (``changes["rating"]``).

This module knows no game: the game's :class:`~admiral.games.Progression` turns its statistics into points and its
own career; the house keeps the points total (one rank over every game) and, per game, games, wins, draws, losses
and points.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from admiral.games import Progression, Ruleset
from admiral.progression.ranks import rank_for
from admiral.progression.rating import Rating, rate
from admiral.store import AccountStore, Folded
from admiral.store.models import utcnow

__all__ = ["REPEAT_LIMIT", "REPEAT_WINDOW", "UNRATED_REASONS", "ProgressService", "changes_of"]

#: Why a game is unrated (PROGRESSION.md §2), the codes of ``changes["unrated"]``, in the order they are shown.
UNRATED_REASONS = ("same_commander", "same_browser", "repeated")
#: Games the same two commanders may finish from one address in :data:`REPEAT_WINDOW` and still count (§2).
REPEAT_LIMIT = 3
#: The window of :data:`REPEAT_LIMIT` (§2: 24 hours).
REPEAT_WINDOW = timedelta(hours=24)
#: A side's score in a rated game by its outcome (Glicko-2: 1 a win, ½ a draw, 0 a loss).
_SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}

log = logging.getLogger("admiral.progress")


def changes_of(game: str, counted: bool, points: int, total_before: int, shown: Mapping[str, Any]) -> dict[str, Any]:
    """What the result screen shows a seat (a snapshot's ``game.credit``, docs/protocol.md): ``{"game",
    "counted", "points", "total_points", "rank", "new_rank", "awards", …}`` — the game's own ``shown`` news with the
    house's figures over them; ``rank`` and ``new_rank`` (``None`` unless it rose) from the points total.

    >>> c = changes_of("battleship", True, 83, 150, {})
    >>> c["total_points"], c["rank"]["name"], c["new_rank"]["name"], c["awards"]
    (233, 'Старший матрос', 'Старший матрос', [])
    """
    before, after = rank_for(total_before), rank_for(total_before + points)
    return {
        "awards": [],
        **shown,
        "game": game,
        "counted": counted,
        "points": points,
        "total_points": total_before + points,
        "rank": after.to_dict(),
        "new_rank": after.to_dict() if after.number != before.number else None,
    }


class ProgressService:
    """Credits games and reads back what each side got. ``store``: the accounts repository."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store

    def credit(
        self,
        game_id: str,
        rules: Ruleset,
        stats: Mapping[str, Any],
        holders: Mapping[str, str | None],
        ai_levels: Mapping[str, int | None],
        *,
        rated: bool = False,
        now: datetime | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Credit a finished game of ``rules`` (a :class:`~admiral.games.Progression` too). ``stats``: side →
        that side's statistics (:meth:`~admiral.games.Ruleset.game_stats`); ``holders``: side → the identity key
        holding the seat (``None`` or a bot: nothing to credit); ``ai_levels``: side → the AI level holding it;
        ``rated``: the creator asked for a rated game (``GameSettings.rated``); ``now``: when it ended (aware UTC;
        the 24-hour window of §2 ends there).

        An unrated game (:meth:`unrated_reasons`) credits every human seat nothing but its result row, whose
        changes say why (``"unrated"``). Then the rating (module docstring), exactly once.

        :returns: side → the changes shown on the result screen (:func:`changes_of`), for the sides credited now
            (a repeated call credits nothing more).
        :raises TypeError: for a game without the capability ``progression``.
        """
        if not isinstance(rules, Progression) or "progression" not in rules.info.capabilities:
            raise TypeError(f"{rules.info.key!r} has no points: its games are not credited")
        key_of_game = rules.info.key
        unrated = self.unrated_reasons(game_id, holders, ai_levels, now)
        out: dict[str, dict[str, Any]] = {}
        for side, key in holders.items():
            if key is None or ai_levels.get(side) is not None:
                continue
            ai = ai_levels.get(next(s for s in holders if s != side))

            def fold(career: dict[str, Any], total: int, st: Any = stats[side], ai: int | None = ai) -> Folded:
                got = rules.credit(st, career, ai)
                if unrated and got.counted:  # PROGRESSION.md §2: nothing but the reason on the result screen
                    changes = {**changes_of(key_of_game, False, 0, total, {}), "unrated": list(unrated)}
                    return Folded(0, None, dict(career), changes)
                changes = changes_of(key_of_game, got.counted, got.points, total, got.shown)
                return Folded(got.points, got.outcome, got.career, changes)

            changes = self.store.apply_result(game_id, side, key, key_of_game, fold)
            if changes is not None:
                out[side] = changes
                log.info("game=%s credited side=%s points=%s", game_id, side, changes.get("points"))
        if rated and not unrated:
            self.rate(game_id, rules, stats, holders, ai_levels)
        return out

    def unrated_reasons(
        self,
        game_id: str,
        holders: Mapping[str, str | None],
        ai_levels: Mapping[str, int | None],
        now: datetime | None = None,
    ) -> list[str]:
        """Why a finished game earns nothing (PROGRESSION.md §2), as codes of :data:`UNRATED_REASONS`, ``[]`` for
        a game that counts: ``same_commander`` (both seats one identity key), ``same_browser`` (both seats taken
        from one browser: the same keyed browser hash), ``repeated`` (the same two commanders finished
        :data:`REPEAT_LIMIT` games against each other, other than this one, in the :data:`REPEAT_WINDOW` before
        this game's end — its stored ``finished_at``, else ``now`` —, both seats from this game's one address). A
        game with an AI or a free seat is never unrated."""
        if any(level is not None for level in ai_levels.values()) or len(holders) != 2:
            return []
        (side_a, key_a), (side_b, key_b) = holders.items()
        if key_a is None or key_b is None:
            return []
        reasons = []
        if key_a == key_b:
            reasons.append("same_commander")
        marks = self.store.seat_marks(game_id)
        mark_a, mark_b = marks.get(side_a), marks.get(side_b)
        if mark_a is None or mark_b is None:
            return reasons
        if mark_a.browser_key is not None and mark_a.browser_key == mark_b.browser_key:
            reasons.append("same_browser")
        address = mark_a.address_key
        if key_a != key_b and address is not None and address == mark_b.address_key:
            # the 24 hours before this game's own end: a credit retried later (a reload) decides the same
            end = self.store.finished_at(game_id) or now or utcnow()
            if self.store.finished_together(key_a, key_b, address, end - REPEAT_WINDOW, game_id, end) >= REPEAT_LIMIT:
                reasons.append("repeated")
        return reasons

    def rate(
        self,
        game_id: str,
        rules: Ruleset,
        stats: Mapping[str, Any],
        holders: Mapping[str, str | None],
        ai_levels: Mapping[str, int | None],
    ) -> dict[str, Any] | None:
        """Move both commanders' Glicko-2 ratings in the game of ``rules`` by this one game (PROGRESSION.md §4),
        exactly once: not for a game with an AI or a free seat, one commander in both seats, or a game that does
        not count (aborted); the store refuses guests. Each side's score comes from its outcome
        (:meth:`~admiral.games.Progression.credit` on an empty career).

        :returns: side → ``{"before", "after", "delta", "rd", "provisional"}``, or ``None`` if nothing was rated.
        """
        if any(level is not None for level in ai_levels.values()) or len(holders) != 2:
            return None
        keys = {side: key for side, key in holders.items() if key is not None}
        if len(keys) != 2 or len(set(keys.values())) != 2:
            return None
        outcomes = {}
        for side in keys:
            got = rules.credit(stats[side], {}, None)
            if not got.counted or got.outcome not in _SCORES:
                return None
            outcomes[side] = got.outcome
        first, second = keys

        def both(before: dict[str, Rating]) -> dict[str, Rating]:
            a, b = rate(before[first], before[second], _SCORES[outcomes[first]])
            return {first: a, second: b}

        changes = self.store.apply_rating(game_id, rules.info.key, keys, both)
        if changes is not None:
            log.info("game=%s rated %s", game_id, {s: c["delta"] for s, c in changes.items()})
        return changes

    def careers(self, game: str, holders: Mapping[str, str | None]) -> dict[str, dict[str, Any]]:
        """The careers in ``game`` (its key) of the commanders holding seats: side → the career's JSON form as the
        game's :class:`~admiral.games.Progression` keeps it (``{}`` for a commander, registered or guest, with no
        counted game of it yet, or a seat nobody holds). ``holders``: side → identity key."""
        keys = [key for key in holders.values() if key is not None]
        rows = self.store.by_keys(keys)
        out: dict[str, dict[str, Any]] = {}
        for side, key in holders.items():
            row = rows.get(key) if key is not None else None
            career = None if row is None else self.store.careers(row.id).get(game)
            out[side] = dict(career.career or {}) if career is not None else {}
        return out

    def results(self, game_id: str) -> dict[str, dict[str, Any]]:
        """What each side's commander got from a game already credited: side → changes, with ``"rating"`` (the
        side's ``{"before", "after", "delta", "rd", "provisional"}``) when the game was rated."""
        out = {side: dict(row.changes) for side, row in self.store.results(game_id).items()}
        rated = self.store.rated(game_id) if out else {}
        for side, change in rated.items():
            if side in out:
                out[side]["rating"] = change
        return out
