"""The extended variant's wire view: what each audience may know (BATTLESHIP.md C3–C6, D10, D12, D13; the
docs/battleship_ext.md's ``PlayerView.to_dict()``)."""

from __future__ import annotations

import hashlib
import json

import pytest

from admiral.games.battleship_ext.rules import IllegalAction, Side

from .helpers import answers, dumps, new_game

S, N = Side.SOUTH, Side.NORTH
CLASSIC_KEYS = {
    "game", "audience", "options", "board", "fleet", "ply", "first", "to_act", "shots_left", "turn_shots", "sides",
    "legal", "result",
}  # fmt: skip
EXT_KEYS = {"figures", "levels", "chance", "energy", "abilities"}
SIDE_KEYS = {
    "ships", "afloat", "sunk_count", "sunk", "shots", "marks", "figures", "crosshairs", "gold", "handed", "scans",
    "uses", "repaired",
}  # fmt: skip


def played():
    """A game with a mine hit, a sweeper hit, a sonar scan and an air strike behind it, South to act."""
    g = new_game(levels=(6, 3))
    answers(g, "g5")  # South hits North's mine: North sees a South deck
    g.apply("sonar e3")  # North scans (level 3: no mine report)
    answers(g, "j10")  # North hits South's mine... and the turn passes
    return g


class TestShape:
    def test_keys_for_a_seat(self):  # docs/battleship_ext.md
        v = new_game().view("south").to_dict()
        assert set(v) == CLASSIC_KEYS | EXT_KEYS
        assert set(v["sides"]["north"]) == SIDE_KEYS
        assert v["game"] == "battleship_ext" and v["options"] == {"board": "classic", "mines": 1, "sweepers": 1}
        assert v["figures"] == [{"code": "M", "count": 1}, {"code": "T", "count": 1}]
        assert v["fleet"] == [
            {"code": "4", "size": 4, "count": 1}, {"code": "3", "size": 3, "count": 2},
            {"code": "2", "size": 2, "count": 3}, {"code": "1", "size": 1, "count": 4},
        ]  # fmt: skip
        assert v["levels"] == {"south": 1, "north": 1} and v["board"]["rows"] == "abcdefghij"

    def test_compact_legal(self):  # docs/battleship_ext.md: one area entry per ready area ability
        v = new_game().view("south").to_dict()
        kinds = [(e["type"], e.get("ability")) for e in v["legal"]]
        assert kinds[:100] == [("shot", None)] * 100
        assert kinds[100:102] == [("area", "air"), ("area", "sonar")]
        air = v["legal"][100]
        assert air["prefix"] == "air" and len(air["cells"]) == 100 and air["cells"][:2] == ["a1", "a2"]
        moves = [e["notation"] for e in v["legal"] if e["type"] == "move"]
        assert moves == [
            "move c6-c5", "move c6-c7", "move e6-e5", "move e6-e7", "move g6-g5", "move g6-g7", "move i6-i5",
            "move i6-i7", "move i6-j6",
        ]  # fmt: skip
        assert v["legal"][-1] == {"type": "move", "src": "i6", "dst": "j6", "notation": "move i6-j6"}

    def test_abilities_of_the_seat(self):  # rules C5, C6; docs/battleship_ext.md
        v = new_game(levels=(4, 1)).view("south").to_dict()
        assert v["abilities"] == [
            {"key": "air", "cost": 9, "ultimate": False, "ready": True, "why": None, "ends_turn": True, "reveal": 100,
             "area": 3},
            {"key": "sonar", "cost": 5, "ultimate": False, "ready": True, "why": None, "ends_turn": False,
             "reveal": 50, "area": 3},
            {"key": "move", "cost": 3, "ultimate": False, "ready": True, "why": None, "ends_turn": True, "reveal": 0,
             "area": 1},
            {"key": "carpet", "cost": 14, "ultimate": True, "ready": True, "why": None, "ends_turn": True,
             "reveal": 100, "area": 3},
        ]  # fmt: skip
        north = new_game(levels=(4, 1)).view("north").to_dict()["abilities"]
        assert [a["why"] for a in north] == ["not_your_turn"] * 3

    def test_why_one_ability_and_used(self):  # rules C5, D8, D9
        g = new_game()
        g.apply("sonar e3")
        assert [a["why"] for a in g.view("south").to_dict()["abilities"]] == ["one_ability"] * 3
        g2 = new_game()
        g2.apply("move c6-c5")
        answers(g2, "b5")
        assert [a["why"] for a in g2.view("south").to_dict()["abilities"]] == [None, None, "used"]

    def test_views_are_json_and_deterministic(self):  # docs/battleship_ext.md
        g = played()
        for audience in ("south", "north", "spectator"):
            assert dumps(g, audience) == dumps(g, audience)
            json.loads(dumps(g, audience))


