"""Sides, orders (actions), events, the true state, legal orders and their application (NAVAL_GAME.md §3–§7).

:class:`GameState` is the whole truth of one game; everything sent out goes through :func:`~.view.view`. Legality
has one code path: :meth:`GameState.check` validates an order and returns its plan; :meth:`GameState.apply` runs
the plan, :meth:`GameState.legal_actions` lists exactly the orders :meth:`GameState.check` accepts.

A **ply** is one applied action (one player's turn, or an end such as a resignation); ``state.ply`` counts them.

Notation (what a client sends, what the record stores; tokens separated by one space)
=======================  ===============================================================================
``d2-d3``                the ship at d2 steps forward, bow first, to the free point d3 (§3)
``d2>`` / ``d2<``        the ship at d2 turns its bow 90° to the right (clockwise) / to the left (§3)
``d2xd3``                the ship at d2 strikes the enemy ship at d3, ahead of it, and takes its point (§4)
``+a1`` / ``-a1``        the minesweeper at a1 lays a mine from the reserve / lifts the mine there (§3, §7.2)
``+a1 a1-a2``            the minesweeper lays (or lifts, ``-a1``) at its point, then steps (or turns, strikes)
``a1-a2 +a2``            the minesweeper steps (or strikes), then lays (or lifts) at its new point (§7.2)
``resign south``         a side resigns (any time while the game goes on; ``flag``/``abandon``: the server's)
``draw``                 draw by agreement (§6)
=======================  ===============================================================================

A turn with a mine is written with the mine first (``+a1 a1>``): the point does not change, so both orders are the
same turn; ``a1> +a1`` is read and written back that way. ``d2>>`` (a half-turn in one go) is read so that it can
be refused with its own reason (``turn_too_far``).

Decisions this engine takes where NAVAL_GAME.md leaves room (each tested, each also in ``docs/naval.md``):

- **Mines have no owner once laid.** §5 rolls for "a ship … that enters a mined point" without naming whose mine;
  a lifted mine goes to the lifter's reserve whoever laid it (§3). So a player's own mine threatens its own ships.
- **The striker entering a gun or mined point rolls**, like any ship entering it (§5 speaks of entering; §7.4
  exempts only the strike that ends the game).
- **A mine after the step is skipped if the minesweeper sank on entering** (an enemy gun: the minesweeper is
  immune to mines only, §5): the turn stands, the reserve and the point are as they were.
- **"100 turns each without a sinking"** (§6) is 200 plies with no ship sunk by any cause (strike, gun, mine); the
  game is drawn after the 200th. A mine-only turn is a turn.
- **A side whose own roll sinks its last ship loses** (the whole fleet destroyed, §6), whoever was to move.
- **Rolls are numbered from 0** in the order they happen (roll k = :func:`~admiral.games.common.draw` of the seed,
  k, 6; «взрыв» on 0, §7.5), so the house's browser check of draws (``static/js/core/chance.js``) checks them.

>>> s = GameState.start(seed=1)
>>> [str(e) for e in s.apply(Order.parse("d2-d3"))]
['south G1 d2-d3']
>>> s.to_act, s.ply, len(s.legal_actions())
(<Side.NORTH: 1>, 1, 38)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from ...common import IllegalAction, Result, commitment, draw, seed_bytes
from .board import GUNS, LAND, MAP, Facing, Point, name, parse_point
from .fleet import MINES, START, START_FACING, Kind, Struck, may_strike, struck_side

__all__ = [
    "FACES", "QUIET_PLIES", "Abandon", "Action", "AgreeDraw", "Event", "FlagFall", "GameOver", "GameState", "MineLaid",
    "MineLifted", "MineOp", "Moved", "Order", "Reason", "Resign", "Result", "Roll", "Ship", "Side", "Strike",
    "Sunk", "Turned", "Verb", "apply", "legal_actions",
]  # fmt: skip

#: Plies without a sinking after which the game is drawn: 100 turns each (§6).
QUIET_PLIES = 200
#: The die's faces (§5, §7.5); face 0 is «взрыв».
FACES = 6


class Side(IntEnum):
    """A player: ``SOUTH`` (0, moves first, §7.1) or ``NORTH`` (1); ``label`` is its wire name."""

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
        for s in cls:
            if label == s.label:
                return s
        raise IllegalAction("bad_side", f"{label!r} is not a side: 'south' or 'north'")


class Reason(StrEnum):
    """Why a game ended (§6, §7.7): the whole fleet destroyed, no legal turn, 100 quiet turns each, a resignation,
    a flag fall, abandonment, an agreed draw."""

    FLEET_DESTROYED = "fleet_destroyed"
    NO_MOVES = "no_moves"
    QUIET = "quiet"
    RESIGN = "resign"
    FLAG = "flag"
    ABANDON = "abandon"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Ship:
    """A ship afloat: ``id`` (its code and number in its fleet, ``C1``; stable for the whole game), ``side``,
    ``kind``, ``facing``."""

    id: str
    side: Side
    kind: Kind
    facing: Facing

    def token(self, point: Point) -> str:
        """Position-text token: code, point, facing letter (``Cd1n``)."""
        return f"{self.kind.code}{name(point)}{self.facing.letter}"


# -- actions ------------------------------------------------------------------------------------------------------


class Verb(StrEnum):
    """What the ship of an order does: ``step`` forward, ``turn``, ``strike``, or ``none`` (a mine alone)."""

    STEP = "step"
    TURN = "turn"
    STRIKE = "strike"
    NONE = "none"


class Action:
    """Base of every action: small immutable values whose ``str`` is their notation (module docstring)."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Action:
        """An action from its notation; white space around and between tokens is ignored.

        >>> Action.parse(" D2-D3 "), Action.parse("a1> +a1"), Action.parse("resign north")
        (Action.parse('d2-d3'), Action.parse('+a1 a1>'), Action.parse('resign north'))

        :raises IllegalAction: ``bad_notation`` naming what is wrong; ``off_map`` for a point outside the map;
            ``one_ship_a_turn``, ``one_mine_a_turn`` for two moves or two mines in one turn.
        """
        if not isinstance(text, str):
            raise IllegalAction("bad_notation", f"{text!r} is not an action")
        words = text.split()
        if words == ["draw"]:
            return AgreeDraw()
        if len(words) == 2 and words[0] in _ENDS:
            return _ENDS[words[0]](Side.parse(words[1]))
        return Order.parse(text)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class MineOp:
    """Laying (``lay``) or lifting a mine at ``point`` (§3, §7.2). Notation ``+a1`` / ``-a1``."""

    lay: bool
    point: Point

    def __str__(self) -> str:
        return f"{'+' if self.lay else '-'}{name(self.point)}"


