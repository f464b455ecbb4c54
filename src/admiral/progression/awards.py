"""Awards and qualification badges (PROGRESSION.md §5): the table in one place.

Every award has three degrees. Here a degree is a number: 0 = not earned, 1 = III (lowest), 2 = II,
3 = I (highest); a higher degree replaces the lower one. Counters are in the award's own unit (units,
battles, games, thousands of tonnes for «Тоннаж»).

>>> award_degrees({"torpedo": 15, "veteran": 9})["torpedo"], award_degrees({"veteran": 9})["veteran"]
(2, 0)
>>> s = award_progress("torpedo", 9)
>>> s.degree, s.degree_name, s.next_threshold, s.progress
(1, 'III', 15, 0.5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .ranks import N_

__all__ = ["AWARDS", "AWARDS_BY_ID", "DEGREE_NAMES", "NOT_EARNED", "Award", "AwardStanding", "award_degrees",
           "award_progress", "award_standings"]  # fmt: skip

#: «не получен» agrees with the award's noun (the first word of its name): a medal is feminine, an order and a
#: badge masculine.
NOT_EARNED = {"Медаль": N_("не получена"), "Орден": N_("не получен"), "Знак": N_("не получен")}

#: Degree number → its Roman name (0 has none).
DEGREE_NAMES = {0: "", 1: "III", 2: "II", 3: "I"}


@dataclass(frozen=True, slots=True)
class Award:
    """One row of the awards table: ``id``, ``side`` (``left``: medals and orders, ``right``: badges),
    Russian ``name``, Russian ``condition`` (what it counts, for the UI; both msgids the UI translates),
    ``thresholds`` for III, II, I."""

    id: str
    side: str
    name: str
    condition: str
    thresholds: tuple[int, int, int]

    @property
    def not_earned(self) -> str:
        """What the profile says before the first degree, agreeing with the award's noun (a msgid the UI
        translates): «не получена» for a medal, «не получен» for an order or a badge.

        >>> AWARDS_BY_ID["torpedo"].not_earned, AWARDS_BY_ID["nuclear"].not_earned, AWARDS_BY_ID["veteran"].not_earned
        ('не получена', 'не получен', 'не получен')
        """
        return NOT_EARNED[self.name.split()[0]]

    def degree(self, count: int) -> int:
        """Degree reached with ``count``: 0…3 (3 = I)."""
        return sum(1 for t in self.thresholds if count >= t)

    def to_dict(self) -> dict:
        """JSON-ready: ``{"id", "side", "name", "condition", "thresholds": [III, II, I]}``."""
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "condition": self.condition,
            "thresholds": list(self.thresholds),
        }


#: The awards of PROGRESSION.md §5 [decision], in the table's order.
AWARDS: tuple[Award, ...] = (
    Award("torpedo", "left", N_("Медаль «Торпедная атака»"),
          N_("Вражеские единицы, уничтоженные своими торпедными выстрелами"), (3, 15, 50)),
    Award("submarine", "left", N_("Медаль «Подводный удар»"),
          N_("Выигранные бои, в которых объявлены только свои подводные лодки (ПЛ, КРПЛ)"), (5, 25, 100)),
    Award("aviation", "left", N_("Медаль «Морская авиация»"),
          N_("Вражеские единицы, уничтоженные своими авиаударами"), (5, 25, 100)),
    Award("mines", "left", N_("Медаль «Минная война»"),
          N_("Вражеские единицы, уничтоженные своими М и СМ, и вражеские мины, уничтоженные своими ТР"),
          (5, 25, 100)),
    Award("nuclear", "left", N_("Орден «Ядерный удар»"),
          N_("Вражеские единицы, уничтоженные взрывом своей атомной бомбы (кто бы её ни взорвал)"), (5, 20, 60)),
    Award("base_assault", "left", N_("Орден «Штурм базы»"), N_("Уничтоженные вражеские базы"), (1, 10, 40)),
    Award("base_defence", "left", N_("Орден «Оборона базы»"), N_("Победы, в которых уцелели обе свои базы"),
          (1, 10, 40)),
    Award("formation", "left", N_("Орден «Соединение»"),
          N_("Выигранные бои, в которых объявлено соединение из двух или трёх кораблей"), (5, 30, 120)),
    Award("veteran", "right", N_("Знак «Ветеран»"), N_("Сыгранные партии"), (10, 100, 500)),
    Award("winner", "right", N_("Знак «Победитель»"), N_("Выигранные партии"), (5, 50, 250)),
    Award("hunter", "right", N_("Знак «Охотник»"), N_("Уничтоженные вражеские единицы, любым способом"),
          (100, 1_000, 5_000)),
    Award("tonnage", "right", N_("Знак «Тоннаж»"), N_("Потопленный тоннаж, тысяч тонн"), (500, 5_000, 25_000)),
)  # fmt: skip
AWARDS_BY_ID: dict[str, Award] = {a.id: a for a in AWARDS}


@dataclass(frozen=True, slots=True)
class AwardStanding:
    """Where a commander stands on one award: ``count``, ``degree`` 0…3, the ``next_threshold`` (``None`` at
    degree I) and ``progress`` 0…1 from the current degree's threshold (0 before III) to the next (1.0 at I)."""

    award: Award
    count: int
    degree: int
    next_threshold: int | None
    progress: float

    @property
    def degree_name(self) -> str:
        """``III``, ``II``, ``I``, or ``""`` before the first degree."""
        return DEGREE_NAMES[self.degree]

    def to_dict(self) -> dict:
        """JSON-ready: ``{"id", "count", "degree", "degree_name", "next_threshold", "progress"}``."""
        return {
            "id": self.award.id,
            "count": self.count,
            "degree": self.degree,
            "degree_name": self.degree_name,
            "next_threshold": self.next_threshold,
            "progress": self.progress,
        }


def award_progress(award_id: str, count: int) -> AwardStanding:
    """The standing on award ``award_id`` with counter ``count`` (PROGRESSION.md §5).

    :raises KeyError: for an unknown award id.
    """
    award = AWARDS_BY_ID[award_id]
    degree = award.degree(count)
    if degree == 3:
        return AwardStanding(award, count, 3, None, 1.0)
    low = 0 if degree == 0 else award.thresholds[degree - 1]
    high = award.thresholds[degree]
    return AwardStanding(award, count, degree, high, max(0, count - low) / (high - low))


def award_standings(counters: Mapping[str, int]) -> list[AwardStanding]:
    """Standings on every award in table order; a missing counter is 0 (PROGRESSION.md §5)."""
    return [award_progress(a.id, counters.get(a.id, 0)) for a in AWARDS]


def award_degrees(counters: Mapping[str, int]) -> dict[str, int]:
    """``{award_id: degree 0…3}`` for every award (3 = I); a missing counter is 0 (PROGRESSION.md §5)."""
    return {a.id: a.degree(counters.get(a.id, 0)) for a in AWARDS}
