"""The tournament harness and its command, and a small fixed-seed match: level 5 beats level 1."""

from __future__ import annotations

from typer.testing import CliRunner

from admiral.ai.tournament import run_tournament
from admiral.cli import app


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
