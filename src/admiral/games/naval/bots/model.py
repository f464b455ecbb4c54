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
    "KINDS", "NONE", "STEP", "STRIKE", "TURN", "VALUE", "WIN", "Pos", "evaluate", "from_order", "from_state", "moves",
    "play", "reach", "strikes", "to_order",
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


def from_order(order: Order) -> tuple:
    """The model move of an engine :class:`~..rules.Order` (:func:`to_order`'s inverse)."""
    mine = None if order.mine is None else (order.mine.lay, order.mine.point)
    return (order.src, _VERB.index(order.verb), order.dst, order.quarters, mine, order.mine_after)


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
W_HUNT = 0.2  # per move less to the nearest place a strike could come from (§4)
W_GUN_AHEAD = 0.03  # a bow pointed at an enemy gun point
W_NET = 0.03  # per move less to a net on the best enemy ship, times its value…
NET_CAP = 12  # …counted from this many moves
W_AHEAD = 6.0  # material difference over material afloat

#: ``ROWS_AHEAD[side][p]``: rows from the side's own coast.
ROWS_AHEAD: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(p // 9 for p in POINTS),
    tuple(12 - p // 9 for p in POINTS),
)
#: Hunting distances above this count as this (a ship with no target in reach still likes to come closer).
HUNT_CAP = 24
_REACH: list[bytes] = []


def reach() -> list[bytes]:
    """``reach()[q * 4 + g][p * 4 + f]``: the fewest moves (steps forward and 90° turns, §3) that take a ship at
    ``p`` facing ``f`` to ``q`` facing ``g``, around land (other ships and the die ignored), capped at 255; built on
    first use (468 breadth-first searches, a fraction of a second) and kept."""
    if not _REACH:
        behind = [[-1] * 4 for _ in POINTS]  # behind[q][f]: the point a ship facing f steps to q from
        for p in POINTS:
            if p in LAND:
                continue
            for f in range(4):
                a = AHEAD[p][f]
                if a >= 0:
                    behind[a][f] = p
        n = len(POINTS) * 4
        for target in range(n):
            dist = bytearray([255]) * n
            if target >> 2 in LAND:
                _REACH.append(bytes(dist))
                continue
            dist[target] = 0
            frontier = [target]
            d = 0
            while frontier:
                d += 1
                nxt = []
                for s in frontier:
                    q, g = s >> 2, s & 3
                    for prev in (q * 4 + ((g + 1) & 3), q * 4 + ((g + 3) & 3)):
                        if dist[prev] == 255:
                            dist[prev] = d
                            nxt.append(prev)
                    p = behind[q][g]
                    if p >= 0 and dist[p * 4 + g] == 255:
                        dist[p * 4 + g] = d
                        nxt.append(p * 4 + g)
                frontier = nxt
            _REACH.append(bytes(dist))
    return _REACH


#: The facing toward the enemy coast per side; the kinds each kind is senior to (it strikes their bow, §4).
FORWARD = (int(Facing.N), int(Facing.S))
JUNIOR: tuple[frozenset[int], ...] = tuple(frozenset(j for j in range(6) if MAY[k][j][0]) for k in range(6))


def _risk(kind: int, side: int, point: int, mines: frozenset[int]) -> float:
    """The chance a ship entering ``point`` sinks (§5)."""
    n = rolls(kind, side, point, mines)
    return 0.0 if n == 0 else 1 - SURVIVE**n


def _defended(ships: dict, point: int, side: int, kind: int, facing: int) -> bool:
    """Whether a ship of ``side`` could strike a ship of ``kind`` standing at ``point`` facing ``facing`` (§4): a
    ship of ``side`` beside it, facing it, allowed by seniority and the side it would strike."""
    around = AHEAD[point]
    for d in (0, 1, 2, 3):
        r = around[d]
        if r < 0:
            continue
        there = ships.get(r)
        if there is None or there[0] != side or there[2] != d ^ 2:
            continue
        if MAY[there[1]][kind][struck(there[2], facing)]:
            return True
    return False


def _hunt(ships: dict, fleets: tuple[list[tuple[int, int]], list[tuple[int, int]]], side: int) -> float:
    """The hunt of ``side`` (:func:`evaluate`), one pass over the places beside each enemy ship:

    - each ship's moves (steps and 90° turns around land, other ships ignored: :func:`reach`) to the nearest place
      it could strike an enemy from (§3, §4: beside it for the broadside, ahead of it for the bow if senior; never
      astern), so that fronts locked bow to bow are outflanked (:data:`W_HUNT` per move);
    - the nearest net: two ships ready to strike one enemy from two sides at right angles, which no turn of it
      answers (a turn that shows one of them its bow shows the other its broadside, §4): :data:`W_NET` per move
      less than :data:`NET_CAP`, times the enemy's value, for the best such enemy."""
    table = reach()
    hunters = [(p, p * 4 + ships[p][2], MAY[kind]) for p, kind in fleets[side] if kind != M]
    if not hunters:
        return 0.0
    best = [HUNT_CAP] * len(hunters)
    best_net = 0
    far = (NET_CAP, -1, NET_CAP)
    for q, k in fleets[1 - side]:
        fq = ships[q][2]
        around = AHEAD[q]
        near: list[tuple[int, int, int]] = []  # per side of it: (the nearest ship's moves, its point, the second's)
        for d in (0, 1, 2, 3):
            r = around[d]
            there = ships.get(r) if r >= 0 else None
            if r < 0 or (there is not None and there[0] != side):  # off the map, land, or an enemy there
                near.append(far)
                continue
            g = d ^ 2  # a striker at r faces q
            row = table[r * 4 + g]
            hit = struck(g, fq)
            b1 = b2 = NET_CAP
            p1 = -1
            for i, (p, state, may) in enumerate(hunters):
                n = row[state]
                if n < best[i] and may[k][hit] and (there is None or r == p):  # another own ship there: its own
                    best[i] = n
                if n < b1:
                    b1, b2, p1 = n, b1, p
                elif n < b2:
                    b2 = n
            near.append((b1, p1, b2))
        cost = NET_CAP
        for d in (0, 1, 2, 3):
            x, y = near[d], near[(d + 1) & 3]
            c = x[0] + y[0] if x[1] != y[1] or x[1] < 0 else min(x[0] + y[2], x[2] + y[0])
            if c < cost:
                cost = c
        if (v := VALUE[k] * (NET_CAP - cost)) > best_net:
            best_net = v
    return W_NET * best_net - W_HUNT * sum(best)


def evaluate(pos: Pos, hunter: int | None = None) -> float:
    """The static value of ``pos`` for the side to move, in :data:`VALUE` units (±:data:`WIN` once over): material;
    the mover's best capture now and the other side's threats (a strike ready on a bow or a broadside open to it,
    §4, weighed by the striker's risk on entering a gun or mined point, §5, and worth the target less the striker
    when the target's side would strike the striker in turn); ships exposed to an enemy one turn away from striking
    them; progress (rows toward the enemy coast; each ship's moves, :func:`reach`, to the nearest place it could
    strike an enemy from: for ``hunter``'s ships only when given, 0/1); ``hunter``'s nearest net (two of its ships
    ready to strike one enemy from two sides at right angles, :data:`W_NET`); bows pointed at enemy guns."""
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
            if _defended(ships, a, other[0], kind, f):
                gain -= v
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
    for side in (0, 1) if hunter is None else (hunter,):
        score[side] += _hunt(ships, fleets, side)
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
