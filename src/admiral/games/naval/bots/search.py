"""Expectimax over :mod:`.model`: negamax with alpha-beta at the players' nodes and exact chance nodes for the die.

A move with no roll is a plain negamax child searched within the window; a move whose ship rolls on entering (§5)
is a chance node, the probability-weighted sum of its two outcomes, each searched with the full window (so its value
is exact and alpha-beta stays sound). Values are from the side to move's point of view, in
:data:`~.model.VALUE` units; a win found nearer the root scores higher (:data:`~.model.WIN` minus the depth).

:class:`Search` counts nodes and stops with :class:`OutOfTime` when its deadline (``time.perf_counter()`` seconds)
or node budget is passed, which is how level 5 deepens iteratively and stays anytime.
"""

from __future__ import annotations

import time

from .model import NONE, STRIKE, TURN, VALUE, WIN, Pos, evaluate, moves, play, strikes

__all__ = ["OutOfTime", "Search", "ordered"]

INF = float("inf")


class OutOfTime(Exception):
    """The search passed its deadline or node budget: the iteration under way is dropped."""


def ordered(pos: Pos, ms: list[tuple]) -> list[tuple]:
    """``ms`` with strikes first (the most valuable target first), then steps, turns, mine-only moves last."""

    def key(m: tuple) -> float:
        if m[1] == STRIKE:
            return -100 - VALUE[pos.ships[m[2]][1]]
        if m[1] == NONE:
            return 10
        return (1 if m[1] == TURN else 0) + (0.5 if m[4] is not None else 0)

    return sorted(ms, key=key)


class Search:
    """One search: ``deadline`` (a ``time.perf_counter()`` instant, ``None`` for none) and ``max_nodes`` (``None``
    for no budget); ``nodes`` counts positions visited. ``mines_below``: from this remaining depth down the
    minesweeper's mine moves are left out (they pay off slowly; the root always has them). ``quiesce``: strikes in
    a row searched past the depth (:meth:`quiet_value`; 0: the leaves are evaluated as they are)."""

    def __init__(
        self, deadline: float | None = None, max_nodes: int | None = None, mines_below: int = 2, quiesce: int = 0
    ) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.mines_below = mines_below
        self.quiesce = quiesce
        self.root_side: int | None = None
        self.hunter: int | None = None
        self.aggression = 0.0

    def aggressive(self, side: int, per_ship: float) -> Search:
        """Score ``per_ship`` for ``side`` per enemy ship sunk (beyond its material), so that even trades look good
        to it (the quiet draw of §6 comes after 200 plies without a sinking); a quiet draw counts as much against
        it. :returns: ``self``."""
        self.root_side, self.aggression = side, per_ship
        return self

    def _bias(self, pos: Pos) -> float:
        if self.root_side is None:
            return 0.0
        b = self.aggression * (12 - pos.count[1 - self.root_side])
        return b if pos.to_move == self.root_side else -b

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfTime
        if self.deadline is not None and self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime

    def move_value(self, pos: Pos, move: tuple, depth: int, alpha: float = -INF, beta: float = INF) -> float:
        """The value for the mover of playing ``move`` in ``pos`` and searching ``depth - 1`` plies after it."""
        outs = play(pos, move)
        if len(outs) == 1:
            return -self.value(outs[0][1], depth - 1, -beta, -alpha)
        return sum(p * -self.value(child, depth - 1, -INF, INF) for p, child in outs)

    def value(self, pos: Pos, depth: int, alpha: float, beta: float) -> float:
        """Negamax value of ``pos`` for its side to move, ``depth`` plies deep."""
        self._tick()
        if pos.result is not None:
            if pos.result < 0:
                return -self._bias(pos) if self.root_side is not None else 0.0
            return (WIN + depth) if pos.result == pos.to_move else -(WIN + depth)
        if depth <= 0:
            return self.quiet_value(pos, self.quiesce, alpha, beta)
        ms = moves(pos)
        if depth < self.mines_below:
            ms = [m for m in ms if m[4] is None]
        best = -INF
        for m in ordered(pos, ms):
            v = self.move_value(pos, m, depth, max(alpha, best), beta)
            if v > best:
                best = v
                if best >= beta:
                    break
        return best

    def quiet_value(self, pos: Pos, left: int, alpha: float, beta: float) -> float:
        """The evaluation, or better for the side to move a strike (up to ``left`` more strikes in a row, each
        side may stand pat instead): the horizon does not cut an exchange in the middle."""
        stand = evaluate(pos, self.hunter) + self._bias(pos)
        if left <= 0 or stand >= beta:
            return stand
        best = stand
        for m in ordered(pos, strikes(pos)):
            self._tick()
            outs = play(pos, m)
            if len(outs) == 1:
                child = outs[0][1]
                v = -self._leaf(child, left - 1, -beta, -max(alpha, best))
            else:
                v = sum(p * -self._leaf(child, left - 1, -INF, INF) for p, child in outs)
            if v > best:
                best = v
                if best >= beta:
                    break
        return best

    def _leaf(self, pos: Pos, left: int, alpha: float, beta: float) -> float:
        if pos.result is not None:
            return evaluate(pos, self.hunter) if pos.result >= 0 or self.root_side is None else -self._bias(pos)
        return self.quiet_value(pos, left, alpha, beta)

    def root(
        self, pos: Pos, ms: list[tuple], depth: int, penalty: dict[tuple, float] | None = None
    ) -> list[tuple[float, tuple]]:
        """``[(value, move)]`` for each of ``ms`` searched ``depth`` plies (the best exact, the others possibly
        bounds below it, as alpha-beta gives), in the order given; ``penalty`` (move → points) is taken off a
        move's value, its window widened to match (so the best stays exact)."""
        if self.hunter is None:
            self.hunter = pos.to_move
        out = []
        best = -INF
        for m in ms:
            cost = penalty.get(m, 0.0) if penalty else 0.0
            v = self.move_value(pos, m, depth, best + cost - 1e-9, INF) - cost
            out.append((v, m))
            best = max(best, v)
        return out
