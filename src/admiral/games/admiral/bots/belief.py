"""What a bot believes about the enemy's closed markers (rules §11), built only from its views.

A :class:`Belief` follows the markers of one enemy fleet through the views a side receives: each
marker is a :class:`Mark` (known kind or not, whether it ever moved, whether it started in the front
row). From the public removal counts and the kinds it knows it keeps the **pool**: how many units of
each kind are still hidden among the unknown markers. It gives per-marker kind probabilities and
samples complete assignments of kinds (determinizations) consistent with what it knows.

Two switches set how much it remembers:

- ``follow`` (levels 4–5): a revealed unit stays known after it closes again and moves (the mark
  travels with the marker along :class:`MoveView` events). Without it (level 3) a known kind is
  forgotten when its marker moves.
- ``fresh`` (with ``memory`` off): kinds shown by the latest battle report are known until the next
  view brings new events, i.e. the bot knows what the report it just read shows, and nothing older.
- ``infer``: deductions from movement and setup: a marker that ever moved is not ``SM``/``VMB``
  (they never move, rules §5.1); a marker that stood in the enemy's front row at the start is not a
  ``VMB`` (rules §3.2); and a likelihood, not a certainty: a mine (``M``) hides
  :data:`STILL_MINE` times likelier under a marker that never moved (it moves only beside a
  destroyer, rules §5.2, and seldom has a reason to).
- ``deep_bases`` (levels 4–5): a second likelihood: a base hides likelier the deeper its marker
  started in the enemy's zone (:data:`BASE_DEPTH`), as commanders hide their bases at the back.
- ``deduce`` (level 5, with ``follow``): what the tethers of rules §5.2 and §6 give away. A weapon acts or
  steps only beside a carrier of its kind, so an air strike, a torpedo shot, a step of a followed ``S``,
  ``T`` or ``M`` and an armed torpedo going off (rules §7.2) each say "one of the markers 8-adjacent to
  that cell is the carrier" (:class:`Must`; the carrier ``A`` is pinned down when one candidate is left,
  the hunt of rules §12), and a dummy torpedo says "none of them is a ``TK``" (``Mark.nots``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import CARRIER, FRONT_ROW, BattleReport, Cell, Kind, MoveView, PlayerView, Side
from ..rules.board import RING, cell_row

__all__ = ["Belief", "Mark", "Must"]

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
    (its starting row counted from the enemy's back edge, 0–4; 2 when the start was not seen), ``nots``
    (kinds it was deduced not to be, with ``deduce``)."""

    kind: Kind | None = None
    moved: bool = False
    front: bool = False
    depth: int = 2
    nots: frozenset[Kind] = frozenset()


@dataclass(slots=True, eq=False)
class Must:
    """A deduction of ``deduce``: one of ``marks`` (the markers 8-adjacent to a weapon when it acted or
    stepped, followed through their moves) is of ``kind``, a carrier (rules §5.2, §6, §7.2)."""

    kind: Kind
    marks: list[Mark]


