"""Actions and their text notation (rules §4, §7.1, §8, §10).

Canonical notation, which :meth:`Action.parse` reads and ``str(action)`` writes:

=========================  ===================================================
``e4-e5``                  move one step
``e5xe6``                  attack from e5 (the attacker alone)
``e5xe6 [d5+e5]``          attack declaring a formation: all member cells
``e4-e5xe6 [d5+e5]``       move e4→e5, then attack e6 from e5
``[e6+e7]``                the defender's declaration (``[e6]``: alone)
``АБ!`` (also ``AB!``)     detonate the atomic bomb
``resign south``           a side resigns (any time)
``draw``                   draw by agreement
``flag north``             a side's clock ran out (server)
``abandon north``          a side left past the grace time (server)
=========================  ===================================================

Formation members are written in notation order; a formation that is only the attacker is the same
action as no formation (``e5xe6 [e5]`` parses to ``e5xe6``).

>>> a = Action.parse("e4-e5xe6 [e5+d5]")
>>> a
Action.parse('e4-e5xe6 [d5+e5]')
>>> str(a), a.src, a.via, a.target
('e4-e5xe6 [d5+e5]', 63, 64, 65)
>>> Action.parse("e5xe6 [e5]") == Action.parse("e5xe6")
True
>>> str(Action.parse("AB!"))
'АБ!'
"""

from __future__ import annotations

import re

from .board import Cell, cell_name, parse_cell
from .errors import IllegalAction
from .units import Side

__all__ = [
    "Abandon",
    "Action",
    "AgreeDraw",
    "Attack",
    "Declare",
    "Detonate",
    "FlagFall",
    "Move",
    "Resign",
]


class Action:
    """Base of every action. Actions are small immutable, hashable values."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the canonical notation (module docstring) into an action.

        :raises IllegalAction: ``bad_notation`` (or ``bad_cell``/``bad_side``) naming what is wrong.
        """
        return _parse(text)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def to_json(self) -> str:
        """The JSON form of an action is its notation string."""
        return str(self)


class Move(Action):
    """One step of the unit on ``src`` to the empty orthogonal neighbour ``dst`` (rules §5)."""

    __slots__ = ("src", "dst")

    def __init__(self, src: Cell, dst: Cell) -> None:
        self.src = src
        self.dst = dst

    def __eq__(self, other: object) -> bool:
        return type(other) is Move and other.src == self.src and other.dst == self.dst

    def __hash__(self) -> int:
        return hash((1, self.src, self.dst))

    def __str__(self) -> str:
        return f"{cell_name(self.src)}-{cell_name(self.dst)}"


class Attack(Action):
    """An attack by the unit on ``src`` on the enemy unit on ``target`` (rules §6).

    ``via``: the cell the unit first steps to (move-then-attack), else ``None``.
    ``formation``: the attacker's declaration (rules §7.1) as the sorted member cells, attacker
    included; ``()`` means the attacking unit alone (and is the only choice for ``S``, ``T``, ``BR``).
    """

    __slots__ = ("src", "target", "via", "formation")

    def __init__(self, src: Cell, target: Cell, via: Cell | None = None, formation: tuple[Cell, ...] = ()) -> None:
        self.src = src
        self.target = target
        self.via = via
        # A formation of the attacker alone is no formation: one action, one value.
        self.formation = () if formation and formation == ((src if via is None else via),) else formation

    @property
    def origin(self) -> Cell:
        """The cell the attack is made from: ``via`` if the unit moved first, else ``src``."""
        return self.src if self.via is None else self.via

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is Attack
            and other.src == self.src
            and other.target == self.target
            and other.via == self.via
            and other.formation == self.formation
        )

    def __hash__(self) -> int:
        return hash((2, self.src, self.target, self.via, self.formation))

    def __str__(self) -> str:
        head = cell_name(self.src)
        if self.via is not None:
            head += "-" + cell_name(self.via)
        head += "x" + cell_name(self.target)
        if self.formation:
            head += " " + _members(self.formation)
        return head


