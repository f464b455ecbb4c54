"""An independent sparring partner for «Адмирал»'s levels (issue 22): information-set MCTS over determinized worlds
(single-observer ISMCTS, Cowling, Powley & Whitehouse 2012), and matches of a level against it.

Not a level and not shipped: a yardstick that shares no evaluation code with the levels (their values, beliefs,
plans and searches in ``admiral.games.admiral.bots`` are never imported; only the tournament harness is). It reads
only its seat's :class:`~admiral.games.admiral.rules.PlayerView`: its own units, the enemy's closed markers
(followed from move to move; a marker that moved is no base or stationary mine, rules §5.1; a kind seen in a battle
report is kept, §11.3), the public losses (§11.4).

Each iteration samples one world consistent with that (:meth:`SparringBot.sample`): the known kinds stay; the
bases go on unmoved markers off the enemy's front row (§3.2), the deeper in its zone the likelier (a plain prior);
the stationary mines on other unmoved markers; the mobile kinds left, shuffled, on the rest. What the samples share
is worked out once per move (:class:`Prior`). It then walks one tree shared by all samples, choosing by UCB1 among
the actions legal in the sample (availability counts), expands one untried action (attacks, declarations and the
detonation before plain moves, so the few visits of a reply node go to the threats) and scores the new leaf
without a rollout (:func:`evaluate`): a result by the rules (±1, a draw 0), else the material won minus the material
lost since the sample (its own count :data:`WORTH`, tonnage-like) plus the :func:`pressure` on the enemy's bases
minus the enemy's on its own, squashed to (−1, 1). The root's actions are the view's (the same in every sample), so
``legal_actions`` runs only below the root: about 5 000 iterations a second of search on one core at ply 80, against
about 1 200 with the former 12-ply random rollouts. The engine's ``apply``/``legal_actions`` are the only rules it
uses. A defender's declaration is its highest row on the scale (§7.1), then its fewest members.

    nice -n 10 .venv/bin/python bench/sparring.py --level 4 --games 6 --seed 1 --time-per-move 1000 --jobs 1

prints the match as ``admiral tournament`` does (W/D/L, Wilson interval, the bomb, the quiet sea, step-backs and
move times per side); ``--jobs N`` plays N games at once, one process each.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import shlex
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import NamedTuple

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.bots.tournament import GameSummary, TournamentResult, game_metrics, play_game, render
from admiral.games.admiral.rules import (
    HEIGHT,
    WIDTH,
    ZONE,
    Action,
    BattleReport,
    Cell,
    GameState,
    IllegalAction,
    Kind,
    Move,
    MoveView,
    PlayerView,
    Side,
    Unit,
    apply,
    auto_arrange,
    legal_actions,
    scale_row,
    unit,
)

#: The partner's own material count (not the levels' values): big ships by tonnage, a base the most.
WORTH = {
    Kind.A: 8, Kind.L: 9, Kind.KR: 4, Kind.R: 5, Kind.ES: 2, Kind.ST: 1, Kind.TK: 1, Kind.KRPL: 3, Kind.TR: 1,
    Kind.PL: 2, Kind.S: 3, Kind.T: 1, Kind.M: 1, Kind.SM: 1, Kind.BR: 1, Kind.AB: 5, Kind.VMB: 25,
}  # fmt: skip
_WORTH = [WORTH[k] for k in Kind]  # indexed by kind, as GameState.lost is
#: UCB1's exploration constant; material (plus pressure) difference that scores tanh(1) ≈ 0.76.
EXPLORE, SCALE = 0.3, 10.0
#: Pressure on a base: each striker (a unit that can attack, rules §6) within REACH steps of the nearest enemy base
#: counts PRESS × (REACH − distance) material.
REACH, PRESS = 8, 0.05
STRIKERS = frozenset(k for k in Kind if k.is_rated or k in (Kind.BR, Kind.S, Kind.T))
_COL_ROW = [divmod(c, HEIGHT) for c in range(WIDTH * HEIGHT)]
#: Distance along rows and columns between two cells (rules §1), a table.
DIST = [[abs(ca - cb) + abs(ra - rb) for cb, rb in _COL_ROW] for ca, ra in _COL_ROW]


def pressure(world: GameState, side: Side) -> float:
    """``side``'s threat to the other side's bases in ``world``: :data:`PRESS` × (:data:`REACH` − distance) for each
    of its strikers nearer than :data:`REACH` to the nearest enemy base, in material (0 when no base is left)."""
    board = world.board
    bases = [c for c in world.cells[1 - side] if board[c].kind is Kind.VMB]
    if not bases:
        return 0.0
    total = 0
    for c in world.cells[side]:
        if board[c].kind in STRIKERS:
            row = DIST[c]
            d = min(row[b] for b in bases)
            if d < REACH:
                total += REACH - d
    return PRESS * total


def evaluate(world: GameState) -> float:
    """The leaf's score for South in (−1, 1): a result by the rules (±1, a draw 0); else the material South gained
    minus what it lost since the world was set up (:data:`WORTH`, from the public losses) plus South's
    :func:`pressure` minus North's, squashed by tanh(x / :data:`SCALE`)."""
    r = world.result
    if r is not None:
        return 0.0 if r.winner is None else (1.0 if r.winner is Side.SOUTH else -1.0)
    south, north = world.lost
    material = 0
    for k, w in enumerate(_WORTH):
        material += w * (north[k] - south[k])
    return math.tanh((material + pressure(world, Side.SOUTH) - pressure(world, Side.NORTH)) / SCALE)


