"""Ships, seniority, the side a strike lands on, and the start (NAVAL_GAME.md §2, §4).

A :class:`Kind` is a ship class with its rank (1 highest) and its code (``B`` battleship, ``C`` cruiser, ``G``
gunboat, ``T`` torpedo boat, ``M`` minesweeper, ``S`` submarine). Seniority (:func:`is_senior`) follows the rank,
except the submarine: senior to the battleship and the cruisers, junior to everyone else (§4). Which side of a
target a strike lands on follows from the target's facing (:func:`struck_side`), and whether the strike is allowed
from that and seniority (:func:`may_strike`).

>>> is_senior(Kind.SUBMARINE, Kind.BATTLESHIP), is_senior(Kind.BATTLESHIP, Kind.SUBMARINE)
(True, False)
>>> struck_side(Facing.N, Facing.S), struck_side(Facing.N, Facing.E), struck_side(Facing.N, Facing.N)
(<Struck.BOW: 'bow'>, <Struck.BROADSIDE: 'broadside'>, <Struck.STERN: 'stern'>)
>>> may_strike(Kind.CRUISER, Kind.GUNBOAT, Struck.BOW), may_strike(Kind.GUNBOAT, Kind.CRUISER, Struck.BOW)
(True, False)
>>> from .board import name
>>> [(name(p), k.code) for p, k in sorted(START[0].items())][:4]
[('a1', 'M'), ('b1', 'T'), ('c1', 'T'), ('d1', 'C')]
"""

from __future__ import annotations

from enum import Enum, StrEnum

from .board import MAP, Facing, Point, parse_point

__all__ = [
    "FLEET", "MINES", "START", "START_FACING", "Kind", "Struck", "is_senior", "may_strike", "struck_side",
]  # fmt: skip


class Kind(Enum):
    """A ship class (§2): ``rank`` (1 highest), ``code`` (one capital letter), ``count`` per fleet, ``en`` its
    English name."""

    BATTLESHIP = (1, "B", 1, "battleship")
    CRUISER = (2, "C", 2, "cruiser")
    GUNBOAT = (3, "G", 3, "gunboat")
    TORPEDO_BOAT = (4, "T", 4, "torpedo boat")
    MINESWEEPER = (5, "M", 1, "minesweeper")
    SUBMARINE = (6, "S", 1, "submarine")

    def __init__(self, rank: int, code: str, count: int, en: str) -> None:
        self.rank = rank
        self.code = code
        self.count = count
        self.en = en

    @classmethod
    def of_code(cls, code: str) -> Kind | None:
        """The kind with ``code`` (``"B"``…), ``None`` if there is none."""
        return _BY_CODE.get(code)

    def __repr__(self) -> str:
        return f"Kind.{self.name}"


_BY_CODE = {k.code: k for k in Kind}
#: The kinds in rank order, each with its count (§2): 12 ships.
FLEET: tuple[Kind, ...] = tuple(k for k in Kind for _ in range(k.count))
#: Mines in each player's reserve at the start (§2).
MINES = 3


def is_senior(a: Kind, b: Kind) -> bool:
    """Whether ``a`` is senior to ``b`` (§4): the lower rank, except that the submarine is senior to the battleship
    and the cruisers and junior to every other kind (and equal to a submarine)."""
    if a is b:
        return False
    if a is Kind.SUBMARINE:
        return b in (Kind.BATTLESHIP, Kind.CRUISER)
    if b is Kind.SUBMARINE:
        return a not in (Kind.BATTLESHIP, Kind.CRUISER)
    return a.rank < b.rank


class Struck(StrEnum):
    """The side of a target a strike lands on (§4): «в нос» ``bow``, «в борт» ``broadside``, ``stern``."""

    BOW = "bow"
    BROADSIDE = "broadside"
    STERN = "stern"


def struck_side(striker: Facing, target: Facing) -> Struck:
    """The side struck by a ship facing ``striker`` (it strikes the point ahead of it) on a target facing
    ``target`` (§4): the bow when the target faces the striker, the stern when it faces away, else the broadside."""
    if target is striker.back:
        return Struck.BOW
    if target is striker:
        return Struck.STERN
    return Struck.BROADSIDE


def may_strike(striker: Kind, target: Kind, side: Struck) -> bool:
    """Whether ``striker`` may strike ``target`` on ``side`` (§4): never the stern; a senior ship the bow or the
    broadside; equal ranks and a junior against a senior the broadside only."""
    if side is Struck.STERN:
        return False
    return side is Struck.BROADSIDE or is_senior(striker, target)


def _south_start() -> dict[Point, Kind]:
    where = {
        Kind.BATTLESHIP: "e1", Kind.CRUISER: "d1 f1", Kind.GUNBOAT: "d2 e2 f2", Kind.TORPEDO_BOAT: "b1 c1 g1 h1",
        Kind.MINESWEEPER: "a1", Kind.SUBMARINE: "i1",
    }  # fmt: skip
    return {parse_point(p): k for k, points in where.items() for p in points.split()}


#: The start per side (0 South, 1 North): point → kind (§2; North's is the half-turn image of South's).
START: tuple[dict[Point, Kind], dict[Point, Kind]] = (
    _south_start(),
    {MAP.rotate(p): k for p, k in _south_start().items()},
)
#: Every ship starts with its bow toward the enemy (§2): South's face ``n``, North's ``s``.
START_FACING: tuple[Facing, Facing] = (Facing.N, Facing.S)
