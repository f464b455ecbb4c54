"""The game record and the Game class: round trips, exact replay, malformed records."""

from __future__ import annotations

import copy
import json
import random

import pytest

from admiral.games.admiral.rules import (
    FORMAT,
    Action,
    Attack,
    BattleReport,
    Declare,
    Game,
    GameOver,
    GameRecord,
    GameState,
    IllegalAction,
    Kind,
    Move,
    Reason,
    Resign,
    Side,
    auto_arrange,
    cell_name,
)


def play(seed: int, plies: int | None = None, settings: dict | None = None):
    """A random game: the game, every state (copies, opening first) and the events of each ply."""
    rng = random.Random(seed)
    game = Game.new_random(rng, settings)
    states = [game.state.copy()]
    events = []
    while not game.state.is_over and (plies is None or game.ply < plies):
        events.append(game.apply(rng.choice(game.legal_actions())))
        states.append(game.state.copy())
    return game, states, events


@pytest.fixture(scope="module")
def finished():
    """A random game played to its end (seed chosen so that it has declarations and reports)."""
    game, states, events = play(0)
    assert game.state.is_over
    return game, states, events


class TestRoundTrip:
    def test_dict_round_trip(self, finished):
        game, _, _ = finished
        record = game.record
        again = GameRecord.from_dict(record.to_dict())
        assert again == record
        assert again.to_dict() == record.to_dict()

    def test_json_round_trip_is_deterministic(self, finished):
        game, _, _ = finished
        text = game.record.to_json()
        again = GameRecord.from_json(text)
        assert again == game.record
        assert again.to_json() == text
        assert GameRecord.from_json(text.encode()) == game.record

    def test_dict_shape(self, finished):
        game, _, _ = finished
        d = json.loads(game.record.to_json())
        assert list(d) == ["format", "settings", "setups", "actions"]
        assert d["format"] == FORMAT == "admiral-record/1"
        assert list(d["setups"]) == ["south", "north"]
        assert len(d["setups"]["south"]) == len(d["setups"]["north"]) == 58
        assert d["actions"] == [str(a) for a in game.record.actions]
        assert len(d["actions"]) == game.ply

    def test_settings_round_trip(self):
        game, _, _ = play(1, plies=6, settings={"clock": [300, 3], "rated": True, "name": "Игра"})
        again = GameRecord.from_json(game.record.to_json())
        assert again.settings == {"clock": [300, 3], "rated": True, "name": "Игра"}
        assert again.replay().record.settings == again.settings
        assert "Игра" in game.record.to_json()  # UTF-8 kept, not escaped

    def test_settings_default_to_empty(self, finished):
        d = finished[0].record.to_dict()
        del d["settings"]
        assert GameRecord.from_dict(d).settings == {}

    def test_setups_in_notation_order_with_ascii_codes(self):
        game = Game.new_random(random.Random(2))
        south = game.record.to_dict()["setups"]["south"]
        assert list(south) == [cell_name(c) for c in sorted(game.record.setups[Side.SOUTH])]
        assert set(south.values()) == {k.code for k in Kind}


class TestReplay:
    def test_record_states_are_the_states_seen_while_playing(self, finished):
        game, states, _ = finished
        replayed = list(GameRecord.from_json(game.record.to_json()).states())
        assert len(replayed) == len(states) == game.ply + 1
        for ply, (a, b) in enumerate(zip(replayed, states, strict=True)):
            assert a == b, ply
            assert a.ply == ply
            assert a.to_text() == b.to_text()

    def test_replay_reproduces_state_and_log(self, finished):
        game, _, events = finished
        again = GameRecord.from_dict(game.record.to_dict()).replay()
        assert again.state == game.state
        assert again.log == game.log == [e for es in events for e in es]
        assert again.record == game.record

    @pytest.mark.parametrize("upto", [0, 1, 2, 50, 333])
    def test_replay_upto(self, finished, upto):
        game, states, _ = finished
        part = game.record.replay(upto)
        assert part.state == states[upto]
        assert part.ply == upto
        assert part.record.actions == game.record.actions[:upto]

    def test_the_record_holds_every_kind_of_ply(self, finished):
        game, _, _ = finished
        kinds = {type(a) for a in game.record.actions}
        assert {Move, Attack, Declare} <= kinds
        assert any(isinstance(e, BattleReport) for e in game.log)

    @pytest.mark.parametrize("seed", range(4))
    def test_replay_many_games(self, seed):
        game, states, _ = play(100 + seed)
        assert list(game.record.states()) == states
        assert game.record.replay().state.result == game.state.result

    def test_replay_after_resignation(self):
        game, _states, _ = play(5, plies=10)
        game.apply("resign north")
        assert game.state.result.winner is Side.SOUTH
        assert game.state.result.reason is Reason.RESIGNATION
        again = GameRecord.from_json(game.record.to_json()).replay()
        assert again.state == game.state
        assert again.record.actions[-1] == Resign(Side.NORTH)


