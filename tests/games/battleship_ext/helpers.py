"""Shared fixtures of the extended variant's rule tests (BATTLESHIP.md C, D): hand-made fleets per board, seeds
for a chosen first shooter, playing and refusing."""

from __future__ import annotations

import json
from functools import cache

from admiral.games.battleship.rules import draw, seed_bytes
from admiral.games.battleship_ext.rules import ExtGame, IllegalAction, Side, setup_from_text

#: A classic-board fleet along the left edge, a mine at j10 and a minesweeper at c10 (C1, C2).
SOUTH = "4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6 M:j10 T:c10"
#: Another classic-board fleet, a mine at g5 and a minesweeper at j3.
NORTH = "4:j7-j10 3:a8-a10 3:c8-c10 2:e9-e10 2:g9-g10 2:h1-i1 1:a1 1:e1 1:e5 1:c5 M:g5 T:j3"
#: A «Перельман» fleet (16×16: 2×4, 3×3, 4×2, 5×1) with three mines and a minesweeper.
PERELMAN = (
    "4:a1-a4 4:a6-a9 3:c1-c3 3:c5-c7 3:c9-c11 2:e1-e2 2:e4-e5 2:e7-e8 2:e10-e11 "
    "1:g1 1:g3 1:g5 1:g7 1:g9 M:i1 M:i3 M:i5 T:i7"
)
#: A «Гигант» fleet (18×18: 2×5, 3×4, 4×3, 5×2, 6×1) with three mines and a minesweeper.
GIANT = (
    "5:a1-a5 5:a7-a11 4:c1-c4 4:c6-c9 4:c11-c14 3:e1-e3 3:e5-e7 3:e9-e11 3:e13-e15 "
    "2:g1-g2 2:g4-g5 2:g7-g8 2:g10-g11 2:g13-g14 1:i1 1:i3 1:i5 1:i7 1:i9 1:i11 M:k1 M:k3 M:k5 T:k7"
)

CLASSIC = {"board": "classic", "mines": 1, "sweepers": 1}


@cache
def seed_for(side: Side, start: int = 0) -> int:
    """The smallest seed from ``start`` whose draw 0 makes ``side`` shoot first (D2, D13)."""
    return next(s for s in range(start, start + 1000) if draw(seed_bytes(s), 0, 2) == side)


def new_game(
    south: str = SOUTH,
    north: str = NORTH,
    options: dict | None = None,
    first: Side = Side.SOUTH,
    levels: tuple[int, int] = (1, 1),
    seed: int | None = None,
) -> ExtGame:
    """A game from fleet texts, ``first`` to shoot (the seed is the first one that draws it, from ``seed``)."""
    return ExtGame(
        {"south": setup_from_text(south), "north": setup_from_text(north)},
        {
            "options": CLASSIC if options is None else options,
            "seed": seed_for(first, seed or 0),
            "levels": {"south": levels[0], "north": levels[1]},
        },
    )


def answers(game: ExtGame, *actions: str) -> list[str]:
    """Apply ``actions`` in turn; the answers of the shots they fired, as strings."""
    return [str(e.answer) for a in actions for e in game.apply(a) if hasattr(e, "answer")]


def dumps(game: ExtGame, audience: str | Side) -> str:
    """A view's wire form as JSON text (sorted keys)."""
    return json.dumps(game.view(audience).to_dict(), ensure_ascii=False, sort_keys=True)


def rejected(game: ExtGame, action: str, by: Side | None = None) -> str:
    """The code of the refusal of ``action``; the game must be unchanged (state, record, log, every view)."""
    state, record, log = game.state.copy(), game.record.to_json(), list(game.log)
    views = {a: dumps(game, a) for a in ("south", "north", "spectator")}
    try:
        game.apply(action, by)
    except IllegalAction as e:
        assert game.state == state, f"{action} changed the state"
        assert game.record.to_json() == record and game.log == log
        assert {a: dumps(game, a) for a in views} == views
        assert e.reason
        return e.code
    raise AssertionError(f"{action} was accepted")
