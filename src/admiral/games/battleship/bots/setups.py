"""The fleets of levels 3 and 5: a compact fleet (:func:`compact_layout`) and one that density hunters take long to
sink (:func:`hidden_layout`).

In the classic rules a sunk ship shows its ring of cells empty (A6), and every hunter of level 2 and up skips
them: a fleet whose rings are small (ships along the edges and in the corners) leaves such a hunter more cells to
search. On 300 fleets of each, the best ring of 60 uniform layouts costs level 2 about 4 shots more (59.8 → 63.7
mean) and level 3 about 4 (58.0 → 62.0) — and saves level 4 about 5, whose density already expects ships where
they leave the others room (:data:`~.model.PRESSURE`); level 4 therefore keeps a uniform fleet.

A density hunter (level 4, and the hunters of the literature) shoots first where most placements of the ships
afloat pass: the middle of the board, then wherever its misses left room. Level 5 draws a pool of legal layouts,
keeps the few least *exposed* to the hunter's opening map (:func:`exposure`), plays a quick level-4 hunt against
each of those (:func:`hunt_cost`) and places the one that took the most shots.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .geometry import geometry
from .knowledge import Knowledge
from .model import Facts, hunter_density
from .sampler import Sampler
from .sea import Layout, Sea, random_layout

__all__ = [
    "COMPACT_TRIES", "FINALISTS", "POOL", "compact_layout", "exposure", "hidden_layout", "hunt_cost", "ring_area",
]  # fmt: skip

#: Layouts drawn per setup.
POOL = 400
#: The least exposed of them, each played against a level-4 hunt.
FINALISTS = 8

#: Uniform layouts drawn by :func:`compact_layout`.
COMPACT_TRIES = 60


def ring_area(rules: Knowledge, layout: Layout) -> int:
    """Cells of the board beside a ship of ``layout`` (side or corner) that no ship covers: what its sunk ships
    show empty in the classic rules (A6).

    >>> k = Knowledge.new("classic")
    >>> ring_area(k, (("1", ((0, 0),)),)), ring_area(k, (("1", ((5, 5),)),))
    (3, 8)
    """
    g = geometry(rules.width, rules.height, rules.fleet, rules.touching)
    cells = ring = 0
    for _, ship in layout:
        for c in ship:
            i = g.index(c)
            cells |= 1 << i
            ring |= g.around[i]
    return (ring & ~cells).bit_count()


def compact_layout(rules: Knowledge, rng: random.Random, tries: int = COMPACT_TRIES) -> Layout:
    """Level 3's fleet: of ``tries`` uniformly drawn legal layouts, the one of least :func:`ring_area` (the first
    drawn among equals). Where ships may touch, rings show nothing: one uniform layout."""
    if rules.touching:
        return random_layout(rules, rng)
    return min((random_layout(rules, rng) for _ in range(tries)), key=lambda lay: ring_area(rules, lay))


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
