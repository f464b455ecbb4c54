"""Properties of random games (hypothesis), per rule set: no exception, listed actions accepted and others refused,
turn accounting, replay, deterministic views, and a seat's view depending only on what was answered (DESIGN "the
house for four games"; rules A5, A7, B2, B3, D3, D4).

Every game starts from two auto-arranged setups drawn from a ``random.Random`` seeded by hypothesis and is played by
uniformly random legal shots (a game is 100–200 plies).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from admiral.games.battleship.rules import (
    Game,
    GameRecord,
    IllegalAction,
    Reason,
    Shot,
    Side,
    auto_arrange,
    cell_name,
    view,
)

from .helpers import ALL_OPTIONS

SEEDS = st.integers(0, 2**32 - 1)
OPTIONS = st.sampled_from(ALL_OPTIONS)
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dumps(state, audience) -> str:
    return json.dumps(view(state, audience).to_dict(), ensure_ascii=False)


def random_game(options: dict, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new_random(rng, {"options": options})
    while not game.state.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@FAST
@given(OPTIONS, SEEDS)
def test_random_games_are_consistent(options, seed):
    rng = random.Random(seed)
    game = Game.new_random(rng, {"options": options})
    state, rules = game.state, game.rules
    while not state.is_over:
        me = state.to_act
        legal = game.legal_actions()
        # legality has one code path: the unshot cells of the opponent's grid, each accepted
        assert legal == [Shot(c) for c in rules.board.cells if c not in state.shots[me]]
        if rng.random() < 0.05:
            for a in legal:
                state.copy().apply(a)
        # a cell already shot is refused, and nothing changes (A5, D3)
        if state.shots[me]:
            before = state.copy()
            try:
                state.apply(Shot(rng.choice(list(state.shots[me]))))
                raise AssertionError("a repeated shot was accepted")
            except IllegalAction as e:
                assert e.code == "already_shot" and state == before
        # a salvo is the smaller of ships afloat and unshot cells, counted at the start of the turn (B3, D3)
        if state.turn_shots == 0:
            assert state.shots_left == (min(state.afloat[me], state.unshot(me)) if rules.salvo else 1)
        game.apply(rng.choice(legal))
    r = state.result
    assert r.reason is Reason.FLEET_SUNK and state.afloat[r.winner.opponent] == 0 and state.afloat[r.winner] > 0
    assert game.legal_actions() == [] and view(state, "full").legal == ()


@FAST
@given(OPTIONS, SEEDS)
def test_replay_reproduces_every_state_and_view(options, seed):
    game = random_game(options, seed)
    record = GameRecord.from_json(game.record.to_json())
    replayed = Game(record.setups, record.settings)
    for state in record.states():
        assert state == replayed.state
        if state.ply % 16 == 0 or state.is_over:  # views are deterministic: same state, same bytes
            for audience in ("south", "north", "spectator"):
                assert dumps(state, audience) == dumps(replayed.state, audience) == dumps(state.copy(), audience)
        if not replayed.state.is_over:
            replayed.apply(record.actions[replayed.ply])
    assert replayed.state == game.state


def rearranged(game: Game, ply: int, side: Side, seed: int) -> dict | None:
    """``side``'s setup with its ships the opponent had not hit by ``ply`` placed anew off every cell the opponent
    had shot; ``None`` when the arrangement gave up a hit ship (not expected: the true setup is a witness)."""
    state = game.record.replay(ply).state
    fleet = state.fleets[side]
    hit = [s for i, s in enumerate(fleet) if state.damage[side][i]]
    partial = {cell_name(c): s.code for s in hit for c in s.cells}
    avoid = list(state.shots[side.opponent])
    setup = auto_arrange(game.rules, random.Random(seed), partial, avoid=avoid)
    if any(setup.get(c) != s.code for s in hit for c in s.cells):
        return None
    return {cell_name(c): code for c, code in setup.items()}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPTIONS, SEEDS, st.integers(0, 200), st.sampled_from(list(Side)))
def test_a_view_depends_only_on_what_was_answered(options, seed, stop, seat):
    """A seat's view is unchanged when the opponent's un-hit ships are rearranged (anywhere the seat has not shot),
    and a spectator's when both sides' are: views carry only what the answers told (D4, D12)."""
    game = random_game(options, seed)
    ply = min(stop, len(game.record.actions) - 1)  # the game is still on: the fleets are hidden
    other = rearranged(game, ply, seat.opponent, seed + 1)
    mine = rearranged(game, ply, seat, seed + 2)
    assume(other is not None and mine is not None)
    original = game.record.replay(ply).state
    setups = {s.label: {cell_name(c): k for c, k in game.record.setups[s].items()} for s in Side}
    # the seat: only the opponent's fleet changes
    seat_setups = {**setups, seat.opponent.label: other}
    alt = Game(seat_setups, game.record.settings)
    for a in game.record.actions[:ply]:
        alt.apply(a)
    assert dumps(alt.state, seat) == dumps(original, seat)
    # a spectator: both fleets change
    both = {seat.opponent.label: other, seat.label: mine}
    alt = Game(both, game.record.settings)
    for a in game.record.actions[:ply]:
        alt.apply(a)
    assert dumps(alt.state, "spectator") == dumps(original, "spectator")
