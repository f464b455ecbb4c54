"""Points and per-commander totals of «Военно-морская игра» (``docs/points.md``, issue 21): pure functions over one
side's figures from :meth:`~.ruleset.NavalRuleset.game_stats`.

    points = round( (win_bonus + 30 × sunk / ships + 20 × (ships − ships_lost) / ships)
                    × opponent_factor × min(1, turns / ENGAGEMENT_TURNS) )

``ships`` is a fleet (12, NAVAL_GAME.md §2), ``sunk`` the enemy ships lost (struck, or sunk by a gun or a mine while
this side was its enemy), ``ships_lost`` its own, ``turns`` its orders. 0 for the side that resigned or abandoned;
nothing at all for an aborted game (a side gave fewer than :data:`MIN_TURNS` orders). Exact arithmetic, rounded half
up, as the other games'.

>>> win = {"outcome": "win", "reason": "fleet_destroyed", "counts": True, "turns": 80, "sunk": 12, "ships": 12,
...        "ships_lost": 6, "strikes": 9}
>>> points(win, None)   # 100 + 30 + 20 × 6/12
140
>>> points({**win, "turns": 10}, 3)   # 140 × 0.6 × 10/40
21
>>> fold({}, win)
{'version': 1, 'turns': 80, 'strikes': 9, 'sunk': 12, 'fastest_win': 80}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from admiral.i18n import _, ngettext
from admiral.progression.points import career_count, counted_outcome, opponent_factor

__all__ = [
    "CAREER_VERSION", "ENGAGEMENT_TURNS", "KEPT_POINTS", "MIN_TURNS", "SUNK_POINTS", "WIN_BONUS", "ZERO_REASONS",
    "career_stats", "fold", "outcome", "points",
]  # fmt: skip

#: Orders each side must have given for a game to count (as the other games': fewer = "aborted").
MIN_TURNS = 2
#: Bonus by outcome: a draw (by agreement or the quiet sea) is worth 30 % of a win, as in «Адмирал».
WIN_BONUS = {"win": 100, "draw": 30, "loss": 0}
#: Points for sinking the whole enemy fleet (a share for a part of it).
SUNK_POINTS = 30
#: Points for keeping the whole own fleet afloat (a share for a part of it).
KEPT_POINTS = 20
#: Orders that earn the full points (PROGRESSION.md §2's engagement ``e``): the fleets start 12 rows apart, so a
#: whole fleet cannot be destroyed in much fewer; as «Адмирал»'s 40.
ENGAGEMENT_TURNS = 40
#: How a side's game ends when it earns 0 whatever it did: it resigned or abandoned the game.
ZERO_REASONS = frozenset({"resign", "abandon"})
#: Version of :func:`fold`'s form.
CAREER_VERSION = 1
_TOTALS = ("turns", "strikes", "sunk")


#: ``"win"``, ``"draw"`` or ``"loss"`` of a finished game that counts, ``None`` otherwise (the house's rule).
outcome = counted_outcome


def points(stats: Mapping[str, Any], ai_level: int | None) -> int:
    """Points one commander earns for a game of «Военно-морская игра» (module docstring): a non-negative integer.

    ``stats``: one side's figures (``outcome``, ``reason``, ``counts``, ``turns``, ``sunk``, ``ships``,
    ``ships_lost``); ``ai_level``: the opponent's AI level 1…5, ``None`` for a human.

    >>> lost = {"outcome": "loss", "reason": "fleet_destroyed", "counts": True, "turns": 60, "sunk": 4, "ships": 12,
    ...         "ships_lost": 12}
    >>> points(lost, None)  # 30 × 4/12
    10
    >>> points({**lost, "reason": "resign", "ships_lost": 3}, None)
    0

    :raises ValueError: for an AI level outside 1…5 or an unknown outcome.
    """
    factor = Fraction(opponent_factor(ai_level)).limit_denominator(100)
    result = outcome(stats)
    if result is None or (result == "loss" and stats.get("reason") in ZERO_REASONS):
        return 0
    ships = int(stats["ships"])
    if ships == 0:
        return 0
    kept = ships - int(stats["ships_lost"])
    base = WIN_BONUS[result] + Fraction(SUNK_POINTS * int(stats["sunk"]), ships) + Fraction(KEPT_POINTS * kept, ships)
    engagement = min(Fraction(1), Fraction(int(stats["turns"]), ENGAGEMENT_TURNS))
    value = base * factor * engagement
    return int(value + Fraction(1, 2))  # half up; value ≥ 0


def fold(career: Mapping[str, Any], stats: Mapping[str, Any]) -> dict[str, Any]:
    """The commander's «Военно-морская игра» totals ``career`` (this function's earlier answer, ``{}`` at first) with
    one more game that counts: ``{"version", "turns", "strikes", "sunk", "fastest_win"}`` — orders given, enemy ships
    sunk by striking, enemy ships lost by any cause, and the fewest orders of a win by destroying the whole fleet
    (``None`` before the first). Games, wins, draws, losses and points are the house's own counters.

    :raises ValueError: for a form of a newer version or a count that is not a non-negative integer.
    """
    old = _read(career)
    new: dict[str, Any] = {"version": CAREER_VERSION}
    for name in _TOTALS:
        new[name] = old[name] + career_count(stats.get(name, 0), name)
    fastest = old["fastest_win"]
    if stats.get("outcome") == "win" and stats.get("reason") == "fleet_destroyed":
        turns = career_count(stats["turns"], "turns")
        fastest = turns if fastest is None else min(fastest, turns)
    new["fastest_win"] = fastest
    return new


def career_stats(career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The lines of the profile's «Военно-морская игра» block: ``(key, label, value)`` in the current language —
    orders, strikes, enemy ships sunk, the fastest win.

    >>> [value for _key, _label, value in career_stats({"turns": 150, "strikes": 20, "sunk": 24, "fastest_win": 61})]
    ['150', '20', '24', '61 ход']
    """
    c = _read(career)
    fastest = c["fastest_win"]
    return [
        ("turns", _("Ходов"), str(c["turns"])),
        ("strikes", _("Ударов"), str(c["strikes"])),
        ("sunk", _("Потоплено кораблей"), str(c["sunk"])),
        (
            "fastest_win",
            _("Самая быстрая победа"),
            "—" if fastest is None else ngettext("%(num)s ход", "%(num)s ходов", fastest),
        ),
    ]


def _read(career: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(career, Mapping):
        raise ValueError("a career must be a JSON object")
    if career.get("version", CAREER_VERSION) > CAREER_VERSION:
        raise ValueError(f"career form version {career['version']} is newer than {CAREER_VERSION}")
    out: dict[str, Any] = {name: career_count(career.get(name, 0), name) for name in _TOTALS}
    fastest = career.get("fastest_win")
    out["fastest_win"] = None if fastest is None else career_count(fastest, "fastest_win")
    return out
