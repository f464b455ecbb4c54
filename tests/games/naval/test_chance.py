"""Coastal guns, mines and the die (§5, §7.3, §7.5): who rolls, when, in which order, and the roll log."""

from __future__ import annotations

import hashlib
import hmac

from admiral.games.common import draw as house_draw
from admiral.games.naval.rules import FACES, GameState, Roll, Side, Sunk, draw, parse_point, seed_bytes, view

from .helpers import game, replayed, seed_for


def at(g, point):
    return g.state.ships.get(parse_point(point))


class TestDie:
    def test_roll_k_is_the_first_byte_below_252_modulo_6(self):  # rules §7.5
        for seed in (0, 1, 2**200 + 5):
            key = seed_bytes(seed)
            for k in range(20):
                digest = hmac.new(key, str(k).encode(), hashlib.sha256).digest()
                first = next(b for b in digest if b < 252)
                assert draw(key, k, FACES) == first % 6

    def test_the_house_generator_is_shared(self):  # rules §7.5: one generator, not a copy
        assert draw is house_draw

    def test_a_32_byte_seed_and_its_commitment(self):  # rules §7.5
        s = GameState.start(12345)
        assert len(s.seed) == 32 and s.commitment == hashlib.sha256(s.seed).hexdigest()

    def test_about_one_roll_in_six_explodes(self):  # rules §5: one face of six is «взрыв»
        key = seed_bytes(7)
        booms = sum(draw(key, k, 6) == 0 for k in range(6000))
        assert 850 < booms < 1150


class TestCoastalGuns:
    def test_an_enemy_ship_entering_a_gun_point_rolls(self):  # rules §5
        g = game("Sa1n / Gb4s Sa13s", to_move="north", seed=seed_for(False))
        events = g.apply("b4-b3")
        assert events[1] == Roll(0, events[1].value, 0, Side.NORTH, "G1", at(g, "b3").kind, parse_point("b3"), "gun")
        assert not events[1].explosion and at(g, "b3").id == "G1"

    def test_взрыв_sinks_it(self):  # rules §5
        g = game("Sa1n / Gb4s Sa13s", to_move="north", seed=seed_for(True))
        events = g.apply("b4-b3")
        assert events[1].explosion and isinstance(events[2], Sunk) and events[2].cause == "gun"
        assert at(g, "b3") is None and g.state.sunk[-1].ship == "G1"

    def test_a_survivor_that_stays_is_not_rolled_again(self):  # rules §5
        g = game("Sa1n Ti2n / Gb4s Sa13s", to_move="north", seed=seed_for(False, True))
        g.apply("b4-b3")
        g.apply("i2>")
        g.apply("b3>")  # turning on the gun point: no roll
        assert len(g.state.rolls) == 1

    def test_rolled_each_time_it_enters(self):  # rules §5
        g = game("Sa1n Ti2n / Gb4s Sa13s", to_move="north", seed=seed_for(False, False))
        for order in ("b4-b3", "i2>", "b3>", "i2<", "b3>", "i2>", "b3-b4", "i2<", "b4>", "i2>", "b4>", "i2<"):
            g.apply(order)
        g.apply("b4-b3")
        assert [r.point for r in g.state.rolls] == [parse_point("b3")] * 2

    def test_own_guns_do_not_fire_on_own_ships(self):  # rules §5: South's guns fire on North's ships only
        g = game("Gb4s / Sa13s")
        g.apply("b4-b3")
        assert g.state.rolls == []

    def test_the_submarine_passes_freely(self):  # rules §5
        g = game("Ta1n / Sb4s Ta13s", to_move="north")
        g.apply("b4-b3")
        assert g.state.rolls == [] and at(g, "b3").id == "S"

    def test_the_minesweeper_is_not_immune_to_guns(self):  # rules §5: immune to mines only
        g = game("Sa1n / Mb4s Sa13s", to_move="north", seed=seed_for(True))
        g.apply("b4-b3")
        assert at(g, "b3") is None and g.state.rolls[0].cause == "gun"


