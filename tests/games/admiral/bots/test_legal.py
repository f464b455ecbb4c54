"""Every level returns a legal action from many positions of random games, pending declarations included."""

from __future__ import annotations

import random

import pytest

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.rules import Declare, Game, Side


def _positions(seed: int, turns: int, pending: int):
    """Yield (game, side) at decision points of random games: ``turns`` turns at various plies and
    ``pending`` pending declarations with a real choice."""
    rng = random.Random(seed)
    while turns > 0 or pending > 0:
        game = Game.new_random(rng)
        stop = rng.randrange(0, 700)
        while game.state.result is None and (turns > 0 or pending > 0):
            state = game.state
            if state.pending is not None and len(state.pending.options) > 1:
                if pending > 0:
                    pending -= 1
                    yield game, state.to_act
            elif game.ply >= stop and turns > 0:
                turns -= 1
                yield game, state.to_act
                stop = game.ply + rng.randrange(40, 200)
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_bots_return_legal_actions(level: int) -> None:
    declarations = 0
    for n, (game, side) in enumerate(_positions(level, 20, 6)):
        bot = make_bot(level, n)
        bot.observe(game.view(side, since=0))  # the whole history at once: a bot joining late copes
        view = game.view(side)
        action = bot.act(view, 5.0)
        assert action in view.legal, f"level {level} chose {action} at ply {game.ply}"
        if game.state.pending is not None:
            assert type(action) is Declare
            declarations += 1
    assert declarations == 6


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_setups_are_valid_and_reproducible(level: int) -> None:
    from admiral.games.admiral.rules import validate_setup

    for side in Side:
        a, b = make_bot(level, 3).setup(side), make_bot(level, 3).setup(side)
        assert validate_setup(side, a) == []
        assert a == b


@pytest.mark.parametrize("level", [4, 5])
@pytest.mark.parametrize("side", list(Side))
def test_levels_four_and_five_guard_their_bases(level: int, side: Side) -> None:
    from admiral.games.admiral.rules import Kind
    from admiral.games.admiral.rules.board import ORTH, cell_row

    for seed in range(5):
        setup = make_bot(level, seed).setup(side)
        bases = [c for c, k in setup.items() if k is Kind.VMB]
        assert [cell_row(c) for c in bases] == ([0, 0] if side is Side.SOUTH else [14, 14])
        for base in bases:
            assert sorted(setup[n].code for n in ORTH[base]) == ["ES", "M", "M"]


@pytest.mark.parametrize("level", [4, 5])
def test_levels_four_and_five_put_their_bases_on_other_cells_each_game(level: int) -> None:
    """rules §12: a deliberate setup, but not the same cells every game (a player would learn them): the left
    base stands in column 1–4 and the right one in 9–12 of the side's own back edge, each drawn anew."""
    from admiral.games.admiral.rules import Kind
    from admiral.games.admiral.rules.board import cell_col

    pairs = set()
    for seed in range(60):
        setup = make_bot(level, seed).setup(Side.SOUTH)
        cols = sorted(cell_col(c) for c, k in setup.items() if k is Kind.VMB)
        assert cols[0] in (1, 2, 3, 4) and cols[1] in (9, 10, 11, 12)
        pairs.add(tuple(cols))
    assert len({a for a, _ in pairs}) == 4 and len({b for _, b in pairs}) == 4
    assert len(pairs) >= 10


def test_make_bot_levels_and_names() -> None:
    from admiral.games.admiral.bots import LEVELS

    assert [make_bot(n, 1).level for n in range(1, 6)] == [1, 2, 3, 4, 5]
    assert make_bot(5, 1).name == "Адмиральский"
    assert LEVELS[4].ru == "Капитан 1 ранга"
    with pytest.raises(ValueError):
        make_bot(6, 1)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_a_zero_deadline_still_gives_a_legal_action(level: int) -> None:
    """Out of time from the start, a bot still answers (with fewer samples, no search)."""
    for n, (game, side) in enumerate(_positions(10 + level, 4, 1)):
        bot = make_bot(level, n)
        bot.observe(game.view(side, since=0))
        view = game.view(side)
        assert bot.act(view, 0.0) in view.legal


