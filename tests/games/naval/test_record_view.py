"""The open view (§5, §7.5, §7.6), setups (§2) and the record with its replay (DESIGN "game record")."""

from __future__ import annotations

import json

import pytest

from admiral.games.naval.rules import (
    FORMAT,
    Game,
    GameRecord,
    IllegalAction,
    Side,
    check_setup,
    name,
    order_dict,
    setup_problems,
    start_setup,
    view,
)

from .helpers import game, replayed, seed_for


class TestView:
    def test_the_history_lists_every_order_for_every_audience(self):  # rules §5: the open board's moves
        g = game("Ma1n Ge5n Ce3e / Sa13s Gb4s Tf3n / mines c4 / reserve 2 1", to_move="north", seed=seed_for(False))
        for notation in ("b4-b3", "+a1 a1>", "a13<", "e3xf3", "resign north"):
            g.apply(notation)
        expected = [
            {"ply": 0, "side": "north", "notation": "b4-b3", "struck": None},
            {"ply": 1, "side": "south", "notation": "+a1 a1>", "struck": None},
            {"ply": 2, "side": "north", "notation": "a13<", "struck": None},
            {"ply": 3, "side": "south", "notation": "e3xf3", "struck": "broadside"},  # §4: the target faces across
        ]  # the resignation is an end, not an order
        for audience in ("south", "north", "spectator", "full"):
            assert g.view(audience).to_dict()["history"] == expected
        assert view(g.state, "south").to_dict()["history"] == []  # a bare state has no record

    def test_everyone_sees_the_whole_board(self):  # rules §5, §7.6
        g = game("Ma1n Ge5n / Sa13s Gb4s / mines c4 / reserve 2 1", seed=seed_for(False))
        g.apply("a1>")
        g.apply("b4-b3")
        views = {a: view(g.state, a).to_dict() for a in ("south", "north", "spectator")}
        for v in views.values():
            assert [s["point"] for s in v["sides"]["south"]["ships"]] == ["a1", "e5"]
            assert v["sides"]["north"]["ships"] == [
                {"id": "G1", "kind": "G", "point": "b3", "facing": "s"},
                {"id": "S", "kind": "S", "point": "a13", "facing": "s"},
            ]
            assert v["mines"] == ["c4"] and [v["sides"][s]["reserve"] for s in ("south", "north")] == [2, 1]
            assert len(v["rolls"]) == 1 and v["rolls"][0]["ship"] == "G1"
            assert v["chance"]["commitment"] == g.state.commitment and v["chance"]["seed"] is None
            assert v["map"]["land"] == ["c6", "c7", "e7", "g7", "g8"]
        assert views["south"]["legal"] and views["north"]["legal"] == [] and views["spectator"]["legal"] == []

    def test_the_seed_only_at_the_end(self):  # rules §7.5
        g = game("Ge5n / Sa13s", seed=12345)
        with pytest.raises(IllegalAction) as e:
            view(g.state, "full")
        assert e.value.code == "game_not_over"
        g.apply("resign north")
        for a in ("south", "north", "spectator", "full"):
            assert view(g.state, a).to_dict()["chance"]["seed"] == g.state.seed.hex()

    def test_a_view_is_deterministic_and_json(self):  # DESIGN: the same view gives the same bytes
        g = Game.new({"options": {}, "seed": 3})
        one, two = (json.dumps(view(g.state, "north").to_dict(), ensure_ascii=False) for _ in range(2))
        assert one == two

    def test_unknown_audience(self):
        with pytest.raises(IllegalAction) as e:
            view(Game.new({"options": {}, "seed": 3}).state, "east")
        assert e.value.code == "bad_audience"

    def test_structured_orders(self):  # rules §3, §4, §7.2: what the client draws
        g = game("Me5n / Tf5s Te6e Sa13s / mines e5")
        got = {o["notation"]: o for o in (order_dict(g.state, a) for a in g.legal_actions())}
        assert got["e5xe6"] == {
            "type": "strike", "ship": "e5", "to": "e6", "target": "T1", "struck": "broadside", "notation": "e5xe6",
        }  # fmt: skip
        assert got["e5>"] == {"type": "turn", "ship": "e5", "turn": "right", "facing": "e", "notation": "e5>"}
        assert got["-e5"] == {"type": "lift", "ship": "e5", "at": "e5", "notation": "-e5"}
        assert got["-e5 e5<"]["mine"] == {"op": "lift", "at": "e5", "when": "before"}
        assert got["e5xe6 +e6"]["mine"] == {"op": "lay", "at": "e6", "when": "after"}
        g2 = game("Ge5n / Sa13s")
        assert order_dict(g2.state, g2.legal_actions()[0]) == {
            "type": "step", "ship": "e5", "to": "e6", "notation": "e5-e6",
        }  # fmt: skip


