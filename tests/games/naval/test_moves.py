"""The turn (§3): one ship steps forward bow first to a free point or turns 90°; every illegal input is refused
with its own code and changes nothing."""

from __future__ import annotations

import pytest

from admiral.games.naval.rules import Action, Facing, Game, IllegalAction, Moved, Order, Turned, Verb, name, parse_point

from .helpers import game, notations, refused


def start() -> Game:
    return Game.new({"options": {}, "seed": 0})


def ship_at(g: Game, point: str):
    return g.state.ships[parse_point(point)]


class TestStep:
    def test_a_step_forward_to_a_free_point(self):  # rules §3
        g = start()
        events = g.apply("d2-d3")
        assert [type(e) for e in events] == [Moved]
        assert parse_point("d2") not in g.state.ships and ship_at(g, "d3").id == "G1"
        assert ship_at(g, "d3").facing is Facing.N and g.state.to_move.label == "north" and g.ply == 1

    def test_the_opening_orders(self):  # rules §3: 9 ships with a free point ahead, 24 turns, 5 with a mine
        got = notations(start())
        assert len(got) == 38 and len(set(got)) == 38
        assert sum("-" in n and "+" not in n for n in got) == 9
        assert sum(n.endswith((">", "<")) and "+" not in n for n in got) == 24
        assert [n for n in got if "+" in n] == ["+a1 a1-a2", "a1-a2 +a2", "+a1 a1<", "+a1 a1>", "+a1"]

    def test_north_steps_toward_south(self):  # rules §2, §3: bows toward the enemy
        g = start()
        g.apply("d2-d3")
        g.apply("e12-e11")
        assert ship_at(g, "e11").side.label == "north"

    def test_sideways_is_refused(self):  # rules §3
        g = start()
        e = refused(g, "a1-b1", "sideways")
        assert "turn first" in e.reason
        g = game("Ge5n / Sa13s")
        refused(g, "e5-f5", "sideways")
        refused(g, "e5-d5", "sideways")

    def test_stern_first_is_refused(self):  # rules §3
        refused(game("Ge5n / Sa13s"), "e5-e4", "stern_first")

    def test_a_step_is_one_point(self):  # rules §3
        g = game("Ge5n / Sa13s")
        refused(g, "e5-e7", "not_adjacent")
        refused(g, "e5-f6", "not_adjacent")  # no diagonal [decision]
        refused(g, "e5-e5", "not_adjacent")

    def test_no_ship_enters_land(self):  # rules §1, §3
        g = game("Gc5n Ge6n Gf7e / Sa13s")
        assert "c5-c6" not in notations(g) and "e6-e7" not in notations(g) and "f7-g7" not in notations(g)
        refused(g, "c5-c6", "land")
        refused(g, "e6-e7", "land")
        refused(g, "f7-g7", "land")

    def test_crossing_land_is_no_step(self):  # rules §1, §3: two points at once over an island
        refused(game("Gc5n / Sa13s"), "c5-c8", "not_adjacent")

    def test_off_the_map(self):  # rules §1, §3
        g = game("Ma1w / Sa13s")
        assert not any("-" in n for n in notations(g) if "+" not in n)
        refused(g, "a1-a0", "off_map")
        with pytest.raises(IllegalAction) as e:
            g.apply("j1-j2")
        assert e.value.code == "off_map"

    def test_a_taken_point(self):  # rules §3: a free point only
        g = start()
        refused(g, "d1-d2", "occupied")  # own ship
        g = game("Ge5n / Ge6s")
        e = refused(g, "e5-e6", "occupied")  # an enemy: struck with 'x', never stepped on
        assert "e5xe6" in e.reason


class TestTurn:
    def test_ninety_degrees_right_or_left(self):  # rules §3
        g = game("Ge5n / Sa13s Ta12s")
        events = g.apply("e5>")
        assert events == [Turned(0, ship_at(g, "e5").side, "G1", parse_point("e5"), Facing.N, Facing.E)]
        g.apply("a12>")
        g.apply("e5<")
        assert ship_at(g, "e5").facing is Facing.N

    def test_a_half_turn_takes_two_turns(self):  # rules §3
        g = game("Ge5n / Sa13s")
        refused(g, "e5>>", "turn_too_far")
        refused(g, "e5<<", "turn_too_far")
        g.apply("e5>")
        g.apply("a13>")
        g.apply("e5>")
        assert ship_at(g, "e5").facing is Facing.S and g.ply == 3

    def test_a_turn_is_always_legal(self):  # rules §3, §7.7: even boxed in
        g = game("Ge5n Ge6n Ge4n Td5n / Sa13s Gf5w")
        assert {"e5<", "e5>"} <= set(notations(g))


class TestRefusals:
    def test_out_of_turn(self):  # rules §3, §7.1: South moves first
        g = start()
        refused(g, "d2-d3", "not_your_turn", by="north")
        refused(g, "e12-e11", "not_your_ship")

    def test_an_unknown_ship(self):  # rules §3
        refused(start(), "e5-e6", "no_ship")
        refused(start(), "e5>", "no_ship")

    def test_one_ship_a_turn(self):  # rules §3
        with pytest.raises(IllegalAction) as e:
            Action.parse("d2-d3 e2-e3")
        assert e.value.code == "one_ship_a_turn"

    @pytest.mark.parametrize("text", ["", "d2", "d2-", "d2+d3", "d2<>", "resign", "resign east", "x" * 50, "🙂"])
    def test_garbage(self, text):  # rules §3
        with pytest.raises(IllegalAction) as e:
            Action.parse(text)
        assert e.value.code in ("bad_notation", "bad_side")

    def test_after_the_end(self):  # rules §6
        g = start()
        g.apply("resign south")
        refused(g, "d2-d3", "game_over")
        refused(g, "draw", "game_over")


class TestNotation:
    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("d2-d3", "d2-d3"),
            (" D2-D3 ", "d2-d3"),
            ("d2>", "d2>"),
            ("d2<", "d2<"),
            ("d2xd3", "d2xd3"),
            ("D2XD3", "d2xd3"),
            ("+a1", "+a1"),
            ("-a1", "-a1"),
            ("+a1 a1-a2", "+a1 a1-a2"),
            ("a1-a2 +a2", "a1-a2 +a2"),
            ("a1-a2  -a2", "a1-a2 -a2"),
            ("a1> +a1", "+a1 a1>"),  # a turn's mine is written first: the same turn
            ("resign north", "resign north"),
            ("draw", "draw"),
        ],
    )
    def test_round_trip(self, text, canonical):  # rules §3, §4, §7.2
        a = Action.parse(text)
        assert str(a) == canonical and Action.parse(str(a)) == a and repr(a) == f"Action.parse({canonical!r})"

    def test_structured(self):  # rules §3
        o = Action.parse("+a1 a1-a2")
        assert isinstance(o, Order) and o.verb is Verb.STEP and name(o.dst) == "a2" and o.mine.lay
        assert not o.mine_after
