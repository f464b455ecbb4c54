"""The random-play consistency suite every game of the registry must pass (issue 17; OpenSpiel's way of testing
every game): random games through the whole :class:`~admiral.games.Ruleset` API, checking that

- nothing raises but :class:`~admiral.games.RuleError`, and only for what was not listed;
- every listed action is an object with its ``type`` and its canonical ``notation`` (what the client sends back), is
  accepted (on a copy), and a seat that is not to act has none listed;
- an unlisted action (one listed earlier, garbage, the other seat's) is refused with a reason and changes nothing;
- views are JSON-ready and deterministic, and the record rebuilds the game: same views at every ply;
- the end actions end the game and nothing is accepted after the end;
- a seat's and a spectator's views are the same, byte for byte, in a world where the other seat's hidden facts
  differ (:attr:`tests.games.hooks.Hooks.alternatives`); for a game of open information
  (:attr:`tests.games.hooks.Hooks.open_information`) every audience sees the same board and no one the seed
  before the end.

The games are the registry's and those a hook brings before they are registered (:func:`tests.games.hooks.rulesets`).

``ADMIRAL_CONSISTENCY_SCALE`` multiplies the number of games (default 1; a long run: 10).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from typing import Any

import pytest

from admiral.games import GAMES, SIDES, RuleError, Ruleset

from .hooks import HOOKS, Hooks, rulesets

RULESETS = rulesets()

SCALE = float(os.environ.get("ADMIRAL_CONSISTENCY_SCALE", "1"))
AUDIENCES = (*SIDES, "spectator")
GARBAGE = ("", " ", "zz99", "a0", "resign south", "flag north", "draw", "x" * 200, "a1-", "🙂", "null")


def notations_of(legal: list[dict[str, Any]]) -> list[str]:
    """Every notation a ``legal`` list offers: an entry's ``notation``, or for a compact ``area`` entry of
    «Морской бой: расширенный» (``{"type": "area", "cells", "prefix"}``) ``f"{prefix} {cell}"`` per cell."""
    out: list[str] = []
    for a in legal:
        if a.get("type") == "area":
            out.extend(f"{a['prefix']} {cell}" for cell in a["cells"])
        else:
            out.append(a["notation"])
    return out


def _cases(*, hidden: bool | None = None) -> list[tuple[str, int, dict[str, Any]]]:
    """(key, option set, options) of every game the suite plays; ``hidden``: only the games with hidden facts
    (``True``) or of open information (``False``)."""
    return [
        (key, i, options)
        for key in RULESETS
        if hidden is None or key not in HOOKS or HOOKS[key].open_information is not hidden
        for i, options in enumerate(HOOKS[key].option_sets if key in HOOKS else ({},))
    ]


def test_every_registered_game_is_played() -> None:
    assert set(GAMES) <= set(RULESETS)
    assert "naval" in RULESETS  # until it is registered, through its hook (issue 21)


def _dump(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def _new_game(rules: Ruleset, options: dict[str, Any], rng: random.Random) -> Any:
    checked = rules.options(options)
    setups = {side: rules.auto_setup(side, rng.getrandbits(62), {}, checked) for side in SIDES}
    for side, setup in setups.items():
        assert rules.setup_problems(side, setup, complete=True, options=checked) == [], (side, setup)
    settings = {"options": checked, "seed": rng.getrandbits(62)}
    return rules.new_game(setups, settings)


def _unchanged(rules: Ruleset, game: Any) -> tuple:
    return rules.ply(game), rules.record(game)["actions"], [_dump(rules.view(game, a)) for a in AUDIENCES]


#: Every audience's view is dumped (and checked against the rebuilt game) at every this-many plies and at the end.
SAMPLE_EVERY = 7


def _play(rules: Ruleset, hooks: Hooks, options: dict[str, Any], seed: int) -> tuple[Any, dict[int, list[str]]]:
    """One random game; returns it and every audience's view (dumped) at the sampled plies (:data:`SAMPLE_EVERY`)
    and the last."""
    rng = random.Random(seed)
    game = _new_game(rules, options, rng)
    seen: list[str] = []
    views: dict[int, list[str]] = {}
    while rules.to_act(game) is not None and rules.ply(game) < hooks.max_plies:
        ply, side = rules.ply(game), rules.to_act(game)
        legal = rules.view(game, side)["legal"]
        assert legal, f"{side} is to act with nothing listed at ply {ply}"
        # every game lists structured actions: an object with its type and the notation the server takes back
        assert all(isinstance(a, dict) and isinstance(a.get("type"), str) and a["type"] for a in legal), legal[:3]
        notations = notations_of(legal)
        assert all(isinstance(n, str) and n for n in notations)
        assert len(set(notations)) == len(notations)
        if ply % SAMPLE_EVERY == 0:
            assert [rules.parse_player_action(n) for n in notations] == notations  # canonical: sent back as listed
            views[ply] = [_dump(rules.view(game, a)) for a in AUDIENCES]
            assert views[ply] == [_dump(rules.view(game, a)) for a in AUDIENCES]  # deterministic
            assert rules.view(game, SIDES[1 - SIDES.index(side)])["legal"] == []
            assert rules.view(game, "spectator")["legal"] == []
            # listed actions are accepted (a few, each on a copy)
            for notation in rng.sample(notations, min(3, len(notations))):
                twin = rules.copy(game)
                applied = rules.apply(twin, notation)
                assert applied.actor == side and rules.ply(twin) == ply + 1
            assert [_dump(rules.view(game, a)) for a in AUDIENCES] == views[ply]  # the copies left it alone
            # unlisted ones are refused with a reason and change nothing
            before = _unchanged(rules, game)
            for bad in [*rng.sample(seen, min(3, len(seen))), *rng.sample(GARBAGE, 2)]:
                if bad in notations:
                    continue
                with pytest.raises(RuleError) as refused:
                    rules.apply(game, rules.parse_player_action(bad))
                assert refused.value.code and refused.value.reason
            assert _unchanged(rules, game) == before
            seen.extend(rng.sample(notations, min(10, len(notations))))
        # now and then an end action instead of a move
        if rng.random() < 0.002:
            kind = rng.choice(("resign", "flag", "abandon", "draw"))
            rules.apply(game, rules.end_action(kind, None if kind == "draw" else side))
            break
        rules.apply(game, rng.choice(notations))
    views[rules.ply(game)] = [_dump(rules.view(game, a)) for a in AUDIENCES]
    if rules.result(game) is not None:
        assert rules.to_act(game) is None
        assert all(rules.view(game, a)["legal"] == [] for a in AUDIENCES)
        before = _unchanged(rules, game)
        for bad in rng.sample(seen, min(5, len(seen))):
            with pytest.raises(RuleError):
                rules.apply(game, bad)
        assert _unchanged(rules, game) == before
        json.loads(rules.record_json(game))
        assert set(rules.game_stats(game)) == set(SIDES)
        assert rules.replay(game)["plies"]
    return game, views


def _rebuild(rules: Ruleset, record: dict[str, Any], setups: dict[str, Any] | None = None) -> Any:
    game = rules.new_game(setups or record["setups"], record["settings"])
    return game


@pytest.mark.parametrize(("key", "option_set", "options"), _cases(), ids=lambda v: str(v))
def test_random_play_is_consistent(key: str, option_set: int, options: dict[str, Any]) -> None:
    assert key in HOOKS, f"the game {key!r} has no consistency hooks (tests/games/hooks.py)"
    rules, hooks = RULESETS[key], HOOKS[key]
    ended = 0
    for n in range(max(1, int(hooks.games * SCALE))):
        game, views = _play(rules, hooks, options, seed=1000 * option_set + n)
        ended += rules.result(game) is not None
        # the record rebuilds the game: the same views at every ply
        record = rules.record(game)
        json.dumps(record)
        again = _rebuild(rules, record)
        for ply, action in enumerate([None, *record["actions"]]):
            if action is not None:
                rules.apply(again, action)
            if ply in views:
                assert [_dump(rules.view(again, a)) for a in AUDIENCES] == views[ply], (key, n, ply)
        assert len(views) > 1 or rules.ply(game) < SAMPLE_EVERY
        assert rules.result(again) == rules.result(game)
    assert ended > 0, f"no random game of {key} ended within {hooks.max_plies} plies"


@pytest.mark.parametrize(("key", "option_set", "options"), _cases(hidden=True), ids=lambda v: str(v))
def test_a_seat_cannot_tell_the_other_seats_hidden_facts(key: str, option_set: int, options: dict[str, Any]) -> None:
    rules, hooks = RULESETS[key], HOOKS[key]
    checked = 0
    for n in range(max(1, int(hooks.games * SCALE) // 4)):
        rng = random.Random(7000 + 1000 * option_set + n)
        cut = replace(hooks, max_plies=rng.randrange(10, hooks.max_plies // 2))  # mid-game: hidden facts remain
        game, _views = _play(rules, cut, options, seed=5000 + 1000 * option_set + n)
        record = rules.record(game)
        for side in SIDES:
            other = SIDES[1 - SIDES.index(side)]
            for alternative in hooks.alternatives(rules, game, side, rng):
                setups = {**record["setups"], side: alternative}
                one, two = _rebuild(rules, record), _rebuild(rules, record, setups)
                try:
                    for action in record["actions"]:
                        rules.apply(two, action)
                except RuleError:
                    continue  # an action of the record is not legal in that world
                if hooks.outcome(rules, two) != hooks.outcome(rules, game):
                    continue  # that world's public story differs
                two = _rebuild(rules, record, setups)
                for ply, action in enumerate([None, *record["actions"]]):
                    if action is not None:
                        rules.apply(one, action)
                        rules.apply(two, action)
                    if rules.result(one) is not None:
                        break  # the end may open every hidden fact (BATTLESHIP.md D12)
                    for audience in (other, "spectator"):
                        assert _dump(rules.view(one, audience)) == _dump(rules.view(two, audience)), (n, ply, audience)
                assert _dump(rules.view(_rebuild(rules, record), side)) != _dump(
                    rules.view(_rebuild(rules, record, setups), side)
                )  # the seat itself can tell
                checked += 1
                break
    assert checked > 0, f"no indistinguishable world was found for {key} {options}: the check is vacuous"


def _board(view: dict[str, Any]) -> str:
    """A view without what is its audience's own: who it is for and the orders it may give."""
    return _dump({k: v for k, v in view.items() if k not in ("audience", "legal")})


@pytest.mark.parametrize(("key", "option_set", "options"), _cases(hidden=False), ids=lambda v: str(v))
def test_an_open_game_shows_every_audience_the_same_board(key: str, option_set: int, options: dict[str, Any]) -> None:
    """Open information (e.g. NAVAL_GAME.md §5, §7.6): both seats and the spectators see the same board at every
    ply; the seed of the game's chance (its commitment shown) appears in no view before the end and in every view
    after it."""
    rules, hooks = RULESETS[key], HOOKS[key]
    for n in range(max(1, int(hooks.games * SCALE) // 4)):
        game, _views = _play(rules, hooks, options, seed=9000 + 1000 * option_set + n)
        record = rules.record(game)
        seed_hex = (record["settings"]["seed"] % (1 << 256)).to_bytes(32, "big").hex()
        again = _rebuild(rules, record)
        for action in [None, *record["actions"]]:
            if action is not None:
                rules.apply(again, action)
            views = [rules.view(again, a) for a in AUDIENCES]
            assert len({_board(v) for v in views}) == 1, (key, n, rules.ply(again))
            over = rules.result(again) is not None
            assert all((seed_hex in _dump(v)) is over for v in views), (key, n, rules.ply(again))
