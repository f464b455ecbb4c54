"""The bots: one interface, five levels (rules §12, issue 4).

A bot sees exactly what a human in its seat sees: the :class:`~admiral.games.admiral.rules.PlayerView` of its own
side, view after view, and what it chose to remember of them. It is never given the true state.

Lifecycle, as the tournament harness (or the server's bots runner) drives it::

    bot = make_bot(5, seed=1)
    setup = bot.setup(Side.NORTH)          # cell → kind, a valid setup (rules §3)
    ...                                    # after every ply of the game:
    bot.observe(view(state, Side.NORTH, log, since=last_seen_ply))
    action = bot.act(that_view, deadline_s=1.0)   # when that_view.to_act is North

``act`` returns one of ``view.legal`` (a :class:`~admiral.games.admiral.rules.Declare` when the view's ``pending``
battle offers the bot's side a choice of declarations).
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..rules import (
    SCALE,
    Action,
    Attack,
    BattleReport,
    Cell,
    Declare,
    Detonate,
    Kind,
    Move,
    MoveView,
    PlayerView,
    Seen,
    Side,
    auto_arrange,
    formations_at,
    scale_row,
)
from ..rules.board import AIR_RAYS, BLAST, HEIGHT, ORTH, RING
from .belief import Belief
from .world import attacks, build_world, outcome

__all__ = ["LEVELS", "Bot", "HeuristicBot", "Level", "RandomBot", "make_bot"]

#: The bots' clock, seconds (a test may replace it to step time deterministically).
_clock = time.perf_counter


@runtime_checkable
class Bot(Protocol):
    """What every bot offers. A bot takes its ``random.Random`` in its constructor (OpenSpiel style)
    and is deterministic given it (up to the safety cut of ``deadline_s``)."""

    level: int
    name: str

    def setup(self, side: Side) -> dict[Cell, Kind]:
        """A complete valid setup for ``side`` (rules §3): cell → kind, 58 units in the side's zone."""
        ...

    def observe(self, view: PlayerView) -> None:
        """Take in a view of the bot's own side (call after every ply; repeated views are harmless)."""
        ...

    def act(self, view: PlayerView, deadline_s: float) -> Action:
        """Choose one of ``view.legal`` within about ``deadline_s`` seconds.

        :raises ValueError: if the view offers the bot no legal action (not its turn).
        """
        ...


@dataclass(frozen=True, slots=True)
class Level:
    """A level's name and Russian UI name."""

    level: int
    name: str
    ru: str


def N_(msgid: str) -> str:
    """Mark a level's Russian name for the translation catalogs (``admiral i18n update`` extracts it); the UI
    translates it where it shows it. Local, not ``admiral.i18n``'s: ai imports only the engine."""
    return msgid


LEVELS: dict[int, Level] = {
    1: Level(1, "novice", N_("Юнга")),
    2: Level(2, "greedy", N_("Мичман")),
    3: Level(3, "heuristic", N_("Капитан-лейтенант")),
    4: Level(4, "search", N_("Капитан 1 ранга")),
    5: Level(5, "admiral", N_("Адмиральский")),
}

# -- values ------------------------------------------------------------------------------------

A, L, KR, R, ES, ST, TK, KRPL, TR, PL, S, T, M, SM, BR, AB, VMB = Kind
#: What a unit is worth to its side, in points (a base: see :func:`unit_value`).
VALUE = {A: 22, L: 16, KR: 8, R: 9, ES: 6, ST: 2, TK: 3, KRPL: 7, TR: 2, PL: 5, S: 12, T: 3, M: 2, SM: 1, BR: 3,
         AB: 10, VMB: 0}  # fmt: skip
#: Material as the metrics count it: :data:`VALUE`, a naval base 40 (two bases are the game).
WORTH = {**VALUE, VMB: 40}
FORMABLE = frozenset((L, KR, R, ES, KRPL, PL))
STRIKERS = {L: 0.6, R: 0.5, KR: 0.5, ES: 0.4, KRPL: 0.4, PL: 0.35, BR: 0.35}
#: Kinds that stay beside their own base to close it (level 5's base defence): every mobile unit but the strike
#: ships, the carrier with its aircraft and the bomb, whose blast would take the base (rules §8).
PLUGS = frozenset((ES, ST, TK, KRPL, PL, TR, M, BR))
PAIRS = {tuple(sorted(c)) for c in SCALE if len(c) == 2} | {tuple(sorted(c[:2])) for c in SCALE if len(c) == 3}


