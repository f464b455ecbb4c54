"""Actions, events and the true state of the extended variant (BATTLESHIP.md C3–C6, D5–D13).

:class:`ExtState` extends the classic :class:`~admiral.games.battleship.rules.GameState` through its hooks:
:meth:`~ExtState.answer` (a shot meets a mine or a minesweeper, C3), :meth:`~ExtState.effects` (a mine's
crosshair, a minesweeper's gold circle, D6), :meth:`~ExtState.shots_after` (either ends the turn, C3) and
:meth:`~ExtState.pass_turn` (energy at the start of a turn, C4); it adds the abilities (C5), the ultimates (C6, D8)
and the chance draws of D13.

Notation (what a client sends, what the record stores), beyond classic's shots and end actions:

=====================  ==============================================================================
``air b5``             «Авиаудар»: the cross centred at b5 (C5)
``sonar b5``           «Сонар 3×3» centred at b5 (C5)
``move a1-a2``         «Манёвр катера»: the own boat at a1 to a2 (C5, D9)
``carpet b5``          ultimate «Ковровый удар», 3×3 centred at b5 (C6, D8)
``satellite b5``       ultimate «Спутник-сканер», 5×5 centred at b5 (C6, D8)
``repair b5``          ultimate «Экстренный ремонт» of the own hit deck at b5 (C6, D10)
=====================  ==============================================================================

Decisions this engine takes where C and D leave room (each tested):

- energy is gained at the start of every own turn, the first one included (C4);
- a draw among one choice is no draw (nothing random happens): it takes no index ``k`` (D13);
- a self-reveal's chance is draw among 100, revealing when it is below the percent (C5), drawn only when there
  is a deck to reveal; the carpet strike reveals two decks of the user's ships of size ≥ 4 (C6), the satellite
  one deck of a size-2 ship;
- decks «already revealed» (D6) are those in the opponent's crosshairs and those the opponent ever hit;
- scans may be centred anywhere on the board; only attacks need an unshot cell (D7);
- the ring around an exploded mine or a destroyed minesweeper is known empty, like a sunk ship's (C2, A6).

>>> from admiral.games.battleship.rules import setup_from_text
>>> from .fleet import rules_from_options
>>> fleet = setup_from_text("4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6 M:j10 T:c10")
>>> s = ExtState.from_setups(rules_from_options({}), fleet, fleet, seed=5, first=Side.SOUTH)
>>> s.energy
[15, 10]
>>> [str(e) for e in s.apply(parse_action("j10"))]
['south j10: mine', 'north sees south a1', 'north to shoot (1)']
>>> s.energy, s.crosshairs[Side.NORTH], [d.to_dict() for d in s.draws]
([15, 15], {0: 0}, [{'k': 1, 'n': 20, 'value': 0, 'what': 'mine: which deck of south north sees'}])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from admiral.games.battleship.rules import (
    Action,
    Answer,
    Board,
    Cell,
    Event,
    GameState,
    IllegalAction,
    Placements,
    Ship,
    ShotFired,
    Side,
    cell_at,
    cell_col,
    cell_name,
    cell_row,
    check_setup,
    commitment,
    draw,
    figures_of,
    parse_cell,
    seed_bytes,
    ships_of,
)

from .fleet import (
    ABILITIES,
    AIR,
    CARPET,
    MINE,
    MOVE,
    REPAIR,
    SATELLITE,
    SONAR,
    ExtRules,
    cost,
    max_energy,
    reveal_chance,
    start_energy,
    ultimate_of,
)

__all__ = [
    "AREA_ABILITIES", "AbilityUsed", "AreaAbility", "Draw", "ExtState", "Handed", "Manoeuvre", "Manoeuvred",
    "Repair", "Repaired", "Scan", "Scanned", "Use", "area_cells", "parse_action",
]  # fmt: skip

#: The abilities aimed at a centre cell: ``<key> <cell>`` (C5, C6).
AREA_ABILITIES = (AIR, SONAR, CARPET, SATELLITE)
#: Opponent turns a level-7 manoeuvred boat stays invisible to sonar and satellite (C6, D11).
STEALTH_TURNS = 2


# -- actions ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class AreaAbility(Action):
    """An ability aimed at ``cell`` (its centre): ``ability`` one of :data:`AREA_ABILITIES` (C5, C6). Notation
    ``air b5``."""

    ability: str
    cell: Cell

    def __str__(self) -> str:
        return f"{self.ability} {cell_name(self.cell)}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Manoeuvre(Action):
    """«Манёвр катера»: the own boat at ``src`` to the orthogonally adjacent ``dst`` (C5, D9). Notation
    ``move a1-a2``."""

    src: Cell
    dst: Cell

    @property
    def ability(self) -> str:
        """``"move"``."""
        return MOVE

    def __str__(self) -> str:
        return f"move {cell_name(self.src)}-{cell_name(self.dst)}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Repair(Action):
    """«Экстренный ремонт» of the own hit deck at ``cell`` (C6, D10). Notation ``repair b5``."""

    cell: Cell

    @property
    def ability(self) -> str:
        """``"repair"``."""
        return REPAIR

    def __str__(self) -> str:
        return f"repair {cell_name(self.cell)}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


def parse_action(text: str) -> Action:
    """An action from its notation (module docstring; classic's shots and end actions too). Cells may be written
    as classic reads them (``Б5``); the grid is checked when the action is applied.

    >>> parse_action(" air  Б5 "), parse_action("move a1-a2"), parse_action("b5")
    (parse_action('air b5'), parse_action('move a1-a2'), Action.parse('b5'))

    :raises IllegalAction: ``bad_notation`` for anything else; ``bad_cell`` for a malformed cell after a known word.
    """
    if not isinstance(text, str):
        raise IllegalAction("bad_notation", f"{text!r} is not an action")
    words = text.split()
    if len(words) == 2:
        word = words[0].lower()
        if word in AREA_ABILITIES:
            return AreaAbility(word, parse_cell(words[1]))
        if word == REPAIR:
            return Repair(parse_cell(words[1]))
        if word == MOVE:
            ends = words[1].split("-")
            if len(ends) != 2:
                raise IllegalAction("bad_notation", f"{text!r}: a manoeuvre is 'move a1-a2'")
            return Manoeuvre(parse_cell(ends[0]), parse_cell(ends[1]))
    try:
        return Action.parse(text)
    except IllegalAction:
        raise IllegalAction(
            "bad_notation",
            f"{text!r} is not an action: a shot 'b5', 'air b5', 'sonar b5', 'move a1-a2', 'carpet b5', "
            "'satellite b5' or 'repair b5'",
        ) from None


# -- events -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Handed(Event):
    """``side`` was handed ``cell`` of the other side's grid at ply ``ply``: a deck (``kind`` ``"deck"``: a
    crosshair, for a mine hit or a self-reveal, C3, C5) or a mine (``kind`` ``"mine"``: a gold circle, for a
    minesweeper hit, C3); ``cause``: ``"mine"``, ``"sweeper"`` or the ability that revealed it."""

    ply: int
    side: Side
    cell: Cell
    kind: str
    cause: str

    def __str__(self) -> str:
        return f"{self.side.label} sees {self.side.opponent.label} {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class AbilityUsed(Event):
    """``side`` used ``ability`` at ``cell`` (``None`` for a manoeuvre: where a boat went is secret) for ``cost``
    energy at ply ``ply`` (C5, C6, D12)."""

    ply: int
    side: Side
    ability: str
    cell: Cell | None
    cost: int

    def __str__(self) -> str:
        where = "" if self.cell is None else f" {cell_name(self.cell)}"
        return f"{self.side.label} {self.ability}{where} ({self.cost})"


@dataclass(frozen=True, slots=True)
class Scanned(Event):
    """The answer of ``side``'s scan (:class:`Scan`)."""

    ply: int
    side: Side
    scan: Scan

    def __str__(self) -> str:
        return f"{self.side.label} {self.scan.ability} {cell_name(self.scan.center)}: {self.scan.answer}"


