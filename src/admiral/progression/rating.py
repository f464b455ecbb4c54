"""The Glicko-2 rating of PROGRESSION.md §4: one rating per commander per game of the registry, each rated game
one rating period (lichess rates the same way), through the PyPI library ``glicko2`` (docs/points.md "Rating").

Ratings are on the Glicko scale (1500 at start, RD 350, volatility 0.06); a rating is *provisional*, shown with
«?», while its RD is over 110. A game is rated only between two registered commanders who asked for it, never
against the AI, never when §2 makes it unrated: the service decides that; this module only computes.

>>> a, b = rate(Rating(), Rating(), 1.0)
>>> round(a.rating), round(a.rd), a.games, a.provisional, a.shown
(1662, 290, 1, True, '1662?')
>>> round(b.rating), round(b.rd)
(1338, 290)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import glicko2

__all__ = [
    "DEFAULT_RATING", "DEFAULT_RD", "DEFAULT_VOLATILITY", "PROVISIONAL_RD", "TAU", "Glicko2Player", "Rating", "rate",
]  # fmt: skip

#: A commander's rating before its first rated game of a game (PROGRESSION.md §4).
DEFAULT_RATING = 1500.0
#: The rating deviation (RD) at start, in rating points (§4).
DEFAULT_RD = 350.0
#: The volatility σ at start (Glickman's suggested 0.06).
DEFAULT_VOLATILITY = 0.06
#: A rating whose RD is above this is provisional: shown with «?», kept off the rating leaderboard (§4).
PROVISIONAL_RD = 110.0
#: The system constant τ (the library's default, within Glickman's suggested 0.3–1.2).
TAU = 0.5


@dataclass(frozen=True, slots=True)
class Rating:
    """One commander's Glicko-2 rating in one game (PROGRESSION.md §4): ``rating`` and ``rd`` (its deviation) in
    rating points, ``volatility`` σ, and ``games`` — the rated games it rests on. The contract the lobby pairs by
    (``AccountStore.ratings_for``)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        """Whether the rating is provisional: RD > 110 (§4), shown with «?»."""
        return self.rd > PROVISIONAL_RD

    @property
    def shown(self) -> str:
        """The rating as a player sees it: whole points, «?» while provisional, e.g. ``"1523?"``."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    def to_dict(self) -> dict:
        """JSON-ready: ``{"rating": int, "rd": int, "provisional": bool, "games": int}`` (rounded for the wire)."""
        return {"rating": round(self.rating), "rd": round(self.rd), "provisional": self.provisional,
                "games": self.games}  # fmt: skip


class Glicko2Player(glicko2.Player):
    """``glicko2.Player`` (2.1.0) with Glickman's volatility step.

    The library's ``_f`` — the function whose root is the new volatility, step 5 of "Example of the Glicko-2
    system" (Glickman, 2013) — uses the player's rating μ where the paper has the RD φ:
    ``f(x) = eˣ(Δ² − φ² − v − eˣ) / 2(φ² + v + eˣ)² − (x − a)/τ²``. At 1500 (μ = 0) the error is small, away
    from 1500 it grows with μ², and the result depends on where the scale's origin lies. This subclass puts φ back.
    """

    _tau = TAU

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        ex = math.exp(x)
        phi2 = self._Player__rd**2  # the library keeps φ (Glicko-2 scale) name-mangled in Player
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau**2


def rate(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, the game being one rating period (§4).

    ``score_a``: ``a``'s result, 1.0 a win, 0.5 a draw, 0.0 a loss (``b`` scores ``1 − score_a``). Each side is
    rated against the other's rating *before* the game.

    :raises ValueError: for a score other than 0, 0.5 or 1.
    """
    if score_a not in (0.0, 0.5, 1.0):
        raise ValueError(f"a score is 0, 0.5 or 1, not {score_a!r}")
    out = []
    for me, them, score in ((a, b, score_a), (b, a, 1.0 - score_a)):
        p = Glicko2Player(me.rating, me.rd, me.volatility)
        p.update_player([them.rating], [them.rd], [score])
        out.append(Rating(p.rating, min(p.rd, DEFAULT_RD), p.vol, me.games + 1))
    return out[0], out[1]
