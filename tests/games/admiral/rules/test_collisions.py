"""Rule tests for ADMIRAL.md §7.2: every row of the special-collision tables, the fireship and torpedo paragraphs.

South attacks; the attacker stands on e8 (the aircraft and the torpedo with their carriers on d7), the target
on e9 (contact), e11 (air strike, distance 3) or e10 (torpedo, distance 2). Each test asserts the exact units
removed (side, kind, cell), the units that stay, and the two participants the report reveals.
"""

import pytest

from admiral.games.admiral.rules import Action, BattleReport, Kind, Seen, Side, apply, parse_cell

from .helpers import at, position, removed, short

RATED = [k for k in Kind if k.is_rated]
K = Kind


def attack(state, notation):
    """Apply a South attack that is resolved at once (§7.2) and return its report."""
    events = apply(state, Action.parse(notation))
    reports = [e for e in events if isinstance(e, BattleReport)]
    assert len(reports) == 1
    report = reports[0]
    assert (report.attacker_formation, report.defender_formation) == ((), ())
    assert (report.attacker_row, report.defender_row) == (None, None)
    assert state.result is None
    assert state.to_move is Side.NORTH
    return report


def revealed(report):
    """The two participants of the report: attacker and target."""
    return (short(report.attacker), short(report.target))


def ids(kinds):
    return [k.code for k in kinds]


OTHERS_ON_S = [K.KR, K.ES, K.ST, K.TK, K.KRPL, K.TR, K.PL]  # rated ships but L and R
OTHERS_ON_M = [k for k in RATED if k is not K.TR]
OTHER_RATED = OTHERS_ON_S


# ---------------------------------------------------------------------------------------------
# Contact attack by a rated ship X


