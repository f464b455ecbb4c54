"""The bots' model (:mod:`admiral.games.naval.bots.model`) against the engine: the same legal orders in the same
order, and every outcome the engine reaches is one the model's chance node lists, with the die's odds (§5, §7.3)."""

from __future__ import annotations

import random

import pytest

from admiral.games.naval.bots import model
from admiral.games.naval.bots.model import SURVIVE, VALUE, evaluate, from_state, moves, play, reach, to_order
from admiral.games.naval.rules import Game, GameState, Side, parse_point

from .helpers import N_START, S_START, game


def _same(model, state: GameState) -> bool:
    """Whether the model position equals the engine's (side to move and quiet plies only while the game goes on:
    the engine leaves them as they were at the end)."""
    mine = from_state(state)
    if model.result != mine.result or model.ships != mine.ships or model.mines != mine.mines:
        return False
    if model.reserve != mine.reserve:
        return False
    return model.result is not None or (model.to_move == mine.to_move and model.quiet == mine.quiet)


def _biased(rng: random.Random, ms: list[tuple]) -> tuple:
    """A random move, strikes and steps preferred (so games reach sinkings, rolls and their ends)."""
    strikes = [m for m in ms if m[1] == 2]
    if strikes and rng.random() < 0.8:
        return rng.choice(strikes)
    steps = [m for m in ms if m[1] == 0]
    if steps and rng.random() < 0.6:
        return rng.choice(steps)
    return rng.choice(ms)


def _check_game(g: Game, rng: random.Random, max_plies: int = 600) -> None:
    while g.state.result is None and g.state.ply < max_plies:
        pos = from_state(g.state)
        ms = moves(pos)
        assert [to_order(m) for m in ms] == g.legal_actions()  # §3, §4, §7.2: the same set, the same order
        m = _biased(rng, ms)
        outs = play(pos, m)
        assert abs(sum(p for p, _ in outs) - 1) < 1e-12
        g.apply(to_order(m))
        assert any(_same(o, g.state) for _, o in outs), (g.state.ply, str(to_order(m)))
        evaluate(pos)  # never fails on a reachable position


@pytest.mark.parametrize("seed", range(12))
def test_model_follows_the_engine_from_the_start(seed):
    """Legal orders and outcomes (strikes, guns, mines, the quiet draw, fleets destroyed) match the engine."""
    _check_game(Game.new({"options": {}, "seed": seed}), random.Random(seed))


ENDGAMES = [
    "Bd5n Ma1n / Te9s",  # a battleship hunting a lone torpedo boat
    "Ma4n Se5n / Tb11s Ge10s / mines a5 e6 / reserve 2 1",  # mines on the way, a sub that ignores them
    "Tb10n / Gb12s Mi13s / mines b11 / reserve 0 3",  # a gun and a mine on one point (§7.3: two rolls)
    "Cd6e Gf6w / Ce8s Sf8s",  # land (e7) ahead, a head-on meeting
]


@pytest.mark.parametrize("position", ENDGAMES)
@pytest.mark.parametrize("seed", range(4))
def test_model_follows_the_engine_in_endgames(position, seed):
    """The same on positions built with ``Game.from_position`` (few ships: the last-ship rules, §6, §7.4)."""
    _check_game(game(position, "south" if seed % 2 == 0 else "north", seed), random.Random(seed))


def test_a_gun_point_is_a_chance_node():  # §5: a ship entering an enemy gun point rolls; «взрыв» 1 in 6
    pos = from_state(game("Tb10n Ma1n / Ti13s").state)
    (m,) = [m for m in moves(pos) if str(to_order(m)) == "b10-b11"]
    (p_afloat, afloat), (p_sunk, sunk) = play(pos, m)
    assert p_afloat == pytest.approx(5 / 6) and p_sunk == pytest.approx(1 / 6)
    b11 = parse_point("b11")
    assert b11 in afloat.ships and b11 not in sunk.ships and sunk.quiet == 0


