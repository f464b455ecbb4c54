"""Layouts, setups and the referee the bots' own games and benches use."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from admiral.games.battleship.bots import (
    Knowledge,
    Sea,
    consistent,
    layout_from_setup,
    layout_problems,
    random_layout,
    setup_of,
)  # fmt: skip

from .helpers import all_layouts


class TestRandomLayout:
    @pytest.mark.parametrize("rules", ["classic", "hasbro", "perelman"])
    def test_always_legal(self, rules: str) -> None:
        k = Knowledge.new(rules)
        rng = random.Random(1)
        for _ in range(40):
            layout = random_layout(k, rng)
            assert layout_problems(layout, k) == []
            assert layout_from_setup(setup_of(layout), k) == layout

    def test_the_dense_fallback_is_legal_too(self) -> None:
        k = Knowledge.new("classic")
        layout = random_layout(k, random.Random(2), tries=0)  # straight to importance resampling
        assert layout_problems(layout, k) == []

    @pytest.mark.parametrize("touching", [True, False])
    def test_every_legal_layout_is_equally_likely(self, touching: bool) -> None:
        """On a 4 × 3 board with ships of 3 and 2, every legal layout turns up about equally often."""
        k = Knowledge(4, 3, (3, 2), ("3", "2"), touching=touching, named=False)
        layouts = all_layouts(k)
        rng = random.Random(3)
        n = 200 * len(layouts)
        counts = Counter(random_layout(k, rng) for _ in range(n))
        assert set(counts) == {tuple(sorted(lay, key=lambda s: ("32".index(s[0]), s[1]))) for lay in layouts}
        assert max(counts.values()) < 1.4 * 200 and min(counts.values()) > 0.6 * 200


class TestLegality:
    def test_touching_is_illegal_only_in_the_classic_rules(self) -> None:
        setup = {"a1": "4", "a2": "4", "a3": "4", "a4": "4", "b5": "3", "c5": "3", "d5": "3"}  # corner touch a4/b5
        classic = Knowledge.new("classic")
        problems = layout_problems(layout_from_setup(setup, classic), classic)
        assert any("touch" in p for p in problems)
        assert any("fleet" in p for p in problems)  # and ships are missing

    def test_bent_and_overlapping_ships(self) -> None:
        k = Knowledge.new("hasbro")
        bent = (("C", ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3))),)
        assert any("straight" in p for p in layout_problems(bent, k))
        overlap = (("P", ((0, 0), (0, 1))), ("D", ((0, 1), (0, 2), (0, 3))))
        assert any("two ships" in p for p in layout_problems(overlap, k))


class TestSea:
    def test_answers_as_the_rules_do(self) -> None:
        k = Knowledge.new("hasbro")
        layout = (
            ("C", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))), ("B", ((1, 0), (1, 1), (1, 2), (1, 3))),
            ("D", ((2, 0), (2, 1), (2, 2))), ("S", ((3, 0), (3, 1), (3, 2))), ("P", ((4, 0), (4, 1))),
        )  # fmt: skip
        sea = Sea(k, layout)
        assert sea.fire((9, 9)) == ("miss", None)
        assert sea.fire((4, 0)) == ("hit", "P")
        assert sea.fire((4, 1)) == ("sunk", "P")
        with pytest.raises(ValueError):
            sea.fire((4, 1))
        unnamed = Sea(Knowledge.new("hasbro", named=False), layout)
        assert unnamed.fire((4, 0)) == ("hit", None)

    def test_consistent_replays_the_answers(self) -> None:
        k = Knowledge.new("classic")
        layout = random_layout(k, random.Random(5))
        sea = Sea(k, layout)
        for cell in [(r, c) for r in range(10) for c in range(10)][:30]:
            k = k.after(cell, *sea.fire(cell))
        assert consistent(k, layout)
        other = random_layout(k, random.Random(6))
        assert not consistent(k, other) or other == layout
