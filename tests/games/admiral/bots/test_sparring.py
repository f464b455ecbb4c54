"""The bench's sparring partner (``bench/sparring.py``, issue 22): information-set MCTS that reads only its seat's
view. Not a level, but a yardstick must play by the rules: every action it gives is one of its view's legal
actions (the referee would count anything else as a resignation), its defender's declarations too, and it follows
the enemy's markers through their moves."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.rules import Declare, Game, Side

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
