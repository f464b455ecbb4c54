"""Bot-against-bot matches: ``admiral tournament --a 5 --b 4 --games N --seed S [--time-per-move MS]``.

The harness is the referee: it alone holds the true :class:`~admiral.games.admiral.rules.Game`. After every ply it
builds each side's :class:`~admiral.games.admiral.rules.PlayerView` with the engine's view function (``since``
the bot's last seen ply, so no marker move is missed) and gives the bots only those views.
Bot A plays South in even-numbered games and North in odd ones; ``--jobs N`` plays N games at once
in worker processes, with the same games and result as one at a time.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..rules import BattleReport, Game, IllegalAction, Kind, Moved, Reason, Resign, Result, Seen, Side
from .bots import LEVELS, WORTH, Bot, make_bot

__all__ = [
    "GameSummary", "SideMetrics", "TournamentResult", "WORTH", "game_metrics", "match_bots", "play_game",
    "play_match_game", "run_tournament", "tournament",
]  # fmt: skip


#: Plies after which a bot game is stopped and scored a draw (the quiet-sea rule ends nearly all first).
MAX_PLIES = 4000


@dataclass
class SideMetrics:
    """What one side did in one game, read from the game's events (issue 22's yardsticks):

    ``bomb_own_losses``: its own units (the bomb itself not counted) removed by its own atomic bomb's explosion,
    detonated or set off by an attack (rules §8); ``detonations``: per detonation it chose, ``(enemy worth, own
    worth)`` removed (:data:`WORTH`, its bomb not counted); ``moves``: its turns that moved a unit, ``step_backs``:
    those that moved a unit straight back to where its previous turn's move had brought it from; ``material``: the
    worth of its units still on the board at the end; ``air_strikes``: its aircraft's strikes (rules §6),
    ``air_worth``: the enemy worth they removed (an aircraft downed by AA fire removes none, rules §7.2; one that
    sets off the enemy's bomb counts the blast's enemy units, the bomb among them, rules §8)."""

    bomb_own_losses: int = 0
    detonations: list[tuple[int, int]] = field(default_factory=list)
    moves: int = 0
    step_backs: int = 0
    material: int = 0
    air_strikes: int = 0
    air_worth: int = 0


def game_metrics(game: Game) -> dict[Side, SideMetrics]:
    """:class:`SideMetrics` per side of a finished (or stopped) ``game``, from its event log and state."""
    out = {side: SideMetrics() for side in Side}
    last: dict[Side, list[tuple[int, int]]] = {side: [] for side in Side}  # its previous turn's (src, dst) moves
    moved: dict[tuple[Side, int], list[tuple[int, int]]] = {}
    for e in game.log:
        if isinstance(e, Moved):
            moved.setdefault((e.side, e.ply), []).append((e.src, e.dst))
            continue
        if not isinstance(e, BattleReport):
            continue
        if e.method == "air":
            out[e.side].air_strikes += 1
            out[e.side].air_worth += sum(WORTH[r.kind] for r in e.removed if r.side is not e.side)
        if (owner := e.bomb_owner) is not None:
            bomb = Seen(owner, Kind.AB, e.explosion)
            own = [r for r in e.removed if r.side is owner and r != bomb]
            out[owner].bomb_own_losses += len(own)
            if e.method == "detonation":
                enemy = sum(WORTH[r.kind] for r in e.removed if r.side is not owner)
                out[owner].detonations.append((enemy, sum(WORTH[r.kind] for r in own)))
    for (side, _ply), steps in sorted(moved.items(), key=lambda kv: kv[0][1]):
        m = out[side]
        m.moves += 1
        if any((dst, src) in last[side] for src, dst in steps):
            m.step_backs += 1
        last[side] = steps
    for unit in game.state.board:
        if unit is not None:
            out[unit.side].material += WORTH[unit.kind]
    return out


@dataclass
class GameSummary:
    """One finished game: ``score_a`` is 1 / 0.5 / 0 for bot A; ``times`` per side, seconds per act; ``metrics``
    per side (:func:`game_metrics`)."""

    a_side: Side
    result: Result | None
    plies: int
    score_a: float
    times: dict[Side, list[float]]
    metrics: dict[Side, SideMetrics] = field(default_factory=dict)

    def quiet_while_ahead(self, side: Side) -> bool:
        """Whether the game ended drawn by the quiet sea (rules §10.3) with ``side`` ahead in material."""
        if self.result is None or self.result.reason is not Reason.QUIET_SEA or not self.metrics:
            return False
        return self.metrics[side].material > self.metrics[side.opponent].material


def play_game(
    south: Bot, north: Bot, *, seed: int, time_per_move: float = 1.0, max_plies: int = MAX_PLIES
) -> tuple[Game, dict[Side, list[float]]]:
    """Play one game between two bots from their own setups; return the game and each side's act times.

    A bot that returns an illegal action loses the game by forfeit (recorded as its resignation).
    ``seed`` is unused by the referee itself (bots carry their own rngs) and kept for the record.
    ``max_plies``: stop there and leave the result ``None`` (scored a draw).
    """
    bots = {Side.SOUTH: south, Side.NORTH: north}
    game = Game(south.setup(Side.SOUTH), north.setup(Side.NORTH), {"seed": seed})
    seen = {Side.SOUTH: 0, Side.NORTH: 0}
    times: dict[Side, list[float]] = {Side.SOUTH: [], Side.NORTH: []}
    state = game.state
    while state.result is None and state.ply < max_plies:
        for side in Side:
            v = game.view(side, since=seen[side])
            seen[side] = v.ply
            bots[side].observe(v)
        actor = state.to_act
        v = game.view(actor, since=state.ply)
        started = time.perf_counter()
        action = bots[actor].act(v, time_per_move)
        times[actor].append(time.perf_counter() - started)
        try:
            game.apply(action)
        except IllegalAction:
            game.apply(Resign(actor))
    return game, times


@dataclass
class TournamentResult:
    """Totals of a match of bot A (level ``a``) against bot B (level ``b``)."""

    a: int
    b: int
    games: list[GameSummary] = field(default_factory=list)

    @property
    def wins(self) -> int:
        """Games A won."""
        return sum(1 for g in self.games if g.score_a == 1.0)

    @property
    def draws(self) -> int:
        """Drawn games (quiet sea, or stopped at the ply limit)."""
        return sum(1 for g in self.games if g.score_a == 0.5)

    @property
    def losses(self) -> int:
        """Games A lost."""
        return sum(1 for g in self.games if g.score_a == 0.0)

    @property
    def score(self) -> float:
        """A's mean score, 0–1 (win 1, draw ½)."""
        return sum(g.score_a for g in self.games) / len(self.games) if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """95 % confidence interval of A's score: the Wilson score interval of a proportion, a draw counting
        half a win (so with draws it errs wide). Unlike the normal approximation it stays honest for few
        games or a one-sided score: 2 wins of 2 give 34–100 %, not a point."""
        n = len(self.games)
        if not n:
            return (0.0, 1.0)
        z = 1.96
        p = self.score
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def reasons(self) -> Counter[str]:
        """How the games ended, from A's point of view, e.g. ``win: bases``."""
        out: Counter[str] = Counter()
        for g in self.games:
            word = {1.0: "win", 0.5: "draw", 0.0: "loss"}[g.score_a]
            out[f"{word}: {g.result.reason.value if g.result else 'ply limit'}"] += 1
        return out

    def side_of(self, g: GameSummary, which: str) -> Side:
        """The side bot ``which`` (``a`` or ``b``) played in game ``g``."""
        return g.a_side if which == "a" else g.a_side.opponent

    def bomb_losses_per_game(self, which: str) -> float:
        """Own units bot ``which`` lost to its own bomb, per game."""
        n = len(self.games)
        return sum(g.metrics[self.side_of(g, which)].bomb_own_losses for g in self.games if g.metrics) / n if n else 0.0

    def detonations(self, which: str) -> list[tuple[int, int]]:
        """Every detonation bot ``which`` chose: ``(enemy worth, own worth)`` removed."""
        return [d for g in self.games if g.metrics for d in g.metrics[self.side_of(g, which)].detonations]

    def air_per_game(self, which: str) -> tuple[float, float]:
        """Bot ``which``'s air strikes per game and the enemy worth they removed per game (rules §6)."""
        ms = [g.metrics[self.side_of(g, which)] for g in self.games if g.metrics]
        if not ms:
            return (0.0, 0.0)
        return (sum(m.air_strikes for m in ms) / len(ms), sum(m.air_worth for m in ms) / len(ms))

    def quiet_while_ahead(self, which: str) -> int:
        """Games drawn by the quiet sea with bot ``which`` ahead in material."""
        return sum(1 for g in self.games if g.quiet_while_ahead(self.side_of(g, which)))

    def step_back_share(self, which: str) -> float:
        """The share of bot ``which``'s moves that stepped straight back (0–1)."""
        ms = [g.metrics[self.side_of(g, which)] for g in self.games if g.metrics]
        moves = sum(m.moves for m in ms)
        return sum(m.step_backs for m in ms) / moves if moves else 0.0

    def move_times(self, which: str) -> tuple[float, float, float]:
        """p50, p95 and max act time in seconds of bot ``which`` (``a`` or ``b``)."""
        ts = sorted(t for g in self.games for t in g.times[g.a_side if which == "a" else g.a_side.opponent])
        if not ts:
            return (0.0, 0.0, 0.0)
        return (ts[len(ts) // 2], ts[min(len(ts) - 1, int(len(ts) * 0.95))], ts[-1])


def match_bots(a: int, b: int, seed: int, i: int) -> tuple[Bot, Bot, Side]:
    """The bots of game ``i`` of a match of level ``a`` against level ``b``: ``(south, north, bot A's side)``,
    seeded from ``(seed, i)``, A South when ``i`` is even."""
    rng = random.Random(f"{seed}:{i}")
    bot_a, bot_b = make_bot(a, rng.getrandbits(64)), make_bot(b, rng.getrandbits(64))
    a_side = Side.SOUTH if i % 2 == 0 else Side.NORTH
    south, north = (bot_a, bot_b) if a_side is Side.SOUTH else (bot_b, bot_a)
    return south, north, a_side


def play_match_game(a: int, b: int, seed: int, i: int, time_per_move: float, max_plies: int = MAX_PLIES) -> GameSummary:
    """Game ``i`` of a match of level ``a`` against level ``b`` (:func:`match_bots`). The same arguments give the
    same game in any process (bots are deterministic given their rngs, up to the safety cut of ``time_per_move``)."""
    south, north, a_side = match_bots(a, b, seed, i)
    game, times = play_game(south, north, seed=seed, time_per_move=time_per_move, max_plies=max_plies)
    result = game.state.result
    if result is None or result.winner is None:
        score = 0.5
    else:
        score = 1.0 if result.winner is a_side else 0.0
    return GameSummary(a_side, result, game.ply, score, times, game_metrics(game))


def run_tournament(
    a: int, b: int, games: int, seed: int, time_per_move: float = 1.0, on_game=None, max_plies: int = MAX_PLIES,
    jobs: int = 1,
) -> TournamentResult:  # fmt: skip
    """Play ``games`` games of level ``a`` against level ``b`` with alternating sides (:func:`play_match_game`).

    ``on_game`` is called with each :class:`GameSummary` as it finishes. ``jobs`` > 1 plays that many
    games at once in worker processes; the games, and so the result, are the same as with one (listed
    in game order), only the move times share the machine.
    """
    out = TournamentResult(a, b)
    args = [(a, b, seed, i, time_per_move, max_plies) for i in range(games)]
    if jobs <= 1:
        for arg in args:
            summary = play_match_game(*arg)
            out.games.append(summary)
            if on_game is not None:
                on_game(summary)
        return out
    done: dict[int, GameSummary] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(play_match_game, *arg): arg[3] for arg in args}
        for future in as_completed(futures):
            summary = future.result()
            done[futures[future]] = summary
            if on_game is not None:
                on_game(summary)
    out.games = [done[i] for i in range(games)]
    return out


def render(
    result: TournamentResult, console: Console, *, title: str, names: tuple[str | None, str | None] = (None, None)
) -> None:
    """Print the table of a finished tournament; ``names`` of A and B instead of their levels' (a bench's own
    sparring partner)."""
    table = Table(title=title)
    for col in ("A", "B", "games", "wins", "draws", "losses", "score", "95 % CI (Wilson)"):
        table.add_column(col, justify="right")
    lo, hi = result.interval()
    a_name, b_name = (n or f"{level} {LEVELS[level].ru}" for n, level in zip(names, (result.a, result.b), strict=True))
    table.add_row(
        a_name, b_name, str(len(result.games)),
        str(result.wins), str(result.draws), str(result.losses), f"{result.score:.1%}", f"{lo:.1%}–{hi:.1%}",
    )  # fmt: skip
    console.print(table)
    for key, n in sorted(result.reasons().items()):
        console.print(f"  {key}: {n}", highlight=False)
    plies = [g.plies for g in result.games]
    console.print(
        f"  plies per game: mean {statistics.mean(plies):.0f}, median {statistics.median(plies):.0f}, max {max(plies)}",
        highlight=False,
    )
    n = len(result.games)
    for which, level, name in (("a", result.a, names[0]), ("b", result.b, names[1])):
        p50, p95, mx = result.move_times(which)
        console.print(
            f"  move time, {which.upper()} ({name or f'level {level}'}): p50 {p50 * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {mx * 1000:.1f} ms",
            highlight=False,
        )
        dets = result.detonations(which)
        cheap = sum(1 for enemy, own in dets if enemy < own)
        per = (
            f"enemy {statistics.mean(e for e, _ in dets):.1f} / own {statistics.mean(o for _, o in dets):.1f} worth "
            f"per detonation, {cheap} removing less enemy worth than own"
            if dets
            else "none"
        )
        ahead = result.quiet_while_ahead(which)
        console.print(
            f"  {which.upper()}: own units lost to its own bomb {result.bomb_losses_per_game(which):.2f} per game; "
            f"{len(dets)} detonations ({per})",
            highlight=False,
        )
        console.print(
            f"  {which.upper()}: quiet-sea draws while ahead {ahead} ({ahead / n:.1%} of games); "
            f"step-back moves {result.step_back_share(which):.1%}",
            highlight=False,
        )
        strikes, worth = result.air_per_game(which)
        console.print(
            f"  {which.upper()}: air strikes {strikes:.1f} per game, removing {worth:.1f} enemy worth per game",
            highlight=False,
        )


def tournament(
    a: int = typer.Option(5, "--a", min=1, max=5, help="Level of bot A."),
    b: int = typer.Option(4, "--b", min=1, max=5, help="Level of bot B."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Games to play (sides alternate)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the whole match."),
    time_per_move: int = typer.Option(
        1000,
        "--time-per-move",
        min=1,
        help="Milliseconds each bot may take per act (games repeat exactly while no bot reaches it).",
    ),
    max_plies: int = typer.Option(MAX_PLIES, "--max-plies", min=10, help="Stop a game there and score a draw."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Games played at once, in worker processes."),
) -> None:
    """Bot A against bot B: wins, draws, losses, score and a 95 % confidence interval for A."""
    # Into a file or a pipe rich would cut the table at 80 columns; a terminal keeps its own width.
    console = Console(width=None if sys.stdout.isatty() else 120)
    tally = Counter()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"), TimeElapsedColumn(), TimeRemainingColumn(), console=console,
    ) as progress:  # fmt: skip
        task = progress.add_task(f"уровень {a} против {b}", total=games, tally="")

        def on_game(g: GameSummary) -> None:
            tally[g.score_a] += 1
            done = sum(tally.values())
            score = (tally[1.0] + 0.5 * tally[0.5]) / done
            progress.update(
                task, advance=1,
                tally=f"+{tally[1.0]} ={tally[0.5]} -{tally[0.0]} · {score:.0%} · last {g.plies} plies",
            )  # fmt: skip

        result = run_tournament(a, b, games, seed, time_per_move / 1000, on_game, max_plies, jobs)
    jobs_note = f", {jobs} at once" if jobs > 1 else ""
    render(result, console, title=f"{games} games, seed {seed}, {time_per_move} ms per move{jobs_note}")
