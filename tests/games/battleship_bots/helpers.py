"""Shared helpers of the battleship bot tests: games played against the referee, and an independent exact
enumeration of consistent layouts on small boards."""

from __future__ import annotations

import itertools
import random

from admiral.games.battleship.bots import Knowledge, Sea, consistent, make_bot, parse_cell, random_layout
from admiral.games.battleship.bots.sea import Layout


def play_alone(level: int, rules: Knowledge, layout: Layout, seed: int, check=None) -> Knowledge:
    """Let a bot of ``level`` sink ``layout``; ``check(knowledge, cell)`` runs before each shot is fired.
    Returns the final knowledge."""
    bot = make_bot(level, seed)
    sea = Sea(rules, layout)
    k = rules
    while not sea.defeated:
        assert len(k.shots) < rules.width * rules.height, "the game did not end within width × height shots"
        cell = parse_cell(bot.shoot(k, deadline_s=5.0))
        if check is not None:
            check(k, cell)
        answer, code = sea.fire(cell)
        k = k.after(cell, answer, code)
    return k


def random_position(rules: Knowledge, rng: random.Random, shots: int) -> tuple[Knowledge, Layout]:
    """A uniformly random fleet and the knowledge after ``shots`` random shots at it (fewer if it sank)."""
    layout = random_layout(rules, rng)
    sea = Sea(rules, layout)
    cells = rules.cells()
    rng.shuffle(cells)
    k = rules
    for cell in cells[:shots]:
        if sea.defeated:
            break
        answer, code = sea.fire(cell)
        k = k.after(cell, answer, code)
    return k, layout


def all_layouts(rules: Knowledge) -> list[Layout]:
    """Every legal layout of a small board, by brute force over straight lines (codes in fleet order; a layout of
    interchangeable ships is listed once per order of those ships)."""
    lines = {}
    for size in set(rules.fleet):
        found = []
        for r, c in itertools.product(range(rules.height), range(rules.width)):
            for dr, dc in ((0, 1), (1, 0)) if size > 1 else ((0, 1),):
                cells = tuple((r + k * dr, c + k * dc) for k in range(size))
                if all(0 <= a < rules.height and 0 <= b < rules.width for a, b in cells):
                    found.append(cells)
        lines[size] = found
    out = []
    for combo in itertools.product(*(lines[s] for s in rules.fleet)):
        layout = tuple(zip(rules.codes, combo, strict=True))
        if consistent(rules.template(), layout):
            out.append(layout)
    return out


def exact_chance(k: Knowledge, layouts: list[Layout]) -> tuple[dict, int]:
    """Per cell, the share of ``layouts`` consistent with ``k`` that have a ship there; and how many are."""
    fits = [lay for lay in layouts if consistent(k, lay)]
    counts: dict = {}
    for lay in fits:
        for _, cells in lay:
            for c in cells:
                counts[c] = counts.get(c, 0) + 1
    return {c: counts.get(c, 0) / len(fits) for c in k.cells()}, len(fits)
