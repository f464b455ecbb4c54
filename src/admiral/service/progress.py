"""Crediting finished games to commanders (PROGRESSION.md §2–§5, issue 5; every game with the capability
``progression``, issue 17: docs/points.md).

When a game ends (whatever ended it: the last base or ship, a resignation, a flag, a claim), each human seat's
commander gets its points, its career in that game and its rank exactly once: the ``game_results`` row keyed by
``(game, side)`` is inserted in the same transaction as the new career, under a lock on the commander's row. A seat
held by the AI earns nothing; the AI's level sets the human's opponent factor.

This module knows no game: the game's :class:`~admiral.games.Progression` turns its statistics into points and its
own career; the house keeps the points total (one rank over every game) and, per game, games, wins, draws, losses
and points.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from admiral.games import Progression, Ruleset
from admiral.progression.ranks import rank_for
from admiral.store import AccountStore, Folded

__all__ = ["ProgressService", "changes_of"]

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
    ) -> dict[str, dict[str, Any]]:
        """Credit a finished game of ``rules`` (a :class:`~admiral.games.Progression` too). ``stats``: side →
        that side's statistics (:meth:`~admiral.games.Ruleset.game_stats`); ``holders``: side → the identity key
        holding the seat (``None`` or a bot: nothing to credit); ``ai_levels``: side → the AI level holding it.

        :returns: side → the changes shown on the result screen (:func:`changes_of`), for the sides credited now
            (a repeated call credits nothing more).
        :raises TypeError: for a game without the capability ``progression``.
        """
        if not isinstance(rules, Progression) or "progression" not in rules.info.capabilities:
            raise TypeError(f"{rules.info.key!r} has no points: its games are not credited")
        key_of_game = rules.info.key
        out: dict[str, dict[str, Any]] = {}
        for side, key in holders.items():
            if key is None or ai_levels.get(side) is not None:
                continue
            ai = ai_levels.get(next(s for s in holders if s != side))

            def fold(career: dict[str, Any], total: int, st: Any = stats[side], ai: int | None = ai) -> Folded:
                got = rules.credit(st, career, ai)
                changes = changes_of(key_of_game, got.counted, got.points, total, got.shown)
                return Folded(got.points, got.outcome, got.career, changes)

            changes = self.store.apply_result(game_id, side, key, key_of_game, fold)
            if changes is not None:
                out[side] = changes
                log.info("game=%s credited side=%s points=%s", game_id, side, changes.get("points"))
        return out

    def results(self, game_id: str) -> dict[str, dict[str, Any]]:
        """What each side's commander got from a game already credited: side → changes."""
        return {side: dict(row.changes) for side, row in self.store.results(game_id).items()}
