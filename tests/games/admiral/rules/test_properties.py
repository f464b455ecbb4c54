"""Properties of random games (hypothesis): replay, legality, termination, and the fog of war (rules §4–§11).

Every game starts from two auto-arranged setups drawn from a ``random.Random`` seeded by hypothesis and is played
by uniformly random legal actions. ``max_examples`` stays modest: a random game is ~1500 plies.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from admiral.games.admiral.rules import (
    QUIET_LIMIT,
    Action,
    Attack,
    BattleReport,
    Declare,
    Detonate,
    Game,
    GameRecord,
    GameState,
    IllegalAction,
    Move,
    Moved,
    Reason,
    Side,
    apply,
    formations_at,
    has_legal_action,
    legal_actions,
)
from admiral.games.admiral.rules.board import BIT, ORTH, distance

SEEDS = st.integers(0, 2**32 - 1)
#: More plies than any game can last: the quiet-sea rule (rules §10.3) ends a game 200 plies after the last removal,
#: and a fleet of 58 units can lose only 58 units.
MAX_PLIES = 5000
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, max_plies: int = MAX_PLIES) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    game = Game.new_random(rng)
    while not game.state.is_over and game.ply < max_plies:
        game.apply(rng.choice(game.legal_actions()))
    return game, rng


def dumps(game: Game, audience) -> str:
    return json.dumps(game.view(audience).to_dict(), sort_keys=True, ensure_ascii=False)


def describe(a: Action) -> str:
    """An action's type and fields, for messages (its notation needs cells on the board)."""
    return f"{type(a).__name__}({', '.join(repr(getattr(a, f)) for f in type(a).__slots__)})"


def same_action(a: Action, b: Action) -> bool:
    """Equal as actions; an attack declaring only its attacker is the attack alone (rules §7.1.1)."""
    if type(a) is Attack and a.formation == (a.origin,):
        a = Attack(a.src, a.target, a.via)
    return a == b


# ---------------------------------------------------------------------------------------------------------------
# Replay


@FAST
@given(SEEDS)
def test_replaying_the_record_reproduces_every_state(seed):
    rng = random.Random(seed)
    game = Game.new_random(rng)
    states = [game.state.copy()]
    while not game.state.is_over:
        game.apply(rng.choice(game.legal_actions()))
        states.append(game.state.copy())
    record = GameRecord.from_json(game.record.to_json())
    assert record == game.record
    replayed = list(record.states())
    assert len(replayed) == len(states)
    for ply, (a, b) in enumerate(zip(replayed, states, strict=True)):
        assert a == b, ply
    again = record.replay()
    assert again.log == game.log
    assert again.state == game.state


# ---------------------------------------------------------------------------------------------------------------
# Legality and termination


@FAST
@given(SEEDS)
def test_every_game_ends_and_legal_actions_agree(seed):  # rules §4.4, §10
    rng = random.Random(seed)
    game = Game.new_random(rng)
    state = game.state
    quiet = 0
    while not state.is_over and game.ply < MAX_PLIES:
        actions = legal_actions(state)
        assert actions, game.ply  # the game goes on only while the side to act can act
        assert has_legal_action(state)
        assert len(set(actions)) == len(actions)
        if game.ply % 25 == 0:  # every legal action applies, on a copy
            for a in actions:
                child = state.copy()
                events = apply(child, a)
                assert events and child.ply == state.ply + 1
        before_lost = sum(map(sum, state.lost))
        game.apply(rng.choice(actions))
        quiet = quiet + 1 if sum(map(sum, state.lost)) == before_lost and state.pending is None else 0
        if state.pending is None and not state.is_over:
            assert state.quiet == quiet
    assert state.is_over, "the quiet-sea rule must end every game"
    assert legal_actions(state) == []
    assert not has_legal_action(state)
    assert state.to_act is None
    if state.result.reason is Reason.QUIET_SEA:  # rules §10.3
        assert state.quiet == QUIET_LIMIT
    if state.result.reason is Reason.NO_ACTIONS:  # rules §4.4: the side that could not act lost
        assert state.result.winner is state.to_move.opponent
        probe = state.copy()
        probe.result = None
        assert legal_actions(probe) == [] and not has_legal_action(probe)
    if state.result.reason is Reason.BASES:  # rules §10.1
        assert state.bases[state.result.winner.opponent] == 0


def _bitboards_from_board(state: GameState) -> tuple[list[int], list[list[int]]]:
    """The occupancy and per-kind bitboards as the board itself has them, cell by cell."""
    occupied, kinds = [0, 0], [[0] * len(state.kinds[0]) for _ in Side]
    for cell, u in enumerate(state.board):
        if u is not None:
            occupied[u.side] |= BIT[cell]
            kinds[u.side][u.kind] |= BIT[cell]
    return occupied, kinds


