"""The Glicko-2 rating (PROGRESSION.md §4) through the ``glicko2`` library, with its volatility step fixed."""

import glicko2
import pytest

import admiral.games  # noqa: F401  (the registry first: admiral.progression and the games import each other)
from admiral.progression.rating import PROVISIONAL_RD, Glicko2Player, Rating, rate


def _example(cls, shift: float = 0.0):
    """Glickman's "Example of the Glicko-2 system": a player at 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    to 1700/300; ``shift`` moves every rating by the same amount."""
    p = cls(1500 + shift, 200, 0.06)
    p.update_player([1400 + shift, 1550 + shift, 1700 + shift], [30, 100, 300], [1, 0, 0])
    return p


# PROGRESSION.md §4: the paper's worked example gives r' = 1464.06, RD' = 151.52, σ' = 0.05999
def test_glickmans_worked_example():
    p = _example(Glicko2Player)
    assert round(p.rating, 2) == 1464.05  # the paper rounds its intermediate values: 1464.06
    assert round(p.rd, 2) == 151.52
    assert int(p.vol * 100_000) == 5999  # the paper's 0.05999 (truncated)
    assert p.vol == pytest.approx(0.0599960, abs=1e-7)


# PROGRESSION.md §4: the same games 600 points up give the same volatility and the same change; the library's
# own _f (μ where the paper has φ) does not
def test_volatility_does_not_depend_on_where_the_scale_starts():
    fixed, fixed_up = _example(Glicko2Player), _example(Glicko2Player, 600)
    assert fixed_up.vol == pytest.approx(fixed.vol, abs=1e-12)
    assert fixed_up.rating - 600 == pytest.approx(fixed.rating, abs=1e-9)
    broken, broken_up = _example(glicko2.Player), _example(glicko2.Player, 600)
    assert broken.vol == pytest.approx(0.0599934, abs=1e-7)  # already off at 1500 (μ = 0 instead of φ²)
    assert broken_up.vol == pytest.approx(0.0599990, abs=1e-7)  # and differently off at 2100
    assert abs(broken_up.vol - fixed_up.vol) > 2e-6


# PROGRESSION.md §4: 1500 / RD 350 / σ 0.06 at start, «?» while RD > 110
def test_start_and_provisional():
    r = Rating()
    assert (r.rating, r.rd, r.volatility, r.games) == (1500.0, 350.0, 0.06, 0)
    assert r.provisional and r.shown == "1500?"
    assert not Rating(1523.4, PROVISIONAL_RD).provisional and Rating(1523.4, PROVISIONAL_RD).shown == "1523"
    assert Rating(1523.6, 110.01).shown == "1524?"


# PROGRESSION.md §4: one game is one rating period; both are rated against the other's rating before it
def test_one_game():
    a, b = rate(Rating(), Rating(), 1.0)
    assert (round(a.rating, 2), round(a.rd, 2), a.games) == (1662.31, 290.32, 1)
    assert (round(b.rating, 2), round(b.rd, 2), b.games) == (1337.69, 290.32, 1)
    d1, d2 = rate(Rating(), Rating(), 0.5)
    assert (d1.rating, d2.rating) == (1500.0, 1500.0) and d1.rd < 350
    # a strong, settled player beating a new one moves little; the new one moves a lot
    strong, new = rate(Rating(1900, 60, 0.06, 50), Rating(), 1.0)
    assert round(strong.rating - 1900, 1) == 2.5 and round(new.rating) == 1451
    assert strong.games == 51


@pytest.mark.parametrize("score", [2, -1, 0.3])
def test_bad_score(score):
    with pytest.raises(ValueError):
        rate(Rating(), Rating(), score)
