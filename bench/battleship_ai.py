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

4. **Extended variant** (``--parts ext``, rules C): per board (``--boards classic perelman giant``, the room's
   default mines and minesweepers unless ``--mines`` / ``--sweepers``), ``--ext-games`` full games of each level
   against the one below on the engine (:class:`~admiral.games.battleship_ext.rules.ExtGame`, each bot seeing only
   its seat's view): per level the mean shots (cells fired at, area attacks included) and turns of its wins, its
   ability uses per game (per ability) and its think time per action (p50 / p95); then the ladder, the upper
   level's wins, losses and score with its Wilson 95 % interval (goal ≥ 70 %).

Every fleet, bot and game has its own seed, so ``--jobs`` changes only the time taken. A benchmark, not a test:
run it on a quiet machine with ``nice``. The literature's anchor: a probability-density hunter needs about 42
shots (median) for the Hasbro fleet, never more than 73.

    nice -n 10 .venv/bin/python bench/battleship_ai.py [--fleets 10000] [--fleets5 N] [--hidden-fleets N]
        [--games 200] [--rules classic hasbro] [--levels 1 2 3 4 5] [--deadline 1.0] [--jobs 2] [--seed 1]
        [--parts shots hidden ladder ext] [--boards classic perelman giant] [--ext-games 100] [--mines N]
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
    "perelman": ({"rules": "perelman"}, True),  # rules C1's 16×16 board and fleet, classic shooting
    "giant": ({"rules": "giant"}, True),  # C1's 18×18: the sampler's cost per shot on the largest board
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


def play_ext(
    board: str, a: int, b: int, seed: int, i: int, deadline: float, mines: int | None, sweepers: int | None
) -> dict:
    """Extended game ``i`` on ``board`` of level ``a`` (seat ``south``) against level ``b`` (``north``), the first
    shooter drawn by the engine from the game's seed: ``{"a_won", "shots", "turns", "uses", "times"}``, the last
    four per seat (``uses``: ability key → count; ``times``: seconds per action)."""
    from admiral.games.battleship_ext.bots import LEVELS as EXT_LEVELS
    from admiral.games.battleship_ext.rules import ExtGame, rules_from_options, validate_setup

    options: dict = {"board": board}
    if mines is not None:
        options["mines"] = mines
    if sweepers is not None:
        options["sweepers"] = sweepers
    rules = rules_from_options(options)
    rng = _rng(seed, "ext", board, a, b, i)
    bots = {
        "south": EXT_LEVELS[a].make(rng.getrandbits(32), rules),
        "north": EXT_LEVELS[b].make(rng.getrandbits(32), rules),
    }
    setups = {side: bot.setup(side) for side, bot in bots.items()}
    for side, setup in setups.items():
        if validate_setup(rules, setup):
            raise AssertionError(f"{side} placed an illegal setup: {validate_setup(rules, setup)}")
    game = ExtGame(setups, {"options": options, "seed": rng.getrandbits(32)})
    turns = {"south": 0, "north": 0}
    uses: dict[str, dict[str, int]] = {"south": {}, "north": {}}
    times: dict[str, list[float]] = {"south": [], "north": []}
    last = None
    while game.state.result is None:
        side = game.state.to_move.label
        if side != last:
            turns[side] += 1
            last = side
        view = game.view(side)
        start = time.perf_counter()
        action = bots[side].act(view, deadline)
        times[side].append(time.perf_counter() - start)
        if " " in action:
            key = action.split()[0]
            uses[side][key] = uses[side].get(key, 0) + 1
        game.apply(action)
    full = game.view("full").to_dict()
    shots = {side: len(full["sides"][side]["shots"]) for side in ("south", "north")}
    failures = {side: bot.failures for side, bot in bots.items()}
    if any(failures.values()):
        raise AssertionError(f"a bot's reasoning failed: {failures}")
    return {
        "a_won": game.state.result.winner.label == "south",
        "shots": shots,
        "turns": turns,
        "uses": uses,
        "times": times,
    }


def _ext_task(args: tuple) -> dict:
    return play_ext(*args)


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


def ext_part(pool, args: argparse.Namespace) -> None:
    """Part 4: the extended variant per board (module docstring)."""
    from admiral.games.battleship_ext.bots import NAMES as EXT_NAMES

    pairs = [(a, a - 1) for a in args.levels if a - 1 in args.levels]
    n = args.ext_games
    print(f"\n## 4. Extended variant: {n} games a pair per board (level a at South), mines {args.mines or 'default'}")
    for board in args.boards:
        results = {
            (a, b): _run(pool, _ext_task, [(board, a, b, args.seed, i, args.deadline, args.mines, args.sweepers)
                                           for i in range(n)])
            for a, b in pairs
        }  # fmt: skip
        per_level: dict[int, dict] = {}
        for (a, b), res in results.items():
            for level, seat, won_key in ((a, "south", True), (b, "north", False)):
                acc = per_level.setdefault(level, {"games": 0, "wins": [], "uses": {}, "times": []})
                for r in res:
                    acc["games"] += 1
                    if r["a_won"] == won_key:
                        acc["wins"].append((r["shots"][seat], r["turns"][seat]))
                    for key, k in r["uses"][seat].items():
                        acc["uses"][key] = acc["uses"].get(key, 0) + k
                    acc["times"].extend(r["times"][seat])
        print(f"\n### {board}")
        print(
            f"{'level':<16} {'games':>5} {'wins':>5} {'shots/win':>9} {'turns/win':>9}   think p50 / p95 (ms)"
            f"   ability uses per game"
        )
        for level in sorted(per_level):
            acc = per_level[level]
            wins = acc["wins"]
            shots = statistics.fmean(s for s, _ in wins) if wins else float("nan")
            turns = statistics.fmean(t for _, t in wins) if wins else float("nan")
            ms = [t * 1000 for t in acc["times"]]
            uses = ", ".join(f"{k} {v / acc['games']:.2f}" for k, v in sorted(acc["uses"].items())) or "none"
            print(
                f"{level} {EXT_NAMES[level]:<14} {acc['games']:>5} {len(wins):>5} {shots:>9.1f} {turns:>9.1f}"
                f"   {pct(ms, 0.5):>6.1f} / {pct(ms, 0.95):>6.1f}        {uses}",
                flush=True,
            )
        print(f"{'match':<30} {'wins':>5} {'losses':>6} {'score':>7}   95 % CI (Wilson)   ≥ 70 %")
        for (a, b), res in results.items():
            wins = sum(r["a_won"] for r in res)
            lo, hi = wilson(wins, len(res))
            score = wins / len(res)
            print(
                f"{a} {EXT_NAMES[a]:<12} v {b} {EXT_NAMES[b]:<12} {wins:>5} {len(res) - wins:>6} {score:>7.1%}"
                f"   {lo:>6.1%} – {hi:<6.1%}   {'yes' if score >= 0.7 else 'no'}",
                flush=True,
            )


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
    ap.add_argument(
        "--parts", nargs="+", default=["shots", "hidden", "ladder"], choices=["shots", "hidden", "ladder", "ext"]
    )
    ap.add_argument("--boards", nargs="+", default=["classic", "perelman", "giant"])
    ap.add_argument("--ext-games", type=int, default=100, help="extended games per adjacent pair and board")
    ap.add_argument("--mines", type=int, default=None, help="mines per player (default: the room's default)")
    ap.add_argument("--sweepers", type=int, default=None, help="minesweepers per player (default: the room's)")
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
    if "ext" in args.parts:
        ext_part(pool, args)
    if pool is not None:
        pool.close()
    print(f"\n{time.perf_counter() - started:.0f} s; uptime: {_shell('uptime')}")


if __name__ == "__main__":
    main()
