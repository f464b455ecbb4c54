"""Small positions for the progression tests: two bases and a spare minesweeper a side, far from the action."""

from admiral.games.admiral.rules import GameState, Side
from admiral.progression import stats_of_play

SOUTH, NORTH = Side.SOUTH, Side.NORTH
SOUTH_HOME = "VMBa1 VMBc1 TRb1"
NORTH_HOME = "VMBn15 VMBl15 TRm15"
#: Quiet moves of the spare minesweepers: two turns a side, so that a game counts (PROGRESSION.md §2).
FILLER = ["b1-b2", "m15-m14", "b2-b3", "m14-m13"]


def position(south: str, north: str = "", to_move: Side = SOUTH, *, homes: bool = True) -> GameState:
    """South's and North's units (notation text), plus both home fleets unless ``homes`` is false."""
    if homes:
        south, north = f"{south} {SOUTH_HOME}", f"{north} {NORTH_HOME}"
    return GameState.from_text(f"{south} / {north}", to_move)


def stats(state: GameState, *actions: str, end: str | None = "resign north", filler: bool = True):
    """(South's, North's) GameStats of ``actions`` played after the filler moves, then ``end``."""
    played = [*(FILLER if filler else []), *actions, *([end] if end else [])]
    result = stats_of_play(state, played)
    return result[SOUTH], result[NORTH]
