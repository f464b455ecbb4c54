"""Level 5's deliberate setup (rules §3): guarded bases, strike formations in front, screened weapons;
and level 4's part of it, the guarded bases alone (:func:`guarded_setup`).

The template, in the side's own coordinates (column 0–13 from its left, row 0 = its back edge,
row 4 = its front row), is mirrored left–right at random and the units it leaves free are
dealt at random into the free cells:

- each base on the back edge between two mines, an ``ES`` (their carrier) in front of it;
- front row: ``3 КР``, ``Л + Л``, ``2 Р + ЭС`` side by side, a fireship, the stationary mine and
  two mines screening the battleships' flanks;
- second row: ``КРПЛ + 2 ПЛ`` behind the battleships; torpedo boats with their torpedoes;
- the carrier with its aircraft in the middle, the atomic bomb in a corner far from both bases.
"""

from __future__ import annotations

import random
from collections import Counter

from ..engine import Cell, Kind, Side, auto_arrange, validate_setup
from ..engine.board import cell_at

__all__ = ["SETUPS", "admiral_setup", "back_edge_setup", "forward_setup", "guarded_setup"]

K = Kind
_TEMPLATE: dict[tuple[int, int], Kind] = {
    (2, 0): K.VMB, (11, 0): K.VMB,
    (1, 0): K.M, (3, 0): K.M, (10, 0): K.M, (12, 0): K.M, (2, 1): K.ES, (11, 1): K.ES,
    (0, 3): K.AB,
    (6, 2): K.A, (7, 2): K.S,
    (1, 4): K.KR, (2, 4): K.KR, (3, 4): K.KR, (4, 4): K.SM, (5, 4): K.M,
    (6, 4): K.L, (7, 4): K.L, (8, 4): K.M, (9, 4): K.BR,
    (10, 4): K.R, (11, 4): K.R, (12, 4): K.ES,
    (5, 3): K.PL, (6, 3): K.KRPL, (7, 3): K.PL,
    (2, 3): K.TK, (1, 3): K.T, (10, 3): K.TK, (11, 3): K.T, (2, 2): K.T, (10, 2): K.T,
}  # fmt: skip


#: The part of the template that guards the bases: each on the back edge between two mines, an ES in front.
_GUARD = {pos: k for pos, k in _TEMPLATE.items() if pos[1] <= 1}
#: Columns a base's guard may stand on, left and right (the template's own are 2 and 11). Rows 0–1 hold
#: nothing but the guards, so a guard moves along the back edge without meeting the rest of the template;
#: a bot's bases are not on the same cells in every game (a player would learn them in a few).
_BASE_COLUMNS = ((1, 2, 3, 4), (9, 10, 11, 12))


def _guard(rng: random.Random) -> dict[tuple[int, int], Kind]:
    """The bases' guard with each base moved to a column drawn from :data:`_BASE_COLUMNS`."""
    out = {}
    for home, choices in zip((2, 11), _BASE_COLUMNS, strict=True):
        shift = rng.choice(choices) - home
        out.update({(col + shift, row): k for (col, row), k in _GUARD.items() if abs(col - home) <= 1})
    return out


def _cell(side: Side, col: int, row: int) -> Cell:
    return cell_at(col, row if side is Side.SOUTH else 14 - row)


def admiral_setup(side: Side, rng: random.Random) -> dict[Cell, Kind]:
    """A deliberate, valid setup for ``side`` drawn from ``rng`` (see the module docstring).

    Falls back to :func:`admiral.engine.auto_arrange` completing the template should the result
    ever be invalid (it never is for the standard fleet; the check keeps it safe).
    """
    side = Side(side)
    mirror = rng.random() < 0.5
    template = {**{pos: k for pos, k in _TEMPLATE.items() if pos[1] > 1}, **_guard(rng)}
    placed: dict[Cell, Kind] = {}
    for (col, row), kind in template.items():
        placed[_cell(side, 13 - col if mirror else col, row)] = kind
    have = Counter(placed.values())
    rest = [k for k in Kind for _ in range(k.count - have[k])]
    free = [_cell(side, c, r) for c in range(14) for r in range(5)]
    free = [c for c in free if c not in placed]
    rng.shuffle(rest)
    rng.shuffle(free)
    placed.update(zip(free, rest, strict=False))  # 70 cells, 58 units
    if validate_setup(side, placed):
        return auto_arrange(side, rng)
    return dict(sorted(placed.items()))


def guarded_setup(side: Side, rng: random.Random) -> dict[Cell, Kind]:
    """Only the bases' guard of the template (each base on the back edge between two mines, their
    ``ES`` in front; the columns drawn as in :func:`admiral_setup`); every other unit auto-arranged
    around it (rules §3.4)."""
    side = Side(side)
    partial = {_cell(side, col, row): k for (col, row), k in _guard(rng).items()}
    return auto_arrange(side, rng, partial)


def back_edge_setup(side: Side, rng: random.Random) -> dict[Cell, Kind]:
    """Both bases on the back edge with at least two cells between them (level 3), every other unit
    auto-arranged around them (rules §3.4)."""
    side = Side(side)
    while True:
        a, b = sorted(rng.sample(range(14), 2))
        if b - a >= 3:
            break
    return auto_arrange(side, rng, {_cell(side, a, 0): K.VMB, _cell(side, b, 0): K.VMB})


def forward_setup(side: Side, rng: random.Random) -> dict[Cell, Kind]:
    """Both bases in row :data:`FORWARD_ROW` just behind the front row, as a novice sets them (level 2),
    every other unit auto-arranged around them (rules §3.4)."""
    side = Side(side)
    a, b = rng.sample(range(14), 2)
    return auto_arrange(side, rng, {_cell(side, a, FORWARD_ROW): K.VMB, _cell(side, b, FORWARD_ROW): K.VMB})


#: The row (0 = the side's back edge, 4 = its front row) of level 2's bases.
FORWARD_ROW = 3

#: Setups by name (:attr:`admiral.ai.bots.Config.setup`).
SETUPS = {
    "forward": forward_setup,
    "back": back_edge_setup,
    "guarded": guarded_setup,
    "admiral": admiral_setup,
}