def _contact_net(attacker: Kind, mine: Kind) -> float:
    """Points I lose (positive) or win (negative) when an enemy ``attacker`` contact-attacks my
    unit of kind ``mine`` alone (rules §7.1–§7.2, declarations of single ships)."""
    if attacker is BR:
        return 0.0 if mine is S else VALUE[mine] - VALUE[BR]
    if not attacker.is_rated:
        return 0.0  # only rated ships and the fireship attack by contact
    if mine.is_rated:
        a, d = attacker.strength, mine.strength
        if a > d:
            return VALUE[mine]
        if a < d:
            return -VALUE[attacker]
        return VALUE[mine] - VALUE[attacker]
    if mine is A:
        return VALUE[A] + VALUE[S]
    if mine is S:
        return VALUE[S] if attacker in (L, R) else -VALUE[attacker]
    if mine is M:
        return VALUE[M] - (0 if attacker is TR else VALUE[attacker])
    if mine in (SM, BR, T):
        return VALUE[mine] - VALUE[attacker]
    if mine is AB:
        return VALUE[AB] + 10.0  # the blast takes neighbours of both sides; mine are nearer
    return 60.0  # VMB


CONTACT_NET = {(x, k): _contact_net(x, k) for x in Kind for k in Kind}


def unit_value(kind: Kind, bases_left: int) -> float:
    """Points for a unit of ``kind``; a base is worth 60 while its side has two, 1000 for the last."""
    if kind is VMB:
        return 1000.0 if bases_left <= 1 else 60.0
    return float(VALUE[kind])


# -- level 1 -----------------------------------------------------------------------------------


class RandomBot:
    """Level 1 «Юнга»: attacks whenever it can (a random attack), else a random legal move; never
    detonates unless nothing else is legal; random declarations; plain auto-arrangement."""

    level = 1

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = LEVELS[1].ru

    def setup(self, side: Side) -> dict[Cell, Kind]:
        """Auto-arrangement (rules §3.4) from the bot's rng."""
        return auto_arrange(side, self.rng)

    def observe(self, view: PlayerView) -> None:
        """Level 1 remembers nothing."""

    def act(self, view: PlayerView, deadline_s: float) -> Action:
        """A random attack if there is one, else a random move (see the class docstring)."""
        legal = list(view.legal)
        if not legal:
            raise ValueError("the view offers no legal action: not this bot's turn")
        hits = [a for a in legal if type(a) is Attack]
        if hits:
            return self.rng.choice(hits)
        moves = [a for a in legal if type(a) is not Detonate]
        return self.rng.choice(moves or legal)


# -- levels 2–5 --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Config:
    """What a heuristic level uses (every level has the positional plan and the belief's deductions).
    ``memory``/``follow``/``fresh``: the :class:`Belief` switches; ``samples``: determinizations per
    move; ``search``: candidates searched two plies deep (0: none); ``deep``: worlds
    per searched candidate; ``noise``: random tie-break added to every score; ``setup``: a key of
    :data:`~admiral.games.admiral.bots.setups.SETUPS` (``forward``: bases just behind the front row, ``back``: bases
    on the back edge, ``guarded``: bases on the back edge between mines, ``admiral``: the whole
    deliberate setup); ``defend``: ships shift towards a threatened base, and units beside the own bases close
    them, while the enemy can still attack (rules §6); ``pairs``: ships assemble formation pairs near the enemy;
    ``bomb``: the atomic bomb advances and detonates on a favourable expected exchange; ``deep_bases``: the belief
    expects bases deep in the enemy's zone (:data:`.belief.BASE_DEPTH`); ``deduce``: the belief reads the
    carriers from the weapons' tethers, and the ships hunt the carrier once it is narrowed to a few markers;
    ``bomb_guard``: the own units and bases inside the own bomb's blast square count at the risk that the enemy sets
    it off (rules §8), and a detonation must remove at least as much enemy worth as own in the sampled worlds;
    ``press``: ahead in material while the quiet-sea counter runs (rules §10.3), an attack that removes an enemy
    unit earns up to :data:`PRESS` points, and the aircraft (and its carrier while it has one) hunt the base targets
    (:data:`AIR_HUNT`);
    ``trail``: a unit stepping back to where it came from pays :data:`REPEAT`;
    ``air_defence``: while an enemy aircraft whose cell is known can strike (its carrier lives, rules §6), the own
    units it would destroy pay :data:`AIR_DANGER` of their worth on its strike lines, and the battleships and
    raiders, whose fire downs it (rules §7.2), close in on it (:data:`AA_PULL`);
    ``anytime``: after the two-ply search, fresh worlds keep refining the leading candidates until they part by
    :data:`SETTLED` points or the deadline nears."""

    memory: bool
    follow: bool
    samples: int
    search: int
    deep: int
    noise: float
    setup: str = "back"
    defend: bool = False
    pairs: bool = False
    bomb: bool = False
    fresh: bool = False
    deep_bases: bool = False
    deduce: bool = False
    bomb_guard: bool = False
    press: bool = False
    trail: bool = False
    anytime: bool = False
    air_defence: bool = False


CONFIGS = {
    2: Config(memory=False, follow=False, samples=16, search=0, deep=0, noise=0.5, fresh=True, setup="forward"),
    3: Config(memory=True, follow=False, samples=30, search=0, deep=0, noise=0.05),
    4: Config(memory=True, follow=True, samples=30, search=48, deep=30, noise=0.05, setup="guarded",
              deep_bases=True),
    5: Config(memory=True, follow=True, samples=30, search=64, deep=30, noise=0.05,
              setup="admiral", defend=True, pairs=True, bomb=True, deep_bases=True, deduce=True, bomb_guard=True,
              press=True, trail=True, anytime=True, air_defence=True),
}  # fmt: skip

