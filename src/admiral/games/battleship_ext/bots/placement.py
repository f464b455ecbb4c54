"""The extended variant's setups of the bots: the fleet as the classic level places it, then the mines and
minesweepers (rules C1, C2: one cell each, no figure touching another, not even at a corner).

Levels 1–4 put their figures on cells drawn uniformly among those left free. Level 5 lays them on the *approach
lanes* of the opponent's search: the cells a probability-density hunter fires at first (its opening map,
:func:`~admiral.games.battleship.bots.model.hunter_density` of the empty board), because a mine hit there ends the
hunter's turn and hands over one of its decks, and a minesweeper hit ends it too and hands over one of the
hunter's own mines (C3). Its ships stand where such a hunter looks last
(:func:`~admiral.games.battleship.bots.setups.hidden_layout`), which leaves those lanes free for the figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from admiral.games.battleship.bots import Knowledge, cell_name
from admiral.games.battleship.bots.levels import Bot
from admiral.games.battleship.bots.model import Facts, hunter_density
from admiral.games.battleship.bots.sea import Layout

__all__ = ["TRIES", "lanes", "place_figures", "setup_with_figures"]

#: Fleets tried before giving up on room for the figures (none has failed in the tests' thousands of setups).
TRIES = 50


def lanes(rules: Knowledge) -> list[float]:
    """Per cell index (``row * width + col``), how early a density hunter fires there: its opening map."""
    return hunter_density(Facts(rules.template()))


def place_figures(
    rules: Knowledge, layout: Layout, figures: Sequence[tuple[str, int]], rng: random.Random, lanes_first: bool
) -> dict[tuple[int, int], str] | None:
    """Cells for ``figures`` (``(code, count)``, e.g. ``[("M", 3), ("T", 1)]``) beside ``layout``: each on a free
    cell none of whose 8 neighbours holds a ship or a figure (C2). ``lanes_first``: the free cell of the highest
    :func:`lanes` value each time (ties at random), else uniformly among free cells. ``None`` when no room is
    left."""
    w, h = rules.width, rules.height
    taken: set[tuple[int, int]] = set()
    for _, cells in layout:
        for r, c in cells:
            taken.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    value = lanes(rules) if lanes_first else None
    out: dict[tuple[int, int], str] = {}
    for code, count in figures:
        for _ in range(count):
            free = [(r, c) for r in range(h) for c in range(w) if (r, c) not in taken]
            if not free:
                return None
            if value is not None:
                top = max(value[r * w + c] for r, c in free)
                free = [(r, c) for r, c in free if value[r * w + c] >= top * (1 - 1e-9)]
            cell = rng.choice(free)
            out[cell] = code
            r, c = cell
            taken.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return out


def setup_with_figures(
    bot: Bot, rules: Knowledge, figures: Sequence[tuple[str, int]], rng: random.Random, lanes_first: bool
) -> dict[str, str] | None:
    """A whole setup ``{cell name: code}``: ``bot``'s fleet (:meth:`~admiral.games.battleship.bots.levels.Bot.
    layout`) and the figures (:func:`place_figures`), a new fleet while the figures find no room (up to
    :data:`TRIES`); ``None`` if they never do."""
    template = rules.template()
    for _ in range(TRIES):
        layout = bot.layout(template, rng)
        placed = place_figures(template, layout, figures, rng, lanes_first)
        if placed is not None:
            setup = {cell_name(c): code for code, cells in layout for c in cells}
            setup.update({cell_name(c): code for c, code in placed.items()})
            return setup
    return None
