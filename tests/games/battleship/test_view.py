"""The one view function: what each audience may know (rules A6, B2, D4, D12)."""

from __future__ import annotations

import json

import pytest

from admiral.games.battleship.rules import IllegalAction, Side, cell_name

from .helpers import (
    CLASSIC,
    CLASSIC_FLEET,
    CLASSIC_FLEET_2,
    HASBRO,
    HASBRO_FLEET,
    HASBRO_FLEET_2,
    SALVO,
    UNNAMED,
    UNNAMED_SALVO,
    dumps,
    new_game,
    shoot,
)

S, N = Side.SOUTH, Side.NORTH


def classic():
    return new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2)


class TestWhoSeesWhat:
    def test_a_seat_sees_its_own_fleet_only(self):
        v = classic().view("south").to_dict()
        assert [s["code"] for s in v["sides"]["south"]["ships"]] == ["4", "3", "3", "2", "2", "2", "1", "1", "1", "1"]
        assert v["sides"]["north"]["ships"] is None

    def test_a_spectator_sees_no_ship(self):
        g = classic()
        shoot(g, "j7", "b5", "a1")
        v = g.view("spectator").to_dict()
        assert v["sides"]["south"]["ships"] is None and v["sides"]["north"]["ships"] is None
        assert [s["cell"] for s in v["sides"]["south"]["shots"]] == ["j7", "b5"]
        assert [s["cell"] for s in v["sides"]["north"]["shots"]] == ["a1"]
        assert v["legal"] == []

    def test_the_opponents_shots_at_me_and_the_hits_on_my_ships(self):
        g = classic()
        shoot(g, "b5", "a1")
        v = g.view("south").to_dict()
        assert v["sides"]["north"]["shots"] == [
            {"ply": 1, "cell": "a1", "answer": "hit", "ship": None, "sunk_cells": []}
        ]
        assert v["sides"]["south"]["ships"][0] == {
            "code": "4", "cells": ["a1", "a2", "a3", "a4"], "hits": ["a1"], "sunk": False,
        }  # fmt: skip

    def test_the_full_view_only_after_the_game(self):  # rules D12
        g = classic()
        with pytest.raises(IllegalAction) as e:
            g.view("full")
        assert e.value.code == "game_not_over"
        with pytest.raises(IllegalAction) as e:
            g.view("east")
        assert e.value.code == "bad_audience"

    def test_after_the_game_both_fleets_are_open_to_everyone(self):  # rules D12
        g = classic()
        shoot(g, "b5")
        g.apply("resign north")
        for audience in ("south", "north", "spectator", "full"):
            v = g.view(audience).to_dict()
            assert all(v["sides"][s]["ships"] is not None for s in ("south", "north")), audience
            assert v["result"] == {"winner": "south", "reason": "resign"} and v["to_act"] is None

    def test_legal_actions_structured_for_the_side_to_act(self):
        g = classic()
        shoot(g, "j7")
        v = g.view("south").to_dict()
        assert len(v["legal"]) == 99 and v["legal"][0] == {"type": "shot", "cell": "a1", "notation": "a1"}
        assert "j7" not in [a["cell"] for a in v["legal"]]
        assert g.view("north").to_dict()["legal"] == []


class TestAnswers:
    def test_classic_hit_tells_nothing_of_the_ship(self):  # rules A5
        g = classic()
        shoot(g, "j7")
        assert g.view("south").to_dict()["sides"]["south"]["shots"][0]["ship"] is None

    def test_classic_sinking_shows_the_ship_and_its_size(self):  # rules A6
        g = classic()
        shoot(g, "j7", "j8", "j9", "j10")
        last = g.view("south").to_dict()["sides"]["south"]["shots"][-1]
        assert last == {"ply": 3, "cell": "j10", "answer": "sunk", "ship": "4", "sunk_cells": ["j7", "j8", "j9", "j10"]}
        assert g.view("south").to_dict()["sides"]["north"]["sunk"] == ["4"]

    def test_classic_ring_around_a_sunk_ship_is_known_empty(self):  # rules A6
        g = classic()
        shoot(g, "c5")
        marks = g.view("south").to_dict()["sides"]["south"]["marks"]
        assert marks == ["b4", "b5", "b6", "c4", "c6", "d4", "d5", "d6"]
        shoot(g, "d5")  # a mark may still be shot (a miss, and the turn passes)
        assert "d5" not in g.view("south").to_dict()["sides"]["south"]["marks"] and g.state.to_act is N

    def test_ring_marks_are_cut_at_the_edge_and_skip_shot_cells(self):  # rules A6
        g = classic()
        shoot(g, "j7", "j8", "j9", "j10")
        marks = g.view("spectator").to_dict()["sides"]["south"]["marks"]
        assert marks == ["i6", "i7", "i8", "i9", "i10", "j6"]

    def test_hasbro_has_no_ring_marks(self):  # rules B1: ships may touch
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "i1", "j1")
        assert g.view("south").to_dict()["sides"]["south"]["marks"] == []

    def test_hasbro_names_hits_and_sinkings(self):  # rules B2
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "a10", "i1", "j1")
        shots = g.view("spectator").to_dict()["sides"]["south"]["shots"]
        assert [(s["answer"], s["ship"]) for s in shots] == [("hit", "C"), ("hit", "P"), ("sunk", "P")]
        assert shots[-1]["sunk_cells"] == ["i1", "j1"]
        assert g.view("north").to_dict()["sides"]["north"]["sunk"] == ["P"]


