"""The rules of «Военно-морская игра» (``shared/rules/NAVAL_GAME.md``): pure, deterministic given the die's seed,
standard library only.

Typical use::

    game = Game.new({"options": {}, "seed": 42})
    game.apply("d2-d3")                   # or an Order from game.legal_actions()
    game.view("north").to_dict()          # the open board, ready for the wire

Modules: :mod:`.board` (the map: points, facings, land, coastal guns, §1), :mod:`.fleet` (kinds, seniority, the
side struck, the start, §2, §4), :mod:`.state` (orders, events, the state, legality and application, §3–§7),
:mod:`.view` (the one view function), :mod:`.record` (setups, records, games). The die is the house's generator
(:func:`admiral.games.common.draw`, §7.5). Nothing here imports the rest of the project.
"""

from ...common import IllegalAction, InvalidSetup, SetupProblem, commitment, draw, seed_bytes
from .board import COLUMNS, GUNS, HEIGHT, LAND, MAP, POINTS, WIDTH, Facing, Map, Point, name, parse_point, point_at
from .fleet import FLEET, MINES, START, START_FACING, Kind, Struck, is_senior, may_strike, struck_side
from .record import FORMAT, Game, GameRecord, check_setup, settings_of, setup_of, setup_problems, start_setup
from .state import (
    FACES,
    QUIET_PLIES,
    Abandon,
    Action,
    AgreeDraw,
    Event,
    FlagFall,
    GameOver,
    GameState,
    MineLaid,
    MineLifted,
    MineOp,
    Moved,
    Order,
    Reason,
    Resign,
    Result,
    Roll,
    Ship,
    Side,
    Strike,
    Sunk,
    Turned,
    Verb,
    apply,
    legal_actions,
)
from .view import AUDIENCES, PlayerView, order_dict, view

__all__ = [
    "AUDIENCES", "COLUMNS", "FACES", "FLEET", "FORMAT", "GUNS", "HEIGHT", "LAND", "MAP", "MINES", "POINTS",
    "QUIET_PLIES", "START", "START_FACING", "WIDTH",
    "Abandon", "Action", "AgreeDraw", "Event", "Facing", "FlagFall", "Game", "GameOver", "GameRecord", "GameState",
    "IllegalAction", "InvalidSetup", "Kind", "Map", "MineLaid", "MineLifted", "MineOp", "Moved", "Order",
    "PlayerView", "Point", "Reason", "Resign", "Result", "Roll", "SetupProblem", "Ship", "Side", "Strike", "Struck",
    "Sunk", "Turned", "Verb",
    "apply", "check_setup", "commitment", "draw", "is_senior", "legal_actions", "may_strike", "name", "order_dict",
    "parse_point", "point_at", "seed_bytes", "settings_of", "setup_of", "setup_problems", "start_setup",
    "struck_side", "view",
]  # fmt: skip