class TestMinedPoints:
    def test_a_ship_entering_a_mined_point_rolls(self):  # rules §5
        g = game("Ge5n / Sa13s / mines e6", seed=seed_for(False))
        events = g.apply("e5-e6")
        assert isinstance(events[1], Roll) and events[1].cause == "mine" and at(g, "e6").id == "G1"

    def test_взрыв_sinks_it_and_the_mine_stays(self):  # rules §5
        g = game("Ge5n Ta1n / Sa13s / mines e6", seed=seed_for(True))
        g.apply("e5-e6")
        assert at(g, "e6") is None and parse_point("e6") in g.state.mines and g.state.sunk[-1].cause == "mine"

    def test_own_mines_threaten_own_ships(self):  # rules §5 [decision]: a mine has no owner once laid
        g = game("Ma1n Ge5n / Sa13s", seed=seed_for(True))
        g.apply("+a1")
        g.apply("a13>")
        g.apply("a1>")
        g.apply("a13<")
        g.apply("e5<")
        assert g.state.rolls == []
        g = game("Ge5n Ta1n / Sa13s / mines e6", seed=seed_for(True))
        g.apply("e5-e6")
        assert g.state.rolls[0].side is Side.SOUTH

    def test_the_minesweeper_and_the_submarine_are_immune(self):  # rules §5
        for position in ("Me5n / Sa13s / mines e6", "Se5n / Ta13s / mines e6"):
            g = game(position, seed=seed_for(True))
            g.apply("e5-e6")
            assert g.state.rolls == [] and at(g, "e6") is not None

    def test_no_second_roll_for_a_ship_staying(self):  # rules §5
        g = game("Ge5n / Sa13s / mines e6", seed=seed_for(False, True))
        g.apply("e5-e6")
        g.apply("a13>")
        g.apply("e6>")
        assert len(g.state.rolls) == 1


class TestMineAndGun:
    def test_roll_twice_mine_first(self):  # rules §5, §7.3
        g = game("Sa1n / Gb4s Sa13s / mines b3", to_move="north", seed=seed_for(False, False))
        events = g.apply("b4-b3")
        assert [e.cause for e in events if isinstance(e, Roll)] == ["mine", "gun"]
        assert [r.k for r in g.state.rolls] == [0, 1]

    def test_after_a_mine_взрыв_the_gun_is_not_rolled(self):  # rules §7.3
        g = game("Sa1n / Gb4s Sa13s / mines b3", to_move="north", seed=seed_for(True))
        g.apply("b4-b3")
        assert [r.cause for r in g.state.rolls] == ["mine"] and at(g, "b3") is None

    def test_the_gun_may_sink_a_ship_the_mine_spared(self):  # rules §5, §7.3
        g = game("Sa1n / Gb4s Sa13s / mines b3", to_move="north", seed=seed_for(False, True))
        g.apply("b4-b3")
        assert [(r.cause, r.explosion) for r in g.state.rolls] == [("mine", False), ("gun", True)]
        assert g.state.sunk[-1].cause == "gun"

    def test_the_striker_entering_rolls(self):  # rules §5 [decision]: a strike enters the point
        g = game("Sa1n Cb3e / Gb4s Sa13s", to_move="north", seed=seed_for(True))
        g.apply("b4xb3")
        assert g.state.sunk[0].ship == "C1" and g.state.sunk[1].cause == "gun" and at(g, "b3") is None


class TestRollLog:
    def test_each_roll_names_its_ship(self):  # rules §7.5, §7.6
        g = game("Sa1n / Gb4s Sa13s / mines b3", to_move="north", seed=seed_for(False, False))
        g.apply("b4-b3")
        logged = view(g.state, "spectator").to_dict()["rolls"]
        assert logged[0] == {
            "k": 0, "n": 6, "value": logged[0]["value"], "explosion": False, "what": logged[0]["what"], "ply": 0,
            "side": "north", "ship": "G1", "kind": "G", "point": "b3", "cause": "mine",
        }  # fmt: skip
        assert logged[1]["cause"] == "gun" and logged[1]["k"] == 1
        assert all(r["value"] == draw(g.state.seed, r["k"], 6) for r in logged)

    def test_the_replay_rolls_the_same_dice(self):  # rules §7.5
        g = game("Sa1n / Gb4s Sa13s / mines b3", to_move="north", seed=seed_for(False, True))
        g.apply("b4-b3")
        assert replayed(g).state == g.state
