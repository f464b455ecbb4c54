"""Sides, actions, events, the true game state, legal actions and their application (rules A4–A7, B2, B3, D2–D4).

:class:`GameState` is the whole truth of one game; players and bots see it only through :func:`~.view.view`.
Legality has one code path: :meth:`GameState.legal_actions` lists exactly the shots :meth:`GameState.apply`
accepts (every unshot cell of the opponent's grid, for the side to act).

Terms: a **ply** is one applied action (a shot, or an end such as a resignation); ``state.ply`` counts them and is
the game's version. A **turn** is one side's run of shots: until a miss (classic, A5), one shot (Hasbro, B2) or one
salvo (B3, D3).

Variants extend the state the way python-chess's variants extend its board: a subclass overrides the hooks
:meth:`GameState.answer` (what a shot meets), :meth:`GameState.effects` (per-shot effects, e.g. a mine's reveal,
C3), :meth:`GameState.shots_after` and :meth:`GameState.salvo_size`, and may add actions (abilities, C5) to
:meth:`GameState.legal_actions` and :meth:`GameState.apply`; :class:`Answer` grows with new answers.

>>> from .fleet import CLASSIC
>>> from .setup import setup_from_text
>>> fleet = setup_from_text("4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6")
>>> s = GameState.from_setups(CLASSIC, fleet, fleet, first=Side.SOUTH)
>>> [str(e) for e in s.apply(Action.parse("a1")) + s.apply(Action.parse("Б5"))]
['south a1: hit', 'south b5: miss', 'north to shoot (1)']
>>> s.to_act, s.ply, len(s.legal_actions())
(<Side.NORTH: 1>, 2, 100)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from ...common import Result
from .board import Cell, cell_name, parse_cell
from .errors import IllegalAction
from .fleet import Rules
from .setup import Placements, Ship, check_setup, ships_of

__all__ = [
    "BASE_ANSWERS", "Abandon", "Action", "AgreeDraw", "Answer", "Event", "FlagFall", "GameOver", "GameState",
    "Reason", "Resign", "Result", "Shot", "ShotFired", "Side", "TurnPassed", "apply", "legal_actions",
]  # fmt: skip


class Side(IntEnum):
    """A player: ``SOUTH`` (0) or ``NORTH`` (1); ``label`` is its wire name."""

    SOUTH = 0
    NORTH = 1

    @property
    def label(self) -> str:
        """``"south"`` / ``"north"``."""
        return self.name.lower()

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side(1 - self)

    @classmethod
    def parse(cls, label: str | Side) -> Side:
        """A side from its wire name. :raises IllegalAction: ``bad_side``."""
        if isinstance(label, Side):
            return label
        if label == "south":
            return cls.SOUTH
        if label == "north":
            return cls.NORTH
        raise IllegalAction("bad_side", f"{label!r} is not a side: 'south' or 'north'")


class Answer(StrEnum):
    """The answer to a shot (A5, B2): «мимо» ``miss``, «ранен»/«попал» ``hit``, «убит»/«потоплен» ``sunk``.
    The extended variant's own (C3; A and B never give them): ``mine`` (an enemy mine exploded, shown as a miss
    dot) and ``sweeper`` (an enemy minesweeper destroyed, a crossed red triangle)."""

    MISS = "miss"
    HIT = "hit"
    SUNK = "sunk"
    MINE = "mine"
    SWEEPER = "sweeper"


#: The answers of rule sets A and B (the extended variant adds the rest of :class:`Answer`, C3).
BASE_ANSWERS = (Answer.MISS, Answer.HIT, Answer.SUNK)


class Reason(StrEnum):
    """Why a game ended: the whole fleet sunk (A7, B2), a resignation, a flag fall, abandonment, an agreed draw."""

    FLEET_SUNK = "fleet_sunk"
    RESIGN = "resign"
    FLAG = "flag"
    ABANDON = "abandon"
    DRAW = "draw"


# Result is the house's (:mod:`admiral.games.common`): ``winner`` (``None`` for a draw) and a :class:`Reason`.


# -- actions ------------------------------------------------------------------------------------------------------


class Action:
    """Base of every action: small immutable values whose ``str`` is their notation.

    =====================  ==========================================================
    ``b5``                 a shot at b5 of the opponent's grid (also read: ``B5``, ``Б5``)
    ``resign south``       a side resigns (any time while the game goes on)
    ``flag north``         a side's clock ran out (the server)
    ``abandon south``      a side left past the grace time (the server)
    ``draw``               draw by agreement
    =====================  ==========================================================
    """

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Action:
        """An action from its notation (table above); white space around it is ignored.

        >>> Action.parse(" Б5 "), Action.parse("resign north")
        (Action.parse('b5'), Action.parse('resign north'))

        :raises IllegalAction: ``bad_notation`` naming what is wrong.
        """
        if not isinstance(text, str):
            raise IllegalAction("bad_notation", f"{text!r} is not an action")
        words = text.split()
        if words == ["draw"]:
            return AgreeDraw()
        if len(words) == 2 and words[0] in _ENDS:
            try:
                return _ENDS[words[0]](Side.parse(words[1]))
            except IllegalAction:
                pass
        if len(words) == 1 and _SHOT_RE.fullmatch(words[0]):
            try:
                return Shot(parse_cell(words[0]))
            except IllegalAction:
                pass
        raise IllegalAction(
            "bad_notation", f"{text!r} is not an action: a shot is a cell such as 'b5' (or 'Б5'), nothing else"
        )

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_SHOT_RE = re.compile(r"\w\d{1,2}")


@dataclass(frozen=True, slots=True, repr=False)
class Shot(Action):
    """A shot at ``cell`` of the opponent's grid by the side to act (A5)."""

    cell: Cell

    def __str__(self) -> str:
        return cell_name(self.cell)


