"""Rule tests for ADMIRAL.md §8 (atomic bomb), §9 (naval bases) and §10 (end of the game)."""

import pytest

from admiral.games.admiral.rules import (
    QUIET_LIMIT,
    Abandon,
    Action,
    AgreeDraw,
    BattleReport,
    Declare,
    Detonate,
    FlagFall,
    GameOver,
    GameState,
    Kind,
    Move,
    Reason,
    Resign,
    Result,
    Seen,
    Side,
    apply,
    legal_actions,
    parse_cell,
)

from .helpers import at, play, rejected, removed

SOUTH, NORTH = Side.SOUTH, Side.NORTH


def position(text, to_move=SOUTH, quiet=0):
    return GameState.from_text(text, to_move, quiet=quiet)


# ---------------------------------------------------------------------------------------------
# §8 Atomic bomb


class TestExplosion:
    # rules §8: every unit of both sides in the 5×5 square centred on the bomb, the bomb included
    def test_five_by_five_square_both_sides(self):
        # square of g8: e6–i10. Inside: corners e6 i6 e10 i10, and g9 h7. Outside: d8 j8 g5 g11 d5 k11.
        state = position("ABg8 KRe6 TRi10 ESh7 KRd8 ESg5 PLk11 VMBa1 TRb1 / Li6 PLe10 KRg9 Rj8 STg11 TKd5 VMBn15 TRm15")
        events = play(state, "АБ!")
        assert removed(events) == ["N:KRg9", "N:Li6", "N:PLe10", "S:ABg8", "S:ESh7", "S:KRe6", "S:TRi10"]
        for cell, unit in [("d8", "S:KR"), ("g5", "S:ES"), ("k11", "S:PL"), ("j8", "N:R"), ("g11", "N:ST")]:
            assert at(state, cell) == unit
        assert at(state, "d5") == "N:TK"

    # rules §8: at a corner the square is cut off, never shifted
    def test_square_cut_at_a_corner(self):
        # square of a1: a1–c3 only. A shifted square (a1–e5) would take d1, a4, d4 too.
        state = position("ABa1 KRc3 KRd1 KRa4 KRd4 VMBn1 TRn2 / TRb2 VMBn15 TRm15")
        events = play(state, "АБ!")
        assert removed(events) == ["N:TRb2", "S:ABa1", "S:KRc3"]
        assert (at(state, "d1"), at(state, "a4"), at(state, "d4")) == ("S:KR", "S:KR", "S:KR")

    # rules §8: at an edge the square is cut off, never shifted
    def test_square_cut_at_an_edge(self):
        # square of g1: e1–i3 only. A shifted square (e1–i5) would take g4 too.
        state = position("ABg1 KRe3 KRi3 KRg4 KRd1 KRj1 VMBa1 TRa3 / Lg3 VMBn15 TRm15")
        events = play(state, "АБ!")
        assert removed(events) == ["N:Lg3", "S:ABg1", "S:KRe3", "S:KRi3"]
        assert (at(state, "g4"), at(state, "d1"), at(state, "j1")) == ("S:KR", "S:KR", "S:KR")

    # rules §8: no secondary explosions — weapons, bases and the other bomb inside are simply removed
    def test_no_secondary_explosions(self):
        # North's bomb on i8 is inside g8's square; k8 is inside i8's square but not g8's, and survives.
        state = position("ABg8 VMBa1 TRb1 / ABi8 Mf7 ESf6 Tg10 TKh11 BRe8 SMh9 VMBf9 VMBn15 TRm15 KRk8 Lk9")
        events = play(state, "АБ!")
        assert removed(events) == [
            "N:ABi8", "N:BRe8", "N:ESf6", "N:Mf7", "N:SMh9", "N:Tg10", "N:VMBf9", "S:ABg8",
        ]  # fmt: skip
        assert (at(state, "k8"), at(state, "k9"), at(state, "h11")) == ("N:KR", "N:L", "N:TK")
        assert state.result is None

    # rules §8: a destroyed A takes its owner's S even if S stood outside the square
    @pytest.mark.parametrize("owner", [SOUTH, NORTH], ids=["own", "enemy"])
    def test_carrier_takes_its_aircraft_from_outside_the_square(self, owner):
        carrier = "Ah9 Sk2" if owner is SOUTH else ""
        enemy = "Ah9 Sk13" if owner is NORTH else ""
        state = position(f"ABg8 {carrier} VMBa1 TRb1 / {enemy} VMBn15 TRm15")
        events = play(state, "АБ!")
        plane = "S:Sk2" if owner is SOUTH else "N:Sk13"
        side = "SN"[owner]
        assert removed(events) == sorted(["S:ABg8", f"{side}:Ah9", plane])

    # rules §4.2, §8: the detonation is a turn of its own: no move, nothing else, the turn passes
    def test_detonation_is_a_turn_of_its_own(self):
        state = position("ABg8 VMBa1 TRb1 / KRg9 VMBn15 TRm15")
        events = play(state, "АБ!")
        assert events == [
            BattleReport(
                0, SOUTH, "detonation", Seen(SOUTH, Kind.AB, parse_cell("g8")), None, (), (), None, None,
                (Seen(SOUTH, Kind.AB, parse_cell("g8")), Seen(NORTH, Kind.KR, parse_cell("g9"))), parse_cell("g8"),
            )
        ]  # fmt: skip
        assert (state.to_move, state.ply, state.quiet) == (NORTH, 1, 0)

    # rules §8: the bomb may be detonated wherever it stands, even boxed in
    def test_boxed_in_bomb_may_detonate(self):
        state = position("ABg8 KRg9 KRg7 KRf8 KRh8 VMBa1 / VMBn15 TRm15")
        assert Detonate() in legal_actions(state)
        assert [a for a in legal_actions(state) if type(a) is Move and a.src == parse_cell("g8")] == []

    # rules §8: the bomb detonated is the one of the side to move
    def test_north_detonates_its_own_bomb(self):
        state = position("ABc3 KRc4 VMBa1 TRb1 / ABg12 KRg13 VMBn15 TRm15", to_move=NORTH)
        events = play(state, "АБ!")
        assert removed(events) == ["N:ABg12", "N:KRg13"]
        assert (at(state, "c3"), at(state, "c4")) == ("S:AB", "S:KR")

    # rules §8: without a bomb there is nothing to detonate
    def test_no_bomb_to_detonate(self):
        state = position("KRc3 VMBa1 / ABg12 VMBn15")
        assert Detonate() not in legal_actions(state)
        assert rejected(state, Detonate()) == "no_bomb"


