"""Level 5's deliberate setup (rules §3): guarded bases, strike formations in front, screened weapons;
and level 4's part of it, the guarded bases alone (:func:`guarded_setup`).

The same structure every game, on other cells every game (both setups are open after a game, rules
§11.6, so a fixed plan would be learnt). In the side's own coordinates (column 0–13 from its left, row
0 = its back edge, row 4 = its front row):

- each base on the back edge between two mines, an ``ES`` (their carrier) in front of it, in columns
  drawn from :data:`_BASE_COLUMNS`;
- front row: the blocks ``3 КР``, ``М Л Л М`` (the battleships' flanks screened by mines), ``2 Р + ЭС``,
  the stationary mine and the fireship, in an order drawn every game with two spare cells among them;
- behind it: ``КРПЛ + 2 ПЛ`` behind the battleships; a torpedo boat with two torpedoes behind the
  cruisers and another behind the raiders;
- the carrier with its aircraft beside it somewhere in the middle columns, the atomic bomb in a back corner
  (else on a side edge in row 3) where its blast cannot reach a base;
- every other unit dealt at random into the free cells.
"""

from __future__ import annotations

import random
from collections import Counter

from ..rules import Cell, Kind, Side, auto_arrange, validate_setup
from ..rules.board import cell_at

__all__ = ["SETUPS", "admiral_setup", "back_edge_setup", "forward_setup", "guarded_setup"]

K = Kind
Pos = tuple[int, int]  #: (column, row) in a side's own coordinates
#: The bases' guard in the columns of its first design (2 and 11): each base on the back edge between two
#: mines, an ES in front.
_GUARD: dict[Pos, Kind] = {
    (2, 0): K.VMB, (11, 0): K.VMB,
    (1, 0): K.M, (3, 0): K.M, (10, 0): K.M, (12, 0): K.M, (2, 1): K.ES, (11, 1): K.ES,
}  # fmt: skip
#: Columns a base's guard may stand on, left and right. The guard is placed first and the rest of a setup
#: around it, so a bot's bases are not on the same cells in every game (a player would learn them in a few).
_BASE_COLUMNS = ((1, 2, 3, 4), (9, 10, 11, 12))


def _guard(rng: random.Random) -> dict[Pos, Kind]:
    """The bases' guard with each base moved to a column drawn from :data:`_BASE_COLUMNS`."""
    out = {}
    for home, choices in zip((2, 11), _BASE_COLUMNS, strict=True):
        shift = rng.choice(choices) - home
        out.update({(col + shift, row): k for (col, row), k in _GUARD.items() if abs(col - home) <= 1})
    return out


def _cell(side: Side, col: int, row: int) -> Cell:
    return cell_at(col, row if side is Side.SOUTH else 14 - row)


#: Level 5's front row (row 4) in blocks, laid out in an order drawn anew every game with the two spare
#: cells between them: the strike formations (``3 КР``, ``Л + Л`` with mines on its flanks, ``2 Р + ЭС``),
#: the stationary mine and the fireship.
_FRONT_BLOCKS = ((K.KR, K.KR, K.KR), (K.M, K.L, K.L, K.M), (K.R, K.R, K.ES), (K.SM,), (K.BR,))


def _front(rng: random.Random) -> dict[Pos, Kind]:
    """The front row: the blocks of :data:`_FRONT_BLOCKS` in a random order, the 14 − 12 spare cells
    dealt at random between and around them."""
    blocks = list(_FRONT_BLOCKS)
    rng.shuffle(blocks)
    spare = 14 - sum(len(b) for b in blocks)
    gaps = [0] * (len(blocks) + 1)
    for _ in range(spare):
        gaps[rng.randrange(len(gaps))] += 1
    out: dict[Pos, Kind] = {}
    col = gaps[0]
    for block, gap in zip(blocks, gaps[1:], strict=True):
        for kind in block:
            out[(col, 4)] = kind
            col += 1
        col += gap
    return out


def _second_line(front: dict[Pos, Kind], taken: dict[Pos, Kind], rng: random.Random):
    """Rows 1–3 behind the front: ``КРПЛ + 2 ПЛ`` behind the battleships, a torpedo boat with two
    torpedoes behind the cruisers and another behind the raiders, the carrier and its aircraft side by
    side in the middle columns, the atomic bomb in a back corner (else on a side edge). Yields (position, kind) as
    it goes; ``taken`` is the setup so far, which the caller extends with each position it accepts (a position
    off the board or taken is skipped, and its unit is dealt at random later)."""
    cols = {k: sorted(c for (c, _), kk in front.items() if kk is k) for k in (K.L, K.KR, K.R)}
    first = cols[K.L][0] - rng.choice((0, 1))  # the pack's three cells, under the battleships
    yield from zip([(first + i, 3) for i in range(3)], (K.PL, K.KRPL, K.PL), strict=True)
    for kind in (K.KR, K.R):
        boat = rng.choice(cols[kind])
        yield (boat, 3), K.TK
        yield (boat + rng.choice((-1, 1)), 3), K.T
        yield (boat, 2), K.T
    spots = [(c, r) for c in range(3, 11) for r in (1, 2, 3) if (c, r) not in taken]
    rng.shuffle(spots)
    for c, r in spots:
        mate = (c + rng.choice((-1, 1)), r)
        if mate not in taken:
            yield (c, r), K.A
            yield mate, K.S
            break
    # The bomb in a back corner, where no base stands within two columns (its 5×5 blast, rules §8, reaches the
    # back edge from rows 0–2); else on a side edge in row 3, whose blast stops at row 1. Issue 22: from row 3, one
    # step behind the front row, an enemy ship reached it through the front within 4–8 plies in games against
    # level 4, taking the crowd of the opening around it (up to 11 units).
    bases = [c for (c, r), k in taken.items() if k is K.VMB]
    corners = [(c, r) for c in (0, 13) for r in (0, 1) if all(abs(c - b) > 2 for b in bases) and (c, r) not in taken]
    spots = corners or [(c, 3) for c in (0, 1, 12, 13)]
    yield rng.choice([p for p in spots if p not in taken] or spots), K.AB


def admiral_setup(side: Side, rng: random.Random) -> dict[Cell, Kind]:
    """A deliberate, valid setup for ``side`` drawn from ``rng`` (see the module docstring): the same
    structure every game, on other cells every game (a player reads both setups after each game, §11.6).

    Falls back to :func:`admiral.games.admiral.rules.auto_arrange` should the result ever be invalid (it never is
    for the standard fleet; the check keeps it safe).
    """
    side = Side(side)
    template: dict[Pos, Kind] = _guard(rng)
    front = _front(rng)
    template.update(front)
    have = Counter(template.values())
    for pos, kind in _second_line(front, template, rng):
        if 0 <= pos[0] < 14 and pos not in template and have[kind] < kind.count:
            template[pos] = kind
            have[kind] += 1
    placed = {_cell(side, col, row): kind for (col, row), kind in template.items()}
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

#: Setups by name (:attr:`admiral.games.admiral.bots.bots.Config.setup`).
SETUPS = {
    "forward": forward_setup,
    "back": back_edge_setup,
    "guarded": guarded_setup,
    "admiral": admiral_setup,
}
