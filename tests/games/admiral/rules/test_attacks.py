"""Rule tests for ADMIRAL.md §6 (attacks: who may attack what, from where)."""

import pytest

from admiral.games.admiral.rules import (
    Attack,
    Kind,
    Moved,
    Seen,
    Side,
    cell_name,
    legal_actions,
    parse_cell,
)

from .helpers import at, play, position, rejected, removed

RATED = [k for k in Kind if k.is_rated]


def targets(state, cell, via=None):
    """Cells the unit on ``cell`` may attack now (after stepping to ``via`` if given), as a sorted list."""
    src = parse_cell(cell)
    step = None if via is None else parse_cell(via)
    return sorted(
        cell_name(a.target)
        for a in legal_actions(state)
        if type(a) is Attack and a.src == src and a.via == step and not a.formation
    )


# Enemy units on the 8 cells around e8 and at distance 2 along the column and the row.
AROUND_E8 = "TRd7 TRd8 TRd9 TRe7 TRe9 TRf7 TRf8 TRf9 TRe10 TRg8"


class TestContactReach:
    # rules §6: a rated ship attacks the 4 orthogonal neighbours
    @pytest.mark.parametrize("kind", RATED, ids=lambda k: k.code)
    def test_rated_ship_reaches_the_four_orthogonal_neighbours(self, kind):
        state = position(f"{kind.code}e8", AROUND_E8)
        assert targets(state, "e8") == ["d8", "e7", "e9", "f8"]

    # rules §6: the fireship, too
    def test_fireship_reaches_the_four_orthogonal_neighbours(self):
        state = position("BRe8", AROUND_E8)
        assert targets(state, "e8") == ["d8", "e7", "e9", "f8"]

    # rules §6: not diagonally
    @pytest.mark.parametrize("kind", [Kind.KR, Kind.BR], ids=lambda k: k.code)
    def test_contact_attack_on_a_diagonal_neighbour_rejected(self, kind):
        state = position(f"{kind.code}e8", "TRf9")
        assert rejected(state, "e8xf9") == "bad_target"

    # rules §6: not at distance 2
    @pytest.mark.parametrize("kind", [Kind.L, Kind.BR], ids=lambda k: k.code)
    def test_contact_attack_at_distance_two_rejected(self, kind):
        state = position(f"{kind.code}e8", "TRe10")
        assert rejected(state, "e8xe10") == "bad_target"


class TestAirStrike:
    # rules §6: any cell at distance 1–4 along its row or column
    def test_reach_is_distance_one_to_four_along_row_and_column(self):
        north = "TRe9 TRe12 TRe13 TRa8 TRi8 TRj8 TRf9 TRg10 TRe4"
        state = position("Se8 Ad7", north)
        assert targets(state, "e8") == ["a8", "e12", "e4", "e9", "i8"]

    # rules §6: units in between do not block (enemy or friendly)
    def test_units_in_between_do_not_block(self):
        state = position("Se8 Ad7 KRe9", "TRe10 TRe11 TRe12")
        assert targets(state, "e8") == ["e10", "e11", "e12"]
        events = play(state, "e8xe12")
        assert removed(events) == ["N:TRe12"]

    # rules §6: a friendly A 8-adjacent at the moment of the strike
    def test_strike_without_a_carrier_rejected(self):
        state = position("Se8 Ad5", "TRe10")
        assert targets(state, "e8") == []
        assert rejected(state, "e8xe10") == "bad_target"

    # rules §6: an enemy A does not serve
    def test_enemy_carrier_does_not_enable_a_strike(self):
        state = position("Se8", "Ad7 TRe10")
        assert rejected(state, "e8xe10") == "bad_target"

    # rules §6: diagonal contact with the carrier counts as 8-adjacent
    @pytest.mark.parametrize("carrier", ["d7", "d8", "d9", "e7", "e9", "f7", "f8", "f9"])
    def test_carrier_on_any_of_the_eight_neighbours(self, carrier):
        state = position(f"Se8 A{carrier}", "TRe12")
        assert targets(state, "e8") == ["e12"]

    # rules §6: after a move, the carrier must be 8-adjacent to the new cell
    def test_move_next_to_the_carrier_then_strike(self):
        state = position("Se8 Af10", "TRe12")
        assert targets(state, "e8") == []
        events = play(state, "e8-e9xe12")
        assert events[0] == Moved(0, Side.SOUTH, Kind.S, parse_cell("e8"), parse_cell("e9"))
        assert removed(events) == ["N:TRe12"]

    # rules §6: a move away from the carrier leaves the aircraft unable to strike
    def test_move_away_from_the_carrier_then_strike_rejected(self):
        state = position("Se8 Ad7", "TRe11")
        assert targets(state, "e8") == ["e11"]
        assert rejected(state, "e8-e9xe11") == "bad_target"