class TestGame:
    def test_record_and_log_in_step(self):
        rng = random.Random(9)
        game = Game.new_random(rng)
        log = []
        for ply in range(400):
            if game.state.is_over:
                break
            action = rng.choice(game.legal_actions())
            events = game.apply(action)
            assert game.ply == ply + 1 == len(game.record.actions)
            assert game.record.actions[-1] == action
            assert events and all(e.ply == ply for e in events)
            log.extend(events)
            assert game.log == log

    def test_illegal_action_changes_nothing(self):
        game, _, _ = play(4, plies=20)
        state, actions, log = game.state.copy(), list(game.record.actions), list(game.log)
        own = next(iter(game.state.cells[game.state.to_act.opponent]))
        for bad in ("a1-a1", Move(own, own), "[e5]", "nonsense", "resign west", None):
            with pytest.raises(IllegalAction):
                game.apply(bad)
            assert game.state == state
            assert game.record.actions == actions
            assert game.log == log

    def test_notation_is_recorded_as_the_parsed_action(self):
        game = Game.new_random(random.Random(6))
        first = game.legal_actions()[0]
        game.apply(str(first))
        assert game.record.actions == [first]
        assert isinstance(game.record.actions[0], Action)

    def test_game_over_is_logged_once_and_nothing_follows(self, finished):
        game, _, _ = finished
        overs = [e for e in game.log if isinstance(e, GameOver)]
        assert len(overs) == 1 and game.log[-1] is overs[0]
        assert overs[0].result == game.state.result
        assert overs[0].ply == game.ply - 1
        with pytest.raises(IllegalAction) as info:
            game.apply("draw")
        assert info.value.code == "game_over"

    def test_game_checks_setups(self):
        south = auto_arrange(Side.SOUTH, random.Random(1))
        with pytest.raises(IllegalAction) as info:
            Game(south, south)
        assert info.value.code == "invalid_setup"

    def test_new_random_draws_south_then_north_from_the_rng(self):
        game = Game.new_random(random.Random(7))
        rng = random.Random(7)
        assert game.record.setups == {
            Side.SOUTH: auto_arrange(Side.SOUTH, rng),
            Side.NORTH: auto_arrange(Side.NORTH, rng),
        }
        assert game.state == GameState.from_setups(game.record.setups[Side.SOUTH], game.record.setups[Side.NORTH])


def good_dict() -> dict:
    game, _, _ = play(8, plies=30)
    return game.record.to_dict()


class TestMalformed:
    @pytest.mark.parametrize(
        "mutate",
        [
            lambda d: "not a dict",
            lambda d: [d],
            lambda d: None,
            lambda d: {**d, "format": "admiral-record/2"},
            lambda d: {k: v for k, v in d.items() if k != "format"},
            lambda d: {k: v for k, v in d.items() if k != "setups"},
            lambda d: {k: v for k, v in d.items() if k != "actions"},
            lambda d: {**d, "setups": []},
            lambda d: {**d, "actions": "e4-e5"},
            lambda d: {**d, "actions": {"0": "e4-e5"}},
            lambda d: {**d, "settings": []},
            lambda d: {**d, "settings": "5+3"},
            lambda d: {**d, "setups": {"south": d["setups"]["south"]}},
            lambda d: {**d, "setups": {"south": d["setups"]["south"], "north": ["a15", "L"]}},
        ],
    )
    def test_bad_shape(self, mutate):
        with pytest.raises(IllegalAction) as info:
            GameRecord.from_dict(mutate(good_dict()))
        assert info.value.code == "bad_record"

    def test_bad_setup_is_invalid_setup(self):
        d = good_dict()
        south = d["setups"]["south"]
        cell = next(c for c, k in south.items() if k == "VMB")
        south[cell.replace(cell[1:], "9")] = south.pop(cell)  # a base in the open sea
        with pytest.raises(IllegalAction) as info:
            GameRecord.from_dict(d)
        assert info.value.code == "invalid_setup"
        assert [p.code for p in info.value.problems] == ["outside_zone", "too_few"]

    @pytest.mark.parametrize(
        ("bad", "code"),
        [("e4-e55", "bad_cell"), ("e4e5", "bad_notation"), ("resign west", "bad_side"), (7, "bad_notation")],
    )
    def test_bad_action_notation(self, bad, code):
        d = good_dict()
        d["actions"][5] = bad
        with pytest.raises(IllegalAction) as info:
            GameRecord.from_dict(d)
        assert info.value.code == code

    @pytest.mark.parametrize("text", ["", "not json", "{", b"\xff\xfe", "[1, 2]", "null", "1e400", '"admiral"'])
    def test_not_json_of_a_record(self, text):
        with pytest.raises(IllegalAction) as info:
            GameRecord.from_json(text)
        assert info.value.code == "bad_record"

    def test_deeply_nested_json_is_bad_record(self):
        # a hostile upload must not escape as RecursionError
        with pytest.raises(IllegalAction) as info:
            GameRecord.from_json("[" * 100_000 + "]" * 100_000)
        assert info.value.code == "bad_record"

    def test_illegal_action_names_its_ply(self):
        d = good_dict()
        record = GameRecord.from_dict(d)
        state = record.replay(12).state
        enemy = next(iter(state.cells[state.to_move.opponent]))
        bad = [*record.actions[:12], Move(enemy, enemy + 1), *record.actions[13:]]
        broken = GameRecord(record.setups, bad, record.settings)
        with pytest.raises(IllegalAction) as info:
            broken.replay()
        assert info.value.code in ("not_your_unit", "immobile")
        assert info.value.reason.startswith(f"ply 12 ({bad[12]}): ")
        # the prefix before the bad ply still replays
        assert broken.replay(12).state == state

    def test_action_after_the_end_names_its_ply(self):
        game, _, _ = play(8, plies=3)
        game.apply("resign south")
        record = copy.deepcopy(game.record)
        record.actions.append(Action.parse("draw"))
        with pytest.raises(IllegalAction) as info:
            record.replay()
        assert info.value.code == "game_over"
        assert info.value.reason.startswith("ply 4 (draw): ")

    def test_stale_declaration_in_a_record(self):
        game, _, _ = play(8, plies=3)
        record = copy.deepcopy(game.record)
        record.actions.append(Declare((0,)))
        with pytest.raises(IllegalAction) as info:
            record.replay()
        assert info.value.code == "no_declaration_pending"
        assert "ply 3 ([a1])" in info.value.reason
