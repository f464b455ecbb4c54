"""The bots' own compact model of «Военно-морская игра» (NAVAL_GAME.md §3–§6) for search: positions, moves, the
die as chance outcomes, and the static evaluation.

Why not the engine's :class:`~..rules.GameState`: its ``apply`` rolls the die with the game's seed, which a bot must
never know (it would see the future rolls), and it builds events and plans a search does not need. So a bot reads
the open board from its view into a :class:`Pos` and plays moves here, where a roll is a **chance node**: a move
whose ship enters a mined point and/or an enemy gun point has two outcomes, the ship afloat with probability
(5/6)ⁿ (n rolls: 1 or 2, §5, §7.3) and sunk otherwise (§5: «взрыв» on one face in six). The tests check that
:func:`moves` lists exactly the engine's legal orders and :func:`play` reaches the engine's positions.

Shapes: a point is the engine's ``int`` (``row * 9 + col``); a ship is ``(side, kind, facing)`` with ``side`` 0
South / 1 North, ``kind`` the index of :data:`KINDS` (0 battleship … 5 submarine), ``facing`` 0 n, 1 e, 2 s, 3 w;
a move is ``(src, verb, dst, quarters, mine, mine_after)`` as :class:`~..rules.Order` (``verb`` one of
:data:`STEP`, :data:`TURN`, :data:`STRIKE`, :data:`NONE`; ``mine`` ``None`` or ``(lay, point)``).
"""

from __future__ import annotations

from ..rules import (
    GUNS,
    LAND,
    MAP,
    POINTS,
    QUIET_PLIES,
    Facing,
    GameState,
    Kind,
    MineOp,
    Order,
    Verb,
    may_strike,
    struck_side,
)

__all__ = [
    "KINDS", "NONE", "STEP", "STRIKE", "TURN", "VALUE", "WIN", "Pos", "evaluate", "from_state", "moves", "play",
    "strikes", "to_order",
]  # fmt: skip

#: Kinds by index (rank order, §2).
KINDS: tuple[Kind, ...] = tuple(Kind)
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
B, C, G, T, M, S = range(6)
STEP, TURN, STRIKE, NONE = 0, 1, 2, 3
_VERB = (Verb.STEP, Verb.TURN, Verb.STRIKE, Verb.NONE)
#: Material value of a ship by kind index, in "torpedo boats ≈ 3" units: the rank (§2) and what a ship can strike
#: (a senior strikes the bow too, §4; the submarine strikes the battleship and cruisers on the bow and passes guns
#: and mines freely, §5).
VALUE: tuple[float, ...] = (9.0, 7.0, 5.0, 3.0, 3.5, 4.5)
#: A won (lost) game's score: far above any material.
WIN = 1000.0
#: The chance a ship survives one roll (§5: «взрыв» on one face of six).
SURVIVE = 5 / 6

#: ``AHEAD[point][facing]``: the point one step ahead, ``-1`` off the map or on land (a ship never enters it, §1).
AHEAD: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if (a := MAP.ahead(p, f)) is None or a in LAND else a for f in Facing) for p in POINTS
)
#: ``MAY[striker][target][struck]`` with struck 0 bow, 1 broadside, 2 stern (§4).
_STRUCK = list(struck_side(Facing.N, f) for f in (Facing.S, Facing.E, Facing.N))
MAY: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(tuple(may_strike(a, b, s) for s in _STRUCK) for b in KINDS) for a in KINDS
)
#: Enemy gun points per side of the ship entering (South's ships fear North's guns, §1, §5).
ENEMY_GUNS: tuple[frozenset[int], frozenset[int]] = (GUNS[1], GUNS[0])


def struck(striker: int, target: int) -> int:
    """The side struck (0 bow, 1 broadside, 2 stern) by a ship facing ``striker`` on one facing ``target`` (§4)."""
    d = (target - striker) % 4
    return 0 if d == 2 else 2 if d == 0 else 1