@dataclass(frozen=True, slots=True)
class Manoeuvred(Event):
    """``side``'s boat went from ``src`` to ``dst`` (C5, D9)."""

    ply: int
    side: Side
    src: Cell
    dst: Cell

    def __str__(self) -> str:
        return f"{self.side.label} boat {cell_name(self.src)}-{cell_name(self.dst)}"


@dataclass(frozen=True, slots=True)
class Repaired(Event):
    """``side`` repaired its deck at ``cell`` (C6, D10)."""

    ply: int
    side: Side
    cell: Cell

    def __str__(self) -> str:
        return f"{self.side.label} repaired {cell_name(self.cell)}"


# -- records kept by the state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """One random draw (D13): index ``k``, ``n`` choices, the ``value`` drawn (0 ≤ value < n) and ``what`` it
    decided (English)."""

    k: int
    n: int
    value: int
    what: str

    def to_dict(self) -> dict:
        """``{"k", "n", "value", "what"}``."""
        return {"k": self.k, "n": self.n, "value": self.value, "what": self.what}


@dataclass(frozen=True, slots=True)
class Scan:
    """A scan (sonar, satellite) at ply ``ply``: ``center``, the ``cells`` it covered (cut at the edge, reading
    order), ``answer`` (sonar: whether a whole enemy deck lies there; satellite: how many) and ``mines`` (level-6
    sonar: whether an active enemy mine lies there, D11; else ``None``). A view shows others the scan with both
    ``None`` (D12)."""

    ply: int
    ability: str
    center: Cell
    cells: tuple[Cell, ...]
    answer: bool | int | None
    mines: bool | None = None


@dataclass(frozen=True, slots=True)
class Use:
    """An ability used at ply ``ply`` at ``cell`` (``None`` for a manoeuvre): public (D12)."""

    ply: int
    ability: str
    cell: Cell | None


def area_cells(rules: ExtRules, ability: str, center: Cell) -> tuple[Cell, ...]:
    """The cells an ability aimed at ``center`` covers, cut at the board's edge (D7), reading order: the air
    strike's cross (C5), sonar's and carpet's 3×3, the satellite's 5×5.

    >>> from .fleet import rules_from_options
    >>> [cell_name(c) for c in area_cells(rules_from_options({}), "air", parse_cell("a1"))]
    ['a1', 'a2', 'b1']
    >>> len(area_cells(rules_from_options({}), "satellite", parse_cell("b2")))
    16
    """
    return _area(rules.board, ability, center)


@cache
def _area(board: Board, ability: str, center: Cell) -> tuple[Cell, ...]:
    if ability == AIR:
        return tuple(sorted((center, *board.orth[center])))
    half = ABILITIES[ability].area // 2
    r0, c0 = cell_row(center), cell_col(center)
    return tuple(
        cell_at(r, c)
        for r in range(max(0, r0 - half), min(board.height, r0 + half + 1))
        for c in range(max(0, c0 - half), min(board.width, c0 + half + 1))
    )


# -- the state ----------------------------------------------------------------------------------------------------


@dataclass
class _Extra:
    """The extended variant's part of the state (copied by :meth:`ExtState.copy`)."""

    seed: bytes
    levels: tuple[int, int]
    figures: tuple[dict[Cell, str], dict[Cell, str]]
    figure_state: tuple[dict[Cell, str], dict[Cell, str]]
    energy: list[int]
    crosshairs: tuple[dict[Cell, int], dict[Cell, int]]
    gold: tuple[dict[Cell, int], dict[Cell, int]]
    scans: tuple[list[Scan], list[Scan]]
    uses: tuple[list[Use], list[Use]]
    repaired: tuple[list[Cell], list[Cell]]
    manoeuvred: list[bool]
    ultimate_used: list[bool]
    stealth: list[tuple[Cell, int] | None]
    ability_used: bool = False
    turn_no: int = 1
    next_k: int = 1
    draws: list[Draw] = field(default_factory=list)


