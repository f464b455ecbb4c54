"""The five AI levels of «Военно-морская игра» (issue 21): always a legal order, quickly, on any legal view
(random games over many seeds, endgames built with ``Game.from_position``); deterministic given the seed; blind to
the die's seed (open information, §5, §7.6: a bot reads the board and the roll log, never the seed); captures taken,
strikes and gun points not walked into (§4, §5); the house's hooks (``new_bot``, ``bot_view``, ``bot_act``)."""

from __future__ import annotations

import random
import time

import pytest

from admiral.games.naval import NavalRuleset
from admiral.games.naval.bots import LEVELS, NAMES, make
from admiral.games.naval.bots.model import from_order, from_state, play
from admiral.games.naval.rules import Game, Order, PlayerView, Side, seed_bytes
from admiral.games.protocol import RuleError

from .helpers import game

#: Level 5 with a node budget: deterministic and quick enough for tests.
L5_NODES = 4000


def _bot(level: int, seed: int = 0):
    return make(level, seed, nodes=L5_NODES if level == 5 else None)


def _random_view(seed: int) -> PlayerView:
    """The view of the side to act after a random number of random orders (strikes preferred, to reach sinkings,
    rolls and thin fleets)."""
    rng = random.Random(seed)
    g = Game.new({"options": {}, "seed": seed})
    for _ in range(rng.randrange(0, 400)):
        legal = g.legal_actions()
        if not legal or g.state.result is not None:
            break
        strikes = [o for o in legal if o.verb.value == "strike"]
        g.apply(rng.choice(strikes) if strikes and rng.random() < 0.8 else rng.choice(legal))
    if g.state.result is not None:
        g = Game.new({"options": {}, "seed": seed})
    return g.view(g.state.to_move)


def test_five_named_levels():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5] and all(LEVELS[n].name == NAMES[n] for n in LEVELS)
    with pytest.raises(ValueError):
        make(6, 0)


@pytest.mark.parametrize("seed", range(24))
def test_every_level_returns_a_legal_order_on_random_views(seed):
    """Levels 1–5 (5 with a node budget) on views of random games: one of ``view.legal``, within seconds."""
    view = _random_view(seed)
    for level in (1, 2, 3, 4, 5):
        started = time.perf_counter()
        order = _bot(level, seed).act(view, 0.5)
        assert order in {str(o) for o in view.legal}, (level, order)
        assert time.perf_counter() - started < 10


ENDGAMES = [
    ("Bd5n / Te9s", "south"),  # §6: the last enemy ship
    ("Tb10n / Gb12s Mi13s / mines b11 / reserve 0 3", "south"),  # a gun and a mine ahead (§5, §7.3)
    ("Ma4n / Se5n Ce6w / mines a5 / reserve 2 1", "south"),  # a lone minesweeper with mines to lay and lift
    ("Sa1n / Bi13s", "north"),  # only a submarine left: it may strike the battleship's bow (§4)
    ("Ce6s Cf7w / Gd7e Tf6n / mines e5", "north"),
]


@pytest.mark.parametrize(("position", "to_move"), ENDGAMES)
def test_every_level_plays_endgames(position, to_move):
    """Positions from ``Game.from_position``: each level acts legally for a few turns of both sides."""
    for level in (1, 2, 3, 4, 5):
        g = game(position, to_move, seed=level)
        bots = {side: _bot(level, int(side)) for side in Side}
        for _ in range(6):
            if g.state.result is not None:
                break
            side = g.state.to_move
            view = g.view(side)
            order = bots[side].act(view, 0.3)
            assert order in {str(o) for o in view.legal}
            g.apply(order, side)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_deterministic_given_the_seed(level):
    """The same seed and views give the same orders (level 5 with a node budget)."""
    for seed in (3, 11):
        view = _random_view(seed)
        assert _bot(level, seed).act(view, 0.5) == _bot(level, seed).act(view, 0.5)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_blind_to_the_die_s_seed(level):
    """§7.5, §7.6: the seed is secret until the end; a bot's choice must not depend on it, so the same board with
    another seed gives the same order."""
    for seed in (5, 8):
        view = _random_view(seed)
        other = view.state.copy()
        other.seed = seed_bytes(seed + 12345)
        twin = PlayerView(view.audience, other, view.legal, view.since)
        assert _bot(level, 1).act(view, 0.5) == _bot(level, 1).act(twin, 0.5)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_a_free_capture_is_taken(level):
    """§4: the battleship strikes a torpedo boat on the broadside, nothing can strike back."""
    g = game("Bd5n Ma1n / Td6e Ti13s")
    assert _bot(level).act(g.view("south"), 0.5) == "d5xd6"


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_no_step_into_a_senior_s_bow(level):
    """§4: a torpedo boat stepping in front of a cruiser's bow is struck on its bow; no level does it."""
    g = game("Te4n Ma1n / Ce6s Mi13s")
    assert _bot(level).act(g.view("south"), 0.5) != "e4-e5"


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_no_gun_point_for_nothing(level):
    """§5: the battleship does not enter an enemy gun point (1 in 6 to lose it) when nothing is gained there."""
    g = game("Bb10n Ma1n / Ti13s Mi12s")
    assert _bot(level).act(g.view("south"), 0.5) != "b10-b11"