class TestWhoSeesWhat:
    def test_figures_are_open_to_their_side_only(self):  # rules D12
        g = played()
        south = g.view("south").to_dict()["sides"]
        assert south["south"]["figures"] == [
            {"code": "M", "cell": "j10", "state": "exploded"}, {"code": "T", "cell": "c10", "state": "active"},
        ]  # fmt: skip
        assert south["north"]["figures"] is None and south["north"]["ships"] is None
        spectator = g.view("spectator").to_dict()["sides"]
        assert spectator["south"]["figures"] is None and spectator["north"]["figures"] is None

    def test_crosshairs_handed_and_answers_only_to_their_side(self):  # rules C3, D12
        g = played()
        north = g.view("north").to_dict()
        south = g.view("south").to_dict()
        spectator = g.view("spectator").to_dict()
        assert len(north["sides"]["north"]["crosshairs"]) == 1
        assert south["sides"]["north"]["crosshairs"] == [] and spectator["sides"]["north"]["crosshairs"] == []
        assert sorted(south["sides"]["south"]["handed"]) == sorted(north["sides"]["north"]["crosshairs"])
        assert north["sides"]["south"]["handed"] == []  # what South handed is South's to see
        assert north["sides"]["north"]["scans"][0]["answer"] is not None
        assert spectator["sides"]["north"]["scans"][0]["answer"] is None
        assert south["sides"]["north"]["scans"][0]["center"] == "e3"

    def test_energy_and_abilities_never_to_spectators(self):  # rules D12
        v = played().view("spectator").to_dict()
        assert v["energy"] is None and v["abilities"] is None and v["legal"] == []

    def test_uses_and_answers_are_public(self):  # rules D12
        v = played().view("spectator").to_dict()
        assert v["sides"]["north"]["uses"] == [{"ply": 1, "ability": "sonar", "cell": "e3"}]
        assert [s["answer"] for s in v["sides"]["south"]["shots"]] == ["mine"]

    def test_full_view_only_after_the_end(self):  # rules D12
        g = played()
        with pytest.raises(IllegalAction) as e:
            g.view("full")
        assert e.value.code == "game_not_over"


class TestChance:
    def test_commitment_always_seed_only_at_the_end(self):  # rules D13
        g = played()
        commitment = hashlib.sha256(g.state.seed).hexdigest()
        for audience in ("south", "north", "spectator"):
            v = g.view(audience).to_dict()
            assert v["chance"] == {"commitment": commitment, "seed": None}
            assert g.state.seed.hex() not in dumps(g, audience)
        g.apply("resign south")  # rules D13: shown at every end, resignation included
        for audience in ("south", "north", "spectator", "full"):
            assert g.view(audience).to_dict()["chance"] == {"commitment": commitment, "seed": g.state.seed.hex()}

    def test_after_the_end_both_setups_are_open(self):  # rules D12
        g = played()
        g.apply("abandon north")
        for audience in ("south", "north", "spectator"):
            sides = g.view(audience).to_dict()["sides"]
            assert all(sides[s]["ships"] is not None and sides[s]["figures"] is not None for s in ("south", "north"))
