"""«Военно-морская игра» bots: a ladder of full games between adjacent levels, with move times.

Per pair ``(a, a-1)``: ``--games`` full games on the engine (:class:`~admiral.games.naval.rules.Game`), the upper
level at South in even games and at North in odd ones, each bot seeing only its seat's view
(:meth:`~admiral.games.naval.rules.Game.view`) and never the seed; game ``i`` of a pair has the die's seed and the
bots' seeds from ``--seed`` and ``i``. Printed per match: the upper level's wins, draws, losses, its score (a draw
counts ½) with the Wilson 95 % interval, whether the ≥ 70 % target is met (by the score itself; the interval says
how sure), plies per game (mean, max) and how games ended; the ships afloat at the end (upper minus lower, per game);
then per level its think time per move (p50 / p95 /
max, ms). A benchmark, not a test: one process, run it with ``nice``; Ctrl-C (SIGINT) stops it and prints the
games finished so far.

    nice -n 10 .venv/bin/python bench/naval_ai.py [--games 20] [--pairs 2 3 4 5] [--deadline 1.0] [--seed 1]
                                                 [--start 0] [--jobs 1]

``--jobs N`` plays N games at once in worker processes (one core each: the think times are a core's); ``--start``
the first game's index (so runs of other games add up).
"""

from __future__ import annotations

import argparse
import math
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from multiprocessing import Pool

from admiral.games.naval.bots import NAMES, make
from admiral.games.naval.rules import Game, Side


def play(upper: int, lower: int, seed: int, i: int, deadline: float, times: dict[int, list[float]]) -> tuple:
    """One game, ``upper`` at South when ``i`` is even: ``(upper's score 1 / ½ / 0, plies, reason, upper's ships
    afloat minus lower's at the end)``; think times (seconds) are appended to ``times[level]``."""
    game = Game.new({"options": {}, "seed": seed * 100_003 + i})
    south, north = (upper, lower) if i % 2 == 0 else (lower, upper)
    bots = {
        Side.SOUTH: (south, make(south, seed * 7919 + 2 * i)),
        Side.NORTH: (north, make(north, seed * 7919 + 2 * i + 1)),
    }
    while game.state.result is None:
        side = game.state.to_move
        level, bot = bots[side]
        view = game.view(side)
        t = time.perf_counter()
        order = bot.act(view, deadline)
        times[level].append(time.perf_counter() - t)
        game.apply(order, side)
    result = game.state.result
    upper_side = Side.SOUTH if i % 2 == 0 else Side.NORTH
    score = 0.5 if result.winner is None else 1.0 if result.winner is upper_side else 0.0
    margin = game.state.afloat(upper_side) - game.state.afloat(upper_side.opponent)
    return score, game.state.ply, result.reason.value, margin


def _one(job: tuple) -> tuple:
    """:func:`play` in a worker: ``(score, plies, reason, margin, times)``."""
    upper, lower, seed, i, deadline = job
    times: dict[int, list[float]] = {upper: [], lower: []}
    return (*play(upper, lower, seed, i, deadline, times), times)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95 % interval of a proportion ``score / n`` (a draw counts ½)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))] if s else float("nan")


def _shell(*cmd: str) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per pair")
    ap.add_argument("--pairs", type=int, nargs="+", default=[2, 3, 4, 5], help="upper levels (each v the one below)")
    ap.add_argument("--deadline", type=float, default=1.0, help="seconds a move given to the bots")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="the first game's index")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (worker processes)")
    args = ap.parse_args()
    print("$ python bench/naval_ai.py " + shlex.join(sys.argv[1:]))
    print("commit", _shell("git", "rev-parse", "--short", "HEAD"))
    print(f"python {sys.version.split()[0]}, uptime: {_shell('uptime')}")
    times: dict[int, list[float]] = {n: [] for n in range(1, 6)}
    rows = []
    stopped = False
    for upper in args.pairs:
        if stopped:
            break
        lower = upper - 1
        scores, plies, reasons, margins = [], [], Counter(), []
        t0 = time.perf_counter()
        jobs = [(upper, lower, args.seed, i, args.deadline) for i in range(args.start, args.start + args.games)]
        pool = Pool(args.jobs) if args.jobs > 1 else None
        results = pool.imap(_one, jobs) if pool else map(_one, jobs)
        for i in range(args.start, args.start + args.games):
            try:
                s, n, why, margin, took_times = next(results)
            except KeyboardInterrupt:  # Ctrl-C (SIGINT): report the games finished so far
                print(f"\ninterrupted: {upper} v {lower} after {i - args.start} games", flush=True)
                stopped = True
                break
            for level, ts in took_times.items():
                times[level] += ts
            margins.append(margin)
            scores.append(s)
            plies.append(n)
            reasons[why] += 1
            print(
                f"  {upper} v {lower} game {i}: {s} in {n} plies ({why}), afloat {margin:+d}",
                file=sys.stderr,
                flush=True,
            )
        if pool:
            pool.terminate()
        if not scores:
            break
        w, d = scores.count(1.0), scores.count(0.5)
        total = sum(scores)
        lo, hi = wilson(total, len(scores))
        rows.append((upper, lower, w, d, len(scores) - w - d, total / len(scores), lo, hi, plies, reasons,
                     time.perf_counter() - t0, margins))  # fmt: skip
    games = ", ".join(str(len(r[8])) for r in rows)
    print(f"\n## Ladder: {games} games a pair (upper level at South in even games), deadline {args.deadline} s, "
          f"{args.jobs} at once")  # fmt: skip
    print("match                       W   D   L   score   95 % CI (Wilson)  ≥ 70 %  plies mean/max  ends          min")
    for upper, lower, w, d, los, sc, lo, hi, plies, reasons, took, _ in rows:
        ends = " ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        print(f"{upper} {NAMES[upper]:<13}v {lower} {NAMES[lower]:<8}{w:3d} {d:3d} {los:3d}  {sc:6.1%}  "
              f"{lo:6.1%} – {hi:6.1%}   {'yes' if sc >= 0.7 else 'no ':<6} {statistics.mean(plies):6.1f} / "
              f"{max(plies):3d}   {ends:<13} {took / 60:4.1f}")  # fmt: skip
    print("\nships afloat at the end, upper minus lower, per game (a draw's margin says who was ahead):")
    for upper, lower, *_, margins in rows:
        print(f"{upper} v {lower}: {' '.join(f'{m:+d}' for m in margins)}")
    print("\nlevel              moves  think p50 / p95 / max (ms)")
    for level, ts in times.items():
        if ts:
            print(f"{level} {NAMES[level]:<15} {len(ts):6d}  {pct(ts, 0.5) * 1e3:8.1f} / {pct(ts, 0.95) * 1e3:7.1f} / "
                  f"{max(ts) * 1e3:7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
