"""The tournament harness and its command, and a small fixed-seed match: level 5 beats level 1."""

from __future__ import annotations

from typer.testing import CliRunner

from admiral.cli import app
from admiral.games.admiral.bots.tournament import run_tournament


def test_level_five_beats_level_one() -> None:
    result = run_tournament(5, 1, games=2, seed=3, time_per_move=30.0)
    assert [g.a_side.label for g in result.games] == ["south", "north"]
    assert [g.score_a for g in result.games] == [1.0, 1.0]
    assert all(g.result is not None and g.result.reason.value == "bases" for g in result.games)


def test_tournament_command_prints_the_table() -> None:
    out = CliRunner().invoke(app, ["tournament", "--a", "2", "--b", "1", "--games", "2", "--max-plies", "30"])
    assert out.exit_code == 0, out.output
    assert "2 games, seed 1" in out.output
    assert "95 % CI" in out.output
    assert "draw: ply limit: 2" in out.output


def test_games_played_at_once_are_the_games_played_one_by_one() -> None:
    """``--jobs``: worker processes play the very games of a sequential run, listed in game order."""
    one = run_tournament(3, 2, games=3, seed=5, time_per_move=30.0, max_plies=120)
    two = run_tournament(3, 2, games=3, seed=5, time_per_move=30.0, max_plies=120, jobs=2)
    assert [(g.a_side, g.plies, g.score_a, g.result) for g in two.games] == [
        (g.a_side, g.plies, g.score_a, g.result) for g in one.games
    ]
    assert [g.plies for g in one.games] == [120, 120, 120]  # real games, stopped at the ply limit
    assert [len(g.times[g.a_side]) for g in two.games] == [60, 60, 60]


def test_the_interval_is_wilsons_and_honest_for_few_games() -> None:
    """QA finding: the normal approximation gave 2 wins of 2 the interval 100.0 %–100.0 %."""
    from admiral.games.admiral.bots.tournament import GameSummary, TournamentResult
    from admiral.games.admiral.rules import Side

    def match(*scores: float) -> TournamentResult:
        no_times = {Side.SOUTH: [], Side.NORTH: []}
        return TournamentResult(5, 4, [GameSummary(Side.SOUTH, None, 10, s, no_times) for s in scores])

    lo, hi = match(1.0, 1.0).interval()
    assert (round(lo, 3), hi) == (0.342, 1.0)
    lo, hi = match(0.5, 0.5).interval()
    assert (round(lo, 3), round(hi, 3)) == (0.095, 0.905)
    lo, hi = match(*([1.0] * 50 + [0.0] * 50)).interval()
    assert (round(lo, 3), round(hi, 3)) == (0.404, 0.596)  # the textbook value for 50 of 100
    assert match().interval() == (0.0, 1.0)


def test_piped_output_keeps_the_whole_table() -> None:
    """QA finding: into a pipe the table was cut at 80 columns («Адмиральс…»)."""
    out = CliRunner().invoke(app, ["tournament", "--a", "5", "--b", "5", "--games", "1", "--max-plies", "10"])
    assert out.exit_code == 0, out.output
    assert "5 Адмиральский" in out.output
    assert "move time, A (level 5)" in out.output and "move time, B (level 5)" in out.output
