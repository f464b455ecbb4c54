"""A commander's accumulated career: totals, rank and awards (PROGRESSION.md §3–§5).

:class:`Career` is an immutable value with a JSON-ready form (the service keeps it in a JSON column).
:meth:`Career.add` folds one finished game in and says what changed, for the result screen.

>>> c = Career()
>>> c.rank.name, c.award_degrees()["veteran"]
('Матрос', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .awards import AWARDS, AWARDS_BY_ID, AwardStanding, award_degrees, award_standings
from .points import AI_FACTORS
from .ranks import Rank, rank_for
from .stats import GameStats, Outcome

__all__ = ["CAREER_VERSION", "AwardChange", "Career", "CareerChange"]

#: Version of :meth:`Career.to_dict`'s form.
CAREER_VERSION = 1
#: Award counters a career keeps itself (the others are read from its totals).
_COUNTED = ("torpedo", "submarine", "aviation", "mines", "nuclear", "base_assault", "base_defence", "formation")
_TOTALS = ("points", "games_played", "games_won", "games_drawn", "games_lost", "units_sunk", "sunk_tonnes",
           "bases_destroyed", "best_streak", "streak")  # fmt: skip


def _zero_ai() -> dict[int, int]:
    return dict.fromkeys(AI_FACTORS, 0)


def _zero_counters() -> dict[str, int]:
    return dict.fromkeys(_COUNTED, 0)


@dataclass(frozen=True)
class Career:
    """Accumulated totals over every finished, not aborted game (PROGRESSION.md §3, §4, §5).

    - ``points``: accumulated points (decides the rank, §3);
    - ``games_played``/``games_won``/``games_drawn``/``games_lost`` (a resignation is a loss);
    - ``units_sunk``: enemy units destroyed, all causes; ``sunk_tonnes``: in tonnes; ``bases_destroyed``;
    - ``wins_vs_ai``: AI level 1…5 → wins against it;
    - ``streak``: current run of wins; ``best_streak``: the longest so far;
    - ``counters``: the left-hand awards' counters by award id (§5; the badges come from the totals).
    """

    points: int = 0
    games_played: int = 0
    games_won: int = 0
    games_drawn: int = 0
    games_lost: int = 0
    units_sunk: int = 0
    sunk_tonnes: int = 0
    bases_destroyed: int = 0
    wins_vs_ai: dict[int, int] = field(default_factory=_zero_ai)
    best_streak: int = 0
    streak: int = 0
    counters: dict[str, int] = field(default_factory=_zero_counters)

    @property
    def rank(self) -> Rank:
        """The rank held (§3)."""
        return rank_for(self.points)

    def award_counters(self) -> dict[str, int]:
        """Every award's counter by id, in the award's unit (§5): «Тоннаж» in whole thousands of tonnes."""
        out = {
            **self.counters,
            "veteran": self.games_played,
            "winner": self.games_won,
            "hunter": self.units_sunk,
            "tonnage": self.sunk_tonnes // 1000,
        }
        return {a.id: out.get(a.id, 0) for a in AWARDS}

    def award_degrees(self) -> dict[str, int]:
        """``{award_id: degree 0…3}`` (3 = I) for every award (§5)."""
        return award_degrees(self.award_counters())

    def award_standings(self) -> list[AwardStanding]:
        """Count, degree and progress to the next degree of every award, in table order (§5)."""
        return award_standings(self.award_counters())

    def add(self, stats: GameStats, points: int, ai_level: int | None = None) -> CareerChange:
        """Fold in one game: ``stats`` of this commander's side, the ``points`` it earned
        (:func:`admiral.progression.points`) and the opponent's AI level (``None``: a human).

        Returns a :class:`CareerChange` holding the new career; ``self`` is unchanged. An aborted game
        (``stats.counts`` false) changes nothing (§2).

        :raises ValueError: for negative points or an AI level outside 1…5.
        """
        if points < 0:
            raise ValueError(f"points cannot be negative: {points}")
        if ai_level is not None and (isinstance(ai_level, bool) or ai_level not in AI_FACTORS):
            raise ValueError(f"AI level must be 1…5 or None, not {ai_level!r}")
        if not stats.counts:
            return CareerChange(self, self, counted=False, points=0)
        won = stats.outcome is Outcome.WIN
        wins_vs_ai = dict(self.wins_vs_ai)
        if won and ai_level is not None:
            wins_vs_ai[ai_level] = wins_vs_ai.get(ai_level, 0) + 1
        counters = dict(self.counters)
        for award_id, n in stats.award_increments().items():
            counters[award_id] = counters.get(award_id, 0) + n
        streak = self.streak + 1 if won else 0
        after = replace(
            self,
            points=self.points + points,
            games_played=self.games_played + 1,
            games_won=self.games_won + won,
            games_drawn=self.games_drawn + (stats.outcome is Outcome.DRAW),
            games_lost=self.games_lost + (stats.outcome in (Outcome.LOSS, Outcome.RESIGNED)),
            units_sunk=self.units_sunk + stats.units_sunk,
            sunk_tonnes=self.sunk_tonnes + stats.sunk_tonnes,
            bases_destroyed=self.bases_destroyed + stats.bases_destroyed,
            wins_vs_ai=wins_vs_ai,
            streak=streak,
            best_streak=max(self.best_streak, streak),
            counters=counters,
        )
        return CareerChange(self, after, counted=True, points=points)

    def to_dict(self) -> dict:
        """JSON-ready form (see :meth:`from_dict`); AI levels become string keys ``"1"``…``"5"``."""
        d: dict = {"version": CAREER_VERSION}
        d.update({name: getattr(self, name) for name in _TOTALS})
        d["wins_vs_ai"] = {str(level): n for level, n in sorted(self.wins_vs_ai.items())}
        d["counters"] = {a: self.counters.get(a, 0) for a in _COUNTED}
        return d

    @classmethod
    def from_dict(cls, data: Mapping) -> Career:
        """Read :meth:`to_dict`'s form. Missing totals and counters are 0 (a form from before a counter
        was added still reads).

        :raises ValueError: for a wrong shape, a negative or non-integer number, or a newer version.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a career must be a JSON object")
        if data.get("version", CAREER_VERSION) > CAREER_VERSION:
            raise ValueError(f"career form version {data['version']} is newer than {CAREER_VERSION}")
        totals = {name: _count(data.get(name, 0), name) for name in _TOTALS}
        raw_ai, raw_counters = data.get("wins_vs_ai", {}), data.get("counters", {})
        if not isinstance(raw_ai, Mapping) or not isinstance(raw_counters, Mapping):
            raise ValueError("'wins_vs_ai' and 'counters' must be JSON objects")
        wins_vs_ai = _zero_ai()
        for key, n in raw_ai.items():
            try:
                level = int(key)
            except ValueError:
                raise ValueError(f"bad AI level {key!r} in 'wins_vs_ai'") from None
            if level not in AI_FACTORS:
                raise ValueError(f"bad AI level {key!r} in 'wins_vs_ai'")
            wins_vs_ai[level] = _count(n, f"wins_vs_ai[{key}]")
        counters = _zero_counters()
        for key, n in raw_counters.items():
            if key not in counters:
                if key in AWARDS_BY_ID:
                    continue  # a badge's counter is read from the totals
                raise ValueError(f"unknown award counter {key!r}")
            counters[key] = _count(n, f"counters[{key}]")
        return cls(**totals, wins_vs_ai=wins_vs_ai, counters=counters)


