"""The extended variant's five levels (rules C3–C6, D7–D10): the classic levels' shooting on a
:class:`~.sight.Sight` of the view, and each level's use of the abilities.

Every level sends only one of the view's legal actions (``legal``); whatever goes wrong in its reasoning (a view it
cannot read, facts that contradict each other after an unseen manoeuvre) ends in a legal shot, counted in
:attr:`ExtBot.failures` when it was an error. Random choices come from ``random.Random`` seeded with the bot's seed
and the view's ply, so a bot made anew in the middle of a game plays on as the old one would.

- 1 «Юнга»: a random legal shot; now and then (:data:`RANDOM_ABILITY`) a random ready ability instead.
- 2 «Матрос»: sure hits first (crosshairs, repaired decks, C3, D10); the classic level 2's hunt and target on
  what it knows (a figure's ring and a gold circle are known empty, C2, C3); hunting, the air strike when ready on
  the cross with the most cells that may hold a ship.
- 3 «Мичман»: as 2 with the classic level 3's checkerboard (parity) hunt, on the rules' facts alone: no sonar,
  no scan read as a fact; hunting, the air strike when ready on the cross of the highest density
  (:func:`~admiral.games.battleship.bots.model.hunter_density`). Spaced below level 4, whose density with the
  scans is the stronger hunt (24 games a pair, seed 2, «Перельман» / «Гигант»: 4 v 3 50 / 58 % → 79 / 75 %,
  3 v 2 88 / 96 % → 83 / 83 %; bench/results/battleship_ext_ai.txt, run 4).
- 4 «Капитан»: the classic level 4's density, made a chance per cell (the density's share of the decks not hit
  yet), raised in areas a scan answered «да»; the air strike when its cross holds at least
  :data:`AIR_GAIN` × the best single shot's chance; a sonar where its answer is least certain (most information),
  when the energy it spends still leaves the air strike ready next turn; the repair (D10) when it is ready.
- 5 «Адмирал»: the classic level 5's sampled fleets, conditioned on every answer, every known-empty cell and
  every scan (:meth:`.Sight.accept`); per energy, the expected hits of each attack (air strike, carpet strike)
  against the information (bits) of each scan (sonar, satellite), spent where the most is bought
  (:meth:`AdmiralBot.plan`); a handed one-deck boat still unhit is moved away (C5, D9); its mines and minesweeper
  on the opponent's likely approach lanes (:mod:`.placement`). It never shoots a gold circle.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from admiral.games.battleship.bots import Cell, cell_name, make_bot, parse_cell
from admiral.games.battleship.bots.geometry import bits
from admiral.games.battleship.bots.levels import estimate_shot
from admiral.games.battleship.bots.model import Facts, hunter_density
from admiral.games.battleship.bots.sampler import estimate

from .placement import setup_with_figures
from .sight import Sight

__all__ = [
    "AIR_GAIN", "FOUND_COST", "RANDOM_ABILITY", "SCAN_BITS",
    "AdmiralBot", "CaptainBot", "ExtBot", "HuntBot", "ParityBot", "RandomBot", "make",
]  # fmt: skip

#: Level 1's chance of a random ready ability instead of a shot.
RANDOM_ABILITY = 0.1
#: Levels 4–5: an attack is worth its energy when its area's expected hits reach this many times the best single
#: shot's chance (the shot it replaces would also end the turn on a miss).
AIR_GAIN = 2.0
#: Levels 4–5: a scan is worth its energy when its answer carries at least this much information (bits).
SCAN_BITS = 0.6
#: Level 5: what handing the opponent a deck of a ship it has not found costs, in hits (the deck is a sure hit
#: that shoots again, and the rest of the ship follows cheaply). Measured against level 4, the reveal is not worth
#: avoiding: classic, 30 games each, 2.0 (attacks and scans almost never) won 22 and 0 won 24; «Перельман», 16
#: games each (bench/results/battleship_ext_ai.txt, runs 1 and 2), 0.25 won 6 and 0 won 10 — an air strike's
#: shots in one turn and a scan's answer are worth more than what the reveal hands over. A knob, at 0.
FOUND_COST = 0.0


class ExtBot:
    """A bot of the extended variant: ``setup(side)``, ``act(view, deadline_s)``, ``observe(view)`` (the classic
    bot interface, :mod:`admiral.games.battleship.botapi`). ``rules``: the engine's rules value (its board, fleet
    and :attr:`figures`); ``failures``: errors its reasoning ran into (each answered by a legal shot)."""

    level = 0

    def __init__(self, seed: int, rules: Any) -> None:
        self.seed = seed
        self.rules = rules
        self.classic = make_bot(self.level, seed)
        self.failures = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # -- setup ------------------------------------------------------------------------------------------------

    def setup(self, side: str) -> dict[str, str]:
        """The seat's whole setup ``{cell name: code}``: ships (the classic level's fleet), mines ``"M"`` and
        minesweepers ``"T"`` (C1, C2), legal under the rules."""
        from admiral.games.battleship.seat_bot import knowledge_of

        rng = random.Random(f"ext-setup:{self.level}:{self.seed}:{side}")
        figures = [(f.code, f.count) for f in getattr(self.rules, "figures", ()) if f.count]
        setup = setup_with_figures(self.classic, knowledge_of(self.rules), figures, rng, self.level >= 5)
        if setup is None:  # never seen; the engine's own arrangement always succeeds (contract)
            from admiral.games.battleship.rules import auto_arrange
            from admiral.games.battleship.rules import cell_name as engine_name

            return {engine_name(c): code for c, code in auto_arrange(self.rules, rng).items()}
        return setup

    # -- play -------------------------------------------------------------------------------------------------

    def observe(self, view: Any) -> None:
        """Nothing to remember: every action is chosen from the view itself."""

    def act(self, view: Any, deadline_s: float = 1.0) -> str:
        """One of ``view``'s legal actions (notation), chosen within about ``deadline_s`` seconds.

        :raises ValueError: if the view offers no legal action (not the seat's turn, or the game is over).
        """
        sight = Sight(view)
        if not sight.legal:
            raise ValueError("the view offers no legal action")
        rng = random.Random(f"ext:{self.level}:{self.seed}:{sight.ply}:{len(sight.shots)}")
        deadline = time.perf_counter() + deadline_s
        try:
            choice = self.decide(sight, rng, deadline)
        except Exception:  # a bot never stalls a game: count it, answer with a legal shot
            self.failures += 1
            choice = None
        if choice in sight.legal:
            return choice
        return self.fallback(sight, rng)

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """The level's action (a notation; ``None`` or anything not legal gives :meth:`fallback`)."""
        raise NotImplementedError

    def fallback(self, sight: Sight, rng: random.Random) -> str:
        """A legal shot when the level's own choice failed: a sure hit, else a random cell not known empty (never
        a gold circle while another cell is left), else any legal action."""
        sure = sight.sure()
        if sure:
            return sure[0]
        avoid = {cell_name(c) for c in sight.known_empty(soft=False)}
        names = [n for n in sight.shot_names if n not in avoid] or sight.shot_names
        if names:
            return rng.choice(names)
        return rng.choice(sorted(sight.legal))

    # -- shared helpers ---------------------------------------------------------------------------------------

    def classic_shot(self, sight: Sight, deadline: float, scans: bool = True) -> str | None:
        """The classic level's shot on what the seat knows (known-empty cells included, then without the soft
        ones if that left nothing; without them only, when ``scans`` is false)."""
        for soft in (True, False) if scans else (False,):
            k = sight.knowledge(soft)
            if len(k.shots) >= k.width * k.height:
                continue
            name = self.classic.shoot(k, max(0.05, deadline - time.perf_counter()))
            if name in sight.shot_names:
                return name
        return None

    @staticmethod
    def hunting(facts: Facts) -> bool:
        """Whether no ship is hit and afloat (every hit belongs to a sunk ship, in some reading of the answers)."""
        return not any(r.open_hits for r in facts.readings())

    @staticmethod
    def best_area(
        sight: Sight, ability: str, value: Mapping[Cell, float], rng: random.Random
    ) -> tuple[str, float] | None:
        """Of ``ability``'s legal centres, the one whose area adds up the most ``value`` (ties at random), as
        ``(notation, total)``; ``None`` if the ability is not ready."""
        entry = sight.areas.get(ability)
        if entry is None:
            return None
        prefix, centres = entry
        scored = [(sum(value.get(c, 0.0) for c in sight.area(ability, parse_cell(n))), n) for n in centres]
        top = max(s for s, _ in scored)
        return f"{prefix} {rng.choice([n for s, n in scored if s >= top - 1e-12])}", top


class RandomBot(ExtBot):
    """Level 1 «Юнга»: random legal shots, and now and then a random ready ability."""

    level = 1

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """A random ready ability with chance :data:`RANDOM_ABILITY`, else a random legal shot."""
        abilities = [f"{p} {c}" for p, cells in sight.areas.values() for c in cells] + sight.repairs
        if abilities and rng.random() < RANDOM_ABILITY:
            return rng.choice(abilities)
        return rng.choice(sight.shot_names) if sight.shot_names else None


class HuntBot(ExtBot):
    """Level 2 «Матрос»: sure hits, the classic hunt and target, the air strike while hunting."""

    level = 2

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """Sure hit, else (hunting) an air strike on the cross of most open cells, else the classic shot."""
        sure = sight.sure()
        if sure:
            return sure[0]
        facts = Facts(sight.knowledge())
        if "air" in sight.areas and self.hunting(facts):
            open_cells = {facts.g.cell(i): 1.0 for i in bits(facts.g.full & ~facts.shot)}
            air = self.best_area(sight, "air", open_cells, rng)
            if air is not None and air[1] >= 3:
                return air[0]
        return self.classic_shot(sight, deadline)


class ParityBot(ExtBot):
    """Level 3 «Мичман»: as level 2 with the classic parity hunt; no scans."""

    level = 3

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """Sure hit; hunting, an air strike when ready on the cross of the highest density (rules' facts only),
        else the classic level 3's shot on the rules' facts alone (no scan read as a fact)."""
        sure = sight.sure()
        if sure:
            return sure[0]
        k = sight.knowledge(soft=False)
        facts = Facts(k)
        if "air" in sight.areas and self.hunting(facts):
            g = facts.g
            value = {g.cell(i): v for i, v in enumerate(hunter_density(facts)) if v > 0}
            air = self.best_area(sight, "air", value, rng)
            if air is not None:
                return air[0]
        return self.classic_shot(sight, deadline, scans=False)


def _entropy(p: float) -> float:
    """Bits of a yes/no answer «да» with chance ``p``."""
    if p <= 0 or p >= 1:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


class CaptainBot(ExtBot):
    """Level 4 «Капитан»: chances from the density, abilities weighed on them."""

    level = 4

    def chances(self, sight: Sight, facts: Facts) -> dict[Cell, float]:
        """Per open cell, the density's share of the decks not hit yet (a rough chance of a deck), times 2 in
        the areas a scan answered «да» for that no hit has explained since, capped at 1."""
        g = facts.g
        d = hunter_density(facts)
        total = sum(d)
        if total <= 0:
            return {}
        decks = sum(size * count for _, size, count in sight.fleet) - facts.targets.bit_count()
        scale = max(decks, 1) / total
        out = {g.cell(i): min(1.0, v * scale) for i, v in enumerate(d) if v > 0}
        for scan in sight.scans:
            if scan.answer and not any(sight.shots.get(c, ("",))[0] in ("hit", "sunk") for c in scan.cells):
                for c in scan.cells:
                    if c in out:
                        out[c] = min(1.0, out[c] * 2)
        return out

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """Sure hit; the repair when ready; hunting: an attack or a scan by :meth:`ability`; else the best
        chance (the classic level 4's shot where the chances tie)."""
        sure = sight.sure()
        if sure:
            return sure[0]
        if sight.repairs:
            return sight.repairs[0]
        facts = Facts(sight.knowledge())
        chance = self.chances(sight, facts)
        if chance and self.hunting(facts):
            pick = self.ability(sight, chance, rng)
            if pick is not None:
                return pick
        return self.best_chance(sight, chance, rng) or self.classic_shot(sight, deadline)

    @staticmethod
    def best_chance(sight: Sight, chance: Mapping[Cell, float], rng: random.Random) -> str | None:
        """A legal shot of the highest chance (at random among equals), ``None`` if there is none."""
        if not chance:
            return None
        top = max(chance.values())
        best = [c for c, v in chance.items() if v >= top * (1 - 1e-9) and cell_name(c) in sight.shot_names]
        return cell_name(rng.choice(sorted(best))) if best else None

    def ability(self, sight: Sight, chance: Mapping[Cell, float], rng: random.Random) -> str | None:
        """An attack whose area holds :data:`AIR_GAIN` × the best shot's chance, else a sonar whose answer (yes
        with chance 1 − Π(1 − p) over its cells) carries :data:`SCAN_BITS`, when the energy can be spared."""
        best = max(chance.values())
        for key in ("carpet", "air"):
            attack = self.best_area(sight, key, chance, rng)
            if attack is not None and attack[1] >= AIR_GAIN * best:
                return attack[0]
        entry = sight.areas.get("sonar")
        if entry is not None and sight.spare(sight.cost("sonar") or 0):
            prefix, centres = entry
            scored = []
            for n in centres:
                miss = 1.0
                for c in sight.area("sonar", parse_cell(n)):
                    miss *= 1 - chance.get(c, 0.0)
                scored.append((_entropy(1 - miss), n))
            info, name = max(scored)
            if info >= SCAN_BITS:
                return f"{prefix} {name}"
        return None


class AdmiralBot(ExtBot):
    """Level 5 «Адмирал»: sampled fleets under every fact; energy where it buys the most."""

    level = 5
    #: Draws per decision (fewer if the deadline comes first: they stop at ``budget`` × the time left).
    draws = 1500
    budget = 0.4
    #: One bit of a scan's answer counted as this share of a hit, to weigh scans against attacks per energy.
    bit_value = 0.5
    #: Draws a scan's answer is weighed on (the first of the estimate's; enough for a yes/no or a count).
    scan_draws = 300

    def decide(self, sight: Sight, rng: random.Random, deadline: float) -> str | None:
        """Sure hit; a handed boat moved away; the sampled estimate (:meth:`Sight.accept`: scans, falling back
        to no soft fact if none fits); hunting, :meth:`plan`'s ability; else the classic level 5's shot."""
        sure = sight.sure()
        if sure:
            return sure[0]
        start = time.perf_counter()
        cut = start + self.budget * (deadline - start)
        for soft in (True, False):
            facts = Facts(sight.knowledge(soft))
            if facts.shot.bit_count() >= facts.g.area:
                continue
            keep: list[tuple[float, list[tuple[int, int]]]] = []
            accept = sight.accept(facts) if soft else None
            est = estimate(facts, rng, self.draws, deadline=cut, keep=keep, accept=accept)
            if not est.good:
                continue
            hunting = self.hunting(facts)
            if hunting:
                move = self.rescue(sight)
                if move is not None:
                    return move
                chance = {facts.g.cell(i): p for i, p in enumerate(est.chance) if p > 0 and not facts.shot >> i & 1}
                if chance:
                    pick = self.plan(sight, facts, chance, keep, rng)
                    if pick is not None:
                        return pick
            cell = estimate_shot(facts, est, keep, rng, 0.01, True, 10)
            name = cell_name(cell)
            if name in sight.shot_names:
                return name
        return self.classic_shot(sight, deadline)

    def rescue(self, sight: Sight) -> str | None:
        """A legal manoeuvre of a one-deck boat whose cell was handed to the opponent and not shot yet (its
        crosshair goes with the move, D9), else ``None``."""
        handed = set(sight.own.get("handed") or ())
        for notation in sight.moves:
            src = notation.split()[1].split("-")[0]
            if src in handed:
                return notation
        return None

    def plan(
        self,
        sight: Sight,
        facts: Facts,
        chance: Mapping[Cell, float],
        keep: list[tuple[float, list[tuple[int, int]]]],
        rng: random.Random,
    ) -> str | None:
        """The ability that buys the most per energy, or ``None`` to shoot: an attack (air strike, carpet
        strike) is worth its area's expected hits beyond the best single shot's chance, and only at
        :data:`AIR_GAIN` × that chance or more; a scan (sonar, satellite) the entropy of its answer over the draws
        × :attr:`bit_value`, at :data:`SCAN_BITS` or more, and only when its energy can be spared
        (:meth:`Sight.spare`)."""
        best = max(chance.values())
        options: list[tuple[float, str]] = []
        for key in ("air", "carpet"):
            attack = self.best_area(sight, key, chance, rng)
            cost = sight.cost(key) or 1
            if attack is not None and attack[1] >= AIR_GAIN * best:
                gain = attack[1] - best - FOUND_COST * sight.reveal_risk(key)
                if gain > 0:
                    options.append((gain / cost, attack[0]))
        for key in ("sonar", "satellite"):
            if key not in sight.areas or not sight.spare(sight.cost(key) or 0):
                continue
            scan = self.best_scan(sight, facts, key, keep)
            if scan is not None and scan[0] >= SCAN_BITS:
                gain = scan[0] * self.bit_value * best - FOUND_COST * sight.reveal_risk(key)
                if gain > 0:
                    options.append((gain / (sight.cost(key) or 1), scan[1]))
        if not options:
            return None
        return max(options)[1]

    def best_scan(
        self, sight: Sight, facts: Facts, key: str, keep: list[tuple[float, list[tuple[int, int]]]]
    ) -> tuple[float, str] | None:
        """Of ``key``'s legal centres, the one whose answer has the most entropy over the kept draws (sonar: any
        deck not shot in the 3×3; satellite: how many in the 5×5), as ``(bits, notation)``."""
        prefix, centres = sight.areas[key]
        g = facts.g
        open_mask = g.full & ~facts.shot
        layouts = []
        total = 0.0
        for w, chosen in keep[: self.scan_draws]:
            ships = 0
            for t, p in chosen:
                ships |= g.masks[facts.types[t].size][p]
            layouts.append((w, ships & open_mask))
            total += w
        if not total:
            return None
        best: tuple[float, str] | None = None
        for name in centres:
            mask = 0
            for c in sight.area(key, parse_cell(name)):
                mask |= 1 << g.index(c)
            answers: dict[int, float] = {}
            for w, ships in layouts:
                n = (ships & mask).bit_count()
                k = min(n, 1) if key == "sonar" else n
                answers[k] = answers.get(k, 0.0) + w
            bits_ = -sum(x / total * math.log2(x / total) for x in answers.values() if x > 0)
            if best is None or bits_ > best[0]:
                best = (bits_, f"{prefix} {name}")
        return best


_CLASSES: dict[int, type[ExtBot]] = {1: RandomBot, 2: HuntBot, 3: ParityBot, 4: CaptainBot, 5: AdmiralBot}


def make(level: int, seed: int, rules: Any) -> ExtBot:
    """A bot of ``level`` (1–5) for ``rules`` (the engine's rules value), drawing from ``seed``.

    :raises ValueError: for an unknown level.
    """
    if level not in _CLASSES:
        raise ValueError(f"no level {level}; levels are {sorted(_CLASSES)}")
    return _CLASSES[level](seed, rules)
