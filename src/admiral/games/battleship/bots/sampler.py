"""Level 5's reasoning: whole fleets consistent with every answer, drawn by sequential importance sampling, and the
chance of a ship on each cell that they imply.

**The draw** (:meth:`Sampler.draw`). The target is the uniform distribution over the legal layouts that would
have given every answer so far (the posterior of a uniformly placed fleet). A draw builds one such layout ship by
ship, always among the placements still possible (:class:`~.model.Facts` conditions, and no overlap or touch with
the ships placed):

1. *cover the hits*: while a hit or sunk cell is uncovered, take the lowest one (sunk cells first) and place a
   ship through it, each possible (ship, placement) pair equally likely;
2. *place the rest*, largest first, each uniformly among its placements on unshot cells.

A layout comes out of exactly one sequence of choices (the cell to cover next and the ship covering it are
determined by the layout), so its chance ``q`` is the product of ``1 / options`` along that sequence, and the
draw's weight ``1 / q`` (the product of the option counts) makes weighted averages over draws converge to
averages over the uniform posterior. A draw that runs out of options has weight 0.

**The estimate** (:func:`estimate`): per cell, the weighted share of draws with a ship there (the marginal chance
of a hit), and per cell the weighted answers it would get (which ship, sunk or not), for the tie-break on
information.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .model import Facts
from .sea import Layout

__all__ = ["Estimate", "Sampler", "estimate", "nth_bit"]

_WORD = (1 << 64) - 1


def nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th (0-based, lowest first) set bit of ``mask``; ``n`` below ``mask.bit_count()``.

    >>> nth_bit(0b101100, 0), nth_bit(0b101100, 2), nth_bit(1 << 200 | 1, 1)
    (2, 5, 200)
    """
    base = 0
    while True:
        low = mask & _WORD
        c = low.bit_count()
        if n < c:
            break
        n -= c
        mask >>= 64
        base += 64
    for width in (32, 16, 8, 4, 2, 1):
        part = low & ((1 << width) - 1)
        c = part.bit_count()
        if n >= c:
            n -= c
            low >>= width
            base += width
        else:
            low = part
    return base