class Pos:
    """A position for search: ``ships`` (point → ``(side, kind, facing)``), ``mines`` (points), ``reserve``
    (``[south, north]``), ``to_move`` (0/1), ``quiet`` (plies since a sinking, §6), ``count`` (ships afloat per
    side), ``result`` (``None`` while the game goes on, else the winner 0/1 or ``-1`` for a draw)."""

    __slots__ = ("count", "mines", "quiet", "reserve", "result", "ships", "to_move")

    def __init__(
        self,
        ships: dict[int, tuple[int, int, int]],
        mines: frozenset[int],
        reserve: tuple[int, int],
        to_move: int,
        quiet: int,
        result: int | None = None,
    ) -> None:
        self.ships = ships
        self.mines = mines
        self.reserve = reserve
        self.to_move = to_move
        self.quiet = quiet
        self.result = result
        c = [0, 0]
        for side, _k, _f in ships.values():
            c[side] += 1
        self.count = c

    def key(self) -> tuple:
        """A hashable key of the position (tests, repetition)."""
        return (tuple(sorted(self.ships.items())), tuple(sorted(self.mines)), self.reserve, self.to_move)


def from_state(state: GameState) -> Pos:
    """The :class:`Pos` of an engine state (a bot's view's ``state``; its seed is not read)."""
    ships = {p: (int(s.side), _KIND_INDEX[s.kind], int(s.facing)) for p, s in state.ships.items()}
    result = None
    if state.result is not None:
        result = -1 if state.result.winner is None else int(state.result.winner)
    return Pos(ships, frozenset(state.mines), (state.reserve[0], state.reserve[1]), int(state.to_move), state.quiet,
               result)  # fmt: skip


def to_order(move: tuple) -> Order:
    """The engine's :class:`~..rules.Order` of a model move."""
    src, verb, dst, quarters, mine, after = move
    op = None if mine is None else MineOp(mine[0], mine[1])
    return Order(src, _VERB[verb], dst, quarters, op, after)


def moves(pos: Pos) -> list[tuple]:
    """Every legal move of the side to move (§3, §4, §7.2), the engine's set and order; none once over."""
    if pos.result is not None:
        return []
    me = pos.to_move
    ships = pos.ships
    out: list[tuple] = []
    for src in sorted(ships):
        side, kind, facing = ships[src]
        if side != me:
            continue
        own: list[tuple] = []
        dst = AHEAD[src][facing]
        if dst >= 0:
            other = ships.get(dst)
            if other is None:
                own.append((src, STEP, dst, 0, None, False))
            elif other[0] != me and MAY[kind][other[1]][struck(facing, other[2])]:
                own.append((src, STRIKE, dst, 0, None, False))
        own.append((src, TURN, None, -1, None, False))
        own.append((src, TURN, None, 1, None, False))
        out += own
        if kind == M:
            out += _mine_moves(pos, src, own)
    return out


def strikes(pos: Pos) -> list[tuple]:
    """The strikes of :func:`moves` without a mine (§4), in the same order: what a quiescence search plays."""
    if pos.result is not None:
        return []
    me = pos.to_move
    ships = pos.ships
    out = []
    for src, (side, kind, facing) in ships.items():
        if side != me:
            continue
        dst = AHEAD[src][facing]
        if dst >= 0:
            other = ships.get(dst)
            if other is not None and other[0] != me and MAY[kind][other[1]][struck(facing, other[2])]:
                out.append((src, STRIKE, dst, 0, None, False))
    return out


def _mine_moves(pos: Pos, src: int, own: list[tuple]) -> list[tuple]:
    def ops(at: int) -> list[tuple[bool, int]]:
        if at in pos.mines:
            return [(False, at)]
        return [(True, at)] if pos.reserve[pos.to_move] > 0 else []

    out = []
    for m in own:
        out += [(m[0], m[1], m[2], m[3], op, False) for op in ops(src)]
        if m[2] is not None:
            target = pos.ships.get(m[2])
            if target is None or pos.count[target[0]] > 1:
                out += [(m[0], m[1], m[2], m[3], op, True) for op in ops(m[2])]
    out += [(src, NONE, None, 0, op, False) for op in ops(src)]
    return out


def rolls(kind: int, side: int, point: int, mines: frozenset[int]) -> int:
    """How many rolls a ship of ``kind`` and ``side`` entering ``point`` makes (§5, §7.3): a mine (not the
    minesweeper, not the submarine), an enemy gun (not the submarine)."""
    if kind == S:
        return 0
    n = 1 if point in ENEMY_GUNS[side] else 0
    if kind != M and point in mines:
        n += 1
    return n