#: Level 5's endgame press (rules §10.3): points at most for an attack that removes an enemy unit while the side is
#: ahead in material; the press starts after ``PRESS_FROM`` quiet plies (half the draw's count: a long manoeuvre is
#: no endgame) and grows linearly to the draw at 200.
PRESS, PRESS_FROM = 40.0, 100
#: Worth of material (own minus enemy, :data:`VALUE`, a base 40) from which a side counts as ahead.
AHEAD = 8
#: While level 5 presses (rules §10.3), its carrier and aircraft close in on the base targets too: points per step
#: beyond :data:`AIR_REACH` steps along rows and columns from the nearest one (an air strike reaches 1–4 cells along a
#: line, rules §6). A quiet-sea draw while ahead ended with, by its count, only those two to strike with.
AIR_HUNT, AIR_REACH = 0.5, 3
#: Level 5's air defence (rules §6, §7.2): the share of its worth an own unit that a known enemy aircraft would destroy
#: pays for standing on that aircraft's strike lines (1–4 cells along its row or column), and the points a battleship
#: or raider earns per step closer to it (up to :data:`AA_REACH` steps away). Level 4's aircraft struck up to 15
#: times in a lost game's last 300 plies, again and again from the same few cells once it had been seen.
AIR_DANGER, AA_PULL, AA_REACH = 0.5, 0.4, 10
#: Points a unit pays for stepping straight back to the cell its last move came from (half for an older cell of its
#: trail of the last :data:`TRAIL` own moves).
REPEAT, TRAIL = 1.5, 12
#: Points by which the best candidate must lead the second for the anytime refinement to stop early; worlds a round;
#: rounds at most (beyond ~500 fresh worlds the estimates no longer move).
SETTLED, ROUND, MAX_ROUNDS = 3.0, 12, 40
#: The chance that the enemy sets off a bomb it can reach in ``d`` orthogonal steps (index ``min(d, 5)``): what the
#: own units in the blast square risk (rules §8). Within two steps a ship reaches it this very turn (a step, then a
#: contact attack: rules §4.2, §6). The first goal run gave 0.98 own units a game to the own bomb at (0.5, 0.5, 0.3,
#: 0.15, 0.08, 0.02): most blasts came from enemies one turn away, where the guard counted only half the risk. The
#: second (0.67 a game at (0.9, 0.9, 0.8, 0.4, 0.2, 0.05)) lost most in squares crowded long before an enemy came
#: near: one step a turn cannot empty a square once an enemy is two steps off, so a crowd beside the bomb costs from
#: afar too (the floor), and the fleet keeps clear of it, or the bomb of the fleet, before the enemy arrives.
BLAST_RISK = (0.9, 0.9, 0.8, 0.5, 0.35, 0.25)
#: The same chance from a marker that may be an aircraft (weighed by that probability): one within
#: :data:`AIR_LINE` cells along the bomb's row or column, or one column or row beside it (a step, then a strike
#: from up to 4 cells: rules §6), reaches the bomb this turn.
AIR_RISK, AIR_LINE = 0.8, 5
BLAST_SET = tuple(frozenset(b) for b in BLAST)


