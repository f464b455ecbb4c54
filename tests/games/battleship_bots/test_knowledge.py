"""Knowledge and cell names: the bots' input type."""

from __future__ import annotations

import pytest

from admiral.games.battleship.bots import RULES, Knowledge, cell_name, parse_cell


class TestCellNames:
    def test_corners_of_the_classic_board(self) -> None:
        assert cell_name((0, 0)) == "a1"
        assert cell_name((9, 9)) == "j10"
        assert cell_name((1, 4)) == "b5"

    @pytest.mark.parametrize("size", [10, 16, 18])
    def test_every_cell_round_trips(self, size: int) -> None:
        names = {cell_name((r, c)) for r in range(size) for c in range(size)}
        assert len(names) == size * size
        assert all(cell_name(parse_cell(n)) == n for n in names)
        assert cell_name((size - 1, size - 1)) == f"{'jpr'[[10, 16, 18].index(size)]}{size}"

    @pytest.mark.parametrize("bad", ["", "a", "1a", "a0", "a-1", "ж5", "aa1"])
    def test_bad_names_are_refused(self, bad: str) -> None:
        with pytest.raises(ValueError):
            parse_cell(bad)

    def test_case_and_spaces_are_ignored(self) -> None:
        assert parse_cell(" B5 ") == (1, 4)


class TestKnowledge:
    def test_rule_sets(self) -> None:
        classic, hasbro = Knowledge.new("classic"), Knowledge.new("hasbro")
        assert (classic.fleet, classic.touching, classic.named, classic.decks) == (
            (4, 3, 3, 2, 2, 2, 1, 1, 1, 1), False, False, 20,
        )  # fmt: skip
        assert (hasbro.codes, hasbro.touching, hasbro.named, hasbro.decks) == (
            ("C", "B", "D", "S", "P"),
            True,
            True,
            17,
        )
        assert not Knowledge.new("hasbro", named=False).named
        assert Knowledge.new("giant").width == 18 and sum(RULES["perelman"]["fleet"]) == 30

    def test_after_appends_and_keeps_the_rest(self) -> None:
        k = Knowledge.new("hasbro", salvo_left=3).after((0, 0), "hit", "C", salvo_left=2).after((0, 1), "miss")
        assert k.shots == (((0, 0), "hit", "C"), ((0, 1), "miss", None))
        assert k.salvo_left == 2
        assert k.is_shot((0, 1)) and not k.is_shot((1, 1))
        assert len(k.unshot()) == 98
        assert k.template().shots == () and k.template().fleet == k.fleet

    def test_from_wire(self) -> None:
        k = Knowledge.from_wire("classic", [("b5", "hit", None), ("b6", "sunk", None)])
        assert [c for c, _, _ in k.shots] == [(1, 4), (1, 5)]

    @pytest.mark.parametrize(
        "shots",
        [
            [((10, 0), "miss", None)],  # off the board
            [((0, 0), "miss", None), ((0, 0), "hit", None)],  # twice
            [((0, 0), "wounded", None)],  # no such answer
            [((0, 0), "hit", "C")],  # classic answers name no ship
        ],
    )
    def test_contradictions_are_refused(self, shots) -> None:
        with pytest.raises(ValueError):
            Knowledge(**{**RULES["classic"], "shots": tuple(shots)})

    def test_unknown_code_is_refused(self) -> None:
        with pytest.raises(ValueError):
            Knowledge.new("hasbro").after((0, 0), "hit", "X")

    def test_it_is_a_hashable_value(self) -> None:
        a = Knowledge.new("classic").after((0, 0), "miss")
        b = Knowledge.new("classic").after((0, 0), "miss")
        assert a == b and hash(a) == hash(b)