def play(pos: Pos, move: tuple) -> list[tuple[float, Pos]]:
    """The outcomes of a legal ``move``: ``[(probability, position)]``, one outcome for a move with no roll, two
    (afloat, sunk) when the ship rolls on entering (§5); probabilities sum to 1. ``pos`` is not changed."""
    src, verb, dst, quarters, mine, after = move
    me = pos.to_move
    ships = dict(pos.ships)
    mines = pos.mines
    reserve = list(pos.reserve)

    def mine_op(op: tuple[bool, int]) -> None:
        nonlocal mines
        if op[0]:
            mines = mines | {op[1]}
            reserve[me] -= 1
        else:
            mines = mines - {op[1]}
            reserve[me] += 1

    if mine is not None and not after and verb != NONE:
        mine_op(mine)
    sank = False
    n = 0
    if verb == TURN:
        side, kind, facing = ships[src]
        ships[src] = (side, kind, (facing + quarters) % 4)
    elif verb == NONE:
        mine_op(mine)  # type: ignore[arg-type]
    else:
        ship = ships.pop(src)
        if verb == STRIKE:
            del ships[dst]
            sank = True
        ships[dst] = ship
        if verb == STRIKE and pos.count[1 - me] == 1:  # §7.4: the last enemy ship sunk ends it at once
            return [(1.0, Pos(ships, mines, (reserve[0], reserve[1]), 1 - me, 0, me))]
        n = rolls(ship[1], me, dst, mines)
    if n == 0:
        if after and mine is not None:
            mine_op(mine)
        return [(1.0, _next(ships, mines, reserve, me, pos.quiet, sank))]
    p = SURVIVE**n
    afloat_mines, afloat_reserve = mines, list(reserve)
    if after and mine is not None:
        mine_op(mine)
        afloat_mines, afloat_reserve = mines, list(reserve)
        mine_op((not mine[0], mine[1]))  # undo for the sunk branch
    afloat = _next(ships, afloat_mines, afloat_reserve, me, pos.quiet, sank)
    sunk_ships = dict(ships)
    del sunk_ships[dst]
    sunk = _next(sunk_ships, mines, reserve, me, pos.quiet, True)
    return [(p, afloat), (1 - p, sunk)]


def _next(ships: dict, mines: frozenset[int], reserve: list[int], me: int, quiet: int, sank: bool) -> Pos:
    q = 0 if sank else quiet + 1
    pos = Pos(ships, mines, (reserve[0], reserve[1]), 1 - me, q)
    for loser in (me, 1 - me):
        if pos.count[loser] == 0:
            pos.result = 1 - loser
            return pos
    if q >= QUIET_PLIES:
        pos.result = -1
    return pos


# -- evaluation -----------------------------------------------------------------------------------------------

#: Weights of the evaluation (module :func:`evaluate`).
W_THREAT_MOVER = 0.55  # the side to move takes its best capture next (minus what entering risks)
W_THREAT_FIRST = 0.15  # the other side's best threat: the mover can usually answer one…
W_THREAT_SECOND = 0.6  # …but not two
W_EXPOSED = 0.12  # an enemy one turn away from striking (it must turn first: §3)
W_ADVANCE = 0.05  # per row toward the enemy coast (contact wins games, §6's quiet draw does not)
W_FORWARD = 0.02  # a bow toward the enemy coast (a step there needs no turn first, §3)
W_HUNT = 0.04  # per point closer to the nearest point a strike could come from (§4)
W_GUN_AHEAD = 0.03  # a bow pointed at an enemy gun point
W_AHEAD = 6.0  # material difference over material afloat

