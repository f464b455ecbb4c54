"""The end (§6, §7.4, §7.7): the whole fleet destroyed, no legal turn, 100 turns each without a sinking, agreement,
resignation, flag fall, abandonment."""

from __future__ import annotations

from admiral.games.naval.rules import QUIET_PLIES, GameOver, GameState, Reason, Side

from .helpers import game, refused, seed_for


class TestFleetDestroyed:
    def test_striking_the_last_ship_wins(self):  # rules §6
        g = game("Ce5n / Ge6s")
        events = g.apply("e5xe6")
        assert isinstance(events[-1], GameOver)
        assert g.state.result.winner is Side.SOUTH and g.state.result.reason is Reason.FLEET_DESTROYED
        assert g.state.to_act is None and g.legal_actions() == []

    def test_the_winning_strike_rolls_nothing(self):  # rules §7.4: even onto a gun point and a mine
        g = game("Cb3e / Gb4s", to_move="north", seed=seed_for(True))
        g.apply("b4xb3")
        assert g.state.rolls == [] and g.state.result.winner is Side.NORTH

    def test_a_strike_that_leaves_ships_rolls(self):  # rules §5, §7.4
        g = game("Sa1n Cb3e / Gb4s", to_move="north", seed=seed_for(True))
        assert g.state.afloat(Side.SOUTH) == 2
        g.apply("b4xb3")
        assert len(g.state.rolls) == 1 and g.state.result.winner is Side.SOUTH  # North's last ship sank

    def test_sinking_ones_own_last_ship_loses(self):  # rules §6 [decision]: by a gun or a mine on entering
        g = game("Ge5n / Sa13s / mines e6", seed=seed_for(True))
        g.apply("e5-e6")
        assert g.state.result.winner is Side.NORTH and g.state.result.reason is Reason.FLEET_DESTROYED

    def test_a_ship_lost_is_counted(self):  # rules §6
        g = game("Ce5n Ta1n / Ge6s Sa13s")
        g.apply("e5xe6")
        assert g.state.result is None and g.state.afloat(Side.NORTH) == 1


class TestNoLegalTurn:
    def test_a_ship_afloat_can_always_turn(self):  # rules §6, §7.7
        s = GameState.from_text("Ge5n / Sa13s")
        assert s.has_legal_action() and {"e5<", "e5>"} <= {str(a) for a in s.legal_actions()}

    def test_only_an_empty_fleet_has_none(self):  # rules §6, §7.7: already the end by destruction
        s = GameState.from_text(" / Sa13s")
        assert not s.has_legal_action() and s.legal_actions() == []


class TestQuiet:
    def test_a_draw_after_100_turns_each_without_a_sinking(self):  # rules §6
        g = game("Ge5n / Sa13s")
        for ply in range(QUIET_PLIES):
            assert g.state.result is None, ply
            g.apply("e5>" if g.state.to_move is Side.SOUTH else "a13>")
        assert g.state.result.winner is None and g.state.result.reason is Reason.QUIET
        assert QUIET_PLIES == 200 and g.state.quiet == 200

    def test_a_sinking_starts_the_count_again(self):  # rules §6
        g = game("Ce5n Ta1n / Ge6s Sa13s")
        g.apply("a1>")
        g.apply("a13>")
        assert g.state.quiet == 2
        g.apply("e5xe6")
        assert g.state.quiet == 0

    def test_a_roll_that_sinks_counts_too(self):  # rules §6 [decision]: any cause
        g = game("Ge5n Ta1n / Sa13s / mines e6", seed=seed_for(True))
        g.apply("a1>")
        g.apply("a13>")
        g.apply("e5-e6")
        assert g.state.quiet == 0


class TestEndActions:
    def test_resignation(self):  # rules §7.7
        g = game("Ge5n / Sa13s")
        refused(g, "resign north", "not_your_side", by="south")
        g.apply("resign north")
        assert g.state.result.winner is Side.SOUTH and g.state.result.reason is Reason.RESIGN

    def test_resignation_out_of_turn(self):  # rules §7.7: any time while the game goes on
        g = game("Ge5n / Sa13s")
        g.apply("resign south", by=Side.SOUTH)
        assert g.state.result.winner is Side.NORTH

    def test_draw_by_agreement(self):  # rules §6
        g = game("Ge5n / Sa13s")
        g.apply("draw")
        assert g.state.result.winner is None and g.state.result.reason is Reason.DRAW

    def test_flag_and_abandonment(self):  # rules §7.7
        for action, reason in (("flag south", Reason.FLAG), ("abandon south", Reason.ABANDON)):
            g = game("Ge5n / Sa13s")
            g.apply(action)
            assert g.state.result.winner is Side.NORTH and g.state.result.reason is reason and g.ply == 1
