"""Small charts drawn by the server as SVG (no JS library): the rating over time on «Личное дело»
(PROGRESSION.md §4). This module computes the geometry; ``templates/_rating_chart.html`` draws it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

__all__ = ["RatingChart", "rating_chart"]

#: The drawing's size in SVG user units (it scales to the width of its box) and the room left for the axes' labels.
WIDTH, HEIGHT = 320, 140
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 8, 20


@dataclass(frozen=True)
class RatingChart:
    """A rating chart ready to draw: ``points`` the polyline's ``"x,y x,y …"``, ``last`` the last point ``(x, y)``,
    ``y_ticks`` ``[(y, label)]`` (ratings, whole points), ``x_labels`` ``[(x, label, anchor)]`` (the first and last
    dates, ``DD.MM.YYYY``), ``plot`` ``(left, top, right, bottom)``, and the drawing's ``width`` and ``height``."""

    points: str
    last: tuple[float, float]
    y_ticks: list[tuple[float, str]]
    x_labels: list[tuple[float, str, str]]
    plot: tuple[int, int, int, int]
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(history: Sequence[tuple[datetime, float]], start: float | None = None) -> RatingChart | None:
    """The chart of a rating's history ``[(when, rating after the game)]``, oldest first, one point per rated game,
    spaced evenly (a game is a rating period: time between games says nothing of strength), after a first point at
    ``start`` (the rating before the first game, dated like it; QA: one game drew a lone dot). The y axis spans the
    ratings rounded out to 50 points (at least 100 points high); ``None`` for an empty history.

    >>> from datetime import UTC, datetime
    >>> c = rating_chart([(datetime(2026, 12, 1, tzinfo=UTC), 1662.3), (datetime(2026, 12, 3, tzinfo=UTC), 1580)])
    >>> c.points, [label for _y, label in c.y_ticks], [label for _x, label, _a in c.x_labels]
    ('40.0,36.1 312.0,97.6', ['1700', '1625', '1550'], ['01.12.2026', '03.12.2026'])
    >>> rating_chart([(datetime(2026, 12, 1, tzinfo=UTC), 1662.3)], start=1500).points
    '40.0,120.0 312.0,29.1'
    """
    if not history:
        return None
    if start is not None:
        history = [(history[0][0], start), *history]
    ratings = [r for _when, r in history]
    low = math.floor(min(ratings) / 50) * 50
    high = math.ceil(max(ratings) / 50) * 50
    if high - low < 100:
        middle = (low + high) / 2
        low, high = math.floor((middle - 50) / 50) * 50, math.ceil((middle + 50) / 50) * 50
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(1, len(history) - 1)

    def x(i: int) -> float:
        return round(left + (right - left) * (i / span if len(history) > 1 else 0.5), 1)

    def y(r: float) -> float:
        return round(bottom - (bottom - top) * (r - low) / (high - low), 1)

    pts = [(x(i), y(r)) for i, r in enumerate(ratings)]
    ticks = [(y(v), str(v)) for v in (high, (low + high) // 2, low)]
    dates = [(pts[0][0], history[0][0].strftime("%d.%m.%Y"), "start")]
    if len(history) > 1:
        dates.append((pts[-1][0], history[-1][0].strftime("%d.%m.%Y"), "end"))
    return RatingChart(" ".join(f"{a},{b}" for a, b in pts), pts[-1], ticks, dates, (left, top, right, bottom))
