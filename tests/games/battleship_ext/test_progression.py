"""XP, levels, points and the profile's lines of «Морской бой: расширенный» (BATTLESHIP.md C6, C7, D11), and the
ability icons per tier."""

from __future__ import annotations

import re

import pytest

from admiral.games.battleship import progression as classic
from admiral.games.battleship_ext import icons, progression
from admiral.i18n import use

WIN = {"outcome": "win", "reason": "fleet_sunk", "counts": True, "shots": 50, "hits": 20, "decks": 20,
       "decks_lost": 8, "sunk": 10, "xp": 80}  # fmt: skip


def test_xp_is_one_per_hit_and_three_per_deck_of_a_sunk_ship() -> None:  # rules C6 decision
    assert progression.xp_of(0, []) == 0
    assert progression.xp_of(3, []) == 3
    assert progression.xp_of(4, [4]) == 4 + 12
    assert progression.xp_of(64, [5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1]) == 64 + 3 * 50


@pytest.mark.parametrize(
    ("xp", "level"),
    [(0, 1), (29, 1), (30, 2), (79, 2), (80, 3), (149, 3), (150, 4), (250, 5), (380, 6), (550, 7), (760, 8),
     (999, 8), (1000, 9), (1299, 9), (1300, 10), (10**6, 10)],
)  # fmt: skip
def test_levels_follow_the_thresholds(xp: int, level: int) -> None:  # rules C6 decision
    assert progression.level_of(xp) == level


@pytest.mark.parametrize("bad", [-1, 1.5, True, "30", None])
def test_a_bad_xp_is_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        progression.level_of(bad)  # type: ignore[arg-type]


def test_fold_adds_one_game_and_its_xp() -> None:  # rules D11: XP credited at the end
    once = progression.fold({}, WIN)
    assert once == {"version": 1, "xp": 80, "games": 1, "shots": 50, "hits": 20, "sunk": 10}
    twice = progression.fold(once, {**WIN, "xp": 5, "shots": 10, "hits": 5, "sunk": 0})
    assert twice == {"version": 1, "xp": 85, "games": 2, "shots": 60, "hits": 25, "sunk": 10}
    assert progression.career_level(twice) == 3 and progression.career_level(None) == 1


@pytest.mark.parametrize("career", [{"xp": -3}, {"xp": "5"}, {"version": 2}, []])
def test_a_career_it_cannot_read_is_refused(career: object) -> None:
    with pytest.raises(ValueError):
        progression.fold(career, WIN)  # type: ignore[arg-type]


def test_points_are_the_classic_points() -> None:  # docs/points.md
    assert progression.points(WIN, None) == classic.points(WIN, None) == 83
    assert progression.points(WIN, 1) == classic.points(WIN, 1)
    assert progression.outcome({**WIN, "counts": False}) is None


def test_the_profile_lines_say_level_xp_and_what_is_left() -> None:
    lines = {key: value for key, _label, value in progression.career_stats({"xp": 260, "shots": 100, "hits": 40})}
    assert lines["level"] == "5" and lines["xp"] == "260" and lines["next_level"] == str(380 - 260)
    assert lines["accuracy"] == "40 %"
    with use("en"):
        labels = [label for _key, label, _value in progression.career_stats({})]
    assert labels[:3] == ["Level", "Experience", "To the next level"]


@pytest.mark.parametrize(("level", "tier", "ultimate"), [(1, 1, None), (3, 1, None), (4, 2, "carpet"),
                                                         (6, 2, "satellite"), (7, 3, "satellite"), (8, 3, "repair"),
                                                         (10, 4, "repair")])  # fmt: skip
def test_the_icons_have_one_look_per_tier(level: int, tier: int, ultimate: str | None) -> None:  # rules C6, C7
    svg = icons.ability_icons(level)
    assert re.findall(r'data-ability="(\w+)"', svg) == ["air", "sonar", "move", *([ultimate] if ultimate else [])]
    assert set(re.findall(r'<svg[^>]*data-tier="(\d)"', svg)) == {str(tier)}
    same_tier = [icons.ability_icons(n) for n in range(1, 11) if progression.tier_of(n) == tier]
    assert len({re.sub(r'data-level="\d+"', "", s) for s in same_tier if ultimate is None or ultimate in s}) == 1
    assert len({icons.TIERS[progression.tier_of(n)] for n in range(1, 11)}) == 4


def test_icons_for_a_level_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError):
        icons.ability_icons(11)
