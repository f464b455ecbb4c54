"""The house's adapter (:class:`admiral.games.naval.NavalRuleset`): strings and JSON in and out, the rules' codes
kept, the fixed start as the setup, fair chance in views and the replay; and the game kept out of the public
registry until it has a client (issue 21)."""

from __future__ import annotations

import json

import pytest

from admiral.games import GAMES, Applied, Credit, RuleError, Ruleset
from admiral.games.naval import INFO, NavalRuleset
from admiral.games.naval.rules import draw, seed_bytes

from .helpers import seed_for

RS = NavalRuleset()


def new(seed: int = 1):
    setups = {s: RS.auto_setup(s, 0, {}, {}) for s in ("south", "north")}
    return RS.new_game(setups, {"options": {}, "seed": seed})


def test_a_ruleset_of_the_house_in_the_registry():  # issue 21: it plugs into the house
    assert isinstance(RS, Ruleset) and RS.info is INFO and INFO.key == "naval" and INFO.chance
    assert isinstance(GAMES["naval"], NavalRuleset) and GAMES["naval"].info is INFO
    # rules §2: the start is fixed (no setup phase); §7.5: the die's 32-byte seed is fixed when play starts
    assert {"fixed_start", "start_settings", "progression"} <= INFO.capabilities
    assert sorted(INFO.levels) == [1, 2, 3, 4, 5] and sorted(INFO.level_notes) == [1, 2, 3, 4, 5]
    seeds = {RS.start_settings({}, {})["seed"] for _ in range(4)}
    assert len(seeds) == 4 and all(0 <= s < 2**256 for s in seeds)


def test_every_refusal_code_has_its_text():  # issue 21: a clear reason for every bad input
    codes = {
        "bad_point", "off_map", "bad_notation", "not_your_turn", "no_ship", "not_your_ship", "not_adjacent",
        "sideways", "stern_first", "land", "occupied", "no_target", "own_ship", "stern", "bow_not_senior",
        "turn_too_far", "not_minesweeper", "mine_elsewhere", "no_mines", "already_mined", "no_mine",
        "mine_after_win", "one_mine_a_turn", "one_ship_a_turn",
    }  # fmt: skip
    assert codes <= set(INFO.messages)
    assert set(INFO.end_reasons) == {"fleet_destroyed", "no_moves", "quiet", "resign", "flag", "abandon", "draw"}


def test_options_and_setup():  # rules §2: no options, one start
    assert RS.options({}) == {} and RS.setup_variant({}) == ""
    with pytest.raises(RuleError) as e:
        RS.options({"salvo": True})
    assert e.value.code == "bad_options"
    south = RS.auto_setup("south", 99, {}, {})
    assert south["e1"] == "Bn" and len(south) == 12
    assert RS.setup_problems("south", south, complete=True, options={}) == []
    assert RS.canonical_setup(south, {}) == south
    problems = RS.setup_problems("north", south, complete=True, options={})
    assert problems and all(p["message"] for p in problems)
    assert RS.draft_setup("south", {" E1 ": "Bn"}, {}) == {"e1": "Bn"}


def test_play_through_strings():  # rules §3
    game = new()
    assert RS.parse_player_action(" A1> +A1 ") == "+a1 a1>"
    with pytest.raises(RuleError) as e:
        RS.parse_player_action("resign south")
    assert e.value.code == "bad_notation"
    assert RS.apply(game, "d2-d3") == Applied("south", True, "south")
    with pytest.raises(RuleError) as e:
        RS.apply(game, "d3-d4")
    assert e.value.code == "not_your_ship" and RS.ply(game) == 1
    assert RS.apply(game, RS.end_action("resign", "north")) == Applied("north", False, None)
    assert RS.result(game) == {"winner": "south", "reason": "resign"} and RS.to_act(game) is None


def test_fair_chance():  # rules §7.5
    game = new(seed_for(False))
    c = RS.view(game, "south")["chance"]
    assert c == RS.chance(game) and c["seed"] is None and len(c["commitment"]) == 64
    assert RS.revealed_chance(game)["seed"] == seed_bytes(seed_for(False)).hex()
    RS.apply(game, "draw")
    assert RS.view(game, "full")["chance"]["seed"] == seed_bytes(seed_for(False)).hex()


def test_the_replay_lists_the_rolls():  # rules §7.5: the replay page re-checks every roll against the seed
    from admiral.games.naval.rules import Game

    game = Game.from_position("Sa1n Ti2n / Gb4s Sa13s / mines b3", "north", seed_for(False, False))
    for a in ("b4-b3", "i2>"):
        RS.apply(game, a)
    replay = RS.replay(game)
    assert [p["action"] for p in replay["plies"]] == ["b4-b3", "i2>"]
    draws = replay["chance"]["draws"]
    assert draws == RS.draws(game) and [(d["k"], d["n"], d["cause"], d["ship"]) for d in draws] == [
        (0, 6, "mine", "G1"),
        (1, 6, "gun", "G1"),
    ]
    key = seed_bytes(seed_for(False, False))
    assert all(d["value"] == draw(key, d["k"], d["n"]) for d in draws)
    json.dumps(replay)


def test_game_stats():
    game = new()
    for a in ("d2-d3", "e12-e11", "resign south"):
        RS.apply(game, a)
    stats = RS.game_stats(game)
    assert stats["south"]["turns"] == 1 and stats["south"]["outcome"] == "loss" and stats["south"]["plies"] == 2
    assert stats["north"]["won"] and stats["north"]["reason"] == "resign"
    assert stats["south"]["counts"] is False  # one order each: aborted (docs/points.md), nothing credited
    assert RS.credit(stats["north"], {}, None) == Credit(False, None, 0, {})


def test_credit_after_a_counted_game():  # docs/points.md «Военно-морская игра»: engagement, resignation pays 0
    game = new()
    for a in ("d2-d3", "e12-e11", "f2-f3", "d12-d11", "resign north"):
        RS.apply(game, a)
    stats = RS.game_stats(game)
    assert stats["south"]["counts"] and stats["south"]["turns"] == 2
    won = RS.credit(stats["south"], {}, None)
    # (100 + 0 sunk + 20 × 12/12) × 1.0 × min(1, 2/40) = 6
    assert (won.counted, won.outcome, won.points) == (True, "win", 6)
    assert won.career == {"version": 1, "turns": 2, "strikes": 0, "sunk": 0, "fastest_win": None}
    lost = RS.credit(stats["north"], {"version": 1, "turns": 5, "strikes": 1, "sunk": 1, "fastest_win": 30}, 2)
    assert (lost.counted, lost.outcome, lost.points) == (True, "loss", 0)
    assert lost.career["turns"] == 7 and lost.career["fastest_win"] == 30


def test_only_levels_1_to_5():  # issue 21: AI levels 1–5 (their own tests: test_bots.py)
    with pytest.raises(ValueError):
        RS.new_bot(6, 0, {})


def test_the_manifest():  # rules §1, §2
    m = RS.manifest()
    assert m["key"] == "naval" and m["map"]["width"] == 9 and m["mines"] == 3 and m["quiet_plies"] == 200
    json.dumps(m)


def test_a_bots_view_never_holds_the_dies_seed():  # rules §7.5: nobody sees the seed before the end
    game = new(seed=12345)
    view = RS.bot_view(game, "south", 0)
    assert view.state.seed == bytes(32) and game.state.seed == seed_bytes(12345)
    assert view.legal and RS.bot_act(RS.new_bot(2, 0, {}), view, 0.5) in {str(o) for o in view.legal}
