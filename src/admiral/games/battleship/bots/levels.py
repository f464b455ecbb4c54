"""The five levels: :func:`make_bot`, :data:`LEVELS`.

A bot places its fleet (:meth:`Bot.setup`) and, whenever its seat must shoot, picks an unshot cell from what the
seat knows (:meth:`Bot.shoot`). It keeps no state between shots: everything it uses is in the
:class:`~.knowledge.Knowledge`, and its random choices come from ``random.Random`` seeded with its own seed and the
number of shots fired, so a bot is deterministic given its seed (level 5 up to the safety cut of its deadline),
and a bot made anew in the middle of a game plays on as the old one would.

- 1 «Юнга»: any unshot cell.
- 2 «Матрос»: the textbook hunt and target: hunts at random; while a ship is hit and afloat, a random side
  neighbour of one of its hits (it does not follow the line). Never shoots a cell the classic rules show empty
  (around a sunk ship).
- 3 «Мичман»: the textbook parity hunter: hunts on a checkerboard (every ship of two decks or more covers one of
  its cells) while such a ship is afloat, then on every cell; after a hit, a random neighbour; with two hits in a
  line, follows the line. In the classic rules it places its fleet so that sunk ships show few empty cells
  (:func:`~.setups.compact_layout`).
- 4 «Капитан»: the placement density of :func:`~.model.hunter_density` (every ship afloat counted on its own,
  every answer respected, hits weighted heavily); shoots its maximum.
- 5 «Адмирал»: the chance of a ship on each cell over whole fleets consistent with every answer
  (:mod:`.sampler`); while a ship is hit and afloat, the likeliest cell beside it (near-ties to the cell whose answer
  says the most); hunting, of the ten likeliest cells the one worth most over two shots (:func:`two_shot_value`).
  Places its own fleet where density hunters look last (:func:`~.setups.hidden_layout`).

Levels 1, 2 and 4 place their fleets uniformly at random among legal layouts.

>>> bot = make_bot(2, seed=7)
>>> bot.level, bot.name, bot.shoot(Knowledge.new("classic").after((0, 0), "hit"), 1.0) in ("a2", "b1")
(2, 'Матрос', True)
"""

from __future__ import annotations

import random
import time

from .geometry import bits
from .knowledge import Cell, Knowledge, cell_name
from .model import Facts, Reading, hunter_density
from .sampler import Estimate, estimate
from .sea import Layout, random_layout, setup_of
from .setups import compact_layout, hidden_layout

__all__ = [
    "LEVELS", "Bot", "DensityBot", "FleetBot", "HuntBot", "ParityBot", "RandomBot",
    "density_shot", "estimate_shot", "fleet_shot", "hunt_shot", "make_bot", "parity_shot", "two_shot_value",
]  # fmt: skip

#: Level → Russian name (plain strings; the game's registry marks them for translation).
LEVELS: dict[int, str] = {1: "Юнга", 2: "Матрос", 3: "Мичман", 4: "Капитан", 5: "Адмирал"}


class Bot:
    """A bot of one level: :meth:`setup` places its fleet, :meth:`shoot` picks a cell to fire at.

    ``seed``: everything the bot draws comes from it (and from the shot count, for shots).
    """

    level = 0

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @property
    def name(self) -> str:
        """The level's Russian name."""
        return LEVELS[self.level]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # -- setup ------------------------------------------------------------------------------------------------

    def setup(self, rules: str | Knowledge = "classic", seed: int | None = None) -> dict[str, str]:
        """The bot's fleet as a wire setup ``{cell name: code}`` (e.g. ``{"a1": "4", …}``), legal under ``rules``
        (a name of :data:`~.knowledge.RULES` or the rules' :class:`Knowledge`); ``seed`` overrides the bot's."""
        template = rules if isinstance(rules, Knowledge) else Knowledge.new(rules)
        rng = random.Random(f"setup:{self.level}:{self.seed if seed is None else seed}")
        return setup_of(self.layout(template.template(), rng))

    def layout(self, rules: Knowledge, rng: random.Random) -> Layout:
        """The fleet this level places: uniformly random among legal layouts (level 5 overrides)."""
        return random_layout(rules, rng)

    # -- shooting ---------------------------------------------------------------------------------------------

    def shoot(self, knowledge: Knowledge, deadline_s: float = 1.0) -> str:
        """The wire name of an unshot cell to fire at, chosen within about ``deadline_s`` seconds.

        :raises ValueError: if every cell has been shot.
        """
        if len(knowledge.shots) >= knowledge.width * knowledge.height:
            raise ValueError("every cell has been shot")
        rng = random.Random(f"{self.level}:{self.seed}:{len(knowledge.shots)}")
        return cell_name(self.choose(knowledge, rng, time.perf_counter() + deadline_s))

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """The cell to fire at; ``deadline`` is a ``time.perf_counter()`` value."""
        raise NotImplementedError