# ---------------------------------------------------------------------------------------------
# §9 Naval bases

# One attack of each kind on North's base on e9: South's units, the action, what is removed.
BASE_ATTACKS = [
    ("contact", "Le8", "e8xe9", ["N:VMBe9"]),
    ("air", "Se6 Ad5", "e6xe9", ["N:VMBe9"]),
    ("torpedo", "Te7 TKd6", "e7xe9", ["N:VMBe9", "S:Te7"]),
    ("fireship", "BRe8", "e8xe9", ["N:VMBe9", "S:BRe8"]),
    ("explosion", "ABe7", "АБ!", ["N:VMBe9", "S:ABe7"]),
]


class TestNavalBases:
    # rules §9: destroyed by any attack or explosion; losing one does not end the game
    @pytest.mark.parametrize(("name", "south", "action", "gone"), BASE_ATTACKS, ids=[b[0] for b in BASE_ATTACKS])
    def test_base_destroyed_by_any_attack_game_goes_on(self, name, south, action, gone):
        state = position(f"{south} VMBa1 TRb1 / VMBe9 VMBn15 TRm15")
        events = play(state, action)
        assert removed(events) == gone
        assert state.bases == [1, 1]
        assert state.result is None
        assert not any(isinstance(e, GameOver) for e in events)

    # rules §9, §10.1: losing both ends the game
    def test_losing_both_bases_loses(self):
        state = position("Le8 KRg8 VMBa1 TRb1 / VMBe9 VMBg9 TRm15")
        play(state, "e8xe9")
        assert state.result is None
        play(state, "m15-m14")
        events = play(state, "g8xg9")
        assert events[-1] == GameOver(2, Result(SOUTH, Reason.BASES))
        assert state.result == Result(SOUTH, Reason.BASES)
        assert state.bases == [1, 0]

    # rules §10.1: South loses its bases too (the winner is the other side)
    def test_south_losing_its_last_base_loses(self):
        state = position("VMBe4 TRb1 / Le5 VMBn15 TRm15", to_move=NORTH)
        events = play(state, "e5xe4")
        assert events[-1] == GameOver(0, Result(NORTH, Reason.BASES))


# ---------------------------------------------------------------------------------------------
# §10 End of the game


