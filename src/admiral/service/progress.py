"""Crediting finished games to commanders (PROGRESSION.md §2–§5, issue 5).

When a game ends (whatever ended it: the last base, a resignation, a flag, a claim), each human seat's
commander gets its points, statistics, rank and award progress exactly once: the ``game_results`` row
keyed by ``(game, side)`` is inserted in the same transaction as the new career, under a lock on the
commander's row. A seat held by the AI earns nothing; the AI's level sets the human's opponent factor.
"""

from __future__ import annotations

import logging
from typing import Any

from admiral.progression import Career, GameStats, opponent_factor, points
from admiral.store import AccountStore

__all__ = ["ProgressService"]

log = logging.getLogger("admiral.progress")


class ProgressService:
    """Credits games and reads back what each side got. ``store``: the accounts repository."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store

    def credit(
        self,
        game_id: str,
        stats: dict[str, GameStats],
        holders: dict[str, str | None],
        ai_levels: dict[str, int | None],
    ) -> dict[str, dict[str, Any]]:
        """Credit a finished game. ``stats``: side → that side's statistics; ``holders``: side → the identity key
        holding the seat (``None`` or a bot: nothing to credit); ``ai_levels``: side → the AI level holding it.

        :returns: side → the changes shown on the result screen (``CareerChange.to_dict()`` plus
            ``points``), for the sides credited now (a repeated call credits nothing more).
        """
        out: dict[str, dict[str, Any]] = {}
        for side, key in holders.items():
            if key is None or ai_levels.get(side) is not None:
                continue
            other = next(s for s in holders if s != side)
            ai = ai_levels.get(other)
            side_stats = stats[side]

            def fold(career: dict[str, Any], st: GameStats = side_stats, ai: int | None = ai) -> tuple[int, dict, dict]:
                gained = points(st, opponent_factor(ai))
                change = Career.from_dict(career).add(st, gained, ai)
                return change.points, change.to_dict(), change.after.to_dict()

            changes = self.store.apply_result(game_id, side, key, fold)
            if changes is not None:
                out[side] = changes
                log.info("game=%s credited side=%s points=%s", game_id, side, changes.get("points"))
        return out

    def results(self, game_id: str) -> dict[str, dict[str, Any]]:
        """What each side's commander got from a game already credited: side → changes."""
        return {side: dict(row.changes) for side, row in self.store.results(game_id).items()}
