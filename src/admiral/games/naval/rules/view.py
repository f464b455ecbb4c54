"""What each audience sees (NAVAL_GAME.md §5, §7.5, §7.6): the one door everything sent out passes through.

The board is open: both fleets (every ship's id, kind, point and facing), the mines, both reserves, every sinking,
every roll of the die with the ship it concerned, and the SHA-256 commitment of the die's seed are shown to both
players and to spectators alike. What differs by audience: the legal orders (only the seat to act gets them) and the
seed itself (only once the game is over, §7.5, §7.6). ``PlayerView.to_dict()`` is the wire form (JSON-ready,
deterministic).

>>> from .state import GameState
>>> v = view(GameState.start(seed=1), "south").to_dict()
>>> v["to_act"], len(v["sides"]["north"]["ships"]), v["chance"]["seed"], v["legal"][3]["notation"]
('south', 12, None, '+a1 a1-a2')
>>> v["legal"][3]["mine"]
{'op': 'lay', 'at': 'a1', 'when': 'before'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common import IllegalAction
from .board import MAP, Point, name
from .fleet import struck_side
from .state import GameState, Order, Result, Roll, Ship, Side, Sunk, Verb

__all__ = ["AUDIENCES", "PlayerView", "order_dict", "view"]

#: Who a view is for.
AUDIENCES = ("south", "north", "spectator", "full")


def order_dict(state: GameState, order: Order) -> dict[str, Any]:
    """A legal order as the client draws it: ``{"type": "step"|"turn"|"strike"|"lay"|"lift", "ship": its point,
    …, "notation"}`` — ``to`` for a step or a strike, ``facing`` (the new one) and ``turn`` (``"right"``/
    ``"left"``) for a turn, ``target`` (the struck ship's id) and ``struck`` (``"bow"``/``"broadside"``, «в нос»,
    «в борт») for a strike, ``mine`` (``{"op": "lay"|"lift", "at", "when": "before"|"after"}``) for a
    minesweeper's mine with its move; a mine alone is of type ``lay``/``lift`` with ``at``."""
    ship = state.ships[order.src]
    out: dict[str, Any]
    if order.verb is Verb.NONE:
        assert order.mine is not None
        out = {"type": "lay" if order.mine.lay else "lift", "ship": name(order.src), "at": name(order.mine.point)}
    elif order.verb is Verb.TURN:
        facing = ship.facing.right if order.quarters > 0 else ship.facing.left
        out = {
            "type": "turn", "ship": name(order.src), "turn": "right" if order.quarters > 0 else "left",
            "facing": facing.letter,
        }  # fmt: skip
    else:
        assert order.dst is not None
        out = {"type": order.verb.value, "ship": name(order.src), "to": name(order.dst)}
        if order.verb is Verb.STRIKE:
            target = state.ships[order.dst]
            out |= {"target": target.id, "struck": struck_side(ship.facing, target.facing).value}
    if order.mine is not None and order.verb is not Verb.NONE:
        out["mine"] = {
            "op": "lay" if order.mine.lay else "lift", "at": name(order.mine.point),
            "when": "after" if order.mine_after else "before",
        }  # fmt: skip
    out["notation"] = str(order)
    return out


