"""The map (§1), the fleets and the start (§2), seniority and the side struck (§4)."""

from __future__ import annotations

import pytest

from admiral.games.naval.rules import (
    FLEET,
    GUNS,
    LAND,
    MAP,
    MINES,
    POINTS,
    START,
    Facing,
    GameState,
    IllegalAction,
    Kind,
    Side,
    Struck,
    is_senior,
    may_strike,
    name,
    parse_point,
    struck_side,
)

from .helpers import N_START, S_START


class TestMap:
    def test_nine_columns_by_thirteen_rows(self):  # rules §1
        assert len(POINTS) == 9 * 13
        assert [name(p) for p in POINTS[:10]] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "a2"]
        assert name(POINTS[-1]) == "i13"
        assert all(parse_point(name(p)) == p for p in POINTS)

    def test_point_names_read_in_either_case(self):  # rules §1
        assert parse_point(" E1 ") == parse_point("e1") == 4

    @pytest.mark.parametrize("text", ["j1", "a14", "a0", "z9", "i100"])
    def test_a_point_off_the_map(self, text):  # rules §1
        with pytest.raises(IllegalAction) as e:
            parse_point(text)
        assert e.value.code == "off_map"

    @pytest.mark.parametrize("text", ["", "e", "1e", "e01", "ee1", "е1"])
    def test_not_a_point(self, text):  # rules §1 («е1» is Cyrillic)
        with pytest.raises(IllegalAction) as e:
            parse_point(text)
        assert e.value.code == "bad_point"

    def test_land(self):  # rules §1
        assert sorted(name(p) for p in LAND) == ["c6", "c7", "e7", "g7", "g8"]

    def test_coastal_guns_fire_on_the_other_side(self):  # rules §1: South's guns b3 e3 h3 fire on North's ships
        assert sorted(name(p) for p in GUNS[Side.SOUTH]) == ["b3", "e3", "h3"]
        assert sorted(name(p) for p in GUNS[Side.NORTH]) == ["b11", "e11", "h11"]

    def test_symmetric_under_a_half_turn(self):  # rules §1
        assert {MAP.rotate(p) for p in LAND} == LAND
        assert {MAP.rotate(p) for p in GUNS[0]} == GUNS[1]
        assert name(MAP.rotate(parse_point("a1"))) == "i13" and name(MAP.rotate(parse_point("e7"))) == "e7"

    def test_steps_along_the_lines(self):  # rules §3 [decision]: four orthogonal facings
        e5 = parse_point("e5")
        assert {f.letter: name(MAP.ahead(e5, f)) for f in Facing} == {"n": "e6", "e": "f5", "s": "e4", "w": "d5"}
        assert MAP.ahead(parse_point("a1"), Facing.W) is None and MAP.ahead(parse_point("i13"), Facing.N) is None
        assert MAP.direction(e5, parse_point("f6")) is None  # no diagonal line

    def test_a_turn_is_ninety_degrees(self):  # rules §3: right is clockwise; a half-turn is two turns
        assert [f.right.letter for f in Facing] == ["e", "s", "w", "n"]
        assert [f.left.letter for f in Facing] == ["w", "n", "e", "s"]
        assert all(f.right.right is f.back is f.left.left for f in Facing)

    def test_the_manifest_map(self):  # rules §1: what the client draws
        d = MAP.to_dict()
        assert (d["width"], d["height"], d["columns"]) == (9, 13, "abcdefghi")
        assert d["guns"] == {"south": ["b3", "e3", "h3"], "north": ["b11", "e11", "h11"]}


class TestFleet:
    def test_twelve_ships_and_three_mines(self):  # rules §2
        counts = {k: FLEET.count(k) for k in Kind}
        assert counts == {
            Kind.BATTLESHIP: 1, Kind.CRUISER: 2, Kind.GUNBOAT: 3, Kind.TORPEDO_BOAT: 4, Kind.MINESWEEPER: 1,
            Kind.SUBMARINE: 1,
        }  # fmt: skip
        assert len(FLEET) == 12 and MINES == 3

    def test_the_south_start(self):  # rules §2
        want = {
            "e1": "B", "d1": "C", "f1": "C", "d2": "G", "e2": "G", "f2": "G", "b1": "T", "c1": "T", "g1": "T",
            "h1": "T", "a1": "M", "i1": "S",
        }  # fmt: skip
        assert {name(p): k.code for p, k in START[Side.SOUTH].items()} == want

    def test_north_is_the_half_turn_image(self):  # rules §2
        assert {MAP.rotate(p): k for p, k in START[Side.SOUTH].items()} == START[Side.NORTH]

    def test_bows_toward_the_enemy(self):  # rules §2
        s = GameState.start(0)
        assert {sh.facing for sh in s.fleet(Side.SOUTH).values()} == {Facing.N}
        assert {sh.facing for sh in s.fleet(Side.NORTH).values()} == {Facing.S}
        assert s.reserve == [3, 3] and s.mines == set() and s.to_move is Side.SOUTH  # rules §2, §7.1
        assert s.to_text() == f"{S_START} / {N_START} / mines / reserve 3 3"

    def test_ship_ids_mirror(self):  # rules §2: each ship has a stable id for the roll log
        s = GameState.start(0)
        ids = {name(p): sh.id for p, sh in s.ships.items()}
        assert ids["d1"] == "C1" and ids["f1"] == "C2" and ids["f13"] == "C1" and ids["d13"] == "C2"
        assert ids["e1"] == "B" and ids["a1"] == "M" and ids["i13"] == "M"


B, C, G, T, M, SUB = Kind


class TestSeniority:
    @pytest.mark.parametrize(
        ("a", "juniors"),
        [
            (B, {C, G, T, M}),
            (C, {G, T, M}),
            (G, {T, M, SUB}),
            (T, {M, SUB}),
            (M, {SUB}),
            (SUB, {B, C}),  # the submarine's special place
        ],
    )
    def test_who_is_senior_to_whom(self, a, juniors):  # rules §4
        assert {b for b in Kind if is_senior(a, b)} == juniors

    def test_equal_ranks_are_not_senior(self):  # rules §4
        assert not any(is_senior(k, k) for k in Kind)

    def test_the_side_struck_follows_the_targets_facing(self):  # rules §4
        for f in Facing:
            assert struck_side(f, f.back) is Struck.BOW  # it faces the striker
            assert struck_side(f, f) is Struck.STERN  # it faces away
            assert struck_side(f, f.left) is struck_side(f, f.right) is Struck.BROADSIDE

    def test_what_may_be_struck(self):  # rules §4
        assert may_strike(B, G, Struck.BOW) and may_strike(B, G, Struck.BROADSIDE)  # senior: bow or broadside
        assert not may_strike(G, B, Struck.BOW) and may_strike(G, B, Struck.BROADSIDE)  # junior: broadside only
        assert not may_strike(T, T, Struck.BOW) and may_strike(T, T, Struck.BROADSIDE)  # equal: broadside only
        assert not any(may_strike(a, b, Struck.STERN) for a in Kind for b in Kind)  # never the stern
        assert may_strike(SUB, B, Struck.BOW) and not may_strike(B, SUB, Struck.BOW)
        assert not may_strike(SUB, G, Struck.BOW) and may_strike(G, SUB, Struck.BOW)
