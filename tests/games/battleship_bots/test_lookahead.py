"""Level 5's two-shot look-ahead against an exact enumeration, level 2's textbook targeting next to level 3's line,
and level 3's compact fleet."""

from __future__ import annotations

import random
import statistics

import pytest

from admiral.games.battleship.bots import Knowledge, consistent, layout_problems, make_bot, parse_cell, random_layout
from admiral.games.battleship.bots.levels import two_shot_value
from admiral.games.battleship.bots.model import Facts
from admiral.games.battleship.bots.setups import compact_layout, ring_area

from .helpers import all_layouts


def _draws(k: Knowledge, layouts) -> list[tuple[float, list[tuple[int, int]]]]:
    """Each layout as a draw of weight 1 in the sampler's terms: (type index, placement index) per ship."""
    facts = Facts(k)
    g = facts.g
    type_of = {code: t for t, st in enumerate(facts.types) for code in st.codes}
    out = []
    for lay in layouts:
        chosen = []
        for code, cells in lay:
            mask = sum(1 << g.index(c) for c in cells)
            chosen.append((type_of[code], g.masks[len(cells)].index(mask)))
        out.append((1.0, chosen))
    return out


def _by_definition(k: Knowledge, layouts, cell) -> float:
    """P(hit at ``cell``) + Σ over its answers of P(answer) × the best chance of a hit at another unshot cell given
    that answer; an answer is the ship's code (named rules only) and whether the shot sinks it."""
    shot = {c for c, _, _ in k.shots}
    groups: dict = {}
    for lay in layouts:
        key = None
        for code, cells in lay:
            if cell in cells:
                key = (code if k.named else "", all(c in shot or c == cell for c in cells))
        groups.setdefault(key, []).append(lay)
    n = len(layouts)
    value = sum(len(g) for key, g in groups.items() if key is not None) / n
    for group in groups.values():
        best = max(
            sum(any(c in cells for _, cells in lay) for lay in group) for c in k.cells() if c not in shot and c != cell
        )
        value += best / n
    return value


@pytest.mark.parametrize("named", [True, False])
def test_two_shot_value_is_the_expected_hits_of_two_shots(named: bool) -> None:
    """On a 5 × 4 board with ships of 3 and 2 (touching allowed) after a few misses, the value of every unshot
    cell equals the brute-force expectation over every consistent layout."""
    k = Knowledge(5, 4, (3, 2), ("D", "P"), touching=True, named=named)
    for cell in [(0, 0), (2, 2), (3, 4), (1, 3)]:
        k = k.after(cell, "miss")
    layouts = [lay for lay in all_layouts(k.template()) if consistent(k, lay)]
    assert len(layouts) > 20
    cells = [i for i in range(20) if not Facts(k).shot >> i & 1]
    value = two_shot_value(Facts(k), _draws(k, layouts), cells)
    for i in cells:
        cell = divmod(i, 5)
        assert value[i] == pytest.approx(_by_definition(k, layouts, cell), abs=1e-9), cell
    # the look-ahead differs from the first shot's chance alone: it ranks cells differently somewhere
    assert len({round(v, 9) for v in value.values()}) > 2


def test_two_shot_value_on_a_line_by_hand() -> None:
    """A 4 × 1 board with one ship of 2: three placements, and every cell is worth 4/3 hits over two shots (an end
    cell hits 1/3 of the time, but its miss leaves the middle cell sure)."""
    k = Knowledge(4, 1, (2,), ("2",), touching=True, named=False)
    layouts = all_layouts(k)
    assert len(layouts) == 3
    value = two_shot_value(Facts(k), _draws(k, layouts), [0, 1, 2, 3])
    assert value == pytest.approx({0: 4 / 3, 1: 4 / 3, 2: 4 / 3, 3: 4 / 3})