def _count(value: object, name: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class AwardChange:
    """An award whose degree rose in one game: ``award_id``, degree ``before`` and ``after`` (0…3, 3 = I)."""

    award_id: str
    before: int
    after: int

    def to_dict(self) -> dict:
        """JSON-ready: ``{"id", "name", "before", "after"}`` (``name`` Russian)."""
        return {"id": self.award_id, "name": AWARDS_BY_ID[self.award_id].name, "before": self.before,
                "after": self.after}  # fmt: skip


@dataclass(frozen=True)
class CareerChange:
    """What one game changed (for the result screen, §5): the careers ``before`` and ``after``, whether the
    game ``counted`` (not aborted), the ``points`` added, the new rank if it rose, the awards that rose."""

    before: Career
    after: Career
    counted: bool
    points: int

    @property
    def career(self) -> Career:
        """The career after the game (same as ``after``)."""
        return self.after

    @property
    def new_rank(self) -> Rank | None:
        """The rank reached in this game, ``None`` if it did not change."""
        rank = self.after.rank
        return rank if rank.number != self.before.rank.number else None

    @property
    def awards(self) -> list[AwardChange]:
        """Awards whose degree rose in this game, in table order."""
        old, new = self.before.award_degrees(), self.after.award_degrees()
        return [AwardChange(a, old[a], new[a]) for a in new if new[a] > old[a]]

    def to_dict(self) -> dict:
        """JSON-ready: ``{"counted", "points", "total_points", "rank": {…}, "new_rank": {…}|None, "awards": […]}``."""
        new_rank = self.new_rank
        return {
            "counted": self.counted,
            "points": self.points,
            "total_points": self.after.points,
            "rank": self.after.rank.to_dict(),
            "new_rank": None if new_rank is None else new_rank.to_dict(),
            "awards": [a.to_dict() for a in self.awards],
        }
