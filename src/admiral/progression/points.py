"""Points for a finished game (PROGRESSION.md §2).

    points = round( (preserved + sunk_kt + bases_bonus + win_bonus) × opponent_factor × e ),  e = min(1, T / 40)

``T`` is the commander's turns (moves, attacks, detonations; declarations are not turns): the engagement factor of
the 2026-12-01 amendment. A resignation and an abandonment (the opponent claimed the win after a disconnect) give 0.

The sum is computed exactly in tenths: ``sunk_kt`` keeps one decimal place (tonnes rounded half up to
hundreds of tonnes), and the final rounding is half up (``x.5`` → up), never banker's rounding.

>>> opponent_factor(None), opponent_factor(3)
(1.0, 0.6)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from admiral.games.admiral.rules import Reason

from .stats import GameStats, Outcome

__all__ = [
    "AI_FACTORS", "BASES_BONUS", "ENGAGEMENT_TURNS", "WIN_BONUS", "career_count", "counted_outcome", "engagement",
    "opponent_factor", "points",
]  # fmt: skip

#: Bonus for both own bases surviving (PROGRESSION.md §2 [decision]).
BASES_BONUS = 50
#: Bonus by outcome (PROGRESSION.md §2 [addition]); a resignation gives 0 points altogether.
WIN_BONUS = {Outcome.WIN: 100, Outcome.DRAW: 30, Outcome.LOSS: 0, Outcome.RESIGNED: 0}
#: Opponent factor of AI levels 1…5 (PROGRESSION.md §2 [addition]); another human is 1.0.
AI_FACTORS = {1: 0.2, 2: 0.4, 3: 0.6, 4: 0.8, 5: 1.0}
#: Turns from which a game pays in full: the engagement factor is ``min(1, T / ENGAGEMENT_TURNS)`` (PROGRESSION.md
#: §2, [decision, 2026-12-01]).
ENGAGEMENT_TURNS = 40


def engagement(turns: int) -> Fraction:
    """The engagement factor ``e = min(1, T / 40)`` of a commander who made ``turns`` turns (PROGRESSION.md §2).

    >>> engagement(2), engagement(20), engagement(40), engagement(102)
    (Fraction(1, 20), Fraction(1, 2), Fraction(1, 1), Fraction(1, 1))

    :raises ValueError: for a negative count.
    """
    if turns < 0:
        raise ValueError(f"turns cannot be negative: {turns}")
    return min(Fraction(1), Fraction(turns, ENGAGEMENT_TURNS))


def opponent_factor(ai_level: int | None) -> float:
    """The opponent factor (PROGRESSION.md §2): ``None`` (a human opponent) → 1.0; AI level 1…5 → 0.2…1.0.

    :raises ValueError: for any other level.
    """
    if ai_level is None:
        return 1.0
    if isinstance(ai_level, bool) or ai_level not in AI_FACTORS:
        raise ValueError(f"AI level must be 1…5 or None, not {ai_level!r}")
    return AI_FACTORS[ai_level]


def points(stats: GameStats, opponent_factor: float) -> int:
    """Points one commander earns for a game (PROGRESSION.md §2): a non-negative integer.

    0 for a resignation, for an abandonment (the loser's ``reason`` ``abandonment``: the opponent claimed the win
    after a disconnect) and for an aborted game (``stats.counts`` false). Every term is multiplied by
    :func:`engagement` of ``stats.turns``. ``opponent_factor`` is :func:`opponent_factor`'s value (0 < factor ≤ 1,
    exact to two decimals).

    >>> from dataclasses import replace
    >>> from admiral.games.admiral.rules import Side
    >>> s = GameStats(Side.SOUTH, Outcome.WIN, Reason.BASES, 40, True, 120, 57_050, True, 20, 2,
    ...               3, 1, 1, 0, 0, 0, 0, 1)
    >>> points(s, 1.0)   # 120 + 57.1 + 50 + 100 = 327.1
    327
    >>> points(s, 0.2)   # 327.1 × 0.2 = 65.42
    65
    >>> points(replace(s, turns=2), 1.0)   # 327.1 × 2/40 = 16.355
    16

    :raises ValueError: for a factor outside (0, 1].
    """
    if not 0 < opponent_factor <= 1:
        raise ValueError(f"the opponent factor must be in (0, 1], not {opponent_factor!r}")
    if not stats.counts or stats.outcome is Outcome.RESIGNED:
        return 0
    if stats.outcome is Outcome.LOSS and stats.reason is Reason.ABANDONMENT:
        return 0  # abandoning is resigning by walking away (PROGRESSION.md §2)
    tenths = (
        10 * stats.preserved
        + (stats.sunk_tonnes + 50) // 100
        + 10 * (BASES_BONUS if stats.bases_intact else 0)
        + 10 * WIN_BONUS[stats.outcome]
    )
    value = Fraction(tenths, 10) * Fraction(opponent_factor).limit_denominator(100) * engagement(stats.turns)
    return int(value + Fraction(1, 2))  # half up; value ≥ 0


def counted_outcome(stats: Mapping[str, Any]) -> str | None:
    """The outcome a game's figures credit, for every game of the house whose statistics say ``counts`` and
    ``outcome`` (``"win"``, ``"draw"``, ``"loss"``); ``None`` for an aborted game or one in progress: nothing is
    credited then.

    >>> counted_outcome({"counts": True, "outcome": "draw"}), counted_outcome({"counts": False, "outcome": "win"})
    ('draw', None)

    :raises ValueError: for an outcome that is none of these.
    """
    if not stats.get("counts") or stats.get("outcome") is None:
        return None
    if stats["outcome"] not in ("win", "draw", "loss"):
        raise ValueError(f"unknown outcome {stats['outcome']!r}")
    return stats["outcome"]


def career_count(value: object, name: str) -> int:
    """``value`` as a count of a game's career (its JSON form, read back). :raises ValueError: unless a
    non-negative ``int`` (``name`` says which)."""
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
    return value
