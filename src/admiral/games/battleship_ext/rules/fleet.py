"""The extended variant's rule values: boards, fleets, mines and minesweepers, options, abilities and levels'
perks as data (BATTLESHIP.md C1, C2, C4–C6, D5, D8, D11).

:class:`ExtRules` is a classic :class:`~admiral.games.battleship.rules.Rules` whose :attr:`~ExtRules.figures` are
the mines (``"M"``) and minesweepers (``"T"``, тральщик): the classic setup code (validation, arrangement) takes
them as one-cell figures under the same no-touch rule (C2) that are not ships (D5).

>>> r = rules_from_options({"board": "perelman", "mines": 3})
>>> r.board_name, r.board.width, r.ships, r.decks, [(f.code, f.count) for f in r.figures]
('perelman', 16, 14, 30, [('M', 3), ('T', 1)])
>>> options_of(r), setup_variant({"board": "giant", "mines": 0, "sweepers": 0})
({'board': 'perelman', 'mines': 3, 'sweepers': 1}, 'giant-0-0')
>>> start_energy(1), max_energy(5), cost(AIR, 4), ultimate_of(6), reveal_chance(SONAR, 8)
(10, 17, 9, 'satellite', 25)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from admiral.games.battleship.rules import Board, IllegalAction, Rules, ShipClass

__all__ = [
    "ABILITIES", "AIR", "BOARDS", "CARPET", "DEFAULT_OPTIONS", "FIGURE_NAMES", "LEVELS", "MINE", "MOVE", "REPAIR",
    "SATELLITE", "SHIP_NAMES", "SONAR", "SWEEPER", "ULTIMATES", "Ability", "ExtRules", "cost", "max_energy",
    "options_of", "reveal_chance", "rules_from_options", "setup_variant", "start_energy", "ultimate_of",
]  # fmt: skip

#: Setup codes of the figures that are not ships (C2, D5): a mine, a minesweeper (тральщик).
MINE, SWEEPER = "M", "T"
#: Ship names by size (C1 decision), Russian as the UI shows them (the house's catalogs translate them).
SHIP_NAMES = {5: "Супер-линкор", 4: "Линкор", 3: "Крейсер", 2: "Эсминец", 1: "Катер"}
#: Figure names (C3), Russian as the UI shows them.
FIGURE_NAMES = {MINE: "Мина", SWEEPER: "Тральщик"}
_ENGLISH = {5: "super-battleship", 4: "battleship", 3: "cruiser", 2: "destroyer", 1: "boat"}
#: Levels of a commander (C6).
LEVELS = range(1, 11)


@dataclass(frozen=True)
class ExtRules(Rules):
    """A game of the extended variant (C): the classic fields (no touching, a hit shoots again, answers name
    nothing but a sinking's cells, as A) plus ``board_name`` (``"classic"``, ``"perelman"``, ``"giant"``, C1),
    ``mines`` and ``sweepers`` (per player, C1)."""

    board_name: str = "classic"
    mines: int = 1
    sweepers: int = 1

    @property
    def figures(self) -> tuple[ShipClass, ...]:
        """The mine and the minesweeper classes with this game's counts (one cell each, C2, D5)."""
        return (ShipClass(MINE, 1, self.mines, "mine"), ShipClass(SWEEPER, 1, self.sweepers, "minesweeper"))


def _rules(name: str, side: int, counts: dict[int, int], mines: int = 1, sweepers: int = 1) -> ExtRules:
    fleet = tuple(ShipClass(str(size), size, n, _ENGLISH[size]) for size, n in counts.items())
    return ExtRules("battleship_ext", Board.square(side), fleet, False, True, False, True, name, mines, sweepers)


#: The three boards of C1 with their fleets (ships × decks), biggest ship first, and the greatest mines count.
BOARDS: dict[str, tuple[ExtRules, int]] = {
    "classic": (_rules("classic", 10, {4: 1, 3: 2, 2: 3, 1: 4}), 1),
    "perelman": (_rules("perelman", 16, {4: 2, 3: 3, 2: 4, 1: 5}), 3),
    "giant": (_rules("giant", 18, {5: 2, 4: 3, 3: 4, 2: 5, 1: 6}), 3),
}
#: Room options and their defaults (C1): board «Классика», one mine, one minesweeper.
DEFAULT_OPTIONS: dict[str, Any] = {"board": "classic", "mines": 1, "sweepers": 1}


def rules_from_options(options: Mapping[str, Any] | None) -> ExtRules:
    """The :class:`ExtRules` of room options ``{"board": "classic"|"perelman"|"giant", "mines": int,
    "sweepers": int}`` (missing keys take :data:`DEFAULT_OPTIONS`). Ranges (C1): mines 0–1 on «Классика», 0–3 on
    «Перельман» and «Гигант»; minesweepers 0–1 everywhere. Counts are JSON ints (``True`` is refused).

    :raises IllegalAction: ``bad_options`` naming the unknown key, the bad value or the range.
    """
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction("bad_options", f"options must be an object, not {options!r}")
    merged = {**DEFAULT_OPTIONS, **(options or {})}
    for name in merged:
        if name not in DEFAULT_OPTIONS:
            reason = f"unknown option {name!r} (options: {', '.join(DEFAULT_OPTIONS)})"
            raise IllegalAction("bad_options", reason, {"why": "unknown", "option": name})
    board = merged["board"]
    if not isinstance(board, str) or board not in BOARDS:
        reason = f"option 'board' must be one of {list(BOARDS)}, not {board!r}"
        raise IllegalAction("bad_options", reason, {"why": "choice", "option": "board", "value": board})
    base, most_mines = BOARDS[board]
    for name, top in (("mines", most_mines), ("sweepers", 1)):
        value = merged[name]
        if type(value) is not int or not 0 <= value <= top:
            reason = f"option {name!r} on the {board} board is an int 0–{top}, not {value!r}"
            detail = {"why": "range", "option": name, "value": value, "board": board, "low": 0, "high": top}
            raise IllegalAction("bad_options", reason, detail)
    return ExtRules(
        base.key, base.board, base.fleet, False, True, False, True, board, merged["mines"], merged["sweepers"]
    )


def options_of(rules: ExtRules) -> dict[str, Any]:
    """The normalised room options of ``rules`` (every key, JSON-ready): what is stored with a game."""
    return {"board": rules.board_name, "mines": rules.mines, "sweepers": rules.sweepers}


def setup_variant(options: Mapping[str, Any] | None) -> str:
    """The key saved setups are kept under: ``"<board>-<mines>-<sweepers>"`` (a setup fits only its own board and
    counts). :raises IllegalAction: ``bad_options``."""
    r = rules_from_options(options)
    return f"{r.board_name}-{r.mines}-{r.sweepers}"


# -- abilities and levels (C4–C6, D8) ---------------------------------------------------------------------------

#: Ability keys (the notation's first word, C5, C6).
AIR, SONAR, MOVE, CARPET, SATELLITE, REPAIR = "air", "sonar", "move", "carpet", "satellite", "repair"
#: The ultimates (C6), each tied to its levels: a new one replaces the previous.
ULTIMATES = (CARPET, SATELLITE, REPAIR)


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability (C5) or an ultimate (C6, D8): ``key``; ``base``: its cost at level 1 (or at the level that
    brings it); ``ultimate``; ``ends_turn`` (D8); ``area``: the side of its square (1 for a single target; the
    air strike's cross fits 3×3); ``attack``: its area is shot at (air, carpet) rather than scanned;
    ``shape``: ``"cross"``, ``"square"`` or ``"cell"``."""

    key: str
    base: int
    ultimate: bool
    ends_turn: bool
    area: int
    attack: bool
    shape: str


#: Every ability, view order (C5 then C6).
ABILITIES: dict[str, Ability] = {
    AIR: Ability(AIR, 10, False, True, 3, True, "cross"),
    SONAR: Ability(SONAR, 6, False, False, 3, False, "square"),
    MOVE: Ability(MOVE, 4, False, True, 1, False, "cell"),
    CARPET: Ability(CARPET, 14, True, True, 3, True, "square"),
    SATELLITE: Ability(SATELLITE, 12, True, False, 5, False, "square"),
    REPAIR: Ability(REPAIR, 13, True, False, 1, False, "cell"),
}


def _level(level: int) -> int:
    if type(level) is not int or level not in LEVELS:
        raise ValueError(f"a level is an int 1–10, not {level!r}")
    return level


def start_energy(level: int) -> int:
    """Energy at the start of a battle (C4: 10; C6: 12 from level 5, 15 at level 10)."""
    level = _level(level)
    return 15 if level >= 10 else 12 if level >= 5 else 10


def max_energy(level: int) -> int:
    """The most energy a fleet holds (C4: 15; C6: 17 from level 5, 20 at level 10)."""
    level = _level(level)
    return 20 if level >= 10 else 17 if level >= 5 else 15


def cost(key: str, level: int) -> int:
    """An ability's cost before the penalty for hit ships (C5; C6: sonar 5 from level 2, manoeuvre 3 from level 3,
    air strike 9 from level 4). :raises KeyError: for an unknown ability."""
    level = _level(level)
    base = ABILITIES[key].base
    if key == SONAR and level >= 2:
        return 5
    if key == MOVE and level >= 3:
        return 3
    if key == AIR and level >= 4:
        return 9
    return base


def ultimate_of(level: int) -> str | None:
    """The one ultimate of a level (C6: each new one replaces the previous): none below 4, «Ковровый удар»
    (``carpet``) at 4–5, «Спутник-сканер» (``satellite``) at 6–7, «Экстренный ремонт» (``repair``) from 8."""
    level = _level(level)
    return None if level < 4 else CARPET if level < 6 else SATELLITE if level < 8 else REPAIR


def reveal_chance(key: str, level: int) -> int:
    """Percent chance that a use reveals a deck of the user's own fleet to the opponent (C5, C6 decisions): air
    strike 100 (75 from level 9), sonar 50 (25 from level 8), carpet 100 (two decks), satellite 100, manoeuvre and
    repair 0."""
    level = _level(level)
    if key == AIR:
        return 75 if level >= 9 else 100
    if key == SONAR:
        return 25 if level >= 8 else 50
    return 100 if key in (CARPET, SATELLITE) else 0
