"""Engine speed: random playouts of a game of the registry against random playouts of python-chess, in one process.

Prints plies/s and games/s for both, the ratio ours ÷ python-chess (issue 23's goal for «Адмирал»: ≥ 2),
and the time to generate all legal actions in an opening position (µs). A benchmark, not a test.

The two run in turns of ``--slice`` seconds (whole games each turn), each engine's turns alternating with
python-chess's: on a shared machine whose speed drifts (a virtual machine's neighbours, a turbo clock) both see the
same drift, so the ratio holds where the rates alone would not. Each engine's ratio is to python-chess's turns
beside it; the python-chess row pools them.

``--game KEY`` measures that game of :data:`admiral.games.GAMES` through its own rules module (its state, legal
actions and apply; never the JSON-building ruleset), each variant as its own engine (``battleship/classic``);
``--game all`` measures every game, one table. The default, ``admiral``, prints the same lines as ever.

    .venv/bin/python bench/engine.py [--game admiral|battleship|battleship_ext|naval|all] [--seconds 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any, NamedTuple

import chess

from admiral.games import GAMES


class Engine(NamedTuple):
    """A game's rules as the bench drives them: ``new(rng)`` an opening state (setups auto-arranged, chance seeded
    from ``rng``), ``legal(state)`` every legal action, ``apply(state, action)``; a state has ``ply`` and
    ``result``."""

    new: Callable[[random.Random], Any]
    legal: Callable[[Any], list]
    apply: Callable[[Any, Any], object]


def admiral_engines() -> dict[str, Engine]:
    """«Адмирал»: both sides auto-arranged (:func:`~admiral.games.admiral.rules.auto_arrange`)."""
    from admiral.games.admiral.rules import GameState, Side, apply, auto_arrange, legal_actions

    def new(rng: random.Random) -> GameState:
        return GameState.from_setups(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng))

    return {"admiral": Engine(new, legal_actions, apply)}


def battleship_engines() -> dict[str, Engine]:
    """«Морской бой» per rule set (A classic, B Hasbro, B with salvo; «hits not named» only changes the answers'
    words), both fleets auto-arranged, the first shooter drawn from a seed as the game does (A4, D2)."""
    from admiral.games.battleship.rules import GameState, apply, auto_arrange, first_shooter, legal_actions
    from admiral.games.battleship.rules import rules_from_options as rules_of

    def engine(options: dict[str, Any]) -> Engine:
        rules = rules_of(options)

        def new(rng: random.Random) -> GameState:
            south, north = auto_arrange(rules, rng), auto_arrange(rules, rng)
            return GameState.from_setups(rules, south, north, first_shooter(rng.getrandbits(62)))

        return Engine(new, legal_actions, apply)

    variants = {"classic": {}, "hasbro": {"rules": "hasbro"}, "salvo": {"rules": "hasbro", "salvo": True}}
    return {f"battleship/{name}": engine(options) for name, options in variants.items()}


def battleship_ext_engines() -> dict[str, Engine]:
    """«Морской бой: расширенный» per board with the room's default mines and minesweepers (C1), both sides at
    level 1, the seed of its draws (D13) from ``rng``; :class:`~admiral.games.battleship_ext.rules.ExtState`'s own
    ``legal_actions`` and ``apply`` (the package has no module functions of them)."""
    from admiral.games.battleship_ext.rules import BOARDS, ExtState, auto_arrange, rules_from_options

    def engine(board: str) -> Engine:
        rules = rules_from_options({"board": board})

        def new(rng: random.Random) -> ExtState:
            south, north = auto_arrange(rules, rng), auto_arrange(rules, rng)
            return ExtState.from_setups(rules, south, north, seed=rng.getrandbits(62))

        return Engine(new, ExtState.legal_actions, ExtState.apply)

    return {f"battleship_ext/{board}": engine(board) for board in BOARDS}


def naval_engines() -> dict[str, Engine]:
    """«Военно-морская игра»: the fixed start (§2, its only setup), the die's seed (§7.5) from ``rng``."""
    from admiral.games.naval.rules import GameState, apply, legal_actions

    return {"naval": Engine(lambda rng: GameState.start(rng.getrandbits(62)), legal_actions, apply)}


#: Each game of the registry by key: its engines by name.
ENGINES: dict[str, Callable[[], dict[str, Engine]]] = {
    "admiral": admiral_engines,
    "battleship": battleship_engines,
    "battleship_ext": battleship_ext_engines,
    "naval": naval_engines,
}