class Belief:
    """The bot's knowledge of the enemy fleet of ``side``'s opponent; feed it every view in order.

    :param side: the bot's own side.
    :param follow: remember revealed kinds through later moves (see module docstring).
    :param infer: use movement and setup deductions (see module docstring).
    :param memory: remember revealed kinds at all (``False``: only public removal counts are used).
    :param fresh: without ``memory``, still know what the latest report shows (see module docstring).
    :param deep_bases: weigh bases towards markers that started deep in the enemy's zone (:data:`BASE_DEPTH`).
    :param deduce: the carriers' deductions from the tethers (see module docstring; needs ``follow``).
    """

    def __init__(
        self, side: Side, *, follow: bool = True, infer: bool = True, memory: bool = True, fresh: bool = False,
        deep_bases: bool = False, deduce: bool = False,
    ) -> None:  # fmt: skip
        self.side = Side(side)
        self.enemy = self.side.opponent
        self.follow = follow
        self.infer = infer
        self.memory = memory
        self.fresh = fresh and not memory
        self.deep_bases = deep_bases and infer
        self.deduce = deduce and follow and memory and infer
        self.musts: list[Must] = []
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
        if self.deduce:
            self._settle()

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
        if self.deduce and mark.kind in CARRIER:  # a weapon steps only beside its carrier, before or after
            self._must(CARRIER[mark.kind], (*RING[src], *RING[dst]), mark)
        self.marks[dst] = mark

    def _report(self, r: BattleReport) -> None:
        if self.deduce:
            self._tethers(r)
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

    # -- deductions (``deduce``) ----------------------------------------------------------

    def _tethers(self, r: BattleReport) -> None:
        """What a report says of the carriers, read before its removals (rules §6, §7.2)."""
        att, target = r.attacker, r.target
        if att.side is self.enemy and r.method in ("air", "torpedo"):
            # An aircraft strikes only with its carrier 8-adjacent, a torpedo fires only with a TK 8-adjacent.
            self._must(CARRIER[att.kind], RING[att.cell], None)
        elif target is not None and target.side is self.enemy and target.kind is Kind.T and r.method == "contact":
            if att.kind is Kind.BR:
                return  # the fireship goes with any torpedo, armed or dummy
            if any(s.side is not self.enemy for s in r.removed):
                self._must(Kind.TK, RING[target.cell], None)  # armed: it went off
            else:  # a dummy: no TK of its side was 8-adjacent
                for c in RING[target.cell]:
                    m = self.marks.get(c)
                    if m is not None and m.kind is None:
                        m.nots = m.nots | {Kind.TK}

    def _must(self, kind: Kind, cells, skip: Mark | None) -> None:
        marks = [m for c in dict.fromkeys(cells) if (m := self.marks.get(c)) is not None and m is not skip]
        if any(m.kind is kind for m in marks):
            return  # a known carrier stands there: nothing new
        marks = [m for m in marks if m.kind is None]
        if marks:
            self.musts.append(Must(kind, marks))

    def _settle(self) -> None:
        """Drop what the deductions no longer say (markers gone, kinds known, no such unit left); a
        deduction left with one candidate makes that marker known."""
        alive = {id(m) for m in self.marks.values()}
        pool = self.pool()
        changed = True
        while changed:
            changed = False
            keep = []
            for must in self.musts:
                if any(id(m) in alive and m.kind is must.kind for m in must.marks):
                    continue  # satisfied by a known marker
                must.marks = [m for m in must.marks if id(m) in alive and m.kind is None and self._can_be(m, must.kind)]
                if not must.marks or not pool[must.kind]:
                    continue
                if len(must.marks) == 1:
                    must.marks[0].kind = must.kind
                    pool[must.kind] -= 1
                    changed = True
                    continue
                keep.append(must)
            self.musts = keep
            # The last unit of a kind (the carrier A always) stands in every set that must hold one.
            for kind in {must.kind for must in keep if pool[must.kind] == 1}:
                sets = [must for must in keep if must.kind is kind]
                if len(sets) < 2:
                    continue
                common = {id(m) for m in sets[0].marks}
                for must in sets[1:]:
                    common &= {id(m) for m in must.marks}
                last = sets[-1]
                merged = Must(kind, [m for m in last.marks if id(m) in common] if common else last.marks)
                self.musts = [must for must in self.musts if must.kind is not kind] + [merged]
                changed = True

    def _can_be(self, mark: Mark, kind: Kind) -> bool:
        return kind not in mark.nots and self._eligible(mark, kind)

    def carrier_candidates(self) -> list[Cell]:
        """With ``deduce``: the markers one of which must be the enemy's carrier ``A`` (the smallest such
        set), or the carrier's marker when it is known; empty when nothing narrows it."""
        known = [c for c, m in self.marks.items() if m.kind is Kind.A]
        if known:
            return known
        sets = [must.marks for must in self.musts if must.kind is Kind.A]
        if not sets:
            return []
        where = {id(m): c for c, m in self.marks.items()}
        return sorted(where[id(m)] for m in min(sets, key=len))

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
        if self.deduce:
            self._deduced(out)
        return out

    def _deduced(self, out: dict[Cell, dict[Kind, float]]) -> None:
        """Fold the deductions into per-marker probabilities: a kind a marker cannot be goes (the rest
        scaled up); a carrier that must be one of ``n`` markers has at least ``1/n`` on each, and the
        carrier ``A`` (one of its kind) nothing outside them."""

        def put(dist: dict[Kind, float], kind: Kind, p: float) -> dict[Kind, float]:
            old = dist.get(kind, 0.0)
            rest = 1.0 - old
            scale = (1.0 - p) / rest if rest > 1e-9 else 0.0
            new = {k: v * scale for k, v in dist.items() if k is not kind}
            if p > 0:
                new[kind] = p
            return new

        cells = {id(m): c for c, m in self.marks.items()}
        for c, m in self.marks.items():
            if m.kind is None:
                for k in m.nots:
                    if k in out[c]:
                        out[c] = put(out[c], k, 0.0)
        for must in self.musts:
            where = [cells[id(m)] for m in must.marks if id(m) in cells]
            if not where:
                continue
            share = 1.0 / len(where)
            if must.kind is Kind.A:
                inside = set(where)
                for c, m in self.marks.items():
                    if m.kind is None and c not in inside and out[c].get(Kind.A):
                        out[c] = put(out[c], Kind.A, 0.0)
            for c in where:
                if out[c].get(must.kind, 0.0) < share:
                    out[c] = put(out[c], must.kind, share)

    def sample(self, rng: random.Random) -> dict[Cell, Kind]:
        """One complete assignment of kinds to every enemy marker, consistent with the belief:
        known kinds kept, the pool dealt out exactly, immobile kinds only where ``infer`` allows."""
        pool = self.pool()
        out = {c: m.kind for c, m in self.marks.items() if m.kind is not None}
        unknown = [c for c, m in self.marks.items() if m.kind is None]
        rng.shuffle(unknown)
        hidden = list(unknown)
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
        if self.deduce and (self.musts or any(m.nots for m in self.marks.values())):
            self._obey(out, hidden, rng)
        return out

    def _obey(self, out: dict[Cell, Kind], unknown: list[Cell], rng: random.Random) -> None:
        """Swap kinds between unknown markers of a sample until it keeps the deductions (as far as a
        swap that keeps every other rule can): no marker of a kind it cannot be, a carrier in each set."""
        marks = self.marks

        def fits(c: Cell, k: Kind) -> bool:
            return self._can_be(marks[c], k)

        def swap_in(c: Cell, others: list[Cell]) -> bool:
            for d in others:
                if d != c and fits(d, out[c]) and fits(c, out[d]):
                    out[c], out[d] = out[d], out[c]
                    return True
            return False

        order = list(unknown)
        rng.shuffle(order)
        for c in order:
            if out[c] in marks[c].nots:
                swap_in(c, order)
        cells = {id(m): c for c, m in marks.items()}
        for _ in range(2):
            for must in self.musts:
                where = [cells[id(m)] for m in must.marks if id(m) in cells]
                if not where or any(out[c] is must.kind for c in where):
                    continue
                inside = set(where)
                holders = [d for d in order if d not in inside and out[d] is must.kind]
                for c in rng.sample(where, len(where)):
                    if not fits(c, must.kind):
                        continue
                    if not holders:  # fewer markers than hidden units (a partial view): the kind was not dealt
                        out[c] = must.kind
                        break
                    if swap_in(c, holders):
                        break


def _weighted_order(cells: list[Cell], weight, rng: random.Random) -> list[Cell]:
    """``cells`` in the order of a weighted draw without replacement (each key ``u ** (1 / weight)``,
    Efraimidis–Spirakis): the first ``n`` are a sample of ``n`` with chances by ``weight(cell) > 0``."""
    return sorted(cells, key=lambda c: rng.random() ** (1.0 / max(1e-6, weight(c))), reverse=True)
