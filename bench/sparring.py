"""An independent sparring partner for «Адмирал»'s levels (issue 22): information-set MCTS over determinized worlds
(single-observer ISMCTS, Cowling, Powley & Whitehouse 2012), and matches of a level against it.

Not a level and not shipped: a yardstick that shares no evaluation code with the levels (their values, beliefs,
plans and searches in ``admiral.games.admiral.bots`` are never imported). It reads only its seat's
:class:`~admiral.games.admiral.rules.PlayerView`: its own units, the enemy's closed markers (followed from move to
move; a marker that moved is no base or stationary mine, rules §5.1; a kind seen in a battle report is kept,
§11.3), the public losses (§11.4). Each iteration samples the enemy's markers consistently with that, walks one tree
shared by all samples choosing by UCB1 among the actions legal in the sample (availability counts), expands one
action, plays a short random rollout and scores the end: a result by the rules (±1, a draw 0) or, cut short, its
own material count (:data:`WORTH`, tonnage-like) squashed to (−1, 1). The engine's ``apply``/``legal_actions`` are
the only rules it uses. A defender's declaration is its largest formation (§7.1.2).

    nice -n 10 .venv/bin/python bench/sparring.py --level 5 --games 100 --seed 1 --time-per-move 1000 --jobs 2

prints the match as ``admiral tournament`` does (W/D/L, Wilson interval, the bomb, the quiet sea, step-backs and
move times per side).
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

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.bots.tournament import GameSummary, TournamentResult, game_metrics, play_game, render
from admiral.games.admiral.rules import (
    Action,
    BattleReport,
    Declare,
    GameState,
    IllegalAction,
    Kind,
    MoveView,
    PlayerView,
    Side,
    apply,
    auto_arrange,
    legal_actions,
    unit,
)

#: The partner's own material count (not the levels' values): big ships by tonnage, a base the most.
WORTH = {
    Kind.A: 8, Kind.L: 9, Kind.KR: 4, Kind.R: 5, Kind.ES: 2, Kind.ST: 1, Kind.TK: 1, Kind.KRPL: 3, Kind.TR: 1,
    Kind.PL: 2, Kind.S: 3, Kind.T: 1, Kind.M: 1, Kind.SM: 1, Kind.BR: 1, Kind.AB: 5, Kind.VMB: 25,
}  # fmt: skip
#: UCB1's exploration constant; plies of a random rollout; material difference that scores about ±0.76.
EXPLORE, ROLLOUT, SCALE = 0.7, 12, 20.0


class Node:
    """A node of the shared tree: ``children`` action → node, ``visits``, ``reward`` (summed, for the side that
    chose the action leading here), ``avail`` (times it was selectable)."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


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

    def _sample(self, view: PlayerView) -> GameState:
        me = self.side
        enemy = me.opponent
        pool: list[Kind] = []
        for k in Kind:
            left = k.count - view.lost[enemy].get(k, 0)
            pool += [k] * left
        markers = list(view.markers())
        fixed = {c: self.known[c] for c in markers if self.known.get(c) is not None}
        for k in fixed.values():
            if k in pool:
                pool.remove(k)
        self.rng.shuffle(pool)
        kinds: dict[int, Kind] = dict(fixed)
        free = [c for c in markers if c not in fixed]
        for c in sorted(free, key=lambda c: c not in self.moved):  # the moved ones first: they need mobile kinds
            pick = next((i for i, k in enumerate(pool) if k.is_mobile or c not in self.moved), None)
            kinds[c] = pool.pop(pick) if pick is not None else Kind.TR
        units = {c: unit(me, k) for c, k in view.own().items()}
        units.update({c: unit(enemy, k) for c, k in kinds.items()})
        return GameState.from_board(units, view.to_move, ply=view.ply, quiet=view.quiet)

    def act(self, view: PlayerView, deadline_s: float) -> Action:
        """The most visited root action within ``deadline_s`` (at least 8 iterations).

        :raises ValueError: when ``view.legal`` is empty."""
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal action in this view")
        self.observe(view)
        if len(legal) == 1:
            return legal[0]
        if view.pending is not None:  # the defender's declaration: its largest formation
            return max((a for a in legal if isinstance(a, Declare)), key=lambda d: len(d.formation))
        allowed = set(legal)
        root = Node()
        stop = time.perf_counter() + 0.8 * deadline_s
        n = 0
        while n < 8 or time.perf_counter() < stop:
            n += 1
            self._iterate(root, self._sample(view), allowed)
        self.iterations.append(n)
        best = max((a for a in root.children if a in allowed), key=lambda a: root.children[a].visits, default=None)
        return best if best is not None else self.rng.choice(legal)

    def _iterate(self, root: Node, world: GameState, allowed: set) -> None:
        path: list[tuple[Node, Side]] = []
        node = root
        first = True
        while world.result is None:
            actor = world.to_act
            acts = legal_actions(world)
            if first:
                acts = [a for a in acts if a in allowed] or acts
                first = False
            if not acts:
                break
            for a in acts:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            untried = [a for a in acts if a not in node.children]
            if untried:
                a = self.rng.choice(untried)
                try:
                    apply(world, a)
                except IllegalAction:
                    return
                child = node.children[a] = Node()
                child.avail = 1
                path.append((child, actor))
                break
            kids = node.children
            a = max(acts, key=lambda x: kids[x].reward / kids[x].visits + EXPLORE * math.sqrt(
                math.log(kids[x].avail) / kids[x].visits))  # fmt: skip
            try:
                apply(world, a)
            except IllegalAction:
                return
            node = node.children[a]
            path.append((node, actor))
        for _ in range(ROLLOUT):
            if world.result is not None:
                break
            acts = legal_actions(world)
            if not acts:
                break
            apply(world, self.rng.choice(acts))
        score = self._score(world)  # for South
        for node, actor in path:
            node.visits += 1
            node.reward += score if actor is Side.SOUTH else -score

    def _score(self, world: GameState) -> float:
        r = world.result
        if r is not None:
            return 0.0 if r.winner is None else (1.0 if r.winner is Side.SOUTH else -1.0)
        worth = [0, 0]
        for u in world.board:
            if u is not None:
                worth[u.side] += WORTH[u.kind]
        return math.tanh((worth[0] - worth[1]) / SCALE)


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