class TestRatedShipOn:
    # rules §7.2 row "rated ship": §7.1 applies (an ordinary battle, rows compared)
    def test_rated_ship_is_an_ordinary_battle(self):
        state = position("Le8", "KRe9")
        events = apply(state, Action.parse("e8xe9"))
        (report,) = events
        assert (report.attacker_row, report.defender_row) == (15, 7)
        assert removed(report) == ["N:KRe9"]
        assert at(state, "e8") == "S:L"

    # rules §7.2 row "A": A destroyed with the owner's S wherever it stands; X stays
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_carrier_destroyed_with_its_aircraft(self, x):
        state = position(f"{x.code}e8 Sc3", "Ae9 Sk12")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Ae9", "N:Sk12"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Ae9")
        assert (at(state, "e8"), at(state, "c3")) == (f"S:{x.code}", "S:S")
        assert report.method == "contact"

    # rules §7.2 row "S": X is L or R — S destroyed, X stays (AA fire)
    @pytest.mark.parametrize("x", [K.L, K.R], ids=["L", "R"])
    def test_battleship_or_raider_shoots_down_the_aircraft(self, x):
        state = position(f"{x.code}e8", "Se9 Af10")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Se9"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Se9")
        assert (at(state, "e8"), at(state, "f10")) == (f"S:{x.code}", "N:A")

    # rules §7.2 row "S": any other X — X destroyed, S stays
    @pytest.mark.parametrize("x", OTHERS_ON_S, ids=ids(OTHERS_ON_S))
    def test_other_ship_attacking_the_aircraft_is_destroyed(self, x):
        state = position(f"{x.code}e8", "Se9 Af10")
        report = attack(state, "e8xe9")
        assert removed(report) == [f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Se9")
        assert (at(state, "e8"), at(state, "e9")) == (None, "N:S")

    # rules §7.2 row "T, armed": an owner's TK 8-adjacent — both removed
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_armed_torpedo_goes_off(self, x):
        state = position(f"{x.code}e8", "Te9 TKf10")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Te9", f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Te9")
        assert at(state, "f10") == "N:TK"

    # rules §7.2 row "T, dummy": no owner's TK 8-adjacent — only T removed, X stays
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_dummy_torpedo_only_torpedo_removed(self, x):
        state = position(f"{x.code}e8", "Te9 TKg9")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Te9"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Te9")
        assert at(state, "e8") == f"S:{x.code}"

    # rules §7.2 row "T, armed": only the torpedo's owner's TK arms it
    def test_attackers_torpedo_boat_does_not_arm_the_torpedo(self):
        state = position("KRe8 TKf10", "Te9")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Te9"]
        assert at(state, "e8") == "S:KR"

    # rules §7.2 row "M": X is TR — M removed, TR stays
    def test_minesweeper_clears_the_mine(self):
        state = position("TRe8", "Me9 ESf10")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Me9"]
        assert revealed(report) == ("S:TRe8", "N:Me9")
        assert at(state, "e8") == "S:TR"

    # rules §7.2 row "M": any other X — both removed
    @pytest.mark.parametrize("x", OTHERS_ON_M, ids=ids(OTHERS_ON_M))
    def test_other_ship_on_a_mine_both_removed(self, x):
        state = position(f"{x.code}e8", "Me9 ESf10")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:Me9", f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:Me9")
        assert at(state, "f10") == "N:ES"

    # rules §7.2 row "SM": both removed, a TR too
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_stationary_mine_both_removed(self, x):
        state = position(f"{x.code}e8", "SMe9")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:SMe9", f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:SMe9")

    # rules §7.2 row "BR": both removed
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_fireship_both_removed(self, x):
        state = position(f"{x.code}e8", "BRe9")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:BRe9", f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:BRe9")

    # rules §7.2 row "AB": the bomb explodes (§8); X is inside the square and dies
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_atomic_bomb_explodes(self, x):
        # square of e9: c7–g11. Inside: X e8, North KR g11. Outside: South KR h9, North TR e12.
        state = position(f"{x.code}e8 KRh9", "ABe9 KRg11 TRe12")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:ABe9", "N:KRg11", f"S:{x.code}e8"]
        assert revealed(report) == (f"S:{x.code}e8", "N:ABe9")
        assert report.explosion == parse_cell("e9")
        assert (at(state, "h9"), at(state, "e12")) == ("S:KR", "N:TR")

    # rules §7.2 row "VMB": VMB destroyed, X stays
    @pytest.mark.parametrize("x", RATED, ids=ids(RATED))
    def test_naval_base_destroyed(self, x):
        state = position(f"{x.code}e8", "VMBe9")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:VMBe9"]
        assert revealed(report) == (f"S:{x.code}e8", "N:VMBe9")
        assert at(state, "e8") == f"S:{x.code}"


# ---------------------------------------------------------------------------------------------
# Contact attack by BR

# BR on anything but S and AB: North's units, and the units removed (the target and the fireship).
BR_BOTH_REMOVED = [
    *[(k.code, f"{k.code}e9", [f"N:{k.code}e9"]) for k in RATED],
    ("A", "Ae9 Sk12", ["N:Ae9", "N:Sk12"]),
    ("T-armed", "Te9 TKf10", ["N:Te9"]),
    ("T-dummy", "Te9", ["N:Te9"]),
    ("M", "Me9 ESf10", ["N:Me9"]),
    ("SM", "SMe9", ["N:SMe9"]),
    ("BR", "BRe9", ["N:BRe9"]),
    ("VMB", "VMBe9", ["N:VMBe9"]),
]


