"""Bots of «Морской бой: расширенный» (rules C, D): five levels on every board, seeing only their seat's view.

:data:`LEVELS` is what the house makes them from (the shared contract): level → the classic
:class:`~admiral.games.battleship.botapi.BotLevel`, whose ``make(seed, rules)`` returns a bot with ``setup(side)``,
``act(view, deadline_s)`` and ``observe(view)``. They reuse the classic bots (:mod:`admiral.games.battleship.bots`:
knowledge, sampler, density, fleets) on any board; :mod:`.sight` reads what the extended view adds, :mod:`.levels`
holds the levels, :mod:`.placement` their mines and minesweepers.
"""

from admiral.games.battleship.botapi import BotLevel
from admiral.i18n import N_

from .levels import ExtBot, make
from .sight import Sight

__all__ = ["LEVELS", "NAMES", "ExtBot", "Sight", "make"]

#: The levels' names, as the classic game's.
NAMES = {1: N_("Юнга"), 2: N_("Матрос"), 3: N_("Мичман"), 4: N_("Капитан"), 5: N_("Адмиральский")}

#: AI level → :class:`~admiral.games.battleship.botapi.BotLevel` (levels 1–5).
LEVELS: dict[int, BotLevel] = {
    level: BotLevel(name, lambda seed, rules, level=level: make(level, seed, rules)) for level, name in NAMES.items()
}
