"""The positional plan of the heuristic levels: level 5 keeps its bases closed (rules §12)."""

from __future__ import annotations

import pytest

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.bots.bots import PLUGS, _Context
from admiral.games.admiral.rules import Game, Kind, Side
from admiral.games.admiral.rules.board import ORTH

K = Kind


def _contexts():
    """Level 5 and level 4 judging the same opening position of South (level 5's setup)."""
    south = make_bot(5, 3)
    game = Game(south.setup(Side.SOUTH), make_bot(4, 4).setup(Side.NORTH))
    view = game.view(Side.SOUTH)
    out = []
    for level in (5, 4):
        bot = make_bot(level, 5)
        bot.observe(view)
        out.append(_Context(bot, view, 2))
    return view, out


def test_level_five_keeps_a_unit_beside_each_base() -> None:
    """rules §7.2 (a base falls to any contact) and §12 (level 5 shifts forces to defend its bases): a unit
    of :data:`PLUGS` beside its own base is worth 2 points more to level 5 than to level 4, and its
    strike ships are not tied there; the destroyer set in front of a base does not step away."""
    view, (five, four) = _contexts()
    own = view.own()
    bases = [c for c, k in own.items() if k is K.VMB]
    assert len(bases) == 2
    for base in bases:
        for cell in ORTH[base]:
            for kind in (K.ES, K.M, K.TR):
                assert five.term(kind, cell, own) - four.term(kind, cell, own) == pytest.approx(2.0)
            for kind in (K.L, K.KR, K.R):
                assert kind not in PLUGS
                assert five.term(kind, cell, own) == four.term(kind, cell, own)
    assert K.AB not in PLUGS and K.A not in PLUGS  # the bomb's blast would take the base (rules §8)
    guard = [n for b in bases for n in ORTH[b] if own.get(n) is K.ES]
    assert len(guard) == 2  # the setup's destroyer in front of each base
    for es in guard:
        for dst in ORTH[es]:
            if dst not in own and dst not in view.markers():
                assert five.move_delta(es, dst) < four.move_delta(es, dst)
