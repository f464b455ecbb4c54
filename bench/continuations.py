"""Play a kept «Адмирал» bot game on from one of its plies, again and again (issue 22): did level A draw or lose
a position it could have won?

``bench/admiral_reports.py --keep DIR`` pickles the games of a tournament. This replays one of them to ``--from``
(default: the ply from which side B has nothing left that attacks, rules §6), feeding fresh bots of the same levels
and sides (another rng per try) every view from the first ply, so their beliefs are built as in play, and lets
them play on from there with this checkout's code. One line per try: who won, how, at which ply, the material.

    PYTHONPATH=src .venv/bin/python bench/continuations.py /tmp/keep/game-4-13.pickle --seed 4 --game 13 \\
        --from 700 --tries 10 --time-per-move 300

A bench, not a test: level 5 plays against the clock, so tries differ run to run.
"""

from __future__ import annotations

import argparse
import pickle
import time

from admiral.games.admiral.bots.tournament import game_metrics, match_bots
from admiral.games.admiral.rules import IllegalAction, Resign, Side


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pickle", help="a game kept by admiral_reports.py --keep: (Game, level A's side)")
    ap.add_argument("--a", type=int, default=5)
    ap.add_argument("--b", type=int, default=4)
    ap.add_argument("--seed", type=int, required=True, help="the tournament's seed the game came from")
    ap.add_argument("--game", type=int, required=True, help="its number in that tournament")
    ap.add_argument("--from", dest="start", type=int, default=None, help="the ply the bots play on from")
    ap.add_argument("--tries", type=int, default=10)
    ap.add_argument("--time-per-move", type=int, default=300, help="ms")
    args = ap.parse_args()
    with open(args.pickle, "rb") as f:
        game, a_side = pickle.load(f)
    record = game.record
    start = args.start
    if start is None:  # imported here: with --from, code from before can_attack (2d1ed00) is measured too
        from admiral.games.admiral.bots.bots import can_attack

        probe = record.replay(0)
        for ply, action in enumerate(record.actions):
            probe.apply(action)
            if not can_attack(probe.view(a_side).lost[a_side.opponent]):
                start = ply + 1
                break
        start = len(record.actions) if start is None else start
    print(f"{len(record.actions)} plies in the kept game; the bots play on from ply {start}", flush=True)
    for t in range(args.tries):
        south, north, _ = match_bots(args.a, args.b, args.seed + 1000 * (t + 1), args.game)
        bots = {Side.SOUTH: south, Side.NORTH: north}
        g = record.replay(0)
        seen = {Side.SOUTH: 0, Side.NORTH: 0}
        began = time.monotonic()
        while g.state.result is None and g.ply < len(record.actions) + 2000:
            for side in Side:
                v = g.view(side, since=seen[side])
                seen[side] = v.ply
                bots[side].observe(v)
            if g.ply < start:
                g.apply(record.actions[g.ply])
                continue
            actor = g.state.to_act
            action = bots[actor].act(g.view(actor, since=g.ply), args.time_per_move / 1000)
            try:
                g.apply(action)
            except IllegalAction:
                g.apply(Resign(actor))
        r, m = g.state.result, game_metrics(g)
        who = "nobody" if r is None else ("draw" if r.winner is None else ("A" if r.winner is a_side else "B"))
        how = r.reason.value if r else "ply limit"
        print(f"try {t}: {who} by {how} at ply {g.ply}, material A {m[a_side].material} "
              f"B {m[a_side.opponent].material} ({time.monotonic() - began:.0f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
