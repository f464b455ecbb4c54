"""What each side may know (rules §11): the one door hidden information passes through.

:func:`view` turns the true state and the event log into a :class:`PlayerView` for a side, for a
spectator (§11.7), or, once the game is over, for everyone (§11.6). Everything sent to a browser or
given to a bot is built here; ``PlayerView.to_dict()`` is the wire form.

Enemy units appear only as closed markers: a cell and a side, no kind and no identifier. A moved
enemy unit appears as "a marker went from e11 to e10".

The wire form lists the viewer's legal actions as structured values (:func:`action_to_dict`): the client draws
and chooses from their fields and sends back their ``notation``, never parsing it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .actions import Action, Attack, Declare, Detonate, Move
from .board import BLAST, CELL_NAMES, Cell, cell_name
from .errors import IllegalAction
from .events import BattleReport, DeclarationRequested, Event, Moved, Result
from .state import GameState, legal_actions
from .units import Kind, Side, scale_row

__all__ = ["MoveList", "PlayerView", "PlyView", "UnitView", "action_to_dict", "history", "view"]

SPECTATOR = "spectator"
FULL = "full"


@dataclass(frozen=True, slots=True)
class UnitView:
    """A unit as a view shows it: ``kind`` is ``None`` for a closed marker."""

    cell: Cell
    side: Side
    kind: Kind | None

    def to_dict(self) -> dict:
        """``{"cell": "e4", "side": "south", "kind": "L" | None}``."""
        return {"cell": CELL_NAMES[self.cell], "side": _SIDE[self.side], "kind": _KIND[self.kind]}


#: Wire names by value, read on every view of every unit (an enum's property costs a call each time).
_SIDE = {s: s.label for s in Side}
_KIND: dict[Kind | None, str | None] = {k: k.code for k in Kind} | {None: None}
_KINDS, _SIDES = tuple(Kind), tuple(Side)
#: One shared :class:`UnitView` per (cell, side, shown kind): a view lists 116 of them, and they are immutable.
_unit_view = functools.cache(UnitView)


@dataclass(frozen=True, slots=True)
class MoveView:
    """A step seen in a view; ``kind`` is ``None`` unless the viewer owns the unit (or the view is full)."""

    ply: int
    side: Side
    src: Cell
    dst: Cell
    kind: Kind | None

    def to_dict(self) -> dict:
        """Wire form, ``type`` ``move``."""
        return {
            "type": "move", "ply": self.ply, "side": self.side.label, "src": cell_name(self.src),
            "dst": cell_name(self.dst), "kind": None if self.kind is None else self.kind.code,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class PendingView:
    """A battle waiting for the defender (rules §7.1.2) as the viewer may see it.

    ``formation``: the attacker's declaration, shown only to the attacker (and in the full view);
    ``options``: the defender's choices, shown only to the defender (and in the full view).
    """

    src: Cell
    target: Cell
    defender: Side
    formation: tuple[Cell, ...] | None
    options: tuple[tuple[Cell, ...], ...] | None

    def to_dict(self) -> dict:
        """Wire form; hidden parts are ``None``."""
        return {
            "src": cell_name(self.src),
            "target": cell_name(self.target),
            "defender": self.defender.label,
            "formation": None if self.formation is None else [cell_name(c) for c in self.formation],
            "options": None if self.options is None else [[cell_name(c) for c in f] for f in self.options],
        }


@dataclass(frozen=True, slots=True)
class PlyView:
    """One ply as everyone may know it (rules §11.3–§11.4): the move list's line.

    ``side``: who acted. ``text``: what was seen, in notation — a step ``e4-e5``, an attack ``e5xe6`` or
    ``e4-e5xe6`` (the declared formation is not told: once the battle is fought it is in the report), a
    defender's declaration ``[d5+e5]``, the bomb ``АБ!``. ``report``: the index in ``PlayerView.reports`` of the
    battle fought at this ply, or ``None``.
    """

    ply: int
    side: Side
    text: str
    report: int | None

    def to_list(self) -> list:
        """Wire form, compact (a long game's list rides in every snapshot): ``[ply, side, text, report]``."""
        return [self.ply, _SIDE[self.side], self.text, self.report]


def history(log: Sequence[Event]) -> tuple[PlyView, ...]:
    """The public move list of a game from its event log (rules §11.3–§11.4): one :class:`PlyView` per ply that
    moved a unit or fought a battle, in order (the ends by resignation, time or agreement are the result's, not a
    ply's line). Only what both sides saw goes in: steps of markers, the cells of an attack, the battle reports.

    >>> from .board import parse_cell
    >>> log = [Moved(0, Side.SOUTH, Kind.KR, parse_cell("e4"), parse_cell("e5"))]
    >>> [p.to_list() for p in history(log)]
    [[0, 'south', 'e4-e5', None]]
    """
    moves = MoveList()
    moves.extend(log)
    return moves.lines()


@functools.cache
def _step_text(src: Cell, dst: Cell) -> str:
    """``e4-e5`` (:class:`Move`'s notation): one string object per step of the board (a long game keeps hundreds
    of lines, and every legal list names its steps: issue 23)."""
    return str(Move(src, dst))


class MoveList:
    """:func:`history` kept up along a growing event log: :meth:`extend` reads only the events it has not read
    yet (a game's log only grows), so a live game's move list costs each event once rather than the whole list
    at every view. Only the last line can still change (a battle waiting for the defender's declaration)."""

    __slots__ = ("_cur", "_out", "_read", "_reports", "_waiting")

    def __init__(self) -> None:
        self._out: list[PlyView] = []
        self._cur: list | None = None  # the open line: [ply, side, text, report]
        self._waiting: DeclarationRequested | None = None  # the battle that waits for the defender's declaration
        self._reports = 0
        self._read = 0  # events of the log read so far

    @property
    def read(self) -> int:
        """How many events of the log have been read (the log's length when up to date)."""
        return self._read

    def _line(self, ply: int, side: Side) -> list:
        cur = self._cur
        if cur is None or cur[0] != ply:
            if cur is not None:
                self._out.append(PlyView(*cur))
            cur = self._cur = [ply, side, "", None]
        return cur

    def extend(self, log: Sequence[Event]) -> None:
        """Read the events of ``log`` from :attr:`read` on (``log`` must begin with the events read before)."""
        for e in log[self._read :]:
            if isinstance(e, Moved):
                ln = self._line(e.ply, e.side)
                ln[2] += _step_text(e.src, e.dst)  # a step's line is the shared text itself: one string per step
            elif isinstance(e, DeclarationRequested):
                ln = self._line(e.ply, e.defender.opponent)
                ln[2] += f"x{cell_name(e.target)}" if ln[2] else f"{cell_name(e.src)}x{cell_name(e.target)}"
                self._waiting = e
            elif isinstance(e, BattleReport):
                waiting = self._waiting
                if waiting is not None and e.ply > waiting.ply:  # fought at the defender's declaration
                    ln = self._line(e.ply, waiting.defender)
                    ln[2] = "[" + "+".join(cell_name(s.cell) for s in e.defender_formation) + "]"
                    self._waiting = None
                else:
                    ln = self._line(e.ply, e.side)
                    if e.method == "detonation":
                        ln[2] = "АБ!"
                    elif e.target is not None:
                        whence = "" if ln[2] else cell_name(e.attacker.cell)
                        ln[2] += f"{whence}x{cell_name(e.target.cell)}"
                ln[3] = self._reports
                self._reports += 1
        self._read = len(log)

    def copy(self) -> MoveList:
        """An independent copy (its lines are immutable and shared): a game's copy goes on from here."""
        twin = MoveList()
        twin._out = list(self._out)
        twin._cur = None if self._cur is None else list(self._cur)
        twin._waiting, twin._reports, twin._read = self._waiting, self._reports, self._read
        return twin

    def lines(self) -> tuple[PlyView, ...]:
        """The move list so far: one :class:`PlyView` per ply."""
        if self._cur is None:
            return tuple(self._out)
        return (*self._out, PlyView(*self._cur))


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one audience may know at one moment (rules §11).

    ``audience``: ``south``/``north`` (a player), ``spectator`` or ``full`` (after the game).
    ``units``: every unit on the board in notation order, enemy ones as closed markers.
    ``lost``: per side, kind → units removed (public, §11.4). ``reports``: every battle report so
    far (§11.3). ``events``: the public part of what happened at plies ≥ ``since`` (moves and
    reports in order). ``legal``: the viewer's legal actions when it must act, else empty. ``history``: the move
    list, one :class:`PlyView` per ply (:func:`history`), the same for every audience; empty unless asked for.
    """

    audience: str
    ply: int
    to_move: Side
    to_act: Side | None
    quiet: int
    units: tuple[UnitView, ...]
    lost: tuple[dict[Kind, int], dict[Kind, int]]
    reports: tuple[BattleReport, ...]
    events: tuple[MoveView | BattleReport, ...]
    pending: PendingView | None
    legal: tuple[Action, ...]
    result: Result | None
    history: tuple[PlyView, ...] = ()

    @property
    def side(self) -> Side | None:
        """The viewer's side, ``None`` for a spectator or the full view."""
        return Side.parse(self.audience) if self.audience in ("south", "north") else None

    def own(self) -> dict[Cell, Kind]:
        """The viewer's own units: cell → kind (empty for a spectator)."""
        me = self.side
        return {u.cell: u.kind for u in self.units if u.side is me and u.kind is not None}

    def markers(self) -> tuple[Cell, ...]:
        """Cells of the closed markers in this view (for a player: the enemy units)."""
        return tuple(u.cell for u in self.units if u.kind is None)

    def legal_dicts(self) -> list[dict]:
        """``legal`` in wire form, in the engine's order: one :func:`action_to_dict` per action."""
        if not self.legal:
            return []
        own = self.own()
        target = None if self.pending is None else self.pending.target
        return [action_to_dict(a, own, target) for a in self.legal]

    def to_dict(self) -> dict:
        """The wire form: JSON-ready, deterministic (same view, same bytes); ``legal`` as :meth:`legal_dicts`."""
        return {
            "audience": self.audience,
            "ply": self.ply,
            "to_move": self.to_move.label,
            "to_act": None if self.to_act is None else self.to_act.label,
            "quiet": self.quiet,
            "units": [u.to_dict() for u in self.units],
            "lost": {_SIDE[s]: {_KIND[k]: n for k, n in self.lost[s].items()} for s in _SIDES},
            "reports": [r.to_dict() for r in self.reports],
            "events": [
                e.to_dict() if isinstance(e, MoveView) else {"type": "report", "report": e.to_dict()}
                for e in self.events
            ],
            "pending": None if self.pending is None else self.pending.to_dict(),
            "legal": self.legal_dicts(),
            "result": None if self.result is None else self.result.to_dict(),
            "history": [p.to_list() for p in self.history],
        }


def _members(cells: Sequence[Cell], own: Mapping[Cell, Kind], step: tuple[Cell, Cell] | None = None) -> dict:
    """``formation``, ``kinds`` and ``row`` of the members on ``cells``; ``step`` (src, via): the attacker moved."""
    kinds = [own[step[0]] if step is not None and c == step[1] else own[c] for c in cells]
    return {"formation": [cell_name(c) for c in cells], "kinds": [k.code for k in kinds], "row": scale_row(kinds)}


def action_to_dict(action: Action, own: Mapping[Cell, Kind], target: Cell | None = None) -> dict:
    """One legal action of a player as the wire lists it: ``type``, the cells it names (Latin, ``e4``), what the
    client needs to draw and choose it, and ``notation``, the exact string the server takes back in an
    ``action`` message (rules §4–§8; docs/protocol.md).

    ``own``: the acting side's units, cell → kind (its own: nothing hidden is told); ``target``: the attacked
    cell of the battle waiting for a declaration. The shapes:

    - ``{"type": "move", "src", "dst", "notation"}`` (rules §5);
    - ``{"type": "attack", "src", "via", "target", "formation", "kinds", "row", "notation"}`` (rules §6, §7.1):
      ``via`` the cell stepped to first (move, then attack) or ``None``; ``formation`` the declared members'
      cells in notation order, ``[origin]`` for the attacker alone; ``kinds`` their kind codes in that order;
      ``row`` the composition's row on the scale of strength, ``None`` out of scale (an aircraft, a torpedo,
      the fireship);
    - ``{"type": "declare", "target", "formation", "kinds", "row", "notation"}``: the defender's declaration
      (rules §7.1.2), ``target`` the attacked ship's cell (``None`` when not given);
    - ``{"type": "detonate", "cell", "blast", "notation"}``: the atomic bomb's cell and its 5×5 square (rules §8).

    >>> from .board import parse_cell
    >>> own = {parse_cell("e4"): Kind.KR, parse_cell("d5"): Kind.KR}
    >>> action_to_dict(Action.parse("e4-e5"), own)
    {'type': 'move', 'src': 'e4', 'dst': 'e5', 'notation': 'e4-e5'}
    >>> a = action_to_dict(Action.parse("e4-e5xe6 [d5+e5]"), own)
    >>> a["via"], a["target"], a["formation"], a["kinds"], a["row"], a["notation"]
    ('e5', 'e6', ['d5', 'e5'], ['KR', 'KR'], 18, 'e4-e5xe6 [d5+e5]')

    :raises KeyError: when a cell the action names holds none of ``own`` (an action of the other side).
    :raises TypeError: for an action no player lists (the server's end actions, a resignation).
    """
    if type(action) is Move:  # the most of every list: its names read from the table
        return {
            "type": "move", "src": CELL_NAMES[action.src], "dst": CELL_NAMES[action.dst],
            "notation": _step_text(action.src, action.dst),
        }  # fmt: skip
    if isinstance(action, Attack):
        origin = action.origin
        members = action.formation or (origin,)
        step = None if action.via is None else (action.src, action.via)  # the attacker fights from ``via``
        return {
            "type": "attack", "src": cell_name(action.src),
            "via": None if action.via is None else cell_name(action.via), "target": cell_name(action.target),
            **_members(members, own, step), "notation": str(action),
        }  # fmt: skip
    if isinstance(action, Declare):
        where = None if target is None else cell_name(target)
        return {"type": "declare", "target": where, **_members(action.formation, own), "notation": str(action)}
    if isinstance(action, Detonate):
        bomb = next((c for c, k in own.items() if k is Kind.AB), None)
        if bomb is None:
            raise KeyError("no atomic bomb among the side's units")
        return {
            "type": "detonate", "cell": cell_name(bomb), "blast": [cell_name(c) for c in sorted(BLAST[bomb])],
            "notation": str(action),
        }  # fmt: skip
    raise TypeError(f"{action!r} is not an action a player's view lists")


def view(
    state: GameState,
    audience: Side | str,
    log: Sequence[Event] = (),
    *,
    since: int | None = None,
    moves: bool | MoveList = False,
) -> PlayerView:
    """The view of ``state`` for ``audience`` (rules §11).

    ``audience``: a :class:`Side` (a player, §11.1–5), ``"spectator"`` (§11.7) or ``"full"`` (both
    fleets open, §11.6: only once the game is over). ``log``: every event of the game so far, in
    order (as :class:`admiral.games.admiral.rules.Game` keeps it). ``since``: the first ply whose events go into
    ``events`` (default: the last ply). ``moves``: fill ``history``, the move list (:func:`history`) — the wire's
    view asks for it; the bots and the notes do not pay for it. A :class:`MoveList` instead of ``True`` is brought
    up to ``log`` and read (a live game keeps one).

    :raises IllegalAction: ``game_not_over`` for a full view of a game in progress; ``bad_audience``.
    """
    if isinstance(audience, Side):
        me: Side | None = audience
        name = audience.label
    elif audience in ("south", "north"):
        me = Side.parse(audience)
        name = audience
    elif audience == SPECTATOR:
        me, name = None, SPECTATOR
    elif audience == FULL:
        if state.result is None:
            raise IllegalAction("game_not_over", "both fleets open only after the game (rules §11.6)")
        me, name = None, FULL
    else:
        raise IllegalAction("bad_audience", f"unknown audience {audience!r}")
    full = name == FULL
    board = state.board
    units = tuple(
        _unit_view(c, u.side, u.kind if full or u.side is me else None)
        for c in sorted(state.cells[0] | state.cells[1])
        if (u := board[c]) is not None
    )
    lost = tuple({k: n for k in _KINDS if (n := state.lost[s][k])} for s in _SIDES)
    first = state.ply - 1 if since is None else since
    reports: list[BattleReport] = []
    events: list[MoveView | BattleReport] = []
    for e in log:
        if isinstance(e, BattleReport):
            reports.append(e)
            if e.ply >= first:
                events.append(e)
        elif isinstance(e, Moved) and e.ply >= first:
            events.append(MoveView(e.ply, e.side, e.src, e.dst, e.kind if full or e.side is me else None))
        # DeclarationRequested and GameOver are public and already carried by ``pending`` / ``result``.
    pending = None
    p = state.pending
    if p is not None:
        pending = PendingView(
            p.src, p.target, p.defender,
            p.formation if full or me is p.side else None,
            p.options if full or me is p.defender else None,
        )  # fmt: skip
    legal = tuple(legal_actions(state)) if me is not None and me is state.to_act else ()
    return PlayerView(
        name, state.ply, state.to_move, state.to_act, state.quiet, units, lost, tuple(reports),
        tuple(events), pending, legal, state.result, _moves(log, moves),
    )  # fmt: skip


def _moves(log: Sequence[Event], moves: bool | MoveList) -> tuple[PlyView, ...]:
    """The ``history`` of a view: none, the whole log's, or ``moves`` brought up to ``log``."""
    if moves is False:
        return ()
    if moves is True:
        return history(log)
    moves.extend(log)
    return moves.lines()
