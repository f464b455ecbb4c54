"""Points, ranks and awards from finished games (``../shared/rules/PROGRESSION.md`` §2–§5): pure functions.

Imports only :mod:`admiral.games.admiral.rules`; deterministic; no I/O. Typical use by the service::

    stats = game_stats(record)[side]                      # GameStats of one commander
    gained = points(stats, opponent_factor(ai_level))     # int, 0 if resigned or aborted
    change = Career.from_dict(stored).add(stats, gained, ai_level)
    store(change.after.to_dict()); show(change.to_dict())  # new rank, new awards
"""

from .awards import (
    AWARDS,
    AWARDS_BY_ID,
    DEGREE_NAMES,
    Award,
    AwardStanding,
    award_degrees,
    award_progress,
    award_standings,
)
from .career import CAREER_VERSION, AwardChange, Career, CareerChange
from .points import AI_FACTORS, BASES_BONUS, ENGAGEMENT_TURNS, WIN_BONUS, engagement, opponent_factor, points
from .ranks import RANKS, Rank, RankDef, rank_for
from .stats import MIN_TURNS, GameStats, Outcome, game_stats, stats_of_play

__all__ = [
    "AI_FACTORS", "AWARDS", "AWARDS_BY_ID", "BASES_BONUS", "CAREER_VERSION", "DEGREE_NAMES", "ENGAGEMENT_TURNS",
    "MIN_TURNS", "RANKS",
    "WIN_BONUS",
    "Award", "AwardChange", "AwardStanding", "Career", "CareerChange", "GameStats", "Outcome", "Rank", "RankDef",
    "award_degrees", "award_progress", "award_standings", "engagement", "game_stats", "opponent_factor", "points",
    "rank_for", "stats_of_play",
]  # fmt: skip
