"""Points for a game (PROGRESSION.md §2), on GameStats written by hand."""

from dataclasses import replace

import pytest

from admiral.games.admiral.rules import Reason, Side
from admiral.progression import GameStats, Outcome, opponent_factor, points

BASE = GameStats(
    side=Side.SOUTH, outcome=Outcome.WIN, reason=Reason.BASES, turns=40, counts=True, preserved=120,
    sunk_tonnes=57_050, bases_intact=True, units_sunk=20, bases_destroyed=2, battles_won=3, torpedo_kills=0,
    submarine_battles_won=0, air_kills=0, mine_kills=0, mines_cleared=0, atomic_kills=0, formation_battles_won=0,
)  # fmt: skip


def game(**changes) -> GameStats:
    return replace(BASE, **changes)


class TestOpponentFactor:
    # progression §2: another human 1.0; AI levels 1…5 → 0.2, 0.4, 0.6, 0.8, 1.0
    def test_table(self):
        assert [opponent_factor(level) for level in (None, 1, 2, 3, 4, 5)] == [1.0, 0.2, 0.4, 0.6, 0.8, 1.0]

    # progression §2: no other level exists
    @pytest.mark.parametrize("level", [0, 6, -1, True])
    def test_bad_level(self, level):
        with pytest.raises(ValueError):
            opponent_factor(level)


class TestPoints:
    # progression §2: 120 preserved + 57.05 kt → 57.1 + 50 both bases + 100 win = 327.1 → 327
    def test_worked_win_against_a_human(self):
        assert points(game(), 1.0) == 327

    # progression §2: × the opponent factor before rounding: 327.1 × 0.2 = 65.42, × 0.6 = 196.26, × 0.8 = 261.68
    @pytest.mark.parametrize(("level", "expected"), [(1, 65), (2, 131), (3, 196), (4, 262), (5, 327)])
    def test_against_each_ai_level(self, level, expected):
        assert points(game(), opponent_factor(level)) == expected

    # progression §2: draw bonus 30, loss 0, no bases bonus when a base was lost
    def test_draw_and_loss(self):
        assert points(game(outcome=Outcome.DRAW), 1.0) == 120 + 57 + 50 + 30  # 257.1
        assert points(game(outcome=Outcome.LOSS, bases_intact=False), 1.0) == 177  # 177.1

    # progression §2: a player who resigns gets 0, whatever it preserved and sank
    def test_resignation_gives_nothing(self):
        assert points(game(outcome=Outcome.RESIGNED), 1.0) == 0

    # progression §2: an aborted game gives nothing, even to the winner
    def test_aborted_gives_nothing(self):
        assert points(game(counts=False), 1.0) == 0

    # progression §2: one decimal of kt kept, final rounding half up: 0.5 → 1 (not banker's 0)
    def test_rounding_half_up(self):
        assert points(game(outcome=Outcome.LOSS, bases_intact=False, preserved=0, sunk_tonnes=500), 1.0) == 1
        assert points(game(outcome=Outcome.LOSS, bases_intact=False, preserved=2, sunk_tonnes=500), 1.0) == 3
        # 50 t (one ТК) is 0.05 kt → 0.1 kt kept; 0.1 rounds to 0
        assert points(game(outcome=Outcome.LOSS, bases_intact=False, preserved=0, sunk_tonnes=50), 1.0) == 0
        # 7 × 0.05 kt: 350 t → 0.4 kt; preserved 1 → 1.4 → 1
        assert points(game(outcome=Outcome.LOSS, bases_intact=False, preserved=1, sunk_tonnes=350), 1.0) == 1

    # progression §2: the best possible game: all 184 kept, the whole enemy fleet sunk (266 500 t), win
    def test_maximum(self):
        best = game(preserved=184, sunk_tonnes=266_500)
        assert points(best, 1.0) == 601  # 184 + 266.5 + 50 + 100 = 600.5 → 601

    # progression §2: the factor must be one of the table's
    @pytest.mark.parametrize("factor", [0, -0.2, 1.2])
    def test_bad_factor(self, factor):
        with pytest.raises(ValueError):
            points(game(), factor)


class TestFairPoints:
    # PROGRESSION.md §2 (2026-12-01): every term × e = min(1, T / 40); 327.1 × 20/40 = 163.55 → 164
    def test_engagement(self):
        assert points(game(turns=20), 1.0) == 164
        assert points(game(turns=40), 1.0) == points(game(turns=400), 1.0) == 327
        assert points(game(turns=2), opponent_factor(1)) == 3  # 327.1 × 0.2 × 2/40 = 3.271

    # PROGRESSION.md §2: a 1+0 game lost on time after two moves each: the loser 177.1 × 2/40 = 8.855 → 9
    def test_flag_after_two_moves(self):
        lost = game(outcome=Outcome.LOSS, reason=Reason.FLAG, turns=2, bases_intact=False)
        won = game(reason=Reason.FLAG, turns=2, preserved=184, sunk_tonnes=0)
        assert points(lost, 1.0) == 9
        assert points(won, 1.0) == 17  # (184 + 0 + 50 + 100) × 2/40 = 16.7

    # PROGRESSION.md §2: abandoning gives 0 like resigning (still a loss); the claimant is paid by its turns
    def test_abandonment(self):
        assert points(game(outcome=Outcome.LOSS, reason=Reason.ABANDONMENT, turns=30), 1.0) == 0
        assert points(game(reason=Reason.ABANDONMENT, turns=30), 1.0) == 245  # 327.1 × 30/40 = 245.3
        assert points(game(outcome=Outcome.LOSS, reason=Reason.FLAG, turns=40, bases_intact=False), 1.0) == 177
