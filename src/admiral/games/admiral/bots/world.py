"""Hypothetical worlds (determinizations): the bot's own fleet plus one sampled guess of the enemy's.

This is the only module of :mod:`admiral.games.admiral.bots` that touches :class:`..rules.GameState`, and
only to *build* positions with :meth:`GameState.from_board` from what the bot itself holds: its own
units (from its :class:`PlayerView`) and kinds it sampled for the enemy markers from its
:class:`~admiral.games.admiral.bots.belief.Belief`. The rules are then applied by the engine's public
``apply``/``legal_actions``, so a bot reasons with the exact rules without ever seeing the truth.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rules import (
    Action,
    Attack,
    Cell,
    Declare,
    GameState,
    IllegalAction,
    Kind,
    Seen,
    Side,
    apply,
    legal_actions,
    strongest_declaration,
    unit,
)
from ..rules.events import BattleReport

__all__ = ["World", "build_world", "outcome", "removed_of"]

World = GameState


def build_world(side: Side, own: Mapping[Cell, Kind], enemy: Mapping[Cell, Kind], to_move: Side | None = None) -> World:
    """A position from ``own`` (the bot's units) and ``enemy`` (a sampled assignment of the markers).

    ``to_move`` defaults to ``side``.
    """
    units = {c: unit(side, k) for c, k in own.items()}
    other = side.opponent
    for c, k in enemy.items():
        units[c] = unit(other, k)
    return GameState.from_board(units, side if to_move is None else to_move)


def removed_of(events: list) -> list[Seen]:
    """Every unit removed in ``events`` (from their battle reports)."""
    out: list[Seen] = []
    for e in events:
        if isinstance(e, BattleReport):
            out.extend(e.removed)
    return out


def outcome(world: World, action: Action, declare: Declare | None = None) -> tuple[World, list[Seen]] | None:
    """Apply ``action`` to a copy of ``world``; a pending battle is answered with ``declare`` or the
    defender's strongest declaration. Returns the new world and the removed units, or ``None`` when
    the action is illegal in this world (e.g. the guessed kinds make a torpedo's first unit friendly).
    """
    w = world.copy()
    try:
        events = apply(w, action)
        if w.pending is not None:
            d = declare if declare is not None and declare.formation in w.pending.options else strongest_declaration(w)
            events += apply(w, d)
    except IllegalAction:  # an action impossible in this guess is simply skipped
        return None
    return w, removed_of(events)


def attacks(world: World) -> list[Attack]:
    """The side to move's attacks in ``world`` (moves left out)."""
    return [a for a in legal_actions(world) if type(a) is Attack]