class TestFireshipOn:
    # rules §7.2 BR paragraph: S is revealed, nothing removed
    def test_aircraft_revealed_nothing_removed(self):
        state = position("BRe8", "Se9 Af10")
        report = attack(state, "e8xe9")
        assert removed(report) == []
        assert revealed(report) == ("S:BRe8", "N:Se9")
        assert [short(s) for s in report.revealed_only] == ["S:BRe8", "N:Se9"]
        assert (at(state, "e8"), at(state, "e9")) == ("S:BR", "N:S")

    # rules §7.2 BR paragraph: AB — explosion (§8)
    def test_atomic_bomb_explodes(self):
        state = position("BRe8 KRh9", "ABe9 KRg11 TRe12")
        report = attack(state, "e8xe9")
        assert removed(report) == ["N:ABe9", "N:KRg11", "S:BRe8"]
        assert report.explosion == parse_cell("e9")
        assert (at(state, "h9"), at(state, "e12")) == ("S:KR", "N:TR")

    # rules §7.2 BR paragraph: anything else — both removed (A takes its S; a dummy T goes too)
    @pytest.mark.parametrize(("name", "north", "target_gone"), BR_BOTH_REMOVED, ids=[c[0] for c in BR_BOTH_REMOVED])
    def test_both_removed(self, name, north, target_gone):
        state = position("BRe8", north)
        report = attack(state, "e8xe9")
        assert removed(report) == sorted([*target_gone, "S:BRe8"])
        assert revealed(report) == ("S:BRe8", f"N:{north.split()[0]}")
        assert (at(state, "e8"), at(state, "e9")) == (None, None)


# ---------------------------------------------------------------------------------------------
# Air strike by S (from e8, carrier on d7, target on e11 at distance 3)


class TestAircraftOn:
    # rules §7.2 S table row "L, R": S destroyed by AA fire; target stays
    @pytest.mark.parametrize("target", [K.L, K.R], ids=["L", "R"])
    def test_shot_down_by_battleship_or_raider(self, target):
        state = position("Se8 Ad7", f"{target.code}e11")
        report = attack(state, "e8xe11")
        assert removed(report) == ["S:Se8"]
        assert revealed(report) == ("S:Se8", f"N:{target.code}e11")
        assert (at(state, "e11"), at(state, "d7")) == (f"N:{target.code}", "S:A")
        assert report.method == "air"

    # rules §7.2 S table row "any other rated ship": target destroyed; S stays
    @pytest.mark.parametrize("target", OTHER_RATED, ids=ids(OTHER_RATED))
    def test_other_rated_ship_destroyed(self, target):
        state = position("Se8 Ad7", f"{target.code}e11")
        report = attack(state, "e8xe11")
        assert removed(report) == [f"N:{target.code}e11"]
        assert revealed(report) == ("S:Se8", f"N:{target.code}e11")
        assert at(state, "e8") == "S:S"

    # rules §7.2 S table row "A": A destroyed, takes its own S with it; the striking S stays
    def test_carrier_destroyed_with_its_aircraft(self):
        state = position("Se8 Ad7", "Ae11 Sk13")
        report = attack(state, "e8xe11")
        assert removed(report) == ["N:Ae11", "N:Sk13"]
        assert revealed(report) == ("S:Se8", "N:Ae11")
        assert at(state, "e8") == "S:S"

    # rules §7.2 S table row "VMB": target destroyed; S stays
    def test_naval_base_destroyed(self):
        state = position("Se8 Ad7", "VMBe11")
        report = attack(state, "e8xe11")
        assert removed(report) == ["N:VMBe11"]
        assert at(state, "e8") == "S:S"

    # rules §7.2 S table row "S": both aircraft destroyed
    def test_both_aircraft_destroyed(self):
        state = position("Se8 Ad7", "Se11 Af12")
        report = attack(state, "e8xe11")
        assert removed(report) == ["N:Se11", "S:Se8"]
        assert revealed(report) == ("S:Se8", "N:Se11")
        assert (at(state, "d7"), at(state, "f12")) == ("S:A", "N:A")

    # rules §7.2 S table row "M, SM, T, BR": target revealed; nothing removed
    @pytest.mark.parametrize(
        "north", ["Me11 ESf12", "SMe11", "Te11 TKf12", "Te11", "BRe11"], ids=["M", "SM", "T-armed", "T-dummy", "BR"]
    )
    def test_target_revealed_nothing_removed(self, north):
        state = position("Se8 Ad7", north)
        before = state.board.copy()
        report = attack(state, "e8xe11")
        assert removed(report) == []
        assert revealed(report) == ("S:Se8", f"N:{north.split()[0]}")
        assert [short(s) for s in report.revealed_only] == ["S:Se8", f"N:{north.split()[0]}"]
        assert state.board == before

    # rules §7.2 S table row "AB", §8: explosion; the striking S dies only inside the square
    @pytest.mark.parametrize(
        ("south", "strike", "gone"),
        [
            # distance 1: S inside, and its A (8-adjacent) is necessarily inside too
            ("Se9 Ae8", "e9xe10", ["N:ABe10", "N:KRf11", "S:Ae8", "S:Se9"]),
            ("Se8 Ae7", "e8xe10", ["N:ABe10", "N:KRf11", "S:Se8"]),  # distance 2: S inside, A outside
            ("Se7 Ae6", "e7xe10", ["N:ABe10", "N:KRf11"]),  # distance 3: S outside, survives
            ("Se6 Ae5", "e6xe10", ["N:ABe10", "N:KRf11"]),  # distance 4: S outside, survives
        ],
        ids=["d1", "d2", "d3", "d4"],
    )
    def test_atomic_bomb_explodes(self, south, strike, gone):
        state = position(south, "ABe10 KRf11")
        report = attack(state, strike)
        assert removed(report) == gone
        assert report.explosion == parse_cell("e10")
        assert report.method == "air"
        for token in south.split():  # "Se9": the aircraft on e9
            assert at(state, token[1:]) == (None if f"S:{token}" in gone else f"S:{token[0]}")


