"""The rules of «Морской бой: расширенный» (``shared/rules/BATTLESHIP.md`` C and D): pure, deterministic,
standard library and the classic rules (:mod:`admiral.games.battleship.rules`) only.

The engine extends classic the way python-chess's variants extend its board: :class:`ExtRules` is a classic
``Rules`` (three boards, their fleets, mines and minesweepers as figures, C1, C2), :class:`ExtState` a classic
``GameState`` (mines, minesweepers, energy, abilities, ultimates, levels' perks, fair chance: C3–C6, D5–D13),
:func:`view` the classic view with what C adds, :class:`ExtGame` and :class:`ExtGameRecord` the classic game and
record. Setups use classic's functions, which take the figures (``"M"`` a mine, ``"T"`` a minesweeper) as
one-cell pieces under the no-touch rule: :func:`validate_setup`, :func:`check_setup`, :func:`auto_arrange`…

Typical use::

    game = ExtGame(setups, {"options": {"board": "giant", "mines": 3}, "seed": 42, "levels": {"south": 6}})
    game.apply("sonar b5")                 # or any action of game.legal_actions()
    game.view("north").to_dict()           # what North may know, ready for the wire

>>> import random
>>> rules = rules_from_options({"board": "classic", "mines": 1, "sweepers": 1})
>>> south, north = auto_arrange(rules, random.Random(1)), auto_arrange(rules, random.Random(2))
>>> sorted(south.values()).count("M"), validate_setup(rules, south)
(1, [])
>>> game = ExtGame({"south": south, "north": north}, {"options": options_of(rules), "seed": 3})
>>> v = game.view(game.state.to_move).to_dict()
>>> v["game"], v["energy"], [(a["key"], a["cost"], a["ready"]) for a in v["abilities"]]
('battleship_ext', {'value': 15, 'max': 15, 'gain': 5}, [('air', 10, True), ('sonar', 6, True), ('move', 4, True)])
>>> [(e["type"], e.get("ability")) for e in v["legal"][99:102]], v["legal"][102]["notation"], v["chance"]["seed"]
([('shot', None), ('area', 'air'), ('area', 'sonar')], 'move d5-c5', None)

Modules: :mod:`.fleet` (rule values, options, abilities and perks as data), :mod:`.state` (actions, notation,
events, the state), :mod:`.view` (the one view function), :mod:`.record` (records and games).
"""

from admiral.games.battleship.rules import (
    Answer,
    IllegalAction,
    InvalidSetup,
    SetupProblem,
    Side,
    Touching,
    auto_arrange,
    canonical_setup,
    check_setup,
    clean_partial,
    figures_of,
    normalize_setup,
    setup_from_text,
    setup_to_text,
    ships_of,
    validate_setup,
)

from .fleet import (
    ABILITIES,
    AIR,
    BOARDS,
    CARPET,
    DEFAULT_OPTIONS,
    FIGURE_NAMES,
    LEVELS,
    MINE,
    MOVE,
    REPAIR,
    SATELLITE,
    SHIP_NAMES,
    SONAR,
    SWEEPER,
    ULTIMATES,
    Ability,
    ExtRules,
    cost,
    max_energy,
    options_of,
    reveal_chance,
    rules_from_options,
    setup_variant,
    start_energy,
    ultimate_of,
)
from .record import FORMAT, ExtGame, ExtGameRecord, settings_of
from .state import (
    AREA_ABILITIES,
    AbilityUsed,
    AreaAbility,
    Draw,
    ExtState,
    Handed,
    Manoeuvre,
    Manoeuvred,
    Repair,
    Repaired,
    Scan,
    Scanned,
    Use,
    area_cells,
    parse_action,
)
from .view import AbilityView, EnergyView, ExtPlayerView, ExtShotView, ExtSideView, FigureView, view

__all__ = [
    "ABILITIES", "AIR", "AREA_ABILITIES", "BOARDS", "CARPET", "DEFAULT_OPTIONS", "FIGURE_NAMES", "FORMAT", "LEVELS",
    "MINE", "MOVE", "REPAIR", "SATELLITE", "SHIP_NAMES", "SONAR", "SWEEPER", "ULTIMATES",
    "Ability", "AbilityUsed", "AbilityView", "Answer", "AreaAbility", "Draw", "EnergyView", "ExtGame",
    "ExtGameRecord", "ExtPlayerView", "ExtRules", "ExtShotView", "ExtSideView", "ExtState", "FigureView", "Handed",
    "IllegalAction", "InvalidSetup", "Manoeuvre", "Manoeuvred", "Repair", "Repaired", "Scan", "Scanned",
    "SetupProblem", "Side", "Touching", "Use",
    "area_cells", "auto_arrange", "canonical_setup", "check_setup", "clean_partial", "cost", "figures_of",
    "max_energy", "normalize_setup", "options_of", "parse_action", "reveal_chance", "rules_from_options",
    "settings_of", "setup_from_text", "setup_to_text", "setup_variant", "ships_of", "start_energy", "ultimate_of",
    "validate_setup", "view",
]  # fmt: skip
