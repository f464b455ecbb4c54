"""Random-play properties of the extended variant (BATTLESHIP.md C, D12, D13): nothing crashes, every listed action
is accepted and nothing else is, the record's replay reproduces every state and draw, and a seat's (and a
spectator's) view does not change when the other side's hidden layout is moved keeping the public history — through
the consistency hooks of :mod:`tests.games.hooks`, called here directly."""

from __future__ import annotations

import json
import random

import pytest

from admiral.games.battleship_ext.rules import (
    BOARDS,
    AreaAbility,
    ExtGame,
    ExtGameRecord,
    IllegalAction,
    Manoeuvre,
    Repair,
    Shot,
    Side,
    view,
)
from admiral.games.common import RecordedRuleset

from ..hooks import HOOKS
from ..test_consistency import notations_of

HOOK = HOOKS["battleship_ext"]
OPTIONS = [
    {"board": "classic", "mines": 1, "sweepers": 1},
    {"board": "classic", "mines": 0, "sweepers": 1},
    {"board": "perelman", "mines": 3, "sweepers": 1},
    {"board": "giant", "mines": 3, "sweepers": 0},
]


def random_game(options: dict, seed: int, cut: int = 2000) -> ExtGame:
    """A random game under ``options`` with random levels, abilities picked often, cut at ``cut`` plies."""
    rng = random.Random(seed)
    levels = {"south": rng.randint(1, 10), "north": rng.randint(1, 10)}
    g = ExtGame.new_random(rng, {"options": options, "seed": rng.getrandbits(62), "levels": levels})
    while g.state.to_act is not None and g.ply < cut:
        actions = g.legal_actions()
        special = [a for a in actions if not isinstance(a, Shot)]
        g.apply(rng.choice(special if special and rng.random() < 0.25 else actions))
    return g


def every_candidate(g: ExtGame) -> list[str]:
    """Every action of every kind at every cell of the board (a manoeuvre from each cell to each neighbour)."""
    board = g.state.rules.board
    out = []
    for c in board.cells:
        name = board.name(c)
        out += [name, f"repair {name}"] + [f"{k} {name}" for k in ("air", "sonar", "carpet", "satellite")]
        out += [f"move {name}-{board.name(n)}" for n in board.orth[c]]
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o['board']}-{o['mines']}-{o['sweepers']}")
def test_random_games_end_and_replay(options):  # rules D5, D13
    ended = 0
    for n in range(6):
        g = random_game(options, n)
        ended += g.state.result is not None
        record = ExtGameRecord.from_json(g.record.to_json())
        states = list(record.states())
        assert states[-1] == g.state and states[-1].draws == g.state.draws
        secret = g.state.seed.hex()
        for state in states[:-1:9]:  # rules D13: the seed is in no view before the end
            for audience in ("south", "north", "spectator"):
                assert secret not in json.dumps(view(state, audience).to_dict())
        ks = [d.k for d in g.state.draws]
        assert ks == list(range(len(ks)))  # rules D13: draws 0, 1, 2… in order
        assert all(0 <= d.value < d.n for d in g.state.draws)
        for audience in ("south", "north", "spectator", "full"):
            if audience != "full" or g.state.result is not None:
                wire = g.view(audience).to_dict()
                json.dumps(wire)
                assert (wire["chance"]["seed"] is None) == (g.state.result is None)
    assert ended == 6