def _two_hits_in_a_row(rules: str) -> Knowledge:
    k = Knowledge.new(rules)
    for cell in [(0, 0), (9, 9), (0, 9)]:
        k = k.after(cell, "miss")
    code = "C" if k.named else None
    return k.after((4, 4), "hit", code).after((4, 5), "hit", code)


@pytest.mark.parametrize("rules", ["classic", "hasbro"])
def test_level2_targets_beside_the_hits_and_level3_along_their_line(rules: str) -> None:
    """Two hits in a row at e5–e6: level 3 extends the row (e4 or e7); level 2, the textbook hunter, shoots any side
    neighbour of a hit, off the row too (in the classic rules those cells are empty, but level 2 does not see it)."""
    k = _two_hits_in_a_row(rules)
    line = {(4, 3), (4, 6)}
    beside = line | {(3, 4), (5, 4), (3, 5), (5, 5)}
    level2 = {parse_cell(make_bot(2, seed).shoot(k)) for seed in range(40)}
    level3 = {parse_cell(make_bot(3, seed).shoot(k)) for seed in range(40)}
    assert level3 == line
    assert level2 <= beside
    assert level2 - line, "level 2 never left the line"


def test_level3_places_a_compact_fleet_in_the_classic_rules() -> None:
    """Level 3's classic fleets show fewer empty cells when sunk than uniform ones (rules A6); with touching
    allowed (rules B1) a compact fleet is a plain uniform one."""
    k = Knowledge.new("classic")
    rng = random.Random(5)
    uniform = statistics.fmean(ring_area(k, random_layout(k, rng)) for _ in range(100))
    compact = [compact_layout(k, random.Random(seed)) for seed in range(10)]
    assert all(layout_problems(lay, k) == [] for lay in compact)
    assert statistics.fmean(ring_area(k, lay) for lay in compact) < uniform - 5
    h = Knowledge.new("hasbro")
    assert compact_layout(h, random.Random(3)) == random_layout(h, random.Random(3))


def test_level3_hunts_on_the_checkerboard_while_a_two_decker_is_afloat() -> None:
    """Hasbro, the patrol boat (2) sunk at a1–a2: the smallest ship afloat has 3 decks, yet level 3 keeps to one
    checkerboard colour (the textbook parity hunter); with only one-deckers afloat (classic) it uses every cell."""
    k = Knowledge.new("hasbro").after((0, 0), "hit", "P").after((0, 1), "sunk", "P")
    colours = {sum(parse_cell(make_bot(3, seed).shoot(k))) % 2 for seed in range(30)}
    assert len(colours) == 1
    c = Knowledge.new("classic")
    # every ship of two decks or more sunk, apart: a1–a4, c1–c3, e1–e3, g1–g2, i1–i2, i7–i8
    for row, first, size in ((0, 0, 4), (2, 0, 3), (4, 0, 3), (6, 0, 2), (8, 0, 2), (8, 6, 2)):
        for n in range(size):
            c = c.after((row, first + n), "sunk" if n == size - 1 else "hit")
    colours = {sum(parse_cell(make_bot(3, seed).shoot(c))) % 2 for seed in range(30)}
    assert colours == {0, 1}


@pytest.mark.parametrize("seed", range(8))
def test_level5_takes_the_last_ships_sure_cell(seed: int) -> None:
    """3 × 3, two one-deckers, no touching (rules A2): one sunk in a corner (its ring shows empty, A6), four misses;
    the last one-decker can only be at c2 (a sure cell), and the ring's cells are empty. Two shots are worth one hit
    whether the sure cell is shot first or second, so the look-ahead must prefer the hit now — a bench game once
    shot 24 empty cells before a sure one."""
    k = Knowledge(3, 3, (1, 1), ("1", "1"), touching=False, named=False).after((0, 0), "sunk")
    for cell in [(0, 2), (2, 0), (1, 2), (2, 2)]:
        k = k.after(cell, "miss")
    assert parse_cell(make_bot(5, seed).shoot(k)) == (2, 1)