class RandomBot(Bot):
    """Level 1: any unshot cell, uniformly."""

    level = 1

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """A uniformly random unshot cell."""
        return rng.choice(knowledge.unshot())


class HuntBot(Bot):
    """Level 2: the textbook hunt and target (random hunt; after a hit, its side neighbours, in no order)."""

    level = 2

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """A side neighbour of an open hit, else any cell not known empty."""
        return hunt_shot(Facts(knowledge), rng)


class ParityBot(Bot):
    """Level 3: hunt with parity (a checkerboard while a ship of two decks or more is afloat), target along a line
    of hits; a compact fleet in the classic rules."""

    level = 3

    def layout(self, rules: Knowledge, rng: random.Random) -> Layout:
        """A fleet whose sunk ships show few empty cells (:func:`~.setups.compact_layout`)."""
        return compact_layout(rules, rng)

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """A cell along a line of open hits or beside one, else a cell of the parity class with the fewest cells
        left."""
        return parity_shot(Facts(knowledge), rng)


class DensityBot(Bot):
    """Level 4: the maximum of the placement density (:func:`~.model.hunter_density`)."""

    level = 4

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """A cell of the highest density (uniformly among equals)."""
        return density_shot(Facts(knowledge), rng)


class FleetBot(Bot):
    """Level 5: the likeliest cell over sampled whole fleets consistent with every answer (:mod:`.sampler`).

    ``draws``: layouts drawn per shot (fewer if the deadline comes first: the draws stop at ``budget`` × the time
    left); ``tie``: chances within ``tie`` of the best count as equal, and among them the cell whose answer has the
    most entropy wins (then the likeliest); ``target_first``: while a ship is hit and afloat, only the cells beside
    its hits are candidates (the bench found no cost to it: classic 54.9 against 54.4 mean shots over 100 fleets,
    within the noise; the classic prior's edge cells often rival a hit's neighbours); ``lookahead``: hunting, the
    cells weighed by :func:`two_shot_value` (0: the likeliest cell only).
    """

    level = 5
    draws = 1500
    budget = 0.6
    tie = 0.01
    target_first = True
    lookahead = 10

    def layout(self, rules: Knowledge, rng: random.Random) -> Layout:
        """A fleet where density hunters look last (:func:`~.setups.hidden_layout`)."""
        return hidden_layout(rules, rng)

    def choose(self, knowledge: Knowledge, rng: random.Random, deadline: float) -> Cell:
        """The cell of the highest estimated chance of a ship."""
        start = time.perf_counter()
        return fleet_shot(
            Facts(knowledge),
            rng,
            self.draws,
            start + self.budget * (deadline - start),
            self.tie,
            self.target_first,
            self.lookahead,
        )


# -- the levels' rules, as functions of the facts ----------------------------------------------------------------


def _pick(facts: Facts, mask: int, rng: random.Random) -> Cell:
    """A uniformly random cell of a non-empty cell mask."""
    return facts.g.cell(rng.choice(bits(mask)))


def _sunk_ring(facts: Facts, readings: list[Reading]) -> int:
    """Cells the classic rules show empty around the sunk ships of every reading (0 when ships may touch)."""
    if facts.k.touching:
        return 0
    ring = facts.g.full
    for r in readings:
        ring &= r.ring
    return ring


def _open_hits(readings: list[Reading]) -> int:
    """Hit cells that may belong to a ship afloat (in some reading of the sunk answers)."""
    out = 0
    for r in readings:
        out |= r.open_hits
    return out


