"""Setups of the extended variant: ships, mines ``M`` and minesweepers ``T`` under the no-touch rule, problems
explained, auto-arrangement that always succeeds (BATTLESHIP.md C1, C2, D5; A3)."""

from __future__ import annotations

import random

import pytest

from admiral.games.battleship_ext.rules import (
    BOARDS,
    IllegalAction,
    InvalidSetup,
    auto_arrange,
    check_setup,
    figures_of,
    rules_from_options,
    setup_from_text,
    setup_to_text,
    ships_of,
    validate_setup,
)
from admiral.games.battleship_ext.rules.fleet import ExtRules

from .helpers import GIANT, NORTH, PERELMAN, SOUTH

CLASSIC = rules_from_options({})
SHIPS = SOUTH.rsplit(" M:", 1)[0]


def codes(rules: ExtRules, text: str, complete: bool = True) -> list[str]:
    return [p.code for p in validate_setup(rules, setup_from_text(text), complete=complete)]


class TestValidation:
    @pytest.mark.parametrize(
        ("text", "options"),
        [
            (SOUTH, {}),
            (NORTH, {}),
            (PERELMAN, {"board": "perelman", "mines": 3}),
            (GIANT, {"board": "giant", "mines": 3}),
        ],
    )
    def test_valid_setups(self, text, options):  # rules C1, C2
        assert validate_setup(rules_from_options(options), setup_from_text(text)) == []

    def test_a_mine_touching_a_ship_is_explained(self):  # rules C2: every figure keeps the no-touch rule
        (p,) = validate_setup(CLASSIC, setup_from_text(SHIPS + " M:f4 T:c10"))
        assert (p.code, p.cell, p.kind, p.other) == ("touching", "e3", "3", "M")
        assert p.cells == ("e3", "f4") and "mine at f4" in p.message and "no figure may touch" in p.message

    def test_a_minesweeper_touching_a_mine(self):  # rules C2
        (p,) = validate_setup(CLASSIC, setup_from_text(SHIPS + " M:j10 T:i9"))
        assert (p.code, p.kind, p.other, p.cells) == ("touching", "T", "M", ("i9", "j10"))

    def test_two_mines_side_by_side_are_two_figures_that_touch(self):  # rules C2: a figure is one cell
        rules = rules_from_options({"board": "perelman", "mines": 3})
        text = PERELMAN.replace("M:i3", "M:i2")
        assert codes(rules, text) == ["touching"]

    def test_too_many_and_too_few_figures(self):  # rules C1: the room's counts
        assert codes(CLASSIC, SOUTH + " M:e9") == ["too_many"]
        assert codes(CLASSIC, SHIPS + " T:c10") == ["too_few"]
        none = rules_from_options({"mines": 0, "sweepers": 0})
        assert codes(none, SOUTH) == ["too_many", "too_many"]
        assert codes(none, SHIPS) == []

    def test_partial_setups_may_miss_figures(self):  # rules A3 as classic
        assert codes(CLASSIC, "M:j10", complete=False) == []
        assert codes(CLASSIC, "M:j10 M:a1", complete=False) == ["too_many"]

    def test_unknown_code_and_off_board_cell(self):  # rules C1, D1
        problems = validate_setup(CLASSIC, {"a1": "X", "k1": "M"}, complete=False)
        assert [p.code for p in problems] == ["unknown_code", "bad_cell"]
        assert "M, T" in problems[0].message

    def test_ships_and_figures_are_apart(self):  # rules D5: figures are not ships
        s = check_setup(CLASSIC, setup_from_text(SOUTH))
        assert len(ships_of(CLASSIC, s)) == 10
        assert [(f.code, f.cells) for f in figures_of(CLASSIC, s)] == [("M", (9 * 32 + 9,)), ("T", (2 * 32 + 9,))]
        assert setup_to_text(CLASSIC, s) == (
            "4:a1-a4 3:c1-c3 3:e1-e3 2:a6-a7 2:g1-g2 2:i1-i2 1:c6 1:e6 1:g6 1:i6 M:j10 T:c10"
        )

    def test_larger_boards_take_their_cells(self):  # rules D1
        rules = rules_from_options({"board": "giant", "mines": 3})
        assert codes(rules, GIANT.replace("T:k7", "T:r18")) == []
        assert codes(CLASSIC, SOUTH.replace("M:j10", "M:k1"), complete=False)[0] == "bad_cell"


class TestAutoArrange:
    @pytest.mark.parametrize("board", list(BOARDS))
    def test_always_finds_a_layout_with_the_most_figures(self, board):  # rules C1, C2, A3
        rules = rules_from_options({"board": board, "mines": BOARDS[board][1], "sweepers": 1})
        for seed in range(40):
            setup = auto_arrange(rules, random.Random(seed))
            assert validate_setup(rules, setup) == [], (board, seed)
            assert list(setup.values()).count("M") == rules.mines
            assert list(setup.values()).count("T") == 1

    @pytest.mark.parametrize(("board", "mines", "sweepers"), [("classic", 0, 0), ("perelman", 1, 0), ("giant", 2, 1)])
    def test_every_allowed_count(self, board, mines, sweepers):  # rules C1
        rules = rules_from_options({"board": board, "mines": mines, "sweepers": sweepers})
        for seed in range(10):
            setup = auto_arrange(rules, random.Random(1000 + seed))
            assert validate_setup(rules, setup) == []
            assert (list(setup.values()).count("M"), list(setup.values()).count("T")) == (mines, sweepers)

    def test_the_same_seed_gives_the_same_setup(self):  # rules A3 (deterministic)
        assert auto_arrange(CLASSIC, random.Random(5)) == auto_arrange(CLASSIC, random.Random(5))

    def test_keeps_valid_partial_placements(self):  # rules A3
        partial = setup_from_text("4:a1-a4 M:j10 T:c10")
        setup = auto_arrange(CLASSIC, random.Random(2), partial)
        assert validate_setup(CLASSIC, setup) == []
        assert all(setup[CLASSIC.board.parse(c)] == code for c, code in partial.items())

    def test_drops_a_figure_that_touches_what_was_kept(self):  # rules A3, C2: the valid part only
        setup = auto_arrange(CLASSIC, random.Random(2), setup_from_text("4:a1-a4 M:b5"))
        assert validate_setup(CLASSIC, setup) == []
        assert setup.get(CLASSIC.board.parse("b5")) != "M"

    def test_fixed_keeps_everything_or_refuses(self):  # rules A3 (as classic)
        setup = auto_arrange(CLASSIC, random.Random(4), setup_from_text("M:e5"), fixed=True)
        assert setup[CLASSIC.board.parse("e5")] == "M" and validate_setup(CLASSIC, setup) == []
        with pytest.raises(InvalidSetup):
            auto_arrange(CLASSIC, random.Random(4), setup_from_text("4:a1-a4 M:b5"), fixed=True)
        with pytest.raises(IllegalAction) as e:  # no room left: refused, never a bad layout
            auto_arrange(CLASSIC, random.Random(4), avoid=CLASSIC.board.cells[10:])
        assert e.value.code == "no_arrangement"
