"""Rule tests for ADMIRAL.md §1 (board and sides) and §2 (the fleet), plus the scale table of §7.1."""

import random
from collections import Counter

import pytest

from admiral.games.admiral.rules import (
    CELLS,
    COLUMNS,
    COLUMNS_RU,
    FLEET_SIZE,
    FRONT_ROW,
    HEIGHT,
    SCALE,
    WIDTH,
    ZONE,
    Action,
    GameState,
    IllegalAction,
    Kind,
    Side,
    auto_arrange,
    cell_name,
    parse_cell,
    scale_row,
)
from admiral.games.admiral.rules.board import RING, distance

from .helpers import SCALE_ROWS

K = Kind


def names(cells):
    return sorted(cell_name(c) for c in cells)


def row_cells(row):
    return sorted(f"{col}{row}" for col in COLUMNS)


# ---------------------------------------------------------------------------------------------
# §1 Board and sides


class TestBoard:
    # rules §1
    def test_board_is_14_columns_by_15_rows(self):
        assert (WIDTH, HEIGHT, len(CELLS)) == (14, 15, 210)

    # rules §1
    def test_columns_are_a_to_n_and_russian_letters(self):
        assert COLUMNS == "abcdefghijklmn"
        assert "".join(COLUMNS_RU) == "АБВГДЕЖЗИКЛМНО"

    # rules §1
    def test_every_cell_has_one_name_column_then_row(self):
        expected = sorted(f"{col}{row}" for col in COLUMNS for row in range(1, 16))
        assert names(CELLS) == expected
        assert all(parse_cell(cell_name(c)) == c for c in CELLS)

    # rules §1: rows are counted from South's edge
    def test_row_1_is_souths_edge(self):
        assert parse_cell("e1") in ZONE[Side.SOUTH]
        assert parse_cell("e15") in ZONE[Side.NORTH]


class TestZones:
    # rules §1
    def test_south_zone_is_rows_1_to_5(self):
        assert names(ZONE[Side.SOUTH]) == sorted(f"{c}{r}" for c in COLUMNS for r in range(1, 6))
        assert len(ZONE[Side.SOUTH]) == 70

    # rules §1
    def test_north_zone_is_rows_11_to_15(self):
        assert names(ZONE[Side.NORTH]) == sorted(f"{c}{r}" for c in COLUMNS for r in range(11, 16))
        assert len(ZONE[Side.NORTH]) == 70

    # rules §1
    def test_rows_6_to_10_are_open_sea(self):
        sea = set(CELLS) - ZONE[Side.SOUTH] - ZONE[Side.NORTH]
        assert names(sea) == sorted(f"{c}{r}" for c in COLUMNS for r in range(6, 11))

    # rules §1
    def test_south_front_row_is_row_5(self):
        assert names(FRONT_ROW[Side.SOUTH]) == row_cells(5)

    # rules §1
    def test_north_front_row_is_row_11(self):
        assert names(FRONT_ROW[Side.NORTH]) == row_cells(11)


class TestNotation:
    # rules §1
    @pytest.mark.parametrize(
        ("text", "col", "row"), [("a1", 0, 1), ("e4", 4, 4), ("n15", 13, 15), ("a15", 0, 15), ("n1", 13, 1)]
    )
    def test_parse_cell(self, text, col, row):
        cell = parse_cell(text)
        assert cell_name(cell) == text
        assert distance(cell, parse_cell("a1")) == col + row - 1

    # rules §1
    @pytest.mark.parametrize(
        "text", ["E4", "e0", "e16", "o1", "e04", " e4", "e4 ", "", "e", "4e", "е4", "e4e5", "e-1", "ee4"]
    )
    def test_malformed_cell_rejected(self, text):
        with pytest.raises(IllegalAction) as err:
            parse_cell(text)
        assert err.value.code == "bad_cell"

    # rules §1: actions use the same cell notation
    @pytest.mark.parametrize(
        ("text", "code"),
        [("e0-e1", "bad_cell"), ("e16-e15", "bad_cell"), ("e04-e05", "bad_cell"), ("o1-n1", "bad_notation")],
    )
    def test_malformed_cell_in_an_action_rejected(self, text, code):
        with pytest.raises(IllegalAction) as err:
            Action.parse(text)
        assert err.value.code == code

    # rules §1
    def test_action_notation_round_trip(self):
        action = Action.parse("e4-e5xe6 [d5+e5]")
        assert (cell_name(action.src), cell_name(action.via), cell_name(action.target)) == ("e4", "e5", "e6")
        assert str(action) == "e4-e5xe6 [d5+e5]"


class TestDistance:
    # rules §1: distances are counted only along rows and columns
    @pytest.mark.parametrize(
        ("a", "b", "d"),
        [("e4", "e4", 0), ("e4", "e5", 1), ("e4", "e8", 4), ("e4", "h4", 3), ("e4", "f5", 2), ("a1", "n15", 27)],
    )
    def test_distance_along_rows_and_columns(self, a, b, d):
        assert distance(parse_cell(a), parse_cell(b)) == d
        assert distance(parse_cell(b), parse_cell(a)) == d

    # rules §1: "8-adjacent" is the king's move
    def test_eight_adjacent_is_the_king_neighbourhood(self):
        assert names(RING[parse_cell("e4")]) == ["d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"]
        assert names(RING[parse_cell("a1")]) == ["a2", "b1", "b2"]
        assert names(RING[parse_cell("a8")]) == ["a7", "a9", "b7", "b8", "b9"]


