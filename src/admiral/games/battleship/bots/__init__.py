"""Bots of «Морской бой» (rules A, B): five levels that shoot from what a seat knows and place their own fleets.

Pure: standard library only, nothing of the rest of the project; deterministic given a seed.

>>> bot = make_bot(4, seed=1)
>>> k = Knowledge.new("hasbro")
>>> setup = bot.setup("hasbro")
>>> sorted(set(setup.values())), len(setup)
(['B', 'C', 'D', 'P', 'S'], 17)
>>> bot.shoot(k, deadline_s=1.0) in {cell_name(c) for c in k.cells()}
True

Modules: :mod:`.knowledge` (what a seat knows, cell names), :mod:`.levels` (the bots), :mod:`.model` (what the
answers imply; level 4's density), :mod:`.sampler` (level 5's fleets), :mod:`.setups` (level 5's own fleet),
:mod:`.sea` (layouts, setups and a referee for the bots' own games), :mod:`.geometry` (bitmasks).
"""

from .knowledge import RULES, Cell, Knowledge, Shot, cell_name, parse_cell
from .levels import LEVELS, Bot, make_bot
from .sea import Layout, Sea, consistent, layout_from_setup, layout_problems, random_layout, setup_of

__all__ = [
    "LEVELS", "RULES", "Bot", "Cell", "Knowledge", "Layout", "Sea", "Shot", "cell_name", "consistent",
    "layout_from_setup", "layout_problems", "make_bot", "parse_cell", "random_layout", "setup_of",
]  # fmt: skip