class Node:
    """A node of the shared tree: ``children`` action → node, ``visits``, ``reward`` (summed, for the side that
    chose the action leading here), ``avail`` (times it was selectable)."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class Prior(NamedTuple):
    """What every determinization of one view shares: the own units, the enemy markers of known kind, the free
    markers that moved (mobile) and that did not, the unknown kinds left (mobile ones; bases; stationary mines),
    and the cells where a base may stand (unmoved, off the enemy's front row, rules §3.2) with their weights."""

    units: dict[Cell, Unit]
    moved: list[Cell]
    still: list[Cell]
    mobile: list[Unit]
    bases: int
    mines: int
    base_cells: list[Cell]
    base_weights: list[int]


class SparringBot:
    """ISMCTS with ``rng``; ``setup`` is the rules' random arrangement (§3.6)."""

    level = 0
    name = "ISMCTS"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.side: Side | None = None
        self.known: dict[int, Kind | None] = {}  # enemy marker cell → a kind seen in a report, or None
        self.moved: set[int] = set()  # enemy marker cells that have moved (so mobile, §5.1)
        self.seen_ply = 0  # events of plies below it are taken in
        self.iterations: list[int] = []

    def setup(self, side: Side) -> dict:
        """A random legal setup (the rules' own arrangement)."""
        self.side = side
        return auto_arrange(side, self.rng)

    def observe(self, view: PlayerView) -> None:
        """Follow the enemy's markers through the view's moves and reports."""
        me = view.side
        self.side = me
        for e in view.events:
            if e.ply < self.seen_ply:  # shown before (a view's events start at its ``since``)
                continue
            if isinstance(e, BattleReport):
                for s in e.participants:
                    if s.side is not me:
                        self.known[s.cell] = s.kind
                for s in e.removed:
                    if s.side is not me:
                        self.known.pop(s.cell, None)
                        self.moved.discard(s.cell)
            elif isinstance(e, MoveView) and e.side is not me:
                self.known[e.dst] = self.known.pop(e.src, None)
                self.moved.discard(e.src)
                self.moved.add(e.dst)
        markers = set(view.markers())
        self.known = {c: k for c, k in self.known.items() if c in markers}
        self.moved &= markers
        self.seen_ply = view.ply

    def prior(self, view: PlayerView) -> Prior:
        """What the determinizations of ``view`` share (see :class:`Prior`)."""
        me = self.side
        enemy = me.opponent
        units = {c: unit(me, k) for c, k in view.own().items()}
        left = {k: k.count - view.lost[enemy].get(k, 0) for k in Kind}
        free = []
        for c in view.markers():
            k = self.known.get(c)
            if k is not None and left[k] > 0:
                units[c] = unit(enemy, k)
                left[k] -= 1
            else:
                free.append(c)
        moved = [c for c in free if c in self.moved]
        still = [c for c in free if c not in self.moved]
        front = 10 if enemy is Side.NORTH else 4
        depth = {c: abs(c % HEIGHT - front) for c in still if c in ZONE[enemy]}  # 0 on the front row
        base_cells = [c for c, d in depth.items() if d > 0]
        mobile = [unit(enemy, k) for k in Kind if k.is_mobile for _ in range(left[k])]
        return Prior(units, moved, still, mobile, left[Kind.VMB], left[Kind.SM], base_cells,
                     [depth[c] for c in base_cells])  # fmt: skip

    def sample(self, view: PlayerView, prior: Prior) -> GameState:
        """One world consistent with the view: bases on unmoved markers off the front row, the deeper the likelier
        (a plain prior: a base is safest at the back); the stationary mines on other unmoved markers; the mobile
        kinds left, shuffled, on the rest."""
        rng = self.rng
        enemy = self.side.opponent
        units = dict(prior.units)
        still = list(prior.still)
        spots, weights = list(prior.base_cells), list(prior.base_weights)
        for _ in range(prior.bases):
            if spots:
                i = rng.choices(range(len(spots)), weights)[0]
                c = spots.pop(i)
                weights.pop(i)
                still.remove(c)
            elif still:
                c = still.pop(rng.randrange(len(still)))
            else:
                break
            units[c] = unit(enemy, Kind.VMB)
        for _ in range(prior.mines):
            if not still:
                break
            units[still.pop(rng.randrange(len(still)))] = unit(enemy, Kind.SM)
        mobile = list(prior.mobile)
        rng.shuffle(mobile)
        filler = unit(enemy, Kind.TR)
        for i, c in enumerate(prior.moved + still):
            units[c] = mobile[i] if i < len(mobile) else filler
        return GameState.from_board(units, view.to_move, ply=view.ply, quiet=view.quiet)

    def act(self, view: PlayerView, deadline_s: float) -> Action:
        """The most visited root action within 0.8 × ``deadline_s`` (at least 8 iterations).

        :raises ValueError: when ``view.legal`` is empty."""
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal action in this view")
        self.observe(view)
        if len(legal) == 1:
            return legal[0]
        if view.pending is not None:  # the defender's declaration: its highest row, then its fewest members
            own = view.own()
            return max(legal, key=lambda d: (scale_row(own[c] for c in d.formation) or 0, -len(d.formation)))
        prior = self.prior(view)
        root = Node()
        stop = time.perf_counter() + 0.8 * deadline_s
        n = 0
        while n < 8 or time.perf_counter() < stop:
            n += 1
            self._iterate(root, self.sample(view, prior), legal)
        self.iterations.append(n)
        best = max(root.children, key=lambda a: root.children[a].visits, default=None)
        return best if best is not None else self.rng.choice(legal)

    def _iterate(self, root: Node, world: GameState, acts: list[Action]) -> None:
        """Select by UCB1 with availability counts down the tree, expand one untried action (an attack, a
        declaration or the detonation before any move), score the new leaf by :func:`evaluate`, back it up."""
        path: list[tuple[Node, Side]] = []
        node = root
        log, sqrt = math.log, math.sqrt
        while True:
            actor = world.to_act
            kids = node.children
            fresh = [a for a in acts if a not in kids]
            if fresh:
                for a in acts:
                    child = kids.get(a)
                    if child is not None:
                        child.avail += 1
                strikes = [a for a in fresh if type(a) is not Move]
                a = self.rng.choice(strikes or fresh)
                try:
                    apply(world, a)
                except IllegalAction:
                    return
                child = kids[a] = Node()
                child.avail = 1
                path.append((child, actor))
                break
            best, top = None, -math.inf
            for a in acts:
                child = kids[a]
                child.avail += 1
                u = child.reward / child.visits + EXPLORE * sqrt(log(child.avail) / child.visits)
                if u > top:
                    best, top = a, u
            try:
                apply(world, best)
            except IllegalAction:
                return
            node = kids[best]
            path.append((node, actor))
            if world.result is not None:
                break
            acts = legal_actions(world)
            if not acts:
                break
        score = evaluate(world)  # for South
        for node, actor in path:
            node.visits += 1
            node.reward += score if actor is Side.SOUTH else -score


def play_one(level: int, seed: int, i: int, time_per_move: float, max_plies: int) -> GameSummary:
    """Game ``i``: level ``level`` (A) against the partner (B), A South when ``i`` is even."""
    rng = random.Random(f"{seed}:{i}")
    bot_a, bot_b = make_bot(level, rng.getrandbits(64)), SparringBot(random.Random(rng.getrandbits(64)))
    a_side = Side.SOUTH if i % 2 == 0 else Side.NORTH
    south, north = (bot_a, bot_b) if a_side is Side.SOUTH else (bot_b, bot_a)
    game, times = play_game(south, north, seed=seed, time_per_move=time_per_move, max_plies=max_plies)
    result = game.state.result
    score = 0.5 if result is None or result.winner is None else (1.0 if result.winner is a_side else 0.0)
    return GameSummary(a_side, result, game.ply, score, times, game_metrics(game))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=5, help="the level playing the partner")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-per-move", type=int, default=1000, help="ms each side may take per act")
    ap.add_argument("--max-plies", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    print("$ python bench/sparring.py " + shlex.join(sys.argv[1:]))
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"commit {rev}; {up}", flush=True)
    jobs = [(args.level, args.seed, i, args.time_per_move / 1000, args.max_plies) for i in range(args.games)]
    done: dict[int, GameSummary] = {}
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(play_one, *job): job[2] for job in jobs}
        for f in as_completed(futures):
            g = done[futures[f]] = f.result()
            print(f"  game {futures[f]}: {g.score_a} in {g.plies} plies ({g.result})", file=sys.stderr, flush=True)
    result = TournamentResult(args.level, 0, [done[i] for i in range(args.games)])
    from rich.console import Console

    render(result, Console(width=120), title=f"{args.games} games, seed {args.seed}, {args.time_per_move} ms per move",
           names=(None, "ISMCTS (bench/sparring.py)"))  # fmt: skip


if __name__ == "__main__":
    main()
