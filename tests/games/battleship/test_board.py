"""Cells: wire names, Russian names, parsing, grids and their neighbourhoods (rules A1, D1)."""

from __future__ import annotations

import pytest

from admiral.games.battleship.rules import (
    BOARD,
    Board,
    IllegalAction,
    cell_at,
    cell_name,
    cell_name_ru,
    parse_cell,
)


class TestNames:
    def test_rows_top_to_bottom_columns_left_to_right(self):  # rules A1
        assert cell_name(cell_at(0, 0)) == "a1"
        assert cell_name(cell_at(1, 4)) == "b5"
        assert cell_name(cell_at(9, 9)) == "j10"

    def test_russian_rows_have_no_short_i(self):  # rules A1
        assert [cell_name_ru(cell_at(r, 0))[0] for r in range(10)] == list("АБВГДЕЖЗИК")
        assert cell_name_ru(parse_cell("b5")) == "Б5"
        assert cell_name_ru(parse_cell("j10")) == "К10"

    @pytest.mark.parametrize("text", ["b5", "B5", "Б5", "б5", " b5 "])
    def test_every_spelling_parses_to_the_same_cell(self, text):  # rules A1
        assert cell_name(parse_cell(text)) == "b5"

    def test_cyrillic_look_alikes_are_their_own_rows(self):
        # Cyrillic В is the third row (c), Latin B the second (b); Cyrillic Е is f, Latin E is e.
        assert cell_name(parse_cell("В1")) == "c1" and cell_name(parse_cell("B1")) == "b1"
        assert cell_name(parse_cell("Е1")) == "f1" and cell_name(parse_cell("E1")) == "e1"

    @pytest.mark.parametrize("text", ["", "b", "5", "b0", "b05", "b19", "Й1", "s1", "bb5", "b 5", 5, None])
    def test_malformed_cells_are_refused(self, text):
        with pytest.raises(IllegalAction) as e:
            parse_cell(text)
        assert e.value.code == "bad_cell"

    def test_larger_boards_continue_the_letters(self):  # rules D1
        assert cell_name(parse_cell("p16")) == "p16" and cell_name_ru(parse_cell("r18")) == "Т18"
        assert cell_name(parse_cell("Л11")) == "k11"

    def test_sorting_cells_is_reading_order(self):
        names = ["a1", "a2", "a10", "b1", "j10"]
        assert [cell_name(c) for c in sorted(parse_cell(n) for n in reversed(names))] == names


class TestBoard:
    def test_the_10x10_board(self):  # rules A1
        assert (BOARD.width, BOARD.height, BOARD.size, len(BOARD.cells)) == (10, 10, 100, 100)
        assert [cell_name(c) for c in BOARD.cells[:11]] == [*(f"a{i}" for i in range(1, 11)), "b1"]

    def test_cells_off_the_board_are_refused_by_the_board(self):
        assert parse_cell("k1") not in BOARD
        with pytest.raises(IllegalAction) as e:
            BOARD.parse("k1")
        assert e.value.code == "bad_cell"
        assert BOARD.parse("К1") == parse_cell("j1")

    def test_neighbourhoods_are_cut_at_the_edge(self):
        assert len(BOARD.ring[parse_cell("a1")]) == 3 and len(BOARD.ring[parse_cell("e5")]) == 8
        assert sorted(cell_name(c) for c in BOARD.orth[parse_cell("j10")]) == ["i10", "j9"]
        assert len(BOARD.ring[parse_cell("a5")]) == 5

    def test_board_size_is_data(self):  # rules D1
        big = Board.square(18)
        assert big.size == 324 and parse_cell("r18") in big and parse_cell("r18") not in BOARD
        assert big.to_dict()["rows_ru"] == "АБВГДЕЖЗИКЛМНОПРСТ"
        assert BOARD.to_dict() == {"width": 10, "height": 10, "rows": "abcdefghij", "rows_ru": "АБВГДЕЖЗИК"}

    def test_a_board_is_at_most_18_wide(self):
        with pytest.raises(ValueError):
            Board(19, 10)
