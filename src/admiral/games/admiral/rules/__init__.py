"""The rules of «Адмирал» (``../shared/rules/ADMIRAL.md``): pure, deterministic, standard library only.

Typical use::

    game = Game.new_random(random.Random(1))
    game.apply("e5-e6")                  # or an Action from game.legal_actions()
    game.view(Side.NORTH).to_dict()      # what North may know, ready for the wire

The server talks to it through :class:`Game`/:class:`GameRecord`; bots see only :class:`PlayerView`.
"""

from .actions import Abandon, Action, AgreeDraw, Attack, Declare, Detonate, FlagFall, Move, Resign
from .board import CELLS, COLUMNS, COLUMNS_RU, FRONT_ROW, HEIGHT, WIDTH, ZONE, Cell, cell_name, parse_cell
from .errors import IllegalAction
from .events import BattleReport, DeclarationRequested, Event, GameOver, Moved, Reason, Result, Seen
from .record import FORMAT, Game, GameRecord
from .san import format_san, parse_san
from .setup import InvalidSetup, SetupProblem, auto_arrange, check_setup, normalize_setup, validate_setup
from .state import (
    CARRIER,
    QUIET_LIMIT,
    GameState,
    Pending,
    apply,
    formations_at,
    has_legal_action,
    is_armed,
    legal_actions,
    strongest_declaration,
)
from .units import FLEET_SIZE, SCALE, Kind, Side, Unit, scale_row, unit
from .view import MoveView, PendingView, PlayerView, UnitView, view

__all__ = [
    "CARRIER",
    "CELLS", "COLUMNS", "COLUMNS_RU", "FLEET_SIZE", "FORMAT", "FRONT_ROW", "HEIGHT", "QUIET_LIMIT", "SCALE",
    "WIDTH", "ZONE",
    "Abandon", "Action", "AgreeDraw", "Attack", "BattleReport", "Cell", "DeclarationRequested", "Declare",
    "Detonate", "Event", "FlagFall", "Game", "GameOver", "GameRecord", "GameState", "IllegalAction", "InvalidSetup",
    "Kind", "Move", "MoveView", "Moved", "Pending", "PendingView", "PlayerView", "Reason", "Resign", "Result", "Seen",
    "SetupProblem", "Side", "Unit", "UnitView",
    "apply", "auto_arrange", "cell_name", "check_setup", "format_san", "formations_at", "has_legal_action", "is_armed",
    "legal_actions", "normalize_setup", "parse_cell", "parse_san", "scale_row", "strongest_declaration", "unit",
    "validate_setup", "view",
]  # fmt: skip
