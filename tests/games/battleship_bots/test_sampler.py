"""Level 5's fleets (:mod:`~admiral.games.battleship.bots.sampler`): every draw is consistent with the answers,
and the weighted draws reproduce the exact chances on boards small enough to list every layout."""

from __future__ import annotations

import random

import pytest

from admiral.games.battleship.bots import Knowledge, Sea, consistent, random_layout
from admiral.games.battleship.bots.model import Facts
from admiral.games.battleship.bots.sampler import Sampler, estimate, nth_bit

from .helpers import all_layouts, exact_chance, random_position


def test_nth_bit() -> None:
    rng = random.Random(1)
    for _ in range(200):
        mask = rng.getrandbits(rng.choice([8, 64, 130, 300]))
        ones = [i for i in range(mask.bit_length()) if mask >> i & 1]
        for n, i in enumerate(ones):
            assert nth_bit(mask, n) == i


@pytest.mark.parametrize(("rules", "named"), [("classic", None), ("hasbro", True), ("hasbro", False)])
def test_every_drawn_fleet_is_consistent_with_the_answers(rules: str, named: bool | None) -> None:
    rng = random.Random(7)
    checked = 0
    for n in range(24):
        k, truth = random_position(Knowledge.new(rules, named=named), rng, shots=5 + 3 * n)
        sampler = Sampler(Facts(k))
        for _ in range(25):
            weight, chosen = sampler.draw(rng)
            if weight:
                assert consistent(k, sampler.layout(chosen)), k.shots
                checked += 1
        assert consistent(k, truth)
    assert checked > 300


def test_draws_follow_a_real_game() -> None:
    """Positions a hunter reaches (hits in lines, sunk ships), not just random shots."""
    from .helpers import play_alone

    rules = Knowledge.new("hasbro", named=False)
    layout = random_layout(rules, random.Random(4))
    positions = []
    play_alone(4, rules, layout, 4, check=lambda k, cell: positions.append(k))
    rng = random.Random(5)
    for k in positions[::3]:
        sampler = Sampler(Facts(k))
        for _ in range(10):
            weight, chosen = sampler.draw(rng)
            if weight:
                assert consistent(k, sampler.layout(chosen))


CASES = [
    # (width, height, fleet, codes, touching, named, seed of the shot position)
    (5, 4, (3, 2, 2), ("A", "B", "C"), True, True, 3),
    (5, 4, (3, 2, 2), ("3", "2", "2"), True, False, 3),
    (5, 4, (3, 2, 2), ("3", "2", "2"), True, False, 8),
    (5, 5, (3, 2, 1), ("3", "2", "1"), False, False, 3),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{'touch' if c[4] else 'apart'}-{c[6]}")
def test_weighted_draws_give_the_exact_chances(case) -> None:
    width, height, fleet, codes, touching, named, seed = case
    base = Knowledge(width, height, fleet, codes, touching=touching, named=named)
    rng = random.Random(seed)
    layouts = all_layouts(base)
    truth = rng.choice(layouts)
    sea = Sea(base, truth)
    k = base
    cells = base.cells()
    rng.shuffle(cells)
    for cell in cells[:7]:
        k = k.after(cell, *sea.fire(cell))
    exact, count = exact_chance(k, layouts)
    assert count >= 3  # a real question: several layouts remain
    est = estimate(Facts(k), random.Random(1), 20000)
    for cell, p in exact.items():
        assert abs(est.chance[cell[0] * width + cell[1]] - p) < 0.02, (cell, p)
    for cell, answer, _ in k.shots:
        assert est.chance[cell[0] * width + cell[1]] == pytest.approx(0.0 if answer == "miss" else 1.0)


def test_answers_add_up_to_the_chance() -> None:
    k, _ = random_position(Knowledge.new("hasbro"), random.Random(2), shots=30)
    f = Facts(k)
    est = estimate(f, random.Random(3), 400)
    for i in range(f.g.area):
        if not f.shot >> i & 1:
            assert sum(est.answers(f, i).values()) == pytest.approx(est.chance[i])
            assert 0 <= est.entropy(f, i) <= 1 + len(f.types) * 2


def test_impossible_knowledge_gives_no_good_draw() -> None:
    k = Knowledge(3, 1, (2,), ("2",), touching=True, named=False).after((0, 1), "sunk")
    est = estimate(Facts(k), random.Random(1), 50)
    assert est.good == 0 and est.weight == 0