class Declare(Action):
    """The defender's declaration (rules §7.1.2): sorted member cells, the attacked ship included."""

    __slots__ = ("formation",)

    def __init__(self, formation: tuple[Cell, ...]) -> None:
        self.formation = formation

    def __eq__(self, other: object) -> bool:
        return type(other) is Declare and other.formation == self.formation

    def __hash__(self) -> int:
        return hash((3, self.formation))

    def __str__(self) -> str:
        return _members(self.formation)


class Detonate(Action):
    """Detonate the side's atomic bomb as a turn of its own (rules §8)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Detonate

    def __hash__(self) -> int:
        return hash(4)

    def __str__(self) -> str:
        return "АБ!"


class _SideAction(Action):
    __slots__ = ("side",)
    _word = ""

    def __init__(self, side: Side) -> None:
        self.side = Side(side)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.side == self.side

    def __hash__(self) -> int:
        return hash((self._word, self.side))

    def __str__(self) -> str:
        return f"{self._word} {self.side.label}"


class Resign(_SideAction):
    """``side`` resigns and loses (rules §4.5, §10.1); accepted at any time, on either side's turn."""

    __slots__ = ()
    _word = "resign"


class FlagFall(_SideAction):
    """``side``'s clock ran out and it loses (rules §10.1, §13). Submitted by the server only."""

    __slots__ = ()
    _word = "flag"


class Abandon(_SideAction):
    """``side`` stayed disconnected past the grace time and the opponent claimed the win (rules §10.1).

    Submitted by the server only.
    """

    __slots__ = ()
    _word = "abandon"


class AgreeDraw(Action):
    """Both players agreed to a draw (rules §10.3). Submitted by the server once both agreed."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is AgreeDraw

    def __hash__(self) -> int:
        return hash(5)

    def __str__(self) -> str:
        return "draw"


def _members(cells: tuple[Cell, ...]) -> str:
    return "[" + "+".join(cell_name(c) for c in cells) + "]"


_ATTACK_RE = re.compile(r"([a-n][0-9]{1,2})(?:-([a-n][0-9]{1,2}))?x([a-n][0-9]{1,2})(?:\s*(\[[^\]]*\]))?")
_MOVE_RE = re.compile(r"([a-n][0-9]{1,2})-([a-n][0-9]{1,2})")
_SIDE_ACTIONS: dict[str, type[_SideAction]] = {"resign": Resign, "flag": FlagFall, "abandon": Abandon}


def _parse_members(text: str) -> tuple[Cell, ...]:
    inner = text.strip()[1:-1].strip()
    if not inner:
        raise IllegalAction("bad_notation", "an empty formation '[]': list the member cells, e.g. '[e5+d5]'")
    cells = [parse_cell(p.strip()) for p in inner.split("+")]
    if len(set(cells)) != len(cells):
        raise IllegalAction("bad_notation", f"a formation names a cell twice: {text!r}")
    return tuple(sorted(cells))


def _parse(text: str) -> Action:
    if not isinstance(text, str):
        raise IllegalAction("bad_notation", f"an action must be a string of notation, not {type(text).__name__}")
    t = text.strip()
    if len(t) > 64:
        raise IllegalAction("bad_notation", "an action's notation is at most 64 characters")
    if t in ("АБ!", "AB!", "ab!"):
        return Detonate()
    if t == "draw":
        return AgreeDraw()
    if t.startswith("[") and t.endswith("]"):
        return Declare(_parse_members(t))
    word, _, rest = t.partition(" ")
    if word in _SIDE_ACTIONS:
        return _SIDE_ACTIONS[word](Side.parse(rest))
    m = _MOVE_RE.fullmatch(t)
    if m:
        src, dst = parse_cell(m.group(1)), parse_cell(m.group(2))
        return Move(src, dst)
    m = _ATTACK_RE.fullmatch(t)
    if m:
        src = parse_cell(m.group(1))
        via = parse_cell(m.group(2)) if m.group(2) else None
        target = parse_cell(m.group(3))
        formation = _parse_members(m.group(4)) if m.group(4) else ()
        return Attack(src, target, via, formation)
    raise IllegalAction(
        "bad_notation",
        f"cannot read {text!r} as an action: expected e.g. 'e4-e5', 'e5xe6', 'e4-e5xe6 [e5+d5]', '[e6]' or 'АБ!'",
    )
