"""The rules of «Морской бой» (``shared/rules/BATTLESHIP.md`` A, B, D): pure, deterministic, standard library only.

Typical use::

    game = Game(setups, {"options": {"rules": "hasbro", "salvo": True}, "seed": 42})
    game.apply("b5")                      # or a Shot from game.legal_actions()
    game.view("north").to_dict()          # what North may know, ready for the wire

Modules: :mod:`.board` (cells and grids), :mod:`.fleet` (rule sets as data), :mod:`.setup` (validation,
auto-arrangement), :mod:`.state` (actions, events, the state), :mod:`.view` (the one view function),
:mod:`.record` (records and games), :mod:`.chance` (draws from the seed). Nothing here imports the rest of the
project.
"""

from .board import BOARD, ROWS, ROWS_RU, Board, Cell, cell_at, cell_col, cell_name, cell_name_ru, cell_row, parse_cell
from .chance import commitment, draw, seed_bytes
from .errors import IllegalAction
from .fleet import CLASSIC, HASBRO, RULES, Rules, ShipClass, options_of, rules_from_options
from .record import FORMAT, Game, GameRecord, first_shooter, settings_of
from .setup import (
    STYLES,
    InvalidSetup,
    Placements,
    SetupProblem,
    Ship,
    Touching,
    auto_arrange,
    canonical_setup,
    check_setup,
    clean_partial,
    density,
    figures_of,
    normalize_setup,
    setup_from_text,
    setup_to_text,
    ships_of,
    validate_setup,
)
from .state import (
    BASE_ANSWERS,
    Abandon,
    Action,
    AgreeDraw,
    Answer,
    Event,
    FlagFall,
    GameOver,
    GameState,
    Reason,
    Resign,
    Result,
    Shot,
    ShotFired,
    Side,
    TurnPassed,
    apply,
    legal_actions,
)
from .view import AUDIENCES, PlayerView, ShipView, ShotView, SideView, fleet_view, shot_told, shot_view, view

__all__ = [
    "AUDIENCES", "BASE_ANSWERS", "BOARD", "CLASSIC", "FORMAT", "HASBRO", "ROWS", "ROWS_RU", "RULES", "STYLES",
    "Abandon", "Action", "AgreeDraw", "Answer", "Board", "Cell", "Event", "FlagFall", "Game", "GameOver",
    "GameRecord", "GameState", "IllegalAction", "InvalidSetup", "Placements", "PlayerView", "Reason", "Resign",
    "Result", "Rules", "SetupProblem", "Ship", "ShipClass", "ShipView", "Shot", "ShotFired", "ShotView", "Side",
    "SideView", "Touching", "TurnPassed",
    "apply", "auto_arrange", "canonical_setup", "cell_at", "cell_col", "cell_name", "cell_name_ru", "cell_row",
    "check_setup", "clean_partial", "commitment", "density", "draw", "figures_of", "first_shooter", "fleet_view",
    "legal_actions",
    "normalize_setup", "options_of", "parse_cell", "rules_from_options", "seed_bytes", "settings_of",
    "setup_from_text", "setup_to_text", "ships_of", "shot_told", "shot_view", "validate_setup", "view",
]  # fmt: skip