def test_level_5_is_anytime_within_its_deadline():
    """Level 5 without a node budget: a tiny deadline still gives a legal order; a 0.3 s deadline is kept to
    about its three sure plies plus its share (generous bound: a shared test machine)."""
    view = _random_view(7)
    bot = make(5, 0)
    started = time.perf_counter()
    assert bot.act(view, 0.01) in {str(o) for o in view.legal}
    assert bot.act(view, 0.3) in {str(o) for o in view.legal}
    assert time.perf_counter() - started < 15 and bot.last["depth"] >= 3


def test_no_order_without_legal_actions():
    """The bot refuses to act on a view with no legal order (not its turn)."""
    g = Game.new({"options": {}, "seed": 0})
    with pytest.raises(ValueError):
        make(3, 0).act(g.view("north"), 0.5)


def test_whole_games_end():
    """Level 2 against level 1 from the start plays to the end (§6)."""
    g = Game.new({"options": {}, "seed": 4})
    bots = {Side.SOUTH: make(2, 1), Side.NORTH: make(1, 2)}
    while g.state.result is None and g.state.ply < 2000:
        side = g.state.to_move
        g.apply(bots[side].act(g.view(side), 0.5), side)
    assert g.state.result is not None


RS = NavalRuleset()


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_the_ruleset_s_bot_hooks(level):
    """``new_bot`` makes each level; ``bot_view`` (the seat's view) and ``bot_act`` (canonical notation) give an
    order the session applies."""
    setups = {s: RS.auto_setup(s, 0, {}, {}) for s in ("south", "north")}
    g = RS.new_game(setups, {"options": {}, "seed": 9})
    bots = {s: RS.new_bot(level, i, {}) for i, s in enumerate(("south", "north"))}
    assert RS.bot_setup(bots["south"], "south") == setups["south"]
    for _ in range(4):
        side = RS.to_act(g)
        action = RS.bot_act(bots[side], RS.bot_view(g, side, 0), 0.2)
        RS.apply(g, action)


def test_the_ruleset_refuses_unknown_levels_and_options():
    with pytest.raises(ValueError):
        RS.new_bot(0, 0, {})
    with pytest.raises(RuleError) as e:
        RS.new_bot(1, 0, {"x": 1})
    assert e.value.code == "bad_options"


def test_the_bots_memory_of_its_positions_survives_a_restart():
    """The positions its own orders led to (what it avoids repeating: §6's quiet sea is not spent turning a ship
    to and fro) are rebuilt from the views alone: a fresh bot shown the game (``bot_catch_up``, as after a server
    restart) remembers exactly what the bot that played it does."""
    setups = {s: RS.auto_setup(s, 0, {}, {}) for s in ("south", "north")}
    g = RS.new_game(setups, {"options": {}, "seed": 3})
    bots = {s: RS.new_bot(3, i, {}) for i, s in enumerate(("south", "north"))}
    for _ in range(40):
        side = RS.to_act(g)
        RS.apply(g, RS.bot_act(bots[side], RS.bot_view(g, side, 0), 0.2))
    side = RS.to_act(g)
    RS.bot_act(bots[side], RS.bot_view(g, side, 0), 0.2)  # its own turn: it notes its last order's position
    fresh = RS.new_bot(3, 0, {})
    RS.bot_catch_up(fresh, g, side)
    fresh.act(RS.bot_view(g, side, 0), 0.2)
    assert sum(bots[side].seen.values()) == 20
    assert fresh.seen == bots[side].seen


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_a_position_reached_again_and_again_is_avoided(level):
    """A bot whose order has led to the same position several times plays another (the quiet sea, §6)."""
    g = game("Bd5n Ma1n / Ti13s Mh13s")
    first = _bot(level, 1).act(g.view("south"), 0.5)
    again = _bot(level, 1)
    pos = from_state(g.state)
    ((_, child),) = play(pos, from_order(Order.parse(first)))
    again.seen[child.key()] = 5
    assert again.act(g.view("south"), 0.5) != first
