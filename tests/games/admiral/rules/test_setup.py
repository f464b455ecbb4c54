"""Setups: validation, check_setup and auto-arrangement (rules §3)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from admiral.games.admiral.rules import (
    FLEET_SIZE,
    FRONT_ROW,
    ZONE,
    GameState,
    IllegalAction,
    InvalidSetup,
    Kind,
    SetupProblem,
    Side,
    auto_arrange,
    cell_name,
    check_setup,
    normalize_setup,
    parse_cell,
    validate_setup,
)
from admiral.games.admiral.rules.board import RING, cell_row
from admiral.games.admiral.rules.setup import _tether_placed

CARRIER = {Kind.S: Kind.A, Kind.T: Kind.TK, Kind.M: Kind.ES}
FLEET = Counter({k: k.count for k in Kind})


def fleet_list() -> list[Kind]:
    """Every unit of one fleet, bases last."""
    return sorted((k for k in Kind for _ in range(k.count)), key=lambda k: (k is Kind.VMB, k))


def simple_setup(side: Side) -> dict[str, str]:
    """A valid setup built by hand: units in notation order, the two bases on the back row."""
    back = 0 if side is Side.SOUTH else 14
    cells = sorted(ZONE[side])
    base_cells = [c for c in cells if cell_row(c) == back][:2]
    others = [c for c in cells if c not in base_cells]
    out = {cell_name(c): "VMB" for c in base_cells}
    for c, k in zip(others, [k for k in fleet_list() if k is not Kind.VMB], strict=False):
        out[cell_name(c)] = k.code
    return out


def codes(problems: list[SetupProblem]) -> list[str]:
    return [p.code for p in problems]


def untethered(setup: dict[int, Kind]) -> list[str]:
    """Weapons with no carrier of their kind 8-adjacent (rules §3.4)."""
    return [
        f"{k.code}{cell_name(c)}"
        for c, k in setup.items()
        if k in CARRIER and not any(setup.get(n) is CARRIER[k] for n in RING[c])
    ]


class TestValidate:
    @pytest.mark.parametrize("side", list(Side))
    def test_valid_setup_has_no_problem(self, side):  # rules §3.1
        setup = simple_setup(side)
        assert len(setup) == FLEET_SIZE == 58
        assert validate_setup(side, setup) == []

    def test_russian_codes_and_int_cells_are_accepted(self):
        setup = simple_setup(Side.SOUTH)
        ru = {parse_cell(c): Kind.parse(k).ru for c, k in setup.items()}
        assert validate_setup(Side.SOUTH, ru) == []
        assert check_setup(Side.SOUTH, ru) == check_setup(Side.SOUTH, setup)

    @pytest.mark.parametrize("raw", ["z1", "e0", "e16", "E4", "e04", " e4", "", 210, -1, None, 3.0])
    def test_bad_cell(self, raw):
        problems = validate_setup(Side.SOUTH, [(raw, "L")], complete=False)
        assert codes(problems) == ["bad_cell"]
        assert problems[0].cell == str(raw)

    @pytest.mark.parametrize(
        ("side", "cell"),
        [(Side.SOUTH, "e6"), (Side.SOUTH, "e11"), (Side.SOUTH, "n15"), (Side.NORTH, "e10"), (Side.NORTH, "a5")],
    )
    def test_outside_zone(self, side, cell):  # rules §3.1: own zone only (rows 1–5 / 11–15)
        problems = validate_setup(side, {cell: "KR"}, complete=False)
        assert codes(problems) == ["outside_zone"]
        assert (problems[0].cell, problems[0].kind) == (cell, "KR")

    @pytest.mark.parametrize(("side", "cell"), [(Side.SOUTH, "a1"), (Side.SOUTH, "n5"), (Side.NORTH, "a15")])
    def test_zone_edges_are_inside(self, side, cell):  # rules §1
        assert validate_setup(side, {cell: "KR"}, complete=False) == []

    def test_occupied_twice_needs_pairs(self):  # rules §3.1: one unit per cell
        problems = validate_setup(Side.SOUTH, [("e4", "L"), ("e4", "KR")], complete=False)
        assert codes(problems) == ["occupied_twice"]
        assert problems[0].cell == "e4"
        # the same cell written as notation and as an int
        assert codes(validate_setup(Side.SOUTH, [("e4", "L"), (parse_cell("e4"), "L")], complete=False)) == [
            "occupied_twice"
        ]

    @pytest.mark.parametrize("raw", ["XX", "Q", "", "LL", 1, None, "K R"])
    def test_unknown_kind(self, raw):
        problems = validate_setup(Side.SOUTH, {"e4": raw}, complete=False)
        assert codes(problems) == ["unknown_kind"]
        assert problems[0].cell == "e4"

    def test_too_many(self):  # rules §2: 2 × Л
        problems = validate_setup(Side.SOUTH, {"a1": "L", "a2": "Л", "a3": "L"}, complete=False)
        assert codes(problems) == ["too_many"]
        assert problems[0].kind == "L"

    def test_too_many_in_a_complete_setup(self):
        setup = simple_setup(Side.SOUTH)
        cell = next(c for c, k in setup.items() if k == "KR")
        setup[cell] = "L"
        assert sorted((p.code, p.kind) for p in validate_setup(Side.SOUTH, setup)) == [
            ("too_few", "KR"),
            ("too_many", "L"),
        ]

    def test_too_few_names_every_missing_kind(self):  # rules §3.1: all 58 units
        problems = validate_setup(Side.SOUTH, {})
        assert codes(problems) == ["too_few"] * 17
        assert [p.kind for p in problems] == [k.code for k in Kind]

    def test_one_unit_missing(self):
        setup = simple_setup(Side.NORTH)
        del setup[next(c for c, k in setup.items() if k == "AB")]
        problems = validate_setup(Side.NORTH, setup)
        assert [(p.code, p.kind) for p in problems] == [("too_few", "AB")]

    @pytest.mark.parametrize(("side", "cell"), [(Side.SOUTH, "e5"), (Side.SOUTH, "a5"), (Side.NORTH, "e11")])
    def test_base_in_front_row(self, side, cell):  # rules §3.2
        problems = validate_setup(side, {cell: "VMB"}, complete=False)
        assert codes(problems) == ["base_in_front_row"]
        assert (problems[0].cell, problems[0].kind) == (cell, "VMB")

    @pytest.mark.parametrize(("side", "cells"), [(Side.SOUTH, ("e4", "e3")), (Side.NORTH, ("e12", "f12"))])
    def test_bases_side_by_side_off_the_front_row(self, side, cells):  # rules §3.2
        assert validate_setup(side, dict.fromkeys(cells, "ВМБ"), complete=False) == []

    def test_every_problem_is_named_at_once(self):
        pairs = [
            ("e5", "VMB"),
            ("z1", "L"),
            ("a1", "XX"),
            ("a9", "KR"),
            ("b1", "L"),
            ("b1", "KR"),
            ("b2", "SM"),
            ("b3", "SM"),
        ]
        problems = validate_setup(Side.SOUTH, pairs, complete=False)
        assert [(p.code, p.cell, p.kind) for p in problems] == [
            ("base_in_front_row", "e5", "VMB"),
            ("bad_cell", "z1", None),
            ("unknown_kind", "a1", None),
            ("outside_zone", "a9", "KR"),
            ("occupied_twice", "b1", None),
            ("too_many", None, "SM"),
        ]
        assert all(p.message for p in problems)

    def test_complete_false_accepts_partial(self):  # rules §3.4: a partial setup
        partial = dict(list(simple_setup(Side.SOUTH).items())[:20])
        assert validate_setup(Side.SOUTH, partial, complete=False) == []
        assert set(codes(validate_setup(Side.SOUTH, partial))) == {"too_few"}

    def test_problem_to_dict_is_json(self):
        (p,) = validate_setup(Side.SOUTH, {"e5": "VMB"}, complete=False)
        d = p.to_dict()
        assert d == {"code": "base_in_front_row", "message": p.message, "cell": "e5", "kind": "VMB"}
        assert json.loads(json.dumps(d)) == d


class TestCheckSetup:
    def test_returns_normalised_setup_in_notation_order(self):
        setup = simple_setup(Side.SOUTH)
        reversed_pairs = list(setup.items())[::-1]
        out = check_setup(Side.SOUTH, reversed_pairs)
        assert list(out) == sorted(out)
        assert out == {parse_cell(c): Kind.parse(k) for c, k in setup.items()}
        assert all(isinstance(k, Kind) for k in out.values())
        assert normalize_setup(reversed_pairs) == out

    def test_raises_invalid_setup_with_every_problem(self):
        bad = {"e5": "VMB", "e6": "L", "a1": "XX"}
        with pytest.raises(InvalidSetup) as info:
            check_setup(Side.SOUTH, bad, complete=False)
        e = info.value
        assert isinstance(e, IllegalAction)
        assert e.code == "invalid_setup"
        assert e.problems == validate_setup(Side.SOUTH, bad, complete=False)
        assert codes(e.problems) == ["base_in_front_row", "outside_zone", "unknown_kind"]
        assert e.reason == "; ".join(p.message for p in e.problems)

    def test_incomplete_setup_raises_when_complete(self):
        with pytest.raises(InvalidSetup) as info:
            check_setup(Side.SOUTH, {"a1": "L"})
        assert len(info.value.problems) == 17  # 16 kinds missing, Л one short

    def test_game_state_from_setups_checks_both(self):
        south, north = simple_setup(Side.SOUTH), simple_setup(Side.NORTH)
        state = GameState.from_setups(south, north)
        assert len(state.units(Side.SOUTH)) == len(state.units(Side.NORTH)) == 58
        with pytest.raises(IllegalAction) as info:
            GameState.from_setups(north, south)  # each in the other's zone
        assert info.value.code == "invalid_setup"
        assert set(codes(info.value.problems)) == {"outside_zone", "too_few"}


SEEDS = range(400)
#: Seeds whose first arrangement once left the aircraft with no free cell next to its carrier.
TETHER_REGRESSIONS = [(19536, Side.SOUTH), (19536, Side.NORTH), (19812, Side.NORTH), (19992, Side.NORTH)]


class TestAutoArrange:
    @pytest.mark.parametrize("side", list(Side))
    def test_legal_bases_back_weapons_tethered_over_many_seeds(self, side):  # rules §3.4
        for seed in SEEDS:
            setup = auto_arrange(side, random.Random(seed))
            assert validate_setup(side, setup) == [], seed
            assert Counter(setup.values()) == FLEET
            bases = [c for c, k in setup.items() if k is Kind.VMB]
            assert len(bases) == 2 and not set(bases) & FRONT_ROW[side], seed
            assert untethered(setup) == [], seed
            assert list(setup) == sorted(setup)

    @pytest.mark.parametrize(("seed", "side"), TETHER_REGRESSIONS)
    def test_tethers_even_when_the_carrier_is_boxed_in(self, seed, side):  # rules §3.4
        assert untethered(auto_arrange(side, random.Random(seed))) == []

    def test_same_seed_same_setup(self):
        for side in Side:
            assert auto_arrange(side, random.Random(5)) == auto_arrange(side, random.Random(5))

    def test_different_seeds_different_setups(self):
        setups = {tuple(sorted(auto_arrange(Side.SOUTH, random.Random(s)).items())) for s in range(50)}
        assert len(setups) == 50

    def test_fresh_setup_at_every_call_with_one_rng(self):  # rules §3.4: fresh at every call
        rng = random.Random(3)
        assert auto_arrange(Side.SOUTH, rng) != auto_arrange(Side.SOUTH, rng)

    @pytest.mark.parametrize("seed", range(30))
    def test_completing_a_partial_setup_places_only_the_missing(self, seed):  # rules §3.4
        rng = random.Random(seed)
        side = Side(seed % 2)
        full = auto_arrange(side, random.Random(1000 + seed))
        cells = sorted(full)
        partial = {c: full[c] for c in rng.sample(cells, rng.randrange(0, 58))}
        out = auto_arrange(side, rng, partial)
        assert validate_setup(side, out) == []
        assert {c: out[c] for c in partial} == partial
        assert Counter(out[c] for c in out if c not in partial) == FLEET - Counter(partial.values())

    def test_completing_a_complete_setup_changes_nothing(self):
        full = auto_arrange(Side.NORTH, random.Random(8))
        assert auto_arrange(Side.NORTH, random.Random(9), full) == full

    def test_completion_tethers_the_weapons_it_places(self):  # rules §3.6: where possible, the tethers
        full = auto_arrange(Side.SOUTH, random.Random(4))
        partial = {c: k for c, k in full.items() if k not in CARRIER}
        for seed in range(20):
            out = auto_arrange(Side.SOUTH, random.Random(seed), partial)
            assert untethered(out) == []

    def test_invalid_partial_raises(self):
        with pytest.raises(InvalidSetup) as info:
            auto_arrange(Side.SOUTH, random.Random(1), {"e5": "VMB", "a1": "XX"})
        assert codes(info.value.problems) == ["base_in_front_row", "unknown_kind"]

    @pytest.mark.parametrize("side", list(Side))
    @pytest.mark.parametrize("seed", range(10))
    def test_back_rows_full_a_base_makes_room(self, side, seed):  # rules §3.2, §3.6
        # Every unit but the two bases stands behind the front row: the only cells left are in the
        # front row, where a base may not stand. Two placed units move to the front row to make room.
        back = sorted(c for c in ZONE[side] if c not in FRONT_ROW[side])
        kinds = [k for k in fleet_list() if k is not Kind.VMB]
        random.Random(seed).shuffle(kinds)
        partial = dict(zip(back, kinds, strict=True))
        assert len(partial) == 56
        out = auto_arrange(side, random.Random(seed), partial)
        assert validate_setup(side, out) == []
        bases = sorted(c for c, k in out.items() if k is Kind.VMB)
        assert set(bases) <= set(back)
        moved = [c for c in out if c in FRONT_ROW[side]]
        assert len(moved) == 2
        # the bases took the cells of the two units that moved; nothing else changed
        assert {c: k for c, k in out.items() if c in back and c not in bases} == {
            c: k for c, k in partial.items() if c not in bases
        }
        assert sorted(out[c] for c in moved) == sorted(partial[c] for c in bases)

    def test_back_rows_full_one_base_placed(self):  # rules §3.2, §3.6
        back = sorted(c for c in ZONE[Side.SOUTH] if c not in FRONT_ROW[Side.SOUTH])
        kinds = [*[k for k in fleet_list() if k is not Kind.VMB][:55], Kind.VMB]
        partial = dict(zip(back, kinds, strict=True))
        out = auto_arrange(Side.SOUTH, random.Random(2), partial)
        assert validate_setup(Side.SOUTH, out) == []
        assert sum(1 for c, k in partial.items() if out[c] != k) == 1
        assert sorted(k for c, k in out.items() if c in FRONT_ROW[Side.SOUTH]) == sorted(
            [Kind.AB, *[k for c, k in partial.items() if out[c] != k]]
        )

    def test_back_rows_full_fallback_keeps_tethers(self):  # rules §3.6: where possible, the tethers
        full = auto_arrange(Side.SOUTH, random.Random(11))
        assert untethered(full) == []
        back = sorted(c for c in ZONE[Side.SOUTH] if c not in FRONT_ROW[Side.SOUTH])
        for seed in range(40):
            rng = random.Random(seed)
            kinds = [k for k in fleet_list() if k is not Kind.VMB]
            rng.shuffle(kinds)
            # weapons right next to carriers: put the 24 carriers and weapons in the first back rows
            kinds.sort(key=lambda k: k not in CARRIER and k not in CARRIER.values())
            partial = dict(zip(back, kinds, strict=True))
            before = untethered(partial)
            out = auto_arrange(Side.SOUTH, rng, partial)
            assert validate_setup(Side.SOUTH, out) == []
            assert set(untethered(out)) <= set(before), seed


#: Weapons placed alone, on the corners, an edge of the front row and the middle of each zone.
LONE_CELLS = [(Side.SOUTH, c) for c in ("a1", "n1", "a5", "g3")] + [(Side.NORTH, c) for c in ("n15", "a11", "h13")]


def completed(side: Side, partial: dict[str, str], seed: int) -> dict[int, Kind]:
    """``partial`` completed from ``seed``, checked valid and kept as it is."""
    out = auto_arrange(side, random.Random(seed), partial)
    assert validate_setup(side, out) == [], seed
    assert {cell_name(c): out[c].code for c in out if cell_name(c) in partial} == partial, seed
    return out


class TestCompletionTethersPlacedWeapons:
    """Issue 16, item 11: completion puts a new carrier beside a weapon the player placed alone."""

    @pytest.mark.parametrize(("side", "cell"), LONE_CELLS)
    @pytest.mark.parametrize("kind", ["S", "T", "M"])
    def test_a_weapon_placed_alone_gets_a_carrier(self, side, cell, kind):  # rules §3.4, §3.6
        for seed in range(50):
            out = completed(side, {cell: kind}, seed)
            assert untethered(out) == [], seed
            assert any(out.get(n) is CARRIER[Kind.parse(kind)] for n in RING[parse_cell(cell)]), seed

    @pytest.mark.parametrize(
        ("side", "partial"),
        [
            (Side.SOUTH, {"a1": "S", "n1": "T", "g5": "M", "c3": "T", "k2": "M"}),
            (Side.SOUTH, {"a1": "T", "d1": "T", "g1": "T", "k1": "T"} | {f"{c}3": "M" for c in "abcdef"}),
            (Side.NORTH, {"a15": "S", "b15": "T", "c15": "M", "n11": "M", "h12": "T"}),
        ],
    )
    def test_weapons_placed_together_all_get_carriers(self, side, partial):  # rules §3.4, §3.6
        for seed in range(50):
            assert untethered(completed(side, partial, seed)) == [], seed

    def test_one_carrier_left_goes_where_it_tethers_two(self):  # rules §2: any carrier serves; §3.6
        # Five torpedo boats stand far away; the last one must stand on b1 or b2, beside both torpedoes.
        partial = {"a1": "T", "c1": "T"} | {f"n{r}": "TK" for r in range(1, 6)}
        for seed in range(50):
            out = completed(Side.SOUTH, partial, seed)
            assert Kind.TK in (out.get(parse_cell("b1")), out.get(parse_cell("b2"))), seed
            assert untethered(out) == [], seed

    def test_the_weapon_with_fewest_free_cells_goes_first(self):  # rules §3.6: where possible, the tethers
        # The torpedo on c1 has only b2 free around it; the aircraft on a1 has a2 and b2. Served first,
        # the aircraft would take b2 in half the draws and leave the torpedo loose.
        partial = {"c1": "T", "b1": "L", "d1": "L", "c2": "KR", "d2": "KR", "a1": "S"}
        for seed in range(50):
            out = completed(Side.SOUTH, partial, seed)
            assert (out.get(parse_cell("b2")), out.get(parse_cell("a2"))) == (Kind.TK, Kind.A), seed
            assert untethered(out) == [], seed

    def test_placed_carriers_and_weapons_keep_serving(self):  # rules §3.4, §3.6
        # Tethered pairs the player made, and one loose torpedo: only the loose one needs a new carrier;
        # the weapons still to place go beside some carrier, placed or new.
        partial = {"c2": "TK", "c3": "T", "d3": "T", "g3": "A", "h3": "S", "k2": "ES", "k3": "M", "n1": "T"}
        for seed in range(50):
            out = completed(Side.SOUTH, partial, seed)
            assert untethered(out) == [], seed
            assert any(out.get(n) is Kind.TK for n in RING[parse_cell("n1")]), seed

    @pytest.mark.parametrize(
        ("side", "partial", "loose"),
        [
            # every cell around the aircraft filled by the player
            (Side.SOUTH, {"a1": "S", "a2": "L", "b1": "L", "b2": "KR"}, ["Sa1"]),
            (Side.NORTH, {"n15": "M", "m15": "L", "m14": "L", "n14": "KR"}, ["Mn15"]),
            # the only carrier of its kind already placed far away
            (Side.SOUTH, {"a1": "S", "n5": "A"}, ["Sa1"]),
            # every destroyer placed, none near the mine
            (Side.SOUTH, {"a1": "M"} | {f"n{r}": "ES" for r in range(1, 6)} | {"m1": "ES"}, ["Ma1"]),
        ],
    )
    def test_no_free_cell_or_carrier_left_still_completes(self, side, partial, loose):  # rules §3.6
        for seed in range(50):
            assert untethered(completed(side, partial, seed)) == loose, seed

    def test_tethered_placed_weapons_draw_nothing(self):  # rules §3.4: a setup from empty is unchanged
        board = {parse_cell(c): Kind.parse(k) for c, k in {"g3": "A", "h3": "S", "c2": "TK", "c3": "T"}.items()}
        rng = random.Random(1)
        state = rng.getstate()
        _tether_placed(Side.SOUTH, rng, board)
        assert rng.getstate() == state
        assert len(board) == 4


class TestFixedReRoll:
    """Auto-arrangement around the units a player placed by hand (issue 18): with ``fixed`` nothing placed moves."""

    @pytest.mark.parametrize("seed", range(20))
    def test_the_hand_placed_units_stay_and_the_rest_is_fresh(self, seed):  # rules §3.4
        side = Side(seed % 2)
        full = auto_arrange(side, random.Random(500 + seed))
        rng = random.Random(seed)
        hand = {c: full[c] for c in rng.sample(sorted(full), 7)}
        first = auto_arrange(side, random.Random(seed), hand, fixed=True)
        again = auto_arrange(side, random.Random(seed + 1), hand, fixed=True)
        for out in (first, again):
            assert validate_setup(side, out) == []
            assert {c: out[c] for c in hand} == hand
        assert first != again  # a re-roll: only the units not placed by hand change

    def test_back_rows_full_is_refused_not_moved(self):  # rules §3.2: no base in the front row
        back = sorted(c for c in ZONE[Side.SOUTH] if c not in FRONT_ROW[Side.SOUTH])
        kinds = [k for k in fleet_list() if k is not Kind.VMB]
        partial = dict(zip(back, kinds, strict=True))
        with pytest.raises(IllegalAction) as info:
            auto_arrange(Side.SOUTH, random.Random(1), partial, fixed=True)
        assert info.value.code == "no_arrangement"
        assert "2 ВМБ" in info.value.reason and "0 free cell" in info.value.reason
        # without ``fixed`` (the setup timer) a unit is moved to make room, as before
        assert validate_setup(Side.SOUTH, auto_arrange(Side.SOUTH, random.Random(1), partial)) == []

    def test_one_back_cell_free_for_one_base_is_enough(self):  # rules §3.2
        back = sorted(c for c in ZONE[Side.NORTH] if c not in FRONT_ROW[Side.NORTH])
        kinds = [*[k for k in fleet_list() if k is not Kind.VMB][:54], Kind.VMB]
        partial = dict(zip(back[:55], kinds, strict=True))  # back[55] is the one back cell left free
        out = auto_arrange(Side.NORTH, random.Random(3), partial, fixed=True)
        assert out[back[55]] is Kind.VMB and {c: out[c] for c in partial} == partial

    def test_an_invalid_partial_raises_as_before(self):  # rules §3.2
        with pytest.raises(InvalidSetup) as info:
            auto_arrange(Side.SOUTH, random.Random(1), {"e5": "VMB"}, fixed=True)
        assert codes(info.value.problems) == ["base_in_front_row"]