class TestEndByBases:
    # rules §10.2: one action destroys the last base of both players: a draw
    def test_both_last_bases_in_one_explosion_is_a_draw(self):
        state = position("ABg8 VMBf7 KRa1 / VMBh9 TRm15")
        events = play(state, "АБ!")
        assert removed(events) == ["N:VMBh9", "S:ABg8", "S:VMBf7"]
        assert events[-1] == GameOver(0, Result(None, Reason.BASES))
        assert state.result == Result(None, Reason.BASES)

    # rules §10.2: the same when all four bases stand in the square
    def test_all_four_bases_in_one_explosion_is_a_draw(self):
        state = position("ABg8 VMBf7 VMBg7 KRa1 / VMBh9 VMBi10 TRm15")
        play(state, "АБ!")
        assert state.bases == [0, 0]
        assert state.result == Result(None, Reason.BASES)

    # rules §10.2: an explosion set off by an attack counts too
    def test_both_last_bases_by_an_attack_on_the_bomb_is_a_draw(self):
        state = position("Le8 VMBf7 KRa1 / ABe9 VMBg10 TRm15")
        events = play(state, "e8xe9")
        assert removed(events) == ["N:ABe9", "N:VMBg10", "S:Le8", "S:VMBf7"]
        assert state.result == Result(None, Reason.BASES)


class TestEndByNoAction:
    # rules §4.4, §10.1: the side to move with no legal action loses at once
    def test_boxed_in_side_loses(self):
        state = position("KRe5 VMBa1 / TRn15 VMBm15 VMBn14")
        events = play(state, "e5-e6")
        assert events[-1] == GameOver(0, Result(SOUTH, Reason.NO_ACTIONS))
        assert state.result == Result(SOUTH, Reason.NO_ACTIONS)

    # rules §4.4, §5.2, §6: weapons without carriers, a stationary mine and bases have no action
    def test_side_with_only_untethered_weapons_loses(self):
        state = position("KRe5 VMBa1 / Sh12 Tj12 Mk13 SMl13 VMBn15", to_move=SOUTH)
        play(state, "e5-e6")
        assert state.result == Result(SOUTH, Reason.NO_ACTIONS)

    # rules §4.4: the winner is the side that just moved, whichever it is
    def test_south_with_no_action_loses(self):
        state = position("TRa1 VMBa2 VMBb1 / KRe11 VMBn15", to_move=NORTH)
        play(state, "e11-e10")
        assert state.result == Result(NORTH, Reason.NO_ACTIONS)

    # rules §4.4, §8: a bomb can always be detonated, so its side is never without an action
    def test_boxed_in_bomb_keeps_the_game_going(self):
        state = position("KRe5 VMBa1 / ABn15 VMBm15 VMBn14")
        play(state, "e5-e6")
        assert state.result is None
        assert legal_actions(state) == [Detonate()]

    # rules §4.4: an attack is an action even when no step is possible
    def test_boxed_in_ship_next_to_an_enemy_keeps_the_game_going(self):
        state = position("KRn13 VMBa1 / TRn15 VMBm15", to_move=SOUTH)
        play(state, "n13-n14")
        assert state.result is None
        assert [str(a) for a in legal_actions(state)] == ["n15xn14"]