def _ship(point: Point, ship: Ship) -> dict[str, Any]:
    return {"id": ship.id, "kind": ship.kind.code, "point": name(point), "facing": ship.facing.letter}


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one audience may know at one moment (immutable: a bot's worker may keep it).

    ``audience``; ``state``: a copy of the true state (all of it is open, §5) whose ``seed`` must not be sent before
    the end (:meth:`to_dict` shows it only then); ``legal``: the orders the audience may give now (empty unless it is
    the seat to act); ``since``: the first ply :attr:`news` covers; ``history``: the orders given so far,
    ``(ply, side, notation, struck)`` (a game's :meth:`~.record.Game.history`; empty for a bare state).
    """

    audience: str
    state: GameState
    legal: tuple[Order, ...]
    since: int
    history: tuple[tuple[int, Side, str, str | None], ...] = ()

    @property
    def side(self) -> Side | None:
        """The viewer's side; ``None`` for a spectator or the full view."""
        return Side.parse(self.audience) if self.audience in ("south", "north") else None

    @property
    def result(self) -> Result | None:
        """The result once over."""
        return self.state.result

    @property
    def news(self) -> tuple[Roll | Sunk, ...]:
        """The rolls and sinkings at plies ≥ :attr:`since`, in order."""
        items: list[Roll | Sunk] = [r for r in self.state.rolls if r.ply >= self.since]
        items += [s for s in self.state.sunk if s.ply >= self.since]
        return tuple(sorted(items, key=lambda e: e.ply))

    def to_dict(self) -> dict[str, Any]:
        """The wire form:

        ``{"game": "naval", "audience", "ply", "to_act", "quiet" (plies since the last sinking, §6: 200 draws),
        "map" (:meth:`~.board.Map.to_dict`), "sides": {side: {"ships": [{id, kind, point, facing}], "afloat",
        "reserve", "sunk": [{ply, side, ship, kind, point, cause, by}]}}, "mines": [points], "rolls":
        [:meth:`~.state.Roll.to_dict`], "chance": {"commitment", "seed": hex once over else None},
        "legal": [:func:`order_dict`], "history": [{"ply", "side", "notation", "struck"}] (the orders given so
        far; ``struck`` the side a strike landed on, else ``None``),
        "result": {"winner", "reason"} | None}``.
        """
        s = self.state
        over = s.result is not None
        sides = {}
        for side in Side:
            ships = [_ship(p, sh) for p, sh in sorted(s.ships.items()) if sh.side is side]
            sides[side.label] = {
                "ships": ships,
                "afloat": len(ships),
                "reserve": s.reserve[side],
                "sunk": [x.to_dict() for x in s.sunk if x.side is side],
            }
        return {
            "game": "naval",
            "audience": self.audience,
            "ply": s.ply,
            "to_act": None if s.to_act is None else s.to_act.label,
            "quiet": s.quiet,
            "map": MAP.to_dict(),
            "sides": sides,
            "mines": [name(p) for p in sorted(s.mines)],
            "rolls": [r.to_dict() for r in s.rolls],
            "chance": {"commitment": s.commitment, "seed": s.seed.hex() if over else None},
            "legal": [order_dict(s, o) for o in self.legal],
            "history": [
                {"ply": p, "side": side.label, "notation": n, "struck": struck} for p, side, n, struck in self.history
            ],
            "result": None if s.result is None else s.result.to_dict(),
        }


def view(
    state: GameState,
    audience: Side | str,
    *,
    since: int | None = None,
    history: tuple[tuple[int, Side, str, str | None], ...] = (),
) -> PlayerView:
    """The view of ``state`` for ``audience`` (module docstring): a :class:`~.state.Side` or ``"south"``/
    ``"north"`` (a player), ``"spectator"``, or ``"full"`` (only once the game is over). ``since``: the first ply
    :attr:`PlayerView.news` covers (default: the last ply); ``history``: the orders given so far (public: they are
    the open board's moves).

    :raises IllegalAction: ``bad_audience``; ``game_not_over`` for a full view of a game in progress.
    """
    if isinstance(audience, Side):
        audience = audience.label
    if audience not in AUDIENCES:
        raise IllegalAction("bad_audience", f"unknown audience {audience!r} (audiences: {', '.join(AUDIENCES)})")
    if audience == "full" and state.result is None:
        raise IllegalAction("game_not_over", "the full view opens only after the game")
    me = Side.parse(audience) if audience in ("south", "north") else None
    legal = tuple(state.legal_actions()) if me is not None and me is state.to_act else ()
    return PlayerView(audience, state.copy(), legal, max(0, state.ply - 1) if since is None else since, history)
