"""Bots of «Военно-морская игра» (issue 21): five levels seeing only their seat's open view.

:data:`LEVELS` is what the house makes them from (the shared contract of the other games): level →
:class:`Level`, whose ``make(seed)`` returns a bot with ``setup(side)``, ``act(view, deadline_s) -> notation`` and
``observe(view)``. :mod:`.model` is the bots' own model of the game (the die as chance nodes, the evaluation),
:mod:`.search` the expectimax, :mod:`.levels` the levels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from admiral.i18n import N_

from .levels import NavalBot, make

__all__ = ["LEVELS", "NAMES", "Level", "NavalBot", "make"]

#: The levels' names, as the other games'.
NAMES = {1: N_("Юнга"), 2: N_("Матрос"), 3: N_("Мичман"), 4: N_("Капитан"), 5: N_("Адмиральский")}


@dataclass(frozen=True)
class Level:
    """A level offered: ``name`` (Russian, ``N_``-marked) and ``make(seed) -> NavalBot``."""

    name: str
    make: Callable[[int], NavalBot]


#: AI level → :class:`Level` (levels 1–5).
LEVELS: dict[int, Level] = {
    level: Level(name, lambda seed, level=level: make(level, seed)) for level, name in NAMES.items()
}
