"""Boards, fleets, options, setup variants and the perks' tables of the extended variant (BATTLESHIP.md C1, C4–C6,
D8, D11)."""

from __future__ import annotations

import pytest

from admiral.games.battleship_ext.rules import (
    ABILITIES,
    BOARDS,
    SHIP_NAMES,
    IllegalAction,
    cost,
    max_energy,
    options_of,
    reveal_chance,
    rules_from_options,
    setup_variant,
    start_energy,
    ultimate_of,
)
from admiral.games.common import OPTION_REFUSALS


class TestBoards:
    @pytest.mark.parametrize(
        ("board", "side", "fleet", "ships", "decks"),
        [
            ("classic", 10, [(4, 1), (3, 2), (2, 3), (1, 4)], 10, 20),  # rules C1
            ("perelman", 16, [(4, 2), (3, 3), (2, 4), (1, 5)], 14, 30),  # rules C1
            ("giant", 18, [(5, 2), (4, 3), (3, 4), (2, 5), (1, 6)], 20, 50),  # rules C1
        ],
    )
    def test_each_board_has_its_grid_and_fleet(self, board, side, fleet, ships, decks):  # rules C1
        r = rules_from_options({"board": board})
        assert (r.board.width, r.board.height) == (side, side)
        assert [(s.size, s.count) for s in r.fleet] == fleet
        assert [s.code for s in r.fleet] == [str(size) for size, _ in fleet]
        assert (r.ships, r.decks) == (ships, decks)
        assert r.touching is False and r.again_on_hit is True  # rules C2, C3: no touching, a hit shoots again

    def test_rows_on_larger_boards(self):  # rules D1
        assert rules_from_options({"board": "perelman"}).board.to_dict()["rows"] == "abcdefghijklmnop"
        assert rules_from_options({"board": "giant"}).board.to_dict()["rows_ru"] == "АБВГДЕЖЗИКЛМНОПРСТ"

    def test_ship_names_by_size(self):  # rules C1 decision
        assert SHIP_NAMES == {5: "Супер-линкор", 4: "Линкор", 3: "Крейсер", 2: "Эсминец", 1: "Катер"}

    def test_mines_and_sweepers_are_figures_not_ships(self):  # rules C2, D5
        r = rules_from_options({"board": "giant", "mines": 3, "sweepers": 1})
        assert [(f.code, f.size, f.count) for f in r.figures] == [("M", 1, 3), ("T", 1, 1)]
        assert r.codes == ("5", "4", "3", "2", "1") and r.setup_codes == ("5", "4", "3", "2", "1", "M", "T")
        assert r.ships == 20 and r.decks == 50


class TestOptions:
    def test_defaults(self):  # docs/battleship_ext.md: classic, 1 mine, 1 minesweeper
        assert options_of(rules_from_options({})) == {"board": "classic", "mines": 1, "sweepers": 1}
        assert options_of(rules_from_options(None)) == {"board": "classic", "mines": 1, "sweepers": 1}

    @pytest.mark.parametrize(
        "options",
        [
            {"board": "classic", "mines": 0, "sweepers": 0},
            {"board": "classic", "mines": 1, "sweepers": 1},
            {"board": "perelman", "mines": 3, "sweepers": 0},
            {"board": "giant", "mines": 2, "sweepers": 1},
        ],
    )
    def test_counts_in_range_are_kept(self, options):  # rules C1
        assert options_of(rules_from_options(options)) == options

    @pytest.mark.parametrize(
        ("options", "word"),
        [
            ({"board": "classic", "mines": 2}, "mines"),  # rules C1: 0–1 on «Классика»
            ({"board": "perelman", "mines": 4}, "mines"),  # rules C1: 0–3
            ({"board": "giant", "mines": -1}, "mines"),
            ({"sweepers": 2}, "sweepers"),  # rules C1: 0–1 everywhere
            ({"mines": True}, "mines"),  # JSON ints only
            ({"mines": 1.0}, "mines"),
            ({"mines": "1"}, "mines"),
            ({"board": "huge"}, "board"),
            ({"board": None}, "board"),
            ({"rules": "classic"}, "rules"),
        ],
    )
    def test_bad_options_are_refused_with_a_reason(self, options, word):  # rules C1
        with pytest.raises(IllegalAction) as e:
            rules_from_options(options)
        assert e.value.code == "bad_options" and word in e.value.reason
        assert e.value.detail["option"] == word and e.value.detail["why"] in OPTION_REFUSALS  # for the house to word

    def test_a_count_out_of_range_gives_the_range_as_data(self):  # rules C1; the room form words it (issue 20)
        with pytest.raises(IllegalAction) as e:
            rules_from_options({"board": "classic", "mines": 3})
        detail = {"why": "range", "option": "mines", "value": 3, "board": "classic", "low": 0, "high": 1}
        assert e.value.detail == detail

    def test_setup_variant(self):  # docs/battleship_ext.md: saved setups per variant
        assert setup_variant({}) == "classic-1-1"
        assert setup_variant({"board": "perelman", "mines": 3, "sweepers": 0}) == "perelman-3-0"

    def test_board_table_gives_the_mines_range(self):  # rules C1
        assert {k: most for k, (_, most) in BOARDS.items()} == {"classic": 1, "perelman": 3, "giant": 3}


class TestPerks:
    def test_energy_start_and_max_by_level(self):  # rules C4, C6: L5 12/17, L10 15/20
        assert [start_energy(n) for n in range(1, 11)] == [10, 10, 10, 10, 12, 12, 12, 12, 12, 15]
        assert [max_energy(n) for n in range(1, 11)] == [15, 15, 15, 15, 17, 17, 17, 17, 17, 20]

    def test_costs_by_level(self):  # rules C5, C6: L2 sonar 5, L3 manoeuvre 3, L4 air 9
        assert [cost("sonar", n) for n in (1, 2, 10)] == [6, 5, 5]
        assert [cost("move", n) for n in (1, 2, 3, 10)] == [4, 4, 3, 3]
        assert [cost("air", n) for n in (1, 3, 4, 10)] == [10, 10, 9, 9]
        assert (cost("carpet", 4), cost("satellite", 6), cost("repair", 8)) == (14, 12, 13)

    def test_one_ultimate_per_level_each_replacing_the_last(self):  # rules C6
        assert [ultimate_of(n) for n in range(1, 11)] == [
            None, None, None, "carpet", "carpet", "satellite", "satellite", "repair", "repair", "repair",
        ]  # fmt: skip

    def test_self_reveal_chances(self):  # rules C5 decision, C6: L8 sonar 25 %, L9 air 75 %
        assert [reveal_chance("air", n) for n in (1, 8, 9, 10)] == [100, 100, 75, 75]
        assert [reveal_chance("sonar", n) for n in (1, 7, 8)] == [50, 50, 25]
        assert (reveal_chance("carpet", 4), reveal_chance("satellite", 6)) == (100, 100)
        assert (reveal_chance("move", 1), reveal_chance("repair", 8)) == (0, 0)

    def test_which_abilities_end_the_turn(self):  # rules C5, D8
        assert {k: a.ends_turn for k, a in ABILITIES.items()} == {
            "air": True, "sonar": False, "move": True, "carpet": True, "satellite": False, "repair": False,
        }  # fmt: skip

    @pytest.mark.parametrize("level", [0, 11, True, "5"])
    def test_levels_are_1_to_10(self, level):  # rules C6
        with pytest.raises(ValueError):
            start_energy(level)
