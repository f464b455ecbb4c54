"""«Морской бой» bots: shots to sink a fleet, think time, level 5's hidden fleet, and a ladder of full games.

1. **Shots**: per rule set and level, the mean, median, p90 and max shots to sink a uniformly random legal fleet
   (:func:`~admiral.games.battleship.bots.sea.random_layout`) over ``--fleets`` fleets (``--fleets5`` for level 5),
   answered by the referee :class:`~admiral.games.battleship.bots.sea.Sea` as the rules do (classic: miss / hit /
   sunk, no names; hasbro: named), and each level's think time per shot (p50 / p95 / max, ms).
2. **Hidden fleets**: levels 3–5 against level 5's own placement, next to the same levels against uniform fleets
   (``--hidden-fleets`` fleets of each).
3. **Ladder**: ``--games`` full games between adjacent levels per rule set (classic: a hit shoots again; hasbro: the
   turn passes after every shot; the first shooter drawn at random; each bot places its own fleet), with the upper
   level's score and its Wilson 95 % interval.

Every fleet, bot and game has its own seed, so ``--jobs`` changes only the time taken. A benchmark, not a test:
run it on a quiet machine with ``nice``. The literature's anchor: a probability-density hunter needs about 42
shots (median) for the Hasbro fleet, never more than 73.

    nice -n 10 .venv/bin/python bench/battleship_ai.py [--fleets 10000] [--fleets5 N] [--hidden-fleets N]
        [--games 200] [--rules classic hasbro] [--levels 1 2 3 4 5] [--deadline 1.0] [--jobs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

from admiral.games.battleship.bots import levels as _levels
from admiral.games.battleship.bots.knowledge import Knowledge, parse_cell
from admiral.games.battleship.bots.levels import LEVELS, make_bot
from admiral.games.battleship.bots.sea import Layout, Sea, layout_from_setup, layout_problems, random_layout
from admiral.games.battleship.bots.setups import hidden_layout

#: Rule sets of the bench: (:meth:`Knowledge.new` arguments, a hit shoots again).
RULESETS: dict[str, tuple[dict, bool]] = {
    "classic": ({"rules": "classic"}, True),
    "hasbro": ({"rules": "hasbro"}, False),
    "hasbro-unnamed": ({"rules": "hasbro", "named": False}, False),
}


def rules_of(name: str) -> Knowledge:
    """The empty :class:`Knowledge` of a bench rule set."""
    return Knowledge.new(**RULESETS[name][0])


def _rng(*parts: object) -> random.Random:
    return random.Random(":".join(map(str, parts)))


def sink(level: int, rules: Knowledge, layout: Layout, seed: int, deadline: float) -> tuple[int, list[float]]:
    """Shots a bot of ``level`` (drawing from ``seed``) needs to sink ``layout`` alone, and its think time per shot
    (seconds)."""
    bot = make_bot(level, seed)
    sea = Sea(rules, layout)
    k = rules
    times = []
    while not sea.defeated:
        start = time.perf_counter()
        name = bot.shoot(k, deadline)
        times.append(time.perf_counter() - start)
        cell = parse_cell(name)
        if k.is_shot(cell):
            raise AssertionError(f"level {level} fired at {name} twice")
        answer, code = sea.fire(cell)
        k = k.after(cell, answer, code)
    return len(k.shots), times


def fleet(rules_name: str, seed: int, i: int, hidden: bool) -> Layout:
    """Fleet ``i`` of a run: uniformly random, or placed by level 5 (:func:`hidden_layout`)."""
    rules = rules_of(rules_name)
    if hidden:
        return hidden_layout(rules, _rng(seed, rules_name, "hidden", i))
    return random_layout(rules, _rng(seed, rules_name, "fleet", i))


def _fleet_task(args: tuple[str, int, int, int, float, Layout | None]) -> tuple[int, list[float]]:
    rules_name, level, seed, i, deadline, layout = args
    if layout is None:
        layout = fleet(rules_name, seed, i, False)
    bot_seed = _rng(seed, rules_name, "bot", level, i).getrandbits(32)
    return sink(level, rules_of(rules_name), layout, bot_seed, deadline)


def _hidden_task(args: tuple[str, int, int]) -> Layout:
    return fleet(args[0], args[1], args[2], True)


def play(rules_name: str, a: int, b: int, seed: int, i: int, deadline: float) -> tuple[bool, int, int]:
    """Full game ``i`` of level ``a`` against level ``b``: ``(a won, a's shots, b's shots)``."""
    rules = rules_of(rules_name)
    again = RULESETS[rules_name][1]
    rng = _rng(seed, rules_name, "game", a, b, i)
    bots = [make_bot(a, rng.getrandbits(32)), make_bot(b, rng.getrandbits(32))]
    seas = []
    for n in (1, 0):  # seat 0 fires at seat 1's fleet, seat 1 at seat 0's
        layout = layout_from_setup(bots[n].setup(rules, rng.getrandbits(32)), rules)
        if layout_problems(layout, rules):
            raise AssertionError(f"level {bots[n].level} placed an illegal fleet: {layout_problems(layout, rules)}")
        seas.append(Sea(rules, layout))
    know = [rules, rules]
    turn = rng.randrange(2)
    while True:
        cell = parse_cell(bots[turn].shoot(know[turn], deadline))
        answer, code = seas[turn].fire(cell)
        know[turn] = know[turn].after(cell, answer, code)
        if seas[turn].defeated:
            return turn == 0, len(know[0].shots), len(know[1].shots)
        if not (again and answer != "miss"):
            turn = 1 - turn


def _game_task(args: tuple[str, int, int, int, int, float]) -> tuple[bool, int, int]:
    return play(*args)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0, 1)`` for no games)."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    """The ``q``-quantile (0–1) of ``values``, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def _run(pool, fn: Callable, tasks: Iterable) -> list:
    tasks = list(tasks)
    if pool is None:
        return [fn(t) for t in tasks]
    return pool.map(fn, tasks, chunksize=max(1, min(16, len(tasks) // 32)))


def _shell(*cmd: str) -> str:
    return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()


def _header() -> None:
    dirty = _shell("git", "status", "--porcelain", "--", "src", "bench/battleship_ai.py")
    print("$ " + " ".join(shlex.quote(a) for a in ["python", *sys.argv]))
    print(f"commit {_shell('git', 'rev-parse', '--short', 'HEAD')}{' + uncommitted changes' if dirty else ''}")
    print(f"python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M:%S')}, uptime: {_shell('uptime')}")
    bot = _levels.FleetBot
    print(f"level 5: {bot.draws} draws a shot, cut at {bot.budget:.0%} of the deadline")


def main() -> None:
    """Parse the arguments, run the three parts, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fleets", type=int, default=10000, help="random fleets per level and rule set")
    ap.add_argument("--fleets5", type=int, default=None, help="fleets for level 5 (default: --fleets)")
    ap.add_argument("--hidden-fleets", type=int, default=None, help="fleets of part 2 (default: --fleets5)")
    ap.add_argument("--games", type=int, default=200, help="full games per adjacent pair and rule set")
    ap.add_argument("--rules", nargs="+", default=["classic", "hasbro"], choices=sorted(RULESETS))
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--deadline", type=float, default=1.0, help="seconds a bot is given per shot")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", nargs="+", default=["shots", "hidden", "ladder"], choices=["shots", "hidden", "ladder"])
    args = ap.parse_args()
    fleets5 = args.fleets if args.fleets5 is None else args.fleets5
    hidden_n = fleets5 if args.hidden_fleets is None else args.hidden_fleets
    _header()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    started = time.perf_counter()
    done: dict[tuple[str, int], list[int]] = {}  # uniform fleets' shots per (rules, level), fleet order

    def shots_on_uniform(rules: str, level: int, n: int) -> list[tuple[int, list[float]]]:
        res = _run(pool, _fleet_task, [(rules, level, args.seed, i, args.deadline, None) for i in range(n)])
        done[(rules, level)] = [s for s, _ in res]
        return res

    if "shots" in args.parts:
        print("\n## 1. Shots to sink a uniformly random fleet")
        print(
            f"{'rules':<9} {'level':<11} {'fleets':>6} {'mean':>6} {'median':>6} {'p90':>4} {'max':>4}"
            f"   think p50 / p95 / max (ms)"
        )
        for rules in args.rules:
            for level in args.levels:
                res = shots_on_uniform(rules, level, fleets5 if level == 5 else args.fleets)
                shots = [s for s, _ in res]
                ms = [t * 1000 for _, ts in res for t in ts]
                print(
                    f"{rules:<9} {level} {LEVELS[level]:<9} {len(shots):>6} {statistics.fmean(shots):>6.1f} "
                    f"{statistics.median(shots):>6.1f} {pct(shots, 0.9):>4} {max(shots):>4}"
                    f"   {pct(ms, 0.5):>6.1f} / {pct(ms, 0.95):>6.1f} / {max(ms):>6.1f}",
                    flush=True,
                )
    if "hidden" in args.parts:
        print(f"\n## 2. Level 5's own placement against uniform fleets ({hidden_n} fleets of each)")
        print(
            f"{'rules':<9} {'level':<11} {'uniform mean':>12} {'median':>6} {'level-5 mean':>12} {'median':>6}   gain"
        )
        for rules in args.rules:
            layouts = _run(pool, _hidden_task, [(rules, args.seed, i) for i in range(hidden_n)])
            for level in [lv for lv in args.levels if lv >= 3]:
                uniform = done.get((rules, level), [])[:hidden_n]
                if len(uniform) < hidden_n:
                    uniform = [s for s, _ in shots_on_uniform(rules, level, hidden_n)]
                tasks = [(rules, level, args.seed, i, args.deadline, lay) for i, lay in enumerate(layouts)]
                hid = [s for s, _ in _run(pool, _fleet_task, tasks)]
                mu, mh = statistics.fmean(uniform), statistics.fmean(hid)
                print(
                    f"{rules:<9} {level} {LEVELS[level]:<9} {mu:>12.1f} {statistics.median(uniform):>6.1f} "
                    f"{mh:>12.1f} {statistics.median(hid):>6.1f} {mh - mu:>+6.1f}",
                    flush=True,
                )
    if "ladder" in args.parts:
        print(f"\n## 3. Ladder: {args.games} full games a pair, the first shooter drawn at random")
        print(f"{'rules':<9} {'match':<22} {'wins':>5} {'losses':>6} {'score':>7}   95 % CI (Wilson)   ≥ 70 %")
        pairs = [(a, a - 1) for a in args.levels if a - 1 in args.levels]
        for rules in args.rules:
            for a, b in pairs:
                res = _run(pool, _game_task, [(rules, a, b, args.seed, i, args.deadline) for i in range(args.games)])
                wins = sum(w for w, _, _ in res)
                lo, hi = wilson(wins, len(res))
                score = wins / len(res)
                print(
                    f"{rules:<9} {a} {LEVELS[a]:<7} v {b} {LEVELS[b]:<8} {wins:>5} {len(res) - wins:>6} {score:>7.1%}"
                    f"   {lo:>6.1%} – {hi:<6.1%}   {'yes' if score >= 0.7 else 'no'}",
                    flush=True,
                )
    if pool is not None:
        pool.close()
    print(f"\n{time.perf_counter() - started:.0f} s; uptime: {_shell('uptime')}")


if __name__ == "__main__":
    main()
