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


def _played(text: str, *notations: str, to_move=None):
    """A stand-in for a game (``log`` and ``state``, what :func:`game_metrics` reads) after ``notations``."""
    from types import SimpleNamespace

    from admiral.games.admiral.rules import Action, GameState, Side, apply

    state = GameState.from_text(text, to_move or Side.SOUTH)
    log = []
    for n in notations:
        log += apply(state, Action.parse(n))
    return SimpleNamespace(log=log, state=state)


def test_a_detonation_counts_the_worth_it_removed_on_both_sides() -> None:
    """Rules §8: South's bomb at g8 takes North's KR, L, PL (worth 8 + 16 + 5) and South's ES, KR, TR (6 + 8 + 2,
    the bomb itself not counted): one detonation (29, 16) and 3 own units lost to the own bomb."""
    from admiral.games.admiral.bots.tournament import game_metrics
    from admiral.games.admiral.rules import Side

    game = _played(
        "ABg8 KRe6 TRi10 ESh7 KRd8 ESg5 PLk11 VMBa1 TRb1 / Li6 PLe10 KRg9 Rj8 STg11 TKd5 VMBn15 TRm15", "АБ!"
    )
    m = game_metrics(game)
    assert (m[Side.SOUTH].detonations, m[Side.SOUTH].bomb_own_losses) == ([(29, 16)], 3)
    assert (m[Side.NORTH].detonations, m[Side.NORTH].bomb_own_losses) == ([], 0)


def test_a_bomb_set_off_by_an_attack_costs_its_owner_not_the_attacker() -> None:
    """Rules §8: South's battleship attacks North's bomb at e9: the blast takes North's base (North's loss to its
    own bomb, no detonation of its choosing) and South's battleship and base."""
    from admiral.games.admiral.bots.tournament import game_metrics
    from admiral.games.admiral.rules import Side

    m = game_metrics(_played("Le8 VMBf7 KRa1 / ABe9 VMBg10 TRm15", "e8xe9"))
    assert (m[Side.NORTH].bomb_own_losses, m[Side.NORTH].detonations) == (1, [])
    assert (m[Side.SOUTH].bomb_own_losses, m[Side.SOUTH].detonations) == (0, [])


def test_step_backs_and_material() -> None:
    """A move straight back to where the side's previous move came from is a step back; another unit's move or a
    move elsewhere is not. Material: the worth of the units left (a base 40)."""
    from admiral.games.admiral.bots.tournament import WORTH, game_metrics
    from admiral.games.admiral.rules import Kind, Side

    game = _played("KRe5 ESa5 VMBa1 / TRm14 VMBn15", "e5-e6", "m14-m13", "e6-e5", "m13-l13", "e5-e6", "l13-l14",
                   "a5-a6", "l14-l13")  # fmt: skip
    m = game_metrics(game)
    assert (m[Side.SOUTH].moves, m[Side.SOUTH].step_backs) == (4, 2)  # e6-e5 and e5-e6 went back; a5-a6 did not
    assert (m[Side.NORTH].moves, m[Side.NORTH].step_backs) == (4, 1)  # only l14-l13 reverses its previous l13-l14
    assert (m[Side.SOUTH].material, m[Side.NORTH].material) == (8 + 6 + WORTH[Kind.VMB], 2 + WORTH[Kind.VMB])


def test_air_strikes_count_with_the_enemy_worth_they_removed() -> None:
    """Rules §6, §7.2: South's aircraft beside its carrier strikes North's destroyer three cells up its column
    (removed, worth 6), then North's battleship three cells along its row (AA fire downs the aircraft: nothing of
    North's removed). Two strikes, 6 worth; North struck nothing."""
    from admiral.games.admiral.bots.tournament import game_metrics
    from admiral.games.admiral.rules import Side

    m = game_metrics(_played("Ae4 Se5 VMBa1 / ESe8 Lh5 VMBn15 TRm15", "e5xe8", "m15-m14", "e5xh5"))
    assert (m[Side.SOUTH].air_strikes, m[Side.SOUTH].air_worth) == (2, 6)
    assert (m[Side.NORTH].air_strikes, m[Side.NORTH].air_worth) == (0, 0)


def test_the_match_prints_the_bomb_the_quiet_sea_and_the_step_backs() -> None:
    out = CliRunner().invoke(app, ["tournament", "--a", "2", "--b", "1", "--games", "2", "--max-plies", "40"])
    assert out.exit_code == 0, out.output
    assert "own units lost to its own bomb" in out.output and "step-back moves" in out.output
    assert "quiet-sea draws while ahead 0 (0.0% of games)" in out.output  # stopped at the ply limit, not quiet
    assert "A: air strikes " in out.output and "enemy worth per game" in out.output
