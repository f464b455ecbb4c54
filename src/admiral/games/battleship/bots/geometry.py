"""The board as bitmasks: every placement of a ship of each size, and which placements exclude which.

Cells are numbered ``index = row * width + col``; a set of cells is an ``int`` whose bit ``index`` is set (a *cell
mask*). The placements of ships of one size are numbered in a fixed order (horizontal ones in reading order of their
first cell, then vertical ones); a set of placements of that size is an ``int`` over those numbers (a *placement
mask*). Both kinds of set are combined with ``&``, ``|``, ``~`` and counted with ``int.bit_count``, which is what
makes the searches of levels 4 and 5 fast enough in pure Python.

>>> g = geometry(3, 2, (2,), touching=True)
>>> len(g.masks[2]), [bin(m) for m in g.masks[2]]
(7, ['0b11', '0b110', '0b11000', '0b110000', '0b1001', '0b10010', '0b100100'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Geometry", "bits", "geometry"]


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, eq=False)
class Geometry:
    """Placements on a ``width`` × ``height`` board for the ship ``sizes`` (distinct, largest first).

    Per size ``s``: ``masks[s][i]`` the cell mask of placement ``i``; ``rings[s][i]`` the cells around it (8
    neighbours of its cells, not its own, cut at the edge); ``cells[s][i]`` its cell indices; ``cover[s][c]`` the
    placement mask of the placements of size ``s`` covering cell ``c``; ``every[s]`` all of them;
    ``conflict[s][i][j]`` the placement mask of the placements of size ``sizes[j]`` that cannot stand beside
    placement ``i`` of size ``s`` (overlap, and with ``touching`` false, touch by side or corner).
    ``around[c]``: the cell mask of the 8 neighbours of cell ``c``; ``side[c]``: of the 4 side neighbours.
    """

    width: int
    height: int
    sizes: tuple[int, ...]
    touching: bool
    masks: dict[int, tuple[int, ...]]
    rings: dict[int, tuple[int, ...]]
    cells: dict[int, tuple[tuple[int, ...], ...]]
    cover: dict[int, tuple[int, ...]]
    every: dict[int, int]
    conflict: dict[int, tuple[tuple[int, ...], ...]]
    around: tuple[int, ...]
    side: tuple[int, ...]

    @property
    def area(self) -> int:
        """Cells on the board."""
        return self.width * self.height

    @property
    def full(self) -> int:
        """The cell mask of the whole board."""
        return (1 << self.area) - 1

    def index(self, cell: tuple[int, int]) -> int:
        """The bit index of ``(row, col)``."""
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> tuple[int, int]:
        """The ``(row, col)`` of a bit index."""
        return divmod(index, self.width)


def _neighbours(width: int, height: int, index: int, diagonal: bool) -> int:
    row, col = divmod(index, width)
    mask = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and (diagonal or not (dr and dc)):
                r, c = row + dr, col + dc
                if 0 <= r < height and 0 <= c < width:
                    mask |= 1 << (r * width + c)
    return mask


@lru_cache(maxsize=16)
def geometry(width: int, height: int, sizes: tuple[int, ...], touching: bool) -> Geometry:
    """The (cached) :class:`Geometry` of a board and a set of ship sizes (any order, repeats allowed)."""
    distinct = tuple(sorted(set(sizes), reverse=True))
    area = width * height
    around = tuple(_neighbours(width, height, i, True) for i in range(area))
    side = tuple(_neighbours(width, height, i, False) for i in range(area))
    masks: dict[int, tuple[int, ...]] = {}
    rings: dict[int, tuple[int, ...]] = {}
    cells: dict[int, tuple[tuple[int, ...], ...]] = {}
    cover: dict[int, tuple[int, ...]] = {}
    for s in distinct:
        found: list[tuple[int, ...]] = []
        for row in range(height):
            for col in range(width - s + 1):
                found.append(tuple(row * width + col + k for k in range(s)))
        if s > 1:  # a one-deck ship has one placement per cell, not two
            for row in range(height - s + 1):
                for col in range(width):
                    found.append(tuple((row + k) * width + col for k in range(s)))
        cells[s] = tuple(found)
        masks[s] = tuple(sum(1 << i for i in cs) for cs in found)
        ring_list = []
        for cs, m in zip(found, masks[s], strict=True):
            ring = 0
            for i in cs:
                ring |= around[i]
            ring_list.append(ring & ~m)
        rings[s] = tuple(ring_list)
        per_cell = [0] * area
        for p, cs in enumerate(found):
            for i in cs:
                per_cell[i] |= 1 << p
        cover[s] = tuple(per_cell)
    conflict: dict[int, tuple[tuple[int, ...], ...]] = {}
    for s in distinct:
        rows = []
        for p, m in enumerate(masks[s]):
            zone = m if touching else m | rings[s][p]
            zone_cells = bits(zone)
            rows.append(tuple(_union(cover[t], zone_cells) for t in distinct))
        conflict[s] = tuple(rows)
    every = {s: (1 << len(masks[s])) - 1 for s in distinct}
    return Geometry(width, height, distinct, touching, masks, rings, cells, cover, every, conflict, around, side)


def _union(table: tuple[int, ...], indices: list[int]) -> int:
    out = 0
    for i in indices:
        out |= table[i]
    return out
