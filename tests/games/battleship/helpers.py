"""Shared fixtures of the Battleship rule tests: hand-made fleets, seeds for a chosen first shooter, playing."""

from __future__ import annotations

import json
from functools import cache

from admiral.games.battleship.rules import (
    Game,
    GameState,
    IllegalAction,
    Side,
    first_shooter,
    rules_from_options,
    setup_from_text,
)

#: A classic fleet along the left edge (A2: no two ships touch).
CLASSIC_FLEET = "4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6"
#: Another classic fleet, mostly on the right.
CLASSIC_FLEET_2 = "4:j7-j10 3:a8-a10 3:c8-c10 2:e9-e10 2:g9-g10 2:h1-i1 1:a1 1:e1 1:e5 1:c5"
#: A Hasbro fleet packed into the top rows (B1: touching is allowed).
HASBRO_FLEET = "C:a1-a5 B:b1-b4 D:c1-c3 S:d1-d3 P:e1-e2"
#: Another Hasbro fleet, vertical along the right edge.
HASBRO_FLEET_2 = "C:a10-e10 B:f10-i10 D:a8-c8 S:h7-j7 P:i1-j1"

CLASSIC = {"rules": "classic"}
HASBRO = {"rules": "hasbro"}
SALVO = {"rules": "hasbro", "salvo": True}
UNNAMED = {"rules": "hasbro", "named": False}
UNNAMED_SALVO = {"rules": "hasbro", "salvo": True, "named": False}
ALL_OPTIONS = (CLASSIC, HASBRO, SALVO, UNNAMED, UNNAMED_SALVO)


@cache
def seed_for(side: Side) -> int:
    """The smallest seed whose draw makes ``side`` shoot first (A4, D2)."""
    return next(s for s in range(1000) if first_shooter(s) is side)


def new_game(options: dict, south: str, north: str, first: Side = Side.SOUTH) -> Game:
    """A game of the given options from fleet texts, ``first`` to shoot."""
    return Game(
        {"south": setup_from_text(south), "north": setup_from_text(north)},
        {"options": options, "seed": seed_for(first)},
    )


def new_state(options: dict, south: str, north: str, first: Side = Side.SOUTH) -> GameState:
    return GameState.from_setups(rules_from_options(options), setup_from_text(south), setup_from_text(north), first)


def shoot(game: Game, *cells: str) -> list[str]:
    """Fire ``cells`` in turn; the answers as strings."""
    return [str(e.answer) for c in cells for e in game.apply(c) if hasattr(e, "answer")]


def rejected(game: Game, action: str, by: Side | None = None) -> str:
    """The code of the refusal of ``action``; the game must be unchanged (state, record, log, every view)."""
    state, record, log = game.state.copy(), game.record.to_json(), list(game.log)
    views = {a: dumps(game, a) for a in ("south", "north", "spectator")}
    try:
        game.apply(action, by)
    except IllegalAction as e:
        assert game.state == state, f"{action} changed the state"
        assert game.record.to_json() == record and game.log == log
        assert {a: dumps(game, a) for a in views} == views
        return e.code
    raise AssertionError(f"{action} was accepted")


def dumps(game: Game, audience: str | Side) -> str:
    """A view's wire form as JSON text."""
    return json.dumps(game.view(audience).to_dict(), ensure_ascii=False)