class TestSetup:
    def test_the_start_is_the_only_setup(self):  # rules §2
        assert setup_problems("south", {name(p): c for p, c in start_setup("south").items()}) == []
        assert start_setup(Side.NORTH)[next(iter(start_setup(Side.NORTH)))].endswith("s")

    def test_problems(self):  # rules §2
        bad = {name(p): c for p, c in start_setup("south").items()}
        bad["e1"] = "Cn"
        bad["e5"] = "Bn"
        del bad["a1"]
        bad["zz"] = "M"
        codes = sorted(p.code for p in setup_problems("south", bad))
        assert codes == ["bad_point", "missing", "not_a_start", "wrong_ship"]
        with pytest.raises(IllegalAction) as e:
            check_setup("south", bad)
        assert e.value.code == "invalid_setup"

    def test_a_game_refuses_another_setup(self):  # rules §2
        setups = {s: start_setup(s) for s in Side}
        setups[Side.SOUTH] = start_setup(Side.NORTH)
        with pytest.raises(IllegalAction) as e:
            Game(setups, {"options": {}, "seed": 1})
        assert e.value.code == "invalid_setup"

    @pytest.mark.parametrize(
        ("settings", "code"),
        [
            ({}, "bad_settings"),
            ({"seed": "7"}, "bad_settings"),
            ({"seed": True}, "bad_settings"),
            ({"options": {"salvo": True}, "seed": 1}, "bad_options"),
            ({"seed": 1, "position": "nonsense"}, "bad_settings"),
        ],
    )
    def test_settings(self, settings, code):  # rules §7.5: the die needs its seed
        with pytest.raises(IllegalAction) as e:
            Game({s: start_setup(s) for s in Side}, settings)
        assert e.value.code == code


class TestRecord:
    def test_replay_reproduces_every_state(self):  # DESIGN "game record"; rules §7.5
        g = Game.new({"options": {}, "seed": seed_for(False, True)})
        for a in ("a1-a2 +a2", "e12-e11", "b1-b2", "e11-e10", "a2-a3", "a13>", "d2-d3"):
            g.apply(a)
        data = json.loads(g.record.to_json())
        assert data["format"] == FORMAT and data["settings"] == {"options": {}, "seed": seed_for(False, True)}
        assert data["setups"]["south"]["e1"] == "Bn" and data["setups"]["north"]["e13"] == "Bs"
        assert data["actions"][0] == "a1-a2 +a2"
        states = list(GameRecord.from_dict(data).states())
        again = GameRecord.from_dict(data).start()
        assert states[0] == again.state
        for action, state in zip(data["actions"], states[1:], strict=True):
            again.apply(action)
            assert again.state == state
        assert again.state == g.state

    def test_a_game_from_a_position_replays(self):  # lessons and tests start from positions
        g = game("Me5n / Gb4s Sa13s / mines c4 / reserve 1 2", to_move="north", seed=seed_for(True))
        g.apply("b4-b3")
        again = replayed(g)
        assert again.state == g.state and again.record.settings["position"].startswith("Me5n")

    def test_a_bad_record(self):
        with pytest.raises(IllegalAction) as e:
            GameRecord.from_json("{")
        assert e.value.code == "bad_record"
        g = Game.new({"options": {}, "seed": 1})
        data = g.record.to_dict()
        data["actions"] = ["d2-d4"]
        with pytest.raises(IllegalAction) as e:
            GameRecord.from_dict(data).replay()
        assert e.value.code == "not_adjacent" and "ply 0" in e.value.reason