@dataclass(frozen=True, slots=True, repr=False)
class Resign(Action):
    """``side`` resigns: the other side wins."""

    side: Side

    def __str__(self) -> str:
        return f"resign {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class FlagFall(Action):
    """``side``'s clock ran out (the server's action): the other side wins."""

    side: Side

    def __str__(self) -> str:
        return f"flag {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class Abandon(Action):
    """``side`` left past the grace time (the server's action): the other side wins."""

    side: Side

    def __str__(self) -> str:
        return f"abandon {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class AgreeDraw(Action):
    """Both sides agreed to a draw."""

    def __str__(self) -> str:
        return "draw"


_ENDS: dict[str, type[Resign] | type[FlagFall] | type[Abandon]] = {
    "resign": Resign, "flag": FlagFall, "abandon": Abandon,
}  # fmt: skip
_END_REASON = {Resign: Reason.RESIGN, FlagFall: Reason.FLAG, Abandon: Reason.ABANDON}


# -- events -------------------------------------------------------------------------------------------------------


class Event:
    """Base of the events :meth:`GameState.apply` returns: what happened, in full truth (views filter it)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ShotFired(Event):
    """``side`` shot at ``cell`` at ply ``ply`` and got ``answer``.

    ``ship``: the index of the ship hit in the target's fleet (:attr:`GameState.fleets`), ``code`` its class code,
    both ``None`` on a miss; ``sunk``: the sunk ship's cells (reading order) when ``answer`` is ``sunk``, else
    ``()``. ``turn_start``: this shot began its side's turn.
    """

    ply: int
    side: Side
    cell: Cell
    answer: Answer
    ship: int | None = None
    code: str | None = None
    sunk: tuple[Cell, ...] = ()
    turn_start: bool = False

    def __str__(self) -> str:
        return f"{self.side.label} {cell_name(self.cell)}: {self.answer}"


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The turn passed to ``side``, which now has ``shots`` shots (1, or its salvo, B3)."""

    ply: int
    side: Side
    shots: int

    def __str__(self) -> str:
        return f"{self.side.label} to shoot ({self.shots})"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended at ply ``ply`` with ``result``."""

    ply: int
    result: Result

    def __str__(self) -> str:
        winner = "draw" if self.result.winner is None else f"{self.result.winner.label} wins"
        return f"game over: {winner} ({self.result.reason})"


# -- the state ----------------------------------------------------------------------------------------------------


class GameState:
    """The true state of one game (treat the fields as read-only outside the rules):

    - ``rules``: the :class:`~.fleet.Rules`; ``first``: the side that shot first (A4, D2);
    - ``fleets``: per side, its :class:`~.setup.Ship` tuple in fleet order; ``ship_at``: per side, cell → index;
    - ``damage``: per side, hits taken per ship; ``afloat``: per side, ships not sunk;
    - ``shots``: per side, the shots it fired, cell → :class:`ShotFired`; ``history``: every shot in ply order;
    - ``to_move``: the side whose turn it is; ``shots_left``: shots it still has in this turn (classic: 1, renewed
      by every hit); ``turn_shots``: shots it fired in this turn so far;
    - ``ply``: actions applied so far (the game's version); ``result``: the :class:`Result` once over.
    """

    __slots__ = (
        "rules", "first", "fleets", "ship_at", "damage", "afloat", "shots", "history", "to_move", "shots_left",
        "turn_shots", "ply", "result",
    )  # fmt: skip

    def __init__(self, rules: Rules, fleets: tuple[tuple[Ship, ...], tuple[Ship, ...]], first: Side) -> None:
        self.rules = rules
        self.first = Side(first)
        self.fleets = fleets
        self.ship_at: tuple[dict[Cell, int], dict[Cell, int]] = tuple(  # type: ignore[assignment]
            {c: i for i, ship in enumerate(fleet) for c in ship.cells} for fleet in fleets
        )
        self.damage: tuple[list[int], list[int]] = ([0] * len(fleets[0]), [0] * len(fleets[1]))
        self.afloat = [len(fleets[0]), len(fleets[1])]
        self.shots: tuple[dict[Cell, ShotFired], dict[Cell, ShotFired]] = ({}, {})
        self.history: list[ShotFired] = []
        self.to_move = self.first
        self.ply = 0
        self.result: Result | None = None
        self.turn_shots = 0
        self.shots_left = self.salvo_size(self.first)

    @classmethod
    def from_setups(cls, rules: Rules, south: Placements, north: Placements, first: Side = Side.SOUTH) -> GameState:
        """The opening state from both complete setups, ``first`` to shoot, ply 0.

        :raises InvalidSetup: (``invalid_setup``) naming every problem of the first bad setup.
        """
        fleets = (ships_of(rules, check_setup(rules, south)), ships_of(rules, check_setup(rules, north)))
        return cls(rules, fleets, first)

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def to_act(self) -> Side | None:
        """The side that must act now; ``None`` when the game is over."""
        return None if self.result is not None else self.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def unshot(self, side: Side) -> int:
        """Cells of the opponent's grid that ``side`` has not shot yet."""
        return self.rules.board.size - len(self.shots[side])

    def ship_sunk(self, side: Side, index: int) -> bool:
        """Whether ship ``index`` of ``side``'s fleet is sunk."""
        return self.damage[side][index] >= self.fleets[side][index].size

    def copy(self) -> GameState:
        """An independent copy (the fleets and the rules, immutable, are shared)."""
        other = object.__new__(type(self))
        other.rules, other.first, other.fleets, other.ship_at = self.rules, self.first, self.fleets, self.ship_at
        other.damage = (self.damage[0].copy(), self.damage[1].copy())
        other.afloat = self.afloat.copy()
        other.shots = (self.shots[0].copy(), self.shots[1].copy())
        other.history = self.history.copy()
        other.to_move, other.shots_left, other.turn_shots = self.to_move, self.shots_left, self.turn_shots
        other.ply, other.result = self.ply, self.result
        return other

    def _key(self) -> tuple:
        return (
            self.rules, self.first, self.fleets, self.damage, self.afloat, self.shots, self.history, self.to_move,
            self.shots_left, self.turn_shots, self.ply, self.result,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<GameState {self.rules.key} ply={self.ply} to_act={self.to_act} shots_left={self.shots_left}>"

    # -- hooks a variant overrides ---------------------------------------------------------------------------

    def salvo_size(self, side: Side) -> int:
        """Shots of ``side``'s next turn: its ships afloat, at most its unshot cells, under salvo (B3, D3); else 1."""
        if self.rules.salvo:
            return min(self.afloat[side], self.unshot(side))
        return 1

    def answer(self, side: Side, cell: Cell) -> ShotFired:
        """What ``side``'s shot at ``cell`` meets (A5, B2), recording the damage. Called only for a legal shot."""
        target = side.opponent
        index = self.ship_at[target].get(cell)
        start = self.turn_shots == 0
        if index is None:
            return ShotFired(self.ply, side, cell, Answer.MISS, turn_start=start)
        ship = self.fleets[target][index]
        self.damage[target][index] += 1
        if self.damage[target][index] < ship.size:
            return ShotFired(self.ply, side, cell, Answer.HIT, index, ship.code, turn_start=start)
        self.afloat[target] -= 1
        return ShotFired(self.ply, side, cell, Answer.SUNK, index, ship.code, ship.cells, turn_start=start)

    def effects(self, shot: ShotFired) -> list[Event]:
        """Per-shot effects beyond the answer (none in A and B; the extended variant's mines, C3)."""
        return []

    def shots_after(self, shot: ShotFired) -> int:
        """Shots the shooter has left in this turn after ``shot``: one fewer, except that a hit or a sinking
        earns the shot back under classic rules (A5). 0 passes the turn (after a miss, A5; after every shot, B2;
        at the end of a salvo, B3). The extended variant ends the turn on a mine (C3)."""
        if self.rules.again_on_hit and shot.answer is not Answer.MISS:
            return self.shots_left
        return self.shots_left - 1

    # -- legality and application ----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The shots the side to act may fire now: every cell of the opponent's grid it has not shot, reading
        order; none once the game is over. (End actions are the server's and the players' at any time and are not
        listed.) The ring of a sunk ship (A6) stays legal: a pointless shot, but a shot."""
        if self.result is not None:
            return []
        shot = self.shots[self.to_move]
        return [Shot(c) for c in self.rules.board.cells if c not in shot]

    def apply(self, action: Action, by: Side | None = None) -> list[Event]:
        """Apply ``action`` and return the events it caused.

        ``by``: the side that sent it, when known; a shot from the side not to act is refused (the server checks
        the seat too, before it calls the rules).

        :raises IllegalAction: ``game_over``, ``not_your_turn``, ``bad_cell`` (off the grid), ``already_shot``
            (A5, D3: a repeated cell is no shot, the turn and the salvo keep their shots), ``bad_notation``; the
            state is unchanged then.
        """
        if self.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.result.reason}): {action} is not accepted")
        if isinstance(action, Shot):
            return self._shoot(action, by)
        if isinstance(action, AgreeDraw):
            return self._end(Result(None, Reason.DRAW))
        if isinstance(action, Resign | FlagFall | Abandon):
            if by is not None and isinstance(action, Resign) and by is not action.side:
                raise IllegalAction("not_your_side", f"{by.label} cannot resign for {action.side.label}")
            return self._end(Result(action.side.opponent, _END_REASON[type(action)]))
        raise IllegalAction("bad_notation", f"{action!r} is not an action of «Морской бой»")

    def _shoot(self, shot: Shot, by: Side | None) -> list[Event]:
        side = self.to_move
        if by is not None and by is not side:
            raise IllegalAction("not_your_turn", f"it is {side.label}'s turn to shoot, not {by.label}'s")
        cell = shot.cell
        if cell not in self.rules.board:
            raise IllegalAction("bad_cell", f"{cell_name(cell)} is off the {self.rules.board.width}-wide board")
        if cell in self.shots[side]:
            raise IllegalAction("already_shot", f"{cell_name(cell)} was shot already: choose another cell (A5)")
        events = self.fire(side, cell)
        if self.result is not None:
            return events  # A7, D3: the rest of a salvo is not fired
        self.shots_left = self.shots_after(events[0])  # type: ignore[arg-type]
        self.turn_shots += 1
        if self.shots_left <= 0:
            events += self.pass_turn()
        self.ply += 1
        return events

    def fire(self, side: Side, cell: Cell) -> list[Event]:
        """``side``'s shot at the unshot ``cell`` answered and recorded with its effects (:meth:`answer`,
        :meth:`effects`); the :class:`ShotFired` first in the events, then the effects, then the end of the game
        if the target's last ship sank (A7). The turn is left as it was: the caller moves it on (a variant's area
        attack fires several cells in one ply, C5, D7)."""
        fired = self.answer(side, cell)
        self.shots[side][cell] = fired
        self.history.append(fired)
        events: list[Event] = [fired, *self.effects(fired)]
        if self.afloat[side.opponent] == 0:
            events += self._end(Result(side, Reason.FLEET_SUNK))
        return events

    def pass_turn(self) -> list[Event]:
        """The turn passes to the other side with a new turn of shots (:meth:`salvo_size`); a variant adds what
        a turn's start brings (energy, C4). :returns: the :class:`TurnPassed` event (and a variant's)."""
        self.to_move = self.to_move.opponent
        self.turn_shots = 0
        self.shots_left = self.salvo_size(self.to_move)
        return [TurnPassed(self.ply, self.to_move, self.shots_left)]

    def _end(self, result: Result) -> list[Event]:
        self.result = result
        self.shots_left = 0
        event = GameOver(self.ply, result)
        self.ply += 1
        return [event]


def legal_actions(state: GameState) -> list[Action]:
    """:meth:`GameState.legal_actions`."""
    return state.legal_actions()


def apply(state: GameState, action: Action | str, by: Side | None = None) -> list[Event]:
    """:meth:`GameState.apply`, reading notation too."""
    return state.apply(Action.parse(action) if isinstance(action, str) else action, by)