class TestTorpedoShot:
    # rules §6: the first unit along each direction within 1–2
    def test_first_unit_within_two_in_each_direction(self):
        # north: e9 empty, e10 enemy; south: e7 enemy hides e6; west: d8 empty, c8 enemy; east: f8 empty, g8 empty, h8
        state = position("Te8 TKd7", "TRe10 TRe7 TRe6 TRc8 TRh8 TRf9")
        assert targets(state, "e8") == ["c8", "e10", "e7"]

    # rules §6: a friendly first unit blocks its direction
    def test_friendly_first_unit_blocks(self):
        state = position("Te8 TKd7 KRe9", "TRe10")
        assert targets(state, "e8") == []
        assert rejected(state, "e8xe10") == "bad_target"

    # rules §6: the enemy first unit hides the one behind it
    def test_enemy_behind_the_first_unit_unreachable(self):
        state = position("Te8 TKd7", "TRe9 KRe10")
        assert rejected(state, "e8xe10") == "bad_target"

    # rules §6: distance 3 is out of reach
    def test_distance_three_out_of_reach(self):
        state = position("Te8 TKd7", "TRe11")
        assert rejected(state, "e8xe11") == "bad_target"

    # rules §6: a friendly TK 8-adjacent to the torpedo
    def test_shot_without_a_torpedo_boat_rejected(self):
        state = position("Te8 TKc8", "TRe9")
        assert rejected(state, "e8xe9") == "bad_target"

    # rules §6: an enemy TK does not serve
    def test_enemy_torpedo_boat_does_not_enable_a_shot(self):
        state = position("Te8", "TKd7 TRe9")
        assert rejected(state, "e8xe9") == "bad_target"

    # rules §6: move next to a TK, then shoot
    def test_move_next_to_a_torpedo_boat_then_shoot(self):
        state = position("Te8 TKf10", "TRe11")
        events = play(state, "e8-e9xe11")
        assert removed(events) == ["N:TRe11", "S:Te9"]

    # rules §6: after the step the torpedo's ray runs back over the cell it left, now empty
    def test_move_then_shoot_back_over_the_cell_left(self):
        state = position("Te7 TKd8", "TRe6")
        assert targets(state, "e7", via="e8") == ["e6"]
        events = play(state, "e7-e8xe6")
        assert removed(events) == ["N:TRe6", "S:Te8"]


