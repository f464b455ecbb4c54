"""The game record: JSON round trip, replay reproducing every state (DESIGN "game record"; rules A4, D2)."""

from __future__ import annotations

import json
import random

import pytest

from admiral.games.battleship.rules import FORMAT, Game, GameRecord, IllegalAction

from .helpers import ALL_OPTIONS, CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2, new_game, shoot


def played(options, seed, plies=60):
    rng = random.Random(seed)
    g = Game.new_random(rng, {"options": options, "time": "5+3"})
    states = [g.state.copy()]
    while not g.state.is_over and g.ply < plies:
        g.apply(rng.choice(g.legal_actions()))
        states.append(g.state.copy())
    return g, states


class TestRecord:
    @pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
    def test_json_round_trip_replays_every_state(self, options):
        g, states = played(options, 3, plies=500)
        record = GameRecord.from_json(g.record.to_json())
        assert record.to_json() == g.record.to_json()
        assert list(record.states()) == states
        assert record.replay().state == g.state and record.replay(10).state == states[10]

    def test_the_record_holds_settings_setups_and_actions(self):
        g = new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2)
        shoot(g, "B5", "Б5")
        data = json.loads(g.record.to_json())
        assert data["format"] == FORMAT and data["actions"] == ["b5", "b5"]
        assert data["settings"]["options"] == {"rules": "classic", "salvo": False, "named": True}
        assert isinstance(data["settings"]["seed"], int)
        assert list(data["setups"]["south"])[:4] == ["a1", "a2", "a3", "a4"] and data["setups"]["south"]["a1"] == "4"

    def test_other_settings_are_kept(self):
        g, _ = played(CLASSIC, 1, plies=3)
        assert g.record.settings["time"] == "5+3"
        assert GameRecord.from_json(g.record.to_json()).settings == g.record.settings

    def test_the_first_shooter_is_replayed_from_the_seed(self):  # rules A4, D2
        for seed in range(6):
            g, _ = played(CLASSIC, seed, plies=1)
            assert GameRecord.from_json(g.record.to_json()).replay(0).state.first is g.state.first

    def test_end_actions_are_recorded(self):
        g = new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2)
        shoot(g, "b5")
        g.apply("resign north")
        assert GameRecord.from_json(g.record.to_json()).replay().state.result == g.state.result

    @pytest.mark.parametrize(
        "text",
        [
            "not json",
            "[]",
            '{"format": "admiral-record/1"}',
            json.dumps({"format": FORMAT, "setups": {}, "actions": []}),
        ],
    )
    def test_bad_records_are_refused(self, text):
        with pytest.raises(IllegalAction) as e:
            GameRecord.from_json(text)
        assert e.value.code == "bad_record"

    def test_an_illegal_action_in_a_record_names_its_ply(self):
        g = new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2)
        shoot(g, "j7")
        data = json.loads(g.record.to_json())
        data["actions"].append("j7")
        with pytest.raises(IllegalAction) as e:
            GameRecord.from_dict(data).replay()
        assert e.value.code == "already_shot" and e.value.reason.startswith("ply 1 (j7)")

    def test_an_invalid_setup_in_a_record_is_refused(self):
        g = new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2)
        data = json.loads(g.record.to_json())
        data["setups"]["north"]["b1"] = "1"  # touches the four-decker? no: North's a1 one-decker
        with pytest.raises(IllegalAction) as e:
            GameRecord.from_dict(data)
        assert e.value.code == "invalid_setup"