def _line_target(facts: Facts, hits: int, avoid: int, rng: random.Random) -> Cell | None:
    """Level 3's target: a cell extending a line of two or more open hits, else a side neighbour of an open hit
    (uniformly among them); ``None`` if neither is left."""
    g = facts.g
    ends = 0
    for h in bits(hits):
        row, col = g.cell(h)
        for dr, dc in ((0, 1), (1, 0)):
            if not any(_hit_at(g, hits, row + k * dr, col + k * dc) for k in (-1, 1)):
                continue
            for step in (-1, 1):
                r, c = row, col
                while _hit_at(g, hits, r, c):
                    r, c = r + step * dr, c + step * dc
                if 0 <= r < g.height and 0 <= c < g.width:
                    ends |= 1 << (r * g.width + c)
    ends &= ~avoid
    if ends:
        return _pick(facts, ends, rng)
    near = 0
    for h in bits(hits):
        near |= g.side[h]
    near &= ~avoid
    return _pick(facts, near, rng) if near else None


def _hit_at(g, hits: int, row: int, col: int) -> bool:
    return 0 <= row < g.height and 0 <= col < g.width and bool(hits >> (row * g.width + col) & 1)


def hunt_shot(facts: Facts, rng: random.Random) -> Cell:
    """Level 2's shot: a random side neighbour of an open hit (not shot, not known empty), else a random cell not
    shot and not known empty."""
    g = facts.g
    readings = facts.readings()
    avoid = facts.shot | _sunk_ring(facts, readings)
    near = 0
    for h in bits(_open_hits(readings)):
        near |= g.side[h]
    near &= ~avoid
    if near:
        return _pick(facts, near, rng)
    return _pick(facts, g.full & ~avoid or g.full & ~facts.shot, rng)


def parity_shot(facts: Facts, rng: random.Random) -> Cell:
    """Level 3's shot: :func:`_line_target` on the open hits, else a random cell, not shot and not known empty, of
    the checkerboard colour (``(row + col) % 2``) with the fewer such cells left while a ship of two decks or more
    is afloat, of any colour once only one-deck ships are.

    (Spacing the hunt by the smallest ship afloat instead, 3 once Hasbro's patrol boat sinks, is worth 1.6 shots on
    Hasbro fleets, 51.2 → 49.6 mean over 1,000: too close to level 4 for a full game's ladder.)"""
    g = facts.g
    readings = facts.readings()
    avoid = facts.shot | _sunk_ring(facts, readings)
    hits = _open_hits(readings)
    if hits:
        cell = _line_target(facts, hits, avoid, rng)
        if cell is not None:
            return cell
    afloat = {st.size for t, st in enumerate(facts.types) if any(r.left[t] for r in readings)}
    spacing = 2 if max(afloat, default=1) > 1 else 1
    eligible = g.full & ~avoid
    if not eligible:
        return _pick(facts, g.full & ~facts.shot, rng)
    classes = [0] * spacing
    for i in bits(eligible):
        row, col = g.cell(i)
        classes[(row + col) % spacing] |= 1 << i
    return _pick(facts, min((m for m in classes if m), key=int.bit_count), rng)


def density_shot(facts: Facts, rng: random.Random) -> Cell:
    """Level 4's shot: a cell of the highest :func:`~.model.hunter_density` (level 3's if it is 0 everywhere, which
    only knowledge that contradicts the rules can give)."""
    d = hunter_density(facts)
    top = max(d)
    if top <= 0:
        return parity_shot(facts, rng)
    return facts.g.cell(rng.choice([i for i, v in enumerate(d) if v >= top * (1 - 1e-9)]))


def fleet_shot(
    facts: Facts, rng: random.Random, draws: int, cut: float, tie: float, target_first: bool = True, lookahead: int = 0
) -> Cell:
    """Level 5's shot: :func:`~.sampler.estimate` with ``draws`` draws (stopping at ``time.perf_counter()`` ≥
    ``cut``), then the likeliest unshot cell (with ``target_first``, the likeliest beside an open hit while there is
    one); among cells within ``tie`` of it, the one whose answer has the most entropy. Level 4's shot if no draw
    succeeded (knowledge that contradicts the rules).

    With ``lookahead`` > 0 and no ship to finish (hunting), the ``lookahead`` likeliest cells are weighed instead by
    :func:`two_shot_value`: the chance of a hit now plus the chance of the best shot after each answer."""
    keep: list[tuple[float, list[tuple[int, int]]]] | None = [] if lookahead else None
    est = estimate(facts, rng, draws, deadline=cut, keep=keep)
    return estimate_shot(facts, est, keep, rng, tie, target_first, lookahead)


