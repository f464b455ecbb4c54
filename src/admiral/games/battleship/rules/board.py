"""Cells and grids (rules A1, D1).

A :data:`Cell` is an ``int`` that does not depend on the grid's size: ``row * 32 + col`` (both 0-based, row 0 is
``a``/«А» at the top, column 0 is ``1`` at the left). Sorting cells sorts them in reading order (``a1 … a10, b1 …``),
and a cell's name is the same on every grid, so notation is parsed without knowing the grid (rows ``a``–``r``,
columns 1–18, D1); a :class:`Board` says which cells exist and holds the neighbourhood tables.

Names: the wire uses a Latin row letter and the column, ``b5``; the Russian UI shows the row letters
А Б В Г Д Е Ж З И К Л М Н О П Р С Т (no Й), ``Б5``; so Latin ``j`` is «К» and ``k`` is «Л». :func:`parse_cell`
reads both, in either case.

>>> parse_cell("b5") == parse_cell("B5") == parse_cell("Б5") == parse_cell("б5")
True
>>> cell_name(parse_cell("Б5")), cell_name_ru(parse_cell("j10")), cell_name(parse_cell("К10"))
('b5', 'К10', 'j10')
>>> BOARD.width, BOARD.height, len(BOARD.cells), BOARD.name(BOARD.cells[-1])
(10, 10, 100, 'j10')
>>> sorted(cell_name(c) for c in BOARD.ring[parse_cell("a1")])
['a2', 'b1', 'b2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import IllegalAction

__all__ = [
    "BOARD", "MAX_SIDE", "ROWS", "ROWS_RU", "Board", "Cell", "cell_at", "cell_col", "cell_name", "cell_name_ru",
    "cell_row", "parse_cell",
]  # fmt: skip

Cell = int
#: The largest grid of the family (18×18 «Гигант», C1/D1).
MAX_SIDE = 18
#: Row letters on the wire, top to bottom (D1).
ROWS = "abcdefghijklmnopqr"
#: Row letters in the Russian UI, top to bottom: no Й (A1, D1).
ROWS_RU = "АБВГДЕЖЗИКЛМНОПРСТ"
_STRIDE = 32

_ROW_OF = {ch: i for i, ch in enumerate(ROWS)} | {ch.upper(): i for i, ch in enumerate(ROWS)}
_ROW_OF |= {ch: i for i, ch in enumerate(ROWS_RU)} | {ch.lower(): i for i, ch in enumerate(ROWS_RU)}
_CELL_RE = re.compile(r"(\D)(1[0-8]|[1-9])")


def cell_at(row: int, col: int) -> Cell:
    """The cell at 0-based ``row`` (0 = ``a``) and ``col`` (0 = column 1). No bounds check."""
    return row * _STRIDE + col


def cell_row(cell: Cell) -> int:
    """0-based row of ``cell`` (0 = ``a``, the top row)."""
    return cell // _STRIDE


def cell_col(cell: Cell) -> int:
    """0-based column of ``cell`` (0 = column 1)."""
    return cell % _STRIDE


#: Every cell's wire name by cell index (what :func:`cell_name` reads): a view names hundreds of cells.
_NAMES = tuple(f"{row}{col + 1}" for row in ROWS for col in range(_STRIDE))


def cell_name(cell: Cell) -> str:
    """Wire name of ``cell``: Latin row letter then column, e.g. ``b5``."""
    return _NAMES[cell]


def cell_name_ru(cell: Cell) -> str:
    """Russian display name of ``cell``, e.g. ``Б5`` (rules A1)."""
    return f"{ROWS_RU[cell // _STRIDE]}{cell % _STRIDE + 1}"


def parse_cell(text: str) -> Cell:
    """Parse a cell: a row letter (Latin ``a``–``r`` or Russian ``А``–``Т`` without Й, either case) then a
    column 1–18 with no leading zero; surrounding white space is ignored. The grid is not checked here
    (:meth:`Board.parse` does).

    :raises IllegalAction: ``bad_cell`` for anything else.
    """
    m = _CELL_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    row = _ROW_OF.get(m.group(1)) if m else None
    if row is None:
        raise IllegalAction("bad_cell", f"{text!r} is not a cell: expected a row letter and a column, e.g. 'b5'")
    return cell_at(row, int(m.group(2)) - 1)


@dataclass(frozen=True)
class Board:
    """A ``width`` × ``height`` grid (rules A1: 10×10; D1: 16×16, 18×18 later) and its tables.

    ``cells``: every cell in reading order; ``orth``/``ring``: cell → its 4 orthogonal / 8 surrounding
    neighbours on the grid (the ring is the no-touch zone, A2, A6).
    """

    width: int
    height: int
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    orth: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False)
    ring: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_SIDE and 1 <= self.height <= MAX_SIDE):
            raise ValueError(f"a board is 1–{MAX_SIDE} cells wide and high")
        cells = tuple(cell_at(r, c) for r in range(self.height) for c in range(self.width))
        on = frozenset(cells)

        def around(cell: Cell, steps: tuple[tuple[int, int], ...]) -> tuple[Cell, ...]:
            r, c = cell_row(cell), cell_col(cell)
            return tuple(
                cell_at(r + dr, c + dc)
                for dr, dc in steps
                if 0 <= r + dr < self.height and 0 <= c + dc < self.width and cell_at(r + dr, c + dc) in on
            )

        orth = ((-1, 0), (0, -1), (0, 1), (1, 0))
        ring = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "orth", {c: around(c, orth) for c in cells})
        object.__setattr__(self, "ring", {c: around(c, ring) for c in cells})

    def __contains__(self, cell: object) -> bool:
        return cell in self.orth

    @property
    def size(self) -> int:
        """Cells on the grid."""
        return self.width * self.height

    def name(self, cell: Cell) -> str:
        """Wire name of ``cell`` (see :func:`cell_name`)."""
        return cell_name(cell)

    def parse(self, text: str) -> Cell:
        """A cell of this grid from its name (:func:`parse_cell`).

        :raises IllegalAction: ``bad_cell`` for a malformed name or a cell off this grid.
        """
        cell = parse_cell(text)
        if cell not in self:
            raise IllegalAction("bad_cell", f"{text!r} is off the {self.width}×{self.height} board")
        return cell

    def to_dict(self) -> dict:
        """What a client draws: ``{"width", "height", "rows", "rows_ru"}``."""
        return {
            "width": self.width, "height": self.height,
            "rows": ROWS[: self.height], "rows_ru": ROWS_RU[: self.height],
        }  # fmt: skip

    @classmethod
    def square(cls, side: int) -> Board:
        """An ``side`` × ``side`` grid."""
        return cls(side, side)


#: The 10×10 grid of rule sets A and B.
BOARD = Board.square(10)