class TestWhoAttacks:
    # rules §6: A, M, AB never attack
    @pytest.mark.parametrize(
        ("south", "code"),
        [("Ae8", "cannot_attack"), ("Me8 ESd7", "cannot_attack"), ("ABe8", "cannot_attack")],
        ids=["A", "M", "AB"],
    )
    def test_mobile_non_attacker_cannot_attack(self, south, code):
        state = position(south, "TRe9")
        assert targets(state, "e8") == []
        assert rejected(state, "e8xe9") == code

    # rules §6: SM and VMB never attack (they are rejected as immobile units)
    @pytest.mark.parametrize("kind", ["SM", "VMB"])
    def test_immobile_unit_cannot_attack(self, kind):
        state = position(f"{kind}e8", "TRe9")
        assert targets(state, "e8") == []
        assert rejected(state, "e8xe9") == "immobile"

    # rules §6: the target is always an enemy unit
    @pytest.mark.parametrize(
        ("south", "notation"),
        [("KRe8 TRe9", "e8xe9"), ("BRe8 TRe9", "e8xe9"), ("Se8 Ad7 TRe10", "e8xe10"), ("Te8 TKd7 KRe9", "e8xe9")],
        ids=["rated", "BR", "S", "T"],
    )
    def test_attack_on_a_friendly_unit_rejected(self, south, notation):
        assert rejected(position(south), notation) == "bad_target"

    # rules §6: an empty cell is no target
    def test_attack_on_an_empty_cell_rejected(self):
        assert rejected(position("KRe8"), "e8xe9") == "bad_target"

    # rules §6: attacking is never compulsory
    def test_attack_not_compulsory(self):
        state = position("KRe8", "TRe9")
        play(state, "e8-d8")
        assert (at(state, "d8"), at(state, "e9")) == ("S:KR", "N:TR")
        assert state.to_move is Side.NORTH


# §6: "may follow a move" — yes for every attacker. Each case: South's setup, the action, what is removed.
MOVE_THEN_ATTACK = [
    *[(f"{k.code}e7", "e7-e8xe9", ["N:TRe9"] if k is not Kind.TR else ["N:TRe9", "S:TRe8"]) for k in RATED],
    ("BRe7", "e7-e8xe9", ["N:TRe9", "S:BRe8"]),
    ("Se7 Af8", "e7-e8xe9", ["N:TRe9"]),
    ("Te7 TKf8", "e7-e8xe9", ["N:TRe9", "S:Te8"]),
]


class TestMoveThenAttack:
    # rules §4.2, §6: every attacker may attack after its step
    @pytest.mark.parametrize(
        ("south", "notation", "gone"), MOVE_THEN_ATTACK, ids=[*[k.code for k in RATED], "BR", "S", "T"]
    )
    def test_every_attacker_may_attack_after_a_move(self, south, notation, gone):
        state = position(south, "TRe9")
        events = play(state, notation)
        kind = south.split()[0][:-2]
        assert events[0] == Moved(0, Side.SOUTH, Kind.parse(kind), parse_cell("e7"), parse_cell("e8"))
        assert removed(events) == gone
        assert at(state, "e7") is None
        assert state.to_move is Side.NORTH

    # rules §6: the attack reaches from the new cell, not from the old one
    def test_reach_counts_from_the_new_cell(self):
        state = position("KRe7", "TRe9 TRd7")
        assert targets(state, "e7", via="e8") == ["e9"]
        assert rejected(state, "e7-e8xd7") == "bad_target"

    # rules §5.1, §6: the step of a move-then-attack obeys the movement rules
    def test_illegal_step_makes_the_attack_illegal(self):
        state = position("KRe7 TRe8", "TRe9")
        assert rejected(state, "e7-e8xe9") == "occupied"
        state = position("Te7 TKa7", "TRe9")
        assert rejected(state, "e7-e8xe9") == "tethered"


class TestTorpedoSpent:
    # rules §6: a torpedo is removed whatever it hits
    @pytest.mark.parametrize("target", ["L", "KR", "TR", "A", "VMB", "M", "SM"])
    def test_torpedo_removed_with_its_target(self, target):
        state = position("Te8 TKd7", f"{target}e10")
        events = play(state, "e8xe10")
        assert removed(events) == sorted([f"N:{target}e10", "S:Te8"])
        assert (at(state, "e8"), at(state, "e10")) == (None, None)

    # rules §6: the report names the torpedo as the attacker
    def test_torpedo_report(self):
        state = position("Te8 TKd7", "KRe9")
        (report,) = play(state, "e8xe9")
        assert report.method == "torpedo"
        assert report.attacker == Seen(Side.SOUTH, Kind.T, parse_cell("e8"))
        assert report.target == Seen(Side.NORTH, Kind.KR, parse_cell("e9"))