_MOVE_RE = re.compile(r"([a-z]\d+)(?:([-x])([a-z]\d+)|([<>]+))")
_MINE_RE = re.compile(r"([+-])([a-z]\d+)")


@dataclass(frozen=True, slots=True, repr=False)
class Order(Action):
    """One player's turn (§3): the own ship at ``src`` does ``verb`` (``dst`` the point ahead for a step or a
    strike; ``quarters`` the 90° turns, +1 right, −1 left: only ±1 is legal), and the minesweeper's ``mine``
    (:class:`MineOp`) before it (``mine_after`` false) or after it. A mine alone is ``verb`` ``none`` with ``src``
    the mine's point. A turn's mine is always kept as "before" (the same turn either way)."""

    src: Point
    verb: Verb
    dst: Point | None = None
    quarters: int = 0
    mine: MineOp | None = None
    mine_after: bool = False

    def __post_init__(self) -> None:
        if self.verb in (Verb.TURN, Verb.NONE) and self.mine_after:
            object.__setattr__(self, "mine_after", False)

    @classmethod
    def parse(cls, text: str) -> Order:
        """An order from its notation (module docstring). :raises IllegalAction: as :meth:`Action.parse`."""
        words = text.lower().split()
        move: tuple[int, Order] | None = None
        mine: tuple[int, MineOp] | None = None
        for i, w in enumerate(words):
            if (m := _MINE_RE.fullmatch(w)) is not None:
                if mine is not None:
                    raise IllegalAction("one_mine_a_turn", "the minesweeper lays or lifts one mine a turn (§7.2)")
                mine = (i, MineOp(m.group(1) == "+", parse_point(m.group(2))))
            elif (m := _MOVE_RE.fullmatch(w)) is not None:
                if move is not None:
                    raise IllegalAction("one_ship_a_turn", "one ship moves, turns or strikes per turn (§3)")
                src = parse_point(m.group(1))
                if m.group(4):
                    turns = m.group(4)
                    if len(set(turns)) != 1:
                        raise IllegalAction("bad_notation", f"{w!r}: a turn is '>' (right) or '<' (left)")
                    sign = 1 if turns[0] == ">" else -1
                    move = (i, cls(src, Verb.TURN, quarters=sign * len(turns)))
                else:
                    verb = Verb.STEP if m.group(2) == "-" else Verb.STRIKE
                    move = (i, cls(src, verb, parse_point(m.group(3))))
            else:
                raise IllegalAction(
                    "bad_notation",
                    f"{text!r} is not an action: a step 'd2-d3', a turn 'd2>' or 'd2<', a strike 'd2xd3', "
                    "a mine '+a1' or '-a1', 'resign south' or 'draw'",
                )
        if move is None and mine is None:
            raise IllegalAction("bad_notation", "an empty action")
        if move is None:
            assert mine is not None
            return cls(mine[1].point, Verb.NONE, mine=mine[1])
        order = move[1]
        if mine is None:
            return order
        return cls(order.src, order.verb, order.dst, order.quarters, mine[1], mine[0] > move[0])

    def _move_text(self) -> str:
        if self.verb is Verb.TURN:
            return name(self.src) + (">" if self.quarters > 0 else "<") * abs(self.quarters)
        sep = "-" if self.verb is Verb.STEP else "x"
        return f"{name(self.src)}{sep}{name(self.dst)}"  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.verb is Verb.NONE:
            return str(self.mine)
        move = self._move_text()
        if self.mine is None:
            return move
        return f"{move} {self.mine}" if self.mine_after else f"{self.mine} {move}"