class TestHitsNotNamed:
    """Rules D4: «попал» / «потоплен», with no name, size or id of the ship anywhere the opponent or a spectator
    looks."""

    @staticmethod
    def play(options, south):
        g = new_game(options, south, HASBRO_FLEET_2, first=N)
        queues = {N: iter(["a1", "a2", "e1", "e2", "e3"]), S: iter(["j6", "j5", "j4", "j3", "j2", "j1", "g1"])}
        while len(g.state.shots[N]) < 5:
            shoot(g, next(queues[g.state.to_act]))
        return g

    FLEET_A = "C:a1-a5 B:c1-c4 D:e1-e3 S:g1-g3 P:i1-i2"
    FLEET_B = "B:a1-a4 C:c1-c5 S:e1-e3 D:g1-g3 P:i1-i2"  # the ship hit on a1 and the ship sunk on e1–e3 differ

    @pytest.mark.parametrize("options", [UNNAMED, UNNAMED_SALVO], ids=["single", "salvo"])
    def test_the_opponent_and_spectators_cannot_tell_which_ship(self, options):
        a, b = self.play(options, self.FLEET_A), self.play(options, self.FLEET_B)
        assert [str(e.answer) for e in a.state.history if e.side is N] == ["hit", "hit", "hit", "hit", "sunk"]
        for audience in ("north", "spectator"):
            assert dumps(a, audience) == dumps(b, audience), audience

    def test_with_names_they_could(self):  # the control: rules B2
        a, b = self.play(HASBRO, self.FLEET_A), self.play(HASBRO, self.FLEET_B)
        assert dumps(a, "north") != dumps(b, "north") and dumps(a, "spectator") != dumps(b, "spectator")

    @pytest.mark.parametrize("options", [UNNAMED, UNNAMED_SALVO], ids=["single", "salvo"])
    def test_no_field_carries_it(self, options):
        g = self.play(options, self.FLEET_A)
        for audience in ("north", "spectator"):
            south = g.view(audience).to_dict()["sides"]["south"]
            assert south["ships"] is None and south["sunk"] is None and south["marks"] == []
            assert (south["afloat"], south["sunk_count"]) == (4, 1)  # how many: the answers tell that much
            north_shots = g.view(audience).to_dict()["sides"]["north"]["shots"]
            assert all(s["ship"] is None and s["sunk_cells"] == [] for s in north_shots)
        # the owner still sees its own ships and the hits on them
        own = g.view("south").to_dict()["sides"]["south"]["ships"]
        assert own[0]["hits"] == ["a1", "a2"] and own[2]["sunk"]

    def test_after_the_game_everything_opens(self):  # rules D12
        g = self.play(UNNAMED, self.FLEET_A)
        g.apply("resign south")
        assert g.view("north").to_dict()["sides"]["south"]["sunk"] == ["D"]
        assert g.view("full").to_dict()["sides"]["north"]["shots"][0]["ship"] == "C"


class TestWireForm:
    def test_deterministic(self):
        a, b = classic(), classic()
        for g in (a, b):
            shoot(g, "j7", "b5", "a1")
        for audience in ("south", "north", "spectator"):
            assert dumps(a, audience) == dumps(b, audience) == dumps(a, audience)
            assert json.loads(dumps(a, audience)) == a.view(audience).to_dict()

    def test_shape(self):
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "i1")
        v = g.view("south").to_dict()
        assert list(v) == [
            "game", "audience", "options", "board", "fleet", "ply", "first", "to_act", "shots_left", "turn_shots",
            "sides", "legal", "result",
        ]  # fmt: skip
        assert (v["game"], v["options"], v["to_act"], v["shots_left"], v["turn_shots"]) == (
            "battleship", {"rules": "hasbro", "salvo": True, "named": True}, "south", 4, 1,
        )  # fmt: skip
        assert list(v["sides"]["north"]) == ["ships", "afloat", "sunk_count", "sunk", "shots", "marks"]

    def test_news_since_a_ply(self):
        g = classic()
        shoot(g, "j7", "b5", "a1")
        news = g.view(S, since=1).news
        assert [(side, cell_name(s.cell)) for side, s in news] == [(S, "b5"), (N, "a1")]
        assert [cell_name(s.cell) for _, s in g.view(S).news] == ["a1"]
