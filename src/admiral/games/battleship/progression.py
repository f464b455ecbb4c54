"""Points and per-commander totals of «Морской бой» (``docs/points.md``): pure functions over one side's figures
from :meth:`~.ruleset.BattleshipRuleset.game_stats`.

    points = round( (win_bonus + 30 × hits / decks + 20 × (decks − decks_lost) / decks)
                    × min(1, 1/2 + hits / shots) × opponent_factor × min(1, shots / decks) )

``decks`` is a fleet's decks (20 classic, 17 Hasbro), ``hits`` the enemy decks this side destroyed, ``decks_lost``
its own decks hit. 0 for the side that resigned or abandoned, nothing at all for an aborted game (a side began
fewer than :data:`MIN_TURNS` turns). The sum is exact (fractions) and rounded half up, as «Адмирал»'s.

>>> win = {"outcome": "win", "reason": "fleet_sunk", "counts": True, "shots": 50, "hits": 20, "decks": 20,
...        "decks_lost": 8, "sunk": 10}
>>> points(win, None)   # (50 + 30 + 20 × 12/20) × min(1, 0.5 + 0.4) = 92 × 0.9 = 82.8
83
>>> points(win, 1)      # × 0.2 = 16.56
17
>>> fold({}, win)
{'version': 1, 'shots': 50, 'hits': 20, 'sunk': 10, 'fastest_win': 50}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from admiral.i18n import _, ngettext
from admiral.progression.points import career_count, counted_outcome, opponent_factor

__all__ = [
    "CAREER_VERSION", "KEPT_POINTS", "MIN_TURNS", "SUNK_POINTS", "WIN_BONUS", "ZERO_REASONS", "career_stats",
    "fold", "outcome", "points",
]  # fmt: skip

#: Turns each side must have begun for a game to count (as «Адмирал»'s PROGRESSION.md §2: fewer = "aborted").
MIN_TURNS = 2
#: Bonus by outcome: a draw (only by agreement) is worth 30 % of a win, as in «Адмирал» (30 of 100).
WIN_BONUS = {"win": 50, "draw": 15, "loss": 0}
#: Points for destroying every enemy deck (a share for a part of them).
SUNK_POINTS = 30
#: Points for keeping every own deck whole (a share for a part of them).
KEPT_POINTS = 20
#: How a side's game ends when it earns 0 whatever it did: it resigned or abandoned the game.
ZERO_REASONS = frozenset({"resign", "abandon"})
#: Version of :func:`fold`'s form.
CAREER_VERSION = 1
_TOTALS = ("shots", "hits", "sunk")


#: ``"win"``, ``"draw"`` or ``"loss"`` of a finished game that counts, ``None`` otherwise (the house's rule).
outcome = counted_outcome


def points(stats: Mapping[str, Any], ai_level: int | None) -> int:
    """Points one commander earns for a game of «Морской бой» (module docstring, ``docs/points.md``): a
    non-negative integer.

    ``stats``: one side's figures (``outcome``, ``reason``, ``counts``, ``shots``, ``hits``, ``decks``,
    ``decks_lost``); ``ai_level``: the opponent's AI level 1…5, ``None`` for a human
    (:func:`admiral.progression.opponent_factor`).

    >>> lost = {"outcome": "loss", "reason": "fleet_sunk", "counts": True, "shots": 45, "hits": 8, "decks": 20,
    ...         "decks_lost": 20}
    >>> points(lost, None)  # (0 + 30 × 8/20 + 0) × (0.5 + 8/45) = 12 × 0.6778 = 8.13
    8
    >>> points({**lost, "reason": "resign", "decks_lost": 3}, None)
    0

    :raises ValueError: for an AI level outside 1…5 or an unknown outcome.
    """
    factor = Fraction(opponent_factor(ai_level)).limit_denominator(100)
    result = outcome(stats)
    if result is None or (result == "loss" and stats.get("reason") in ZERO_REASONS):
        return 0
    shots, hits, decks = int(stats["shots"]), int(stats["hits"]), int(stats["decks"])
    if shots == 0 or decks == 0:
        return 0
    kept = decks - int(stats["decks_lost"])
    base = WIN_BONUS[result] + Fraction(SUNK_POINTS * hits, decks) + Fraction(KEPT_POINTS * kept, decks)
    accuracy = min(Fraction(1), Fraction(1, 2) + Fraction(hits, shots))
    engagement = min(Fraction(1), Fraction(shots, decks))
    value = base * accuracy * factor * engagement
    return int(value + Fraction(1, 2))  # half up; value ≥ 0


def fold(career: Mapping[str, Any], stats: Mapping[str, Any]) -> dict[str, Any]:
    """The commander's «Морской бой» totals ``career`` (this function's earlier answer, ``{}`` at first) with one
    more game that counts: ``{"version", "shots", "hits", "sunk", "fastest_win"}`` — shots fired, hits, enemy ships
    sunk, and the fewest shots of a win by sinking the whole fleet (``None`` before the first; a win by a
    resignation or a flag proves no speed). Games, wins, draws, losses and points are the house's own counters.

    :raises ValueError: for a form of a newer version or a count that is not a non-negative integer.
    """
    old = _read(career)
    new: dict[str, Any] = {"version": CAREER_VERSION}
    for name in _TOTALS:
        new[name] = old[name] + career_count(stats.get(name, 0), name)
    fastest = old["fastest_win"]
    if stats.get("outcome") == "win" and stats.get("reason") == "fleet_sunk":
        shots = career_count(stats["shots"], "shots")
        fastest = shots if fastest is None else min(fastest, shots)
    new["fastest_win"] = fastest
    return new


def career_stats(career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The lines of the profile's «Морской бой» block: ``(key, label, value)`` in the current language — shots,
    hits, accuracy (whole per cent), ships sunk, the fastest win.

    >>> [value for _key, _label, value in career_stats({"shots": 150, "hits": 40, "sunk": 12, "fastest_win": 47})]
    ['150', '40', '27 %', '12', '47 выстрелов']
    """
    c = _read(career)
    accuracy = f"{round(100 * c['hits'] / c['shots'])} %" if c["shots"] else "—"
    fastest = c["fastest_win"]
    return [
        ("shots", _("Выстрелов"), str(c["shots"])),
        ("hits", _("Попаданий"), str(c["hits"])),
        ("accuracy", _("Точность"), accuracy),
        ("sunk", _("Потоплено кораблей"), str(c["sunk"])),
        (
            "fastest_win",
            _("Самая быстрая победа"),
            "—" if fastest is None else ngettext("%(num)s выстрел", "%(num)s выстрелов", fastest),
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
