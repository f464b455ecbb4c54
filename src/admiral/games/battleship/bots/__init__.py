"""Bots of «Морской бой» (rules A, B): five levels that shoot from what a seat knows and place their own fleets.

Pure: standard library only, nothing of the rest of the project; deterministic given a seed.
"""

from .knowledge import RULES, Cell, Knowledge, Shot, cell_name, parse_cell
from .sea import Layout, Sea, consistent, layout_from_setup, layout_problems, random_layout, setup_of

__all__ = [
    "RULES", "Cell", "Knowledge", "Layout", "Sea", "Shot", "cell_name", "consistent",
    "layout_from_setup", "layout_problems", "parse_cell", "random_layout", "setup_of",
]  # fmt: skip
