"""Properties of random games (hypothesis): replaying a record reproduces every state; listed orders are accepted
and others refused with nothing changed; the board's invariants hold; every roll is the seed's (NAVAL_GAME.md §1–§7;
DESIGN "game record").

A game starts from the start (§2) with a seed drawn by hypothesis and is played by uniformly random legal orders,
now and then a mine-heavy one, until it ends (a random game usually ends by the quiet rule, §6, after 200 plies).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admiral.games.naval.rules import (
    FACES,
    LAND,
    MINES,
    QUIET_PLIES,
    Action,
    Game,
    GameRecord,
    IllegalAction,
    Order,
    Side,
    Verb,
    draw,
    view,
)

SEEDS = st.integers(0, 2**64 - 1)
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, cut: int = 400) -> Game:
    rng = random.Random(seed)
    game = Game.new({"options": {}, "seed": seed})
    while not game.state.is_over and game.ply < cut:
        legal = game.legal_actions()
        forward = [a for a in legal if a.verb in (Verb.STEP, Verb.STRIKE) or a.mine is not None]
        game.apply(rng.choice(forward if forward and rng.random() < 0.7 else legal))
    return game


@FAST
@given(SEEDS)
def test_replaying_a_record_reproduces_every_state(seed):  # DESIGN "game record"; rules §7.5
    game = random_game(seed)
    record = GameRecord.from_json(game.record.to_json())
    again = record.start()
    states = list(record.states())
    assert len(states) == len(game.record.actions) + 1
    for action, state in zip([None, *record.actions], states, strict=True):
        if action is not None:
            again.apply(action)
        assert again.state == state
    assert again.state == game.state and again.log == game.log


@FAST
@given(SEEDS)
def test_random_play_keeps_the_rules(seed):  # rules §1–§7
    rng = random.Random(seed ^ 0x5EED)
    game = Game.new({"options": {}, "seed": seed})
    state = game.state
    tried: list[str] = []
    while not state.is_over:
        legal = game.legal_actions()
        names = [str(a) for a in legal]
        assert len(set(names)) == len(names) and all(Action.parse(n) == a for n, a in zip(names, legal, strict=True))
        # §7.7: a ship afloat can always turn, so there is always an order
        assert legal and all(state.is_legal(a) for a in legal)
        # an order listed before and not now is refused, and nothing changes
        for text in rng.sample(tried, min(3, len(tried))):
            if text not in names:
                before = state.copy()
                try:
                    game.apply(text)
                    raise AssertionError(f"{text} was accepted though not listed")
                except IllegalAction as e:
                    assert e.code and e.reason and state == before
        tried = (tried + rng.sample(names, min(5, len(names))))[-60:]
        game.apply(rng.choice(legal))
        # invariants of the open board
        assert not set(state.ships) & LAND  # rules §1
        assert len(state.mines) + sum(state.reserve) == 2 * MINES  # rules §2, §3: mines are laid and lifted, never lost
        assert all(0 <= r <= 2 * MINES for r in state.reserve)
        assert [r.k for r in state.rolls] == list(range(len(state.rolls)))  # rules §7.5
        assert all(r.value == draw(state.seed, r.k, FACES) for r in state.rolls[-2:])
        assert state.result is not None or state.quiet < QUIET_PLIES  # rules §6
        for side in Side:
            lost = [s for s in state.sunk if s.side is side]
            assert state.afloat(side) + len(lost) == 12  # rules §2
    assert game.legal_actions() == [] and view(state, "full").legal == ()


@FAST
@given(SEEDS)
def test_views_are_open_and_hide_only_the_seed(seed):  # rules §5, §7.5, §7.6
    game = random_game(seed, cut=random.Random(seed).randrange(1, 300))
    dumps = {a: json.dumps(view(game.state, a).to_dict(), ensure_ascii=False) for a in ("south", "north", "spectator")}
    seed_hex = game.state.seed.hex()
    assert all((seed_hex in d) is game.state.is_over for d in dumps.values())
    boards = [{k: v for k, v in json.loads(d).items() if k not in ("audience", "legal")} for d in dumps.values()]
    assert boards[0] == boards[1] == boards[2]


def test_orders_of_the_other_side_are_refused():  # rules §3
    game = Game.new({"options": {}, "seed": 1})
    for a in game.legal_actions():
        assert isinstance(a, Order)
        try:
            game.state.check(a, by=Side.NORTH)
            raise AssertionError("accepted out of turn")
        except IllegalAction as e:
            assert e.code == "not_your_turn"