@dataclass(frozen=True, slots=True, repr=False)
class Resign(Action):
    """``side`` resigns: the other side wins (§7.7)."""

    side: Side

    def __str__(self) -> str:
        return f"resign {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class FlagFall(Action):
    """``side``'s clock ran out (the server's action): the other side wins (§7.7)."""

    side: Side

    def __str__(self) -> str:
        return f"flag {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class Abandon(Action):
    """``side`` left past the grace time (the server's action): the other side wins (§7.7)."""

    side: Side

    def __str__(self) -> str:
        return f"abandon {self.side.label}"


@dataclass(frozen=True, slots=True, repr=False)
class AgreeDraw(Action):
    """Both sides agreed to a draw (§6)."""

    def __str__(self) -> str:
        return "draw"


_ENDS: dict[str, type[Resign] | type[FlagFall] | type[Abandon]] = {
    "resign": Resign, "flag": FlagFall, "abandon": Abandon,
}  # fmt: skip
_END_REASON = {Resign: Reason.RESIGN, FlagFall: Reason.FLAG, Abandon: Reason.ABANDON}


# -- events -------------------------------------------------------------------------------------------------------


class Event:
    """Base of the events :meth:`GameState.apply` returns: what happened (all of it public, §5 "open board")."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """At ply ``ply`` ``side``'s ship ``ship`` stepped from ``src`` to ``dst`` (§3)."""

    ply: int
    side: Side
    ship: str
    src: Point
    dst: Point

    def __str__(self) -> str:
        return f"{self.side.label} {self.ship} {name(self.src)}-{name(self.dst)}"


@dataclass(frozen=True, slots=True)
class Turned(Event):
    """At ply ``ply`` ``side``'s ship ``ship`` at ``point`` turned from ``before`` to ``after`` (§3)."""

    ply: int
    side: Side
    ship: str
    point: Point
    before: Facing
    after: Facing

    def __str__(self) -> str:
        return f"{self.side.label} {self.ship} {name(self.point)} {self.before.letter}>{self.after.letter}"


@dataclass(frozen=True, slots=True)
class Strike(Event):
    """At ply ``ply`` ``side``'s ship ``ship`` at ``src`` struck ``target`` (the enemy's ship id) at ``dst`` on
    its ``struck`` side and took its point (§4); the target's :class:`Sunk` follows."""

    ply: int
    side: Side
    ship: str
    src: Point
    dst: Point
    target: str
    struck: Struck

    def __str__(self) -> str:
        return f"{self.side.label} {self.ship} {name(self.src)}x{name(self.dst)} {self.target} ({self.struck})"


@dataclass(frozen=True, slots=True)
class MineLaid(Event):
    """At ply ``ply`` ``side``'s minesweeper laid a mine at ``point``; ``reserve``: its reserve after (§3)."""

    ply: int
    side: Side
    point: Point
    reserve: int

    def __str__(self) -> str:
        return f"{self.side.label} lays a mine at {name(self.point)}"


@dataclass(frozen=True, slots=True)
class MineLifted(Event):
    """At ply ``ply`` ``side``'s minesweeper lifted the mine at ``point`` into its reserve (``reserve`` after)."""

    ply: int
    side: Side
    point: Point
    reserve: int

    def __str__(self) -> str:
        return f"{self.side.label} lifts the mine at {name(self.point)}"


