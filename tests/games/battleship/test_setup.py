"""Setups: every problem explained, partial setups, canonical form, auto-arrangement (rules A2, A3, B1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from admiral.games.battleship.rules import (
    CLASSIC,
    HASBRO,
    STYLES,
    IllegalAction,
    InvalidSetup,
    auto_arrange,
    canonical_setup,
    cell_name,
    check_setup,
    clean_partial,
    density,
    parse_cell,
    setup_from_text,
    setup_to_text,
    ships_of,
    validate_setup,
)
from admiral.games.battleship.rules.setup import _findability

from .helpers import CLASSIC_FLEET, CLASSIC_FLEET_2, HASBRO_FLEET, HASBRO_FLEET_2


def problems(rules, setup, complete=True):
    return [(p.code, p.cell, p.kind) for p in validate_setup(rules, setup, complete=complete)]


class TestValidSetups:
    @pytest.mark.parametrize("text", [CLASSIC_FLEET, CLASSIC_FLEET_2])
    def test_classic_fleets(self, text):  # rules A2
        assert problems(CLASSIC, setup_from_text(text)) == []

    @pytest.mark.parametrize("text", [HASBRO_FLEET, HASBRO_FLEET_2])
    def test_hasbro_fleets(self, text):  # rules B1
        assert problems(HASBRO, setup_from_text(text)) == []

    def test_hasbro_ships_may_touch_by_side_and_corner(self):  # rules B1 [decision]
        assert problems(HASBRO, setup_from_text("C:a1-a5 B:b1-b4 D:c2-c4 S:d5-f5 P:b6-c6")) == []

    def test_the_edge_may_be_used(self):  # rules A2
        assert (
            problems(
                CLASSIC, setup_from_text("4:j7-j10 3:a1-c1 3:a10-c10 2:e1-f1 2:e10-f10 2:h1-i1 1:j3 1:a5 1:e5 1:h10")
            )
            == []
        )

    def test_text_round_trip(self):
        s = setup_from_text(CLASSIC_FLEET_2)
        assert setup_from_text(setup_to_text(CLASSIC, s)) == s


class TestProblems:
    """Each problem code on its own (rules A2, A3, B1)."""

    def test_bad_cell(self):
        got = problems(CLASSIC, {"k1": "1", "z9": "1", "a0": "1"}, complete=False)
        assert got == [("bad_cell", "k1", None), ("bad_cell", "z9", None), ("bad_cell", "a0", None)]

    def test_unknown_code(self):
        assert problems(CLASSIC, {"a1": "5", "c1": "C"}, complete=False) == [
            ("unknown_code", "a1", "5"), ("unknown_code", "c1", "C"),
        ]  # fmt: skip
        assert problems(HASBRO, {"a1": "4"}, complete=False) == [("unknown_code", "a1", "4")]

    def test_overlap(self):  # rules B1: only overlap is forbidden
        got = problems(HASBRO, [("a1", "P"), ("a2", "P"), ("A1", "C")], complete=False)
        assert got == [("overlap", "a1", "C")]

    def test_bent(self):  # rules A2: a straight line
        assert problems(CLASSIC, {"a1": "3", "a2": "3", "b2": "3"}, complete=False) == [("bent", "a1", "3")]
        assert problems(HASBRO, {"a1": "D", "b1": "D", "b2": "D"}, complete=False) == [("bent", "a1", "D")]

    def test_wrong_length(self):  # rules A2, B1
        assert problems(CLASSIC, setup_from_text("3:a1-a2"), complete=False) == [("wrong_length", "a1", "3")]
        assert problems(CLASSIC, setup_from_text("2:a1-a4"), complete=False) == [
            ("wrong_length", "a1", "2"),
        ]  # two two-deckers end to end are one group of four
        assert problems(HASBRO, setup_from_text("C:a1-a6"), complete=False) == [("wrong_length", "a1", "C")]

    def test_too_many(self):  # rules A2
        got = problems(CLASSIC, setup_from_text("4:a1-a4 4:c1-c4"), complete=False)
        assert got == [("too_many", None, "4")]

    def test_a_broken_hasbro_ship_is_two_ships(self):  # rules B1: each code once, one straight line
        got = problems(HASBRO, setup_from_text("C:a1-a3 C:a5-a6"), complete=False)
        assert got == [("wrong_length", "a1", "C"), ("wrong_length", "a5", "C"), ("too_many", None, "C")]

    def test_too_few(self):  # rules A2, A3
        got = problems(CLASSIC, setup_from_text("4:a1-a4 3:c1-c3 3:e1-e3"))
        assert got == [("too_few", None, "2"), ("too_few", None, "1")]
        assert problems(HASBRO, {}) == [("too_few", None, c) for c in "CBDSP"]

    def test_touching_by_side(self):  # rules A2
        assert problems(CLASSIC, setup_from_text("3:a1-a3 1:b1"), complete=False) == [("touching", "a1", "3")]

    def test_touching_by_corner(self):  # rules A2: not even a corner
        assert problems(CLASSIC, setup_from_text("3:a1-a3 1:b4"), complete=False) == [("touching", "a3", "3")]
        assert problems(CLASSIC, setup_from_text("1:a1 1:b2"), complete=False) == [("touching", "a1", "1")]

    def test_each_touching_pair_once(self):
        assert problems(CLASSIC, setup_from_text("4:a1-a4 4:b1-b4"), complete=False) == [
            ("bent", "a1", "4"),
        ]  # same code side by side: one bent group
        got = problems(CLASSIC, setup_from_text("4:a1-a4 3:b1-b3 1:c4"), complete=False)
        assert got == [("touching", "a1", "4"), ("touching", "b3", "3")]

    def test_every_problem_is_reported_at_once(self):
        bad = {"a1": "4", "a2": "4", "b2": "4", "j10": "X", "k3": "1", "e5": "1", "e6": "2", "f7": "2"}
        got = [p[0] for p in problems(CLASSIC, bad)]
        assert Counter(got) == Counter(
            {"bad_cell": 1, "unknown_code": 1, "bent": 1, "wrong_length": 2, "too_few": 3, "touching": 2}
        )

    def test_messages_are_sentences_with_the_subject(self):
        p = validate_setup(CLASSIC, setup_from_text("3:a1-a3 1:b4"), complete=False)[0]
        assert "three-decker at a1" in p.message and "one-decker at b4" in p.message
        assert p.to_dict() == {
            "code": "touching", "message": p.message, "cell": "a3", "kind": "3", "other": "1", "cells": ["a3", "b4"],
        }  # fmt: skip

    @pytest.mark.parametrize(
        ("text", "cell", "other", "cells"),
        [
            ("3:a1-a3 1:b4", "a3", "1", ("a3", "b4")),  # by a corner
            ("3:a1-a3 1:b1", "a1", "1", ("a1", "a2", "b1")),  # by a side: the one-decker touches two decks
            ("4:a3-a6 3:b1-b3", "a3", "3", ("a3", "a4", "b2", "b3")),  # a side and a corner
            ("2:c5-d5 2:e6-f6", "d5", "2", ("d5", "e6")),  # ships of one class
            ("4:e1-e4 1:d5", "d5", "4", ("d5", "e4")),  # the one-decker comes first in reading order
        ],
    )
    def test_touching_names_where_the_ships_meet(self, text, cell, other, cells):  # rules A2
        (p,) = validate_setup(CLASSIC, setup_from_text(text), complete=False)
        assert (p.code, p.cell, p.other, p.cells) == ("touching", cell, other, cells)
        assert f"where they meet: {', '.join(cells)}" in p.message


class TestPartial:
    def test_missing_ships_are_no_problem_in_a_partial_setup(self):  # rules A3
        assert problems(CLASSIC, setup_from_text("4:a1-a4"), complete=False) == []
        assert problems(CLASSIC, {}, complete=False) == []

    def test_but_every_ship_placed_must_be_whole(self):
        assert problems(CLASSIC, setup_from_text("4:a1-a2"), complete=False) == [("wrong_length", "a1", "4")]


class TestCanonical:
    def test_cells_and_codes_canonical_in_reading_order(self):
        raw = {" Б3": "p", "b2": " P", "A5": "c", "a4": "C", "a3": "c", "a2": "C", "a1": "c"}
        raw |= setup_from_text("B:e1-e4 D:f1-f3 S:g1-g3")
        got = canonical_setup(HASBRO, raw)
        assert list(got) == sorted(got, key=parse_cell) == [cell_name(parse_cell(c)) for c in got]
        assert got["a1"] == "C" and got["b3"] == "P" and got["b2"] == "P" and set(got.values()) == set("CBDSP")

    def test_an_invalid_setup_is_refused_with_every_problem(self):
        with pytest.raises(InvalidSetup) as e:
            check_setup(CLASSIC, setup_from_text("4:a1-a4 1:b1"))
        assert e.value.code == "invalid_setup"
        assert [p.code for p in e.value.problems] == ["too_few", "too_few", "too_few", "touching"]

    def test_ships_in_fleet_order(self):
        ships = ships_of(CLASSIC, check_setup(CLASSIC, setup_from_text(CLASSIC_FLEET_2)))
        assert [s.code for s in ships] == ["4", "3", "3", "2", "2", "2", "1", "1", "1", "1"]
        assert str(ships[0]) == "4:j7-j10" and str(ships[-1]) == "1:e5"


SEEDS = range(40)


class TestAutoArrange:
    @pytest.mark.parametrize("rules", [CLASSIC, HASBRO], ids=lambda r: r.key)
    @pytest.mark.parametrize("style", STYLES)
    def test_always_legal(self, rules, style):  # rules A3
        for seed in SEEDS:
            s = auto_arrange(rules, random.Random(seed), style=style)
            assert validate_setup(rules, s) == [], (seed, s)

    @pytest.mark.parametrize("rules", [CLASSIC, HASBRO], ids=lambda r: r.key)
    def test_same_rng_same_setup(self, rules):
        assert auto_arrange(rules, random.Random(5)) == auto_arrange(rules, random.Random(5))
        assert auto_arrange(rules, random.Random(5)) != auto_arrange(rules, random.Random(6))

    @pytest.mark.parametrize(
        ("rules", "partial"),
        [(CLASSIC, "4:e3-e6 1:a1 2:j9-j10"), (HASBRO, "C:e2-e6 P:f2-f3")],
        ids=["classic", "hasbro"],
    )
    def test_a_valid_partial_is_kept(self, rules, partial):  # rules A3
        part = setup_from_text(partial)
        for seed in SEEDS:
            s = auto_arrange(rules, random.Random(seed), part)
            assert validate_setup(rules, s) == []
            assert all(cell_name(c) in part and s[c] == part[cell_name(c)] for c in s if cell_name(c) in part)
            assert {cell_name(c) for c in s} >= set(part)

    def test_the_invalid_part_of_a_partial_is_dropped(self):
        part = {**setup_from_text("4:a1-a4 3:c1-c2 1:b5 1:h8"), "z1": "1", "j1": "X"}
        kept = clean_partial(CLASSIC, part)
        assert [str(s) for s in kept] == ["4:a1-a4", "1:h8"]  # 3:c1-c2 is short, 1:b5 touches the 4
        s = auto_arrange(CLASSIC, random.Random(1), part)
        assert validate_setup(CLASSIC, s) == [] and all(
            s.get(parse_cell(c)) == v for c, v in setup_from_text("4:a1-a4 1:h8").items()
        )

    def test_a_partial_that_leaves_no_room_is_given_up_ship_by_ship(self):  # rules A3: it always succeeds
        # four one-deckers spread so that no room is left for the four-decker's rows... nor many others
        part = setup_from_text("1:b2 1:b7 1:g2 1:g7 3:e1-e3 3:e8-e10 2:j4-j5 2:a4-a5 2:d5-d6")
        s = auto_arrange(CLASSIC, random.Random(0), part)
        assert validate_setup(CLASSIC, s) == []

    @pytest.mark.parametrize(
        ("rules", "partial"),
        [(CLASSIC, "4:e3-e6 1:a1 2:j9-j10"), (HASBRO, "C:e2-e6 P:f2-f3")],
        ids=["classic", "hasbro"],
    )
    def test_fixed_keeps_the_partial_and_re_rolls_the_rest(self, rules, partial):  # rules A3
        part = setup_from_text(partial)
        outs = {tuple(sorted(auto_arrange(rules, random.Random(seed), part, fixed=True).items())) for seed in range(5)}
        assert len(outs) == 5  # every re-roll is a new completion
        for out in map(dict, outs):
            assert validate_setup(rules, out) == []
            assert {cell_name(c): v for c, v in out.items() if cell_name(c) in part} == part

    def test_fixed_with_no_room_left_is_refused_not_given_up(self):  # rules A2, A3
        # every ship but the four-decker, spread so that no four cells in a line stay clear of them
        part = setup_from_text("3:b5-b7 3:a2-c2 2:e2-e3 2:e9-f9 2:h8-i8 1:e5 1:i1 1:i5 1:h3")
        assert validate_setup(CLASSIC, part, complete=False) == []
        with pytest.raises(IllegalAction) as e:
            auto_arrange(CLASSIC, random.Random(0), part, fixed=True)
        assert e.value.code == "no_arrangement" and "placed" in e.value.reason

    def test_fixed_refuses_an_invalid_partial(self):  # rules A2: ships may not touch
        with pytest.raises(InvalidSetup) as e:
            auto_arrange(CLASSIC, random.Random(0), setup_from_text("4:a1-a4 1:b5"), fixed=True)
        assert [p.code for p in e.value.problems] == ["touching"]

    def test_avoided_cells_stay_empty(self):
        avoid = [f"{r}{c}" for r in "abcde" for c in range(1, 11)]
        for seed in range(10):
            s = auto_arrange(HASBRO, random.Random(seed), avoid=avoid)
            assert validate_setup(HASBRO, s) == [] and not {cell_name(c) for c in s} & set(avoid)

    def test_no_room_at_all_is_an_error(self):
        with pytest.raises(IllegalAction) as e:
            auto_arrange(CLASSIC, random.Random(0), avoid=[f"{r}{c}" for r in "abcdefghi" for c in range(1, 11)])
        assert e.value.code == "no_arrangement"

    def test_unknown_style(self):
        with pytest.raises(IllegalAction) as e:
            auto_arrange(CLASSIC, random.Random(0), style="cunning")
        assert e.value.code == "bad_style"

    def test_plain_is_uniform_over_placements(self):  # rules A3: no corner of the grid is favoured
        counts = Counter()
        for seed in range(300):
            counts.update(c for c, code in auto_arrange(HASBRO, random.Random(seed)).items())
        # a 2×2 block in each corner: the four counts are equal up to sampling noise
        corners = [sum(counts[parse_cell(f"{r}{c}")] for r in rows for c in cols)
                   for rows in ("ab", "ij") for cols in ((1, 2), (9, 10))]  # fmt: skip
        assert max(corners) - min(corners) < 0.5 * max(corners)

    @pytest.mark.parametrize("rules", [CLASSIC, HASBRO], ids=lambda r: r.key)
    def test_hard_is_never_easier_to_find_than_plain_from_the_same_rng(self, rules):
        # the hard style draws the plain layout first and keeps the least findable of its candidates
        for seed in range(8):
            plain = auto_arrange(rules, random.Random(seed))
            hard = auto_arrange(rules, random.Random(seed), style="hard")
            score = [_findability(rules, list(ships_of(rules, s))) for s in (plain, hard)]
            assert score[1] <= score[0]

    def test_hunter_density_is_highest_in_the_centre(self):
        d = density(CLASSIC)
        assert d[parse_cell("e5")] == 1.0 and d[parse_cell("a1")] == min(d.values())
