"""Level 5's own fleet: a legal layout that density hunters take long to sink (:func:`hidden_layout`).

A density hunter (level 4, and the hunters of the literature) shoots first where most placements of the ships
afloat pass: the middle of the board, then wherever its misses left room. Level 5 draws a pool of legal layouts,
keeps the few least *exposed* to the hunter's opening map (:func:`exposure`), plays a quick level-4 hunt against
each of those (:func:`hunt_cost`) and places the one that took the most shots.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .knowledge import Knowledge
from .model import Facts, hunter_density
from .sampler import Sampler
from .sea import Layout, Sea

__all__ = ["FINALISTS", "POOL", "exposure", "hidden_layout", "hunt_cost"]

#: Layouts drawn per setup.
POOL = 400
#: The least exposed of them, each played against a level-4 hunt.
FINALISTS = 8


@lru_cache(maxsize=8)
def _opening(rules: Knowledge) -> tuple[float, ...]:
    return tuple(hunter_density(Facts(rules.template())))


def exposure(rules: Knowledge, layout: Layout) -> float:
    """How soon a density hunter meets ``layout``: over its ships, the sum of each ship's most exposed cell's value
    on the hunter's opening map (the density before any shot; lower is better hidden)."""
    opening = _opening(rules.template())
    w = rules.width
    return sum(max(opening[r * w + c] for r, c in cells) for _, cells in layout)


def hunt_cost(rules: Knowledge, layout: Layout, rng: random.Random) -> int:
    """Shots a level-4 hunter (its density rule, ties broken by ``rng``) needs to sink ``layout``."""
    k = rules.template()
    sea = Sea(k, layout)
    while not sea.defeated:
        d = hunter_density(Facts(k))
        top = max(d)
        if top <= 0:
            cell = rng.choice(k.unshot())
        else:
            cell = divmod(rng.choice([i for i, v in enumerate(d) if v >= top * (1 - 1e-9)]), k.width)
        answer, code = sea.fire(cell)
        k = k.after(cell, answer, code)
    return len(k.shots)


def hidden_layout(rules: Knowledge, rng: random.Random, pool: int = POOL, finalists: int = FINALISTS) -> Layout:
    """A legal layout of ``rules``' fleet: of ``pool`` drawn layouts, the ``finalists`` of least :func:`exposure`,
    and of those the one whose :func:`hunt_cost` is highest.

    The pool comes from :class:`~.sampler.Sampler` draws on an empty board (legal layouts, not exactly uniform:
    the choice that follows is anything but uniform anyway).
    """
    template = rules.template()
    sampler = Sampler(Facts(template))
    layouts: list[Layout] = []
    while len(layouts) < pool:
        weight, chosen = sampler.draw(rng)
        if weight:
            layouts.append(sampler.layout(chosen))
    layouts.sort(key=lambda lay: exposure(template, lay))
    best: tuple[int, int, Layout] | None = None
    for n, layout in enumerate(layouts[:finalists]):
        cost = hunt_cost(template, layout, random.Random(rng.getrandbits(32)))
        if best is None or cost > best[0]:
            best = (cost, -n, layout)
    assert best is not None
    return best[2]
