"""What happened around the bombs and in the quiet-sea draws of «Адмирал» bot games (issue 22): the tournament's
figures say how often, this says where and why.

Plays the games of ``admiral tournament`` (the same bots and seeds: game ``i`` of seed ``S``, level A South in even
games) and prints, per game, its result and every atomic-bomb explosion (rules §8): whose bomb, set
off how and by what from where, how long the bomb had stood on its cell and where it came from, the units each
side lost, and for a bomb the enemy set off what its owner faced on its last turn before (the own worth in the blast
square, the nearest enemy); for a quiet-sea draw (§10.3) and for a game level A lost also the final board (level
A's units in capitals), what each side moved in the last 200 plies and the battle reports before them. ``--jobs N``
plays N games at once (printed in order). ``--keep DIR`` pickles every game (``(Game, a_side)``) there.

    nice -n 10 .venv/bin/python bench/admiral_reports.py --a 5 --b 4 --seed 1 --first 0 --games 8 --time-per-move 300
"""

from __future__ import annotations

import argparse
import multiprocessing
import pickle
import time
from collections import Counter
from functools import partial
from pathlib import Path

from admiral.games.admiral.bots.tournament import WORTH, game_metrics, match_bots, play_game
from admiral.games.admiral.rules import BattleReport, Game, Kind, Moved, Reason, Side
from admiral.games.admiral.rules.board import BLAST, HEIGHT, WIDTH, cell_name, distance


def board_text(game: Game, a_side: Side) -> str:
    """The board, row 15 on top, one four-character column per cell: level A's kinds in capitals, B's in lower
    case, ``.`` an empty cell."""
    lines = []
    for row in reversed(range(HEIGHT)):
        cells = []
        for col in range(WIDTH):
            unit = game.state.board[col * HEIGHT + row]
            if unit is None:
                cells.append("   .")
                continue
            tag = unit.kind.name[:3]
            cells.append((tag.upper() if unit.side is a_side else tag.lower()).rjust(4))
        lines.append(f"{row + 1:3d}{''.join(cells)}")
    lines.append("   " + "".join(f"{chr(ord('a') + col):>4}" for col in range(WIDTH)))
    return "\n".join(lines)


def explosions(game: Game, a_side: Side) -> list[str]:
    """One line per atomic-bomb explosion of ``game`` (rules §8)."""
    moves = [e for e in game.log if isinstance(e, Moved)]
    out = []
    for e in game.log:
        if not isinstance(e, BattleReport) or (owner := e.bomb_owner) is None:
            continue
        own = [r.kind.name for r in e.removed if r.side is owner and r.kind is not Kind.AB]
        enemy = [r.kind.name for r in e.removed if r.side is not owner]
        steps = [m for m in moves if m.side is owner and m.kind is Kind.AB and m.ply < e.ply]
        stood = f"{e.ply - steps[-1].ply} plies (from {cell_name(steps[-1].src)})" if steps else "since the setup"
        att = e.attacker
        came = [m for m in moves if m.side is att.side and m.dst == att.cell and m.ply <= e.ply]
        src = f"from {cell_name(came[-1].src)} at ply {came[-1].ply}" if came else "from its setup cell"
        out.append(
            f"  {'A' if owner is a_side else 'B'}'s bomb on {cell_name(e.explosion)}, ply {e.ply}, {e.method} by "
            f"{att.kind.name} on {cell_name(att.cell)} ({src}); the bomb had stood there {stood}; its side lost "
            f"{own or 'nothing else'}, the other {enemy or 'nothing'}"
        )
        if e.method != "detonation":
            out.append(f"    {last_turn(game, owner, e.ply)}")
    return out


def square(game: Game, owner: Side) -> str:
    """Where ``owner``'s bomb stands in ``game``'s state, the worth of the owner's other units in its blast square
    (rules §8, :data:`WORTH`) and the nearest enemy unit's distance (rules §1)."""
    own = game.state.units(owner)
    bomb = next((c for c, k in own.items() if k is Kind.AB), None)
    if bomb is None:
        return "no bomb"
    crowd = [own[c] for c in BLAST[bomb] if c != bomb and c in own]
    near = min((distance(bomb, c) for c in game.state.units(owner.opponent)), default=99)
    return f"bomb {cell_name(bomb)}, {sum(WORTH[k] for k in crowd)} worth in {len(crowd)} units, enemy {near} off"


def last_turn(game: Game, owner: Side, ply: int) -> str:
    """What the owner of a bomb the enemy set off at ``ply`` faced on its last turn before (replayed): its bomb's
    square (:func:`square`) before and after that turn (issue 22: could it have emptied it?)."""
    turns = [e.ply for e in game.log if getattr(e, "side", None) is owner and e.ply < ply]
    if not turns:
        return "no turn of the owner's before"
    replay = game.record.replay(turns[-1])
    before = square(replay, owner)
    replay.apply(game.record.actions[turns[-1]])
    return f"its last turn (ply {turns[-1]}): before {before}; after {square(replay, owner)}"


def story(game: Game, a_side: Side) -> list[str]:
    """The final board and the last 200 plies (what each side moved, the battle reports from 300 plies back) of a
    quiet-sea draw (rules §10.3) or a game level A lost."""
    since = game.ply - 200
    moved = [e for e in game.log if isinstance(e, Moved) and e.ply > since]
    out = [board_text(game, a_side)]
    for who, side in (("A", a_side), ("B", a_side.opponent)):
        kinds = dict(Counter(e.kind.name for e in moved if e.side is side))
        out.append(f"  {who} moved in the last 200 plies: {kinds}")
    for e in game.log:
        if isinstance(e, BattleReport) and e.ply > since - 100:
            target = f"{e.target.kind.name} on {cell_name(e.target.cell)}" if e.target else "-"
            who = "A" if e.side is a_side else "B"
            removed = [r.kind.name for r in e.removed]
            out.append(f"  ply {e.ply} {who} {e.method}: {e.attacker.kind.name} on {cell_name(e.attacker.cell)} → "
                       f"{target}; removed {removed}")  # fmt: skip
    return out


def report(args: argparse.Namespace, i: int) -> str:
    """Play the tournament's game ``i`` and return its lines."""
    south, north, a_side = match_bots(args.a, args.b, args.seed, i)  # the tournament's game i
    started = time.monotonic()
    game, _times = play_game(south, north, seed=args.seed, time_per_move=args.time_per_move / 1000)
    result = game.state.result
    m = game_metrics(game)
    if result is None:
        outcome = "stopped (draw)"
    else:
        winner = "draw" if result.winner is None else ("A wins" if result.winner is a_side else "B wins")
        outcome = f"{winner} by {result.reason.value}"
    lines = [f"game {i}: A ({args.a}) {a_side.name.lower()}, {outcome} at ply {game.ply}, material A "
             f"{m[a_side].material} B {m[a_side.opponent].material} ({time.monotonic() - started:.0f} s)"]  # fmt: skip
    lines += explosions(game, a_side)
    if result is not None and (result.reason is Reason.QUIET_SEA or result.winner is a_side.opponent):
        lines += story(game, a_side)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        with open(args.keep / f"game-{args.seed}-{i}.pickle", "wb") as f:
            pickle.dump((game, a_side), f)
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=int, default=5)
    ap.add_argument("--b", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="the first game's number")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--time-per-move", type=int, default=300, help="ms")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (one process each)")
    ap.add_argument("--keep", type=Path, default=None, help="a directory for the pickled games")
    args = ap.parse_args()
    numbers = range(args.first, args.first + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        for text in pool.imap(partial(report, args), numbers):
            print(text, flush=True)


if __name__ == "__main__":
    main()