@pytest.mark.parametrize("options", OPTIONS[::2], ids=lambda o: o["board"])
def test_legal_actions_are_exactly_what_apply_accepts(options):  # one code path (C5–C6 refusals, D7–D10)
    for n in range(2):
        g = random_game(options, 100 + n, cut=random.Random(n).randrange(5, 60))
        if g.state.to_act is None:
            continue
        listed = {str(a) for a in g.legal_actions()}
        wire = set(notations_of(g.view(g.state.to_act).to_dict()["legal"]))
        assert wire == listed
        for text in every_candidate(g):
            twin = g.copy()
            try:
                twin.apply(text)
                accepted = True
            except IllegalAction as e:
                accepted = False
                assert e.code and e.reason
                assert twin.state == g.state  # a refusal changes nothing, spends nothing
            assert accepted == (text in listed), text


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o['board']}-{o['mines']}-{o['sweepers']}")
def test_a_seat_cannot_tell_the_other_sides_hidden_layout(options):  # rules D12
    ruleset = RecordedRuleset()
    checked = 0
    for n in range(8):
        rng = random.Random(900 + n)
        g = random_game(options, 500 + n, cut=rng.randrange(10, 120))
        record = g.record
        for side in Side:
            other = side.opponent
            for alternative in HOOK.alternatives(ruleset, g, side.label, rng):
                setups = {**{s.label: record.setups[s] for s in Side}, side.label: alternative}
                two = ExtGame(setups, record.settings)
                try:
                    for action in record.actions:
                        two.apply(str(action))
                except IllegalAction:
                    continue
                if HOOK.outcome(ruleset, two) != HOOK.outcome(ruleset, g):
                    continue
                one, two = record.start(), ExtGame(setups, record.settings)
                for action in record.actions:
                    one.apply(str(action))
                    two.apply(str(action))
                    if one.state.result is not None:
                        break
                    for audience in (other.label, "spectator"):
                        assert one.view(audience).to_dict() == two.view(audience).to_dict(), (n, one.ply, audience)
                assert record.start().view(side).to_dict() != ExtGame(setups, record.settings).view(side).to_dict()
                checked += 1
                break
    assert checked >= 2, checked


def test_hooks_cover_every_board():  # tests/games/hooks.py entry
    boards = {o["board"] for o in HOOK.option_sets}
    assert boards == set(BOARDS)
    assert {o["mines"] for o in HOOK.option_sets} >= {0, 1, 2}


def test_action_classes_round_trip():  # docs/battleship_ext.md notation
    from admiral.games.battleship_ext.rules import parse_action

    for text in ("air b5", "sonar r18", "carpet a1", "satellite j10", "repair b5", "move a1-a2", "b5", "draw"):
        assert str(parse_action(text)) == text
    assert isinstance(parse_action("AIR Б5"), AreaAbility) and str(parse_action("AIR Б5")) == "air b5"
    assert isinstance(parse_action("move a1-b1"), Manoeuvre) and isinstance(parse_action("repair a1"), Repair)


def test_an_ability_is_ready_exactly_when_it_may_be_used_and_has_a_target():  # rules C5, C6, D7–D10
    """The view reads an ability's targets from its own legal actions (issue 23: not a second search of them): an
    ability is ready exactly when the rules allow it now and it has a target, and ``no_target`` exactly when only
    the target is missing (seeds 309 and 312 box a boat in: every step would touch a ship or a shot cell, D9)."""
    told = {"ready": 0, "no_target": 0, "other": 0}
    for options, seeds in zip(OPTIONS, ((300, 309), (312,), (300,), (301,)), strict=True):
        for seed in seeds:
            rng = random.Random(seed)
            levels = {"south": rng.randint(1, 10), "north": rng.randint(1, 10)}
            g = ExtGame.new_random(rng, {"options": options, "seed": rng.getrandbits(62), "levels": levels})
            while g.state.to_act is not None and g.ply < 400:
                state = g.state
                for me in Side:
                    for a in view(state, me).abilities:
                        allowed = state.ability_refusal(a.key, me) is None
                        aimed = allowed and bool(state.targets(a.key, me))
                        assert a.ready == aimed and (a.why == "no_target") == (allowed and not aimed), (g.ply, a)
                        told["ready" if a.ready else "no_target" if a.why == "no_target" else "other"] += 1
                actions = g.legal_actions()
                special = [a for a in actions if not isinstance(a, Shot)]
                g.apply(rng.choice(special if special and rng.random() < 0.25 else actions))
    assert told["ready"] > 100 and told["other"] > 100 and told["no_target"] >= 2, told