#: ``DIST[p][q]``: Manhattan distance between points; ``ROWS_AHEAD[side][p]``: rows from the side's own coast.
DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(p % 9 - q % 9) + abs(p // 9 - q // 9) for q in POINTS) for p in POINTS
)
ROWS_AHEAD: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(p // 9 for p in POINTS),
    tuple(12 - p // 9 for p in POINTS),
)
#: The facing toward the enemy coast per side; the kinds each kind is senior to (it strikes their bow, §4).
FORWARD = (int(Facing.N), int(Facing.S))
JUNIOR: tuple[frozenset[int], ...] = tuple(frozenset(j for j in range(6) if MAY[k][j][0]) for k in range(6))


def _risk(kind: int, side: int, point: int, mines: frozenset[int]) -> float:
    """The chance a ship entering ``point`` sinks (§5)."""
    n = rolls(kind, side, point, mines)
    return 0.0 if n == 0 else 1 - SURVIVE**n


def evaluate(pos: Pos, hunter: int | None = None) -> float:
    """The static value of ``pos`` for the side to move, in :data:`VALUE` units (±:data:`WIN` once over): material;
    the mover's best capture now and the other side's threats (a strike ready on a bow or a broadside open to it,
    §4, weighed by the striker's risk on entering a gun or mined point, §5); ships exposed to an enemy one turn
    away from striking them; progress (rows toward the enemy coast, points toward the nearest point it could
    strike an enemy from: for ``hunter``'s ships only when given, 0/1); bows pointed at enemy guns."""
    if pos.result is not None:
        return 0.0 if pos.result < 0 else (WIN if pos.result == pos.to_move else -WIN)
    me = pos.to_move
    ships = pos.ships
    mines = pos.mines
    score = [0.0, 0.0]
    threats: tuple[list[float], list[float]] = ([], [])
    fleets: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    for p, (side, kind, _f) in ships.items():
        score[side] += VALUE[kind]
        fleets[side].append((p, kind))
    material = (score[0], score[1])
    for p, (side, kind, facing) in ships.items():
        v = VALUE[kind]
        row_ahead = AHEAD[p]
        # strikes ready (ahead) and one turn away (abeam)
        for turn in (0, 1, 3):
            f = (facing + turn) & 3
            a = row_ahead[f]
            if a < 0:
                continue
            other = ships.get(a)
            if other is None:
                if turn == 0 and a in ENEMY_GUNS[side]:
                    score[side] -= W_GUN_AHEAD * v
                continue
            if other[0] == side or not MAY[kind][other[1]][struck(f, other[2])]:
                continue
            gain = VALUE[other[1]]
            if kind != S and (a in mines or a in ENEMY_GUNS[side]):
                gain -= v * _risk(kind, side, a, mines)
            if gain <= 0:
                continue
            if turn == 0:
                threats[side].append(gain)
            else:
                score[side] += W_EXPOSED * gain
        if kind != M:
            score[side] += W_ADVANCE * ROWS_AHEAD[side][p]
            if facing == FORWARD[side]:
                score[side] += W_FORWARD
    # hunting: each ship's distance to the nearest point it could strike an enemy from (§4: beside it for the
    # broadside, ahead of it for the bow if senior; never astern), so fronts locked bow to bow are outflanked; only
    # for the ``hunter`` (the searching bot's side) when given: counted for both, the enemy's closing in would pay
    # every one of its ships each time one of ours advanced
    for side in (0, 1) if hunter is None else (hunter,):
        squares: list[tuple[int, int]] = []  # (point, the target's kind, or -1: broadside, any striker)
        for q, k in fleets[1 - side]:
            fq = ships[q][2]
            around = AHEAD[q]
            for d in (0, 1, 2, 3):
                r = around[d]
                if r < 0 or d == fq ^ 2:  # off the map / land, or astern
                    continue
                there = ships.get(r)
                if there is not None and there[0] != side:  # taken by the enemy: nobody strikes from there
                    continue
                squares.append((r, k if d == fq else -1))
        if not squares:
            continue
        for p, kind in fleets[side]:
            if kind == M:
                continue
            dist = DIST[p]
            junior = JUNIOR[kind]
            best = 99
            for r, k in squares:
                d = dist[r]
                if d < best and (k < 0 or k in junior) and (r == p or r not in ships):  # own ship there: its own
                    best = d
            if best < 99:
                score[side] -= W_HUNT * best
    mine = sorted(threats[me], reverse=True)
    theirs = sorted(threats[1 - me], reverse=True)
    total = score[me] - score[1 - me]
    # trade down when ahead: the same difference weighs more with fewer ships afloat (§6: the whole fleet)
    total += W_AHEAD * (material[me] - material[1 - me]) / (material[me] + material[1 - me] + 1)
    if mine:
        total += W_THREAT_MOVER * mine[0]
    if theirs:
        total -= W_THREAT_FIRST * theirs[0]
        if len(theirs) > 1:
            total -= W_THREAT_SECOND * theirs[1]
    return total