class HeuristicBot:
    """Levels 2–5: expected value of every attack over sampled enemy identities, a positional plan,
    and (levels 4–5) a two-ply search over determinizations. See :data:`CONFIGS` and the docstring
    of :mod:`admiral.games.admiral.bots` for what each level switches on.

    :param level: 2–5.
    :param rng: the bot's random source (setup, sampling, tie-breaks).
    """

    def __init__(self, level: int, rng: random.Random) -> None:
        if level not in CONFIGS:
            raise ValueError(f"no heuristic level {level}: 2–5")
        self.level = level
        self.name = LEVELS[level].ru
        self.cfg = CONFIGS[level]
        self.rng = rng
        self.side: Side | None = None
        self.belief: Belief | None = None
        self.seen_ply = -1
        self.rounds = 0  # refinement rounds of the last act (``anytime``)

    # -- lifecycle ---------------------------------------------------------------------------

    def _start(self, side: Side) -> None:
        self.side = Side(side)
        c = self.cfg
        self.belief = Belief(
            self.side, follow=c.follow, memory=c.memory, fresh=c.fresh, deep_bases=c.deep_bases, deduce=c.deduce
        )
        self.seen_ply = -1
        # My units the opponent has seen in a battle report (followed through my own moves): what
        # the search's reply model lets the opponent know of my fleet.
        self.exposed: set[Cell] = set()
        self.exposed_ply = 0
        # My last moves, (src, dst), oldest first: the trail a unit must not walk back along (``trail``).
        self.trail: deque[tuple[Cell, Cell]] = deque(maxlen=TRAIL)

    def setup(self, side: Side) -> dict[Cell, Kind]:
        """The level's setup (:data:`.setups.SETUPS`): level 2 bases just behind the front row,
        level 3 on the back edge, level 4 guarded bases, level 5 the deliberate setup; the rest of the
        fleet auto-arranged around them (rules §3.4)."""
        from .setups import SETUPS

        self._start(side)
        return SETUPS[self.cfg.setup](self.side, self.rng)

    def observe(self, view: PlayerView) -> None:
        """Update the belief with a view of the bot's side (a view already seen is ignored)."""
        if self.side is None or view.side is not self.side:
            if view.side is None:
                raise ValueError("a bot takes only views of a player's side")
            self._start(view.side)
        if view.ply <= self.seen_ply:
            return
        self.seen_ply = view.ply
        self._expose(view)
        self.belief.observe(view)

    def _expose(self, view: PlayerView) -> None:
        """Follow which of my units the opponent has seen (reports name them; my moves carry them)."""
        exposed = self.exposed
        for e in view.events:
            if e.ply < self.exposed_ply:
                continue
            if isinstance(e, MoveView):
                if e.side is self.side:
                    self.trail.append((e.src, e.dst))
                    if e.src in exposed:
                        exposed.discard(e.src)
                        exposed.add(e.dst)
            elif isinstance(e, BattleReport):
                for u in e.removed:
                    if u.side is self.side:
                        exposed.discard(u.cell)
                gone = {u.cell for u in e.removed if u.side is self.side}
                exposed.update(u.cell for u in e.participants if u.side is self.side and u.cell not in gone)
        self.exposed_ply = view.ply
        own = view.own()
        exposed.intersection_update(own)

    # -- choosing ----------------------------------------------------------------------------

    def act(self, view: PlayerView, deadline_s: float) -> Action:
        """Choose an action (see the class docstring); stops refining once ``deadline_s`` is near."""
        start = _clock()
        stop = start + max(0.0, deadline_s) * 0.8
        self.rounds = 0
        legal = list(view.legal)
        if not legal:
            raise ValueError("the view offers no legal action: not this bot's turn")
        self.observe(view)
        if len(legal) == 1:
            return legal[0]
        if type(legal[0]) is Declare:
            return self._declare(view, legal)
        # Fewer determinizations under a tight deadline (from 0.12 s up the level's full count).
        ctx = _Context(self, view, max(2, min(self.cfg.samples, int(deadline_s * 100))))
        scored: list[tuple[float, int, Action]] = []
        late = False
        for i, a in enumerate(legal):
            kind = type(a)
            if i % 16 == 0 and not late:
                late = _clock() > stop
            if kind is Move:
                s = ctx.move_delta(a.src, a.dst)
            elif late:
                continue  # out of time: the remaining attacks go unweighed
            elif kind is Attack:
                s = ctx.attack_value(a)
                if a.via is not None:
                    s += ctx.move_delta(a.src, a.via)
            elif kind is Detonate:
                if not self.cfg.bomb or (self.cfg.bomb_guard and not ctx.detonation_ok()):
                    continue
                s = ctx.attack_value(a) - 6.0
            else:
                continue
            scored.append((s + self.rng.random() * self.cfg.noise, i, a))
        if not scored:
            return self.rng.choice(legal)
        scored.sort(key=lambda t: (-t[0], t[1]))
        if self.cfg.search and _clock() < stop:
            scored = ctx.search(scored[: self.cfg.search], stop)
            if self.cfg.anytime:
                scored = ctx.refine(scored, stop)
                self.rounds = ctx.rounds
        return scored[0][2]

    def _declare(self, view: PlayerView, options: list[Action]) -> Declare:
        """The defender's declaration: level 2 the strongest row; levels 3–5 the best expected exchange
        against the attacker's strongest formation over sampled identities."""
        own = view.own()

        def row(d: Declare) -> int:
            return scale_row(own[c] for c in d.formation) or 0

        strongest = max(options, key=lambda d: (row(d), -len(d.formation), [-c for c in d.formation]))
        if self.level < 3 or view.pending is None:
            return strongest
        src = view.pending.src
        totals = [0.0] * len(options)
        n = 0
        bases = 2 - view.lost[self.side.opponent].get(VMB, 0)
        for _ in range(self.cfg.samples):
            guess = self.belief.sample(self.rng)
            if guess.get(src) not in FORMABLE and guess.get(src) not in (ST, TK, TR):
                continue
            world = build_world(self.side, own, guess)
            forms = [(src,), *formations_at(world.board, src)]
            att = max(forms, key=lambda f: SCALE[tuple(sorted(guess[c] for c in f))])
            att_row = SCALE[tuple(sorted(guess[c] for c in att))]
            att_val = sum(unit_value(guess[c], bases) for c in att)
            n += 1
            for i, d in enumerate(options):
                mine = row(d)
                my_val = sum(VALUE[own[c]] for c in d.formation)
                if mine > att_row:
                    totals[i] += att_val
                elif mine < att_row:
                    totals[i] -= my_val
                else:
                    totals[i] += att_val - my_val
        if not n:
            return strongest
        best = max(range(len(options)), key=lambda i: (totals[i], options[i] is strongest))
        return options[best]


