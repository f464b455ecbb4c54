"""Helpers of the naval rules tests: positions, seeds with chosen dice, refusals that change nothing."""

from __future__ import annotations

from functools import cache

import pytest

from admiral.games.naval.rules import FACES, Game, GameRecord, GameState, IllegalAction, draw, seed_bytes

S_START = "Ma1n Tb1n Tc1n Cd1n Be1n Cf1n Tg1n Th1n Si1n Gd2n Ge2n Gf2n"
N_START = "Gd12s Ge12s Gf12s Sa13s Tb13s Tc13s Cd13s Be13s Cf13s Tg13s Th13s Mi13s"


@cache
def seed_for(*explosions: bool) -> int:
    """The smallest seed whose rolls 0, 1, … are «взрыв» exactly where ``explosions`` says (§7.5)."""
    seed = 0
    while True:
        b = seed_bytes(seed)
        if all((draw(b, k, FACES) == 0) is want for k, want in enumerate(explosions)):
            return seed
        seed += 1


def game(position: str, to_move: str = "south", seed: int = 0) -> Game:
    """A game from a position text (``GameState.from_text``); a lone ship per side keeps the game going."""
    return Game.from_position(position, to_move, seed)


def refused(g: Game, notation: str, code: str, by: str | None = None) -> IllegalAction:
    """Apply ``notation`` expecting the refusal ``code``; the game must be unchanged and the reason readable."""
    from admiral.games.naval.rules import Side

    before = g.state.copy()
    actions = list(g.record.actions)
    with pytest.raises(IllegalAction) as e:
        g.apply(notation, None if by is None else Side.parse(by))
    assert e.value.code == code, (e.value.code, e.value.reason)
    assert e.value.reason and len(e.value.reason) > 10
    assert g.state == before and g.record.actions == actions
    return e.value


def notations(g: Game | GameState) -> list[str]:
    """The legal orders' notation."""
    return [str(a) for a in g.legal_actions()]


def replayed(g: Game) -> Game:
    """``g`` rebuilt from its record's JSON."""
    return GameRecord.from_json(g.record.to_json()).replay()
