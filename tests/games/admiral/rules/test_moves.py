"""Rule tests for ADMIRAL.md §4 (the turn) and §5 (movement, the tether rule)."""

import random

import pytest

from admiral.games.admiral.rules import (
    Action,
    Attack,
    Detonate,
    GameState,
    IllegalAction,
    Kind,
    Move,
    Moved,
    Side,
    auto_arrange,
    cell_name,
    legal_actions,
    parse_cell,
)

from .helpers import at, play, position, rejected


def moves_from(state, cell):
    src = parse_cell(cell)
    return sorted(cell_name(a.dst) for a in legal_actions(state) if type(a) is Move and a.src == src)


# ---------------------------------------------------------------------------------------------
# §5.1 All mobile units


class TestStep:
    # rules §5.1: one step up, down, left or right onto an empty cell
    @pytest.mark.parametrize("dst", ["e9", "e7", "d8", "f8"])
    def test_one_orthogonal_step(self, dst):
        state = position("KRe8")
        events = play(state, f"e8-{dst}")
        assert events == [Moved(0, Side.SOUTH, Kind.KR, parse_cell("e8"), parse_cell(dst))]
        assert at(state, dst) == "S:KR"
        assert at(state, "e8") is None

    # rules §5.1
    def test_legal_moves_are_the_four_orthogonal_neighbours(self):
        assert moves_from(position("KRe8"), "e8") == ["d8", "e7", "e9", "f8"]

    # rules §5.1: the board's edge
    def test_corner_unit_has_two_steps(self):
        state = GameState.from_text("KRa15 VMBb1 / VMBn15 TRm15")
        assert moves_from(state, "a15") == ["a14", "b15"]

    # rules §5.1: no diagonal steps
    @pytest.mark.parametrize("dst", ["d7", "d9", "f7", "f9"])
    def test_diagonal_step_rejected(self, dst):
        assert rejected(position("KRe8"), f"e8-{dst}") == "not_adjacent"

    # rules §5.1: one step only
    @pytest.mark.parametrize("dst", ["e10", "g8", "e8"])
    def test_longer_step_rejected(self, dst):
        assert rejected(position("KRe8"), f"e8-{dst}") == "not_adjacent"

    # rules §5.1: units never jump
    def test_no_jump_over_a_unit(self):
        state = position("KRe8", "TRe9")
        assert rejected(state, "e8-e10") == "not_adjacent"

    # rules §5.1: the cell must be empty (own unit)
    def test_step_onto_own_unit_rejected(self):
        assert rejected(position("KRe8 ESe9"), "e8-e9") == "occupied"

    # rules §5.1: the cell must be empty (enemy unit); a move is never an attack
    def test_step_onto_enemy_unit_rejected(self):
        assert rejected(position("KRe8", "ESe9"), "e8-e9") == "occupied"

    # rules §5.1: a boxed-in unit has no step
    def test_surrounded_unit_cannot_move(self):
        state = position("KRe8 TRe9 TRd8 TRf8", "TRe7")
        assert moves_from(state, "e8") == []

    # rules §5.1: SM never moves
    def test_stationary_mine_never_moves(self):
        state = position("SMe8")
        assert moves_from(state, "e8") == []
        assert rejected(state, "e8-e9") == "immobile"

    # rules §5.1: VMB never moves
    def test_naval_base_never_moves(self):
        state = position("VMBe3")
        assert moves_from(state, "e3") == []
        assert rejected(state, "e3-e4") == "immobile"

    # rules §5.1: every other kind moves (weapons next to their carrier)
    @pytest.mark.parametrize("kind", [k for k in Kind if k not in (Kind.SM, Kind.VMB, Kind.TR)], ids=lambda k: k.code)
    def test_every_other_kind_steps(self, kind):
        carrier = {Kind.S: "Ad7", Kind.T: "TKd7", Kind.M: "ESd7"}.get(kind, "")
        state = position(f"{kind.code}e8 {carrier}")
        play(state, "e8-e9")
        assert at(state, "e9") == f"S:{kind.code}"

    # rules §5.1 (TR is the padding unit above: tested on its own)
    def test_minesweeper_steps(self):
        state = position("TRe8")
        play(state, "e8-e9")
        assert at(state, "e9") == "S:TR"

    # rules §5.1: the enemy zone may be entered
    def test_step_into_the_enemy_zone(self):
        state = position("KRe10")
        play(state, "e10-e11")
        assert at(state, "e11") == "S:KR"
        state = position("KRe12")
        play(state, "e12-e13")
        assert at(state, "e13") == "S:KR"

    # rules §5.1: North may enter South's zone too
    def test_north_steps_into_souths_zone(self):
        state = position("", "KRe6", to_move=Side.NORTH)
        play(state, "e6-e5")
        assert at(state, "e5") == "N:KR"

    # rules §4.2: one's own unit only
    def test_moving_an_enemy_unit_rejected(self):
        assert rejected(position("KRe8", "KRg8"), "g8-g7") == "not_your_unit"

    # rules §4.2
    def test_moving_from_an_empty_cell_rejected(self):
        assert rejected(position("KRe8"), "e5-e6") == "no_unit"


# ---------------------------------------------------------------------------------------------
# §5.2 Weapons and their carriers (tether rule)

TETHERS = [(Kind.S, Kind.A), (Kind.T, Kind.TK), (Kind.M, Kind.ES)]
TETHER_IDS = ["S-A", "T-TK", "M-ES"]