def test_a_mine_and_a_gun_roll_twice():  # §5, §7.3: both on one point, two rolls
    pos = from_state(game("Tb10n Ma1n / Ti13s / mines b11").state)
    (m,) = [m for m in moves(pos) if str(to_order(m)) == "b10-b11"]
    (p_afloat, _), (_, sunk) = play(pos, m)
    assert p_afloat == pytest.approx(SURVIVE**2) and parse_point("b11") in sunk.mines  # the mine stays after «взрыв»


def test_the_submarine_and_the_minesweeper():  # §5: the sub passes both freely, the minesweeper passes mines
    pos = from_state(game("Sb10n Ma4n / Ti13s / mines b11 a5").state)
    for notation in ("b10-b11", "a4-a5"):
        (m,) = [m for m in moves(pos) if str(to_order(m)) == notation]
        assert len(play(pos, m)) == 1


def test_the_last_strike_does_not_roll():  # §7.4: the strike sinking the last enemy ship ends the game at once
    pos = from_state(game("Bb10n / Tb11e").state)
    (m,) = [m for m in moves(pos) if str(to_order(m)) == "b10xb11"]
    ((p, end),) = play(pos, m)
    assert p == 1 and end.result == int(Side.SOUTH)


def test_evaluate_is_zero_sum_at_the_start():
    """The start is symmetric under the half-turn: neither side is ahead."""
    assert evaluate(from_state(Game.new({"options": {}, "seed": 0}).state)) == pytest.approx(0)
    assert S_START and N_START


def _state(point: str, facing: str) -> int:
    return parse_point(point) * 4 + "nesw".index(facing)


def test_reach_counts_steps_and_quarter_turns_around_land():
    """§3: a step bow first or a 90° turn is one move; a half-turn two; land (§1) is gone around."""
    table = reach()
    assert table[_state("i7", "w")][_state("i6", "n")] == 2  # a step north, a turn left
    assert table[_state("e1", "s")][_state("e1", "n")] == 2  # a half-turn: two turns
    assert table[_state("e5", "n")][_state("e1", "n")] == 4  # four steps straight on
    assert table[_state("e1", "n")][_state("e5", "n")] == 8  # back and facing north again: 2 + 4 + 2 turns
    # e6 → e8 straight is blocked by the island at e7: round by d (turn, step, turn, 2 steps, turn, step, turn)
    assert table[_state("e8", "n")][_state("e6", "n")] == 8
    assert table[_state("c6", "n")][_state("c5", "n")] == 255  # land is never reached


def test_a_defended_ship_is_a_smaller_prize():
    """§4: a torpedo boat the enemy battleship would avenge is worth less to a cruiser than a lone one (the
    cruiser taking it is struck in turn)."""
    lone = evaluate(from_state(game("Cd5n Ma1n / Td6e Bf9s Mi13s").state), 0)
    avenged = evaluate(from_state(game("Cd5n Ma1n / Td6e Bd7s Mi13s").state), 0)
    assert lone - avenged > 0.5 * VALUE[3]  # the lone one counts as a prize (a torpedo boat is 3), the other not


def test_a_net_of_two_ships_at_right_angles_is_valued(monkeypatch):
    """§4: a ship may show one striker its bow, never two at right angles (the turn that shows one its bow shows
    the other its broadside): the hunter's second gunboat one move from closing the net on the lone battleship
    (west and south of it) scores over the same gunboat three moves away, by the net's weight per move saved."""

    def gap() -> float:
        closing = evaluate(from_state(game("Gd6e Ge4n Ma1n / Be6n").state), 0)
        far = evaluate(from_state(game("Gd6e Ge2n Ma1n / Be6n").state), 0)
        return closing - far

    with_net, weight = gap(), model.W_NET
    monkeypatch.setattr(model, "W_NET", 0.0)
    assert with_net > gap() > 0  # the hunt alone prefers it too
    assert with_net - gap() == pytest.approx(2 * weight * VALUE[0])  # 2 moves nearer, a battleship
