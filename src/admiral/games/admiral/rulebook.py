"""What the rules page («Правила», ``GET /rules``) draws, computed by the engine itself.

The page's prose lives in ``templates/rules.html``; the pictures and tables whose content is a fact of the
rules are computed here from :mod:`admiral.games.admiral.rules`, so they cannot disagree with the game:

- :func:`diagrams`: small cut-outs of the board around a unit on a constructed position, marked as the game
  board marks a selected unit — green dots (``move``) where the engine's legal actions step, red crosses
  (``target``) on what they attack;
- :func:`scale_rows`: the scale of strength (rules §7.1) from :data:`admiral.games.admiral.rules.SCALE`;
- :func:`collisions`: the outcome of each special collision (rules §7.2) by applying the attack to a small
  position and reading the battle report.

Everything is computed once (the engine is deterministic) and cached.

>>> d = diagrams()["contact"]
>>> sorted(d.moves), sorted(d.targets)
(['g7'], ['g9', 'h8'])
>>> scale_rows()[0].row, scale_rows()[0].text
(21, '2 Л')
>>> c = collisions()["ship_on_plane"]
>>> c.attacker_removed, c.target_removed
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from admiral.games.admiral.rules import (
    SCALE,
    Action,
    Attack,
    BattleReport,
    Detonate,
    GameState,
    Kind,
    Move,
    Side,
    apply,
    cell_name,
    formations_at,
    legal_actions,
    parse_cell,
)
from admiral.games.admiral.rules.board import BLAST, COLUMNS_RU, HEIGHT, WIDTH, cell_at, cell_col, cell_row

__all__ = [
    "Collision",
    "Diagram",
    "DiagramCell",
    "ScaleRow",
    "board_picture",
    "collision_outcome",
    "collisions",
    "composition_text",
    "diagrams",
    "scale_rows",
]

A, L, KR, R, ES, ST, TK, KRPL, TR, PL, S, T, M, SM, BR, AB, VMB = Kind


# ---------------------------------------------------------------------------------------------
# Diagrams


@dataclass(frozen=True, slots=True)
class DiagramCell:
    """One cell of a diagram: its notation (``g8``) and Russian name (``Ж8``), checkerboard shade, the
    board's CSS classes on it (``move``, ``target``, ``selected``, ``ghost-from``, ``member``, ``blast``,
    ``last-removed``) and the unit standing on it as ``(owner, kind code)``: ``("own", "KR")`` for South's
    (the reader's) units, ``("enemy", None)`` for North's closed markers."""

    name: str
    ru: str
    alt: bool
    marks: tuple[str, ...]
    unit: tuple[str, str | None] | None


@dataclass(frozen=True, slots=True)
class Diagram:
    """A square cut-out of the board (rows top → bottom as South sees them) and what the engine says about
    the unit on ``focus``: the cells it may step to (``moves``) and attack (``targets``), by notation."""

    id: str
    size: int
    rows: tuple[tuple[DiagramCell, ...], ...]
    focus: str
    moves: frozenset[str]
    targets: frozenset[str]

    @property
    def cells(self) -> dict[str, DiagramCell]:
        """The diagram's cells by notation."""
        return {c.name: c for row in self.rows for c in row}


@dataclass(frozen=True, slots=True)
class _Spec:
    """A diagram to compute: South's units / North's units (``GameState.from_text``), South to move.

    ``focus``: the unit whose reach is drawn; ``via``: draw its attacks after a step there (move, then
    attack); ``radius``: half the window; ``formation``: outline the largest formation of the focus
    (``member``); ``blast``: shade the bomb's 5×5 square (``before``), or also set the bomb off and draw the
    board after it, the removed units' cells marked as the game board marks them (``after``).
    """

    position: str
    focus: str
    via: str | None = None
    radius: int = 3
    formation: bool = False
    blast: str | None = None
    show_moves: bool = True


_BLAST = "ABg8 KRf7 Le8 Af9 Sd9 / ESh10 Li9 ESf6 ESj8 ESg11"

#: The diagrams of the rules page, by the id the template uses. The unit in focus is South's (the reader's);
#: North's units are enemy markers. Written around g8, in open sea.
_DIAGRAMS: dict[str, _Spec] = {
    # §5.1 a step along a row or column onto an empty cell; no jumps, no diagonals
    "move": _Spec("KRg8 ESg9 / ESf10 ESe8", "g8"),
    # §6 contact attack: the 4 orthogonal neighbours; a diagonal enemy is not in reach
    "contact": _Spec("KRg8 ESf8 / ESh8 ESg9 ESh9", "g8"),
    # §4.2 move, then attack from the new cell
    "move_attack": _Spec("KRg8 / ESg10 ESh9 ESe8", "g8", via="g9"),
    # §7.1.3 a formation: three cruisers linked through sides; only the attacker touches the target
    "formation": _Spec("KRg8 KRf8 KRf7 ESe6 / ESh8 ESg10", "g8", formation=True),
    # the carrier moves but never attacks
    "carrier": _Spec("Ag8 Sg9 / ESh8", "g8"),
    # §6 air strike: distance 1–4 along the row or column, units in between do not block
    "aircraft": _Spec("Sg8 Af7 ESg10 / ESg11 ESe8 ESk8 ESh10 ESg3", "g8", radius=5),
    # §5.2, §6 an aircraft far from every carrier neither moves nor strikes
    "aircraft_alone": _Spec("Sg8 Ac5 / ESg10 ESe8", "g8", radius=4),
    # §6 torpedo: the first unit within 2 in each direction; a friendly first unit blocks
    "torpedo": _Spec("Tg8 TKh7 STf8 / ESg10 ESe8 ESi8 ESg5", "g8"),
    # §7.2 a dummy torpedo (no torpedo boat 8-adjacent) neither moves nor fires
    "torpedo_dummy": _Spec("Tg8 TKj5 / ESg10 ESh8", "g8"),
    # the mine moves next to a destroyer and never attacks
    "mine": _Spec("Mg8 ESf9 / ESh8", "g8"),
    # §5.2 tether: a step is allowed if the carrier is 8-adjacent before or after it
    "tether": _Spec("Mg8 ESi8 /", "g8"),
    # the fireship attacks by contact
    "fireship": _Spec("BRg8 ESf8 / ESh8 ESg9", "g8"),
    # the atomic bomb moves like a ship
    "bomb": _Spec("ABg8 / ESh8", "g8"),
    # §8 the explosion: the 5×5 square, both sides' units, before and after
    "blast": _Spec(_BLAST, "g8", blast="before", show_moves=False),
    "blast_after": _Spec(_BLAST, "g8", blast="after", show_moves=False),
}


def _window(center: str, radius: int) -> tuple[list[int], list[int]]:
    """Columns left → right and rows top → bottom of the square window around ``center``, kept on the board."""
    c0 = parse_cell(center)
    col, row = cell_col(c0), cell_row(c0)
    size = 2 * radius + 1
    left = min(max(col - radius, 0), WIDTH - size)
    bottom = min(max(row - radius, 0), HEIGHT - size)
    return list(range(left, left + size)), list(range(bottom + size - 1, bottom - 1, -1))


def _diagram(key: str, spec: _Spec) -> Diagram:
    state = GameState.from_text(spec.position, Side.SOUTH)
    focus = parse_cell(spec.focus)
    via = parse_cell(spec.via) if spec.via else None
    marks: dict[int, list[str]] = {}

    def mark(cell: int, cls: str) -> None:
        marks.setdefault(cell, []).append(cls)

    moves: set[int] = set()
    targets: set[int] = set()
    for action in legal_actions(state):
        if isinstance(action, Move) and action.src == focus and via is None:
            moves.add(action.dst)
        elif isinstance(action, Attack) and action.src == focus and action.via == via:
            targets.add(action.target)
    if via is not None and Move(focus, via) not in legal_actions(state):
        raise ValueError(f"diagram {key}: {spec.focus}-{spec.via} is not a legal step")
    board = {c: u for c, u in enumerate(state.board) if u is not None}
    if via is not None:  # as the game board shows a move awaiting its attack: the unit on via, a ghost behind
        board[via] = board.pop(focus)
        mark(focus, "ghost-from")
        mark(via, "selected")
    elif spec.blast is None:
        mark(focus, "selected")
    if spec.show_moves:
        for c in moves:
            mark(c, "move")
    for c in targets:
        mark(c, "target")
    if spec.formation:
        forms = formations_at(state.board, focus)
        if not forms:
            raise ValueError(f"diagram {key}: no formation at {spec.focus}")
        best = max(forms, key=lambda f: (SCALE[tuple(sorted(state.board[c].kind for c in f))], len(f)))
        for c in best:
            mark(c, "member")
    if spec.blast is not None:
        for c in BLAST[focus]:
            mark(c, "blast")
    if spec.blast == "after":
        events = apply(state, Detonate())
        report = next(e for e in events if isinstance(e, BattleReport))
        for seen in report.removed:
            mark(seen.cell, "last-removed")
        board = {c: u for c, u in enumerate(state.board) if u is not None}
    cols, rows = _window(spec.focus, spec.radius)
    grid = []
    for r in rows:
        line = []
        for c in cols:
            cell = cell_at(c, r)
            u = board.get(cell)
            unit = None
            if u is not None:
                unit = ("own", u.kind.code) if u.side is Side.SOUTH else ("enemy", None)
            name = cell_name(cell)
            shade = bool((c + r) % 2)
            line.append(DiagramCell(name, COLUMNS_RU[c] + name[1:], shade, tuple(marks.get(cell, ())), unit))
        grid.append(tuple(line))
    shown = {cell_at(c, r) for c in cols for r in rows}
    missing = (moves | targets) - shown
    if missing:
        raise ValueError(f"diagram {key}: {sorted(map(cell_name, missing))} fall outside the window")
    return Diagram(
        key, len(cols), tuple(grid), spec.focus,
        frozenset(map(cell_name, moves)) if spec.show_moves else frozenset(), frozenset(map(cell_name, targets)),
    )  # fmt: skip


@cache
def diagrams() -> dict[str, Diagram]:
    """Every diagram of the rules page by id, computed with the engine's legal-action generator."""
    return {key: _diagram(key, spec) for key, spec in _DIAGRAMS.items()}


@cache
def board_picture() -> tuple[tuple[DiagramCell, ...], ...]:
    """The whole 14 × 15 board as South sees it (rows 15 → 1), for the picture of the zones (rules §1):
    ``zone-south``/``zone-north`` on the two start zones and ``front`` on their front rows."""
    from admiral.games.admiral.rules import FRONT_ROW, ZONE

    grid = []
    for r in range(HEIGHT - 1, -1, -1):
        line = []
        for c in range(WIDTH):
            cell = cell_at(c, r)
            marks: list[str] = []
            for side in Side:
                if cell in ZONE[side]:
                    marks += ["zone", f"zone-{side.label}"]
                if cell in FRONT_ROW[side]:
                    marks.append("front")
            name = cell_name(cell)
            line.append(DiagramCell(name, COLUMNS_RU[c] + name[1:], bool((c + r) % 2), tuple(marks), None))
        grid.append(tuple(line))
    return tuple(grid)


# ---------------------------------------------------------------------------------------------
# Scale of strength


@dataclass(frozen=True, slots=True)
class ScaleRow:
    """One row of the scale of strength (rules §7.1): its number, the composition's kind codes (ships in the
    fleet's order) and its Russian text («2 Р + ЭС»)."""

    row: int
    kinds: tuple[str, ...]
    text: str


def composition_text(kinds: tuple[Kind, ...] | list[Kind], label: Callable[[Kind], str] | None = None) -> str:
    """«2 Р + ЭС» for a composition, kinds in the fleet's order (as the game's dialogs write it); ``label``
    gives a kind's code (default: the Russian one; the page passes the code in the reader's language)."""
    parts = []
    for k in sorted(set(kinds)):
        n = list(kinds).count(k)
        code = label(k) if label else k.ru
        parts.append(f"{n} {code}" if n > 1 else code)
    return " + ".join(parts)


@cache
def scale_rows() -> tuple[ScaleRow, ...]:
    """The scale of strength from the engine's table, the highest row first."""
    return tuple(
        ScaleRow(row, tuple(k.code for k in sorted(comp)), composition_text(comp))
        for comp, row in sorted(SCALE.items(), key=lambda item: -item[1])
    )


# ---------------------------------------------------------------------------------------------
# Special collisions


@dataclass(frozen=True, slots=True)
class Collision:
    """The outcome the engine gives an attack of ``attacker`` on ``target`` (rules §7.2): which of the two
    were removed, whether the atomic bomb went off, whether a carrier took its aircraft with it."""

    attacker: str
    target: str
    attacker_removed: bool
    target_removed: bool
    explosion: bool
    plane_too: bool


def collision_outcome(attacker: Kind, target: Kind, *, distance: int | None = None, armed: bool = False) -> Collision:
    """Apply one attack of South's ``attacker`` on North's ``target`` on a small position and report it.

    The attacker stands on g8 with what its attack needs (an ``A`` 8-adjacent to an aircraft, a ``TK`` to a
    torpedo); the target stands ``distance`` cells above it (1 for contact and torpedo, 3 for an air
    strike, outside the blast square). A target ``A`` has its ``S`` far away on a15; ``armed`` puts North's
    ``TK`` 8-adjacent to a target torpedo.

    :raises ValueError: when the attack is not legal there, or it starts an ordinary battle (§7.1).
    """
    if distance is None:
        distance = 3 if attacker is S else 1
    src, dst = "g8", f"g{8 + distance}"
    south = [f"{attacker.code}{src}"]
    if attacker is S:
        south.append("Af7")
    if attacker is T:
        south.append("TKh7")
    north = [f"{target.code}{dst}"]
    if target is A:
        north.append("Sa15")
    if armed:
        north.append(f"TKh{9 + distance}")
    state = GameState.from_text(" ".join(south) + " / " + " ".join(north), Side.SOUTH)
    events = apply(state, Action.parse(f"{src}x{dst}"))
    if state.pending is not None:
        raise ValueError(f"{attacker.code} on {target.code} is an ordinary battle (rules §7.1)")
    report = next(e for e in events if isinstance(e, BattleReport))
    gone = {(s.side, s.cell) for s in report.removed}
    return Collision(
        attacker.code, target.code,
        attacker_removed=(Side.SOUTH, parse_cell(src)) in gone,
        target_removed=(Side.NORTH, parse_cell(dst)) in gone,
        explosion=report.explosion is not None,
        plane_too=any(s.kind is S and s.cell not in (parse_cell(src), parse_cell(dst)) for s in report.removed),
    )  # fmt: skip


#: The rows of the special-collision table (rules §7.2), by the id the template uses: the example each row's
#: outcome is computed from. ``tests/web/test_rules_page.py`` checks every kind a row stands for.
_COLLISIONS: dict[str, tuple[Kind, Kind, dict]] = {
    "ship_on_carrier": (KR, A, {}),
    "aa_on_plane": (L, S, {}),
    "ship_on_plane": (KR, S, {}),
    "ship_on_armed_torpedo": (ES, T, {"armed": True}),
    "ship_on_dummy_torpedo": (ES, T, {}),
    "sweeper_on_mine": (TR, M, {}),
    "ship_on_mine": (KR, M, {}),
    "ship_on_stationary_mine": (TR, SM, {}),
    "ship_on_fireship": (L, BR, {}),
    "ship_on_bomb": (L, AB, {}),
    "ship_on_base": (ST, VMB, {}),
    "fireship_on_plane": (BR, S, {}),
    "fireship_on_bomb": (BR, AB, {}),
    "fireship_on_other": (BR, L, {}),
    "fireship_on_carrier": (BR, A, {}),
    "plane_on_aa": (S, L, {}),
    "plane_on_ship": (S, KR, {}),
    "plane_on_carrier": (S, A, {}),
    "plane_on_base": (S, VMB, {}),
    "plane_on_plane": (S, S, {}),
    "plane_on_weapon": (S, M, {}),
    "plane_on_bomb_far": (S, AB, {"distance": 3}),
    "plane_on_bomb_near": (S, AB, {"distance": 2}),
    "torpedo_on_any": (T, L, {}),
    "torpedo_on_carrier": (T, A, {}),
    "torpedo_on_bomb": (T, AB, {}),
}


@cache
def collisions() -> dict[str, Collision]:
    """The outcome of every row of the special-collision table, computed by the engine."""
    return {key: collision_outcome(a, t, **kw) for key, (a, t, kw) in _COLLISIONS.items()}
