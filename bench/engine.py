"""Engine speed: random playouts of «Адмирал» against random playouts of python-chess, in one process.

Prints plies/s and games/s for both, the ratio ours ÷ python-chess (issue goal ≥ 0.5, project goal ≥ 1.0),
and the time to generate all legal actions in an opening position (µs). A benchmark, not a test.

    .venv/bin/python bench/engine.py [--seconds 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit

import chess

from admiral.games.admiral.rules import GameState, Side, apply, auto_arrange, legal_actions


def admiral_playouts(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Uniformly random games (every action, declarations included, equally likely) from auto-arranged setups."""
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GameState.from_setups(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng))
        while state.result is None:
            apply(state, rng.choice(legal_actions(state)))
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


def opening_generation_us(rng: random.Random, positions: int = 20) -> tuple[float, float]:
    """Median µs to list every legal action of an opening position, and the mean action count."""
    times, counts = [], []
    for _ in range(positions):
        state = GameState.from_setups(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng))
        counts.append(len(legal_actions(state)))
        timer = timeit.Timer(lambda s=state: legal_actions(s))
        n, _ = timer.autorange()
        times.append(min(timer.repeat(5, n)) / n * 1e6)
    return statistics.median(times), statistics.mean(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per engine (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    a_plies, a_games, a_time = admiral_playouts(args.seconds, random.Random(args.seed))
    c_plies, c_games, c_time = chess_playouts(args.seconds, random.Random(args.seed))
    gen_us, gen_count = opening_generation_us(random.Random(args.seed))
    a_rate, c_rate = a_plies / a_time, c_plies / c_time
    print(f"{'engine':<14}{'plies/s':>12}{'games/s':>10}{'plies/game':>12}")
    print(f"{'admiral':<14}{a_rate:>12,.0f}{a_games / a_time:>10.2f}{a_plies / a_games:>12.0f}")
    print(f"{'python-chess':<14}{c_rate:>12,.0f}{c_games / c_time:>10.2f}{c_plies / c_games:>12.0f}")
    print(f"ratio admiral ÷ python-chess (plies/s): {a_rate / c_rate:.2f}")
    print(f"legal actions of an opening position: {gen_us:.1f} µs (median over 20 positions, {gen_count:.0f} actions)")


if __name__ == "__main__":
    main()
