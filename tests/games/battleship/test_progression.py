"""Points and totals of «Морской бой» (docs/points.md "«Морской бой»"): the formula on hand-computed cases, on
played games, and the commander's totals over several games."""

from __future__ import annotations

import pytest

from admiral.games import Credit, Progression
from admiral.games.battleship import BattleshipRuleset
from admiral.games.battleship.progression import career_stats, fold, points
from admiral.games.battleship.rules import Side, setup_from_text
from admiral.i18n import use

from .helpers import CLASSIC_FLEET, CLASSIC_FLEET_2, seed_for

RS = BattleshipRuleset()


def stats(**kw) -> dict:
    """One side's figures as ``game_stats`` gives them; a classic fleet (20 decks), a game that counts."""
    base = {"outcome": "win", "reason": "fleet_sunk", "counts": True, "shots": 50, "hits": 20, "decks": 20,
            "decks_lost": 8, "sunk": 10}  # fmt: skip
    return {**base, **kw}


class TestFormula:
    # points.md: (50 + 30 × 20/20 + 20 × 12/20) × min(1, 1/2 + 20/50) = 92 × 0.9 = 82.8
    def test_a_win(self):
        assert points(stats(), None) == 83

    # points.md: the opponent factor of PROGRESSION.md §2, AI level 1…5 → 0.2…1.0
    @pytest.mark.parametrize(("level", "want"), [(1, 17), (2, 33), (3, 50), (4, 66), (5, 83)])
    def test_the_ai_factor(self, level, want):
        # 82.8 × 0.2 = 16.56, × 0.4 = 33.12, × 0.6 = 49.68, × 0.8 = 66.24, × 1.0 = 82.8
        assert points(stats(), level) == want

    def test_a_loss(self):
        # (0 + 30 × 8/20 + 20 × 0/20) × (1/2 + 8/45) = 12 × 61/90 = 8.13
        assert points(stats(outcome="loss", shots=45, hits=8, decks_lost=20, sunk=2), None) == 8

    def test_a_loss_on_time_is_a_loss(self):
        assert points(stats(outcome="loss", reason="flag", shots=45, hits=8, decks_lost=20, sunk=2), None) == 8

    def test_a_draw_under_hasbro(self):
        # (15 + 30 × 9/17 + 20 × 7/17) × min(1, 1/2 + 9/30) = 39.118 × 0.8 = 31.29
        assert points(stats(outcome="draw", reason="draw", shots=30, hits=9, decks=17, decks_lost=10), None) == 31

    @pytest.mark.parametrize("reason", ["resign", "abandon"])
    def test_resigning_or_abandoning_gives_0(self, reason):
        assert points(stats(outcome="loss", reason=reason, hits=15, decks_lost=3), None) == 0

    @pytest.mark.parametrize("reason", ["resign", "abandon"])
    def test_the_winner_of_a_resignation_is_paid_for_the_shots_fired(self, reason):
        # (50 + 30 × 5/20 + 20 × 19/20) × min(1, 1/2 + 5/8) × min(1, 8/20) = 76.5 × 1 × 0.4 = 30.6
        assert points(stats(reason=reason, shots=8, hits=5, decks_lost=1), None) == 31

    def test_an_aborted_game_gives_nothing(self):
        assert points(stats(counts=False), None) == 0
        assert RS.credit(stats(counts=False), {"version": 1, "shots": 3}, None) == Credit(
            False, None, 0, {"version": 1, "shots": 3}
        )

    def test_a_perfect_win_is_100(self):
        assert points(stats(shots=20, hits=20, decks_lost=0), None) == 100

    def test_a_bad_ai_level_is_refused(self):
        with pytest.raises(ValueError):
            points(stats(), 6)


def classic_game():
    setups = {"south": setup_from_text(CLASSIC_FLEET), "north": setup_from_text(CLASSIC_FLEET_2)}
    return RS.new_game(setups, {"options": {"rules": "classic"}, "seed": seed_for(Side.SOUTH)})


#: South: two hits and a miss; North: a miss; South: two hits (the 4-decker sunk) and a miss; North: two hits and
#: a miss. Each side began two turns.
OPENING = ["j7", "j8", "b5", "j1", "j9", "j10", "b7", "a1", "a2", "j2"]
#: South's last turn: the 16 decks left of North's fleet.
FINISH = "a8 a9 a10 c8 c9 c10 e9 e10 g9 g10 h1 i1 a1 e1 e5 c5".split()