class TestSides:
    # rules §1
    def test_two_sides_opposing_each_other(self):
        assert list(Side) == [Side.SOUTH, Side.NORTH]
        assert Side.SOUTH.opponent is Side.NORTH
        assert Side.NORTH.opponent is Side.SOUTH

    # rules §1: South moves first
    def test_south_moves_first_in_a_new_game(self):
        rng = random.Random(5)
        state = GameState.from_setups(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng))
        assert state.to_move is Side.SOUTH
        assert state.to_act is Side.SOUTH


# ---------------------------------------------------------------------------------------------
# §2 The fleet

FLEET = [
    # code, Russian, count, strength, tonnage
    ("A", "А", 1, None, 40_000),
    ("L", "Л", 2, 15, 45_000),
    ("KR", "КР", 6, 7, 12_000),
    ("R", "Р", 2, 8, 15_000),
    ("ES", "ЭС", 6, 5, 2_500),
    ("ST", "СТ", 6, 2, 1_000),
    ("TK", "ТК", 6, 3, 50),
    ("KRPL", "КРПЛ", 1, 6, 3_000),
    ("TR", "ТР", 6, 1, 700),
    ("PL", "ПЛ", 6, 4, 1_000),
    ("S", "С", 1, None, 0),
    ("T", "Т", 4, None, 0),
    ("M", "М", 6, None, 0),
    ("SM", "СМ", 1, None, 0),
    ("BR", "БР", 1, None, 0),
    ("AB", "АБ", 1, None, 0),
    ("VMB", "ВМБ", 2, None, 0),
]


class TestFleet:
    # rules §2
    def test_fleet_is_58_units_of_17_kinds(self):
        assert FLEET_SIZE == 58
        assert len(Kind) == 17
        assert sum(k.count for k in Kind) == 58

    # rules §2: every row of the fleet table
    @pytest.mark.parametrize(("code", "ru", "count", "strength", "tonnage"), FLEET)
    def test_fleet_table_row(self, code, ru, count, strength, tonnage):
        kind = Kind.parse(code)
        assert kind.code == code
        assert Kind.parse(ru) is kind
        assert (kind.ru, kind.count, kind.strength, kind.tonnage) == (ru, count, strength, tonnage)

    # rules §2
    def test_ten_ship_classes_are_42_units(self):
        ships = [k for k in Kind if k.is_ship]
        assert [k.code for k in ships] == ["A", "L", "KR", "R", "ES", "ST", "TK", "KRPL", "TR", "PL"]
        assert sum(k.count for k in ships) == 42

    # rules §2: rated ships are all ships but A
    def test_rated_ships_are_all_ships_but_the_carrier(self):
        assert [k.code for k in Kind if k.is_rated] == ["L", "KR", "R", "ES", "ST", "TK", "KRPL", "TR", "PL"]
        assert all(k.strength is not None for k in Kind if k.is_rated)

    # rules §2
    def test_weapons_and_special_means_are_13_units(self):
        weapons = [K.S, K.T, K.M, K.SM, K.BR]
        assert sum(k.count for k in weapons) == 13
        assert K.AB.count + K.VMB.count == 3

    # rules §2, §5.1: SM and VMB never move, everything else does
    def test_only_stationary_mine_and_base_are_immobile(self):
        assert [k.code for k in Kind if not k.is_mobile] == ["SM", "VMB"]

    # rules §2, §3.4: an auto-arranged fleet is exactly the fleet of the table
    def test_auto_arranged_fleet_has_the_table_counts(self):
        for side in Side:
            setup = auto_arrange(side, random.Random(11))
            assert Counter(setup.values()) == {k: k.count for k in Kind}

    # rules §2
    def test_unknown_kind_rejected(self):
        with pytest.raises(IllegalAction) as err:
            Kind.parse("XX")
        assert err.value.code == "unknown_kind"


# ---------------------------------------------------------------------------------------------
# §7.1 The scale of strength: all 21 rows


class TestScale:
    # rules §7.1: the scale has 21 rows, numbered 1–21
    def test_scale_has_21_distinct_rows(self):
        assert len(SCALE) == 21
        assert sorted(SCALE.values()) == list(range(1, 22))

    # rules §7.1: every row of the scale, in any order of members
    @pytest.mark.parametrize(("row", "kinds"), SCALE_ROWS, ids=[str(r) for r, _ in SCALE_ROWS])
    def test_scale_row(self, row, kinds):
        assert scale_row(kinds) == row
        assert scale_row(list(reversed(kinds))) == row

    # rules §2, §7.1: a single ship's row is its strength
    @pytest.mark.parametrize("kind", [k for k in Kind if k.is_rated], ids=lambda k: k.code)
    def test_single_ship_row_is_its_strength(self, kind):
        assert scale_row([kind]) == kind.strength

    # rules §7.1: "КРПЛ at the head of a pack" imposes no position
    def test_cruiser_submarine_anywhere_in_the_pack(self):
        assert scale_row([K.PL, K.KRPL, K.PL]) == 17
        assert scale_row([K.PL, K.PL, K.KRPL]) == 17

    # rules §7.1: any composition not in the table is not a formation
    @pytest.mark.parametrize(
        "kinds",
        [
            [K.L, K.KR],
            [K.KR, K.ES],
            [K.KR] * 4,
            [K.L] * 3,
            [K.R, K.R, K.R],
            [K.ES] * 4,
            [K.PL] * 4,
            [K.PL, K.ES],
            [K.KRPL, K.KRPL],
            [K.ST, K.ST],
            [K.TK, K.KR],
            [K.TR, K.PL],
            [K.A, K.L],
            [K.A],
            [K.S],
            [K.VMB],
            [],
        ],
        ids=lambda kinds: "+".join(k.code for k in kinds) or "empty",
    )
    def test_composition_not_in_the_table(self, kinds):
        assert scale_row(kinds) is None
