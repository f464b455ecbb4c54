"""What a bot believes about the enemy's closed markers (rules §11), built only from its views.

A :class:`Belief` follows the markers of one enemy fleet through the views a side receives: each
marker is a :class:`Mark` (known kind or not, whether it ever moved, whether it started in the front
row). From the public removal counts and the kinds it knows it keeps the **pool**: how many units of
each kind are still hidden among the unknown markers. It gives per-marker kind probabilities and
samples complete assignments of kinds (determinizations) consistent with what it knows.

Two switches set how much it remembers:

- ``follow``: a revealed unit stays known after it closes again and moves (the mark travels with
  the marker along :class:`MoveView` events). Without it a known kind is forgotten when its marker
  moves.
- ``fresh`` (with ``memory`` off): kinds shown by the latest battle report are known until the next
  view brings new events, i.e. the bot knows what the report it just read shows, and nothing older.
- ``infer``: deductions from movement and setup: a marker that ever moved is not ``SM``/``VMB``
  (they never move, rules §5.1); a marker that stood in the enemy's front row at the start is not a
  ``VMB`` (rules §3.2); and a likelihood, not a certainty: a mine (``M``) hides
  :data:`STILL_MINE` times likelier under a marker that never moved (it moves only beside a
  destroyer, rules §5.2, and seldom has a reason to).
- ``deep_bases`` (levels 4–5): a second likelihood: a base hides likelier the deeper its marker
  started in the enemy's zone (:data:`BASE_DEPTH`), as commanders hide their bases at the back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import FRONT_ROW, BattleReport, Cell, Kind, MoveView, PlayerView, Side
from ..engine.board import cell_row

__all__ = ["Belief", "Mark"]

IMMOBILE = (Kind.SM, Kind.VMB)
MOBILE = tuple(k for k in Kind if k not in IMMOBILE)
#: With ``infer``: how much likelier a mine (``M``) hides under a marker that never moved than under
#: one that did (a mine moves only beside a destroyer, rules §5.2, and rarely has a reason to).
STILL_MINE = 4.0
#: With ``deep_bases``: how much likelier a base hides under a never-moved marker by the row it started in,
#: counted from the enemy's back edge (index 0) to its front row (index 4, never a base: rules §3.2).
BASE_DEPTH = (4.0, 2.0, 1.0, 0.5, 0.0)


@dataclass(slots=True)
class Mark:
    """One enemy marker as the bot knows it: ``kind`` (``None`` while unknown), ``moved`` (ever
    seen to move), ``front`` (stood in the enemy's front row when first seen at the start), ``depth``
    (its starting row counted from the enemy's back edge, 0–4; 2 when the start was not seen)."""

    kind: Kind | None = None
    moved: bool = False
    front: bool = False
    depth: int = 2


class Belief:
    """The bot's knowledge of the enemy fleet of ``side``'s opponent; feed it every view in order.

    :param side: the bot's own side.
    :param follow: remember revealed kinds through later moves (see module docstring).
    :param infer: use movement and setup deductions (see module docstring).
    :param memory: remember revealed kinds at all (``False``: only public removal counts are used).
    :param fresh: without ``memory``, still know what the latest report shows (see module docstring).
    :param deep_bases: weigh bases towards markers that started deep in the enemy's zone (:data:`BASE_DEPTH`).
    """

    def __init__(
        self, side: Side, *, follow: bool = True, infer: bool = True, memory: bool = True, fresh: bool = False,
        deep_bases: bool = False,
    ) -> None:  # fmt: skip
        self.side = Side(side)
        self.enemy = self.side.opponent
        self.follow = follow
        self.infer = infer
        self.memory = memory
        self.fresh = fresh and not memory
        self.deep_bases = deep_bases and infer
        self.marks: dict[Cell, Mark] = {}
        self.lost: dict[Kind, int] = {}
        self.next_ply = 0
        self.started = False

    # -- updating ---------------------------------------------------------------------------

    def observe(self, view: PlayerView) -> None:
        """Take in one view of the bot's own side (events at plies already seen are skipped)."""
        markers = set(view.markers())
        if not self.started:
            self.started = True
            front = FRONT_ROW[self.enemy]
            opening = view.ply <= 1
            self.marks = {
                c: Mark(front=opening and c in front, depth=self._depth(c) if opening else 2) for c in markers
            }
        if self.fresh and any(e.ply >= self.next_ply for e in view.events):
            for m in self.marks.values():
                m.kind = None
        for e in view.events:
            if e.ply < self.next_ply:
                continue
            if isinstance(e, MoveView):
                if e.side is self.enemy:
                    self._moved(e.src, e.dst)
            elif isinstance(e, BattleReport):
                self._report(e)
        self.next_ply = view.ply
        # Reconcile with what the view shows (a lost event, or a view without ``since``).
        for c in [c for c in self.marks if c not in markers]:
            del self.marks[c]
        for c in markers:
            if c not in self.marks:
                self.marks[c] = Mark(moved=True)
        self.lost = dict(view.lost[self.enemy])

    def _depth(self, c: Cell) -> int:
        """Rows from the enemy's back edge to ``c`` (0 on its back edge, 4 in its front row)."""
        row = cell_row(c)
        return row if self.enemy is Side.SOUTH else 14 - row

    def _moved(self, src: Cell, dst: Cell) -> None:
        mark = self.marks.pop(src, None)
        if mark is None:
            mark = self.marks.get(dst) or Mark()
        mark.moved = True
        if not self.follow:
            mark.kind = None
        self.marks[dst] = mark

    def _report(self, r: BattleReport) -> None:
        gone = {s.cell for s in r.removed if s.side is self.enemy}
        for c in gone:
            self.marks.pop(c, None)
        if not (self.memory or self.fresh):
            return
        for s in r.participants:
            if s.side is self.enemy and s.cell not in gone:
                mark = self.marks.setdefault(s.cell, Mark())
                mark.kind = s.kind
                if not s.kind.is_mobile:
                    mark.moved = False

    # -- reading ----------------------------------------------------------------------------

    def known(self) -> dict[Cell, Kind]:
        """Markers whose kind the bot knows: cell → kind."""
        return {c: m.kind for c, m in self.marks.items() if m.kind is not None}

    def pool(self) -> dict[Kind, int]:
        """Units of each kind still hidden among the unknown markers (never negative)."""
        out = {k: k.count - self.lost.get(k, 0) for k in Kind}
        for m in self.marks.values():
            if m.kind is not None:
                out[m.kind] -= 1
        return {k: max(0, n) for k, n in out.items()}

    def _eligible(self, mark: Mark, kind: Kind) -> bool:
        if not self.infer:
            return True
        if kind in IMMOBILE and mark.moved:
            return False
        return not (kind is Kind.VMB and mark.front)

    def _base_weight(self, m: Mark) -> float:
        return BASE_DEPTH[min(4, max(0, m.depth))] if self.deep_bases else 1.0

    def probabilities(self) -> dict[Cell, dict[Kind, float]]:
        """Per marker, the probability of each kind (a known marker: its kind with probability 1).

        Unknown markers share the pool; with ``infer`` the immobile kinds go only to markers that
        never moved (and a base never to a front-row starter; with ``deep_bases`` likelier to a deep one).
        """
        pool = self.pool()
        unknown = [(c, m) for c, m in self.marks.items() if m.kind is None]
        out: dict[Cell, dict[Kind, float]] = {c: {m.kind: 1.0} for c, m in self.marks.items() if m.kind is not None}
        if not unknown:
            return out
        if not self.infer:
            total = sum(pool.values()) or 1
            dist = {k: n / total for k, n in pool.items() if n}
            for c, _ in unknown:
                out[c] = dist
            return out
        n_sm = sum(1 for _, m in unknown if not m.moved)
        n_vmb = sum(self._base_weight(m) for _, m in unknown if not m.moved and not m.front)
        p_sm = min(1.0, pool[Kind.SM] / n_sm) if n_sm else 0.0
        p_vmb = min(1.0, pool[Kind.VMB] / n_vmb) if n_vmb else 0.0
        others_total = sum(pool[k] for k in MOBILE if k is not Kind.M) or 1
        others = {k: pool[k] / others_total for k in MOBILE if pool[k] and k is not Kind.M}
        weights = sum(STILL_MINE if not m.moved else 1.0 for _, m in unknown)
        for c, m in unknown:
            imm = {}
            if not m.moved:
                if p_sm:
                    imm[Kind.SM] = p_sm
                if p_vmb and not m.front:
                    imm[Kind.VMB] = min(1.0, p_vmb * self._base_weight(m))
            rest = max(0.0, 1.0 - sum(imm.values()))
            p_m = min(1.0, pool[Kind.M] * (1.0 if m.moved else STILL_MINE) / weights)
            dist = {k: p * rest * (1.0 - p_m) for k, p in others.items()}
            if p_m:
                dist[Kind.M] = rest * p_m
            dist.update(imm)
            out[c] = dist
        return out

    def sample(self, rng: random.Random) -> dict[Cell, Kind]:
        """One complete assignment of kinds to every enemy marker, consistent with the belief:
        known kinds kept, the pool dealt out exactly, immobile kinds only where ``infer`` allows."""
        pool = self.pool()
        out = {c: m.kind for c, m in self.marks.items() if m.kind is not None}
        unknown = [c for c, m in self.marks.items() if m.kind is None]
        rng.shuffle(unknown)
        bag: list[Kind] = []
        if self.infer:
            for kind in (Kind.VMB, Kind.SM):
                slots = [c for c in unknown if self._eligible(self.marks[c], kind)]
                if kind is Kind.VMB and self.deep_bases:
                    slots = _weighted_order(slots, lambda c: self._base_weight(self.marks[c]), rng)
                take = min(pool[kind], len(slots))
                for c in slots[:take]:
                    out[c] = kind
                    unknown.remove(c)
                pool[kind] -= take
            # Mines go preferably to markers that never moved.
            keyed = _weighted_order(unknown, lambda c: 1.0 if self.marks[c].moved else STILL_MINE, rng)
            for c in keyed[: pool[Kind.M]]:
                out[c] = Kind.M
                unknown.remove(c)
            pool[Kind.M] -= min(pool[Kind.M], len(keyed))
        for k, n in pool.items():
            bag.extend([k] * n)
        rng.shuffle(bag)
        if len(bag) < len(unknown):  # tracking lost something: pad with the most common mobile kinds
            bag.extend(rng.choices(MOBILE, weights=[k.count for k in MOBILE], k=len(unknown) - len(bag)))
        for c, k in zip(unknown, bag, strict=False):
            out[c] = k
        return out


def _weighted_order(cells: list[Cell], weight, rng: random.Random) -> list[Cell]:
    """``cells`` in the order of a weighted draw without replacement (each key ``u ** (1 / weight)``,
    Efraimidis–Spirakis): the first ``n`` are a sample of ``n`` with chances by ``weight(cell) > 0``."""
    return sorted(cells, key=lambda c: rng.random() ** (1.0 / max(1e-6, weight(c))), reverse=True)
