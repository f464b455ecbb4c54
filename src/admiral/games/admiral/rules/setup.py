"""Setups: validation and auto-arrangement (rules §3).

A setup is a mapping cell → :class:`Kind` for one side, every cell in that side's zone.

>>> import random
>>> s = auto_arrange(Side.SOUTH, random.Random(7))
>>> len(s), validate_setup(Side.SOUTH, s)
(58, [])
>>> [p.code for p in validate_setup(Side.SOUTH, {"e5": "VMB", "z1": "L", "a1": "XX"}, complete=False)]
['base_in_front_row', 'bad_cell', 'unknown_kind']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping

from ...common import InvalidSetup, SetupProblem
from .board import FRONT_ROW, RING, ZONE, Cell, cell_name, parse_cell
from .errors import IllegalAction
from .units import Kind, Side

__all__ = ["InvalidSetup", "SetupProblem", "auto_arrange", "check_setup", "normalize_setup", "validate_setup"]

_CARRIER = {Kind.S: Kind.A, Kind.T: Kind.TK, Kind.M: Kind.ES}


# SetupProblem and InvalidSetup are the house's (:mod:`admiral.games.common`). «Адмирал»'s problem codes:
# ``bad_cell``, ``outside_zone``, ``occupied_twice``, ``unknown_kind``, ``too_many``, ``too_few``,
# ``base_in_front_row``; ``cell``/``kind`` name the subject (notation / ASCII code) when there is one.


Placements = Mapping[Cell | str, Kind | str] | Iterable[tuple[Cell | str, Kind | str]]


def _pairs(placements: Placements) -> Iterable[tuple[object, object]]:
    return placements.items() if isinstance(placements, Mapping) else placements


def validate_setup(side: Side, placements: Placements, *, complete: bool = True) -> list[SetupProblem]:
    """Every problem of a setup for ``side`` (rules §3); an empty list when it is valid.

    ``placements``: a mapping, or pairs (so a cell given twice can be reported), of cell (int or
    notation) → kind (:class:`Kind`, ASCII or Russian code). With ``complete=False`` a partial setup
    is checked as you go: missing units are not problems, too many are.
    """
    problems: list[SetupProblem] = []
    seen: set[int] = set()
    counts: Counter[Kind] = Counter()
    zone, front = ZONE[Side(side)], FRONT_ROW[Side(side)]
    for raw_cell, raw_kind in _pairs(placements):
        try:
            cell = raw_cell if type(raw_cell) is int and 0 <= raw_cell < 210 else parse_cell(raw_cell)
        except IllegalAction as e:
            problems.append(SetupProblem("bad_cell", e.reason, cell=str(raw_cell)))
            continue
        name = cell_name(cell)
        try:
            kind = raw_kind if isinstance(raw_kind, Kind) else Kind.parse(raw_kind)
        except IllegalAction:
            problems.append(SetupProblem("unknown_kind", f"{name}: unknown unit kind {raw_kind!r}", cell=name))
            continue
        if cell not in zone:
            problems.append(
                SetupProblem("outside_zone", f"{name} is outside your zone (rules §3.1)", cell=name, kind=kind.code)
            )
            continue
        if cell in seen:
            problems.append(SetupProblem("occupied_twice", f"{name} is occupied twice (rules §3.1)", cell=name))
            continue
        seen.add(cell)
        counts[kind] += 1
        if kind is Kind.VMB and cell in front:
            problems.append(
                SetupProblem(
                    "base_in_front_row", f"ВМБ on {name} stands in the front row (rules §3.2)", cell=name, kind="VMB"
                )
            )
    for kind in Kind:
        n = counts[kind]
        if n > kind.count:
            problems.append(
                SetupProblem("too_many", f"{n} × {kind.ru}: a fleet has {kind.count} (rules §2)", kind=kind.code)
            )
        elif complete and n < kind.count:
            problems.append(
                SetupProblem("too_few", f"{n} × {kind.ru}: a fleet has {kind.count} (rules §2)", kind=kind.code)
            )
    return problems


def normalize_setup(placements: Placements) -> dict[Cell, Kind]:
    """Convert notation/codes to a ``{cell: Kind}`` dict, in notation order (no rule checks).

    :raises IllegalAction: ``bad_cell`` / ``unknown_kind``.
    """
    out: dict[Cell, Kind] = {}
    for raw_cell, raw_kind in _pairs(placements):
        cell = raw_cell if type(raw_cell) is int and 0 <= raw_cell < 210 else parse_cell(raw_cell)
        out[cell] = raw_kind if isinstance(raw_kind, Kind) else Kind.parse(raw_kind)
    return dict(sorted(out.items()))


def check_setup(side: Side, placements: Placements, *, complete: bool = True) -> dict[Cell, Kind]:
    """Validate and normalise a setup (rules §3).

    :returns: ``{cell: Kind}`` in notation order.
    :raises InvalidSetup: (an :class:`IllegalAction`, code ``invalid_setup``) listing every problem.
    """
    problems = validate_setup(side, placements, complete=complete)
    if problems:
        raise InvalidSetup(problems)
    return normalize_setup(placements)


def auto_arrange(
    side: Side, rng: random.Random, partial: Placements | None = None, *, fixed: bool = False
) -> dict[Cell, Kind]:
    """A random legal setup for ``side``, completing ``partial`` if given (rules §3.4, §3.6).

    Only unplaced units are placed; ``partial`` stays as it is. Both bases go off the front row and
    every ``S``, ``T``, ``M`` ends 8-adjacent to a carrier of its kind wherever a free cell allows: the
    weapons it places go beside carriers, and a placed weapon with no carrier beside it gets an unplaced
    carrier of its kind on a free cell around it (one carrier serves any number of weapons, rules §2).
    A placed weapon stays loose only when no free cell is around it or every carrier of its kind is
    already placed elsewhere.
    If the free cells left for a base are all in the front row, one of the placed units behind
    (not a weapon or a carrier, so no tether breaks) is moved to the front row to make room (the only
    change ever made to ``partial``).
    With ``fixed`` (a re-roll around the units a player placed by hand) ``partial`` is never changed: where
    the bases would need that move, :class:`IllegalAction` ``no_arrangement`` is raised instead.
    The same ``rng`` state gives the same setup.

    >>> auto_arrange(Side.SOUTH, random.Random(1), {"a1": "L"}, fixed=True)[parse_cell("a1")] is Kind.L
    True

    :returns: the complete setup, ``{cell: Kind}`` in notation order.
    :raises InvalidSetup: if ``partial`` is not a valid partial setup.
    :raises IllegalAction: ``no_arrangement`` with ``fixed`` when no base missing can stand off the front row.
    """
    side = Side(side)
    placed = check_setup(side, partial or {}, complete=False)
    if fixed:
        bases = Kind.VMB.count - sum(1 for k in placed.values() if k is Kind.VMB)
        room = sum(1 for c in ZONE[side] if c not in FRONT_ROW[side] and c not in placed)
        if bases > room:
            raise IllegalAction(
                "no_arrangement",
                f"{bases} ВМБ left to place but {room} free cell(s) off the front row (rules §3.2)",
            )
    # A carrier may end up boxed in before its weapon is placed: then arrange again (same rng, so
    # still reproducible). Where no arrangement can tether a weapon, the last attempt stands.
    for _ in range(_TRIES):
        board, tethered = _arrange(side, rng, dict(placed))
        if tethered:
            break
    return dict(sorted(board.items()))


#: Attempts of :func:`auto_arrange` at tethering every weapon it places.
_TRIES = 50
_CARRIERS = frozenset(_CARRIER.values())


def _arrange(side: Side, rng: random.Random, board: dict[Cell, Kind]) -> tuple[dict[Cell, Kind], bool]:
    """One attempt of :func:`auto_arrange` on ``board`` (changed in place): the board, and whether
    every weapon placed went 8-adjacent to a carrier of its kind."""
    zone, front = sorted(ZONE[side]), FRONT_ROW[side]
    # 0. A carrier beside each placed weapon that has none (rules §3.6: where possible, the tethers).
    _tether_placed(side, rng, board)
    have = Counter(board.values())
    todo = [k for k in Kind for _ in range(k.count - have[k])]
    tethered = True

    def free() -> list[Cell]:
        return [c for c in zone if c not in board]

    # 1. Bases, off the front row.
    for _ in range(todo.count(Kind.VMB)):
        spots = [c for c in free() if c not in front]
        if not spots:
            movable = [c for c in zone if c not in front and board.get(c) is not None and board[c] is not Kind.VMB]
            # Moving a weapon or a carrier could break a tether the player made (rules §3.6).
            loose = [c for c in movable if board[c] not in _CARRIER and board[c] not in _CARRIERS]
            frees = [c for c in free() if c in front]
            src, dst = rng.choice(loose or movable), rng.choice(frees)
            board[dst] = board.pop(src)
            spots = [src]
        board[rng.choice(spots)] = Kind.VMB
    # 2. Carriers, then their weapons next to them, then everything else.
    carriers = [k for k in todo if k in (Kind.A, Kind.TK, Kind.ES)]
    weapons = [k for k in todo if k in _CARRIER]
    rest = [k for k in todo if k not in _CARRIER and k not in (Kind.A, Kind.TK, Kind.ES, Kind.VMB)]
    rng.shuffle(carriers)
    rng.shuffle(weapons)
    rng.shuffle(rest)
    for k in carriers:
        board[rng.choice(free())] = k
    for k in weapons:
        carrier = _CARRIER[k]
        near = sorted(
            {n for c, kk in board.items() if kk is carrier for n in RING[c] if n in ZONE[side]} - board.keys()
        )
        tethered = tethered and bool(near)
        board[rng.choice(near or free())] = k
    for k in rest:
        board[rng.choice(free())] = k
    return board, tethered


def _loose(board: dict[Cell, Kind], cell: Cell) -> bool:
    """Whether the weapon on ``cell`` has no carrier of its kind 8-adjacent (rules §5.2)."""
    return all(board.get(n) is not _CARRIER[board[cell]] for n in RING[cell])


def _tether_placed(side: Side, rng: random.Random, board: dict[Cell, Kind]) -> None:
    """Step 0 of :func:`_arrange`: an unplaced carrier beside every placed weapon that has none, wherever
    a free cell around it and a carrier of its kind are left (rules §3.4, §3.6); ``board`` changes in place.

    The weapon with the fewest free cells around it goes first, so a cell it needs is not taken for
    another; of its cells, one that tethers the most loose weapons of its kind is drawn, so one carrier
    serves several where it can (rules §2: any carrier of the class serves). Draws nothing from ``rng``
    when every placed weapon is tethered already (so a setup from empty is unchanged).
    """
    zone = ZONE[side]
    while True:
        have = Counter(board.values())
        spots: dict[Cell, list[Cell]] = {}  # loose weapon → the free cells around it
        for c, k in board.items():
            if k in _CARRIER and have[_CARRIER[k]] < _CARRIER[k].count and _loose(board, c):
                cells = [n for n in RING[c] if n in zone and n not in board]
                if cells:
                    spots[c] = cells
        if not spots:
            return
        weapon = min(spots, key=lambda c: (len(spots[c]), c))
        kind = board[weapon]
        reach = {n: sum(1 for c in spots if board[c] is kind and n in RING[c]) for n in spots[weapon]}
        best = max(reach.values())
        board[rng.choice([n for n in spots[weapon] if reach[n] == best])] = _CARRIER[kind]
