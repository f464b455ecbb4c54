"""Setups: validation with every problem explained, canonical form, and auto-arrangement (rules A2, A3, B1).

A setup is ``{cell: code}`` for one player's grid: classic codes are the ship's size as a digit (``"4"`` … ``"1"``),
Hasbro codes its letter (``"C"``, ``"B"``, ``"D"``, ``"S"``, ``"P"``). The ships are the orthogonally connected
groups of cells with the same code: under the no-touch rule (A2) that is unambiguous, and under Hasbro each code is
one ship, so any second group of a code is a surplus ship.

>>> from .fleet import CLASSIC, HASBRO
>>> [p.code for p in validate_setup(HASBRO, {"a1": "C", "a2": "C", "b2": "C", "z9": "B", "c1": "Q"}, complete=False)]
['bad_cell', 'unknown_code', 'bent']
>>> s = setup_from_text("C:a1-a5 B:b1-b4 D:c1-c3 S:d1-d3 P:e1-e2")
>>> validate_setup(HASBRO, s), setup_to_text(HASBRO, s)
([], 'C:a1-a5 B:b1-b4 D:c1-c3 S:d1-d3 P:e1-e2')
>>> [p.code for p in validate_setup(CLASSIC, setup_from_text("4:a1-a4 1:b5"), complete=False)]
['touching']
>>> import random
>>> a = auto_arrange(CLASSIC, random.Random(3))
>>> len(a), validate_setup(CLASSIC, a)
(20, [])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from ...common import InvalidSetup, SetupProblem
from .board import Board, Cell, cell_col, cell_name, cell_row, parse_cell
from .errors import IllegalAction
from .fleet import Rules, ShipClass

__all__ = [
    "STYLES", "InvalidSetup", "Placements", "SetupProblem", "Ship", "Touching", "auto_arrange", "canonical_setup",
    "check_setup", "clean_partial", "density", "figures_of", "normalize_setup", "setup_from_text", "setup_to_text",
    "ships_of", "validate_setup",
]  # fmt: skip

#: Auto-arrangement styles (see :func:`auto_arrange`), the default first.
STYLES = ("plain", "hard")

#: A setup as a mapping ``{cell: code}`` or as pairs (so a cell given twice can be reported). Cells are names
#: (any spelling :func:`~.board.parse_cell` reads) or :data:`~.board.Cell` ints; codes any case, white space ignored.
Placements = Mapping[Cell | str, str] | Iterable[tuple[Cell | str, str]]


# SetupProblem and InvalidSetup are the house's (:mod:`admiral.games.common`). The problem codes (rules A2, A3,
# B1): ``bad_cell`` (not a cell of the grid), ``unknown_code`` (not a ship code of the rule set), ``overlap`` (a
# cell given twice), ``bent`` (a ship's cells not one straight line), ``wrong_length`` (a straight ship of the
# wrong size), ``too_many`` / ``too_few`` (ships of a class), ``touching`` (two ships touch by side or corner,
# A2: a :class:`Touching`, which also names where they meet). ``cell`` is the first cell of the ship concerned in
# reading order (for ``touching`` the first ship's first cell beside the other), ``kind`` its code, when
# there is one.


@dataclass(frozen=True, slots=True)
class Touching(SetupProblem):
    """A ``touching`` problem (A2) between two ships: ``cell`` and ``kind`` as for every problem (the first ship in
    reading order, at its first cell that touches the other), ``other`` the other ship's code and ``cells`` where
    the two meet: every cell of either ship with a cell of the other beside it or at its corner, reading order.

    >>> from .fleet import CLASSIC
    >>> p = validate_setup(CLASSIC, setup_from_text("3:a1-a3 1:b4"), complete=False)[0]
    >>> p.cell, p.kind, p.other, p.cells
    ('a3', '3', '1', ('a3', 'b4'))
    """

    other: str = ""
    cells: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """:meth:`SetupProblem.to_dict` with ``other`` and ``cells`` (a list)."""
        return {**SetupProblem.to_dict(self), "other": self.other, "cells": list(self.cells)}


@dataclass(frozen=True, slots=True)
class Ship:
    """A ship on a grid: its class ``code`` and its ``cells`` in reading order."""

    code: str
    cells: tuple[Cell, ...]

    @property
    def size(self) -> int:
        """Decks."""
        return len(self.cells)

    def __str__(self) -> str:
        """``C:a1-a5`` / ``1:j10`` (the form :func:`setup_from_text` reads)."""
        ends = (
            cell_name(self.cells[0])
            if len(self.cells) == 1
            else f"{cell_name(self.cells[0])}-{cell_name(self.cells[-1])}"
        )
        return f"{self.code}:{ends}"


def _pairs(placements: Placements) -> Iterable[tuple[object, object]]:
    return placements.items() if isinstance(placements, Mapping) else placements


def _code(rules: Rules, raw: object) -> str | None:
    code = raw.strip().upper() if isinstance(raw, str) else None
    return code if code in rules.setup_codes else None


def _cell(board: Board, raw: object) -> Cell:
    if type(raw) is int:
        if raw not in board:
            raise IllegalAction("bad_cell", f"{raw!r} is not a cell of the board")
        return raw
    return board.parse(raw)  # type: ignore[arg-type]


def _name(rules: Rules, code: str) -> str:
    return rules.ship_class(code).name


def _groups(
    board: Board, occupied: Mapping[Cell, str], single: Iterable[str] = ()
) -> list[tuple[str, tuple[Cell, ...]]]:
    """The orthogonally connected groups of same-code cells, each ``(code, cells in reading order)``, in reading
    order of their first cells; a cell whose code is in ``single`` (a figure's, C2) is a group of its own."""
    single = frozenset(single)
    seen: set[Cell] = set()
    out = []
    for start in sorted(occupied):
        if start in seen:
            continue
        code = occupied[start]
        group, todo = [start], [] if code in single else [start]
        seen.add(start)
        while todo:
            for n in board.orth[todo.pop()]:
                if n not in seen and occupied.get(n) == code:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        out.append((code, tuple(sorted(group))))
    return out


def _straight(cells: Sequence[Cell]) -> bool:
    return len({cell_row(c) for c in cells}) == 1 or len({cell_col(c) for c in cells}) == 1


def validate_setup(rules: Rules, placements: Placements, *, complete: bool = True) -> list[SetupProblem]:
    """Every problem of a setup under ``rules`` (A2, A3, B1); an empty list when it is valid.

    With ``complete=False`` a partial setup is checked as it is being made: missing ships are no problem, but every
    ship placed must be whole (straight, of its size) and the rest holds as for a complete setup.
    Problems come in this order: per entry (``bad_cell``, ``unknown_code``, ``overlap``, in input order), per ship
    (``bent``, ``wrong_length``, reading order), per class (``too_many``, ``too_few``, fleet order), ``touching``.
    """
    board = rules.board
    problems: list[SetupProblem] = []
    occupied: dict[Cell, str] = {}
    for raw_cell, raw_code in _pairs(placements):
        try:
            cell = _cell(board, raw_cell)
        except IllegalAction as e:
            problems.append(SetupProblem("bad_cell", e.reason, cell=str(raw_cell)))
            continue
        name = cell_name(cell)
        code = _code(rules, raw_code)
        if code is None:
            problems.append(
                SetupProblem(
                    "unknown_code",
                    f"{name}: {raw_code!r} is not a code of the {rules.key} rules ({', '.join(rules.setup_codes)})",
                    cell=name,
                    kind=str(raw_code),
                )
            )
            continue
        if cell in occupied:
            problems.append(
                SetupProblem("overlap", f"{name} is given twice: ships may not overlap", cell=name, kind=code)
            )
            continue
        occupied[cell] = code
    groups = _groups(board, occupied, _single(rules))
    counts: Counter[str] = Counter()
    for code, cells in groups:
        counts[code] += 1
        size, first = rules.ship_class(code).size, cell_name(cells[0])
        if not _straight(cells):
            problems.append(
                SetupProblem(
                    "bent", f"the {_name(rules, code)} at {first} is not one straight line of cells", first, code
                )
            )
        elif len(cells) != size:
            problems.append(
                SetupProblem(
                    "wrong_length",
                    f"the {_name(rules, code)} at {first} has {len(cells)} cells, not {size}",
                    first,
                    code,
                )
            )
    for sc in rules.fleet + rules.figures:
        n = counts[sc.code]
        if n > sc.count or (complete and n < sc.count):
            problems.append(
                SetupProblem(
                    "too_many" if n > sc.count else "too_few",
                    f"{n} × {sc.name}: a fleet has {sc.count}",
                    kind=sc.code,
                )
            )
    if not rules.touching:
        problems.extend(_touching(rules, groups))
    return problems


def _touching(rules: Rules, groups: list[tuple[str, tuple[Cell, ...]]]) -> list[Touching]:
    """A :class:`Touching` problem per pair of groups that touch by side or corner (A2)."""
    ring = rules.board.ring
    owner = {c: i for i, (_, cells) in enumerate(groups) for c in cells}
    out = []
    reported: set[tuple[int, int]] = set()
    for i, (code, cells) in enumerate(groups):
        for c in cells:
            for n in ring[c]:
                j = owner.get(n, i)
                if j > i and (i, j) not in reported:
                    reported.add((i, j))
                    other_code, other = groups[j]
                    figure = rules.is_figure(code) or rules.is_figure(other_code)
                    rule = "no figure may touch another" if figure else "ships may not touch"
                    meet = tuple(
                        cell_name(x)
                        for x in sorted(cells + other)
                        if any(owner.get(y) == (j if owner[x] == i else i) for y in ring[x])
                    )
                    out.append(
                        Touching(
                            "touching",
                            f"the {_name(rules, code)} at {cell_name(cells[0])} touches the "
                            f"{_name(rules, other_code)} at {cell_name(other[0])}, where they meet: "
                            f"{', '.join(meet)}; {rule}, not even by a corner",
                            cell_name(c),
                            code,
                            other_code,
                            meet,
                        )
                    )
    return out


def normalize_setup(rules: Rules, placements: Placements) -> dict[Cell, str]:
    """``{cell: code}`` with parsed cells and upper-case codes, reading order (no rule checks).

    :raises IllegalAction: ``bad_cell`` / ``unknown_code``.
    """
    out: dict[Cell, str] = {}
    for raw_cell, raw_code in _pairs(placements):
        cell, code = _cell(rules.board, raw_cell), _code(rules, raw_code)
        if code is None:
            raise IllegalAction("unknown_code", f"{raw_code!r} is not a ship code of the {rules.key} rules")
        out[cell] = code
    return dict(sorted(out.items()))


def check_setup(rules: Rules, placements: Placements, *, complete: bool = True) -> dict[Cell, str]:
    """Validate and normalise a setup.

    :returns: ``{cell: code}`` in reading order.
    :raises InvalidSetup: (code ``invalid_setup``) listing every problem.
    """
    problems = validate_setup(rules, placements, complete=complete)
    if problems:
        raise InvalidSetup(problems)
    return normalize_setup(rules, placements)


def canonical_setup(rules: Rules, placements: Placements) -> dict[str, str]:
    """A valid complete setup in canonical form: wire cell names in reading order, upper-case codes.

    :raises InvalidSetup: if it is not valid.
    """
    return {cell_name(c): code for c, code in check_setup(rules, placements).items()}


def ships_of(rules: Rules, setup: Mapping[Cell, str]) -> tuple[Ship, ...]:
    """The ships of a valid normalised setup, fleet order (class order, then reading order of the first cell);
    figures (:attr:`~.fleet.Rules.figures`) are not ships (D5) and are left out."""
    order = {code: i for i, code in enumerate(rules.codes)}
    ships = [Ship(code, cells) for code, cells in _groups(rules.board, setup, _single(rules)) if code in order]
    return tuple(sorted(ships, key=lambda s: (order[s.code], s.cells[0])))


def figures_of(rules: Rules, setup: Mapping[Cell, str]) -> tuple[Ship, ...]:
    """The one-cell figures (:attr:`~.fleet.Rules.figures`: mines, minesweepers, C2) of a valid normalised setup,
    each as a :class:`Ship` of one cell, in the order of :attr:`~.fleet.Rules.figures` then reading order."""
    order = {f.code: i for i, f in enumerate(rules.figures)}
    out = [Ship(code, (c,)) for c, code in setup.items() if code in order]
    return tuple(sorted(out, key=lambda s: (order[s.code], s.cells[0])))


def _single(rules: Rules) -> tuple[str, ...]:
    """The codes whose cells never join into a ship: the figures' (C2)."""
    return tuple(f.code for f in rules.figures)


def setup_from_text(text: str) -> dict[str, str]:
    """A setup from ship tokens ``code:first-last`` (or ``code:cell`` for one deck), separated by spaces, e.g.
    ``"4:a1-a4 1:j10"`` (tests, perft files, bots' books). No rule checks.

    :raises IllegalAction: ``bad_setup_text`` for a malformed token or one that is not a straight line.
    """
    out: dict[str, str] = {}
    for token in text.split():
        code, sep, span = token.partition(":")
        ends = span.split("-")
        if not sep or not code or len(ends) > 2:
            raise IllegalAction("bad_setup_text", f"{token!r} is not a ship: write code:first-last, e.g. '4:a1-a4'")
        try:
            a, b = parse_cell(ends[0]), parse_cell(ends[-1])
        except IllegalAction:
            raise IllegalAction("bad_setup_text", f"{token!r}: bad cell") from None
        (r1, r2), (c1, c2) = sorted((cell_row(a), cell_row(b))), sorted((cell_col(a), cell_col(b)))
        if r1 != r2 and c1 != c2:
            raise IllegalAction("bad_setup_text", f"{token!r} is not a straight line")
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                out[cell_name(r * 32 + c)] = code
    return out


def setup_to_text(rules: Rules, setup: Placements) -> str:
    """A valid setup as ship tokens in fleet order, then its figures (the form :func:`setup_from_text` reads)."""
    checked = check_setup(rules, setup)
    return " ".join(str(s) for s in ships_of(rules, checked) + figures_of(rules, checked))


# -- auto-arrangement (A3, B1) ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Placement:
    cells: tuple[Cell, ...]
    mask: int  #: bit ``cell`` set for each cell
    halo: int  #: the cells and their ring: what a ship blocks under the no-touch rule


@cache
def _placements(board: Board, size: int) -> tuple[_Placement, ...]:
    """Every straight placement of a ship of ``size`` on ``board``, reading order of the first cell."""
    out = []
    for c in board.cells:
        for step in (1, 32) if size > 1 else (1,):
            cells = tuple(c + i * step for i in range(size))
            if all(x in board for x in cells) and (step == 32 or cell_row(cells[-1]) == cell_row(c)):
                mask = _mask_of(cells)
                halo = _mask_of({n for x in cells for n in board.ring[x]} | set(cells))
                out.append(_Placement(cells, mask, halo))
    return tuple(out)


@cache
def density(rules: Rules) -> dict[Cell, float]:
    """The starting probability-density map of a hunter (the weight of each cell, 0–1): per cell, the number of
    straight placements of the fleet's ships that cover it on an empty grid, weighted by the ships of each class,
    divided by the largest. It is highest in the centre and lowest in the corners."""
    count = dict.fromkeys(rules.board.cells, 0)
    for sc in rules.fleet:
        for p in _placements(rules.board, sc.size):
            for c in p.cells:
                count[c] += sc.count
    top = max(count.values())
    return {c: n / top for c, n in count.items()}


def _mask(rules: Rules, ship: Ship) -> int:
    cells = set(ship.cells)
    return _mask_of(cells if rules.touching else cells | {n for c in cells for n in rules.board.ring[c]})


def clean_partial(rules: Rules, partial: Placements | None) -> list[Ship]:
    """The valid part of a partial setup: its whole ships (straight, of their size) kept in reading order while
    the class has room and (no-touch, A2) they touch no ship kept before; bad cells, unknown codes, repeated
    cells, bent or wrong-length groups are dropped."""
    occupied: dict[Cell, str] = {}
    for raw_cell, raw_code in _pairs(partial or {}):
        try:
            cell = _cell(rules.board, raw_cell)
        except IllegalAction:
            continue
        code = _code(rules, raw_code)
        if code is not None and cell not in occupied:
            occupied[cell] = code
    kept: list[Ship] = []
    have: Counter[str] = Counter()
    blocked = 0
    for code, cells in _groups(rules.board, occupied, _single(rules)):
        sc = rules.ship_class(code)
        ship = Ship(code, cells)
        if _straight(cells) and len(cells) == sc.size and have[code] < sc.count and not _mask_of(cells) & blocked:
            kept.append(ship)
            have[code] += 1
            blocked |= _mask(rules, ship)
    return kept


def _mask_of(cells: Iterable[Cell]) -> int:
    """The bit mask of distinct ``cells`` (bit ``cell`` set for each)."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


#: Full layouts the uniform sampler draws before it searches (classic accepts about 1 draw in 2500, Hasbro 2 in 5).
_TRIES = 50_000
#: Nodes the backtracking search may visit before it gives up on the kept ships.
_BUDGET = 50_000
#: Uniform layouts drawn by the ``hard`` style, of which the least findable is kept.
_HARD_CANDIDATES = 16
#: Weight of a side contact between two ships in the ``hard`` score (Hasbro only: classic ships never touch).
_CONTACT_WEIGHT = 0.05


def auto_arrange(
    rules: Rules,
    rng: random.Random,
    partial: Placements | None = None,
    style: str = "plain",
    *,
    avoid: Iterable[Cell | str] = (),
    fixed: bool = False,
) -> dict[Cell, str]:
    """A complete valid setup, keeping the valid part of ``partial`` (:func:`clean_partial`) (A3, B1).

    ``style``:

    - ``"plain"``: a uniformly random legal layout among those that keep the partial part: each missing ship is
      drawn uniformly from its straight placements, and the whole draw is repeated until the layout is legal
      (rejection sampling, so every legal completion is equally likely);
    - ``"hard"``: a layout that resists probability-density hunters: :data:`_HARD_CANDIDATES` plain layouts are
      drawn and the one whose ships stand on the least hunter density (:func:`density`, the mean over its decks)
      is kept, with a small penalty for every side contact between two ships under Hasbro (a hunter finishing one
      ship finds its neighbour for free). It leans towards the edges and away from big ships in the centre
      while still drawing from many layouts, so it does not become a fixed pattern a hunter could learn.

    ``avoid``: cells where no new ship may go (a bot resampling the unknown part of an enemy fleet passes the cells
    it has seen miss). Should no completion exist within the draw and search budgets, the kept ships are given up
    one at a time, last in reading order first: with an empty partial and no ``avoid`` a layout always exists.
    With ``fixed`` (a re-roll around the ships a player placed by hand) nothing of ``partial`` is dropped or given
    up: it must be a valid partial setup, and where no completion is found ``no_arrangement`` is raised.
    The same ``rng`` state gives the same setup.

    :returns: ``{cell: code}`` in reading order.
    :raises IllegalAction: ``no_arrangement`` when ``avoid`` leaves no room for the fleet, or with ``fixed`` when
        the kept ships leave none; ``bad_style`` for an unknown style; with ``fixed``, :class:`InvalidSetup` when
        ``partial`` is not a valid partial setup.
    """
    if style not in STYLES:
        raise IllegalAction("bad_style", f"unknown arrangement style {style!r} (styles: {', '.join(STYLES)})")
    avoid_mask = _mask_of(_cell(rules.board, c) for c in avoid)
    if fixed:
        problems = validate_setup(rules, partial or {}, complete=False)
        if problems:
            raise InvalidSetup(problems)
    kept = clean_partial(rules, partial)
    while True:
        have = Counter(s.code for s in kept)
        classes = sorted(rules.fleet + rules.figures, key=lambda s: -s.size)
        todo = [sc for sc in classes for _ in range(sc.count - have[sc.code])]
        found = _sample(rules, rng, kept, todo, avoid_mask, _TRIES)
        if found is not None and style == "hard":
            options = [found] + [
                _sample(rules, rng, kept, todo, avoid_mask, _TRIES) for _ in range(_HARD_CANDIDATES - 1)
            ]
            found = min((o for o in options if o is not None), key=lambda o: _findability(rules, kept + o))
        if found is None:
            found = _search(rules, rng, kept, todo, avoid_mask)
        if found is not None:
            return dict(sorted((c, s.code) for s in kept + found for c in s.cells))
        if fixed:
            raise IllegalAction("no_arrangement", "the ships placed leave no room for the rest of the fleet (A2, A3)")
        if not kept:
            raise IllegalAction("no_arrangement", "the cells to avoid leave no room for the fleet")
        kept.pop()


def _blocked(rules: Rules, kept: Iterable[Ship]) -> int:
    out = 0
    for s in kept:
        out |= _mask(rules, s)
    return out


def _sample(
    rules: Rules, rng: random.Random, kept: list[Ship], todo: list[ShipClass], avoid: int, tries: int
) -> list[Ship] | None:
    """Rejection sampling: up to ``tries`` independent uniform draws of every missing ship; the first legal one."""
    base = _blocked(rules, kept)
    touching = rules.touching
    pools = [_placements(rules.board, sc.size) for sc in todo]
    for _ in range(tries):
        block = base
        chosen: list[_Placement] = []
        for pool in pools:
            p = pool[int(rng.random() * len(pool))]
            if p.mask & (block | avoid):
                break
            block |= p.mask if touching else p.halo
            chosen.append(p)
        else:
            return [Ship(sc.code, p.cells) for sc, p in zip(todo, chosen, strict=True)]
    return None


def _search(rules: Rules, rng: random.Random, kept: list[Ship], todo: list[ShipClass], avoid: int) -> list[Ship] | None:
    """Depth-first search over placements (biggest ship first, shuffled), within :data:`_BUDGET` nodes."""
    touching = rules.touching
    budget = [_BUDGET]
    pools = []
    for sc in todo:
        pool = list(_placements(rules.board, sc.size))
        rng.shuffle(pool)
        pools.append(pool)
    chosen: list[_Placement] = []

    def go(i: int, block: int) -> bool:
        if i == len(todo):
            return True
        for p in pools[i]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if not p.mask & (block | avoid):
                chosen.append(p)
                if go(i + 1, block | (p.mask if touching else p.halo)):
                    return True
                chosen.pop()
        return False

    if not go(0, _blocked(rules, kept)):
        return None
    return [Ship(sc.code, p.cells) for sc, p in zip(todo, chosen, strict=True)]


def _findability(rules: Rules, ships: list[Ship]) -> float:
    """The ``hard`` style's score (lower is harder to find): mean hunter density over the decks, plus
    :data:`_CONTACT_WEIGHT` per side contact between two ships."""
    dens = density(rules)
    score = sum(dens[c] for s in ships for c in s.cells) / rules.decks
    if rules.touching:
        owner = {c: i for i, s in enumerate(ships) for c in s.cells}
        contacts = sum(1 for c, i in owner.items() for n in rules.board.orth[c] if n > c and owner.get(n, i) != i)
        score += _CONTACT_WEIGHT * contacts
    return score