def estimate_shot(
    facts: Facts,
    est: Estimate,
    keep: list[tuple[float, list[tuple[int, int]]]] | None,
    rng: random.Random,
    tie: float,
    target_first: bool = True,
    lookahead: int = 0,
) -> Cell:
    """:func:`fleet_shot`'s choice from an estimate already made (``keep``: its kept draws, or ``None``): for a
    caller that weighs other moves on the same estimate first (the extended variant's abilities)."""
    if not est.good:
        return density_shot(facts, rng)
    chance = est.chance
    unshot = [i for i in range(facts.g.area) if not facts.shot >> i & 1]
    hunting = True
    if target_first:
        hits = _open_hits(facts.readings())
        near = 0
        for h in bits(hits):
            near |= facts.g.side[h]
        near = [i for i in bits(near & ~facts.shot) if chance[i] > 0]
        if near:
            unshot = near
            hunting = False
    if hunting and keep:
        # cells no draw puts a ship on are not worth a shot while another is; among equal values, the surer hit
        # now (the last ship's sure cell is worth one hit over two shots, and so is any empty cell before it)
        ranked = sorted((i for i in unshot if chance[i] > 0), key=lambda i: -chance[i])[:lookahead]
        if ranked:
            value = two_shot_value(facts, keep, ranked)
            score = {i: (round(value[i], 9), round(chance[i], 12)) for i in ranked}
            best = max(score.values())
            return facts.g.cell(rng.choice([i for i in ranked if score[i] == best]))
    top = max(chance[i] for i in unshot)
    near = [i for i in unshot if chance[i] >= top - tie]
    if len(near) > 1:
        scored = [(round(est.entropy(facts, i), 9), round(chance[i], 12), i) for i in near]
        best = max(scored)[:2]
        near = [i for e, c, i in scored if (e, c) == best]
    return facts.g.cell(rng.choice(near))


def two_shot_value(
    facts: Facts, draws: list[tuple[float, list[tuple[int, int]]]], cells: list[int]
) -> dict[int, float]:
    """Per cell index of ``cells``, the expected hits of two shots: this cell, then, after its answer, the likeliest
    cell given that answer — over the weighted ``draws`` (``(weight, [(type index, placement index), …])`` of
    :func:`~.sampler.estimate`). An answer is the ship type hit when answers are named (rules B2), else hit or
    miss, and whether the ship sinks.

    A greedy hunter maximises the first term only; the second prefers, among cells about as likely, the one whose
    answer leaves a surer next shot (on 300 Hasbro fleets: 44.8 → 44.0 mean shots, median 44 → 43).
    """
    g = facts.g
    unshot_mask = g.full & ~facts.shot
    named = facts.k.named
    samples = []
    total = 0.0
    for w, chosen in draws:
        mask = 0
        answer: dict[int, tuple[int, bool]] = {}
        for t, p in chosen:
            size = facts.types[t].size
            m = g.masks[size][p] & unshot_mask
            mask |= m
            lone = m & (m - 1) == 0
            for c in g.cells[size][p]:
                answer[c] = (t if named else 0, lone)
        samples.append((w, mask, answer))
        total += w
    out = {}
    for c in cells:
        groups: dict[tuple[int, bool] | None, list[float]] = {}
        now = 0.0
        bit = 1 << c
        for w, mask, answer in samples:
            key = answer.get(c) if mask & bit else None
            if key is not None:
                now += w
            acc = groups.get(key)
            if acc is None:
                acc = groups[key] = [0.0] * g.area
            for i in bits(mask & ~bit):
                acc[i] += w
        out[c] = (now + sum(max(acc) for acc in groups.values())) / total
    return out


_CLASSES: dict[int, type[Bot]] = {1: RandomBot, 2: HuntBot, 3: ParityBot, 4: DensityBot, 5: FleetBot}


def make_bot(level: int, seed: int = 0) -> Bot:
    """A bot of ``level`` (1–5) drawing from ``seed``.

    :raises ValueError: for an unknown level.
    """
    if level not in _CLASSES:
        raise ValueError(f"no level {level}; levels are {sorted(_CLASSES)}")
    return _CLASSES[level](seed)
