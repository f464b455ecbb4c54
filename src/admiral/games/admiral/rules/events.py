"""Events: what an action caused, in full truth (rules §5–§10).

Events are produced by :func:`admiral.games.admiral.rules.apply`. They hold kinds of units that one side may not
know; nothing here is ever sent to a player directly: :func:`admiral.games.admiral.rules.view` filters them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...common import Result
from .board import Cell, cell_name
from .units import Kind, Side

__all__ = [
    "BattleReport",
    "DeclarationRequested",
    "Event",
    "GameOver",
    "Moved",
    "Reason",
    "Result",
    "Seen",
]


class Reason(StrEnum):
    """Why a game ended (rules §10)."""

    BASES = "bases"  #: both naval bases of a side destroyed (draw if both sides' last bases at once)
    NO_ACTIONS = "no_actions"  #: the side to act had no legal action (rules §4.4)
    QUIET_SEA = "quiet_sea"  #: 200 plies without a removal (rules §10.3)
    AGREEMENT = "agreement"  #: draw by agreement
    RESIGNATION = "resignation"
    FLAG = "flag"  #: a clock ran out (rules §13)
    ABANDONMENT = "abandonment"  #: disconnected past the grace time, win claimed (rules §10.1)


# Result is the house's (:mod:`admiral.games.common`): ``winner`` (``None`` for a draw) and a :class:`Reason`.


@dataclass(frozen=True, slots=True)
class Seen:
    """A unit as a battle report shows it: its side, kind and cell."""

    side: Side
    kind: Kind
    cell: Cell

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"side": "south", "kind": "L", "cell": "e5"}``."""
        return {"side": self.side.label, "kind": self.kind.code, "cell": cell_name(self.cell)}


class Event:
    """Base of all events. ``ply`` is the ply (0-based action index) that caused the event."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A unit of ``side`` stepped from ``src`` to ``dst`` (rules §5). Its ``kind`` is private to ``side``."""

    ply: int
    side: Side
    kind: Kind
    src: Cell
    dst: Cell


@dataclass(frozen=True, slots=True)
class DeclarationRequested(Event):
    """An ordinary battle waits for the defender's declaration (rules §7.1.2).

    ``src`` is the attacker's cell, ``target`` the attacked ship's. Public to both sides.
    """

    ply: int
    defender: Side
    src: Cell
    target: Cell


@dataclass(frozen=True, slots=True)
class BattleReport(Event):
    """The battle report (карточка боя) of one attack or detonation (rules §7, §8, §11.3). Public.

    ``method``: ``contact`` (rated ship or fireship), ``air`` (aircraft), ``torpedo`` or ``detonation``.
    ``attacker``/``target``: the acting unit and the attacked one (``target`` is ``None`` for a detonation).
    ``attacker_formation``/``defender_formation``: declared members in an ordinary battle (§7.1),
    else empty; ``attacker_row``/``defender_row`` their scale rows. ``removed``: every unit removed.
    ``explosion``: the bomb's cell when the atomic bomb went off (§8), else ``None``.
    """

    ply: int
    side: Side
    method: str
    attacker: Seen
    target: Seen | None
    attacker_formation: tuple[Seen, ...]
    defender_formation: tuple[Seen, ...]
    attacker_row: int | None
    defender_row: int | None
    removed: tuple[Seen, ...]
    explosion: Cell | None

    @property
    def bomb_owner(self) -> Side | None:
        """The side whose atomic bomb went off (rules §8): the detonating side, else the attacked one (its bomb was
        the target); ``None`` when no bomb went off."""
        if self.explosion is None:
            return None
        return self.side if self.method == "detonation" else self.side.opponent

    @property
    def participants(self) -> tuple[Seen, ...]:
        """Every unit revealed by the battle (rules §7.2: every participant is revealed)."""
        seen = [self.attacker]
        if self.target is not None:
            seen.append(self.target)
        for s in self.attacker_formation + self.defender_formation:
            if s not in seen:
                seen.append(s)
        return tuple(seen)

    @property
    def revealed_only(self) -> tuple[Seen, ...]:
        """Participants that stay on the board (they close again after the report, rules §7.1.6)."""
        gone = {(s.side, s.cell) for s in self.removed}
        return tuple(s for s in self.participants if (s.side, s.cell) not in gone)

    def to_dict(self) -> dict:
        """JSON-ready form of the report."""
        return {
            "ply": self.ply,
            "side": self.side.label,
            "method": self.method,
            "attacker": self.attacker.to_dict(),
            "target": None if self.target is None else self.target.to_dict(),
            "attacker_formation": [s.to_dict() for s in self.attacker_formation],
            "defender_formation": [s.to_dict() for s in self.defender_formation],
            "attacker_row": self.attacker_row,
            "defender_row": self.defender_row,
            "removed": [s.to_dict() for s in self.removed],
            "revealed_only": [s.to_dict() for s in self.revealed_only],
            "explosion": None if self.explosion is None else cell_name(self.explosion),
        }


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended with ``result`` (rules §10)."""

    ply: int
    result: Result
