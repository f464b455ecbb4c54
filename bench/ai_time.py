"""AI move time: per level, p50 / p95 / max seconds of ``act`` over positions taken from real bot games.

Positions come from games of level 3 against level 3 (both seats), every ``--every`` plies, pending
declarations included. Each level gets a fresh bot that first observes the game's whole history
for its side (as a bot joining late would), then is timed on one ``act`` with ``--deadline`` seconds.
A benchmark, not a test: run it on an idle machine for figures you quote (``nice`` lowers its share).

    .venv/bin/python bench/ai_time.py [--games 3] [--every 25] [--deadline 2.0] [--levels 1 2 3 4 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.bots.tournament import play_game
from admiral.games.admiral.rules import GameRecord


def positions(games: int, every: int, seed: int) -> list[tuple[GameRecord, int]]:
    """(record, ply) pairs: the state after ``ply`` actions of a level-3 game, every ``every`` plies."""
    out = []
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        game, _ = play_game(make_bot(3, rng.getrandbits(32)), make_bot(3, rng.getrandbits(32)), seed=seed)
        for ply in range(every, game.ply, every):
            out.append((game.record, ply))
    return out


def main() -> None:
    """Parse the arguments, collect positions, time every level, print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--deadline", type=float, default=2.0, help="seconds given to each act")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = ap.parse_args()
    started = time.perf_counter()
    pos = positions(args.games, args.every, args.seed)
    print(f"{len(pos)} positions from {args.games} level-3 games ({time.perf_counter() - started:.0f} s)")
    print(f"{'level':>5} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}")
    for level in args.levels:
        times = []
        for n, (record, ply) in enumerate(pos):
            game = record.replay(ply)
            side = game.state.to_act
            if side is None:
                continue
            bot = make_bot(level, n)
            bot.setup(side)
            bot.observe(game.view(side, since=0))
            view = game.view(side)
            t = time.perf_counter()
            action = bot.act(view, args.deadline)
            times.append(time.perf_counter() - t)
            assert action in view.legal
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(
            f"{level:>5} {len(times):>5} {statistics.median(times) * 1e3:>9.1f} {p95 * 1e3:>9.1f} "
            f"{times[-1] * 1e3:>9.1f}"
        )


if __name__ == "__main__":
    main()
