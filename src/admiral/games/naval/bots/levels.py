"""The five levels of «Военно-морская игра»'s AI (issue 21). Each reads only its seat's
:class:`~..rules.PlayerView` (the open board, both reserves, the roll log: §5, §7.6), never the die's seed: it
plays moves in its own :mod:`.model`, where the die is a chance node.

- **1** a uniformly random legal order;
- **2** greedy one ply: each order's expected evaluation after its die outcomes (captures score their target,
  moving into a strike or onto a gun/mined point costs the expected loss, :func:`~.model.evaluate`);
- **3** two plies of expectimax (its order, the reply), seeking trades (:data:`AGGRESSION`, as levels 4–5);
- **4** three plies of expectimax with alpha-beta (chance nodes exact);
- **5** iterative deepening with a quiescence of strikes (an exchange is not cut at the horizon): three plies
  always (within a safety node budget), deeper within its deadline (anytime: the last finished depth's best
  order), or within a node budget when one is given (then deterministic).

Ties are broken by the bot's own ``random.Random(seed)``, so levels 1–4 (and 5 with a node budget) are
deterministic given the seed and the views.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..rules import Order, PlayerView
from .model import Pos, from_state, moves, to_order
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

    def setup(self, side: str) -> dict[str, str]:
        """Nothing to choose: the start is fixed (§2); the ruleset gives it (``bot_setup``)."""
        return {}

    def observe(self, view: PlayerView) -> None:
        """Nothing to remember: the board is open (§5), every view holds all a bot needs."""

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
            search = Search(deadline=started + 4 * budget)  # a safety net only: depth 3 takes well under it
            if self.level >= 3:
                search.aggressive(pos.to_move, AGGRESSION)
            try:
                scored = search.root(pos, ordered(pos, ms), depth)
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
        scored = Search(quiesce=QUIESCE).root(pos, ms, 1)
        depth = 1
        sure = Search(max_nodes=self.nodes or SURE_NODES, quiesce=QUIESCE).aggressive(pos.to_move, AGGRESSION)
        search.aggressive(pos.to_move, AGGRESSION)
        for d in range(2, MAX_DEPTH + 1):
            try:
                now = (sure if d <= SURE_DEPTH else search).root(pos, ms, d)
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
        self.last = {"depth": depth, "nodes": nodes, "value": best}
        return to_order(self.rng.choice(ties))


def make(level: int, seed: int, nodes: int | None = None) -> NavalBot:
    """A bot of ``level`` (1–5) drawing from ``seed``. :raises ValueError: for another level."""
    return NavalBot(level, seed, nodes)
