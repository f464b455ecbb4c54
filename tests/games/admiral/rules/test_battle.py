"""Rule tests for ADMIRAL.md §7.1: the ordinary battle, declarations and formations.

South attacks from e8 the North ship on e9. South's formation members stand around e8 (d8, c8, e7…),
North's around e9 (e10, f9…).
"""

import pytest

from admiral.games.admiral.rules import (
    Attack,
    BattleReport,
    DeclarationRequested,
    Declare,
    IllegalAction,
    Kind,
    Moved,
    Seen,
    Side,
    cell_name,
    formations_at,
    legal_actions,
    parse_cell,
    strongest_declaration,
    view,
)

from .helpers import SCALE_ROWS, at, play, position, rejected, removed, report_of, short

K = Kind


def cells(*names):
    return tuple(sorted(parse_cell(n) for n in names))


def declared(members):
    return [short(s) for s in members]


# ---------------------------------------------------------------------------------------------
# §7.1.4–5 Compare and remove


class TestOrdinaryBattle:
    # rules §7.1.4: the higher row wins (the attacker's)
    def test_attacker_with_higher_row_wins(self):
        state = position("Le8", "KRe9")
        report = report_of(play(state, "e8xe9"))
        assert (report.attacker_row, report.defender_row) == (15, 7)
        assert removed(report) == ["N:KRe9"]
        assert report.method == "contact"

    # rules §7.1.4: the higher row wins (the defender's)
    def test_defender_with_higher_row_wins(self):
        state = position("KRe8", "Le9")
        report = report_of(play(state, "e8xe9"))
        assert (report.attacker_row, report.defender_row) == (7, 15)
        assert removed(report) == ["S:KRe8"]
        assert at(state, "e9") == "N:L"

    # rules §7.1.5: equal rows remove both
    def test_equal_rows_remove_both(self):
        state = position("KRe8", "KRe9")
        report = report_of(play(state, "e8xe9"))
        assert (report.attacker_row, report.defender_row) == (7, 7)
        assert removed(report) == ["N:KRe9", "S:KRe8"]

    # rules §7.1.5: on equal rows both declared groups are removed
    def test_equal_row_formations_remove_both_groups(self):
        state = position("KRe8 KRd8", "KRe9 KRe10")
        play(state, "e8xe9 [d8+e8]")
        report = report_of(play(state, "[e9+e10]"))
        assert (report.attacker_row, report.defender_row) == (18, 18)
        assert removed(report) == ["N:KRe10", "N:KRe9", "S:KRd8", "S:KRe8"]

    # rules §7.1.5: the attacker never moves into the target's cell
    def test_winner_stays_where_it_is(self):
        state = position("Le8", "KRe9")
        play(state, "e8xe9")
        assert (at(state, "e8"), at(state, "e9")) == ("S:L", None)

    # rules §7.1.5: every declared member of the loser is removed; the winners stay
    def test_losing_formation_removed_winning_formation_stays(self):
        state = position("ESe8 ESd8", "Le9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert (report.attacker_row, report.defender_row) == (11, 15)
        assert removed(report) == ["S:ESd8", "S:ESe8"]
        assert at(state, "e9") == "N:L"

    # rules §7.1.5: surviving members stay on their cells
    def test_winning_formation_members_stay(self):
        state = position("KRe8 KRd8", "Le9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert removed(report) == ["N:Le9"]
        assert (at(state, "d8"), at(state, "e8"), at(state, "e9")) == ("S:KR", "S:KR", None)

    # rules §7.1.5: an undeclared neighbour is not a member and is not removed
    def test_undeclared_neighbour_survives_a_loss(self):
        state = position("KRe8 KRd8", "Le9")
        report = report_of(play(state, "e8xe9"))
        assert removed(report) == ["S:KRe8"]
        assert at(state, "d8") == "S:KR"

    # rules §7.1.4: the row is a rank, not a sum (3 ЭС = 13 loses to Л = 15 though 3×5 = 15)
    def test_row_is_a_rank_not_a_sum(self):
        state = position("ESe8 ESd8 ESc8", "Le9")
        report = report_of(play(state, "e8xe9 [c8+d8+e8]"))
        assert (report.attacker_row, report.defender_row) == (13, 15)
        assert removed(report) == ["S:ESc8", "S:ESd8", "S:ESe8"]

    # rules §7.1.4: 2 Р (row 14) lose to Л (row 15) though 2×8 = 16
    def test_two_raiders_lose_to_a_battleship(self):
        state = position("Re8 Rd8", "Le9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert (report.attacker_row, report.defender_row) == (14, 15)
        assert removed(report) == ["S:Rd8", "S:Re8"]

    # rules §7.1.4, §11.3: the report shows both declarations, and the survivors as revealed only
    def test_report_reveals_both_declarations(self):
        state = position("KRe8 KRd8", "KRe9 KRe10")
        play(state, "e8xe9 [d8+e8]")
        report = report_of(play(state, "[e9]"))
        assert declared(report.attacker_formation) == ["S:KRd8", "S:KRe8"]
        assert declared(report.defender_formation) == ["N:KRe9"]
        assert (short(report.attacker), short(report.target)) == ("S:KRe8", "N:KRe9")
        assert removed(report) == ["N:KRe9"]
        assert declared(report.revealed_only) == ["S:KRe8", "S:KRd8"]
        assert at(state, "e10") == "N:KR"

    # rules §4.1, §7.1: the battle completes South's turn
    def test_turn_passes_after_the_battle(self):
        state = position("Le8", "KRe9")
        play(state, "e8xe9")
        assert (state.to_move, state.ply) == (Side.NORTH, 1)


# ---------------------------------------------------------------------------------------------
# §7.1.1 The attacker's declaration is void when the target is not a rated ship


class TestVoidDeclaration:
    # rules §7.1.1: only the attacking ship takes part and is revealed
    def test_formation_on_a_carrier_only_attacker_revealed(self):
        state = position("KRe8 KRd8", "Ae9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert removed(report) == ["N:Ae9"]
        assert (report.attacker_formation, report.attacker_row) == ((), None)
        assert declared(report.participants) == ["S:KRe8", "N:Ae9"]
        assert at(state, "d8") == "S:KR"

    # rules §7.1.1: only the attacking ship takes part in the §7.2 outcome
    def test_formation_on_a_stationary_mine_only_attacker_dies(self):
        state = position("KRe8 KRd8", "SMe9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert removed(report) == ["N:SMe9", "S:KRe8"]
        assert declared(report.participants) == ["S:KRe8", "N:SMe9"]
        assert at(state, "d8") == "S:KR"

    # rules §7.1.1: the same for a formation facing the aircraft (X is not L or R: X dies alone)
    def test_formation_on_an_aircraft_only_attacker_dies(self):
        state = position("KRe8 KRd8", "Se9 Af10")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert removed(report) == ["S:KRe8"]
        assert at(state, "d8") == "S:KR"


# ---------------------------------------------------------------------------------------------
# §7.1.2 The defender's declaration


class TestDefenderDeclaration:
    # rules §7.1.2: exactly one possible declaration is made automatically
    def test_single_option_is_automatic(self):
        state = position("Le8", "KRe9 STf9 TKe10 KRf10")  # no formation contains e9 (КР+СТ, КР+ТК; f10 diagonal)
        events = play(state, "e8xe9")
        assert [type(e) for e in events] == [BattleReport]
        assert state.pending is None
        assert removed(report_of(events)) == ["N:KRe9"]

    # rules §7.1.2: more than one possible declaration — the defender is asked
    def test_several_options_wait_for_the_defender(self):
        state = position("Le8", "KRe9 KRe10")
        events = play(state, "e8xe9")
        assert events == [DeclarationRequested(0, Side.NORTH, parse_cell("e8"), parse_cell("e9"))]
        assert state.pending.options == (cells("e9"), cells("e9", "e10"))
        assert (state.to_act, state.to_move, state.ply) == (Side.NORTH, Side.SOUTH, 1)
        assert legal_actions(state) == [Declare(cells("e9")), Declare(cells("e9", "e10"))]
        assert (at(state, "e8"), at(state, "e9"), at(state, "e10")) == ("S:L", "N:KR", "N:KR")

    # rules §7.1.2: the defender's declaration decides the battle
    def test_defender_declares_a_formation(self):
        state = position("Le8", "KRe9 KRe10")
        play(state, "e8xe9")
        events = play(state, "[e9+e10]")
        report = report_of(events)
        assert report.ply == 1
        assert (report.attacker_row, report.defender_row) == (15, 18)
        assert removed(report) == ["S:Le8"]
        assert (state.to_move, state.to_act, state.ply) == (Side.NORTH, Side.NORTH, 2)

    # rules §7.1.2: the defender may declare the attacked ship alone
    def test_defender_declares_the_ship_alone(self):
        state = position("Le8", "KRe9 KRe10")
        play(state, "e8xe9")
        report = report_of(play(state, "[e9]"))
        assert removed(report) == ["N:KRe9"]
        assert at(state, "e10") == "N:KR"

    # rules §7.1.2: a declaration must be one of the defender's options
    @pytest.mark.parametrize("declaration", ["[e10]", "[e9+e10+e11]", "[e9+f9]", "[e8]"])
    def test_declaration_not_open_to_the_defender_rejected(self, declaration):
        state = position("Le8", "KRe9 KRe10 KRe12 ESf9")
        play(state, "e8xe9")
        assert rejected(state, declaration) == "bad_declaration"

    # rules §7.1.2: a declaration built in code naming no cell of the board is refused, not a crash (found by the
    # property test's garbage: Declare((211,)) raised IndexError while its refusal was being worded)
    @pytest.mark.parametrize("formation", [(210,), (-1,), (parse_cell("e9"), 211), ("e9",)])
    def test_declaration_of_no_cell_rejected(self, formation):
        state = position("Le8", "KRe9 KRe10")
        play(state, "e8xe9")
        assert rejected(state, Declare(formation)) == "bad_cell"

    # rules §7.1.2: while the defender chooses, nobody else acts
    def test_attacker_cannot_act_while_the_declaration_is_pending(self):
        state = position("Le8 KRc3", "KRe9 KRe10")
        play(state, "e8xe9")
        assert rejected(state, "c3-c4") == "declaration_pending"

    # rules §7.1.2: a declaration without a pending battle is rejected
    def test_declaration_without_a_battle_rejected(self):
        state = position("Le8", "KRe9 KRe10")
        assert rejected(state, "[e9]") == "no_declaration_pending"

    # rules §7.1.2: the defender declares without seeing the attacker's declaration
    def test_defender_does_not_see_the_attackers_declaration(self):
        state = position("KRe8 KRd8", "KRe9 KRe10")
        log = play(state, "e8xe9 [d8+e8]")
        north = view(state, Side.NORTH, log)
        assert north.pending.formation is None
        assert north.pending.options == (cells("e9"), cells("e9", "e10"))
        assert north.to_dict()["pending"]["formation"] is None
        assert {cell_name(u.cell): u.kind for u in north.units if u.side is Side.SOUTH}["d8"] is None
        assert north.reports == ()
        assert north.legal == (Declare(cells("e9")), Declare(cells("e9", "e10")))
        south = view(state, Side.SOUTH, log)
        assert south.pending.formation == cells("d8", "e8")
        assert south.pending.options is None
        assert south.legal == ()

    # rules §7.1.2 [addition]: the automatic choice is the highest row
    def test_strongest_declaration_takes_the_highest_row(self):
        state = position("Le8", "KRe9 KRe10 KRe11 ESf9")
        play(state, "e8xe9")
        assert strongest_declaration(state) == Declare(cells("e9", "e10", "e11"))

    # rules §7.1.2 [addition]: among equal rows, the members' cells in notation order
    def test_strongest_declaration_ties_broken_by_notation_order(self):
        # e9 with ЭС on d9, f9 and e10: three formations of 3 ЭС (row 13), all the same size and tonnage
        state = position("Le8", "ESe9 ESd9 ESf9 ESe10")
        play(state, "e8xe9")
        rows13 = [f for f in state.pending.options if len(f) == 3]
        assert rows13 == [cells("d9", "e9", "e10"), cells("d9", "e9", "f9"), cells("e9", "e10", "f9")]
        assert strongest_declaration(state) == Declare(cells("d9", "e9", "e10"))

    # rules §7.1.2 [addition]
    def test_strongest_declaration_without_a_battle_rejected(self):
        with pytest.raises(IllegalAction) as err:
            strongest_declaration(position("Le8", "KRe9"))
        assert err.value.code == "no_declaration_pending"


# ---------------------------------------------------------------------------------------------
# §7.1.3 Formations

PAIRS_AND_TRIPLES = [(row, comp) for row, comp in SCALE_ROWS if len(comp) > 1]

# Compositions that are not rows of the scale: South's units (the attacker on e8 first) and the declaration.
NOT_FORMATIONS = [
    ("L+KR", "Le8 KRd8", "[d8+e8]"),
    ("KR+ES", "KRe8 ESd8", "[d8+e8]"),
    ("4KR", "KRe8 KRd8 KRc8 KRb8", "[b8+c8+d8+e8]"),
    ("3L", "Le8 Ld8 Lc8", "[c8+d8+e8]"),
    ("3R", "Re8 Rd8 Rc8", "[c8+d8+e8]"),
    ("2L+KR", "Le8 Ld8 KRc8", "[c8+d8+e8]"),
    ("ST+ST", "STe8 STd8", "[d8+e8]"),
    ("ST+KR", "KRe8 STd8", "[d8+e8]"),
    ("ST+2KR", "KRe8 KRd8 STe7", "[d8+e7+e8]"),
    ("TK+TK", "TKe8 TKd8", "[d8+e8]"),
    ("TK+ES", "ESe8 TKd8", "[d8+e8]"),
    ("TR+TR", "TRe8 TRd8", "[d8+e8]"),
    ("TR+PL", "PLe8 TRd8", "[d8+e8]"),
    ("A+L", "Le8 Ad8", "[d8+e8]"),
    ("A+2KR", "KRe8 KRd8 Ae7", "[d8+e7+e8]"),
    ("PL+ES", "PLe8 ESd8", "[d8+e8]"),
    ("KRPL+KR", "KRPLe8 KRd8", "[d8+e8]"),
    ("2PL+KR", "PLe8 PLd8 KRc8", "[c8+d8+e8]"),
    ("4PL", "PLe8 PLd8 PLc8 PLb8", "[b8+c8+d8+e8]"),
    ("KRPL+3PL", "KRPLe8 PLd8 PLc8 PLe7", "[c8+d8+e7+e8]"),
]


class TestFormations:
    # rules §7.1.3: a chain of 2 along a side
    def test_pair(self):
        state = position("KRe8 KRd8", "Le9")
        report = report_of(play(state, "e8xe9 [d8+e8]"))
        assert declared(report.attacker_formation) == ["S:KRd8", "S:KRe8"]
        assert report.attacker_row == 18

    # rules §7.1.3: a chain of 3 in a line, the attacker at the end
    def test_triple_in_a_line(self):
        state = position("KRe8 KRd8 KRc8", "Le9")
        report = report_of(play(state, "e8xe9 [c8+d8+e8]"))
        assert report.attacker_row == 20

    # rules §7.1.3: a chain of 3 with the attacker in the middle
    def test_triple_with_the_attacker_in_the_middle(self):
        state = position("KRe8 KRd8 KRf8", "Le9")
        report = report_of(play(state, "e8xe9 [d8+e8+f8]"))
        assert report.attacker_row == 20

    # rules §7.1.3: a bent chain of 3 is connected
    def test_bent_triple(self):
        state = position("KRe8 KRe7 KRd7", "Le9")
        report = report_of(play(state, "e8xe9 [d7+e7+e8]"))
        assert report.attacker_row == 20

    # rules §7.1.3: only the attacking ship needs to touch the target
    def test_only_the_attacker_touches_the_target(self):
        state = position("KRe8 KRe7 KRe6", "Le9")
        report = report_of(play(state, "e8xe9 [e6+e7+e8]"))
        assert (report.attacker_row, removed(report)) == (20, ["N:Le9"])

    # rules §7.1.3: every pair and triple row of the scale is a formation
    @pytest.mark.parametrize(("row", "kinds"), PAIRS_AND_TRIPLES, ids=[str(r) for r, _ in PAIRS_AND_TRIPLES])
    def test_every_multi_member_row_of_the_scale(self, row, kinds):
        line = ["e8", "d8", "c8"][: len(kinds)]
        south = " ".join(f"{k.code}{c}" for k, c in zip(kinds, line, strict=True))
        state = position(south, "TRe9")
        members = "+".join(sorted(line))
        assert cells(*line) in formations_at(state.board, parse_cell("e8"))
        report = report_of(play(state, f"e8xe9 [{members}]"))
        assert (report.attacker_row, report.defender_row) == (row, 1)
        assert sorted(declared(report.attacker_formation)) == sorted(f"S:{x}" for x in south.split())
        assert removed(report) == ["N:TRe9"]

    # rules §7.1.3: "КРПЛ at the head of a pack" imposes no position
    @pytest.mark.parametrize("south", ["PLe8 PLd8 KRPLc8", "PLe8 KRPLd8 PLc8", "PLe8 KRPLd8", "KRPLe8 PLd8 PLc8"])
    def test_cruiser_submarine_anywhere_in_the_pack(self, south):
        state = position(south, "Le9")
        line = [token[-2:] for token in south.split()]
        report = report_of(play(state, f"e8xe9 [{'+'.join(sorted(line))}]"))
        assert report.attacker_row == (17 if len(line) == 3 else 10)

    # rules §7.1.3: compositions not in the table are rejected
    @pytest.mark.parametrize(("name", "south", "members"), NOT_FORMATIONS, ids=[c[0] for c in NOT_FORMATIONS])
    def test_composition_not_in_the_table_rejected(self, name, south, members):
        state = position(south, "TRe9")
        assert rejected(state, f"e8xe9 {members}") == "bad_formation"

    # rules §7.1.3: ST, TK, TR and A never form (none of their neighbours' formations include them)
    @pytest.mark.parametrize("kind", [K.A, K.ST, K.TK, K.TR])
    def test_never_a_member(self, kind):
        state = position(f"KRd8 {kind.code}e8 KRf8", "TRe9")
        assert formations_at(state.board, parse_cell("e8")) == []
        assert formations_at(state.board, parse_cell("d8")) == []

    # rules §7.1.3: a member touching only diagonally is not connected
    def test_diagonal_contact_is_not_connected(self):
        state = position("KRe8 KRd7", "Le9")
        assert formations_at(state.board, parse_cell("e8")) == []
        assert rejected(state, "e8xe9 [d7+e8]") == "bad_formation"

    # rules §7.1.3: a non-member never links two members
    def test_non_member_does_not_link(self):
        state = position("KRe8 ESd8 KRc8", "Le9")
        assert formations_at(state.board, parse_cell("e8")) == []
        assert rejected(state, "e8xe9 [c8+e8]") == "bad_formation"

    # rules §7.1.3: a member in the middle does link (contrast with the test above)
    def test_member_in_the_middle_links(self):
        state = position("Re8 ESd8 Rc8", "Le9")
        assert formations_at(state.board, parse_cell("e8")) == [cells("c8", "d8", "e8"), cells("d8", "e8")]
        report = report_of(play(state, "e8xe9 [c8+d8+e8]"))
        assert report.attacker_row == 19

    # rules §7.1.3: a unit of the other side is never a member
    def test_enemy_unit_is_never_a_member(self):
        state = position("KRe8", "KRd8 TRe9")
        assert formations_at(state.board, parse_cell("e8")) == []
        assert rejected(state, "e8xe9 [d8+e8]") == "bad_formation"

    # rules §7.1.3: the attacker's own units are never in the defender's options
    def test_defender_options_hold_only_its_own_ships(self):
        state = position("KRe8 KRf9 KRd9", "Le9 KRe11")
        events = play(state, "e8xe9")
        assert [type(e) for e in events] == [BattleReport]

    # rules §7.1.3: the attacker must be a member of its declaration
    def test_formation_without_the_attacker_rejected(self):
        state = position("KRe8 KRd8 KRc8", "Le9")
        assert rejected(state, "e8xe9 [c8+d8]") == "bad_formation"

    # rules §7.1.3, §6: a formation after a move-then-attack uses the new position
    def test_formation_after_a_move_uses_the_new_cell(self):
        state = position("KRe7 KRd8", "Le9")
        events = play(state, "e7-e8xe9 [d8+e8]")
        assert events[0] == Moved(0, Side.SOUTH, K.KR, parse_cell("e7"), parse_cell("e8"))
        report = report_of(events)
        assert declared(report.attacker_formation) == ["S:KRd8", "S:KRe8"]
        assert removed(report) == ["N:Le9"]

    # rules §7.1.3, §6: the partner left behind by the step is no longer connected
    def test_formation_of_the_old_cell_rejected_after_a_move(self):
        state = position("KRe7 KRd7", "Le9")
        assert rejected(state, "e7-e8xe9 [d7+e8]") == "bad_formation"
        assert rejected(state, "e7-e8xe9 [d7+e7]") == "bad_formation"

    # rules §7.1.2–3: the attacker's declarations are listed among the legal actions
    def test_legal_actions_list_each_declaration(self):
        state = position("KRe8 KRd8 KRe7", "Le9")
        attacks = sorted(str(a) for a in legal_actions(state) if type(a) is Attack and a.src == parse_cell("e8"))
        assert attacks == ["e8xe9", "e8xe9 [d8+e7+e8]", "e8xe9 [d8+e8]", "e8xe9 [e7+e8]"]

    # rules §7.1.3: the defender's formations follow the same rules (chains, diagonals ignored)
    def test_defender_options_are_its_formations(self):
        state = position("Le8", "KRe9 KRf9 KRg9 KRd10")
        play(state, "e8xe9")
        assert state.pending.options == (cells("e9"), cells("e9", "f9"), cells("e9", "f9", "g9"))


# ---------------------------------------------------------------------------------------------
# The battle report's ordering of the revealed declarations (§11.3 shape used by the UI)


def test_report_seen_values_are_exact():
    # rules §7.1.4
    state = position("Le8", "KRe9")
    report = report_of(play(state, "e8xe9"))
    assert report.attacker == Seen(Side.SOUTH, K.L, parse_cell("e8"))
    assert report.target == Seen(Side.NORTH, K.KR, parse_cell("e9"))
    assert report.attacker_formation == (Seen(Side.SOUTH, K.L, parse_cell("e8")),)
    assert report.defender_formation == (Seen(Side.NORTH, K.KR, parse_cell("e9")),)
    assert report.removed == (Seen(Side.NORTH, K.KR, parse_cell("e9")),)
