"""The true game state, legal actions and their application (rules §4–§10).

:class:`GameState` is the whole truth of one game. Only the engine and the server's game service hold
it; players and bots see it only through :func:`admiral.games.admiral.rules.view`.

Legality is defined once, by the checks :func:`apply` makes on a single action (``_targets``,
``_can_step``, :func:`formations_at`). :func:`legal_actions` lists the same set by a faster path of its
own (it is every search's inner loop); the property tests hold the two together in both directions
(every listed action applies, and every action ``apply`` accepts among all an exhaustive oracle can
name is listed), and the perft files pin the counts.

Terms: a **ply** is one applied action of the record (a turn, a defender's declaration, or an
end such as a resignation); ``state.ply`` counts them and is the game's version. A **turn** is one
side's move/attack/detonation; it is complete once its battle is resolved (after the defender's
declaration, when one is asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import permutations

from .actions import Abandon, Action, AgreeDraw, Attack, Declare, Detonate, FlagFall, Move, Resign
from .board import AIR_RAYS, BIT, BLAST, ORTH, RING, TORPEDO_RAYS, Cell, cell_name, orth_spread, parse_cell, ring_spread
from .errors import IllegalAction
from .events import BattleReport, DeclarationRequested, Event, GameOver, Moved, Reason, Result, Seen
from .units import SCALE, Kind, Side, Unit, unit

__all__ = [
    "QUIET_LIMIT",
    "GameState",
    "Pending",
    "apply",
    "formations_at",
    "has_legal_action",
    "is_armed",
    "legal_actions",
    "strongest_declaration",
]

#: Plies in a row without a removal that end the game in a draw (rules §10.3).
QUIET_LIMIT = 200

A, L, KR, R, ES, ST, TK, KRPL, TR, PL, S, T, M, SM, BR, AB, VMB = Kind
RATED = frozenset(k for k in Kind if k.is_rated)
#: Rated ships that can be formation members (rules §7.1: A, ST, TK, TR never are).
FORMABLE = frozenset((L, KR, R, ES, KRPL, PL))
IMMOBILE = frozenset((SM, VMB))
#: The carrier kind of each weapon (rules §2, §5.2).
CARRIER = {S: A, T: TK, M: ES}
#: Per side, each weapon kind → the shared Unit of its carrier.
_CARRIER_UNIT = tuple({w: unit(s, c) for w, c in CARRIER.items()} for s in Side)
ATTACKERS = RATED | {BR, S, T}
#: Units that attack by contact (rules §6): rated ships and the fireship.
CONTACT = RATED | {BR}

_TOKEN_RE = re.compile(r"([A-ZА-Я]+)([a-n][0-9]{1,2})")

# Every ordering of every composition of 2 or 3 members → its scale row: no sorting in the hot path.
_GROUP_ROW: dict[tuple[Kind, ...], int] = {
    perm: row for comp, row in SCALE.items() if len(comp) > 1 for perm in permutations(comp)
}


@dataclass(frozen=True, slots=True)
class Pending:
    """An ordinary battle waiting for the defender's declaration (rules §7.1.2).

    ``src``: the attacking ship's cell (after its move, if it moved); ``target``: the attacked ship's;
    ``formation``: the attacker's declaration (sorted member cells, attacker included; secret from
    the defender until the report); ``options``: every declaration open to the defender, each the
    sorted member cells, ``(target,)`` first.
    """

    side: Side
    src: Cell
    target: Cell
    formation: tuple[Cell, ...]
    options: tuple[tuple[Cell, ...], ...]

    @property
    def defender(self) -> Side:
        """The side that must declare now."""
        return self.side.opponent


class GameState:
    """The true state of one game of «Адмирал».

    Fields (treat as read-only outside the engine):

    - ``board``: list of 210 entries, cell → :class:`Unit` or ``None`` (cells: :mod:`.board`);
    - ``cells``: per side, the set of cells its units stand on;
    - ``occupied``: per side, the same cells as a bitboard (:data:`.board.BIT`);
    - ``kinds``: per side, a list indexed by :class:`Kind` of the bitboards of that kind's cells;
    - ``to_move``: the side whose turn it is (during a pending battle, the attacker's);
    - ``ply``: actions applied so far (the game's version);
    - ``quiet``: completed turns in a row without a removal (rules §10.3);
    - ``pending``: a :class:`Pending` battle or ``None``;
    - ``result``: the :class:`Result` once the game is over, else ``None``;
    - ``lost``: per side, a list indexed by :class:`Kind` of units removed so far (public, rules §11.4);
    - ``bases``: per side, naval bases on the board (rules §9).
    """

    __slots__ = ("board", "cells", "occupied", "kinds", "to_move", "ply", "quiet", "pending", "result", "lost", "bases")

    def __init__(self) -> None:
        self.board: list[Unit | None] = [None] * 210
        self.cells: tuple[set[Cell], set[Cell]] = (set(), set())
        self.occupied = [0, 0]
        self.kinds: tuple[list[int], list[int]] = ([0] * len(Kind), [0] * len(Kind))
        self.to_move = Side.SOUTH
        self.ply = 0
        self.quiet = 0
        self.pending: Pending | None = None
        self.result: Result | None = None
        self.lost: tuple[list[int], list[int]] = ([0] * len(Kind), [0] * len(Kind))
        self.bases = [0, 0]

    @classmethod
    def from_setups(cls, south: Mapping[Cell, Kind], north: Mapping[Cell, Kind]) -> GameState:
        """The opening position from two setups (rules §3): South to move, ply 0.

        Each setup maps cell → kind for its side; both must be complete and valid.

        :raises IllegalAction: ``invalid_setup`` naming every problem (see :func:`check_setup`).
        """
        from .setup import check_setup

        state = cls()
        for side, setup in ((Side.SOUTH, south), (Side.NORTH, north)):
            for cell, kind in check_setup(side, setup).items():
                state._place(cell, unit(side, kind))
        return state

    def _place(self, cell: Cell, u: Unit) -> None:
        self.board[cell] = u
        self.cells[u.side].add(cell)
        self.occupied[u.side] |= BIT[cell]
        self.kinds[u.side][u.kind] |= BIT[cell]
        if u.kind is VMB:
            self.bases[u.side] += 1

    @classmethod
    def from_board(
        cls, units: Mapping[Cell, Unit], to_move: Side = Side.SOUTH, *, ply: int = 0, quiet: int = 0
    ) -> GameState:
        """Any position (tests, tutorials, perft files): ``units`` maps cell → :class:`Unit`.

        No fleet-size check is made; the side to move must have a legal action for play to go on.
        """
        state = cls()
        for cell, u in units.items():
            state._place(cell, u)
        state.to_move = Side(to_move)
        state.ply = ply
        state.quiet = quiet
        return state

    @classmethod
    def from_text(cls, text: str, to_move: Side = Side.SOUTH, *, ply: int = 0, quiet: int = 0) -> GameState:
        """A position from compact text: South's units, ``/``, North's units; each unit is its kind's
        code (ASCII or Russian) glued to its cell. Used by tests, perft files and tutorials.

        >>> s = GameState.from_text("Le5 KRPLa1 / KRe6")
        >>> s.units(Side.SOUTH), s.to_text()
        ({0: <Kind.KRPL: 7>, 64: <Kind.L: 1>}, 'KRPLa1 Le5 / KRe6')

        :raises IllegalAction: ``bad_position`` for a malformed text or a cell given twice.
        """
        halves = text.split("/")
        if len(halves) != 2:
            raise IllegalAction("bad_position", "a position is South's units, '/', North's units")
        units: dict[Cell, Unit] = {}
        for side, half in zip(Side, halves, strict=True):
            for token in half.split():
                m = _TOKEN_RE.fullmatch(token)
                if m is None:
                    raise IllegalAction("bad_position", f"{token!r} is not a unit: write kind then cell, e.g. 'Le5'")
                cell = parse_cell(m.group(2))
                if cell in units:
                    raise IllegalAction("bad_position", f"{m.group(2)} is given twice")
                units[cell] = unit(side, Kind.parse(m.group(1)))
        return cls.from_board(units, to_move, ply=ply, quiet=quiet)

    def to_text(self) -> str:
        """The position's units in the form :meth:`from_text` reads (ASCII codes, notation order)."""
        return " / ".join(" ".join(f"{k.code}{cell_name(c)}" for c, k in self.units(s).items()) for s in Side)

    @property
    def to_act(self) -> Side | None:
        """The side that must act now: the defender while a declaration is pending; ``None`` when over."""
        if self.result is not None:
            return None
        if self.pending is not None:
            return self.pending.defender
        return self.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (rules §10)."""
        return self.result is not None

    def copy(self) -> GameState:
        """An independent copy (cheap: the board is a flat list of shared unit objects)."""
        other = GameState.__new__(GameState)
        other.board = self.board.copy()
        other.cells = (self.cells[0].copy(), self.cells[1].copy())
        other.occupied = self.occupied.copy()
        other.kinds = (self.kinds[0].copy(), self.kinds[1].copy())
        other.to_move = self.to_move
        other.ply = self.ply
        other.quiet = self.quiet
        other.pending = self.pending
        other.result = self.result
        other.lost = (self.lost[0].copy(), self.lost[1].copy())
        other.bases = self.bases.copy()
        return other

    def units(self, side: Side) -> dict[Cell, Kind]:
        """The units of ``side``: cell → kind, in notation order. (True state: engine and server only.)"""
        board = self.board
        return {c: board[c].kind for c in sorted(self.cells[side])}

    def _key(self) -> tuple:
        return (
            tuple(None if u is None else (u.side, u.kind) for u in self.board),
            self.to_move, self.ply, self.quiet, self.pending, self.result,
            tuple(self.lost[0]), tuple(self.lost[1]),
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<GameState ply={self.ply} to_act={self.to_act!r} units={len(self.cells[0])}+{len(self.cells[1])}>"


# ---------------------------------------------------------------------------------------------
# Geometry of the rules: tethers, reach, formations. Shared by generation and validation.


def _near(board: list, cell: Cell, carrier: Unit) -> bool:
    """Whether ``carrier`` (a shared Unit object) stands 8-adjacent to ``cell``."""
    for n in RING[cell]:
        if board[n] is carrier:
            return True
    return False


def is_armed(state: GameState, cell: Cell) -> bool:
    """Whether the torpedo on ``cell`` is armed: an owner's ``TK`` is 8-adjacent (rules §7.2).

    :raises IllegalAction: ``no_torpedo`` if no torpedo stands on ``cell``.
    """
    u = state.board[cell]
    if u is None or u.kind is not T:
        raise IllegalAction("no_torpedo", f"{cell_name(cell)} holds no torpedo")
    return _near(state.board, cell, unit(u.side, TK))


def _targets(board: list, side: Side, pos: Cell, kind: Kind) -> list[Cell]:
    """Enemy cells the unit of ``kind`` on ``pos`` may attack now (rules §6), in a fixed order."""
    if kind in RATED or kind is BR:
        out: list[Cell] = []
        for t in ORTH[pos]:
            v = board[t]
            if v is not None and v.side is not side:
                out.append(t)
        return out
    if kind in CARRIER and kind is not M and _near(board, pos, _CARRIER_UNIT[side][kind]):
        return _strikes(board, side, pos, kind)
    return []


def _strikes(board: list, side: Side, pos: Cell, kind: Kind) -> list[Cell]:
    """Enemy cells within reach of the aircraft (``S``) or torpedo (``T``) on ``pos`` (rules §6), its carrier's
    presence not checked: along each ray, every enemy within 4 for the aircraft, the first unit within 2 for the
    torpedo if it is an enemy."""
    out: list[Cell] = []
    if kind is S:
        for ray in AIR_RAYS[pos]:
            for t in ray:
                v = board[t]
                if v is not None and v.side is not side:
                    out.append(t)
    else:
        for ray in TORPEDO_RAYS[pos]:
            for t in ray:
                v = board[t]
                if v is not None:
                    if v.side is not side:
                        out.append(t)
                    break
    return out


def formations_at(board: list, pos: Cell) -> list[tuple[Cell, ...]]:
    """Every formation of two or three members that contains the rated ship on ``pos`` (rules §7.1.3).

    Members are the owner's rated ships connected through shared sides (a non-member never links
    them), and the composition must be a row of the scale. Each formation is its sorted member cells;
    the list is sorted. The ship alone is not included. An empty list for units that cannot form.
    """
    u = board[pos]
    if u is None or u.kind not in FORMABLE:
        return []
    side, k0 = u.side, u.kind
    mates = []
    for n in ORTH[pos]:
        v = board[n]
        if v is not None and v.side is side and v.kind in FORMABLE:
            mates.append((n, v.kind))
    if not mates:
        return []
    found = []
    for i, (n1, k1) in enumerate(mates):
        if (k0, k1) in _GROUP_ROW:
            found.append(tuple(sorted((pos, n1))))
        for n2, k2 in mates[i + 1 :]:
            if (k0, k1, k2) in _GROUP_ROW:
                found.append(tuple(sorted((pos, n1, n2))))
        # A chain pos–n1–n2; n2 cannot also touch pos on a square grid, so nothing is found twice.
        for n2 in ORTH[n1]:
            if n2 != pos:
                v = board[n2]
                if v is not None and v.side is side and (k0, k1, v.kind) in _GROUP_ROW:
                    found.append(tuple(sorted((pos, n1, n2))))
    found.sort()
    return found


def _row(board: list, members: tuple[Cell, ...]) -> int:
    return SCALE[tuple(sorted(board[c].kind for c in members))]


def strongest_declaration(state: GameState) -> Declare:
    """The automatic defender's declaration (rules §7.1.2 [addition]).

    The highest row; among equal rows the fewest members, then the smallest total tonnage, then the
    members' cells in notation order.

    :raises IllegalAction: ``no_declaration_pending`` when no battle waits for a declaration.
    """
    p = state.pending
    if p is None:
        raise IllegalAction("no_declaration_pending", "no battle is waiting for a declaration")
    board = state.board

    def key(f: tuple[Cell, ...]) -> tuple:
        return (-_row(board, f), len(f), sum(board[c].kind.tonnage for c in f), f)

    return Declare(min(p.options, key=key))


def _can_step(board: list, side: Side, kind: Kind, src: Cell, dst: Cell) -> bool:
    """Tether rule (rules §5.2) for a step src→dst onto an empty cell; True for non-weapons."""
    carrier_kind = CARRIER.get(kind)
    if carrier_kind is None:
        return True
    carrier = unit(side, carrier_kind)
    return _near(board, src, carrier) or _near(board, dst, carrier)


# ---------------------------------------------------------------------------------------------
# Legal actions

# How generation treats each kind (indexed by Kind): one table lookup instead of set tests per unit.
_STILL, _PLAIN, _BOMB, _CONTACT, _FORMING, _WEAPON, _MINE = range(7)
_GEN = tuple(
    _STILL if k in IMMOBILE
    else _BOMB if k is AB
    else _FORMING if k in FORMABLE
    else _CONTACT if k in CONTACT
    else _WEAPON if k is S or k is T
    else _MINE if k is M
    else _PLAIN
    for k in Kind
)  # fmt: skip
#: Per cell, its steps as (destination, the shared Move): moves are immutable values, built once.
_STEPS: tuple[tuple[tuple[Cell, Move], ...], ...] = tuple(tuple((d, Move(c, d)) for d in ORTH[c]) for c in range(210))
_DETONATE = Detonate()


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the side to act, in a fixed order (rules §4–§8).

    Moves, attacks (one per declaration the attacker may make, ``()`` = alone), move-then-attacks and
    the detonation; during a pending battle, the defender's declarations. Resignation and the
    server's end actions are always accepted by :func:`apply` but are not listed. Empty when over.

    Order: the side's units in notation order; for each, the detonation (``AB``), attacks from where
    it stands, then each step in :data:`ORTH` order followed by the attacks from that step. Within an
    attack list: targets in reach order, each alone and then with each formation in sorted order.
    """
    if state.result is not None:
        return []
    if state.pending is not None:
        return [Declare(f) for f in state.pending.options]
    board = state.board
    side = state.to_move
    own = state.cells[side]
    enemy = state.cells[1 - side]
    # Cells with an enemy on one of their four sides, a bitboard: where a contact attack can start (rules §6).
    fronts = orth_spread(state.occupied[1 - side])
    # Cells a step from a front: a contact unit elsewhere has only its steps.
    reach = fronts | orth_spread(fronts)
    nears: dict[Kind, int] = {}  # per weapon kind: where its carrier is 8-adjacent (rules §5.2), a bitboard
    out: list[Action] = []
    append = out.append
    for c in sorted(own):
        u = board[c]
        gen = _GEN[u.kind]
        if gen == _STILL:
            continue
        if (gen == _CONTACT or gen == _FORMING) and not reach & BIT[c]:
            gen = _PLAIN  # two steps or more from every enemy: it has only its steps
        if gen == _CONTACT or gen == _FORMING:
            # Contact attacks (rules §6): enemies on the four sides of c, then of each step.
            if fronts & BIT[c]:
                _add_contact(board, enemy, c, None, c, gen, out)
            for d, move in _STEPS[c]:
                if board[d] is None:
                    append(move)
                    if fronts & BIT[d]:
                        if gen == _FORMING:  # formations are read with the ship standing on d
                            board[c] = None
                            board[d] = u
                            _add_contact(board, enemy, c, d, d, gen, out)
                            board[d] = None
                            board[c] = u
                        else:
                            _add_contact(board, enemy, c, d, d, gen, out)
        elif gen == _PLAIN or gen == _BOMB:
            if gen == _BOMB:
                append(_DETONATE)
            for d, move in _STEPS[c]:
                if board[d] is None:
                    append(move)
        else:
            # A weapon on its tether (rules §5.2): a step must start or end 8-adjacent to the carrier;
            # the aircraft and an armed torpedo strike from where the carrier is 8-adjacent (rules §6).
            near = nears.get(u.kind)
            if near is None:
                near = nears[u.kind] = ring_spread(state.kinds[side][CARRIER[u.kind]])
            near_c = near & BIT[c]
            if near_c and gen != _MINE:
                for t in _strikes(board, side, c, u.kind):
                    append(Attack(c, t))
            for d, move in _STEPS[c]:
                if board[d] is None:
                    near_d = near & BIT[d]
                    if near_c or near_d:
                        append(move)
                        if near_d and gen != _MINE:
                            board[c] = None  # a torpedo's ray from d passes over c once it has left
                            for t in _strikes(board, side, d, u.kind):
                                append(Attack(c, t, d))
                            board[c] = u
    return out


def _add_contact(board: list, enemy: set, src: Cell, via: Cell | None, pos: Cell, gen: int, out: list) -> None:
    targets = [t for t in ORTH[pos] if t in enemy]
    if gen == _FORMING:
        forms = formations_at(board, pos)
        if forms:
            for t in targets:
                out.append(Attack(src, t, via))
                for f in forms:
                    out.append(Attack(src, t, via, f))
            return
    for t in targets:
        out.append(Attack(src, t, via))


def has_legal_action(state: GameState) -> bool:
    """Whether the side to act has any legal action (rules §4.4), without listing them all."""
    if state.result is not None:
        return False
    if state.pending is not None:
        return True
    board = state.board
    side = state.to_move
    for c in state.cells[side]:
        k = board[c].kind
        if k in IMMOBILE:
            continue
        if k is AB:
            return True
        for d in ORTH[c]:
            if board[d] is None and (k not in CARRIER or _can_step(board, side, k, c, d)):
                return True
        if k in ATTACKERS and _targets(board, side, c, k):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Applying actions


def apply(state: GameState, action: Action) -> list[Event]:
    """Apply ``action`` for the side to act and return the events it caused, in order.

    The state changes in place only if the action is legal.

    :raises IllegalAction: with a stable ``code`` (``game_over``, ``declaration_pending``,
        ``no_declaration_pending``, ``bad_declaration``, ``bad_cell``, ``no_unit``, ``not_your_unit``, ``immobile``,
        ``not_adjacent``, ``occupied``, ``tethered``, ``cannot_attack``, ``bad_target``,
        ``bad_formation``, ``no_bomb``, ``bad_action``) and a reason; the state is unchanged.
    """
    if state.result is not None:
        raise IllegalAction("game_over", "the game is over: no further action is accepted (rules §10.4)")
    kind = type(action)
    if kind is Resign or kind is FlagFall or kind is Abandon:
        reason = {Resign: Reason.RESIGNATION, FlagFall: Reason.FLAG, Abandon: Reason.ABANDONMENT}[kind]
        return _finish(state, Result(action.side.opponent, reason))
    if kind is AgreeDraw:
        return _finish(state, Result(None, Reason.AGREEMENT))
    if state.pending is not None:
        if kind is not Declare:
            raise IllegalAction("declaration_pending", "a battle waits for the defender's declaration (rules §7.1.2)")
        return _apply_declare(state, action)
    if kind is Move:
        return _apply_move(state, action)
    if kind is Attack:
        return _apply_attack(state, action)
    if kind is Detonate:
        return _apply_detonate(state)
    if kind is Declare:
        raise IllegalAction("no_declaration_pending", "no battle is waiting for a declaration")
    raise IllegalAction("bad_action", f"not an action: {action!r}")


def _finish(state: GameState, result: Result) -> list[Event]:
    state.pending = None
    state.result = result
    state.ply += 1
    return [GameOver(state.ply - 1, result)]


def _check_cell(cell: object) -> None:
    """Every cell an action names must be a cell of the board (an action built in code may hold anything)."""
    if type(cell) is not int or not 0 <= cell < 210:
        raise IllegalAction("bad_cell", f"{cell!r} is not a cell")


def _own_mobile(state: GameState, cell: Cell) -> Unit:
    _check_cell(cell)
    u = state.board[cell]
    if u is None:
        raise IllegalAction("no_unit", f"{cell_name(cell)} is empty")
    if u.side is not state.to_move:
        raise IllegalAction("not_your_unit", f"{cell_name(cell)} holds no unit of yours")
    if u.kind in IMMOBILE:
        raise IllegalAction("immobile", f"{u.kind.ru} never moves (rules §5.1)")
    return u


def _check_step(state: GameState, u: Unit, src: Cell, dst: Cell) -> None:
    _check_cell(dst)
    if dst not in ORTH[src]:
        raise IllegalAction("not_adjacent", f"{cell_name(src)}-{cell_name(dst)} is not one step along a row or column")
    if state.board[dst] is not None:
        raise IllegalAction("occupied", f"{cell_name(dst)} is occupied (rules §5.1)")
    if not _can_step(state.board, u.side, u.kind, src, dst):
        carrier = CARRIER[u.kind]
        raise IllegalAction(
            "tethered",
            f"{u.kind.ru} may step only next to a {carrier.ru} before or after the step (rules §5.2)",
        )


def _apply_move(state: GameState, action: Move) -> list[Event]:
    u = _own_mobile(state, action.src)
    _check_step(state, u, action.src, action.dst)
    _step(state, u, action.src, action.dst)
    events: list[Event] = [Moved(state.ply, u.side, u.kind, action.src, action.dst)]
    state.ply += 1
    _end_turn(state, removed=False, events=events)
    return events


def _step(state: GameState, u: Unit, src: Cell, dst: Cell) -> None:
    board = state.board
    board[src] = None
    board[dst] = u
    cells = state.cells[u.side]
    cells.discard(src)
    cells.add(dst)
    moved = BIT[src] | BIT[dst]
    state.occupied[u.side] ^= moved
    state.kinds[u.side][u.kind] ^= moved


def _apply_attack(state: GameState, action: Attack) -> list[Event]:
    board = state.board
    src, via, target = action.src, action.via, action.target
    u = _own_mobile(state, src)
    _check_cell(target)
    if u.kind not in ATTACKERS:
        raise IllegalAction("cannot_attack", f"{u.kind.ru} never attacks (rules §6)")
    pos = src
    if via is not None:
        _check_step(state, u, src, via)
        pos = via
        board[src] = None
        board[via] = u
    try:
        if target not in _targets(board, u.side, pos, u.kind):
            raise IllegalAction("bad_target", _bad_target_reason(board, u, pos, target))
        formation = action.formation
        if formation and formation != (pos,) and formation not in formations_at(board, pos):
            raise IllegalAction(
                "bad_formation",
                f"[{'+'.join(cell_name(c) for c in formation)}] is not a formation of the attacker "
                "on the scale (rules §7.1.3)",
            )
    finally:
        if via is not None:
            board[via] = None
            board[src] = u
    # Legal: from here on the state changes.
    events: list[Event] = []
    if via is not None:
        _step(state, u, src, via)
        events.append(Moved(state.ply, u.side, u.kind, src, via))
    _resolve(state, u, pos, target, action.formation or (pos,), events)
    return events


def _bad_target_reason(board: list, u: Unit, pos: Cell, target: Cell) -> str:
    v = board[target] if 0 <= target < 210 else None
    where = cell_name(pos)
    if v is None:
        return f"{cell_name(target)} holds no unit to attack"
    if v.side is u.side:
        return "the target must be an enemy unit (rules §6)"
    if u.kind is S and not _near(board, pos, unit(u.side, A)):
        return f"the aircraft on {where} strikes only with a friendly А 8-adjacent (rules §6)"
    if u.kind is T and not _near(board, pos, unit(u.side, TK)):
        return f"the torpedo on {where} fires only with a friendly ТК 8-adjacent (rules §6)"
    return f"{cell_name(target)} is out of reach of {u.kind.ru} on {where} (rules §6)"


def _apply_detonate(state: GameState) -> list[Event]:
    side = state.to_move
    bomb = unit(side, AB)
    board = state.board
    pos = next((c for c in state.cells[side] if board[c] is bomb), None)
    if pos is None:
        raise IllegalAction("no_bomb", "you have no atomic bomb left to detonate")
    removed: list[Seen] = []
    _explode(state, pos, removed)
    report = BattleReport(
        state.ply, side, "detonation", Seen(side, AB, pos), None, (), (), None, None, tuple(removed), pos
    )
    events: list[Event] = [report]
    state.ply += 1
    _end_turn(state, removed=True, events=events)
    return events


def _apply_declare(state: GameState, action: Declare) -> list[Event]:
    p = state.pending
    for cell in action.formation:  # before the refusal below names them
        _check_cell(cell)
    if action.formation not in p.options:
        raise IllegalAction(
            "bad_declaration",
            f"{action} is not a declaration open to the attacked ship on {cell_name(p.target)} (rules §7.1.2)",
        )
    state.pending = None
    events: list[Event] = []
    _battle(state, p.side, p.src, p.target, p.formation, action.formation, events)
    return events


def _remove(state: GameState, cell: Cell, removed: list[Seen]) -> None:
    """Remove the unit on ``cell``; a carrier ``A`` takes its owner's ``S`` with it (rules §7.2, §8)."""
    board = state.board
    u = board[cell]
    if u is None:
        return
    board[cell] = None
    state.cells[u.side].discard(cell)
    state.occupied[u.side] ^= BIT[cell]
    state.kinds[u.side][u.kind] ^= BIT[cell]
    state.lost[u.side][u.kind] += 1
    if u.kind is VMB:
        state.bases[u.side] -= 1
    removed.append(Seen(u.side, u.kind, cell))
    if u.kind is A:
        plane = unit(u.side, S)
        for c in state.cells[u.side]:
            if board[c] is plane:
                _remove(state, c, removed)
                break


def _explode(state: GameState, center: Cell, removed: list[Seen]) -> None:
    """The atomic bomb on ``center`` explodes: every unit in the 5×5 square is removed (rules §8)."""
    board = state.board
    for c in BLAST[center]:
        if board[c] is not None:
            _remove(state, c, removed)


def _resolve(state: GameState, u: Unit, pos: Cell, target: Cell, formation: tuple[Cell, ...], events: list) -> None:
    """Resolve an attack by ``u`` on ``pos`` against ``target`` (rules §7); ends the turn or sets pending."""
    board = state.board
    v = board[target]
    side, ak, dk = u.side, u.kind, v.kind
    if ak in RATED and dk in RATED:
        options = ((target,), *formations_at(board, target))
        if len(options) > 1:
            state.pending = Pending(side, pos, target, formation, options)
            events.append(DeclarationRequested(state.ply, side.opponent, pos, target))
            state.ply += 1
            return
        _battle(state, side, pos, target, formation, options[0], events)
        return
    me = Seen(side, ak, pos)
    them = Seen(v.side, dk, target)
    removed: list[Seen] = []
    explosion = None
    if dk is AB:
        # rules §8: anything that attacks the bomb sets it off; the attacker dies only inside the square.
        explosion = target
        if ak is T:
            _remove(state, pos, removed)
        _explode(state, target, removed)
        method = {S: "air", T: "torpedo"}.get(ak, "contact")
    elif ak is S:
        method = "air"
        if dk in (L, R):
            _remove(state, pos, removed)  # AA fire
        elif dk in RATED or dk is A or dk is VMB:
            _remove(state, target, removed)
        elif dk is S:
            _remove(state, target, removed)
            _remove(state, pos, removed)
        # M, SM, T, BR: revealed, nothing removed.
    elif ak is T:
        method = "torpedo"
        _remove(state, pos, removed)
        _remove(state, target, removed)
    elif ak is BR:
        method = "contact"
        if dk is not S:  # BR on S: S revealed, nothing removed
            _remove(state, target, removed)
            _remove(state, pos, removed)
    else:  # a rated ship X on a unit that is not a rated ship (rules §7.2); its declaration is void
        method = "contact"
        if dk is A or dk is VMB:
            _remove(state, target, removed)
        elif dk is S:
            if ak in (L, R):
                _remove(state, target, removed)
            else:
                _remove(state, pos, removed)
        elif dk is T:
            armed = _near(board, target, unit(v.side, TK))
            _remove(state, target, removed)
            if armed:
                _remove(state, pos, removed)
        elif dk is M:
            _remove(state, target, removed)
            if ak is not TR:
                _remove(state, pos, removed)
        else:  # SM, BR
            _remove(state, target, removed)
            _remove(state, pos, removed)
    events.append(BattleReport(state.ply, side, method, me, them, (), (), None, None, tuple(removed), explosion))
    state.ply += 1
    _end_turn(state, removed=bool(removed), events=events)


def _battle(
    state: GameState,
    side: Side,
    pos: Cell,
    target: Cell,
    att: tuple[Cell, ...],
    dfn: tuple[Cell, ...],
    events: list,
) -> None:
    """An ordinary battle between two declarations (rules §7.1.4–5)."""
    board = state.board
    me = Seen(side, board[pos].kind, pos)
    them = Seen(side.opponent, board[target].kind, target)
    att_seen = tuple(Seen(side, board[c].kind, c) for c in att)
    def_seen = tuple(Seen(side.opponent, board[c].kind, c) for c in dfn)
    att_row, def_row = _row(board, att), _row(board, dfn)
    removed: list[Seen] = []
    if att_row <= def_row:
        for c in att:
            _remove(state, c, removed)
    if def_row <= att_row:
        for c in dfn:
            _remove(state, c, removed)
    events.append(
        BattleReport(state.ply, side, "contact", me, them, att_seen, def_seen, att_row, def_row, tuple(removed), None)
    )
    state.ply += 1
    _end_turn(state, removed=True, events=events)


def _end_turn(state: GameState, *, removed: bool, events: list) -> None:
    """Complete a turn: quiet-sea count, hand over the move, decide the end (rules §10).

    Order of the end checks: bases (both last bases at once is a draw), then the quiet-sea draw,
    then "the side to move has no legal action".
    """
    state.quiet = 0 if removed else state.quiet + 1
    state.to_move = state.to_move.opponent
    # A side loses when its last base is gone (a position set up without bases never ends this way).
    lost_s = state.bases[0] == 0 and state.lost[0][VMB] > 0
    lost_n = state.bases[1] == 0 and state.lost[1][VMB] > 0
    result = None
    if lost_s and lost_n:
        result = Result(None, Reason.BASES)
    elif lost_s or lost_n:
        result = Result(Side.NORTH if lost_s else Side.SOUTH, Reason.BASES)
    elif state.quiet >= QUIET_LIMIT:
        result = Result(None, Reason.QUIET_SEA)
    elif not has_legal_action(state):
        result = Result(state.to_move.opponent, Reason.NO_ACTIONS)
    if result is not None:
        state.result = result
        events.append(GameOver(state.ply - 1, result))
