"""What the answers imply (:mod:`~admiral.games.battleship.bots.model`): valid placements, readings of the sunk
answers and level 4's density, on small hand-made boards whose counts are worked out by hand."""

from __future__ import annotations

import pytest

from admiral.games.battleship.bots import Knowledge
from admiral.games.battleship.bots.model import HIT_WEIGHT, Facts, density


def _grid(k: Knowledge, values: list[float]) -> list[list[float]]:
    return [values[r * k.width : (r + 1) * k.width] for r in range(k.height)]


class TestDensity:
    def test_empty_line(self) -> None:
        # a 2-deck ship on 1 × 4: placements [0,1] [1,2] [2,3]
        k = Knowledge(4, 1, (2,), ("2",), touching=True, named=False)
        assert density(Facts(k)) == [1, 2, 2, 1]

    def test_a_miss_removes_the_placements_through_it(self) -> None:
        # 3 × 3, one 2-deck ship, miss in the middle: 12 placements, 4 through the middle
        k = Knowledge(3, 3, (2,), ("2",), touching=True, named=False).after((1, 1), "miss")
        assert _grid(k, density(Facts(k))) == [[2, 2, 2], [2, 0, 2], [2, 2, 2]]

    def test_hits_weigh_heavily(self) -> None:
        # 1 × 4, hit at col 1: [0,1] and [1,2] cover it (weight 50 each), [2,3] does not (1)
        k = Knowledge(4, 1, (2,), ("2",), touching=True, named=False).after((0, 1), "hit")
        assert density(Facts(k)) == [HIT_WEIGHT, 0, HIT_WEIGHT + 1, 1]
        assert density(Facts(k), hit_weight=3) == [3, 0, 4, 1]

    def test_classic_ship_beside_a_hit_would_touch_it(self) -> None:
        # the same with no touching: [2,3] would touch the hit ship, so it is out
        k = Knowledge(4, 1, (2,), ("2",), touching=False, named=False).after((0, 1), "hit")
        assert density(Facts(k)) == [HIT_WEIGHT, 0, HIT_WEIGHT, 0]

    def test_classic_sunk_ship_empties_its_ring(self) -> None:
        # 4 × 4, ships 2 and 1; the 2 sank at a1-a2: a3, b1, b2, b3 are empty; the 1 may be on any of the 10 others
        k = Knowledge(4, 4, (2, 1), ("2", "1"), touching=False, named=False).after((0, 0), "hit").after((0, 1), "sunk")
        assert _grid(k, density(Facts(k))) == [[0, 0, 0, 1], [0, 0, 0, 1], [1, 1, 1, 1], [1, 1, 1, 1]]

    def test_classic_corners_of_a_hit_are_empty(self) -> None:
        # 3 × 3, one 3-deck ship, hit in the middle: only the middle row and column remain, weighted as hits
        k = Knowledge(3, 3, (3,), ("3",), touching=False, named=False).after((1, 1), "hit")
        w = HIT_WEIGHT
        assert _grid(k, density(Facts(k))) == [[0, w, 0], [w, 0, w], [0, w, 0]]

    def test_named_hit_belongs_to_its_ship_only(self) -> None:
        # 3 × 3, ships A and B of 2; a hit named A in the middle: A's 4 placements go through it (50 each); B's 8
        # placements avoid it (1 each): a side middle gets 50 + 2, a corner 2
        k = Knowledge(3, 3, (2, 2), ("A", "B"), touching=True, named=True).after((1, 1), "hit", "A")
        w = HIT_WEIGHT
        assert _grid(k, density(Facts(k))) == [[2, w + 2, 2], [w + 2, 0, w + 2], [2, w + 2, 2]]

    def test_sunk_named_ship_is_gone(self) -> None:
        # 1 × 5, A (2) sank at cols 0-1; B (2) may be at [2,3] or [3,4]
        k = Knowledge(5, 1, (2, 2), ("A", "B"), touching=True, named=True)
        k = k.after((0, 0), "hit", "A").after((0, 1), "sunk", "A")
        assert density(Facts(k)) == [0, 0, 1, 2, 1]

    def test_pressure_favours_placements_that_leave_room(self) -> None:
        # classic 1 × 3 with a 1-deck ship: the end cells block 2 cells (self + 1 neighbour), the middle 3
        k = Knowledge(3, 1, (1,), ("1",), touching=False, named=False)
        assert density(Facts(k), pressure=0.5) == [0.25, 0.125, 0.25]


class TestReadings:
    def test_classic_sunk_ship_has_one_reading(self) -> None:
        k = Knowledge.new("classic").after((0, 0), "hit").after((0, 1), "hit").after((0, 2), "sunk")
        (r,) = Facts(k).readings()
        assert r.sunk_cells == 0b111 and r.open_hits == 0
        assert r.left == (1, 1, 3, 4)  # the 3-deck ship type has one ship left

    def test_unnamed_sunk_answer_may_have_several_readings(self) -> None:
        # 3 × 2, ships 2 and 1, ships may touch: hit a1, sunk a2. Either the 2 sank at a1-a2, or the 1 sank at a2
        # and a1 is the 2's, which then runs a1-b1.
        k = Knowledge(3, 2, (2, 1), ("2", "1"), touching=True, named=False).after((0, 0), "hit").after((0, 1), "sunk")
        readings = Facts(k).readings()
        assert sorted(r.open_hits for r in readings) == [0, 0b1]
        # level 4 sums its density over both. First reading: the 1 on any of a3, b1, b2, b3 (1 each). Second: the
        # 2's placements clear of the sunk 1 are a1-b1 (through the hit: 50), b1-b2, b2-b3, a3-b3 (1 each).
        w = HIT_WEIGHT
        assert _grid(k, density(Facts(k))) == [[0, 0, 1 + 1], [1 + w + 1, 1 + 2, 1 + 2]]

    def test_knowledge_against_the_rules_still_reads(self) -> None:
        # a «sunk» on a cell with no ship that can have sunk there: one reading that sinks nothing
        k = Knowledge(3, 1, (2,), ("2",), touching=True, named=False).after((0, 1), "sunk")
        (r,) = Facts(k).readings()
        assert r.ships == () and r.open_hits == 0b10


@pytest.mark.parametrize("rules", ["classic", "hasbro"])
def test_no_valid_placement_covers_a_miss(rules: str) -> None:
    k = Knowledge.new(rules).after((4, 4), "miss").after((4, 5), "miss")
    f = Facts(k)
    for t, st in enumerate(f.types):
        for p in range(len(f.g.masks[st.size])):
            if f.valid[t] >> p & 1:
                assert not f.g.masks[st.size][p] & f.miss