@dataclass(frozen=True, slots=True)
class Roll(Event):
    """Roll ``k`` of the die (§5, §7.5): ``value`` 0–5 (0 is «взрыв»), at ply ``ply``, for ``side``'s ship ``ship``
    (a ``kind``) entering ``point``, ``cause`` ``"mine"`` or ``"gun"``."""

    k: int
    value: int
    ply: int
    side: Side
    ship: str
    kind: Kind
    point: Point
    cause: str

    @property
    def explosion(self) -> bool:
        """«взрыв»: the ship sinks."""
        return self.value == 0

    def to_dict(self) -> dict:
        """``{"k", "n": 6, "value", "explosion", "what", "ply", "side", "ship", "kind", "point", "cause"}``: the
        house's draw entry (``k``, ``n``, ``value``, ``what``: the browser re-checks it against the seed) with the
        ship it concerned."""
        return {
            "k": self.k, "n": FACES, "value": self.value, "explosion": self.explosion, "what": str(self),
            "ply": self.ply, "side": self.side.label, "ship": self.ship, "kind": self.kind.code,
            "point": name(self.point), "cause": self.cause,
        }  # fmt: skip

    def __str__(self) -> str:
        boom = "взрыв" if self.explosion else "survives"
        return f"{self.cause} at {name(self.point)}: {self.side.label} {self.ship} — {boom}"


