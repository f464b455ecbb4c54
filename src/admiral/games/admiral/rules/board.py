"""Board geometry and cell notation (rules §1).

A cell is an ``int`` in ``range(210)``. Cells are numbered column-major, ``col * 15 + row``
(row 0 is rank 1, South's edge), so sorting cells sorts them in notation order
(``a1 … a15, b1 …``). All neighbourhoods are precomputed tables indexed by cell.

>>> parse_cell("e4"), cell_name(parse_cell("e4"))
(63, 'e4')
>>> sorted(cell_name(c) for c in ORTH[parse_cell("a1")])
['a2', 'b1']
>>> len(BLAST[parse_cell("a1")]), len(BLAST[parse_cell("g8")])
(9, 25)
"""

from __future__ import annotations

import re

from .errors import IllegalAction
from .msgids import NC_
from .units import Side

__all__ = [
    "AIR_RAYS",
    "BIT",
    "BLAST",
    "CELLS",
    "COLUMNS",
    "COLUMNS_RU",
    "FRONT_ROW",
    "HEIGHT",
    "ORTH",
    "RING",
    "TORPEDO_RAYS",
    "WIDTH",
    "ZONE",
    "Cell",
    "cell_at",
    "cell_col",
    "cell_name",
    "cell_row",
    "distance",
    "orth_spread",
    "parse_cell",
    "ring_spread",
]

Cell = int
WIDTH = 14  #: columns a–n
HEIGHT = 15  #: rows 1–15
COLUMNS = "abcdefghijklmn"
#: Column letters as the Russian UI shows them (rules §1); the whole string is a message id (msgids.py).
COLUMNS_RU = tuple(
    # TRANSLATORS: the 14 column letters of the board in order, one character each (rules §1); English: a to n.
    NC_("columns", "АБВГДЕЖЗИКЛМНО")
)
CELLS = range(WIDTH * HEIGHT)

_CELL_RE = re.compile(r"([a-n])(1[0-5]|[1-9])")


def cell_at(col: int, row: int) -> Cell:
    """Cell at 0-based ``col`` (0 = a) and ``row`` (0 = rank 1). No bounds check."""
    return col * HEIGHT + row


def cell_col(cell: Cell) -> int:
    """0-based column of ``cell``."""
    return cell // HEIGHT


def cell_row(cell: Cell) -> int:
    """0-based row of ``cell`` (0 is rank 1, South's edge)."""
    return cell % HEIGHT


_NAMES = tuple(f"{COLUMNS[c // HEIGHT]}{c % HEIGHT + 1}" for c in CELLS)
_BY_NAME = {n: i for i, n in enumerate(_NAMES)}
#: Every cell's notation by cell index (what :func:`cell_name` reads), for code that names many cells at once.
CELL_NAMES = _NAMES


def cell_name(cell: Cell) -> str:
    """Notation of ``cell``, e.g. ``e4``."""
    return _NAMES[cell]


def parse_cell(text: str) -> Cell:
    """Parse a cell's notation: a column ``a``–``n`` then a row ``1``–``15``, nothing else.

    :raises IllegalAction: ``bad_cell`` for anything else (``E4``, ``e0``, ``o1``, ``e04``, ``e4 ``).
    """
    found = _BY_NAME.get(text) if isinstance(text, str) else None
    if found is None:
        raise IllegalAction("bad_cell", f"{text!r} is not a cell: expected a column a–n and a row 1–15, e.g. 'e4'")
    return found


def distance(a: Cell, b: Cell) -> int:
    """Distance along rows and columns (rules §1)."""
    return abs(cell_col(a) - cell_col(b)) + abs(cell_row(a) - cell_row(b))


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < WIDTH and 0 <= row < HEIGHT


_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _ray(cell: Cell, dc: int, dr: int, length: int) -> tuple[Cell, ...]:
    col, row = cell_col(cell), cell_row(cell)
    out = []
    for step in range(1, length + 1):
        c, r = col + dc * step, row + dr * step
        if not _on_board(c, r):
            break
        out.append(cell_at(c, r))
    return tuple(out)