class TestTether:
    # rules §5.2: 8-adjacent before the step (diagonally), not after
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_weapon_steps_away_from_its_carrier(self, weapon, carrier):
        state = position(f"{weapon.code}e8 {carrier.code}d7")
        play(state, "e8-e9")
        assert at(state, "e9") == f"S:{weapon.code}"

    # rules §5.2: 8-adjacent after the step only
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_weapon_steps_to_its_carrier(self, weapon, carrier):
        state = position(f"{weapon.code}e8 {carrier.code}f10")
        play(state, "e8-e9")
        assert at(state, "e9") == f"S:{weapon.code}"

    # rules §5.2: a weapon far from every carrier cannot move
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_far_weapon_cannot_move(self, weapon, carrier):
        state = position(f"{weapon.code}e8 {carrier.code}h8")
        assert moves_from(state, "e8") == []
        assert rejected(state, "e8-e9") == "tethered"

    # rules §5.2: the tether allows exactly the steps that start or end next to the carrier
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_only_steps_touching_the_carrier(self, weapon, carrier):
        # carrier on g8: e8 is 2 away; only the step to f8 ends next to it
        state = position(f"{weapon.code}e8 {carrier.code}g8")
        assert moves_from(state, "e8") == ["f8"]

    # rules §5.2: the carrier must be of the weapon's own kind
    @pytest.mark.parametrize(
        ("weapon", "other"),
        [
            (Kind.S, Kind.TK),
            (Kind.S, Kind.ES),
            (Kind.T, Kind.A),
            (Kind.T, Kind.ES),
            (Kind.M, Kind.A),
            (Kind.M, Kind.TK),
        ],
        ids=lambda k: k.code,
    )
    def test_carrier_of_another_kind_does_not_tether(self, weapon, other):
        state = position(f"{weapon.code}e8 {other.code}d8")
        assert moves_from(state, "e8") == []
        assert rejected(state, "e8-e9") == "tethered"

    # rules §5.2: the carrier must be friendly
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_enemy_carrier_does_not_tether(self, weapon, carrier):
        state = position(f"{weapon.code}e8", f"{carrier.code}d8")
        assert moves_from(state, "e8") == []
        assert rejected(state, "e8-e9") == "tethered"

    # rules §2, §5.2: any friendly carrier of the class serves, no fixed pairing
    def test_any_torpedo_boat_serves(self):
        state = position("Te8 TKd7 TKh8")
        assert moves_from(state, "e8") == ["d8", "e7", "e9", "f8"]

    # rules §5.2: carriers move freely, even away from their weapons
    @pytest.mark.parametrize(("weapon", "carrier"), TETHERS, ids=TETHER_IDS)
    def test_carrier_moves_freely(self, weapon, carrier):
        state = position(f"{weapon.code}e8 {carrier.code}e7")
        play(state, "e7-e6")
        assert at(state, "e6") == f"S:{carrier.code}"

    # rules §5.2: the carrier steps away first, the weapon catches up on a later turn
    def test_weapon_catches_up_later(self):
        state = position("Se8 Ae7", "TRg12")
        play(state, "e7-e6")  # A now 2 away from S
        play(state, "g12-g11")
        assert moves_from(state, "e8") == ["e7"]  # only e7 ends 8-adjacent to e6
        play(state, "e8-e7")
        assert at(state, "e7") == "S:S"

    # rules §5.2 [decision]: no forced reply; the weapon may stay behind
    def test_weapon_need_not_follow(self):
        state = position("Se8 Ae7", "TRg12")
        play(state, "e7-e6")
        play(state, "g12-g11")
        play(state, "b1-c1")  # South does something else
        assert at(state, "e8") == "S:S"
        assert state.to_move is Side.NORTH


# ---------------------------------------------------------------------------------------------
# §4 The turn


class TestTurn:
    # rules §4.1: South has the first turn
    def test_south_acts_first(self):
        rng = random.Random(3)
        state = GameState.from_setups(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng))
        actions = legal_actions(state)
        assert actions
        assert {state.board[a.src].side for a in actions if type(a) in (Move, Attack)} == {Side.SOUTH}

    # rules §4.1: players alternate
    def test_turns_alternate(self):
        state = position("KRe5", "KRe11")
        play(state, "e5-e6")
        assert state.to_move is Side.NORTH
        assert rejected(state, "e6-e7") == "not_your_unit"
        play(state, "e11-e10")
        assert state.to_move is Side.SOUTH
        assert rejected(state, "e10-e9") == "not_your_unit"

    # rules §4.2: one unit, one action; a move ends the turn
    def test_a_move_ends_the_turn(self):
        state = position("KRe5 KRg5", "KRe11")
        play(state, "e5-e6")
        assert state.to_move is Side.NORTH
        assert state.ply == 1

    # rules §4.3: after a move, attacking is optional
    def test_move_next_to_an_enemy_without_attacking(self):
        state = position("KRe5", "TRe7")
        events = play(state, "e5-e6")
        assert events == [Moved(0, Side.SOUTH, Kind.KR, parse_cell("e5"), parse_cell("e6"))]
        assert (at(state, "e6"), at(state, "e7")) == ("S:KR", "N:TR")
        assert state.to_move is Side.NORTH

    # rules §4.3: passing is impossible
    @pytest.mark.parametrize("text", ["pass", "--", ""])
    def test_no_pass_notation(self, text):
        with pytest.raises(IllegalAction) as err:
            Action.parse(text)
        assert err.value.code == "bad_notation"

    # rules §4.2, §4.3: the legal actions are moves, attacks and the detonation only
    def test_legal_actions_hold_no_pass(self):
        state = position("KRe8 ABh3", "TRe9")
        kinds = {type(a) for a in legal_actions(state)}
        assert kinds == {Move, Attack, Detonate}
