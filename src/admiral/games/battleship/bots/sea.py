"""A fleet under fire, for the bots' own games, tests and benches: layouts, setups and a referee.

A *layout* is a tuple of ships ``(code, cells)``, ``cells`` the ship's ``(row, col)`` cells in line order. A *setup*
is what the wire carries: ``{cell name: code}``. :class:`Sea` answers shots exactly as the rules do (A5, B2, D4);
:func:`random_layout` draws a legal layout uniformly (every legal layout equally likely).

>>> k = Knowledge.new("hasbro")
>>> sea = Sea(k, random_layout(k, random.Random(1)))
>>> sorted(len(cells) for _, cells in sea.layout)
[2, 3, 3, 4, 5]
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from .geometry import geometry
from .knowledge import Cell, Knowledge, cell_name, parse_cell

__all__ = [
    "Layout", "Sea", "Ship", "consistent", "layout_from_setup", "layout_problems", "random_layout", "setup_of",
]  # fmt: skip

#: A ship: its code and its cells in line order.
Ship = tuple[str, tuple[Cell, ...]]
#: A whole fleet on its board.
Layout = tuple[Ship, ...]


def random_layout(rules: Knowledge, rng: random.Random, tries: int = 50_000) -> Layout:
    """A legal layout of ``rules``' fleet, uniformly among all legal layouts.

    Each ship, largest first, takes a placement drawn uniformly from all placements of its size; if it overlaps (or,
    in the classic rules, touches) one already placed, the whole draw starts again. The accepted draws are exactly
    the independent uniform draws that happen to be legal, so every legal layout is equally likely. (Rules A take
    about 2 000 draws, rules B one or two.) A fleet too dense for ``tries`` draws (the 18 × 18 board of rules C)
    falls back on importance resampling: of 64 :class:`~.sampler.Sampler` draws, one chosen in proportion to its
    weight, which is close to uniform. Rules that once needed the fallback use it at once afterwards.
    """
    g = geometry(rules.width, rules.height, rules.fleet, rules.touching)
    order = sorted(range(len(rules.fleet)), key=lambda n: -rules.fleet[n])
    template = rules.template()
    if template in _DENSE:
        return _resampled_layout(rules, rng)
    for _ in range(tries):
        kill = [0] * len(g.sizes)
        chosen: list[tuple[int, int]] = []
        for n in order:
            s = rules.fleet[n]
            j = g.sizes.index(s)
            p = rng.randrange(len(g.masks[s]))
            if kill[j] >> p & 1:
                break
            chosen.append((n, p))
            conflict = g.conflict[s][p]
            for x in range(len(kill)):
                kill[x] |= conflict[x]
        else:
            return _canonical(
                [(rules.codes[n], tuple(g.cell(i) for i in g.cells[rules.fleet[n]][p])) for n, p in chosen], rules
            )
    _DENSE.add(template)
    return _resampled_layout(rules, rng)


#: Rules (templates) whose fleet once took more than ``tries`` draws: later layouts go straight to resampling
#: (18 × 18 «Гигант»: 60 layouts of level 3 took 11 s of failed draws before, 0.2 s now).
_DENSE: set[Knowledge] = set()


def _canonical(ships: list[Ship], rules: Knowledge) -> Layout:
    """Ships in the order of their codes in ``rules.codes``, then of their first cells (unknown codes last)."""
    rank = {code: n for n, code in reversed(list(enumerate(rules.codes)))}
    return tuple(sorted(ships, key=lambda s: (rank.get(s[0], len(rank)), s[1])))


def _resampled_layout(rules: Knowledge, rng: random.Random) -> Layout:
    from .model import Facts  # the sampler builds on this module's types
    from .sampler import Sampler

    sampler = Sampler(Facts(rules.template()))
    draws = []
    while len(draws) < 64:
        weight, chosen = sampler.draw(rng)
        if weight:
            draws.append((weight, chosen))
    point = rng.random() * sum(w for w, _ in draws)
    pick = draws[-1][1]
    for weight, chosen in draws:
        point -= weight
        if point < 0:
            pick = chosen
            break
    return _canonical(list(sampler.layout(pick)), rules)


def setup_of(layout: Layout) -> dict[str, str]:
    """The wire setup ``{cell name: code}`` of a layout."""
    return {cell_name(c): code for code, cells in layout for c in cells}


def layout_from_setup(setup: Mapping[str, str], rules: Knowledge) -> Layout:
    """The ships of a wire setup: the cells of each code, split into side-connected groups (ships of one code
    never touch in the classic rules; Hasbro codes are unique). Cells in line order, ships sorted by code order of
    ``rules.codes`` then first cell. Legality is :func:`layout_problems`' business.

    :raises ValueError: for a bad cell name.
    """
    by_code: dict[str, set[Cell]] = {}
    for name, code in setup.items():
        by_code.setdefault(code, set()).add(parse_cell(name))
    ships: list[Ship] = []
    for code, cells in by_code.items():
        if rules.codes.count(code) == 1:
            ships.append((code, tuple(sorted(cells))))
            continue
        todo = set(cells)
        while todo:
            stack = [min(todo)]
            group = set()
            while stack:
                c = stack.pop()
                if c in group:
                    continue
                group.add(c)
                r, k = c
                stack.extend(n for n in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)) if n in todo)
            todo -= group
            ships.append((code, tuple(sorted(group))))
    return _canonical(ships, rules)


def layout_problems(layout: Layout, rules: Knowledge) -> list[str]:
    """Every way ``layout`` breaks ``rules`` (A2, B1): wrong ships, a ship off the board or not a straight line
    of its size, two ships on one cell, or, in the classic rules, touching. Empty when the layout is legal."""
    problems = []
    want = sorted(zip(rules.codes, rules.fleet, strict=True))
    have = sorted((code, len(cells)) for code, cells in layout)
    if have != want:
        problems.append(f"fleet {have} is not {want}")
    owner: dict[Cell, int] = {}
    for n, (code, cells) in enumerate(layout):
        rows = {r for r, _ in cells}
        cols = {c for _, c in cells}
        line = sorted(cells)
        straight = (len(rows) == 1 and [c for _, c in line] == list(range(line[0][1], line[0][1] + len(line)))) or (
            len(cols) == 1 and [r for r, _ in line] == list(range(line[0][0], line[0][0] + len(line)))
        )
        if not straight:
            problems.append(f"ship {code} {[cell_name(c) for c in cells]} is not a straight line")
        for r, c in cells:
            if not (0 <= r < rules.height and 0 <= c < rules.width):
                problems.append(f"ship {code} leaves the board at {(r, c)}")
            if (r, c) in owner:
                problems.append(f"two ships on {cell_name((r, c))}")
            owner[(r, c)] = n
    if not rules.touching:
        for (r, c), n in owner.items():
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    m = owner.get((r + dr, c + dc))
                    if m is not None and m > n:
                        problems.append(f"ships touch at {cell_name((r, c))}/{cell_name((r + dr, c + dc))}")
    return problems


class Sea:
    """A fleet under fire: answers each shot as the owner must (rules A5, B2, D4).

    ``fire(cell)`` returns ``(answer, code)``: ``("miss", None)``, ``("hit", code)`` or ``("sunk", code)``, with
    ``code`` ``None`` unless ``rules.named``. ``left``: decks not hit yet; ``defeated``: every ship sunk.

    :raises ValueError: on firing at a cell twice or off the board (the server refuses it, rules A5).
    """

    def __init__(self, rules: Knowledge, layout: Layout) -> None:
        self.rules = rules
        self.layout = layout
        self._ship: dict[Cell, int] = {c: n for n, (_, cells) in enumerate(layout) for c in cells}
        self._whole = [len(cells) for _, cells in layout]
        self._shot: set[Cell] = set()
        self.left = sum(self._whole)

    @property
    def defeated(self) -> bool:
        """Whether every deck has been hit."""
        return self.left == 0

    def fire(self, cell: Cell) -> tuple[str, str | None]:
        """The answer to a shot at ``cell``."""
        r, c = cell
        if cell in self._shot or not (0 <= r < self.rules.height and 0 <= c < self.rules.width):
            raise ValueError(f"refused: {cell}")
        self._shot.add(cell)
        n = self._ship.get(cell)
        if n is None:
            return "miss", None
        self._whole[n] -= 1
        self.left -= 1
        code = self.layout[n][0] if self.rules.named else None
        return ("sunk" if self._whole[n] == 0 else "hit"), code


def consistent(knowledge: Knowledge, layout: Layout) -> bool:
    """Whether ``layout`` is legal and would have given every answer in ``knowledge`` (the rules' own check, by
    replaying the shots, independent of the bots' reasoning)."""
    if layout_problems(layout, knowledge):
        return False
    sea = Sea(knowledge, layout)
    return all(sea.fire(cell) == (answer, code) for cell, answer, code in knowledge.shots)