class ExtState(GameState):
    """The true state of one game of the extended variant: the classic fields (:class:`GameState`; ``fleets``
    change when a boat manoeuvres, and a repaired deck's shot leaves ``shots``, D10) plus

    - ``seed`` (32 bytes, D13), ``levels`` (per side, fixed at the start, D11), ``draws`` (every :class:`Draw`);
    - ``figures``: per side, cell → ``"M"``/``"T"``; ``figure_state``: cell → ``"active"``, ``"exploded"``
      (a mine), ``"sunk"`` (a minesweeper);
    - ``energy``: per side (C4); ``crosshairs``: per side, the enemy decks it was handed (cell → ply);
      ``gold``: per side, the enemy mines it was handed (cell → ply); ``scans``, ``uses``, ``repaired`` (own
      cells repaired) per side; ``manoeuvred``, ``ultimate_used`` per side (once per game, D9, C6);
      ``stealth``: per side, its level-7 boat's cell and the last turn it stays hidden (C6, D11);
      ``ability_used``: the side to act used its one ability of this turn (C5, D8); ``turn_no``: turns begun.
    """

    __slots__ = ("x",)

    x: _Extra

    def __init__(
        self,
        rules: ExtRules,
        fleets: tuple[tuple[Ship, ...], tuple[Ship, ...]],
        first: Side | None = None,
        *,
        seed: int | bytes,
        levels: tuple[int, int] = (1, 1),
        figures: tuple[dict[Cell, str], dict[Cell, str]] = ({}, {}),
    ) -> None:
        """The opening state: ``fleets`` (South's, North's ships), ``figures`` (per side, cell → ``"M"``/``"T"``),
        ``seed`` (an ``int`` or its 32 bytes, D13), ``levels`` (South's, North's, D11); ``first``: the first
        shooter, or ``None`` to take draw 0 of the seed (D2, D13). The first shooter's turn begins: it gains its
        energy (C4). Prefer :meth:`from_setups`."""
        raw = seed if isinstance(seed, bytes) else seed_bytes(seed)
        draws = []
        if first is None:
            first = Side(draw(raw, 0, 2))
            draws.append(Draw(0, 2, int(first), f"first shooter: {first.label}"))
        self.x = _Extra(
            seed=raw,
            levels=(levels[0], levels[1]),
            figures=(dict(figures[0]), dict(figures[1])),
            figure_state=({c: "active" for c in figures[0]}, {c: "active" for c in figures[1]}),
            energy=[start_energy(levels[0]), start_energy(levels[1])],
            crosshairs=({}, {}),
            gold=({}, {}),
            scans=([], []),
            uses=([], []),
            repaired=([], []),
            manoeuvred=[False, False],
            ultimate_used=[False, False],
            stealth=[None, None],
            draws=draws,
        )
        super().__init__(rules, fleets, first)
        self._gain(self.to_move)  # C4: the first shooter's turn begins

    @classmethod
    def from_setups(  # type: ignore[override]
        cls,
        rules: ExtRules,
        south: Placements,
        north: Placements,
        first: Side | None = None,
        *,
        seed: int | bytes,
        levels: tuple[int, int] = (1, 1),
    ) -> ExtState:
        """The opening state from both complete setups (ships, mines, minesweepers, C2), ply 0. ``first``: the
        first shooter, drawn from the seed (draw 0, D2, D13) when ``None``; ``levels``: South's and North's.

        :raises InvalidSetup: (``invalid_setup``) naming every problem of the first bad setup.
        """
        setups = (check_setup(rules, south), check_setup(rules, north))
        fleets = (ships_of(rules, setups[0]), ships_of(rules, setups[1]))
        figures = tuple({f.cells[0]: f.code for f in figures_of(rules, s)} for s in setups)
        return cls(rules, fleets, first, seed=seed, levels=levels, figures=figures)  # type: ignore[arg-type]

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def seed(self) -> bytes:
        """The game's 32-byte seed (D13): secret until the end."""
        return self.x.seed

    @property
    def commitment(self) -> str:
        """SHA-256 (hex) of the seed, public from the start (D13)."""
        return commitment(self.x.seed)

    @property
    def levels(self) -> tuple[int, int]:
        """South's and North's levels (D11)."""
        return self.x.levels

    @property
    def energy(self) -> list[int]:
        """South's and North's energy (C4)."""
        return self.x.energy

    @property
    def crosshairs(self) -> tuple[dict[Cell, int], dict[Cell, int]]:
        """Per side: the enemy decks it was handed, cell → ply (C3, C5)."""
        return self.x.crosshairs

    @property
    def gold(self) -> tuple[dict[Cell, int], dict[Cell, int]]:
        """Per side: the enemy mines it was handed, cell → ply (C3)."""
        return self.x.gold

    @property
    def draws(self) -> list[Draw]:
        """Every draw so far, in order (D13)."""
        return self.x.draws

    def max_energy(self, side: Side) -> int:
        """``side``'s energy cap (C4, C6)."""
        return max_energy(self.x.levels[side])

    def gain(self, side: Side) -> int:
        """What ``side`` gains at the start of its turn, as its fleet stands now (C4): +2 (+5 instead with fewer
        than 3 ships afloat), +2 while a ship of size ≥ 4 is afloat, +1 while a size-3 ship is afloat."""
        sizes = self._afloat_sizes(side)
        return (5 if self.afloat[side] < 3 else 2) + (2 if any(s >= 4 for s in sizes) else 0) + (1 if 3 in sizes else 0)

    def penalty(self, side: Side) -> int:
        """+1 energy per own ship hit but afloat, on every ability's cost (C6 decision, D8)."""
        return sum(1 for i, s in enumerate(self.fleets[side]) if 0 < self.damage[side][i] < s.size)

    def ability_cost(self, side: Side, key: str) -> int:
        """What ``key`` costs ``side`` now: its level's cost plus the penalty (C5, C6, D8)."""
        return cost(key, self.x.levels[side]) + self.penalty(side)

    def abilities_of(self, side: Side) -> tuple[str, ...]:
        """The abilities ``side`` has: air, sonar, manoeuvre and its level's ultimate if any (C5, C6)."""
        ultimate = ultimate_of(self.x.levels[side])
        return (AIR, SONAR, MOVE) + ((ultimate,) if ultimate else ())

    def active_mines(self, side: Side) -> list[Cell]:
        """``side``'s mines not exploded, reading order."""
        return sorted(
            c for c, code in self.x.figures[side].items() if code == MINE and self.x.figure_state[side][c] == "active"
        )

    def whole_decks(self, side: Side) -> list[Cell]:
        """``side``'s decks not hit, of ships afloat, reading order."""
        hit = self.shots[side.opponent]
        return sorted(
            c
            for i, ship in enumerate(self.fleets[side])
            if not self.ship_sunk(side, i)
            for c in ship.cells
            if c not in hit
        )

    def _afloat_sizes(self, side: Side) -> set[int]:
        return {s.size for i, s in enumerate(self.fleets[side]) if not self.ship_sunk(side, i)}

    def copy(self) -> ExtState:
        """An independent copy (fleets, rules and the immutable records shared)."""
        other: ExtState = super().copy()  # type: ignore[assignment]
        x = self.x
        other.x = _Extra(
            seed=x.seed,
            levels=x.levels,
            figures=x.figures,
            figure_state=(x.figure_state[0].copy(), x.figure_state[1].copy()),
            energy=x.energy.copy(),
            crosshairs=(x.crosshairs[0].copy(), x.crosshairs[1].copy()),
            gold=(x.gold[0].copy(), x.gold[1].copy()),
            scans=(x.scans[0].copy(), x.scans[1].copy()),
            uses=(x.uses[0].copy(), x.uses[1].copy()),
            repaired=(x.repaired[0].copy(), x.repaired[1].copy()),
            manoeuvred=x.manoeuvred.copy(),
            ultimate_used=x.ultimate_used.copy(),
            stealth=x.stealth.copy(),
            ability_used=x.ability_used,
            turn_no=x.turn_no,
            next_k=x.next_k,
            draws=x.draws.copy(),
        )
        return other

    def _key(self) -> tuple:
        return (*super()._key(), self.x)

    def __repr__(self) -> str:
        return f"<ExtState {self.rules.board_name} ply={self.ply} to_act={self.to_act} energy={self.x.energy}>"  # type: ignore[attr-defined]

    # -- chance (D13) -----------------------------------------------------------------------------------------

    def _draw(self, n: int, what: str) -> int:
        """The next draw among ``n`` choices (D13), logged; a single choice is no draw."""
        if n == 1:
            return 0
        k = self.x.next_k
        value = draw(self.x.seed, k, n)
        self.x.next_k += 1
        self.x.draws.append(Draw(k, n, value, what))
        return value

    def _hand_deck(self, to: Side, pool: list[Cell], cause: str) -> list[Event]:
        """Hand ``to`` one deck of the other side drawn evenly from ``pool`` (D6); nothing when it is empty."""
        if not pool:
            return []
        i = self._draw(len(pool), f"{cause}: which deck of {to.opponent.label} {to.label} sees")
        cell = pool[i]
        self.x.crosshairs[to][cell] = self.ply
        return [Handed(self.ply, to, cell, "deck", cause)]

    def _unrevealed(self, side: Side, sizes: Any = None) -> list[Cell]:
        """``side``'s whole decks the opponent does not know (D6): not in its crosshairs, never hit by it; only
        ships whose size passes ``sizes`` when given."""
        opp = side.opponent
        known = set(self.crosshairs[opp]) | {s.cell for s in self.history if s.side is opp and s.ship is not None}
        allowed = None
        if sizes is not None:
            allowed = {c for i, s in enumerate(self.fleets[side]) if sizes(s.size) for c in s.cells}
        return [c for c in self.whole_decks(side) if c not in known and (allowed is None or c in allowed)]

    def _self_reveal(self, side: Side, key: str, decks: int, sizes: Any) -> list[Event]:
        """A use's self-reveal (C5, C6 decisions): with the level's chance, ``decks`` of ``side``'s own decks of
        the ships ``sizes`` allows go to the opponent's crosshairs."""
        pool = self._unrevealed(side, sizes)
        if not pool:
            return []
        chance = reveal_chance(key, self.x.levels[side])
        if chance < 100:
            value = self._draw(100, f"{key} self-reveal of {side.label} ({chance} %)")
            if value >= chance:
                return []
        events: list[Event] = []
        for _ in range(decks):
            events += self._hand_deck(side.opponent, self._unrevealed(side, sizes), key)
        return events

    # -- hooks of the classic state ---------------------------------------------------------------------------

    def answer(self, side: Side, cell: Cell) -> ShotFired:
        """A shot meets an enemy mine (``mine``: exploded) or minesweeper (``sweeper``: destroyed) before any ship
        (C3); otherwise as classic (A5)."""
        target = side.opponent
        code = self.x.figures[target].get(cell)
        if code is None:
            return super().answer(side, cell)
        start = self.turn_shots == 0
        self.x.figure_state[target][cell] = "exploded" if code == MINE else "sunk"
        return ShotFired(self.ply, side, cell, Answer.MINE if code == MINE else Answer.SWEEPER, turn_start=start)

    def effects(self, shot: ShotFired) -> list[Event]:
        """A mine hands its owner a crosshair on one random whole deck of the shooter not yet revealed; a
        minesweeper makes the shooter hand its owner a gold circle on one of the shooter's active mines the owner
        does not know (C3, D6); none left → nothing."""
        shooter, owner = shot.side, shot.side.opponent
        if shot.answer is Answer.MINE:
            return self._hand_deck(owner, self._unrevealed(shooter), "mine")
        if shot.answer is Answer.SWEEPER:
            pool = [c for c in self.active_mines(shooter) if c not in self.gold[owner]]
            if not pool:
                return []
            i = self._draw(len(pool), f"sweeper: which mine of {shooter.label} {owner.label} sees")
            self.gold[owner][pool[i]] = self.ply
            return [Handed(self.ply, owner, pool[i], "mine", "sweeper")]
        return []

    def shots_after(self, shot: ShotFired) -> int:
        """A mine or a minesweeper ends the shooter's turn (C3); otherwise as A5."""
        if shot.answer in (Answer.MINE, Answer.SWEEPER):
            return 0
        return super().shots_after(shot)

    def pass_turn(self) -> list[Event]:
        """The classic turn change, then the new turn's energy (C4) and a fresh ability (C5, D8)."""
        events = super().pass_turn()
        self.x.turn_no += 1
        self.x.ability_used = False
        self._gain(self.to_move)
        return events

    def _gain(self, side: Side) -> None:
        self.x.energy[side] = min(self.max_energy(side), self.x.energy[side] + self.gain(side))

    # -- legality ---------------------------------------------------------------------------------------------

    def refusal(self, action: Action, side: Side | None = None) -> IllegalAction | None:
        """Why ``side`` (default: the side to act) may not use the ability ``action`` now, or ``None`` (the one
        code path of :meth:`apply` and :meth:`legal_actions`). Checks in this order: ``game_over``,
        ``no_ultimate``, ``used`` (what holds for the rest of the game), ``not_your_turn``, ``one_ability``,
        ``no_ship``, ``no_energy``, then the target's: ``nothing_to_shoot`` (D7), ``not_a_boat``, ``boat_hit``,
        ``not_adjacent``, ``shot_cell``, ``touching`` (D9), ``not_hit`` (D10)."""
        problem = self.ability_refusal(_key_of(action), side)
        if problem is not None:
            return problem
        return self._target_refusal(action, self.to_move if side is None else side)

    def ability_refusal(self, key: str, side: Side | None = None) -> IllegalAction | None:
        """Why ``side`` (default: the side to act) may not use ability ``key`` now, whatever its target, or
        ``None`` (C5, C6, D8, D9)."""
        if self.result is not None:
            return IllegalAction("game_over", f"the game is over ({self.result.reason})")
        side = self.to_move if side is None else side
        level = self.x.levels[side]
        ability = ABILITIES[key]
        # what holds for the rest of the game first (QA: a spent ability read «не ваш ход» in the opponent's turn)
        if ability.ultimate and ultimate_of(level) != key:
            return IllegalAction("no_ultimate", f"level {level} has no {key} (C6)")
        if (ability.ultimate and self.x.ultimate_used[side]) or (key == MOVE and self.x.manoeuvred[side]):
            return IllegalAction("used", f"{key} may be used once per battle (C5, C6)")
        if side is not self.to_move:
            return IllegalAction("not_your_turn", f"it is {self.to_move.label}'s turn, not {side.label}'s")
        if self.x.ability_used:
            return IllegalAction("one_ability", "one ability per turn (C5, D8)")
        if not self._has_ship(side, key):
            return IllegalAction("no_ship", f"{key} needs {_NEEDS[key]} afloat (C5, D8)")
        price = self.ability_cost(side, key)
        if self.x.energy[side] < price:
            return IllegalAction("no_energy", f"{key} costs {price} energy, {side.label} has {self.x.energy[side]}")
        return None

    def _has_ship(self, side: Side, key: str) -> bool:
        sizes = self._afloat_sizes(side)
        if key in (AIR, CARPET):
            return any(s >= 4 for s in sizes)
        if key in (SONAR, SATELLITE):
            return 2 in sizes
        if key == MOVE:
            return 1 in sizes
        return self.penalty(side) > 0  # repair: a hit ship afloat

    def _target_refusal(self, action: Action, side: Side) -> IllegalAction | None:
        board = self.rules.board
        if isinstance(action, AreaAbility):
            if action.cell not in board:
                return IllegalAction(
                    "bad_cell", f"{cell_name(action.cell)} is off the board: no {action.ability} there"
                )
            if ABILITIES[action.ability].attack and all(
                c in self.shots[side]
                for c in area_cells(self.rules, action.ability, action.cell)  # type: ignore[arg-type]
            ):
                return IllegalAction("nothing_to_shoot", f"every cell of the {action} area was shot already (D7)")
            return None
        if isinstance(action, Manoeuvre):
            return self._move_refusal(action, side)
        if isinstance(action, Repair):
            if action.cell not in board:
                return IllegalAction("bad_cell", f"{cell_name(action.cell)} is off the board")
            index = self.ship_at[side].get(action.cell)
            if index is not None and self.ship_sunk(side, index):
                return IllegalAction("no_ship", f"the ship at {cell_name(action.cell)} is sunk (C6)")
            if index is None or action.cell not in self.shots[side.opponent]:
                return IllegalAction("not_hit", f"no hit deck of {side.label} at {cell_name(action.cell)} (C6, D10)")
            return None
        raise IllegalAction("bad_notation", f"{action!r} is not an ability")

    def _move_refusal(self, move: Manoeuvre, side: Side) -> IllegalAction | None:
        board = self.rules.board
        for c in (move.src, move.dst):
            if c not in board:
                return IllegalAction("bad_cell", f"{cell_name(c)} is off the board")
        index = self.ship_at[side].get(move.src)
        if index is None or self.fleets[side][index].size != 1:
            return IllegalAction("not_a_boat", f"no boat (a 1-deck ship) of {side.label} at {cell_name(move.src)}")
        if self.damage[side][index]:
            return IllegalAction("boat_hit", f"the boat at {cell_name(move.src)} was hit (C5)")
        if move.dst not in board.orth[move.src]:
            return IllegalAction("not_adjacent", f"{cell_name(move.dst)} is not beside {cell_name(move.src)} (C5)")
        if move.dst in self.shots[side.opponent]:
            return IllegalAction("shot_cell", f"{cell_name(move.dst)} was shot by the opponent (D9)")
        others = {c for s in self.fleets[side] for c in s.cells} - {move.src} | set(self.x.figures[side])
        near = [c for c in (move.dst, *board.ring[move.dst]) if c in others]
        if near:
            return IllegalAction(
                "touching",
                f"the boat at {cell_name(move.dst)} would touch "
                f"{', '.join(cell_name(c) for c in sorted(near))} (C2, D9)",
            )
        return None

    def legal_actions(self) -> list[Action]:
        """Every concrete action the side to act may take now: the classic shots (every unshot cell, reading
        order), then per ability it may use (:meth:`abilities_of` order) every target: attacks at every centre
        whose area has an unshot cell (D7), scans at every cell, each boat's every legal destination, each hit
        deck to repair."""
        actions = super().legal_actions()
        if self.result is None:
            for key in self.abilities_of(self.to_move):
                actions += self.targets(key)
        return actions

    def targets(self, key: str, side: Side | None = None) -> list[Action]:
        """The actions of ability ``key`` that ``side`` (default: the side to act) may take now (none when it may
        not use it, :meth:`ability_refusal`)."""
        side = self.to_move if side is None else side
        if self.ability_refusal(key, side) is not None:
            return []
        board = self.rules.board
        if key in AREA_ABILITIES:
            if not ABILITIES[key].attack:
                return [AreaAbility(key, c) for c in board.cells]  # a scan may look anywhere on the board
            shot = self.shots[side]
            return [
                AreaAbility(key, c) for c in board.cells if any(n not in shot for n in _area(board, key, c))
            ]  # D7: an attack needs an unshot cell
        elif key == MOVE:
            candidates = [
                Manoeuvre(s.cells[0], d)
                for i, s in enumerate(self.fleets[side])
                if s.size == 1 and not self.ship_sunk(side, i)
                for d in board.orth[s.cells[0]]
            ]
        else:
            candidates = [Repair(c) for c in sorted(self.shots[side.opponent]) if c in self.ship_at[side]]
        return [a for a in candidates if self._target_refusal(a, side) is None]

    # -- application ------------------------------------------------------------------------------------------

    def apply(self, action: Action, by: Side | None = None) -> list[Event]:
        """Apply ``action``: an ability (module docstring) or as classic (a shot, an end action).

        :raises IllegalAction: :meth:`refusal`'s codes for an ability, classic's otherwise; the state is
            unchanged then (nothing spent).
        """
        if not isinstance(action, AreaAbility | Manoeuvre | Repair):
            return super().apply(action, by)
        problem = self.refusal(action, by)
        if problem is not None:
            raise problem
        side = self.to_move
        key = _key_of(action)
        price = self.ability_cost(side, key)
        self.x.energy[side] -= price
        self.x.ability_used = True
        if ABILITIES[key].ultimate:
            self.x.ultimate_used[side] = True
        cell = None if isinstance(action, Manoeuvre) else action.cell  # type: ignore[union-attr]
        self.x.uses[side].append(Use(self.ply, key, cell))
        events: list[Event] = [AbilityUsed(self.ply, side, key, cell, price)]
        if isinstance(action, AreaAbility) and ABILITIES[key].attack:
            events += self._attack(side, action)
        elif isinstance(action, AreaAbility):
            events += self._scan(side, action)
        elif isinstance(action, Manoeuvre):
            events += self._manoeuvre(side, action)
        else:
            events += self._repair(side, action)  # type: ignore[arg-type]
        if self.result is not None:
            return events
        if ABILITIES[key].ends_turn:
            self.shots_left = 0
            events += self.pass_turn()
        self.ply += 1
        return events

    def _attack(self, side: Side, action: AreaAbility) -> list[Event]:
        """Air strike or carpet: every unshot cell of the area in reading order, each answered as a shot with its
        effects; the win counts at once (D7). Then the self-reveal (C5, C6)."""
        events: list[Event] = []
        for c in area_cells(self.rules, action.ability, action.cell):  # type: ignore[arg-type]
            if c in self.shots[side]:
                continue
            events += self.fire(side, c)
            self.turn_shots += 1
            if self.result is not None:
                return events
        decks = 2 if action.ability == CARPET else 1
        return events + self._self_reveal(side, action.ability, decks, lambda size: size >= 4)

    def _visible_decks(self, side: Side) -> set[Cell]:
        """The whole decks of ``side``'s opponent a scan of ``side`` may find: a level-7 boat that manoeuvred is
        hidden during its owner's opponent's next two turns (C6, D11)."""
        target = side.opponent
        decks = set(self.whole_decks(target))
        hidden = self.x.stealth[target]
        if hidden is not None and self.x.turn_no <= hidden[1]:
            decks.discard(hidden[0])
        return decks

    def _scan(self, side: Side, action: AreaAbility) -> list[Event]:
        """Sonar (yes/no: a whole enemy deck in the 3×3; level 6: and an active enemy mine) or satellite (how many
        whole enemy decks in the 5×5), C5, C6, D11; then the self-reveal of a size-2 ship's deck."""
        cells = area_cells(self.rules, action.ability, action.cell)  # type: ignore[arg-type]
        decks = self._visible_decks(side)
        found = sum(1 for c in cells if c in decks)
        mines = None
        if action.ability == SONAR and self.x.levels[side] >= 6:
            mines = any(c in self.active_mines(side.opponent) for c in cells)
        scan = Scan(
            self.ply, action.ability, action.cell, cells, found if action.ability == SATELLITE else found > 0, mines
        )
        self.x.scans[side].append(scan)
        return [Scanned(self.ply, side, scan), *self._self_reveal(side, action.ability, 1, lambda size: size == 2)]

    def _manoeuvre(self, side: Side, move: Manoeuvre) -> list[Event]:
        """The boat moves (C5); an enemy crosshair on it is removed (D9); level 7 hides it (C6, D11)."""
        index = self.ship_at[side][move.src]
        fleet = list(self.fleets[side])
        fleet[index] = Ship(fleet[index].code, (move.dst,))
        fleets = list(self.fleets)
        fleets[side] = tuple(fleet)
        self.fleets = tuple(fleets)  # type: ignore[assignment]
        ship_at = list(self.ship_at)
        ship_at[side] = {c: i for i, s in enumerate(fleet) for c in s.cells}
        self.ship_at = tuple(ship_at)  # type: ignore[assignment]
        self.x.crosshairs[side.opponent].pop(move.src, None)
        self.x.manoeuvred[side] = True
        if self.x.levels[side] >= 7:
            self.x.stealth[side] = (move.dst, self.x.turn_no + 2 * STEALTH_TURNS - 1)
        return [Manoeuvred(self.ply, side, move.src, move.dst)]

    def _repair(self, side: Side, repair: Repair) -> list[Event]:
        """The deck is whole again; the opponent's shot there leaves its shots, so the cell may be shot again
        (C6, D10)."""
        index = self.ship_at[side][repair.cell]
        self.damage[side][index] -= 1
        del self.shots[side.opponent][repair.cell]
        self.x.repaired[side].append(repair.cell)
        return [Repaired(self.ply, side, repair.cell)]


#: What each ability needs afloat (C5, D8), for the refusal's reason.
_NEEDS = {
    AIR: "a ship of size 4 or more", CARPET: "a ship of size 4 or more", SONAR: "a 2-deck ship",
    SATELLITE: "a 2-deck ship", MOVE: "an unhit boat", REPAIR: "a hit ship",
}  # fmt: skip


def _key_of(action: Action) -> str:
    if isinstance(action, AreaAbility):
        return action.ability
    if isinstance(action, Manoeuvre):
        return MOVE
    if isinstance(action, Repair):
        return REPAIR
    raise IllegalAction("bad_notation", f"{action!r} is not an ability")
