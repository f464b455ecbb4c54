"""The five levels: legal shots only, the classic rules' empty cells respected, ships finished once hit, legal
setups, determinism, and whole games that end."""

from __future__ import annotations

import random
import statistics

import pytest

from admiral.games.battleship.bots import (
    LEVELS,
    Knowledge,
    Sea,
    cell_name,
    layout_from_setup,
    layout_problems,
    make_bot,
    parse_cell,
    random_layout,
)  # fmt: skip
from admiral.games.battleship.bots import levels as levels_module
from admiral.games.battleship.bots.geometry import geometry
from admiral.games.battleship.bots.setups import exposure

from .helpers import play_alone, random_position


@pytest.fixture
def quick_level5(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 5 with fewer draws a shot: the same code paths, a faster test."""
    monkeypatch.setattr(levels_module.FleetBot, "draws", 150)


def _sunk_rings(rules: Knowledge, layout, k: Knowledge) -> set:
    """Cells around the ships of ``layout`` that ``k`` shows sunk (computed from the true layout)."""
    shot = {c for c, _, _ in k.shots}
    out = set()
    for _, cells in layout:
        if all(c in shot for c in cells):
            for r, c in cells:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        n = (r + dr, c + dc)
                        if n not in cells and 0 <= n[0] < rules.height and 0 <= n[1] < rules.width:
                            out.add(n)
    return out


def test_levels_and_names() -> None:
    assert LEVELS == {1: "Юнга", 2: "Матрос", 3: "Мичман", 4: "Капитан", 5: "Адмирал"}
    for level in LEVELS:
        bot = make_bot(level, seed=3)
        assert (bot.level, bot.name, bot.seed) == (level, LEVELS[level], 3)
    with pytest.raises(ValueError):
        make_bot(6)


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
@pytest.mark.parametrize(("rules", "named"), [("classic", None), ("hasbro", True), ("hasbro", False)])
def test_a_whole_game_fires_at_unshot_cells_and_ends(level: int, rules: str, named: bool | None) -> None:
    """Every shot is a cell not fired at; at level ≥ 2 never a cell the classic rules show empty around a sunk
    ship; the fleet sinks within width × height shots (``play_alone`` asserts the bound)."""
    k0 = Knowledge.new(rules, named=named)
    layout = random_layout(k0, random.Random(level))

    def check(k: Knowledge, cell) -> None:
        assert not k.is_shot(cell)
        if level >= 2 and not k0.touching:
            assert cell not in _sunk_rings(k0, layout, k), cell_name(cell)

    k = play_alone(level, k0, layout, seed=level, check=check)
    assert sum(a != "miss" for _, a, _ in k.shots) == k0.decks
    if level >= 2:
        assert len(k.shots) < k0.width * k0.height


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_classic_ring_is_never_shot_from_random_positions(level: int) -> None:
    rules = Knowledge.new("classic")
    rng = random.Random(10 + level)
    for n in range(12):
        k, layout = random_position(rules, rng, shots=20 + 5 * n)
        if len(k.shots) == 100 or (all(a != "miss" for _, a, _ in k.shots[-1:]) and Sea(rules, layout).left == 0):
            continue
        cell = parse_cell(make_bot(level, n).shoot(k, 5.0))
        assert not k.is_shot(cell)
        assert cell not in _sunk_rings(rules, layout, k)


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [2, 3, 4, 5])
@pytest.mark.parametrize("rules", ["classic", "hasbro"])
def test_after_a_first_hit_the_next_shot_is_beside_it(level: int, rules: str) -> None:
    """Early in the game (a few misses, one hit), levels 2–5 shoot a side neighbour of the hit."""
    for seed in range(6):
        rng = random.Random(seed)
        k = Knowledge.new(rules)
        for cell in rng.sample([c for c in k.cells() if c != (4, 5)], 4):
            k = k.after(cell, "miss")
        k = k.after((4, 5), "hit", "B" if k.named else None)
        cell = parse_cell(make_bot(level, seed).shoot(k, 5.0))
        assert abs(cell[0] - 4) + abs(cell[1] - 5) == 1, (seed, cell_name(cell))


def _targeting(layout, reach: int):
    """A shot check: while a ship is hit and afloat, the shot lies in line with one of the open hits, within
    ``reach`` cells of it (levels 2, 3 and 5 shoot beside an open hit: reach 1; level 4 may skip a cell its density
    found as sure as the next, so reach is the longest ship's length less one)."""
    owner = {c: n for n, (_, cells) in enumerate(layout) for c in cells}

    def check(k: Knowledge, cell) -> None:
        shot = {c for c, _, _ in k.shots}
        open_hits = {c for c, a, _ in k.shots if a != "miss" and not all(x in shot for x in layout[owner[c]][1])}
        if open_hits:
            assert any(
                (r == cell[0] and 0 < abs(c - cell[1]) <= reach) or (c == cell[1] and 0 < abs(r - cell[0]) <= reach)
                for r, c in open_hits
            ), cell_name(cell)

    return check


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [2, 3, 4, 5])
@pytest.mark.parametrize("rules", ["classic", "hasbro"])
def test_a_ship_hit_is_targeted_until_it_sinks(level: int, rules: str) -> None:
    """Levels 2–5 keep firing at the open hits' line until the ship sinks (the classic rules and named answers tell
    them which hits are open)."""
    k0 = Knowledge.new(rules)
    for seed in range(3 if level < 5 else 1):
        layout = random_layout(k0, random.Random(seed))
        play_alone(level, k0, layout, seed, check=_targeting(layout, max(k0.fleet) - 1 if level == 4 else 1))


@pytest.mark.parametrize("rules", ["classic", "hasbro"])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_setups_are_legal(level: int, rules: str) -> None:
    k = Knowledge.new(rules)
    bot = make_bot(level, 0)
    for seed in range(25):
        setup = bot.setup(rules, seed)
        assert all(parse_cell(name) and code in k.codes for name, code in setup.items())
        assert layout_problems(layout_from_setup(setup, k), k) == []


@pytest.mark.parametrize("rules", ["classic", "hasbro"])
def test_level5_hides_its_fleet_from_the_density_hunters_opening(rules: str) -> None:
    """Level 5's fleet is less exposed to a density hunter's opening map than a uniformly placed one on average
    (the bench measures what that costs level 4: 8.3 shots on Hasbro fleets, 2.9 on classic ones)."""
    k = Knowledge.new(rules)
    rng = random.Random(1)
    uniform = statistics.fmean(exposure(k, random_layout(k, rng)) for _ in range(100))
    for seed in range(3):
        layout = layout_from_setup(make_bot(5, seed).setup(rules), k)
        assert exposure(k, layout) < 0.9 * uniform


@pytest.mark.parametrize("rules", ["classic", "hasbro", "perelman"])
def test_level5_setups_are_legal(rules: str) -> None:
    k = Knowledge.new(rules)
    bot = make_bot(5, 0)
    for seed in range(4 if rules != "perelman" else 1):
        setup = bot.setup(rules, seed)
        assert layout_problems(layout_from_setup(setup, k), k) == []


def test_setup_takes_the_rules_as_knowledge_too() -> None:
    small = Knowledge(6, 6, (3, 2), ("3", "2"), touching=False, named=False)
    setup = make_bot(2, 1).setup(small)
    assert layout_problems(layout_from_setup(setup, small), small) == []


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_deterministic_given_the_seed(level: int) -> None:
    k, _ = random_position(Knowledge.new("hasbro"), random.Random(level), shots=25)
    shots = {make_bot(level, 42).shoot(k, 5.0) for _ in range(3)}
    assert len(shots) == 1
    assert make_bot(level, 42).setup("classic") == make_bot(level, 42).setup("classic")
    # a bot made anew mid-game plays on as the old one: no hidden state
    bot = make_bot(level, 7)
    first = bot.shoot(k, 5.0)
    bot.shoot(k.after((9, 9) if not k.is_shot((9, 9)) else (0, 0), "miss"), 5.0)
    assert bot.shoot(k, 5.0) == first


def test_different_seeds_place_differently() -> None:
    setups = {tuple(sorted(make_bot(4, s).setup("hasbro").items())) for s in range(5)}
    assert len(setups) == 5


@pytest.mark.usefixtures("quick_level5")
@pytest.mark.parametrize("level", [2, 4, 5])
def test_salvo_shots_are_asked_one_by_one(level: int) -> None:
    """Salvo play (rules B3): the bot is asked again after every answer, ``salvo_left`` counting down."""
    k = Knowledge.new("hasbro", salvo_left=5)
    sea = Sea(k, random_layout(k, random.Random(1)))
    bot = make_bot(level, 1)
    for left in (5, 4, 3, 2, 1):
        assert k.salvo_left == left
        cell = parse_cell(bot.shoot(k, 5.0))
        assert not k.is_shot(cell)
        k = k.after(cell, *sea.fire(cell), salvo_left=left - 1)
    assert len(k.shots) == 5


def test_a_full_board_is_refused() -> None:
    k = Knowledge(2, 1, (1,), ("1",), touching=True, named=False).after((0, 0), "miss").after((0, 1), "sunk")
    with pytest.raises(ValueError):
        make_bot(3).shoot(k)


def test_larger_boards_of_rules_c(quick_level5) -> None:
    """The code knows no board size: level 4 and 5 shoot on a 16 × 16 board with its fleet."""
    k = Knowledge.new("perelman")
    geometry(16, 16, k.fleet, False)
    for level in (4, 5):
        name = make_bot(level, 1).shoot(k.after((0, 0), "miss"), 5.0)
        r, c = parse_cell(name)
        assert 0 <= r < 16 and 0 <= c < 16 and (r, c) != (0, 0)