@FAST
@given(SEEDS)
def test_the_bitboards_follow_the_board_at_every_ply(seed):  # rules §1: one unit a cell; §7–§8 removals
    """The bitboards legal_actions reads (occupancy, each kind's cells) are kept along moves, attacks, blasts and
    copies: at every ply they are what the board holds."""
    rng = random.Random(seed)
    game = Game.new_random(rng)
    while not game.state.is_over:
        state = game.state
        occupied, kinds = _bitboards_from_board(state)
        assert state.occupied == occupied, game.ply
        assert list(state.kinds) == kinds, game.ply
        assert {c for c in range(210) if occupied[0] & BIT[c]} == state.cells[Side.SOUTH]
        copy = state.copy()
        game.apply(rng.choice(game.legal_actions()))
        assert (copy.occupied, list(copy.kinds)) == (occupied, kinds), "a copy is not changed by its original"


def _every_candidate(state: GameState) -> list[Action]:
    """Every action the side to move could name near its units, legal or not: each step, and each attack from where
    a unit stands or from each neighbouring cell on every enemy unit within four cells, alone and with every
    formation the unit would have there, and the detonation. An oracle by brute force: which of these ``apply``
    accepts is what ``legal_actions`` must list (it enumerates by its own faster path, issue 23)."""
    board, side = state.board, state.to_move
    enemy = state.cells[side.opponent]
    out: list[Action] = [Detonate()]
    for c in state.cells[side]:
        out.extend(Move(c, d) for d in ORTH[c])
        for via in (None, *ORTH[c]):
            origin = c if via is None else via
            forms: list[tuple[int, ...]] = [()]
            if via is None or board[via] is None:
                there = board.copy()
                there[c], there[origin] = None, board[c]
                forms += formations_at(there, origin)
            for t in enemy:
                if distance(t, origin) <= 4:
                    out.extend(Attack(c, t, via, f) for f in forms)
    return out


@FAST
@given(SEEDS)
def test_legal_actions_are_exactly_the_actions_apply_accepts(seed):  # rules §4–§8
    rng = random.Random(seed)
    game = Game.new_random(rng)
    state = game.state
    checked = 0
    while not state.is_over and checked < 8:
        if state.pending is None and game.ply % 40 == 0:
            accepted = set()
            for a in _every_candidate(state):
                try:
                    apply(state.copy(), a)
                except IllegalAction:
                    continue
                accepted.add(a)
            listed = legal_actions(state)
            assert set(listed) == accepted, (game.ply, sorted(map(str, set(listed) ^ accepted)))
            checked += 1
        game.apply(rng.choice(legal_actions(state)))


def _garbage(rng: random.Random, state: GameState, stale: list[Declare]) -> list[Action]:
    """Random actions, mostly illegal: random cells (some off the board), the wrong side's units, stale declarations."""

    def cell() -> int:
        return rng.randrange(-3, 213) if rng.random() < 0.1 else rng.randrange(210)

    side = state.to_move
    own = sorted(state.cells[side])
    theirs = sorted(state.cells[side.opponent])
    out: list[Action] = [Detonate()]
    for _ in range(6):
        out.append(Move(cell(), cell()))
        out.append(Attack(cell(), cell()))
        out.append(Declare(tuple(sorted({cell() for _ in range(rng.randrange(1, 4))}))))
    for src in rng.sample(own, min(4, len(own))) + rng.sample(theirs, min(4, len(theirs))):
        dst = rng.choice(ORTH[src])
        near = [src, *ORTH[src], *ORTH[dst]]
        formation = tuple(sorted(set(rng.sample(near, rng.randrange(1, 4)))))
        out.append(Move(src, dst))
        out.append(Attack(src, rng.choice([*ORTH[src], cell()])))
        out.append(Attack(src, rng.choice([*ORTH[dst], cell()]), dst, formation))
        out.append(Attack(src, rng.choice(ORTH[src]), None, formation))
    # the other side's legal actions (it is not its turn)
    if state.pending is None:
        other = state.copy()
        other.to_move = side.opponent
        out.extend(
            a for a in rng.sample(legal_actions(other), min(6, len(legal_actions(other)))) if type(a) is not Detonate
        )
    out.extend(stale[-3:])
    return out


@FAST
@given(SEEDS)
@example(5729022)  # a Declare((211,)) raised IndexError while its refusal was worded (the full run of 2026-12-04)
def test_illegal_input_raises_illegal_action_and_changes_nothing(seed):
    rng = random.Random(seed)
    game = Game.new_random(rng)
    state = game.state
    stale: list[Declare] = []
    tried = refused = 0
    while not state.is_over and game.ply < 1200:
        if game.ply % 15 == 0 or state.pending is not None:
            legal = legal_actions(state)
            for g in _garbage(rng, state, stale):
                work = state.copy()
                tried += 1
                try:
                    apply(work, g)
                except IllegalAction as e:
                    refused += 1
                    assert isinstance(e.code, str) and e.code and e.reason
                    assert work == state, (describe(g), e.code)  # untouched
                    assert not any(same_action(g, a) for a in legal), (describe(g), e.code)
                except Exception as e:
                    raise AssertionError(f"{type(e).__name__} escaped for {describe(g)}: {e}") from e
                else:
                    assert any(same_action(g, a) for a in legal), describe(g)
            if state.pending is not None:
                stale.extend(Declare(f) for f in state.pending.options)
        game.apply(rng.choice(legal_actions(state)))
    assert refused > tried // 2


