"""The classic bots on the larger boards of rules C1 (16 × 16 «Перельман», 18 × 18 «Гигант»), played on the classic
engine with rules built from any board and fleet: every level legal, every game won within the board's cells."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from admiral.games.battleship.bots import Knowledge, layout_from_setup, layout_problems
from admiral.games.battleship.rules import CLASSIC, Board, GameState, ShipClass, Side, view
from admiral.games.battleship.seat_bot import SeatBot, knowledge_of

#: Rules C1's boards with classic shooting (no mines, minesweepers or abilities), on the classic engine.
PERELMAN = replace(
    CLASSIC,
    board=Board.square(16),
    fleet=(
        ShipClass("4", 4, 2, "four-decker"),
        ShipClass("3", 3, 3, "three-decker"),
        ShipClass("2", 2, 4, "two-decker"),
        ShipClass("1", 1, 5, "one-decker"),
    ),
)
GIANT = replace(
    CLASSIC,
    board=Board.square(18),
    fleet=(
        ShipClass("5", 5, 2, "five-decker"),
        ShipClass("4", 4, 3, "four-decker"),
        ShipClass("3", 3, 4, "three-decker"),
        ShipClass("2", 2, 5, "two-decker"),
        ShipClass("1", 1, 6, "one-decker"),
    ),
)


def test_knowledge_of_rules_matches_the_named_rule_sets():
    # rules C1: the boards and fleets; classic answers name the sunk ship by its cells (A6)
    assert knowledge_of(PERELMAN) == Knowledge.new("perelman", named=True)
    assert knowledge_of(GIANT) == Knowledge.new("giant", named=True)
    assert knowledge_of(CLASSIC) == Knowledge.new("classic", named=True)
    k = knowledge_of(GIANT)
    assert (k.width, k.height, k.decks, len(k.fleet)) == (18, 18, 50, 20)


@pytest.mark.parametrize("rules", [PERELMAN, GIANT], ids=["perelman", "giant"])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_setups_are_legal_on_every_board(rules, level):
    # rules C1, C2: the fleet of the board, no two ships touching
    k = knowledge_of(rules)
    for seed in range(2):
        setup = SeatBot(level, seed, rules).setup("south")
        assert len(setup) == k.decks
        assert layout_problems(layout_from_setup(setup, k), k) == []


@pytest.mark.parametrize("rules", [PERELMAN, GIANT], ids=["perelman", "giant"])
def test_levels_play_whole_games_on_the_classic_engine(rules):
    # rules A5 on C1's boards: every bot shot is one of the view's legal shots, and a game ends with a winner
    rng = random.Random(f"boards:{rules.board.width}")
    for south, north in ((1, 2), (3, 4), (5, 4)):
        seed = rng.randrange(10**6)
        bots = {Side.SOUTH: SeatBot(south, seed, rules), Side.NORTH: SeatBot(north, seed + 1, rules)}
        setups = {side: bot.setup(side.label) for side, bot in bots.items()}
        state = GameState.from_setups(rules, setups[Side.SOUTH], setups[Side.NORTH], first=Side.SOUTH)
        plies = 0
        while state.result is None:
            side = state.to_act
            v = view(state, side)
            notation = bots[side].act(v, 0.2)  # a short deadline: fewer draws, the same legality
            assert notation in {str(a) for a in v.legal}
            state.apply(next(a for a in v.legal if str(a) == notation))
            plies += 1
            assert plies <= 2 * rules.board.size
        winner = state.result.winner
        assert winner is not None and state.afloat[winner.opponent] == 0 and state.afloat[winner] > 0