@pytest.mark.parametrize("side", list(Side))
def test_each_level_places_its_bases_as_its_setup_says(side: Side) -> None:
    """rules §3.2: bases never in the front row; level 2 sets them just behind it, level 3 on the back edge
    apart, level 4 on the back edge between two mines."""
    from admiral.games.admiral.bots.setups import FORWARD_ROW
    from admiral.games.admiral.rules import Kind
    from admiral.games.admiral.rules.board import ORTH, cell_col, cell_row

    back = 0 if side is Side.SOUTH else 14
    forward = FORWARD_ROW if side is Side.SOUTH else 14 - FORWARD_ROW
    for seed in range(10):
        two = make_bot(2, seed).setup(side)
        assert [cell_row(c) for c, k in two.items() if k is Kind.VMB] == [forward, forward]
        three = make_bot(3, seed).setup(side)
        bases = [c for c, k in three.items() if k is Kind.VMB]
        assert [cell_row(c) for c in bases] == [back, back]
        assert abs(cell_col(bases[0]) - cell_col(bases[1])) >= 3
        four = make_bot(4, seed).setup(side)
        for base in (c for c, k in four.items() if k is Kind.VMB):
            assert cell_row(base) == back
            assert sum(four.get(n) is Kind.M for n in ORTH[base]) == 2


@pytest.mark.parametrize("level", [3, 4, 5])
def test_no_air_strike_again_on_a_mine_it_has_seen(level: int) -> None:
    """QA finding: in a game against level 4 (``records/mine_loop.json``, its first 210 plies) North's aircraft
    on a12 struck South's mine 123 times, on a8 and, after the mine stepped, on a9: an air strike on a mine
    only reveals it (rules §7.2), and every strike earned the quiet-sea bonus. An attack known to remove
    nothing is worth nothing: on the mine where it was revealed (levels 3–5 remember it there, plies 98 and
    200) nor where it stepped to (levels 4–5 follow it, rules §11.2; ply 104)."""
    import json
    from pathlib import Path

    from admiral.games.admiral.rules import Attack, GameRecord, parse_cell

    record = GameRecord.from_dict(json.loads((Path(__file__).parent / "records" / "mine_loop.json").read_text()))
    cases = [(98, "a8"), (200, "a9")] + ([(104, "a9")] if level >= 4 else [])
    for ply, mine in cases:
        game = record.replay(ply)
        assert record.actions[ply] == Attack(parse_cell("a12"), parse_cell(mine))  # what level 4 played
        for seed in range(3):
            bot = make_bot(level, seed)
            bot.observe(game.view(Side.NORTH, since=0))
            view = game.view(Side.NORTH)
            action = bot.act(view, 1.0)
            assert action in view.legal
            assert not (type(action) is Attack and action.target == parse_cell(mine)), (ply, seed, action)


def test_level_five_keeps_its_plan_but_not_its_cells() -> None:
    """QA finding: level 5 set up on nearly the same cells every game (25–40 of 58 alike, mirrored), and both
    setups are open after a game (rules §11.6), so its carrier and bomb could be aimed at blind. Now its
    deliberate plan (rules §12) stands on cells drawn anew: the blocks of the front row, the carrier with its
    aircraft, the bomb where its blast (rules §8) cannot reach a base."""
    from admiral.games.admiral.rules import Kind
    from admiral.games.admiral.rules.board import BLAST, FRONT_ROW, RING, cell_at, cell_col, cell_row

    setups = [make_bot(5, seed).setup(Side.SOUTH) for seed in range(30)]
    for setup in setups:
        line = " ".join(setup[c].code if c in setup else "." for c in sorted(FRONT_ROW[Side.SOUTH], key=cell_col))
        padded = f" {line} "
        assert " KR KR KR " in padded and " M L L M " in padded, line
        assert " R R ES " in padded or " ES R R " in padded, line
        sm, br = (next(c for c, k in setup.items() if k is kind) for kind in (Kind.SM, Kind.BR))
        assert cell_row(sm) == cell_row(br) == 4
        aircraft = next(c for c, k in setup.items() if k is Kind.S)
        assert any(setup.get(n) is Kind.A for n in RING[aircraft])
        bomb = next(c for c, k in setup.items() if k is Kind.AB)
        assert not any(setup.get(c) is Kind.VMB for c in BLAST[bomb])
        # issue 22: a back corner where one is clear of the bases (from row 3 an enemy reached it within 8 plies)
        bases = [cell_col(c) for c, k in setup.items() if k is Kind.VMB]
        corner = any(all(abs(col - b) > 2 for b in bases) for col in (0, 13))
        at = (cell_col(bomb), cell_row(bomb))
        assert at in ({(0, 0), (0, 1), (13, 0), (13, 1)} if corner else {(0, 3), (1, 3), (12, 3), (13, 3)}), bases

    def alike(a: dict, b: dict) -> int:
        mirrored = {cell_at(13 - cell_col(c), cell_row(c)): k for c, k in a.items()}
        return max(sum(b.get(c) is k for c, k in x.items()) for x in (a, mirrored))

    pairs = [alike(a, b) for i, a in enumerate(setups) for b in setups[i + 1 :]]
    assert sum(pairs) / len(pairs) < 15
    for kind, at_least in ((Kind.A, 10), (Kind.SM, 8), (Kind.AB, 4), (Kind.L, 8)):
        assert len({c for s in setups for c, k in s.items() if k is kind}) >= at_least, kind
