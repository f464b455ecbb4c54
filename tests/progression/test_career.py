"""The career (PROGRESSION.md §3–§5): folding games in, streaks, what changed, the JSON form."""

import json
from dataclasses import replace

import pytest

from admiral.progression import Career, Outcome

from .helpers import position, stats
from .test_points import BASE


def game(**changes):
    return replace(BASE, **changes)


class TestAdd:
    # progression §4: totals of one won game against AI level 2
    def test_one_win(self):
        change = Career().add(game(), 131, ai_level=2)
        c = change.after
        assert (c.points, c.games_played, c.games_won, c.games_drawn, c.games_lost) == (131, 1, 1, 0, 0)
        assert (c.units_sunk, c.sunk_tonnes, c.bases_destroyed) == (20, 57_050, 2)
        assert c.wins_vs_ai == {1: 0, 2: 1, 3: 0, 4: 0, 5: 0}
        assert (c.streak, c.best_streak) == (1, 1)
        assert change.counted and change.points == 131 and change.career is c

    # progression §5: the left-hand counters come from the game, the badges from the totals
    def test_award_counters(self):
        s, _ = stats(position("TKd7 Te8", "Ae10 Sn10"), "e8xe10")  # two torpedo kills, won with both bases
        c = Career().add(s, 300).after
        counters = c.award_counters()
        assert counters == {
            "torpedo": 2, "submarine": 0, "aviation": 0, "mines": 0, "nuclear": 0, "base_assault": 0,
            "base_defence": 1, "formation": 0, "veteran": 1, "winner": 1, "hunter": 2, "tonnage": 40,
        }  # fmt: skip

    # progression §4: best win streak survives a loss; the current one restarts
    def test_streaks(self):
        c = Career()
        for outcome in (Outcome.WIN, Outcome.WIN, Outcome.DRAW, Outcome.WIN, Outcome.RESIGNED, Outcome.WIN):
            c = c.add(game(outcome=outcome), 10).after
        assert (c.streak, c.best_streak) == (1, 2)
        assert (c.games_played, c.games_won, c.games_drawn, c.games_lost) == (6, 4, 1, 1)

    # progression §2: an aborted game changes nothing
    def test_aborted(self):
        before = Career(points=500, games_played=3)
        change = before.add(game(counts=False), 0, ai_level=5)
        assert change.after == before and not change.counted
        assert (change.new_rank, change.awards) == (None, [])

    # progression §2: a resignation is a lost game with 0 points; a human opponent adds no AI win
    def test_resignation_and_human_opponent(self):
        c = Career().add(game(outcome=Outcome.RESIGNED), 0).after
        assert (c.games_lost, c.points, c.wins_vs_ai) == (1, 0, {1: 0, 2: 0, 3: 0, 4: 0, 5: 0})

    # progression §3–§5: the value is immutable: add returns a new career
    def test_self_unchanged(self):
        c = Career()
        c.add(game(), 100, 1)
        assert c == Career()

    @pytest.mark.parametrize(("pts", "level"), [(-1, None), (10, 0), (10, 6)])
    def test_bad_input(self, pts, level):
        with pytest.raises(ValueError):
            Career().add(game(), pts, level)


class TestWhatChanged:
    # progression §3, §5: a new rank is shown in the game's result screen
    def test_new_rank(self):
        change = Career(points=190).add(game(), 20)
        assert (change.new_rank.number, change.new_rank.name) == (2, "Старший матрос")
        assert Career(points=0).add(game(), 20).new_rank is None

    # progression §5: awards that reached a new degree, with their degree before and after
    def test_new_awards(self):
        before = Career(games_played=9, games_won=49, sunk_tonnes=442_950, counters={"torpedo": 14})
        s = game(torpedo_kills=1, bases_intact=False, bases_destroyed=0)
        change = before.add(s, 10)
        assert [(a.award_id, a.before, a.after) for a in change.awards] == [
            ("torpedo", 1, 2), ("veteran", 0, 1), ("winner", 1, 2), ("tonnage", 0, 1),
        ]  # fmt: skip
        assert change.to_dict()["awards"][0] == {"id": "torpedo", "name": "Медаль «Торпедная атака»",
                                                 "before": 1, "after": 2}  # fmt: skip

    # progression §5: «Тоннаж» counts whole thousands of tonnes
    def test_tonnage_in_whole_thousands(self):
        assert Career(sunk_tonnes=499_999).award_degrees()["tonnage"] == 0
        assert Career(sunk_tonnes=500_000).award_degrees()["tonnage"] == 1


class TestJson:
    # progression §1–§5: the career is stored as JSON and read back unchanged
    def test_round_trip(self):
        c = Career()
        for outcome, level in ((Outcome.WIN, 3), (Outcome.LOSS, None), (Outcome.WIN, 5)):
            c = c.add(game(outcome=outcome, atomic_kills=2), 77, level).after
        text = json.dumps(c.to_dict())
        assert Career.from_dict(json.loads(text)) == c
        assert c.to_dict() == {
            "version": 1, "points": 231, "games_played": 3, "games_won": 2, "games_drawn": 0, "games_lost": 1,
            "units_sunk": 60, "sunk_tonnes": 171_150, "bases_destroyed": 6, "best_streak": 1, "streak": 1,
            "wins_vs_ai": {"1": 0, "2": 0, "3": 1, "4": 0, "5": 1},
            "counters": {"torpedo": 0, "submarine": 0, "aviation": 0, "mines": 0, "nuclear": 6,
                         "base_assault": 6, "base_defence": 2, "formation": 0},
        }  # fmt: skip

    # progression §5: a stored form missing newer counters still reads, with zeros
    def test_missing_keys_are_zero(self):
        assert Career.from_dict({"points": 5}) == Career(points=5)

    @pytest.mark.parametrize(
        "data",
        [[], {"points": -1}, {"points": 1.5}, {"points": "5"}, {"wins_vs_ai": {"7": 1}}, {"wins_vs_ai": {"x": 1}},
         {"counters": {"bravery": 1}}, {"counters": []}, {"version": 2}],
    )  # fmt: skip
    def test_bad_forms(self, data):
        with pytest.raises(ValueError):
            Career.from_dict(data)