def playouts(engine: Engine, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Uniformly random games (every legal action equally likely) from the engine's openings, for ``seconds``:
    plies, games and the time they took."""
    new, legal, apply = engine
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new(rng)
        while state.result is None:
            apply(state, rng.choice(legal(state)))
        plies += state.ply
        games += 1
    return plies, games, time.perf_counter() - start


def chess_playouts(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Uniformly random games of chess with python-chess from the start position."""
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start


def interleaved(engine: Engine, seconds: float, slice_s: float, seed: int) -> tuple[tuple, tuple]:
    """``engine``'s random playouts and python-chess's in alternating turns of ``slice_s`` seconds, ``seconds``
    of each in all: ``((plies, games, s), (chess plies, chess games, chess s))``."""
    ours, theirs = [0, 0, 0.0], [0, 0, 0.0]
    rng, chess_rng = random.Random(seed), random.Random(seed)
    while ours[2] < seconds:
        for total, run in ((ours, playouts(engine, slice_s, rng)), (theirs, chess_playouts(slice_s, chess_rng))):
            for i, value in enumerate(run):
                total[i] += value
    return tuple(ours), tuple(theirs)


def opening_generation_us(engine: Engine, rng: random.Random, positions: int = 20) -> tuple[float, float]:
    """Median µs to list every legal action of an opening position, and the mean action count."""
    times, counts = [], []
    for _ in range(positions):
        state = engine.new(rng)
        counts.append(len(engine.legal(state)))
        timer = timeit.Timer(lambda s=state: engine.legal(s))
        n, _ = timer.autorange()
        times.append(min(timer.repeat(5, n)) / n * 1e6)
    return statistics.median(times), statistics.mean(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*GAMES, "all"], default="admiral", help="a game's key, or all")
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per engine (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds of a turn, ours and python-chess's (s)")
    args = parser.parse_args()

    engines = {name: e for key in (GAMES if args.game == "all" else [args.game]) for name, e in ENGINES[key]().items()}
    pairs = {name: interleaved(e, args.seconds, args.slice, args.seed) for name, e in engines.items()}
    runs = {name: ours for name, (ours, _) in pairs.items()}
    chess_rates = {name: plies / elapsed for name, (_, (plies, _, elapsed)) in pairs.items()}
    c_plies, c_games, c_time = (sum(run[i] for _, run in pairs.values()) for i in range(3))
    gens = {name: opening_generation_us(e, random.Random(args.seed)) for name, e in engines.items()}
    c_rate = c_plies / c_time
    if len(engines) == 1:
        [(name, (plies, games, elapsed))] = runs.items()
        gen_us, gen_count = gens[name]
        print(f"{'engine':<14}{'plies/s':>12}{'games/s':>10}{'plies/game':>12}")
        print(f"{name:<14}{plies / elapsed:>12,.0f}{games / elapsed:>10.2f}{plies / games:>12.0f}")
        print(f"{'python-chess':<14}{c_rate:>12,.0f}{c_games / c_time:>10.2f}{c_plies / c_games:>12.0f}")
        print(f"ratio {name} ÷ python-chess (plies/s): {plies / elapsed / c_rate:.2f}")
        print(f"legal actions of an opening position: {gen_us:.1f} µs", end=" ")
        print(f"(median over 20 positions, {gen_count:.0f} actions)")
        return
    w = max(map(len, engines)) + 2
    print(f"{'engine':<{w}}{'plies/s':>12}{'games/s':>10}{'plies/game':>12}", end="")
    print(f"{'÷ chess':>9}{'legal µs':>11}{'actions':>9}")
    for name, (plies, games, elapsed) in runs.items():
        rate, (gen_us, gen_count) = plies / elapsed, gens[name]
        print(
            f"{name:<{w}}{rate:>12,.0f}{games / elapsed:>10.2f}{plies / games:>12.0f}"
            f"{rate / chess_rates[name]:>9.2f}{gen_us:>11.1f}{gen_count:>9.0f}"
        )
    print(f"{'python-chess':<{w}}{c_rate:>12,.0f}{c_games / c_time:>10.2f}{c_plies / c_games:>12.0f}{1:>9.2f}")
    print("÷ chess: plies/s ÷ python-chess's in the turns beside them; legal µs: to list every legal action of")
    print("an opening position (median over 20 positions); actions: their mean count")


if __name__ == "__main__":
    main()