# ---------------------------------------------------------------------------------------------
# Torpedo shot by T (from e8, TK on d7, target on e10 at distance 2)

# Every target but AB: North's units and what is removed besides the torpedo.
TORPEDO_HITS = [
    *[(k.code, f"{k.code}e10", [f"N:{k.code}e10"]) for k in RATED],
    ("A", "Ae10 Sk13", ["N:Ae10", "N:Sk13"]),
    ("S", "Se10 Af11", ["N:Se10"]),
    ("T-armed", "Te10 TKf11", ["N:Te10"]),
    ("T-dummy", "Te10", ["N:Te10"]),
    ("M", "Me10 ESf11", ["N:Me10"]),
    ("SM", "SMe10", ["N:SMe10"]),
    ("BR", "BRe10", ["N:BRe10"]),
    ("VMB", "VMBe10", ["N:VMBe10"]),
]


class TestTorpedoOn:
    # rules §7.2 T paragraph: anything but AB — the target is destroyed; the torpedo is removed
    @pytest.mark.parametrize(("name", "north", "target_gone"), TORPEDO_HITS, ids=[c[0] for c in TORPEDO_HITS])
    def test_target_destroyed_torpedo_spent(self, name, north, target_gone):
        state = position("Te8 TKd7", north)
        report = attack(state, "e8xe10")
        assert removed(report) == sorted([*target_gone, "S:Te8"])
        assert revealed(report) == ("S:Te8", f"N:{north.split()[0]}")
        assert (at(state, "e8"), at(state, "e10"), at(state, "d7")) == (None, None, "S:TK")
        assert report.method == "torpedo"

    # rules §7.2 T paragraph, §8: AB — explosion; the torpedo is removed
    def test_atomic_bomb_explodes(self):
        # square of e10: c8–g12. The torpedo on e8 is inside, its TK on d7 is not.
        state = position("Te8 TKd7", "ABe10 KRf11 TRe13")
        report = attack(state, "e8xe10")
        assert removed(report) == ["N:ABe10", "N:KRf11", "S:Te8"]
        assert report.explosion == parse_cell("e10")
        assert (at(state, "d7"), at(state, "e13")) == ("S:TK", "N:TR")

    # rules §6, §7.2: the report reveals the torpedo and its target
    def test_report_reveals_both(self):
        state = position("Te8 TKd7", "Le10")
        report = attack(state, "e8xe10")
        assert report.attacker == Seen(Side.SOUTH, K.T, parse_cell("e8"))
        assert report.target == Seen(Side.NORTH, K.L, parse_cell("e10"))
