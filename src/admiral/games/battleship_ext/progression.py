"""Experience, levels and points of «Морской бой: расширенный» (BATTLESHIP.md C6, D11; ``docs/points.md``): pure
functions over one side's figures from :meth:`~.ruleset.ExtendedRuleset.game_stats`.

- **XP** (C6 decision): 1 per enemy deck hit, 3 × size per enemy ship sunk, credited at the end of a game that counts
  (D11; an aborted game gives nothing, as for points). A guest earns it like a registered commander (its career
  lives with the guest commander).
- **Level** by the thresholds :data:`THRESHOLDS` (levels 1–10), fixed at the start of each game (D11:
  :func:`level_of` of the career the house reads when play starts).
- **Points** exactly as classic «Морской бой»'s (:func:`admiral.games.battleship.progression.points`), over this
  board's fleet.

>>> stats = {"outcome": "win", "reason": "fleet_sunk", "counts": True, "shots": 60, "hits": 20, "decks": 20,
...          "decks_lost": 5, "sunk": 10, "xp": 80}
>>> career = fold({}, stats)
>>> career["xp"], level_of(career["xp"]), career["games"]
(80, 3, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiral.games.battleship import progression as classic
from admiral.i18n import _

__all__ = [
    "CAREER_VERSION", "MAX_LEVEL", "THRESHOLDS", "career_level", "career_stats", "fold", "level_of", "next_threshold",
    "outcome", "points", "tier_of", "xp_of",
]  # fmt: skip

#: XP needed for levels 1…10 (C6 decision): level n from ``THRESHOLDS[n - 1]`` on.
THRESHOLDS: tuple[int, ...] = (0, 30, 80, 150, 250, 380, 550, 760, 1000, 1300)
#: The highest level.
MAX_LEVEL = len(THRESHOLDS)
#: XP per enemy deck hit and per deck of an enemy ship sunk (C6 decision: 1, and 3 × size).
XP_PER_HIT, XP_PER_SUNK_DECK = 1, 3
#: Version of :func:`fold`'s form.
CAREER_VERSION = 1
_TOTALS = ("xp", "games", "shots", "hits", "sunk")

outcome = classic.outcome
points = classic.points


def xp_of(hits: int, sunk_sizes: list[int] | tuple[int, ...]) -> int:
    """The XP of one game (C6): ``hits`` enemy decks hit (area attacks' hits included), and the sizes of the enemy
    ships sunk. Mines and minesweepers count for nothing (D5).

    >>> xp_of(20, [4, 3, 3, 2, 2, 2, 1, 1, 1, 1])  # a whole classic fleet: 20 + 3 × 20
    80
    """
    return XP_PER_HIT * hits + XP_PER_SUNK_DECK * sum(sunk_sizes)


def level_of(xp: int) -> int:
    """The level (1…10) of ``xp`` experience points (C6 thresholds).

    >>> [level_of(x) for x in (0, 29, 30, 79, 80, 1299, 1300, 99999)]
    [1, 1, 2, 2, 3, 9, 10, 10]

    :raises ValueError: for a negative or non-integer ``xp``.
    """
    _count(xp, "xp")
    return sum(1 for t in THRESHOLDS if xp >= t)


def next_threshold(xp: int) -> int | None:
    """The XP of the next level, ``None`` at level 10.

    >>> next_threshold(0), next_threshold(30), next_threshold(1300)
    (30, 80, None)
    """
    level = level_of(xp)
    return None if level >= MAX_LEVEL else THRESHOLDS[level]


def tier_of(level: int) -> int:
    """The look of the ability icons at ``level`` (C7): tier 1 for levels 1–3, 2 for 4–6, 3 for 7–9, 4 for 10.

    >>> [tier_of(n) for n in (1, 3, 4, 6, 7, 9, 10)]
    [1, 1, 2, 2, 3, 3, 4]

    :raises ValueError: for a level outside 1…10.
    """
    if type(level) is not int or not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"a level is 1…{MAX_LEVEL}, not {level!r}")
    return 4 if level == MAX_LEVEL else (level - 1) // 3 + 1


def career_level(career: Mapping[str, Any] | None) -> int:
    """The level a commander of ``career`` plays at (D11: fixed when play starts); 1 with no career yet.

    :raises ValueError: for a career it cannot read."""
    return level_of(_read(career or {})["xp"])


def fold(career: Mapping[str, Any], stats: Mapping[str, Any]) -> dict[str, Any]:
    """The commander's career with one more game that counts: ``{"version", "xp", "games", "shots", "hits",
    "sunk"}`` — experience, games counted, shots fired, enemy decks hit, enemy ships sunk. ``stats``: one side's
    figures with ``xp`` (:func:`xp_of`), ``shots``, ``hits``, ``sunk``.

    :raises ValueError: for a form of a newer version or a count that is not a non-negative integer.
    """
    old = _read(career)
    new: dict[str, Any] = {"version": CAREER_VERSION}
    for name in _TOTALS:
        new[name] = old[name] + (1 if name == "games" else _count(stats[name], name))
    return new


def career_stats(career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The lines of the profile's block: ``(key, label, value)`` in the current language — level, experience, XP to
    the next level, then shots, hits, accuracy and ships sunk.

    >>> [v for _k, _l, v in career_stats({"xp": 95, "games": 2, "shots": 90, "hits": 30, "sunk": 12})]
    ['3', '95', '55', '90', '30', '33 %', '12']
    >>> career_stats({"xp": 1400})[2][2]
    '—'
    """
    c = _read(career)
    nxt = next_threshold(c["xp"])
    accuracy = f"{round(100 * c['hits'] / c['shots'])} %" if c["shots"] else "—"
    return [
        ("level", _("Уровень"), str(level_of(c["xp"]))),
        ("xp", _("Опыт"), str(c["xp"])),
        ("next_level", _("До следующего уровня"), "—" if nxt is None else str(nxt - c["xp"])),
        ("shots", _("Выстрелов"), str(c["shots"])),
        ("hits", _("Попаданий"), str(c["hits"])),
        ("accuracy", _("Точность"), accuracy),
        ("sunk", _("Потоплено кораблей"), str(c["sunk"])),
    ]


def _read(career: Mapping[str, Any]) -> dict[str, int]:
    if not isinstance(career, Mapping):
        raise ValueError("a career must be a JSON object")
    version = career.get("version", CAREER_VERSION)
    if type(version) is not int or version > CAREER_VERSION:
        raise ValueError(f"career form version {version!r} is newer than {CAREER_VERSION}")
    return {name: _count(career.get(name, 0), name) for name in _TOTALS}


def _count(value: object, name: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
    return value
