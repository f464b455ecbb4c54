"""What a seat legitimately knows when it must shoot: :class:`Knowledge`, and the cell names of the wire.

A cell is ``(row, col)``, both 0-based: row 0 is the top row (letter ``a``), col 0 the left column (number 1), so
``(1, 4)`` is ``"b5"`` (rules A1, D1; boards of 16 and 18 rows go on to ``p`` and ``r``).

>>> cell_name((1, 4)), parse_cell("b5")
('b5', (1, 4))
>>> k = Knowledge.new("classic").after((0, 0), "hit").after((0, 1), "sunk")
>>> k.fleet, k.named, [cell_name(c) for c, _, _ in k.shots]
((4, 3, 3, 2, 2, 2, 1, 1, 1, 1), False, ['a1', 'a2'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

__all__ = [
    "ANSWERS", "LETTERS", "RULES", "Cell", "Knowledge", "Shot", "cell_name", "parse_cell",
]  # fmt: skip

#: A cell ``(row, col)``, 0-based, row 0 at the top.
Cell = tuple[int, int]
#: One shot fired: ``(cell, answer, code)``; ``code`` names the ship hit when the rules name it, else ``None``.
Shot = tuple[Cell, str, str | None]

#: The answers to a shot: «мимо», «ранен» (a deck of the ship is still whole), «убит» (the ship's last deck).
ANSWERS: tuple[str, str, str] = ("miss", "hit", "sunk")
#: Row letters of the wire, top to bottom (rules D1: ``a``–``j``, ``a``–``p``, ``a``–``r``).
LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: The rule sets a bot knows, as :meth:`Knowledge.new` keyword arguments. ``classic``: rules A (no ship touches
#: another, even at a corner; answers name no ship); ``hasbro``: rules B (ships may touch, never overlap; answers
#: name the ship unless the room turned that off, D4). ``perelman`` and ``giant``: the boards and fleets of rules
#: C1 with classic shooting (their mines, minesweepers and abilities are not modelled here).
RULES: dict[str, dict] = {
    "classic": {
        "width": 10, "height": 10, "fleet": (4, 3, 3, 2, 2, 2, 1, 1, 1, 1),
        "codes": ("4", "3", "3", "2", "2", "2", "1", "1", "1", "1"), "touching": False, "named": False,
    },
    "hasbro": {
        "width": 10, "height": 10, "fleet": (5, 4, 3, 3, 2),
        "codes": ("C", "B", "D", "S", "P"), "touching": True, "named": True,
    },
    "perelman": {
        "width": 16, "height": 16, "fleet": (4,) * 2 + (3,) * 3 + (2,) * 4 + (1,) * 5,
        "codes": ("4",) * 2 + ("3",) * 3 + ("2",) * 4 + ("1",) * 5, "touching": False, "named": False,
    },
    "giant": {
        "width": 18, "height": 18, "fleet": (5,) * 2 + (4,) * 3 + (3,) * 4 + (2,) * 5 + (1,) * 6,
        "codes": ("5",) * 2 + ("4",) * 3 + ("3",) * 4 + ("2",) * 5 + ("1",) * 6, "touching": False, "named": False,
    },
}  # fmt: skip


def cell_name(cell: Cell) -> str:
    """The wire name of ``cell``: ``(0, 0)`` → ``"a1"``, ``(9, 9)`` → ``"j10"``."""
    row, col = cell
    return f"{LETTERS[row]}{col + 1}"


def parse_cell(name: str) -> Cell:
    """The cell of a wire name (``"b5"`` → ``(1, 4)``; case and surrounding spaces are ignored).

    :raises ValueError: for anything that is not a letter followed by a positive number.
    """
    text = name.strip().lower()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit() or int(text[1:]) < 1:
        raise ValueError(f"not a cell name: {name!r}")
    return LETTERS.index(text[0]), int(text[1:]) - 1


@dataclass(frozen=True)
class Knowledge:
    """Everything one seat knows when it must shoot: the rules' facts and its own shots with their answers.

    - ``width``, ``height``: the board in cells (10 × 10 in rules A and B);
    - ``fleet``: the ship sizes in decks, e.g. ``(4, 3, 3, 2, 2, 2, 1, 1, 1, 1)`` (classic) or ``(5, 4, 3, 3, 2)``;
    - ``codes``: the ship codes, parallel to ``fleet`` (classic: the size digits; Hasbro ``C B D S P``); ships of one
      code are interchangeable and have one size;
    - ``touching``: ships may touch (Hasbro); ``False``: no two ships touch by side or corner (classic);
    - ``named``: a hit or sunk answer names the ship's code;
    - ``shots``: ``(cell, answer, code)`` in the order fired; ``answer`` one of :data:`ANSWERS`; ``code`` is the ship
      hit when ``named`` and the answer is not a miss, else ``None``;
    - ``salvo_left``: shots left in this turn, this one included (1 outside salvo play).

    :raises ValueError: on facts that contradict each other (a cell off the board, a cell shot twice, an unknown
        answer or code, a code where none is given).
    """

    width: int
    height: int
    fleet: tuple[int, ...]
    codes: tuple[str, ...]
    touching: bool
    named: bool
    shots: tuple[Shot, ...] = ()
    salvo_left: int = 1
    _shot_cells: frozenset[Cell] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (1 <= self.width and 1 <= self.height <= len(LETTERS)):
            raise ValueError(f"bad board {self.width}×{self.height}")
        if len(self.fleet) != len(self.codes) or not self.fleet or min(self.fleet) < 1:
            raise ValueError("fleet and codes must be parallel, non-empty, sizes ≥ 1")
        size_of: dict[str, int] = {}
        for size, code in zip(self.fleet, self.codes, strict=True):
            if size_of.setdefault(code, size) != size:
                raise ValueError(f"code {code!r} has two sizes")
        seen: set[Cell] = set()
        for cell, answer, code in self.shots:
            row, col = cell
            if not (0 <= row < self.height and 0 <= col < self.width):
                raise ValueError(f"cell {cell} is off the board")
            if cell in seen:
                raise ValueError(f"cell {cell_name(cell)} shot twice")
            seen.add(cell)
            if answer not in ANSWERS:
                raise ValueError(f"unknown answer {answer!r}")
            if code is not None and (not self.named or answer == "miss" or code not in size_of):
                raise ValueError(f"unexpected code {code!r} for {cell_name(cell)} {answer}")
        object.__setattr__(self, "_shot_cells", frozenset(seen))

    @classmethod
    def new(cls, rules: str = "classic", *, named: bool | None = None, salvo_left: int = 1) -> Knowledge:
        """The knowledge before the first shot under one of :data:`RULES` (``named`` overrides the rule set's).

        :raises KeyError: for an unknown rule set.
        """
        facts = dict(RULES[rules])
        if named is not None:
            facts["named"] = named
        return cls(**facts, salvo_left=salvo_left)

    @classmethod
    def of_fleet(
        cls,
        width: int,
        height: int,
        ships: Iterable[tuple[str, int, int]],
        *,
        touching: bool = False,
        named: bool = False,
    ) -> Knowledge:
        """The knowledge before the first shot on any ``width`` × ``height`` board with the fleet ``ships`` given as
        ``(code, size, count)`` per class (e.g. rules C1's 18 × 18 «Гигант»: ``("5", 5, 2), ("4", 4, 3), …``).

        >>> k = Knowledge.of_fleet(16, 16, [("4", 4, 2), ("3", 3, 3), ("2", 2, 4), ("1", 1, 5)])
        >>> k == Knowledge.new("perelman")
        True

        :raises ValueError: as the constructor (a bad board, a code with two sizes, an empty fleet).
        """
        fleet: list[int] = []
        codes: list[str] = []
        for code, size, count in ships:
            fleet += [size] * count
            codes += [code] * count
        return cls(width, height, tuple(fleet), tuple(codes), touching, named)

    @classmethod
    def from_wire(
        cls, rules: str, shots: Iterable[tuple[str, str, str | None]], *, named: bool | None = None
    ) -> Knowledge:
        """The knowledge of ``rules`` after ``shots`` given as ``(cell name, answer, code)``."""
        base = cls.new(rules, named=named)
        return replace(base, shots=tuple((parse_cell(n), a, c) for n, a, c in shots))

    def after(self, cell: Cell, answer: str, code: str | None = None, *, salvo_left: int | None = None) -> Knowledge:
        """This knowledge with one more shot answered (``salvo_left`` kept unless given)."""
        left = self.salvo_left if salvo_left is None else salvo_left
        return replace(self, shots=(*self.shots, (cell, answer, code)), salvo_left=left)

    def template(self) -> Knowledge:
        """The same rules with no shot fired."""
        return replace(self, shots=(), salvo_left=1)

    def is_shot(self, cell: Cell) -> bool:
        """Whether ``cell`` has been fired at."""
        return cell in self._shot_cells

    def unshot(self) -> list[Cell]:
        """The cells not fired at yet, in reading order."""
        return [(r, c) for r in range(self.height) for c in range(self.width) if (r, c) not in self._shot_cells]

    def cells(self) -> list[Cell]:
        """Every cell of the board, in reading order."""
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    @property
    def decks(self) -> int:
        """The fleet's decks, the hits that win."""
        return sum(self.fleet)