class TestQuietSea:
    # rules §10.3: 200 plies without a removal: a draw, exactly at the 200th
    def test_draw_at_the_200th_quiet_ply(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15", quiet=QUIET_LIMIT - 1)
        events = play(state, "e5-e6")
        assert QUIET_LIMIT == 200
        assert events[-1] == GameOver(0, Result(None, Reason.QUIET_SEA))
        assert (state.result, state.quiet) == (Result(None, Reason.QUIET_SEA), 200)

    # rules §10.3: not one ply earlier
    def test_no_draw_at_the_199th_quiet_ply(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15", quiet=198)
        play(state, "e5-e6")
        assert (state.result, state.quiet) == (None, 199)

    # rules §10.3: every ply without a removal counts
    def test_quiet_plies_are_counted(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15")
        play(state, "e5-e6")
        play(state, "e11-e10")
        assert state.quiet == 2

    # rules §10.3: a removal resets the count
    def test_a_removal_on_the_200th_ply_resets_the_count(self):
        state = position("Le5 VMBa1 / KRe6 KRe11 VMBn15", quiet=QUIET_LIMIT - 1)
        play(state, "e5xe6")
        assert (state.result, state.quiet) == (None, 0)

    # rules §10.3: an attack that removes nothing is a quiet ply
    def test_attack_without_a_removal_is_quiet(self):
        state = position("Se8 Ad7 VMBa1 / Me10 KRe12 VMBn15", quiet=QUIET_LIMIT - 1)
        events = play(state, "e8xe10")
        assert removed(events) == []
        assert state.result == Result(None, Reason.QUIET_SEA)


class TestResignDrawClock:
    # rules §4.5, §10.1: resigning on one's own turn
    def test_resign_on_own_turn(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15")
        events = play(state, "resign south")
        assert events == [GameOver(0, Result(NORTH, Reason.RESIGNATION))]
        assert state.result == Result(NORTH, Reason.RESIGNATION)

    # rules §4.5: at any time: on the opponent's turn
    def test_resign_on_the_opponents_turn(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15")
        events = play(state, "resign north")
        assert events == [GameOver(0, Result(SOUTH, Reason.RESIGNATION))]

    # rules §4.5: at any time: while a defender's declaration is pending, by either side
    @pytest.mark.parametrize(("side", "winner"), [("south", NORTH), ("north", SOUTH)])
    def test_resign_while_a_declaration_is_pending(self, side, winner):
        state = position("Le8 VMBa1 / KRe9 KRe10 VMBn15")
        play(state, "e8xe9")
        assert state.pending is not None
        events = play(state, f"resign {side}")
        assert events == [GameOver(1, Result(winner, Reason.RESIGNATION))]
        assert (state.pending, state.result) == (None, Result(winner, Reason.RESIGNATION))

    # rules §10.3: draw by agreement
    def test_draw_by_agreement(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15", to_move=NORTH)
        events = play(state, "draw")
        assert events == [GameOver(0, Result(None, Reason.AGREEMENT))]
        assert Action.parse("draw") == AgreeDraw()

    # rules §10.1, §13: the clock runs out
    @pytest.mark.parametrize(("side", "winner"), [(SOUTH, NORTH), (NORTH, SOUTH)])
    def test_flag_fall_loses(self, side, winner):
        state = position("KRe5 VMBa1 / KRe11 VMBn15")
        events = apply(state, FlagFall(side))
        assert events == [GameOver(0, Result(winner, Reason.FLAG))]
        assert Action.parse(f"flag {side.label}") == FlagFall(side)

    # rules §10.1 [addition]: disconnected past the grace time, the opponent claims the win
    @pytest.mark.parametrize(("side", "winner"), [(SOUTH, NORTH), (NORTH, SOUTH)])
    def test_abandonment_loses(self, side, winner):
        state = position("KRe5 VMBa1 / KRe11 VMBn15")
        events = apply(state, Abandon(side))
        assert events == [GameOver(0, Result(winner, Reason.ABANDONMENT))]
        assert Action.parse(f"abandon {side.label}") == Abandon(side)


# Every way a game ends: South's and North's units, the side to move, the ending action.
ENDINGS = [
    ("bases", "Le8 VMBa1 / VMBe9 TRm15", SOUTH, "e8xe9"),
    ("draw-bases", "ABg8 VMBf7 / VMBh9 TRm15", SOUTH, "АБ!"),
    ("no-actions", "KRe5 VMBa1 / TRn15 VMBm15 VMBn14", SOUTH, "e5-e6"),
    ("resign", "KRe5 VMBa1 / KRe11 VMBn15", SOUTH, "resign north"),
    ("agreement", "KRe5 VMBa1 / KRe11 VMBn15", SOUTH, "draw"),
    ("flag", "KRe5 VMBa1 / KRe11 VMBn15", SOUTH, "flag south"),
    ("abandon", "KRe5 VMBa1 / KRe11 VMBn15", SOUTH, "abandon north"),
]

AFTER_THE_END = [
    Action.parse("e5-e4"),
    Action.parse("e6-e7"),
    Action.parse("e11-e10"),
    Action.parse("e8xe9"),
    Detonate(),
    Declare((parse_cell("e9"),)),
    Resign(SOUTH),
    Resign(NORTH),
    AgreeDraw(),
    FlagFall(NORTH),
    Abandon(SOUTH),
]


class TestNothingAfterTheEnd:
    # rules §10.4: the end is decided immediately; no further action is accepted
    @pytest.mark.parametrize(("name", "text", "to_move", "ending"), ENDINGS, ids=[e[0] for e in ENDINGS])
    def test_no_action_accepted_after_the_end(self, name, text, to_move, ending):
        state = position(text, to_move)
        events = play(state, ending)
        assert isinstance(events[-1], GameOver)
        assert state.is_over and state.to_act is None
        assert legal_actions(state) == []
        for action in AFTER_THE_END:
            assert rejected(state, action) == "game_over"

    # rules §10.4: also after a quiet-sea draw
    def test_no_action_after_a_quiet_sea_draw(self):
        state = position("KRe5 VMBa1 / KRe11 VMBn15", quiet=QUIET_LIMIT - 1)
        play(state, "e5-e6")
        assert rejected(state, Action.parse("e11-e10")) == "game_over"
