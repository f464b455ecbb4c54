"""Records of the extended variant: settings, replay, the draws reproduced from the seed (BATTLESHIP.md D11, D13;
DESIGN "game record")."""

from __future__ import annotations

import json
import random

import pytest

from admiral.games.battleship_ext.rules import FORMAT, ExtGame, ExtGameRecord, IllegalAction, settings_of

from .helpers import answers, new_game


def test_settings_are_normalised():  # docs/battleship_ext.md: levels optional, 1 for both
    rules, seed, settings = settings_of({"options": {"board": "giant"}, "seed": 4, "levels": {"north": 7}, "x": 1})
    assert (rules.board_name, seed) == ("giant", 4)
    assert settings == {
        "options": {"board": "giant", "mines": 1, "sweepers": 1}, "seed": 4, "levels": {"south": 1, "north": 7},
        "x": 1,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"seed": "4"}, "bad_settings"),
        ({}, "bad_settings"),
        ({"seed": 1, "levels": {"south": 11}}, "bad_settings"),
        ({"seed": 1, "levels": {"south": True}}, "bad_settings"),
        ({"seed": 1, "levels": {"east": 2}}, "bad_settings"),
        ({"seed": 1, "levels": [1, 2]}, "bad_settings"),
        ({"seed": 1, "options": {"board": "tiny"}}, "bad_options"),
    ],
)
def test_bad_settings(settings, code):  # rules D11, D13
    with pytest.raises(IllegalAction) as e:
        settings_of(settings)
    assert e.value.code == code


def test_the_first_shooter_is_draw_zero():  # rules D2, D13
    g = new_game()
    assert g.state.draws[0].to_dict() == {"k": 0, "n": 2, "value": 0, "what": "first shooter: south"}


def test_replay_reproduces_every_state_and_draw():  # rules D13
    g = new_game(levels=(9, 8))
    answers(g, "g5")  # a mine: a draw
    g.apply("sonar e3")  # a self-reveal chance
    answers(g, "j10")
    g.apply("air b2")
    record = ExtGameRecord.from_json(g.record.to_json())
    assert record.to_dict()["format"] == FORMAT == "battleship-ext-record/1"
    assert record.to_dict()["actions"] == ["g5", "sonar e3", "j10", "air b2"]
    again = record.replay()
    assert again.state == g.state and again.state.draws == g.state.draws and len(g.state.draws) >= 3
    states = list(record.states())
    assert len(states) == 5 and states[-1] == g.state


def test_random_games_replay_from_json():  # DESIGN "game record"
    for n in range(6):
        rng = random.Random(n)
        settings = {"options": {"board": ("classic", "perelman", "giant")[n % 3]}, "seed": n, "levels": {"south": 8}}
        g = ExtGame.new_random(rng, settings)
        while g.state.to_act is not None and g.ply < 60:
            g.apply(rng.choice(g.legal_actions()))
        again = ExtGameRecord.from_json(g.record.to_json()).replay()
        assert again.state == g.state
        assert json.dumps(again.view("south").to_dict()) == json.dumps(g.view("south").to_dict())


@pytest.mark.parametrize(
    "data",
    [
        {"format": "battleship-record/1", "settings": {"seed": 1}, "setups": {}, "actions": []},
        {"format": FORMAT, "settings": {"seed": 1}, "setups": {"south": {}}, "actions": []},
        "not json {",
    ],
)
def test_bad_records_are_refused(data):  # DESIGN "game record"
    with pytest.raises(IllegalAction) as e:
        ExtGameRecord.from_json(data if isinstance(data, str) else json.dumps(data))
    assert e.value.code in ("bad_record", "invalid_setup")


def test_an_illegal_recorded_action_names_its_ply():  # DESIGN "game record"
    g = new_game()
    data = json.loads(g.record.to_json())
    data["actions"] = ["a1", "air a1"]  # a1 sunk; the strike still has a2 and b1 to shoot: legal
    ExtGameRecord.from_dict(data).replay()
    data["actions"] = ["a1", "sonar e5", "sonar e6"]
    with pytest.raises(IllegalAction) as e:
        ExtGameRecord.from_dict(data).replay()
    assert e.value.code == "one_ability" and "ply 2" in e.value.reason
