"""The bench's sparring partner (``bench/sparring.py``, issue 22): information-set MCTS that reads only its seat's
view. Not a level, but a yardstick must play by the rules: every action it gives is one of its view's legal
actions (the referee would count anything else as a resignation), its defender's declarations too, and it follows
the enemy's markers through their moves."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.rules import Action, Declare, Game, GameState, Kind, Side, apply
from admiral.games.admiral.rules.board import cell_row

_PATH = Path(__file__).parents[4] / "bench" / "sparring.py"


def _module():
    spec = importlib.util.spec_from_file_location("sparring", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_plays_only_legal_actions_and_follows_the_markers() -> None:
    sparring = _module()
    partner = sparring.SparringBot(random.Random(3))
    level = make_bot(4, 5)
    game = Game(partner.setup(Side.SOUTH), level.setup(Side.NORTH), {"seed": 1})
    bots = {Side.SOUTH: partner, Side.NORTH: level}
    declared = 0
    while game.state.result is None and game.ply < 120:
        for side in Side:
            bots[side].observe(game.view(side, since=max(0, game.ply - 1)))
        actor = game.state.to_act
        view = game.view(actor, since=game.ply)
        action = bots[actor].act(view, 0.05)
        assert action in view.legal, (game.ply, action)
        declared += actor is Side.SOUTH and isinstance(action, Declare)
        game.apply(action)
    assert game.ply == 120 or game.state.result.reason.value != "resignation"
    partner.observe(game.view(Side.SOUTH, since=game.ply - 1))  # the last ply too
    markers = set(game.view(Side.SOUTH).markers())
    assert set(partner.known) <= markers and partner.moved <= markers
    assert partner.moved  # North's units moved: the partner knows which markers are mobile
    assert min(partner.iterations) >= 8


def test_the_leaf_evaluation_counts_material_and_the_pressure_on_the_bases() -> None:
    sparring = _module()
    # South: Л e5, СТ m14 (2 steps from North's base n15), a base a1. North: КР e6, ТК b2 (2 steps from a1), base n15.
    world = GameState.from_text("Le5 STm14 VMBa1 / KRe6 TKb2 VMBn15", Side.SOUTH)
    near = sparring.PRESS * (sparring.REACH - 2)
    assert sparring.pressure(world, Side.SOUTH) == near  # the Л is 19 steps away: too far to count
    assert sparring.pressure(world, Side.NORTH) == near
    assert sparring.evaluate(world) == 0.0  # nothing lost yet, equal pressure
    apply(world, Action.parse("e5xe6"))  # Л 15 beats КР 7: North loses a cruiser
    assert world.lost[Side.NORTH][Kind.KR] == 1
    assert sparring.evaluate(world) == math.tanh(sparring.WORTH[Kind.KR] / sparring.SCALE)
    apply(world, Action.parse("b2-b1"))  # the ТК steps next to a1: one step nearer
    gained = sparring.WORTH[Kind.KR] - sparring.PRESS
    assert sparring.evaluate(world) == pytest.approx(math.tanh(gained / sparring.SCALE))
    # A side without a base left is under no pressure; the end of the game is scored ±1 by the rules.
    apply(world, Action.parse("m14-m15"))
    apply(world, Action.parse("b1xa1"))  # North takes South's last base
    assert sparring.pressure(world, Side.NORTH) == 0.0
    assert world.result.winner is Side.NORTH and sparring.evaluate(world) == -1.0


def test_a_determinization_keeps_the_known_kinds_the_moved_markers_mobile_and_the_bases_off_the_front_row() -> None:
    sparring = _module()
    partner = sparring.SparringBot(random.Random(11))
    south, north = make_bot(3, 1), make_bot(3, 2)
    game = Game(south.setup(Side.SOUTH), north.setup(Side.NORTH), {"seed": 1})
    bots = {Side.SOUTH: south, Side.NORTH: north}
    while game.state.result is None and game.ply < 150:
        for side in Side:
            bots[side].observe(game.view(side, since=max(0, game.ply - 1)))
        actor = game.state.to_act
        game.apply(bots[actor].act(game.view(actor, since=game.ply), 0.01))
    view = game.view(Side.SOUTH, since=0)
    partner.observe(view)
    assert partner.moved and partner.known  # North moved and fought by then
    prior = partner.prior(view)
    markers = set(view.markers())
    for _ in range(30):
        world = partner.sample(view, prior)
        assert world.units(Side.SOUTH) == view.own()
        theirs = world.units(Side.NORTH)
        assert set(theirs) == markers
        for kind in Kind:  # the fleet less the public losses
            assert sum(k is kind for k in theirs.values()) == kind.count - view.lost[Side.NORTH].get(kind, 0)
        for cell, kind in partner.known.items():
            assert kind is None or theirs[cell] is kind
        for cell in partner.moved:
            assert theirs[cell].is_mobile
        for cell, kind in theirs.items():
            if kind is Kind.VMB and cell not in partner.known:
                assert cell_row(cell) in range(11, 15)  # North's zone less its front row (rules §3.2)