@dataclass(frozen=True, slots=True)
class Sunk(Event):
    """At ply ``ply`` ``side``'s ship ``ship`` (``kind``) sank at ``point`` by ``cause`` (``"strike"``, ``"mine"``,
    ``"gun"``); ``by``: the striker's id for a strike."""

    ply: int
    side: Side
    ship: str
    kind: Kind
    point: Point
    cause: str
    by: str | None = None

    def to_dict(self) -> dict:
        """``{"ply", "side", "ship", "kind", "point", "cause", "by"}``."""
        return {
            "ply": self.ply, "side": self.side.label, "ship": self.ship, "kind": self.kind.code,
            "point": name(self.point), "cause": self.cause, "by": self.by,
        }  # fmt: skip

    def __str__(self) -> str:
        return f"{self.side.label} {self.ship} sunk at {name(self.point)} ({self.cause})"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended at ply ``ply`` with ``result``."""

    ply: int
    result: Result

    def __str__(self) -> str:
        winner = "draw" if self.result.winner is None else f"{self.result.winner.label} wins"
        return f"game over: {winner} ({self.result.reason})"


# -- the state ----------------------------------------------------------------------------------------------------


@dataclass
class _Plan:
    """A checked order: the ship, what it does, what it meets."""

    ship: Ship
    order: Order
    facing: Facing | None = None
    target: Ship | None = None
    struck: Struck | None = None


@dataclass
class GameState:
    """The true state of one game (treat the fields as read-only outside the rules):

    - ``ships``: point → :class:`Ship` afloat (both sides); ``mines``: mined points (§3, no owner);
    - ``reserve``: mines in each side's reserve (``[south, north]``, 3 each at the start, §2; a lifted enemy mine
      adds to it);
    - ``to_move``: the side whose turn it is (South first, §7.1); ``ply``: actions applied so far;
    - ``quiet``: plies since the last sinking (§6: :data:`QUIET_PLIES` draws);
    - ``seed``: the die's 32 bytes (§7.5); ``rolls``: every roll so far (:class:`Roll`, ``k`` = its index);
    - ``sunk``: every sinking (:class:`Sunk`), in order; ``result``: the :class:`Result` once over.
    """

    ships: dict[Point, Ship]
    seed: bytes
    mines: set[Point] = field(default_factory=set)
    reserve: list[int] = field(default_factory=lambda: [MINES, MINES])
    to_move: Side = Side.SOUTH
    ply: int = 0
    quiet: int = 0
    rolls: list[Roll] = field(default_factory=list)
    sunk: list[Sunk] = field(default_factory=list)
    result: Result | None = None

    @classmethod
    def start(cls, seed: int | bytes) -> GameState:
        """The opening (§2): both fleets at their start points, bows toward the enemy, 3 mines each, South to
        move; ``seed`` the die's seed (an ``int`` as the house stores it, or its 32 bytes)."""
        ships: dict[Point, Ship] = {}
        for side in Side:
            ships.update(_fleet(side, START[side], START_FACING[side]))
        return cls(ships, seed if isinstance(seed, bytes) else seed_bytes(seed))

    @classmethod
    def from_text(cls, text: str, to_move: Side | str = Side.SOUTH, seed: int | bytes = 0) -> GameState:
        """A position from :meth:`to_text` (tests, perft, lessons): ``"<South's ships> / <North's ships>"``,
        optionally ``" / mines a5 c4 / reserve 3 2"``; a ship is ``<code><point><facing>`` (``Cd1n``). Ship ids
        are given per kind in the order of the side's own rows (as at the start).

        :raises IllegalAction: ``bad_position`` for anything malformed (a point twice, land, a kind too many).
        """
        parts = [p.strip() for p in text.split("/")]
        if len(parts) < 2:
            raise IllegalAction(
                "bad_position", "a position is '<south ships> / <north ships> [/ mines …] [/ reserve …]'"
            )
        ships: dict[Point, Ship] = {}
        for side, part in zip(Side, parts[:2], strict=True):
            placed: dict[Point, tuple[Kind, Facing]] = {}
            for token in part.split():
                m = re.fullmatch(r"([A-Z])([a-z]\d+)([nesw])", token)
                kind = Kind.of_code(m.group(1)) if m else None
                if m is None or kind is None:
                    raise IllegalAction("bad_position", f"{token!r} is not a ship: code, point, facing ('Cd1n')")
                p = parse_point(m.group(2))
                if p in ships or p in placed or p in LAND:
                    raise IllegalAction("bad_position", f"{token!r}: {name(p)} is land or taken")
                placed[p] = (kind, Facing.parse(m.group(3)))
            for kind in Kind:
                if sum(1 for k, _ in placed.values() if k is kind) > kind.count:
                    raise IllegalAction("bad_position", f"{side.label} has more than {kind.count} × {kind.en}")
            ships.update(_fleet(side, {p: k for p, (k, _) in placed.items()}, {p: f for p, (_, f) in placed.items()}))
        state = cls(ships, seed if isinstance(seed, bytes) else seed_bytes(seed), to_move=Side.parse(to_move))
        for part in parts[2:]:
            words = part.split()
            if words and words[0] == "mines":
                state.mines = {parse_point(w) for w in words[1:]}
            elif len(words) == 3 and words[0] == "reserve" and all(w.isdigit() for w in words[1:]):
                state.reserve = [int(words[1]), int(words[2])]
            else:
                raise IllegalAction("bad_position", f"{part!r}: expected 'mines <points>' or 'reserve <n> <n>'")
        if state.mines & LAND:
            raise IllegalAction("bad_position", "a mine on land")
        return state

    def to_text(self) -> str:
        """The position as text (:meth:`from_text`): each side's ships in point order, then mines and reserves.

        >>> GameState.start(0).to_text()[:40]
        'Ma1n Tb1n Tc1n Cd1n Be1n Cf1n Tg1n Th1n '
        """
        sides = [" ".join(s.token(p) for p, s in sorted(self.ships.items()) if s.side is side) for side in Side]
        mines = " ".join(name(p) for p in sorted(self.mines))
        return f"{sides[0]} / {sides[1]} / mines {mines}".rstrip() + f" / reserve {self.reserve[0]} {self.reserve[1]}"

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def to_act(self) -> Side | None:
        """The side that must act now; ``None`` when the game is over."""
        return None if self.result is not None else self.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    @property
    def commitment(self) -> str:
        """The SHA-256 (hex) of the die's seed, shown from the start (§7.5)."""
        return commitment(self.seed)

    def fleet(self, side: Side) -> dict[Point, Ship]:
        """``side``'s ships afloat by point."""
        return {p: s for p, s in self.ships.items() if s.side is side}

    def afloat(self, side: Side) -> int:
        """How many ships ``side`` has afloat."""
        return sum(1 for s in self.ships.values() if s.side is side)

    def copy(self) -> GameState:
        """An independent copy (ships and logged events are immutable and shared)."""
        return GameState(
            dict(self.ships), self.seed, set(self.mines), list(self.reserve), self.to_move, self.ply, self.quiet,
            list(self.rolls), list(self.sunk), self.result,
        )  # fmt: skip

    # -- legality: one code path ----------------------------------------------------------------------------

    def check(self, order: Order, by: Side | None = None) -> _Plan:
        """The plan of a legal ``order`` of the side to move; nothing changes.

        :raises IllegalAction: ``game_over``; ``not_your_turn`` (``by`` is not to move); ``no_ship`` (no ship at
            the point named), ``not_your_ship``; ``not_adjacent`` (a step or strike is one point), ``sideways``,
            ``stern_first``, ``land``, ``occupied`` (a step onto a ship: an enemy is struck with ``x``),
            ``no_target``, ``own_ship``, ``stern`` (§4: never the stern), ``bow_not_senior`` (§4: only a senior ship
            strikes the bow); ``turn_too_far`` (§3: a turn is 90°); for mines ``not_minesweeper``,
            ``mine_elsewhere`` (at the minesweeper's own point only), ``no_mines`` (the reserve is empty),
            ``already_mined`` (one mine per point, §7.2), ``no_mine``, ``mine_after_win`` (§7.4: the game ended).
        """
        if self.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.result.reason}): {order} is not accepted")
        side = self.to_move
        if by is not None and by is not side:
            raise IllegalAction("not_your_turn", f"it is {side.label}'s turn, not {by.label}'s")
        ship = self.ships.get(order.src)
        if ship is None:
            who = "your minesweeper (it lays and lifts mines at its own point)" if order.verb is Verb.NONE else "a ship"
            raise IllegalAction("no_ship", f"there is no ship at {name(order.src)}: name the point of {who}")
        if ship.side is not side:
            raise IllegalAction("not_your_ship", f"the ship at {name(order.src)} is {ship.side.label}'s")
        plan = _Plan(ship, order)
        if order.verb is Verb.TURN:
            if abs(order.quarters) != 1:
                raise IllegalAction("turn_too_far", "a turn is 90° left or right: a half-turn takes two turns (§3)")
            plan.facing = ship.facing.right if order.quarters > 0 else ship.facing.left
        elif order.verb in (Verb.STEP, Verb.STRIKE):
            self._check_ahead(plan)
        if order.mine is not None:
            self._check_mine(plan)
        return plan

    def _check_ahead(self, plan: _Plan) -> None:
        ship, order = plan.ship, plan.order
        dst = order.dst
        assert dst is not None
        way = MAP.direction(order.src, dst)
        verb = "step" if order.verb is Verb.STEP else "strike"
        if way is None:
            raise IllegalAction("not_adjacent", f"a {verb} reaches the next point along a line, not {name(dst)} (§3)")
        if way is ship.facing.back:
            raise IllegalAction("stern_first", f"{ship.id} at {name(order.src)} faces {ship.facing.letter}: "
                                f"{name(dst)} is astern, and a ship never moves stern first (§3)")  # fmt: skip
        if way is not ship.facing:
            raise IllegalAction("sideways", f"{ship.id} at {name(order.src)} faces {ship.facing.letter}: "
                                f"{name(dst)} is abeam, and a ship never moves sideways (§3); turn first")  # fmt: skip
        if dst in LAND:
            raise IllegalAction("land", f"{name(dst)} is land: no ship enters or crosses it (§1)")
        other = self.ships.get(dst)
        if order.verb is Verb.STEP:
            if other is not None:
                hint = f": strike it with {name(order.src)}x{name(dst)}" if other.side is not ship.side else ""
                raise IllegalAction("occupied", f"{name(dst)} is taken by {other.side.label}'s {other.id}{hint} (§3)")
            return
        if other is None:
            raise IllegalAction("no_target", f"there is no ship at {name(dst)} to strike (§4)")
        if other.side is ship.side:
            raise IllegalAction("own_ship", f"{name(dst)} holds your own {other.id} (§4)")
        struck = struck_side(ship.facing, other.facing)
        if struck is Struck.STERN:
            raise IllegalAction("stern", f"{other.id} at {name(dst)} turns its stern to {ship.id}: "
                                "the stern may never be struck (§4)")  # fmt: skip
        if not may_strike(ship.kind, other.kind, struck):
            raise IllegalAction("bow_not_senior", f"{ship.kind.en} {ship.id} is not senior to {other.kind.en} "
                                f"{other.id}: it may strike it on the broadside only, not the bow (§4)")  # fmt: skip
        plan.target, plan.struck = other, struck

    def _check_mine(self, plan: _Plan) -> None:
        ship, order = plan.ship, plan.order
        op = order.mine
        assert op is not None
        if ship.kind is not Kind.MINESWEEPER:
            raise IllegalAction("not_minesweeper", f"only the minesweeper lays and lifts mines, not {ship.kind.en} "
                                f"{ship.id} (§3)")  # fmt: skip
        at = order.dst if order.mine_after else order.src
        if op.point != at:
            raise IllegalAction("mine_elsewhere", f"the minesweeper lays or lifts a mine at its own point "
                                f"({name(at)} {'after' if order.mine_after else 'before'} its move), "
                                f"not at {name(op.point)} (§3)")  # fmt: skip
        if op.lay:
            if self.reserve[ship.side] <= 0:
                raise IllegalAction("no_mines", "your reserve has no mine left to lay (§2, §3)")
            if op.point in self.mines:
                raise IllegalAction("already_mined", f"{name(op.point)} is mined already: one mine per point (§7.2)")
        elif op.point not in self.mines:
            raise IllegalAction("no_mine", f"there is no mine at {name(op.point)} to lift (§3)")
        if order.mine_after and plan.target is not None and self.afloat(plan.target.side) == 1:
            raise IllegalAction("mine_after_win", "this strike sinks the last enemy ship and ends the game (§7.4)")

    def is_legal(self, order: Order) -> bool:
        """Whether ``order`` is legal now (:meth:`check`)."""
        try:
            self.check(order)
        except IllegalAction:
            return False
        return True

    def legal_actions(self) -> list[Order]:
        """The orders the side to move may give now, by ship in point order: step or strike, turn left, turn
        right, then the minesweeper's combinations with a mine (before, after) and its mine alone (§3, §4, §7.2).
        None once the game is over. End actions are not listed."""
        if self.result is not None:
            return []
        out: list[Order] = []
        for src, ship in sorted(self.ships.items()):
            if ship.side is not self.to_move:
                continue
            moves: list[Order] = []
            dst = MAP.ahead(src, ship.facing)
            if dst is not None and dst not in LAND:
                other = self.ships.get(dst)
                if other is None:
                    moves.append(Order(src, Verb.STEP, dst))
                elif other.side is not ship.side and may_strike(
                    ship.kind, other.kind, struck_side(ship.facing, other.facing)
                ):
                    moves.append(Order(src, Verb.STRIKE, dst))
            moves += [Order(src, Verb.TURN, quarters=-1), Order(src, Verb.TURN, quarters=1)]
            out += moves
            if ship.kind is Kind.MINESWEEPER:
                out += self._mine_orders(src, ship, moves)
        return out

    def _mine_orders(self, src: Point, ship: Ship, moves: list[Order]) -> list[Order]:
        def ops(at: Point) -> list[MineOp]:
            if at in self.mines:
                return [MineOp(False, at)]
            return [MineOp(True, at)] if self.reserve[ship.side] > 0 else []

        out = []
        for m in moves:
            out += [Order(m.src, m.verb, m.dst, m.quarters, op) for op in ops(src)]
            if m.dst is not None:
                target = self.ships.get(m.dst)
                if target is None or self.afloat(target.side) > 1:
                    out += [Order(m.src, m.verb, m.dst, m.quarters, op, True) for op in ops(m.dst)]
        out += [Order(src, Verb.NONE, mine=op) for op in ops(src)]
        return out

    def has_legal_action(self) -> bool:
        """Whether the side to move has a legal turn (§6). While it has a ship afloat it can always turn it
        (§7.7), so this is false only for an empty fleet."""
        return self.result is None and any(s.side is self.to_move for s in self.ships.values())

    # -- application -----------------------------------------------------------------------------------------

    def apply(self, action: Action, by: Side | None = None) -> list[Event]:
        """Apply ``action`` and return the events it caused, in order (a mine before, the move, a strike's
        sinking, the rolls on entering and their sinkings, a mine after, the end).

        ``by``: the side that sent it, when known (an order from the other side is refused; a resignation only
        for the sender's own side).

        :raises IllegalAction: the codes of :meth:`check`, ``not_your_side`` for a resignation on the other's
            behalf, ``bad_notation``; the state is unchanged then.
        """
        if isinstance(action, Order):
            return self._play(self.check(action, by))
        if self.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.result.reason}): {action} is not accepted")
        if isinstance(action, AgreeDraw):
            return self._end(Result(None, Reason.DRAW), [])
        if isinstance(action, Resign | FlagFall | Abandon):
            if by is not None and isinstance(action, Resign) and by is not action.side:
                raise IllegalAction("not_your_side", f"{by.label} cannot resign for {action.side.label}")
            return self._end(Result(action.side.opponent, _END_REASON[type(action)]), [])
        raise IllegalAction("bad_notation", f"{action!r} is not an action of «Военно-морская игра»")

    def _play(self, plan: _Plan) -> list[Event]:
        side, ship, order = self.to_move, plan.ship, plan.order
        events: list[Event] = []
        sunk_before = len(self.sunk)
        if order.mine is not None and not order.mine_after and order.verb is not Verb.NONE:
            events.append(self._mine(side, order.mine))
        if order.verb is Verb.TURN:
            assert plan.facing is not None
            self.ships[order.src] = Ship(ship.id, side, ship.kind, plan.facing)
            events.append(Turned(self.ply, side, ship.id, order.src, ship.facing, plan.facing))
        elif order.verb in (Verb.STEP, Verb.STRIKE):
            dst = order.dst
            assert dst is not None
            del self.ships[order.src]
            if plan.target is not None:
                assert plan.struck is not None
                target = plan.target
                events.append(Strike(self.ply, side, ship.id, order.src, dst, target.id, plan.struck))
                events.append(self._sink(target, dst, "strike", ship.id))
            else:
                events.append(Moved(self.ply, side, ship.id, order.src, dst))
            self.ships[dst] = ship
            if self.afloat(side.opponent) == 0:  # §7.4: the last enemy ship sunk ends the game at once
                return self._end(Result(side, Reason.FLEET_DESTROYED), events)
            events += self._enter(ship, dst)
            if order.mine is not None and order.mine_after and self.ships.get(dst) is ship:
                events.append(self._mine(side, order.mine))
        elif order.mine is not None:
            events.append(self._mine(side, order.mine))
        self.quiet = 0 if len(self.sunk) > sunk_before else self.quiet + 1
        for loser in (side, side.opponent):
            if self.afloat(loser) == 0:
                return self._end(Result(loser.opponent, Reason.FLEET_DESTROYED), events)
        if self.quiet >= QUIET_PLIES:
            return self._end(Result(None, Reason.QUIET), events)
        self.to_move = side.opponent
        if not self.has_legal_action():  # §6; unreachable while a ship is afloat (§7.7)
            return self._end(Result(side, Reason.NO_MOVES), events)
        self.ply += 1
        return events

    def _mine(self, side: Side, op: MineOp) -> Event:
        if op.lay:
            self.mines.add(op.point)
            self.reserve[side] -= 1
            return MineLaid(self.ply, side, op.point, self.reserve[side])
        self.mines.discard(op.point)
        self.reserve[side] += 1
        return MineLifted(self.ply, side, op.point, self.reserve[side])

    def _enter(self, ship: Ship, point: Point) -> list[Event]:
        """The rolls for ``ship`` entering ``point`` (§5, §7.3): the mine first (not for the minesweeper or the
        submarine), then an enemy coastal gun (not for the submarine) unless the mine sank it."""
        events: list[Event] = []
        if ship.kind is Kind.SUBMARINE:
            return events
        causes = []
        if point in self.mines and ship.kind is not Kind.MINESWEEPER:
            causes.append("mine")
        if point in GUNS[ship.side.opponent]:
            causes.append("gun")
        for cause in causes:
            roll = Roll(len(self.rolls), draw(self.seed, len(self.rolls), FACES), self.ply, ship.side, ship.id,
                        ship.kind, point, cause)  # fmt: skip
            self.rolls.append(roll)
            events.append(roll)
            if roll.explosion:
                del self.ships[point]
                events.append(self._sink(ship, point, cause))
                break
        return events

    def _sink(self, ship: Ship, point: Point, cause: str, by: str | None = None) -> Sunk:
        sunk = Sunk(self.ply, ship.side, ship.id, ship.kind, point, cause, by)
        self.sunk.append(sunk)
        return sunk

    def _end(self, result: Result, events: list[Event]) -> list[Event]:
        self.result = result
        events.append(GameOver(self.ply, result))
        self.ply += 1
        return events


def _fleet(side: Side, kinds: dict[Point, Kind], facing: Facing | dict[Point, Facing]) -> dict[Point, Ship]:
    """``side``'s ships with their ids: per kind, numbered in the order of the side's own rows (its coast first,
    then from its left), the number left out for a kind of one ship (``B``, ``C1``, ``C2``…)."""
    order = sorted(kinds, key=lambda p: p if side is Side.SOUTH else MAP.rotate(p))
    seen: dict[Kind, int] = {}
    out = {}
    for p in order:
        kind = kinds[p]
        seen[kind] = seen.get(kind, 0) + 1
        ident = kind.code if kind.count == 1 else f"{kind.code}{seen[kind]}"
        out[p] = Ship(ident, side, kind, facing[p] if isinstance(facing, dict) else facing)
    return out


def legal_actions(state: GameState) -> list[Order]:
    """:meth:`GameState.legal_actions`."""
    return state.legal_actions()


def apply(state: GameState, action: Action | str, by: Side | None = None) -> list[Event]:
    """:meth:`GameState.apply`, reading notation too."""
    return state.apply(Action.parse(action) if isinstance(action, str) else action, by)