class Sampler:
    """Draws layouts consistent with ``facts`` (see the module's description)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._types = [(t, st.size, st.j, st.count) for t, st in enumerate(facts.types)]
        self._rest = sorted(self._types, key=lambda x: -x[1])

    def draw(self, rng: random.Random) -> tuple[float, list[tuple[int, int]]]:
        """One layout as ``(weight, [(type index, placement index), …])``; weight 0 (and the ships placed so
        far) when the draw ran out of options."""
        f = self.facts
        g = f.g
        cover, conflict = g.cover, g.conflict
        valid, free = f.valid, f.free
        nsizes = len(g.sizes)
        kill = [0] * nsizes
        left = [st.count for st in f.types]
        chosen: list[tuple[int, int]] = []
        weight = 1.0
        covered = 0
        uncovered = f.targets
        randrange = rng.randrange
        masks = g.masks
        sunk = f.sunk
        while uncovered:
            first = uncovered & sunk or uncovered  # sunk cells first: they have the fewest options
            c = (first & -first).bit_length() - 1
            options = []
            total = 0
            for t, s, j, _ in self._types:
                if left[t]:
                    v = valid[t] & cover[s][c] & ~kill[j]
                    if v:
                        n = v.bit_count() * left[t]
                        options.append((t, s, v, n))
                        total += n
            if not total:
                return 0.0, chosen
            r = randrange(total)
            for option in options:
                if r < option[3]:
                    break
                r -= option[3]
            t, s, v, _ = option
            p = nth_bit(v, r // left[t])
            weight *= total
            chosen.append((t, p))
            left[t] -= 1
            covered |= masks[s][p]
            row = conflict[s][p]
            for x in range(nsizes):
                kill[x] |= row[x]
            uncovered = f.targets & ~covered
        for t, s, j, _ in self._rest:
            for _ in range(left[t]):
                v = free[t] & ~kill[j]
                n = v.bit_count()
                if not n:
                    return 0.0, chosen
                p = nth_bit(v, randrange(n))
                weight *= n
                chosen.append((t, p))
                row = conflict[s][p]
                for x in range(nsizes):
                    kill[x] |= row[x]
        return weight, chosen

    def layout(self, chosen: list[tuple[int, int]]) -> Layout:
        """The :data:`~.sea.Layout` of a draw (codes of a type handed out in the order its ships were placed)."""
        f = self.facts
        g = f.g
        used = [0] * len(f.types)
        ships = []
        for t, p in chosen:
            st = f.types[t]
            code = st.codes[used[t]]
            used[t] += 1
            ships.append((code, tuple(g.cell(i) for i in g.cells[st.size][p])))
        return tuple(ships)


@dataclass
class Estimate:
    """What a batch of draws says. ``chance[c]``: the weighted share of draws with a ship on cell index ``c``;
    ``answers[c]``: for cells asked about, ``{answer key: weight share}`` with keys ``(code or "", sunk)``;
    ``draws``: draws made; ``good``: draws with weight > 0; ``ess``: the effective sample size
    ``(Σw)² / Σw²``."""

    chance: list[float]
    per_placement: list[dict[int, float]]
    weight: float
    draws: int
    good: int
    ess: float

    def answers(self, facts: Facts, cell: int) -> dict[tuple[str, bool], float]:
        """The chance of each answer a shot at cell index ``cell`` would get, besides a miss: key ``(code, sunk)``
        with ``code`` the ship's code when answers are named (else ``""``, with the ship's size after «убит» in the
        classic rules, where the sunk ship's size shows)."""
        g = facts.g
        out: dict[tuple[str, bool], float] = {}
        if not self.weight:
            return out
        for t, acc in enumerate(self.per_placement):
            st = facts.types[t]
            cover = g.cover[st.size][cell]
            for p, w in acc.items():
                if cover >> p & 1:
                    m = g.masks[st.size][p]
                    sunk = (m & ~facts.shot) == 1 << cell
                    code = st.codes[0] if facts.k.named else (str(st.size) if sunk and not facts.k.touching else "")
                    key = (code, sunk)
                    out[key] = out.get(key, 0.0) + w / self.weight
        return out

    def entropy(self, facts: Facts, cell: int) -> float:
        """The entropy in bits of the answer at cell index ``cell`` (miss, and each key of :meth:`answers`)."""
        probs = list(self.answers(facts, cell).values())
        probs.append(max(0.0, 1.0 - sum(probs)))
        return -sum(p * math.log2(p) for p in probs if p > 0)


def estimate(
    facts: Facts,
    rng: random.Random,
    draws: int,
    *,
    deadline: float | None = None,
    batch: int = 32,
    keep: list[tuple[float, list[tuple[int, int]]]] | None = None,
    accept: Callable[[list[tuple[int, int]]], bool] | None = None,
) -> Estimate:
    """Make ``draws`` draws (fewer if ``time.perf_counter()`` passes ``deadline``; at least one batch) and
    return their :class:`Estimate`; the draws of weight > 0 are appended to ``keep`` as ``(weight, chosen)`` if
    it is given. ``accept(chosen)``: facts the sampler cannot build in (the extended variant's scan answers, rules
    C5): a draw it refuses weighs 0, which keeps the estimate the posterior given those facts too."""
    sampler = Sampler(facts)
    g = facts.g
    per_placement: list[dict[int, float]] = [{} for _ in facts.types]
    total = square = 0.0
    made = good = 0
    while made < draws:
        for _ in range(min(batch, draws - made)):
            w, chosen = sampler.draw(rng)
            made += 1
            if w and accept is not None and not accept(chosen):
                w = 0.0
            if w:
                good += 1
                total += w
                square += w * w
                for t, p in chosen:
                    acc = per_placement[t]
                    acc[p] = acc.get(p, 0.0) + w
                if keep is not None:
                    keep.append((w, chosen))
        if deadline is not None and time.perf_counter() > deadline:
            break
    chance = [0.0] * g.area
    if total:
        for t, acc in enumerate(per_placement):
            cells = g.cells[facts.types[t].size]
            for p, w in acc.items():
                share = w / total
                for c in cells[p]:
                    chance[c] += share
    ess = total * total / square if square else 0.0
    return Estimate(chance, per_placement, total, made, good, ess)