class TestPlayedGames:
    def test_a_game_won_by_sinking_the_fleet(self):
        g = classic_game()
        for cell in OPENING + FINISH:
            RS.apply(g, cell)
        s = RS.game_stats(g)
        assert {k: s["south"][k] for k in ("shots", "hits", "decks", "decks_lost", "turns", "counts", "outcome")} == {
            "shots": 22, "hits": 20, "decks": 20, "decks_lost": 2, "turns": 3, "counts": True, "outcome": "win",
        }  # fmt: skip
        # South: (50 + 30 + 20 × 18/20) × min(1, 1/2 + 20/22) × min(1, 22/20) = 98
        south = RS.credit(s["south"], {}, None)
        assert south == Credit(True, "win", 98, {"version": 1, "shots": 22, "hits": 20, "sunk": 10, "fastest_win": 22})
        # North: (0 + 30 × 2/20 + 0) × min(1, 1/2 + 2/4) × min(1, 4/20) = 3 × 1 × 0.2 = 0.6
        north = RS.credit(s["north"], {}, None)
        assert north == Credit(True, "loss", 1, {"version": 1, "shots": 4, "hits": 2, "sunk": 0, "fastest_win": None})

    def test_a_resignation(self):
        g = classic_game()
        for cell in OPENING:
            RS.apply(g, cell)
        RS.apply(g, RS.end_action("resign", "north"))
        s = RS.game_stats(g)
        assert (s["north"]["reason"], s["north"]["outcome"], s["north"]["counts"]) == ("resign", "loss", True)
        assert RS.credit(s["north"], {}, None).points == 0
        # South: (50 + 30 × 4/20 + 20 × 18/20) × min(1, 1/2 + 4/6) × min(1, 6/20) = 74 × 0.3 = 22.2
        south = RS.credit(s["south"], {}, 5)
        assert (south.points, south.outcome, south.career["fastest_win"]) == (22, "win", None)

    def test_a_game_ended_before_two_turns_each_is_aborted(self):
        g = classic_game()
        for cell in OPENING[:7]:  # two turns of South, one of North
            RS.apply(g, cell)
        RS.apply(g, RS.end_action("resign", "north"))
        s = RS.game_stats(g)
        assert (s["south"]["turns"], s["north"]["turns"], s["south"]["counts"]) == (2, 1, False)
        assert RS.credit(s["south"], {}, None) == Credit(False, None, 0, {})


class TestTotals:
    def test_two_games_accumulate(self):
        first = fold({}, stats(shots=40, hits=20, sunk=10))
        second = fold(first, stats(outcome="loss", shots=30, hits=12, sunk=4))
        third = fold(second, stats(shots=35, hits=20, sunk=10, reason="flag"))  # no speed proven by a flag
        assert second == {"version": 1, "shots": 70, "hits": 32, "sunk": 14, "fastest_win": 40}
        assert third["fastest_win"] == 40 and fold(third, stats(shots=25))["fastest_win"] == 25

    def test_profile_lines(self):
        career = fold(fold({}, stats(shots=40, hits=20, sunk=10)), stats(outcome="loss", shots=30, hits=12, sunk=4))
        assert career_stats(career) == [
            ("shots", "Выстрелов", "70"), ("hits", "Попаданий", "32"), ("accuracy", "Точность", "46 %"),
            ("sunk", "Потоплено кораблей", "14"), ("fastest_win", "Самая быстрая победа", "40 выстрелов"),
        ]  # fmt: skip
        with use("en"):
            assert career_stats({})[-1] == ("fastest_win", "Fastest win", "—")
            assert career_stats({"shots": 21, "hits": 20, "fastest_win": 21})[-1][2] == "21 shots"

    def test_a_career_from_the_future_or_a_bad_one_is_refused(self):
        with pytest.raises(ValueError):
            fold({"version": 2}, stats())
        with pytest.raises(ValueError):
            fold({"shots": -1}, stats())

    def test_the_ruleset_is_a_progression(self):
        assert isinstance(RS, Progression)
