"""The bots of «Морской бой» at a seat (issue 17): each AI level of :mod:`.bots` behind the session's bot interface
(:mod:`.botapi`), seeing only its seat's :class:`~.rules.PlayerView` (the one view function).

The levels' own input, :class:`~.bots.Knowledge`, is rebuilt from the view at every shot: the seat's shots with
their answers (and the ship named, where the rules name it), the shots left in a salvo. A bot keeps no memory the
view does not hold, so a restart loses nothing (``observe`` has nothing to do).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from admiral.i18n import N_

from .botapi import LEVELS, BotLevel
from .bots import Knowledge, make_bot, parse_cell
from .rules import PlayerView, Rules, cell_name

__all__ = ["SeatBot", "knowledge_of", "register"]

#: The levels' names («Юнга» … «Адмиральский», as on «Адмирал»'s ladder).
NAMES = {1: N_("Юнга"), 2: N_("Матрос"), 3: N_("Мичман"), 4: N_("Капитан"), 5: N_("Адмиральский")}


def knowledge_of(rules: Rules) -> Knowledge:
    """The bots' :class:`~.bots.Knowledge` before the first shot under ``rules``: its board, fleet (ships of a class
    share its code), the no-touch rule and whether answers name ships — any board and fleet, not only the two
    rule sets (the 16 × 16 and 18 × 18 boards of rules C1 too)."""
    return Knowledge.of_fleet(
        rules.board.width,
        rules.board.height,
        [(s.code, s.size, s.count) for s in rules.fleet],
        touching=rules.touching,
        named=rules.named,
    )


class SeatBot:
    """A level of :mod:`.bots` playing one seat under ``rules`` (a :class:`~.rules.Rules`), from ``seed``."""

    def __init__(self, level: int, seed: int, rules: Rules) -> None:
        self.level = level
        self.rules = rules
        self.bot = make_bot(level, seed)
        self.seed = seed

    def setup(self, side: str) -> Mapping[str, str]:
        """Its own fleet under these rules: ``{cell: code}`` (level 5 places it against density hunters)."""
        return self.bot.setup(knowledge_of(self.rules), self.seed)

    def act(self, view: PlayerView, deadline_s: float) -> str:
        """Its shot for ``view`` (a cell name among ``view.legal``), within about ``deadline_s`` seconds."""
        me = next(s for s in view.sides if s.side.label == view.audience)
        shots = [(cell_name(s.cell), str(s.answer), s.ship if self.rules.named else None) for s in me.shots]
        knowledge = replace(knowledge_of(self.rules), shots=tuple((parse_cell(n), a, c) for n, a, c in shots))
        if view.shots_left > 1:
            knowledge = replace(knowledge, salvo_left=view.shots_left)
        return self.bot.shoot(knowledge, deadline_s)

    def observe(self, view: PlayerView) -> None:
        """Nothing to remember: every shot is chosen from the view itself."""


def register() -> None:
    """Put the five levels in :data:`.botapi.LEVELS` (idempotent)."""
    for level, name in NAMES.items():
        LEVELS.setdefault(level, BotLevel(name, lambda seed, rules, level=level: SeatBot(level, seed, rules)))
