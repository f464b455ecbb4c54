"""Whole random games (seeded self-play) whose figures were checked by hand from their battle reports.

The games depend on the engine's auto-arrangement and the order of ``legal_actions``; if either changes, these
records change and the figures must be checked again from the printed reports (this file's docstrings list them).
"""

import random

import pytest

from admiral.games.admiral.rules import Game, GameRecord, Reason
from admiral.progression import Outcome, game_stats, opponent_factor, points

from .helpers import NORTH, SOUTH


def self_play(seed: int) -> GameRecord:
    rng = random.Random(seed)
    game = Game.new_random(rng)
    while not game.state.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.record


@pytest.fixture(scope="module")
def seed5():
    """South detonates its own bomb on j5 on its second turn (ply 2), then 200 quiet plies: a draw.

    Removed: S:TRh3 S:KRh4 S:PLh5 S:Ti3 S:TKi5 S:ESj3 S:VMBj4 S:ABj5 S:Lk3 S:Lk4 S:TRk5 S:Ml3 S:PLl4.
    """
    record = self_play(5)
    assert len(record.actions) == 203
    return game_stats(record)


@pytest.fixture(scope="module")
def seed3():
    """564 plies, quiet-sea draw. Reports (ply, side, what, removed):

    114 S detonates d6: S PLb4 STb5 TRb8 TKc4 VMBd4 ABd6 ESe4 Me5 TRf4 (own units only)
    145 N detonates a10: N ABa10 KRa11 TKa12 KRc12 (own units only)
    200 S ESn8 × N TRn9, rows 5:1 → N TRn9          207 N STn9 × S ESn8, rows 2:5 → N STn9 (South defends)
    234 S ESm9 × N ESl9, rows 5:5 → both            338 S torpedo i7 → N ESi9 (torpedo spent)
    343 N KRj7 × S TRj6, rows 7:1 → S TRj6          363 N TKh8 × S TKh7, rows 3:3 → both
    """
    record = self_play(3)
    assert len(record.actions) == 564
    return game_stats(record)


class TestSeed5:
    # progression §2: "their own bomb included": North sinks 107 950 t without firing a shot
    def test_sunk_by_the_enemys_own_bomb(self, seed5):
        s, n = seed5[SOUTH], seed5[NORTH]
        assert (s.outcome, n.outcome, s.reason) == (Outcome.DRAW, Outcome.DRAW, Reason.QUIET_SEA)
        # KR 12 000 + PL 1 000 ×2 + TK 50 + ES 2 500 + L 45 000 ×2 + TR 700 ×2
        assert n.sunk_tonnes == 107_950
        assert n.units_sunk == 12  # 13 removed, the detonated bomb is spent
        assert (s.sunk_tonnes, s.units_sunk) == (0, 0)

    # progression §5: own units destroyed by own bomb credit nobody; South's base is no North assault
    def test_no_atomic_or_base_credit(self, seed5):
        s, n = seed5[SOUTH], seed5[NORTH]
        assert (s.atomic_kills, n.atomic_kills, n.bases_destroyed) == (0, 0, 0)
        assert (s.bases_intact, n.bases_intact) == (False, True)

    # progression §2: preserved 184 − (KR 7 + PL 4 ×2 + TK 3 + ES 5 + L 15 ×2 + TR 1 ×2) = 129
    def test_points(self, seed5):
        s, n = seed5[SOUTH], seed5[NORTH]
        assert (s.preserved, n.preserved) == (129, 184)
        assert points(s, 1.0) == 159  # 129 + 0 + 0 + 30
        assert points(n, 1.0) == 372  # 184 + 108.0 + 50 + 30
        assert points(n, opponent_factor(2)) == 149  # 372 × 0.4 = 148.8

    # progression §2: both made far more than 2 turns
    def test_turns(self, seed5):
        assert (seed5[SOUTH].turns, seed5[NORTH].turns) == (102, 101)
        assert seed5[SOUTH].counts and seed5[NORTH].counts


class TestSeed3:
    # progression §4, §5 «Охотник»: all causes, the enemy's own bomb included, spent weapons excepted
    def test_units_and_tonnage(self, seed3):
        s, n = seed3[SOUTH], seed3[NORTH]
        # South: 3 (North's bomb) + TRn9 + STn9 + ESl9 + ESi9 + TKh8 = 8; 24 050 + 700 + 1 000 + 2 500 ×2 + 50
        assert (s.units_sunk, s.sunk_tonnes) == (8, 30_800)
        # North: 8 (South's bomb) + ESm9 + TRj6 + TKh7 = 11; 5 950 + 2 500 + 700 + 50
        assert (n.units_sunk, n.sunk_tonnes) == (11, 9_200)

    # progression §5: battles won, as attacker (200) and as defender (207); 234 and 363 are ties
    def test_battles(self, seed3):
        s, n = seed3[SOUTH], seed3[NORTH]
        assert (s.battles_won, n.battles_won) == (2, 1)
        assert (s.formation_battles_won, s.submarine_battles_won, n.formation_battles_won) == (0, 0, 0)

    # progression §5: one torpedo kill; no atomic credit (each bomb took only its owner's units)
    def test_weapons(self, seed3):
        s, n = seed3[SOUTH], seed3[NORTH]
        assert (s.torpedo_kills, n.torpedo_kills) == (1, 0)
        assert (s.atomic_kills, n.atomic_kills, s.bases_destroyed, n.bases_destroyed) == (0, 0, 0, 0)

    # progression §2: South 159 + 30.8 + 0 + 30 = 219.8 → 220; North 151 + 9.2 + 50 + 30 = 240.2 → 240
    def test_points(self, seed3):
        s, n = seed3[SOUTH], seed3[NORTH]
        assert (s.preserved, n.preserved) == (159, 151)
        assert (points(s, 1.0), points(n, 1.0)) == (220, 240)
        assert points(s, opponent_factor(3)) == 132  # 219.8 × 0.6 = 131.88


# progression §2: a record read back from JSON gives the same statistics
def test_record_json_round_trip():
    record = self_play(5)
    again = GameRecord.from_json(record.to_json())
    assert game_stats(again) == game_stats(record)
