"""Fleet ranks (флотские звания) by accumulated points (PROGRESSION.md §3): the table in one place.

>>> rank_for(0).name, rank_for(199).number, rank_for(200).name
('Матрос', 1, 'Старший матрос')
>>> r = rank_for(650)
>>> r.name, r.next.name, r.progress
('Старшина 2 статьи', 'Старшина 1 статьи', 0.375)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

__all__ = ["RANKS", "N_", "Rank", "RankDef", "rank_for"]


def N_(msgid: str) -> str:
    """Mark a Russian name for the translation catalogs (``admiral i18n update`` extracts it); the UI translates
    it where it shows it. Defined here, not imported from ``admiral.i18n``: progression imports only the engine."""
    return msgid


@dataclass(frozen=True, slots=True)
class RankDef:
    """One row of the ranks table: ``number`` 1…19, Russian ``name`` (a msgid: the UI translates it),
    ``from_points`` needed."""

    number: int
    name: str
    from_points: int

    def to_dict(self) -> dict:
        """JSON-ready: ``{"number": 2, "name": "Старший матрос", "from_points": 200}``."""
        return {"number": self.number, "name": self.name, "from_points": self.from_points}


_TABLE = (
    (N_("Матрос"), 0), (N_("Старший матрос"), 200), (N_("Старшина 2 статьи"), 500), (N_("Старшина 1 статьи"), 900),
    (N_("Главный старшина"), 1_400), (N_("Главный корабельный старшина"), 2_000), (N_("Мичман"), 2_800),
    (N_("Старший мичман"), 3_800), (N_("Младший лейтенант"), 5_000), (N_("Лейтенант"), 6_500),
    (N_("Старший лейтенант"), 8_500), (N_("Капитан-лейтенант"), 11_000), (N_("Капитан 3 ранга"), 14_000),
    (N_("Капитан 2 ранга"), 18_000), (N_("Капитан 1 ранга"), 23_000), (N_("Контр-адмирал"), 29_000),
    (N_("Вице-адмирал"), 36_000), (N_("Адмирал"), 45_000), (N_("Адмирал флота"), 56_000),
)  # fmt: skip
#: The ranks of PROGRESSION.md §3 [decision], lowest first.
RANKS: tuple[RankDef, ...] = tuple(RankDef(i, name, pts) for i, (name, pts) in enumerate(_TABLE, start=1))
_FROM = [r.from_points for r in RANKS]


@dataclass(frozen=True, slots=True)
class Rank:
    """A commander's standing (PROGRESSION.md §3): the rank held at ``points``, the ``next`` rank
    (``None`` at the top) and ``progress`` 0…1 from this rank's threshold to the next one's (1.0 at the top)."""

    number: int
    name: str
    from_points: int
    points: int
    next: RankDef | None
    progress: float

    def to_dict(self) -> dict:
        """JSON-ready: ``{"number", "name", "from_points", "points", "next": {…}|None, "progress"}``."""
        return {
            "number": self.number,
            "name": self.name,
            "from_points": self.from_points,
            "points": self.points,
            "next": None if self.next is None else self.next.to_dict(),
            "progress": self.progress,
        }


def rank_for(points: int) -> Rank:
    """The rank held with ``points`` accumulated points (PROGRESSION.md §3).

    :raises ValueError: for negative points.
    """
    if points < 0:
        raise ValueError(f"points cannot be negative: {points}")
    i = bisect_right(_FROM, points) - 1
    held = RANKS[i]
    nxt = RANKS[i + 1] if i + 1 < len(RANKS) else None
    progress = 1.0 if nxt is None else (points - held.from_points) / (nxt.from_points - held.from_points)
    return Rank(held.number, held.name, held.from_points, points, nxt, progress)
