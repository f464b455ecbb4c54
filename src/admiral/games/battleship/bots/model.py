"""What the answers imply: :class:`Facts` of one :class:`~.knowledge.Knowledge`, the readings of its sunk answers,
and the placement density of level 4.

A fleet layout is consistent with the answers exactly when (rules A5–A6, B2, D4):

1. no ship covers a missed cell, and every hit or sunk cell is covered;
2. a ship all of whose cells were shot answered «убит» at the last of them and «ранен» at the others; a ship with a
   cell not shot yet answered «ранен» at every shot cell;
3. with named answers, every hit cell of a ship carries that ship's code;
4. ships never overlap, and in the classic rules never touch, even at a corner.

Conditions 1 (misses), 2 and 3 concern one ship at a time: :class:`Facts` keeps, per ship type, the placement
mask of the placements that meet them (*valid* placements). Condition 4 pairs ships
(:attr:`~.geometry.Geometry.conflict`), and the covering part of 1 is global.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Geometry, bits, geometry
from .knowledge import Cell, Knowledge

__all__ = ["HIT_WEIGHT", "PRESSURE", "Facts", "Reading", "ShipType", "density", "hunter_density"]

#: Level 4's weight of a placement per unexplained hit it covers (a placement through two hits weighs 50², …).
HIT_WEIGHT = 50.0
#: Level 4's packing pressure in the classic rules (see :func:`density`): tuned on the bench, 57.3 → 55.4 mean
#: shots at 0.8 (0.7 and 0.9 did no better).
PRESSURE = 0.8


@dataclass(frozen=True)
class ShipType:
    """Interchangeable ships: ``size`` decks, ``codes`` the codes of its ships (one per ship), ``j`` the index of
    ``size`` in :attr:`Geometry.sizes`. Named answers tell every code apart; unnamed ones only sizes."""

    size: int
    codes: tuple[str, ...]
    j: int

    @property
    def count(self) -> int:
        """Ships of this type in the fleet."""
        return len(self.codes)


@dataclass(frozen=True)
class Reading:
    """One way to explain every «убит» answer: which ship sank where.

    ``ships``: ``(type index, placement index)`` per sunk ship; ``left``: ships afloat per type; ``sunk_cells``: the
    cell mask of the sunk ships; ``open_hits``: hit cells of ships still afloat; ``kill``: per size index, the
    placements the sunk ships exclude (overlap, and touch in the classic rules); ``ring``: the cells around the sunk
    ships (known empty in the classic rules).
    """

    ships: tuple[tuple[int, int], ...]
    left: tuple[int, ...]
    sunk_cells: int
    open_hits: int
    kill: tuple[int, ...]
    ring: int


class Facts:
    """The masks one :class:`Knowledge` implies (see the module's consistency conditions).

    Cell masks: ``shot``, ``miss``, ``hit`` (answered «ранен»), ``sunk`` (answered «убит»), ``targets`` (hit or
    sunk: must be covered). ``order[c]``: when cell ``c`` was shot (index into ``shots``, -1 if never); ``code[c]``:
    the code named there, if any. Per type ``t`` of :attr:`types`, placement masks over the placements of its size:
    ``valid[t]`` (conditions 1-misses, 2, 3; in the classic rules also no hit or sunk cell beside the placement,
    which condition 4 implies), ``whole[t]`` the valid ones all shot (a sunk ship),
    ``afloat[t]`` the valid ones with a cell not shot, ``free[t]`` the valid ones with no cell shot.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        k = self.k = knowledge
        g: Geometry = geometry(k.width, k.height, k.fleet, k.touching)
        self.g = g
        groups: dict[object, list[str]] = {}
        sizes: dict[object, int] = {}
        for size, code in zip(k.fleet, k.codes, strict=True):
            key = code if k.named else size
            groups.setdefault(key, []).append(code)
            sizes[key] = size
        self.types: list[ShipType] = [
            ShipType(sizes[key], tuple(c), g.sizes.index(sizes[key])) for key, c in groups.items()
        ]
        self.order = [-1] * g.area
        self.code: dict[int, str] = {}
        shot = miss = hit = sunk = 0
        for n, (cell, answer, code) in enumerate(k.shots):
            i = g.index(cell)
            self.order[i] = n
            bit = 1 << i
            shot |= bit
            if answer == "miss":
                miss |= bit
            elif answer == "hit":
                hit |= bit
            else:
                sunk |= bit
            if code is not None and k.named:
                self.code[i] = code
        self.shot, self.miss, self.hit, self.sunk = shot, miss, hit, sunk
        self.targets = hit | sunk
        self._valid_placements()

    def _valid_placements(self) -> None:
        g, k = self.g, self.k
        named_cells: dict[str, int] = {}
        for i, code in self.code.items():
            named_cells[code] = named_cells.get(code, 0) | 1 << i
        all_named = sum(named_cells.values())
        n = len(self.types)
        self.valid, self.whole, self.afloat, self.free = [0] * n, [0] * n, [0] * n, [0] * n
        for s in g.sizes:
            here = [t for t in range(n) if self.types[t].size == s]
            # per type: cells it must cover (its named hits) and cells it must not (hits named otherwise)
            need = []
            avoid = []
            for t in here:
                own = sum(named_cells.get(c, 0) for c in set(self.types[t].codes)) if k.named else 0
                # a code shared by several ships of the type (not in the rule sets) cannot say which ship: no need
                need.append(own if self.types[t].count == 1 else 0)
                avoid.append(all_named & ~own)
            masks, rings = g.masks[s], g.rings[s]
            for p, m in enumerate(masks):
                if m & self.miss:
                    continue
                if not k.touching and rings[p] & self.targets:
                    continue  # a hit beside the ship would be another ship touching it
                sh = m & self.shot
                bit = 1 << p
                if sh == 0:
                    for x, t in enumerate(here):
                        if not need[x]:
                            self.valid[t] |= bit
                            self.afloat[t] |= bit
                            self.free[t] |= bit
                    continue
                if sh == m:
                    sk = m & self.sunk
                    if sk & (sk - 1) or not sk:
                        continue  # a whole ship answered «убит» exactly once
                    last = max(bits(m), key=self.order.__getitem__)
                    if sk != 1 << last:
                        continue  # ... and at its last cell
                    whole = True
                elif m & self.sunk:
                    continue  # «убит» on a ship with a cell not shot
                else:
                    whole = False
                for x, t in enumerate(here):
                    if m & avoid[x] or need[x] & ~m:
                        continue
                    self.valid[t] |= bit
                    if whole:
                        self.whole[t] |= bit
                    else:
                        self.afloat[t] |= bit

    # -- readings of the sunk answers (levels 2-4) ----------------------------------------------------------------

    def readings(self, cap: int = 64) -> list[Reading]:
        """Up to ``cap`` ways to explain the «убит» answers with the fleet (ships disjoint, not touching in the
        classic rules, every hit left over coverable by a ship afloat). In the classic rules and with named answers
        there is one; unnamed Hasbro answers may leave several. Never empty: if nothing explains the answers
        (knowledge that contradicts the rules), one reading that sinks nothing and leaves every hit open."""
        g, types = self.g, self.types
        nsizes = len(g.sizes)
        cells = sorted(bits(self.sunk), key=self.order.__getitem__)
        options = []
        for c in cells:
            options.append([(t, p) for t, st in enumerate(types) for p in bits(self.whole[t] & g.cover[st.size][c])])
        out: list[Reading] = []
        used = [0] * len(types)
        chosen: list[tuple[int, int]] = []

        def walk(depth: int, kill: list[int]) -> None:
            if len(out) >= cap:
                return
            if depth == len(cells):
                reading = self._reading(chosen, used, kill)
                if reading is not None:
                    out.append(reading)
                return
            for t, p in options[depth]:
                st = types[t]
                if used[t] >= st.count or kill[st.j] >> p & 1:
                    continue
                used[t] += 1
                chosen.append((t, p))
                conflict = g.conflict[st.size][p]
                walk(depth + 1, [kill[j] | conflict[j] for j in range(nsizes)])
                chosen.pop()
                used[t] -= 1

        walk(0, [0] * nsizes)
        if not out:
            left = tuple(t.count for t in types)
            out.append(Reading((), left, 0, self.targets, (0,) * nsizes, 0))
        return out

    def _reading(self, chosen: list[tuple[int, int]], used: list[int], kill: list[int]) -> Reading | None:
        g = self.g
        sunk_cells = ring = 0
        for t, p in chosen:
            s = self.types[t].size
            sunk_cells |= g.masks[s][p]
            ring |= g.rings[s][p]
        left = tuple(t.count - u for t, u in zip(self.types, used, strict=True))
        open_hits = self.targets & ~sunk_cells
        for c in bits(open_hits):
            if not any(
                left[t] and self.afloat[t] & g.cover[st.size][c] & ~kill[st.j] for t, st in enumerate(self.types)
            ):
                return None
        return Reading(tuple(chosen), left, sunk_cells, open_hits, tuple(kill), ring & ~sunk_cells)

    # -- helpers ----------------------------------------------------------------------------------------------

    def cells_of(self, mask: int) -> list[Cell]:
        """The ``(row, col)`` cells of a cell mask, in reading order."""
        return [self.g.cell(i) for i in bits(mask)]

    def mask_of(self, cells: list[Cell]) -> int:
        """The cell mask of ``cells``."""
        out = 0
        for c in cells:
            out |= 1 << self.g.index(c)
        return out


def density(
    facts: Facts, hit_weight: float = HIT_WEIGHT, readings: list[Reading] | None = None, pressure: float = 1.0
) -> list[float]:
    """Level 4's map: per cell index, the number of valid placements of the ships afloat that cover it, counted
    once per ship of its type afloat and summed over the readings of the sunk answers. Shot cells get 0.

    Placements are counted one ship at a time (ships afloat do not exclude each other), but every answer is
    respected: misses, sunk ships and, in the classic rules, their empty rings and the cells beside any hit. A
    placement weighs ``hit_weight ** h`` for the ``h`` unexplained hits it covers, times ``pressure ** z`` for the
    ``z`` cells of its zone (itself and, in the classic rules, its ring) still open: a ship that leaves the rest of
    the fleet more room is likelier (uniformly placed fleets favour the edges in the classic rules).

    >>> from .knowledge import Knowledge
    >>> k = Knowledge(3, 1, (2,), ("2",), touching=True, named=False)
    >>> density(Facts(k))
    [1.0, 2.0, 1.0]
    """
    g = facts.g
    out = [0.0] * g.area
    for r in facts.readings() if readings is None else readings:
        room = g.full & ~facts.shot & ~r.ring
        for t, st in enumerate(facts.types):
            n = r.left[t]
            if not n:
                continue
            masks, cells, rings = g.masks[st.size], g.cells[st.size], g.rings[st.size]
            hits = r.open_hits
            for p in bits(facts.afloat[t] & ~r.kill[st.j]):
                h = (masks[p] & hits).bit_count()
                w = n * hit_weight**h if h else float(n)
                if pressure != 1.0:
                    zone = masks[p] if facts.k.touching else masks[p] | rings[p]
                    w *= pressure ** (zone & room).bit_count()
                for c in cells[p]:
                    out[c] += w
    for c in bits(facts.shot):
        out[c] = 0.0
    return out


def hunter_density(facts: Facts) -> list[float]:
    """Level 4's own map: :func:`density` with :data:`HIT_WEIGHT` and, in the classic rules, :data:`PRESSURE`."""
    return density(facts, HIT_WEIGHT, pressure=1.0 if facts.k.touching else PRESSURE)
