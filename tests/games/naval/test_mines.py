"""The minesweeper's mines (§3, §7.2): at most one a turn, at its own point, before or after its step, turn or
strike, or alone as the whole turn; one mine per point; lifted mines, own or enemy, go to the reserve."""

from __future__ import annotations

import pytest

from admiral.games.naval.rules import Action, IllegalAction, MineLaid, MineLifted, Moved, Side, parse_point

from .helpers import game, notations, refused, seed_for


def mines(g) -> list[str]:
    from admiral.games.naval.rules import name

    return sorted(name(p) for p in g.state.mines)


class TestLay:
    def test_alone_as_the_whole_turn(self):  # rules §3, §7.2
        g = game("Me5n / Sa13s")
        events = g.apply("+e5")
        assert events == [MineLaid(0, Side.SOUTH, parse_point("e5"), 2)]
        assert mines(g) == ["e5"] and g.state.reserve == [2, 3] and g.state.to_move is Side.NORTH

    def test_before_the_step(self):  # rules §7.2
        g = game("Me5n / Sa13s")
        events = g.apply("+e5 e5-e6")
        assert [type(e) for e in events] == [MineLaid, Moved]
        assert mines(g) == ["e5"] and g.state.ships[parse_point("e6")].id == "M"

    def test_after_the_step(self):  # rules §7.2
        g = game("Me5n / Sa13s")
        events = g.apply("e5-e6 +e6")
        assert [type(e) for e in events] == [Moved, MineLaid] and mines(g) == ["e6"]

    def test_with_a_turn(self):  # rules §7.2: before or after is the same turn; written mine first
        g = game("Me5n / Sa13s")
        g.apply("e5> +e5")
        assert g.record.actions[-1] == Action.parse("+e5 e5>") and mines(g) == ["e5"]

    def test_with_a_strike(self):  # rules §7.2
        g = game("Me5n / Te6e Sa13s")
        assert {"+e5 e5xe6", "e5xe6 +e6"} <= set(notations(g))
        g.apply("e5xe6 +e6")
        assert mines(g) == ["e6"] and g.state.ships[parse_point("e6")].id == "M"

    def test_a_fourth_mine_is_refused(self):  # rules §2, §3: three in the reserve
        g = game("Me5n / Sa13s / reserve 0 3")
        assert not any("+" in n for n in notations(g))
        refused(g, "+e5", "no_mines")
        refused(g, "+e5 e5-e6", "no_mines")

    def test_one_mine_per_point(self):  # rules §7.2
        g = game("Me5n / Sa13s / mines e5 e6")
        assert "+e5" not in notations(g) and "e5-e6 +e6" not in notations(g)
        refused(g, "+e5", "already_mined")
        refused(g, "e5-e6 +e6", "already_mined")

    def test_at_most_one_mine_a_turn(self):  # rules §7.2
        with pytest.raises(IllegalAction) as e:
            Action.parse("+e5 e5-e6 +e6")
        assert e.value.code == "one_mine_a_turn"
        with pytest.raises(IllegalAction):
            Action.parse("+e5 -e5")

    def test_only_at_its_own_point(self):  # rules §3
        g = game("Me5n / Sa13s")
        refused(g, "+e6 e5-e6", "mine_elsewhere")  # before the step it stands at e5
        refused(g, "e5-e6 +e5", "mine_elsewhere")  # after it, at e6
        refused(g, "+e7", "no_ship")  # no minesweeper there

    def test_only_the_minesweeper(self):  # rules §3
        g = game("Ge5n Ma1n / Sa13s")
        refused(g, "+e5", "not_minesweeper")
        refused(g, "+e5 e5-e6", "not_minesweeper")
        refused(g, "+a13", "not_your_ship")


class TestLift:
    def test_an_own_or_enemy_mine_goes_to_the_reserve(self):  # rules §3: both own and the opponent's
        g = game("Me5n / Sa13s / mines e5 e6 / reserve 0 0")
        events = g.apply("-e5 e5-e6")
        assert isinstance(events[0], MineLifted) and mines(g) == ["e6"] and g.state.reserve == [1, 0]
        g.apply("a13>")
        g.apply("-e6")
        assert mines(g) == [] and g.state.reserve == [2, 0]

    def test_the_reserve_may_grow_past_three(self):  # rules §3: lifted mines are the lifter's
        g = game("Me5n / Sa13s / mines e5")
        g.apply("-e5")
        assert g.state.reserve == [4, 3]

    def test_after_the_step(self):  # rules §7.2
        g = game("Me5n / Sa13s / mines e6")
        g.apply("e5-e6 -e6")
        assert mines(g) == [] and g.state.rolls == []  # the minesweeper is immune (§5)

    def test_no_mine_to_lift(self):  # rules §3
        g = game("Me5n / Sa13s")
        refused(g, "-e5", "no_mine")
        refused(g, "e5-e6 -e6", "no_mine")


class TestMineAndDie:
    def test_a_mine_after_the_step_is_skipped_if_the_minesweeper_sank(self):  # rules §5, §7.2 [decision]
        g = game("Sa1n / Mb4s Ti13s", to_move="north", seed=seed_for(True))
        events = g.apply("b4-b3 +b3")
        assert g.state.ships.get(parse_point("b3")) is None and mines(g) == [] and g.state.reserve == [3, 3]
        assert not any(isinstance(e, MineLaid) for e in events)

    def test_no_mine_after_the_winning_strike(self):  # rules §7.4: the game ends at once
        g = game("Me5n / Te6e")
        assert "e5xe6 +e6" not in notations(g) and "+e5 e5xe6" in notations(g)
        refused(g, "e5xe6 +e6", "mine_after_win")
