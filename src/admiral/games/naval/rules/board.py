"""The map of «Военно-морская игра» (NAVAL_GAME.md §1): points, facings, land and coastal guns.

A :data:`Point` is an ``int``: ``row * 9 + col``, both 0-based (column 0 is ``a``, row 0 is ``1``, South's coast).
Its wire name is the column letter and the row number, ``e1``…``i13``. Sorting points sorts them row by row from
South's coast.

A :class:`Facing` is one of the four directions along the map's lines, named by the compass of the map as it is
printed with South's coast at the bottom: ``n`` toward row 13 (North's coast), ``e`` toward column ``i``, ``s``
toward row 1, ``w`` toward column ``a``. A turn to the right is clockwise (``n`` → ``e`` → ``s`` → ``w``).

**[decision] Four orthogonal facings, no diagonals.** The rulebook (seed 003) lets a ship move "in any direction,
but always bow first", and a turn of the bow left or right is one move while "turning completely around counts as
two moves" (§3: a turn is 90°). Every ship starts with its bow toward the enemy (§2), along the map's lines; with
only 90° turns from there a ship can face only the four orthogonal directions, and a diagonal facing can never
arise. So a ship faces ``n``, ``e``, ``s`` or ``w`` and steps to the orthogonally adjacent point its bow points at;
"any direction" is read as "after turning", which is why turns exist.

>>> name(parse_point("e1")), name(MAP.rotate(parse_point("c6"))), [name(p) for p in sorted(LAND)]
('e1', 'g8', ['c6', 'c7', 'e7', 'g7', 'g8'])
>>> name(MAP.ahead(parse_point("e1"), Facing.N)), MAP.ahead(parse_point("e1"), Facing.S) is None
('e2', True)
>>> Facing.N.right, Facing.N.left, Facing.W.right
(<Facing.E: 1>, <Facing.W: 3>, <Facing.N: 0>)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from ...common import IllegalAction

__all__ = [
    "COLUMNS", "GUNS", "HEIGHT", "LAND", "MAP", "POINTS", "WIDTH", "Facing", "Map", "Point", "name", "parse_point",
    "point_at",
]  # fmt: skip

Point = int
#: Columns a–i (9) and rows 1–13 (§1).
WIDTH, HEIGHT = 9, 13
#: Column letters, West to East.
COLUMNS = "abcdefghi"
_POINT_RE = re.compile(r"([a-z])(\d{1,3})")


def point_at(col: int, row: int) -> Point:
    """The point at 0-based ``col`` (0 = ``a``) and ``row`` (0 = ``1``). No bounds check."""
    return row * WIDTH + col


def name(point: Point) -> str:
    """Wire name of ``point``: ``e1``."""
    return f"{COLUMNS[point % WIDTH]}{point // WIDTH + 1}"


def parse_point(text: str) -> Point:
    """A point of the map from its name (a column letter ``a``–``i`` and a row ``1``–``13``, either case, no
    leading zero; white space around it ignored).

    :raises IllegalAction: ``off_map`` for a well-formed name outside the map (``j5``, ``a14``, ``a0``);
        ``bad_point`` for anything else.

    >>> parse_point(" E1 "), parse_point("i13")
    (4, 116)
    >>> parse_point("j1")
    Traceback (most recent call last):
    ...
    admiral.games.common.IllegalAction: 'j1' is off the map: columns a–i, rows 1–13 (§1)
    """
    m = _POINT_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if m is None or (m.group(2).startswith("0") and m.group(2) != "0"):
        raise IllegalAction("bad_point", f"{text!r} is not a point: a column letter and a row number, e.g. 'e1'")
    col, row = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if not (0 <= col < WIDTH and 0 <= row < HEIGHT):
        raise IllegalAction("off_map", f"{text.strip()!r} is off the map: columns a–i, rows 1–13 (§1)")
    return point_at(col, row)


class Facing(IntEnum):
    """Where a bow points (module docstring): ``N`` (toward row 13), ``E``, ``S``, ``W``; ``letter`` is its wire
    name."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        """``"n"``, ``"e"``, ``"s"``, ``"w"``."""
        return self.name.lower()

    @property
    def delta(self) -> tuple[int, int]:
        """``(dcol, drow)`` of one step this way."""
        return _DELTAS[self]

    @property
    def right(self) -> Facing:
        """The facing after a 90° turn to the right (clockwise)."""
        return Facing((self + 1) % 4)

    @property
    def left(self) -> Facing:
        """The facing after a 90° turn to the left."""
        return Facing((self + 3) % 4)

    @property
    def back(self) -> Facing:
        """The opposite facing (a half-turn: two turns, §3)."""
        return Facing((self + 2) % 4)

    @classmethod
    def parse(cls, letter: str) -> Facing:
        """A facing from its letter. :raises IllegalAction: ``bad_facing``."""
        for f in cls:
            if isinstance(letter, str) and letter.strip().lower() == f.letter:
                return f
        raise IllegalAction("bad_facing", f"{letter!r} is not a facing: n, e, s or w")


_DELTAS = {Facing.N: (0, 1), Facing.E: (1, 0), Facing.S: (0, -1), Facing.W: (-1, 0)}

#: Every point, South's coast first, West to East.
POINTS: tuple[Point, ...] = tuple(range(WIDTH * HEIGHT))
#: Land, which no ship enters or crosses (§1).
LAND: frozenset[Point] = frozenset(parse_point(p) for p in ("c6", "c7", "e7", "g7", "g8"))
#: Coastal-gun points by the side whose guns they are (0 South, 1 North): South's fire on North's ships (§1, §5).
GUNS: tuple[frozenset[Point], frozenset[Point]] = (
    frozenset(parse_point(p) for p in ("b3", "e3", "h3")),
    frozenset(parse_point(p) for p in ("b11", "e11", "h11")),
)


@dataclass(frozen=True)
class Map:
    """The map's geometry (§1): :meth:`ahead` (the point one step from a point along a facing, ``None`` off the
    map), :meth:`rotate` (the half-turn image, which maps the map onto itself, land and guns included)."""

    width: int = WIDTH
    height: int = HEIGHT

    def ahead(self, point: Point, facing: Facing) -> Point | None:
        """The point one step from ``point`` along ``facing``; ``None`` off the map (land is still returned)."""
        dc, dr = facing.delta
        col, row = point % WIDTH + dc, point // WIDTH + dr
        if 0 <= col < self.width and 0 <= row < self.height:
            return point_at(col, row)
        return None

    @staticmethod
    def rotate(point: Point) -> Point:
        """The half-turn image of ``point`` (``a1`` ↔ ``i13``, ``e7`` stays)."""
        return WIDTH * HEIGHT - 1 - point

    @staticmethod
    def direction(src: Point, dst: Point) -> Facing | None:
        """The facing that leads from ``src`` to the adjacent ``dst`` in one step; ``None`` if ``dst`` is not
        orthogonally adjacent to ``src``."""
        dc, dr = dst % WIDTH - src % WIDTH, dst // WIDTH - src // WIDTH
        for f, d in _DELTAS.items():
            if d == (dc, dr):
                return f
        return None

    def to_dict(self) -> dict:
        """What a client draws: ``{"width", "height", "columns", "rows", "land", "guns": {side: [points]}}``."""
        return {
            "width": self.width,
            "height": self.height,
            "columns": COLUMNS,
            "rows": [str(r + 1) for r in range(self.height)],
            "land": [name(p) for p in sorted(LAND)],
            "guns": {"south": [name(p) for p in sorted(GUNS[0])], "north": [name(p) for p in sorted(GUNS[1])]},
        }


#: The one map of the game (§1).
MAP = Map()
