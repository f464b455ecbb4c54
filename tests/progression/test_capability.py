"""«Адмирал» as a game with points (issue 17): its :class:`~admiral.games.Progression` is PROGRESSION.md's points
and career, unchanged, behind the protocol every credited game implements."""

from dataclasses import replace

from admiral.games import GAMES, Credit, Progression
from admiral.progression import Career, Outcome, opponent_factor, points

from .test_points import BASE

RS = GAMES["admiral"]


def test_the_ruleset_is_a_progression():
    assert isinstance(RS, Progression) and "progression" in RS.info.capabilities


# progression §2–§5: the same points and career as Career.add, the awards that rose for the result screen
def test_credit_is_the_career_unchanged():
    earlier = Career(points=480, games_played=4, games_won=4).to_dict()
    got = RS.credit(BASE, earlier, 2)
    change = Career.from_dict(earlier).add(BASE, points(BASE, opponent_factor(2)), 2)
    assert got == Credit(
        True, "win", change.points, change.after.to_dict(), {"awards": [a.to_dict() for a in change.awards]}
    )
    assert got.points == points(BASE, 0.4) and got.career["games_played"] == 5


# progression §2: a resignation is a loss with 0 points; an aborted game credits nothing
def test_resignation_and_aborted():
    resigned = RS.credit(replace(BASE, outcome=Outcome.RESIGNED), {}, None)
    assert (resigned.counted, resigned.outcome, resigned.points, resigned.career["games_lost"]) == (True, "loss", 0, 1)
    assert RS.credit(replace(BASE, counts=False), {"points": 7}, None) == Credit(False, None, 0, {"points": 7})


def test_profile_lines():
    lines = RS.career_stats(
        Career(units_sunk=12, sunk_tonnes=57_050, wins_vs_ai={1: 0, 2: 3, 3: 0, 4: 0, 5: 0}).to_dict()
    )
    assert ("sunk_tonnes", "Потопленный тоннаж", "57\u00a0050 т") in lines
    assert ("wins_vs_ai_2", "Побед над ИИ уровня 2", "3") in lines and ("units_sunk", "Потоплено единиц", "12") in lines
