"""The five levels of «Военно-морская игра»'s AI (issue 21). Each reads only its seat's
:class:`~..rules.PlayerView` (the open board, both reserves, the roll log: §5, §7.6), never the die's seed: it
plays moves in its own :mod:`.model`, where the die is a chance node.

- **1** a uniformly random legal order;
- **2** greedy one ply: each order's expected evaluation after its die outcomes (captures score their target,
  moving into a strike or onto a gun/mined point costs the expected loss, :func:`~.model.evaluate`);
- **3** two plies of expectimax (its order, the reply) and a quiescence of strikes (an exchange is not cut at the
  horizon), seeking trades (:data:`AGGRESSION`, as levels 4–5);
- **4** three plies of expectimax with alpha-beta (chance nodes exact), no quiescence (with it level 4 played
  level 5's game at a fixed depth: 5 v 4 fell to 62 %, bench/results/naval_ai.txt);
- **5** iterative deepening with the quiescence: three plies always (within a safety node budget), deeper within
  its deadline (anytime: the last finished depth's best order), or within a node budget when one is given (then
  deterministic).

The evaluation (:func:`~.model.evaluate`) is the same for all: material, threats (a defended target is worth its
value less the striker's), and the hunt — each ship's moves to the nearest place it could strike from, and the
nearest *net* (two ships at right angles beside one enemy: §4 leaves it no turn that shows both its bow). Levels
2–5 remember the positions their own orders led to and avoid reaching one again (:data:`REPEAT`), so §6's quiet
plies are not spent turning a ship to and fro; the memory is rebuilt from the views alone (:meth:`observe`, after
a restart). Among equal orders one that moves a ship beats a mine laid or lifted for nothing; the rest are broken
by the bot's own ``random.Random(seed)``, so levels 1–4 (and 5 with a node budget) are deterministic given the
seed and the views.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..rules import Order, PlayerView
from .model import Pos, from_order, from_state, moves, play, to_order
from .search import OutOfTime, Search, ordered

__all__ = ["DEPTH", "NavalBot", "make"]

#: Fixed search depth (plies) of levels 2–4.
DEPTH = {2: 1, 3: 2, 4: 3}
#: Level 5: the share of the deadline it spends, and its ceiling (seconds): p95 ≤ 1 s a move on one core.
SHARE, CEILING = 0.6, 0.8
#: Level 5's deepest iteration (plies), and the strikes in a row it searches past it (an exchange not cut).
MAX_DEPTH, QUIESCE = 8, 2
#: Level 5 always finishes this depth (never weaker than level 4), within a node budget as a safety net.
SURE_DEPTH, SURE_NODES = 3, 60_000
#: Levels 3–5 score this per enemy ship sunk beyond its material (even trades look good: §6's quiet draw).
AGGRESSION = 1.5
#: Levels 2–5 take this off an order's value per time it led to the same position before (no to-and-fro turning
#: while §6's quiet plies run out).
REPEAT = 1.5
#: Scores within this of the best are ties.
TIE = 1e-6


class NavalBot:
    """A bot of ``level`` (1–5) with its ``seed``; ``nodes`` (level 5 only): a node budget per move instead of the
    deadline (deterministic). ``last``: what its last decision saw (``{"depth", "nodes", "value"}``)."""

    def __init__(self, level: int, seed: int, nodes: int | None = None) -> None:
        if level not in (1, 2, 3, 4, 5):
            raise ValueError(f"no naval AI level {level!r} (levels 1–5)")
        self.level = level
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.last: dict[str, Any] = {}
        self.seen: dict[tuple, int] = {}  # positions its own orders led to (key → times), to avoid repeating them
        self._at_turn: tuple[Pos, int] | None = None  # the position at its last turn seen, and its ply

    def setup(self, side: str) -> dict[str, str]:
        """Nothing to choose: the start is fixed (§2); the ruleset gives it (``bot_setup``)."""
        return {}

    def observe(self, view: PlayerView) -> None:
        """Remember the positions its orders led to (the board is open, §5: nothing else to keep)."""
        self._remember(view)

    def act(self, view: PlayerView, deadline_s: float) -> str:
        """The order (notation, one of ``view.legal``) for ``view``, within about ``deadline_s`` seconds.

        :raises ValueError: when ``view.legal`` is empty (not this seat's turn, or the game is over)."""
        return str(self.choose(view, deadline_s))

    def choose(self, view: PlayerView, deadline_s: float) -> Order:
        """:meth:`act`'s :class:`~..rules.Order`."""
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal order in this view: not this seat's turn, or the game is over")
        started = time.perf_counter()
        self._remember(view)
        if self.level == 1 or len(legal) == 1:
            return self.rng.choice(legal)
        pos = from_state(view.state)
        ms = moves(pos)
        allowed = set(legal)
        ms = [m for m in ms if to_order(m) in allowed]
        if not ms:  # the model and the engine disagree: never happens (tests), but stay legal
            return self.rng.choice(legal)
        if self.level < 5:
            depth = DEPTH[self.level]
            budget = max(0.05, min(deadline_s, 5.0))
            # the deadline is a safety net only: depth 3 takes well under it
            search = Search(deadline=started + 4 * budget, quiesce=QUIESCE if self.level == 3 else 0)
            if self.level >= 3:
                search.aggressive(pos.to_move, AGGRESSION)
            penalty = self._penalties(pos, ms)
            try:
                scored = search.root(pos, ordered(pos, ms), depth, penalty)
            except OutOfTime:
                scored = Search().root(pos, ordered(pos, ms), 1)
                depth = 1
            return self._pick(scored, depth, search.nodes)
        return self._deepen(pos, ms, started, deadline_s)

    def _deepen(self, pos: Pos, ms: list[tuple], started: float, deadline_s: float) -> Order:
        if self.nodes is not None:
            search = Search(max_nodes=self.nodes, quiesce=QUIESCE)
        else:
            search = Search(deadline=started + min(CEILING, max(0.02, SHARE * deadline_s)), quiesce=QUIESCE)
        ms = ordered(pos, ms)
        penalty = self._penalties(pos, ms)
        scored = Search(quiesce=QUIESCE).root(pos, ms, 1, penalty)
        depth = 1
        sure = Search(max_nodes=self.nodes or SURE_NODES, quiesce=QUIESCE).aggressive(pos.to_move, AGGRESSION)
        search.aggressive(pos.to_move, AGGRESSION)
        for d in range(2, MAX_DEPTH + 1):
            try:
                now = (sure if d <= SURE_DEPTH else search).root(pos, ms, d, penalty)
            except OutOfTime:
                break
            scored, depth = now, d
            # the next iteration tries the best first (alpha-beta cuts more), the rest as ranked
            ms = [m for _, m in sorted(scored, key=lambda vm: -vm[0])]
            if abs(max(v for v, _ in scored)) >= 900:  # a forced result: deeper changes nothing
                break
        return self._pick(scored, depth, sure.nodes + search.nodes)

    def _pick(self, scored: list[tuple[float, tuple]], depth: int, nodes: int) -> Order:
        best = max(v for v, _ in scored)
        ties = [m for v, m in scored if v >= best - TIE]
        # among equals an order that moves a ship beats laying or lifting a mine for nothing (the minesweeper's
        # dance spends §6's quiet plies)
        ties = [m for m in ties if m[4] is None] or ties
        self.last = {"depth": depth, "nodes": nodes, "value": best}
        return to_order(self.rng.choice(ties))

    def _remember(self, view: PlayerView) -> None:
        """Note the position its last order led to (rebuilt from the views alone: the position at its previous
        turn and its order there, read from the view's history), so that a bot shown the game again after a
        restart (:meth:`observe`) remembers what one that played it does."""
        side = view.side
        if side is None:
            return
        ply = view.state.ply
        if self._at_turn is not None and self._at_turn[1] < ply:
            before, at = self._at_turn
            given = [n for p, s, n, _ in view.history if p == at and s is side]
            if given:
                outs = play(before, from_order(Order.parse(given[0])))
                if len(outs) == 1:  # an order with a roll is not noted (which outcome came is not looked up)
                    key = outs[0][1].key()
                    self.seen[key] = self.seen.get(key, 0) + 1
        self._at_turn = (from_state(view.state), ply)

    def _penalties(self, pos: Pos, ms: list[tuple]) -> dict[tuple, float]:
        """:data:`REPEAT` per time a move's position was already reached by its own orders."""
        if not self.seen:
            return {}
        out = {}
        for m in ms:
            outs = play(pos, m)
            if len(outs) == 1 and (n := self.seen.get(outs[0][1].key())):
                out[m] = REPEAT * n
        return out


def make(level: int, seed: int, nodes: int | None = None) -> NavalBot:
    """A bot of ``level`` (1–5) drawing from ``seed``. :raises ValueError: for another level."""
    return NavalBot(level, seed, nodes)