# ---------------------------------------------------------------------------------------------------------------
# The fog of war


def _check_no_kind_leaks(game: Game) -> None:
    """Nothing in a player's view names the kind of an enemy unit except the public battle reports (rules §11.2)."""
    for me in Side:
        d = game.view(me, since=max(0, game.ply - 3)).to_dict()
        for u in d["units"]:
            assert set(u) == {"cell", "side", "kind"}
            if u["side"] != me.label:
                assert u["kind"] is None, u
        for e in d["events"]:
            if e["type"] == "move":
                assert set(e) == {"type", "ply", "side", "src", "dst", "kind"}
                if e["side"] != me.label:
                    assert e["kind"] is None, e
            else:
                assert e["type"] == "report"
        if d["pending"] is not None:
            attacker = game.state.pending.side is me
            assert (d["pending"]["formation"] is None) is not attacker
            assert (d["pending"]["options"] is None) is attacker
        if d["legal"]:  # only the side to act gets its legal actions
            assert me is game.state.to_act
        json.dumps(d)
    spectator = game.view("spectator").to_dict()
    assert all(u["kind"] is None for u in spectator["units"])
    assert all(e["kind"] is None for e in spectator["events"] if e["type"] == "move")
    assert spectator["legal"] == []


@FAST
@given(SEEDS)
def test_views_never_show_an_enemy_kind(seed):  # rules §11.2, §11.7
    rng = random.Random(seed)
    game = Game.new_random(rng)
    while not game.state.is_over and game.ply < 1500:
        if game.ply % 10 == 0 or game.state.pending is not None:
            _check_no_kind_leaks(game)
        game.apply(rng.choice(game.legal_actions()))
    _check_no_kind_leaks(game)


def hidden_units(game: Game, side: Side) -> list[int]:
    """Setup cells of ``side``'s units that no battle report ever showed (revealed or removed). A swapped pair
    whose setup is not valid (a base moved into the front row) fails to replay and is skipped."""
    where = {c: c for c in game.record.setups[side]}  # where each unit stands now → its setup cell
    revealed: set[int] = set()
    for e in game.log:
        if isinstance(e, Moved) and e.side is side:
            where[e.dst] = where.pop(e.src)
        elif isinstance(e, BattleReport):
            for s in (*e.participants, *e.removed):
                if s.side is side and s.cell in where:
                    revealed.add(where[s.cell])
            for s in e.removed:
                if s.side is side:
                    where.pop(s.cell, None)
    return sorted(set(where.values()) - revealed)


def _replay_swapped(game: Game, side: Side, a: int, b: int) -> Game | None:
    """The game replayed with the kinds of ``side``'s units set up on ``a`` and ``b`` swapped, when every action
    stays legal and the public outcome (the battle reports and the result) is the same; else ``None``."""
    setups = {s: dict(game.record.setups[s]) for s in Side}
    setups[side][a], setups[side][b] = setups[side][b], setups[side][a]
    try:
        swapped = GameRecord(setups, list(game.record.actions), game.record.settings).replay()
    except IllegalAction:
        return None
    reports = [e for e in game.log if isinstance(e, BattleReport)]
    if [e for e in swapped.log if isinstance(e, BattleReport)] != reports:
        return None
    if swapped.state.result != game.state.result:
        return None
    return swapped


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(SEEDS, st.integers(150, 900), st.sampled_from(list(Side)), SEEDS)
def test_indistinguishability(seed, plies, side, pick):  # rules §11.2, §11.7
    """Two unrevealed units of one side swap kinds: the other side and spectators cannot tell, byte for byte."""
    game, _ = random_game(seed, plies)
    hidden = hidden_units(game, side)
    kinds = game.record.setups[side]
    pairs = [(a, b) for a, b in combinations(hidden, 2) if kinds[a] is not kinds[b]]
    random.Random(pick).shuffle(pairs)
    swapped = None
    for a, b in pairs[:12]:
        swapped = _replay_swapped(game, side, a, b)
        if swapped is not None:
            break
    assume(swapped is not None)

    other = side.opponent
    one = Game(game.record.setups[Side.SOUTH], game.record.setups[Side.NORTH])
    two = Game(swapped.record.setups[Side.SOUTH], swapped.record.setups[Side.NORTH])
    for ply, action in enumerate([None, *game.record.actions]):
        if action is not None:
            one.apply(action)
            two.apply(action)
        for audience in (other, "spectator"):
            assert dumps(one, audience) == dumps(two, audience), (ply, audience)
    # while the side itself sees its two units where they are
    assert dumps(one, side) != dumps(two, side)


def test_indistinguishability_finds_swaps():
    """The property above is not vacuous: for a fixed game a swap that keeps the public outcome exists."""
    game, _ = random_game(7, 600)
    for side in Side:
        hidden = hidden_units(game, side)
        assert len(hidden) > 20
        kinds = game.record.setups[side]
        ok = [
            (a, b)
            for a, b in combinations(hidden[:12], 2)
            if kinds[a] is not kinds[b] and _replay_swapped(game, side, a, b) is not None
        ]
        assert ok, side