class _Context:
    """Everything computed once per decision: sampled worlds, distance fields, own units."""

    def __init__(self, bot: HeuristicBot, view: PlayerView, samples: int) -> None:
        self.bot = bot
        self.cfg = bot.cfg
        self.view = view
        self.side = side = bot.side
        self.enemy = side.opponent
        self.own = view.own()
        self.markers = set(view.markers())
        belief = bot.belief
        self.bases = {side: 2 - view.lost[side].get(VMB, 0), self.enemy: 2 - view.lost[self.enemy].get(VMB, 0)}
        # The last free movers keep the side alive (rules §4.4: no legal action loses).
        self.free = sum(1 for k in self.own.values() if k.is_mobile and k not in (S, T, M))
        self.scarce = 1.0 + 6.0 / max(1, self.free - 3)
        self.guesses = [belief.sample(bot.rng) for _ in range(samples)]
        self.worlds = [build_world(side, self.own, g) for g in self.guesses]
        self.known = belief.known() if self.cfg.memory else {}
        self.urgency = 1.0 + 3.0 * view.quiet / 200
        self.enemy_dist = _field(self.markers)
        self.hidden_cache: dict[frozenset[Cell], dict] = {}
        # Per weighed attack: (summed points, worlds) of its immediate outcome; per searched candidate: (summed
        # reply loss, worlds); refinement rounds run (``anytime``).
        self.immediate: dict[Action, tuple[float, int]] = {}
        self.replies: dict[Action, tuple[float, int]] = {}
        self.rounds = 0
        self.per_candidate = 0.0
        probs = belief.probabilities()
        # Per enemy marker and per kind of mine: what I expect to lose if it attacks that unit.
        self.threat = {
            c: {k: max(0.0, sum(p * CONTACT_NET[x, k] for x, p in dist.items())) for k in Kind}
            for c, dist in probs.items()
        }
        # Few enemies left or a long quiet: every ship hunts the bases.
        self.endgame = len(self.markers) <= 20 or view.quiet >= 80
        p_base = {c: d.get(VMB, 0.0) for c, d in probs.items()}
        top = max(p_base.values(), default=0.0)
        targets = {c for c, p in p_base.items() if top > 0 and p >= 0.5 * top}
        targets |= {c for c, k in self.known.items() if k is A}
        if self.cfg.deduce:
            carrier = belief.carrier_candidates()
            if len(carrier) <= 3:
                targets |= set(carrier)
        self.base_dist = _field(targets or self.markers)
        self.threat_dist = None
        # The endgame press (rules §10.3): ahead in material while the quiet-sea counter runs out.
        self.press = 0.0
        self.air_left = S in self.own.values()  # a carrier without its aircraft strikes nothing (rules §6)
        if self.cfg.press and view.quiet > PRESS_FROM and self.material_margin(view) >= AHEAD:
            self.press = PRESS * min(1.0, (view.quiet - PRESS_FROM) / (200 - PRESS_FROM))
            self.endgame = True
        # My bomb and the reach of the enemy to it (rules §8): the blast square's own units are at risk.
        self.bomb: Cell | None = None
        self.air: dict[Cell, float] = {}  # markers that may be aircraft: their probability of being one
        self.risk_at: dict[Cell, float] = {}
        if self.cfg.bomb_guard:
            self.bomb = next((c for c, k in self.own.items() if k is AB), None)
            self.air = {c: p for c, d in probs.items() if (p := d.get(S, 0.0)) > 0.0}
        # Known enemy aircraft that can strike (rules §6: only beside a living carrier): their strike lines, and
        # the distance of every cell to them for the ships whose fire downs an aircraft (rules §7.2).
        self.air_lines: frozenset[Cell] = frozenset()
        self.aa_dist: list[int] | None = None
        if self.cfg.air_defence and not view.lost[self.enemy].get(A, 0):
            seen_air = {c for c, k in self.known.items() if k is S}
            if seen_air:
                self.air_lines = frozenset(x for c in seen_air for ray in AIR_RAYS[c] for x in ray)
                self.aa_dist = _field(seen_air)
        # Cells touching my bases: a unit there must be beaten before the base can be reached by contact. Once the
        # enemy has nothing left that attacks (rules §6: a rated ship, a fireship, an aircraft with its carrier),
        # there is nothing to close them against: the plugs join the hunt.
        self.plugs: set[Cell] = set()
        if self.cfg.defend and can_attack(view.lost[self.enemy]):
            self.plugs = {n for c, k in self.own.items() if k is VMB for n in ORTH[c]}
            threatened = [c for c, k in self.own.items() if k is VMB and self.enemy_dist[c] <= 3]
            if threatened:
                self.threat_dist = _field(set(threatened))

    # -- values ------------------------------------------------------------------------------

    def material_margin(self, view: PlayerView) -> int:
        """My material minus the enemy's (:data:`VALUE`, a base 40): exact, since every removal is public
        (rules §11.4)."""
        mine = sum(WORTH[k] for k in self.own.values())
        theirs = sum(WORTH[k] * (k.count - view.lost[self.enemy].get(k, 0)) for k in Kind)
        return mine - theirs

    def blast_risk(self, bomb: Cell) -> float:
        """The chance (0–1) that the enemy sets off my bomb on ``bomb`` soon (rules §8): :data:`BLAST_RISK` of
        the nearest enemy marker's distance, or :data:`AIR_RISK` times the likeliest aircraft among the markers
        that could strike it this turn, whichever is larger."""
        risk = self.risk_at.get(bomb)
        if risk is None:
            risk = BLAST_RISK[min(self.enemy_dist[bomb], 5)]
            bc, br = divmod(bomb, HEIGHT)
            for c, p in self.air.items():
                ac, ar = divmod(c, HEIGHT)
                dc, dr = abs(ac - bc), abs(ar - br)
                if min(dc, dr) <= 1 and max(dc, dr) <= AIR_LINE:
                    risk = max(risk, AIR_RISK * p)
            self.risk_at[bomb] = risk
        return risk

    def blast_exposure(self, bomb: Cell, own: dict[Cell, Kind]) -> float:
        """Points my units (the bomb itself not counted) inside the blast square of my bomb on ``bomb`` would cost
        if it went off (rules §8), weighed by :meth:`blast_risk`."""
        risk = self.blast_risk(bomb)
        bases = self.bases[self.side]
        total = 0.0
        for c in BLAST[bomb]:
            k = own.get(c)
            if k is not None and k is not AB:
                total += unit_value(k, bases)
        return risk * total

    def trail_cost(self, src: Cell, dst: Cell) -> float:
        """What a move ``src`` → ``dst`` pays for walking back along its unit's trail: :data:`REPEAT` to the cell
        the unit's last move came from, half of it to an older cell of its trail, else 0."""
        cur = src
        first = True
        for a, b in reversed(self.bot.trail):
            if b != cur:
                continue
            if a == dst:
                return REPEAT if first else REPEAT / 2
            cur = a
            first = False
        return 0.0

    def detonation_ok(self) -> bool:
        """Whether detonating my bomb removes at least as much enemy worth as own in every sampled world, and more
        than the bomb's own value in at least half of them (rules §8; :data:`VALUE`, a base 40)."""
        bomb = self.bomb
        if bomb is None:
            return False
        own = sum(WORTH[k] for c in BLAST[bomb] if (k := self.own.get(c)) is not None and k is not AB)
        gains = []
        for g in self.guesses:
            gains.append(sum(WORTH[k] for c in BLAST[bomb] if (k := g.get(c)) is not None))
        if not gains:
            return False
        gains.sort()
        return gains[0] >= own and gains[len(gains) // 2] - own > VALUE[AB]

    def loss_value(self, removed: list[Seen]) -> float:
        """My gain from a set of removed units: theirs count plus, mine count minus."""
        total = 0.0
        enemy_bases = self.bases[self.enemy]
        my_bases = self.bases[self.side]
        for s in removed:
            if s.side is self.side:
                total -= unit_value(s.kind, my_bases)
                if s.kind.is_mobile and s.kind not in (S, T, M):
                    total -= 30.0 / max(1, self.free - 3)
                if s.kind is VMB:
                    my_bases -= 1
            else:
                total += unit_value(s.kind, enemy_bases)
                if s.kind is VMB:
                    enemy_bases -= 1
        return total

    def attack_value(self, action: Action) -> float:
        """Expected points of an attack (or detonation) over the sampled worlds."""
        total = 0.0
        n = 0
        hits = 0
        kills = 0  # worlds where an enemy unit goes
        enemy = self.enemy
        for w in self.worlds:
            r = outcome(w, action)
            if r is None:
                continue
            total += self.loss_value(r[1])
            n += 1
            hits += bool(r[1])
            kills += any(u.side is enemy for u in r[1])
        if not n:
            return -1.0
        self.immediate[action] = (total, n)
        return total / n + self.attack_bonus(action, hits / n, kills / n)

    def attack_bonus(self, action: Action, removes: float, kills: float = 0.0) -> float:
        """Points for attacking at all: what the report reveals, and the quiet-sea clock (rules §10.3),
        which only a removal resets: ``removes`` is the share of worlds where the attack removes a unit, ``kills``
        where it removes an enemy unit (what the endgame press rewards, not a sacrifice). An attack known to change
        nothing (an air strike on a revealed mine, rules §7.2) earns nothing."""
        if type(action) is not Attack:
            return 0.0
        bonus = 0.5 * self.urgency * removes + self.press * kills
        if self.cfg.memory and action.target not in self.known:
            bonus += 0.5  # what the report will reveal
        return bonus

    # -- the plan ----------------------------------------------------------------------------

    def term(self, k: Kind, c: Cell, own: dict[Cell, Kind]) -> float:
        """Positional points of my unit of kind ``k`` on ``c`` with my units ``own``."""
        e = self.enemy_dist[c]
        danger = 0.0
        if e <= 1:
            threat = self.threat
            for n in ORTH[c]:
                th = threat.get(n)
                if th is not None and th[k] > danger:
                    danger = th[k]
        b = self.base_dist[c]
        t = 0.0
        if self.endgame and (k.is_rated or k is BR):
            t -= 0.8 * b
        w = STRIKERS.get(k)
        if w is not None:
            t -= w * e + 0.2 * b
            if self.threat_dist is not None and k in (L, KR, R, ES):
                t -= 0.4 * self.threat_dist[c]
        elif k is TR:
            t -= 0.15 * e + 0.3 * b
        elif k is ST or k is TK:
            t -= 0.15 * e
        elif k is A:
            t -= 0.2 * max(0, e - 3)
        elif k is S:
            t += 1.5 if _near(own, c, A) else -1.5
            t -= 0.25 * max(0, e - 3)
        elif k is T:
            t += 1.0 if _near(own, c, TK) else -0.5
            t -= 0.1 * e
        elif k is M:
            t += 0.3 if _near(own, c, ES) else 0.0
        elif k is AB and self.cfg.bomb:
            t -= 0.15 * e
        if self.press and (k is S or (k is A and self.air_left)):
            t -= AIR_HUNT * max(0, b - AIR_REACH)
        if self.aa_dist is not None:
            if k is L or k is R:
                t -= AA_PULL * min(self.aa_dist[c], AA_REACH)
            elif c in self.air_lines and (k.is_rated or k is A):
                t -= AIR_DANGER * VALUE[k]
        t -= 0.6 * self.scarce * danger
        if k in PLUGS and c in self.plugs:
            t += 2.0
        if self.cfg.pairs and k in FORMABLE and e <= 3:
            for n in ORTH[c]:
                mate = own.get(n)
                if mate is not None and tuple(sorted((k, mate))) in PAIRS:
                    t += 0.3
        return t

    def move_delta(self, src: Cell, dst: Cell) -> float:
        """Change of the positional points when my unit steps ``src`` → ``dst``."""
        own = self.own
        k = own[src]
        cells = {src, dst, *RING[src], *RING[dst]}
        before = sum(self.term(own[c], c, own) for c in cells if c in own)
        bomb = self.bomb
        blast = bomb is not None and (k is AB or src in BLAST_SET[bomb] or dst in BLAST_SET[bomb])
        if blast:
            before -= self.blast_exposure(bomb, own)
        del own[src]
        own[dst] = k
        after = sum(self.term(own[c], c, own) for c in cells if c in own)
        if blast:
            after -= self.blast_exposure(dst if k is AB else bomb, own)
        del own[dst]
        own[src] = k
        delta = after - before
        if self.cfg.trail:
            delta -= self.trail_cost(src, dst)
        return delta

    # -- two plies ---------------------------------------------------------------------------

    def search(self, top: list[tuple[float, int, Action]], stop: float) -> list[tuple[float, int, Action]]:
        """Re-score the ``top`` candidates: my action, then the opponent's best attack, over worlds."""
        out = []
        began = _clock()
        for base, i, a in top:
            if _clock() > stop and out:
                out.append((base - 1e6, i, a))
                continue
            # The immediate value stays the one weighed over all the samples (``base``); the few
            # searched worlds only estimate what the opponent's reply costs me. The opponent
            # chooses its reply on what it knows of my fleet (see :meth:`reply_loss`).
            penalty, n = self.reply_total(a, self.worlds[: self.cfg.deep])
            self.replies[a] = (penalty, n)
            score = base - 0.4 * penalty / n if n else base
            out.append((score, i, a))
        self.per_candidate = (_clock() - began) / max(1, len(out))
        out.sort(key=lambda t: (-t[0], t[1]))
        return out

    def reply_total(self, action: Action, worlds: list) -> tuple[float, int]:
        """Summed :meth:`reply_loss` after ``action`` over ``worlds`` where it is legal, and their number."""
        penalty = 0.0
        n = 0
        seen = self.seen_after(action)
        for w in worlds:
            r = outcome(w, action)
            if r is None:
                continue
            w2 = r[0]
            n += 1
            if w2.result is None and w2.to_act is self.enemy:
                penalty += self.reply_loss(w2, seen)
        return penalty, n

    def refine(self, ranked: list[tuple[float, int, Action]], stop: float, lead: int = 4):
        """Anytime (level 5): while the best of ``ranked`` (``(score, index, action)``, best first, as
        :meth:`search` leaves them) leads the second by less than :data:`SETTLED` points and a round fits before
        ``stop`` (seconds on :data:`_clock`), sample :data:`ROUND` fresh worlds and fold them into the ``lead``
        best candidates' estimates: an attack's immediate value and every candidate's reply loss; at most
        :data:`MAX_ROUNDS` rounds. Returns the list re-ranked; :attr:`rounds` counts the rounds run."""
        bot = self.bot
        per_round = self.per_candidate * lead * ROUND / max(1, self.cfg.deep)
        while len(ranked) >= 2 and ranked[0][0] - ranked[1][0] < SETTLED and self.rounds < MAX_ROUNDS:
            began = _clock()
            if began + per_round > stop:
                break
            worlds = [build_world(self.side, self.own, bot.belief.sample(bot.rng)) for _ in range(ROUND)]
            head = []
            for score, i, a in ranked[:lead]:
                pen, n = self.replies.get(a, (0.0, 0))
                old = pen / n if n else 0.0
                if a in self.immediate:
                    total, m = self.immediate[a]
                    was = total / m
                    for w in worlds:
                        r = outcome(w, a)
                        if r is not None:
                            total += self.loss_value(r[1])
                            m += 1
                    self.immediate[a] = (total, m)
                    score += total / m - was
                more, k = self.reply_total(a, worlds)
                pen, n = pen + more, n + k
                self.replies[a] = (pen, n)
                if n:
                    score += 0.4 * (old - pen / n)
                head.append((score, i, a))
            ranked = sorted(head + ranked[lead:], key=lambda t: (-t[0], t[1]))
            self.rounds += 1
            per_round = max(per_round, _clock() - began)
        return ranked

    def seen_after(self, action: Action) -> set[Cell]:
        """My cells the opponent knows after ``action`` (the unit that moves keeps its exposure; an
        attacker is revealed by its report)."""
        seen = set(self.bot.exposed)
        kind = type(action)
        if kind is Move:
            if action.src in seen:
                seen.discard(action.src)
                seen.add(action.dst)
        elif kind is Attack:
            seen.discard(action.src)
            seen.add(action.via if action.via is not None else action.src)
        return seen

    def hidden_mean(self, seen: set[Cell]) -> dict[Kind, float]:
        """Per enemy attacker kind, what the opponent expects to win by a contact attack on one of
        my units it has not seen (the mean over my unseen kinds)."""
        key = frozenset(seen)
        cache = self.hidden_cache
        out = cache.get(key)
        if out is None:
            kinds = [k for c, k in self.own.items() if c not in seen]
            n = len(kinds) or 1
            out = {x: sum(CONTACT_NET[x, k] for k in kinds) / n for x in (L, KR, R, ES, ST, TK, KRPL, TR, PL, BR)}
            out[None] = sum(VALUE[k] for k in kinds) / n
            cache[key] = out
        return out

    def reply_loss(self, world, seen: set[Cell]) -> float:
        """What I lose by the opponent's reply in ``world``: it picks the attack that looks best to it
        (my units it has seen at their kinds, the others at the mean of my unseen kinds), or none
        when no attack looks profitable; ties are averaged."""
        board = world.board
        mean = self.hidden_mean(seen)
        best = 0.0
        chosen: list[Attack] = []
        for reply in attacks(world):
            x = board[reply.src].kind
            t = reply.target
            mine = board[t].kind
            if x.is_rated or x is BR:
                v = CONTACT_NET[x, mine] if t in seen else mean[x]
            else:
                v = VALUE[mine] if t in seen else mean[None]
            if v > best + 1e-9:
                best = v
                chosen = [reply]
            elif v > best - 1e-9 and chosen:
                chosen.append(reply)
        if not chosen:
            return 0.0
        total = 0.0
        m = 0
        for reply in chosen[:6]:
            r = outcome(world, reply)
            if r is not None:
                total -= self.loss_value(r[1])
                m += 1
        return total / m if m else 0.0


def can_attack(lost: dict[Kind, int]) -> bool:
    """Whether a side that lost ``lost`` (kind → units removed) still has a unit that attacks (rules §6): a rated
    ship (a torpedo needs its boat, one), a fireship, or an aircraft with its carrier."""

    def left(k: Kind) -> int:
        return k.count - lost.get(k, 0)

    return any(left(k) for k in Kind if k.is_rated) or left(BR) > 0 or (left(S) > 0 and left(A) > 0)


def _near(own: dict[Cell, Kind], c: Cell, carrier: Kind) -> bool:
    return any(own.get(n) is carrier for n in RING[c])


def _field(sources: set[Cell]) -> list[int]:
    """Distance along rows and columns from every cell to the nearest of ``sources`` (99 if none)."""
    dist = [99] * 210
    queue = deque()
    for c in sources:
        dist[c] = 0
        queue.append(c)
    while queue:
        c = queue.popleft()
        d = dist[c] + 1
        for n in ORTH[c]:
            if dist[n] > d:
                dist[n] = d
                queue.append(n)
    return dist


def make_bot(level: int, seed: int | random.Random | None = None) -> Bot:
    """A bot of ``level`` 1–5 with its own ``random.Random(seed)`` (or the given ``Random``).

    :raises ValueError: for a level outside 1–5.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if level == 1:
        return RandomBot(rng)
    if level in CONFIGS:
        return HeuristicBot(level, rng)
    raise ValueError(f"no bot level {level}: levels are 1–5")