def _square(cell: Cell, radius: int) -> tuple[Cell, ...]:
    col, row = cell_col(cell), cell_row(cell)
    return tuple(
        cell_at(c, r)
        for c in range(col - radius, col + radius + 1)
        for r in range(row - radius, row + radius + 1)
        if _on_board(c, r)
    )


#: The 4 orthogonal neighbours of each cell (moves, contact attacks, formations).
ORTH: tuple[tuple[Cell, ...], ...] = tuple(tuple(r[0] for d in _DIRS if (r := _ray(c, *d, 1))) for c in CELLS)
#: The 8-adjacent cells of each cell (tethers and arming, rules §5.2, §6, §7.2).
RING: tuple[tuple[Cell, ...], ...] = tuple(tuple(x for x in _square(c, 1) if x != c) for c in CELLS)
#: Air-strike reach (rules §6): per direction, the cells at distance 1–4.
AIR_RAYS: tuple[tuple[tuple[Cell, ...], ...], ...] = tuple(
    tuple(r for d in _DIRS if (r := _ray(c, *d, 4))) for c in CELLS
)
#: Torpedo reach (rules §6): per direction, the cells at distance 1–2, nearest first.
TORPEDO_RAYS: tuple[tuple[tuple[Cell, ...], ...], ...] = tuple(
    tuple(r for d in _DIRS if (r := _ray(c, *d, 2))) for c in CELLS
)
#: The explosion square (rules §8): the 5×5 block centred on the cell, cut at the edges.
BLAST: tuple[tuple[Cell, ...], ...] = tuple(_square(c, 2) for c in CELLS)

#: Each side's start zone (rules §1): rows 1–5 for South, 11–15 for North.
ZONE: dict[Side, frozenset[Cell]] = {
    Side.SOUTH: frozenset(c for c in CELLS if cell_row(c) < 5),
    Side.NORTH: frozenset(c for c in CELLS if cell_row(c) >= 10),
}
#: Each zone's front row (rules §1, §3.2): row 5 for South, row 11 for North.
FRONT_ROW: dict[Side, frozenset[Cell]] = {
    Side.SOUTH: frozenset(c for c in CELLS if cell_row(c) == 4),
    Side.NORTH: frozenset(c for c in CELLS if cell_row(c) == 10),
}


# Bitboards: a set of cells as an ``int`` whose bit ``c`` stands for cell ``c``. Shifting by one moves every cell
# a row along its column, by HEIGHT a column along its row; the masks drop what a row shift carried over an edge
# into the next column. Bits above the board (210 on) may be set by a shift: nothing tests them.

#: Each cell's bit.
BIT: tuple[int, ...] = tuple(1 << c for c in CELLS)
_NOT_FIRST_ROW = sum(BIT[c] for c in CELLS if cell_row(c) != 0)
_NOT_LAST_ROW = sum(BIT[c] for c in CELLS if cell_row(c) != HEIGHT - 1)


def orth_spread(cells: int) -> int:
    """The cells with a cell of the bitboard ``cells`` on one of their four sides (:data:`ORTH`), as a bitboard.

    >>> spread = orth_spread(BIT[parse_cell("a1")])
    >>> sorted(cell_name(c) for c in CELLS if spread & BIT[c])
    ['a2', 'b1']
    """
    return ((cells << 1) & _NOT_FIRST_ROW) | ((cells >> 1) & _NOT_LAST_ROW) | (cells << HEIGHT) | (cells >> HEIGHT)


def ring_spread(cells: int) -> int:
    """The cells of the bitboard ``cells`` and those 8-adjacent to one of them (:data:`RING`), as a bitboard.

    >>> spread = ring_spread(BIT[parse_cell("a1")])
    >>> sorted(cell_name(c) for c in CELLS if spread & BIT[c])
    ['a1', 'a2', 'b1', 'b2']
    """
    column = cells | ((cells << 1) & _NOT_FIRST_ROW) | ((cells >> 1) & _NOT_LAST_ROW)
    return column | (column << HEIGHT) | (column >> HEIGHT)
