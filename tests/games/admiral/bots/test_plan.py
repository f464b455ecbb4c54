"""The positional plan of the heuristic levels: level 5 keeps its bases closed (rules §12)."""

from __future__ import annotations

import pytest

from admiral.games.admiral.bots import make_bot
from admiral.games.admiral.bots.bots import PLUGS, _Context
from admiral.games.admiral.rules import Game, Kind, Side
from admiral.games.admiral.rules.board import ORTH

K = Kind


def _contexts():
    """Level 5 and level 4 judging the same opening position of South (level 5's setup)."""
    south = make_bot(5, 3)
    game = Game(south.setup(Side.SOUTH), make_bot(4, 4).setup(Side.NORTH))
    view = game.view(Side.SOUTH)
    out = []
    for level in (5, 4):
        bot = make_bot(level, 5)
        bot.observe(view)
        out.append(_Context(bot, view, 2))
    return view, out


def test_level_five_keeps_a_unit_beside_each_base() -> None:
    """rules §7.2 (a base falls to any contact) and §12 (level 5 shifts forces to defend its bases): a unit
    of :data:`PLUGS` beside its own base is worth 2 points more to level 5 than to level 4, and its
    strike ships are not tied there; the destroyer set in front of a base does not step away."""
    view, (five, four) = _contexts()
    own = view.own()
    bases = [c for c, k in own.items() if k is K.VMB]
    assert len(bases) == 2
    for base in bases:
        for cell in ORTH[base]:
            for kind in (K.ES, K.M, K.TR):
                assert five.term(kind, cell, own) - four.term(kind, cell, own) == pytest.approx(2.0)
            for kind in (K.L, K.KR, K.R):
                assert kind not in PLUGS
                assert five.term(kind, cell, own) == four.term(kind, cell, own)
    assert K.AB not in PLUGS and K.A not in PLUGS  # the bomb's blast would take the base (rules §8)
    guard = [n for b in bases for n in ORTH[b] if own.get(n) is K.ES]
    assert len(guard) == 2  # the setup's destroyer in front of each base
    for es in guard:
        for dst in ORTH[es]:
            if dst not in own and dst not in view.markers():
                assert five.move_delta(es, dst) < four.move_delta(es, dst)


# -- issue 22: level 5's bomb, endgame press, trail and thinking time ---------------------------------------------

from dataclasses import replace  # noqa: E402

from admiral.games.admiral.bots import bots as bots_module  # noqa: E402
from admiral.games.admiral.bots.bots import (  # noqa: E402
    AIR_HUNT,
    AIR_REACH,
    AIR_RISK,
    BLAST_RISK,
    CONFIGS,
    PRESS,
    PRESS_FROM,
    REPEAT,
    VALUE,
    HeuristicBot,
    can_attack,
)
from admiral.games.admiral.rules import Attack, Detonate, GameState, Move, view  # noqa: E402
from admiral.games.admiral.rules.board import parse_cell  # noqa: E402


def _view(text: str, *, quiet: int = 0, north_left: bool = False):
    """South's view of a position; ``north_left``: North's units on the board are all it has left (its other
    units counted lost, rules §11.4), so the material is exact."""
    state = GameState.from_text(text, Side.SOUTH, ply=40, quiet=quiet)
    v = view(state, Side.SOUTH, [], since=0)
    if north_left:
        left = state.units(Side.NORTH)
        lost_north = {k: k.count - sum(1 for x in left.values() if x is k) for k in K}
        lost_south = {k: k.count - sum(1 for x in state.units(Side.SOUTH).values() if x is k) for k in K}
        v = replace(v, lost=(lost_south, lost_north))
    return v


def _bot(view, **switches) -> HeuristicBot:
    bot = make_bot(5, 7)
    bot.cfg = replace(CONFIGS[5], **switches)
    bot.observe(view)
    return bot


def test_the_bomb_keeps_off_its_own_base_as_the_enemy_nears() -> None:
    """rules §8 (the 5×5 blast takes both sides' units, bases included), issue 22: with the enemy cruiser four
    steps from d3 and five from c3, moving level 5's bomb c3 → d3 takes the base on a1 out of the blast: the own
    units in the square count at :data:`BLAST_RISK` of the enemy's distance."""
    v = _view("VMBa1 VMBk1 ABc3 ESc4 TKm5 / KRd7")
    guarded = _Context(_bot(v), v, 2)
    plain = _Context(_bot(v, bomb_guard=False), v, 2)
    own = v.own()
    c3, d3 = parse_cell("c3"), parse_cell("d3")
    assert guarded.blast_exposure(c3, own) == pytest.approx(BLAST_RISK[5] * (60 + VALUE[K.ES]))
    own_after = {**{c: k for c, k in own.items() if c != c3}, d3: K.AB}
    assert guarded.blast_exposure(d3, own_after) == pytest.approx(BLAST_RISK[4] * VALUE[K.ES])
    gain = guarded.move_delta(c3, d3) - plain.move_delta(c3, d3)
    assert gain == pytest.approx(BLAST_RISK[5] * 66 - BLAST_RISK[4] * 6)
    # A destroyer stepping out of the square of a bomb the enemy is two steps from gains what it risked there.
    v = _view("VMBa1 VMBk1 ABf5 ESf7 TKm5 / KRg6")
    guarded = _Context(_bot(v), v, 2)
    plain = _Context(_bot(v, bomb_guard=False), v, 2)
    f7, f8, e7 = parse_cell("f7"), parse_cell("f8"), parse_cell("e7")
    gain = guarded.move_delta(f7, f8) - plain.move_delta(f7, f8)
    assert gain == pytest.approx(BLAST_RISK[2] * VALUE[K.ES])
    assert guarded.move_delta(f7, e7) == pytest.approx(plain.move_delta(f7, e7))  # still in the square


def test_the_bomb_guard_counts_what_reaches_the_bomb_this_turn() -> None:
    """rules §4.2 (a step, then an attack), §6 (contact; an air strike from 1–4 cells along a line), §8; issue 22
    (0.98 own units a game lost to the own bomb): a ship two steps away reaches the bomb this turn, so it counts
    nearly the whole risk; an aircraft counts from five cells along the bomb's row or column, or from the rows or
    columns beside it, weighed by the chance the marker is one."""
    v = _view("VMBa1 VMBk1 ABc3 ESc4 TKm5 / KRd7")
    ctx = _Context(_bot(v), v, 2)
    c3 = parse_cell("c3")
    assert ctx.enemy_dist[c3] == 5 and ctx.blast_risk(c3) == BLAST_RISK[5]
    near = _view("VMBa1 VMBk1 ABc3 ESc4 TKm5 / KRe3")  # two steps: a step to d3, then a contact attack
    assert _Context(_bot(near), near, 2).blast_risk(c3) == BLAST_RISK[2]
    # a marker known to be an aircraft: d7 (a column beside, four rows up) reaches c3; e8 (two columns) does not
    for cell, risk in (("d7", AIR_RISK), ("c8", AIR_RISK), ("e8", BLAST_RISK[5]), ("c9", BLAST_RISK[5])):
        ctx = _Context(_bot(v), v, 2)
        ctx.air, ctx.risk_at = {parse_cell(cell): 1.0}, {}
        assert ctx.blast_risk(c3) == pytest.approx(risk), cell
    ctx = _Context(_bot(v), v, 2)
    ctx.air, ctx.risk_at = {parse_cell("d7"): 0.25}, {}
    assert ctx.blast_risk(c3) == pytest.approx(max(BLAST_RISK[5], AIR_RISK * 0.25))


def test_no_detonation_that_costs_more_than_it_removes() -> None:
    """rules §8, issue 22 (4 of 11 detonations removed one small unit): level 5 does not detonate when its own
    battleships and carrier stand in the square beside one enemy marker, and does when only enemy markers do."""
    v = _view("VMBa1 VMBk1 ABf5 Lf4 Lg4 Ae4 Se3 TKm5 / KRf6")
    bot = _bot(v)
    ctx = _Context(bot, v, 30)
    assert Detonate() in v.legal
    assert not ctx.detonation_ok()
    assert bot.act(v, 1.0) != Detonate()
    v = _view("VMBa1 VMBk1 ABf9 TKm5 / KRf10 KRe10 Lg10 Rf11 ESe11 KRPLg11")
    ctx = _Context(_bot(v), v, 30)
    assert ctx.detonation_ok()


def test_ahead_in_a_quiet_sea_level_five_presses() -> None:
    """rules §10.3 (200 quiet plies draw), issue 22 (9 of 80 games drawn ahead): ahead in material after 160
    quiet plies, an attack that removes an enemy unit earns :data:`PRESS` × (160 − 100) / 100 = 24 points more
    (one that removes only its own attacker nothing more), and level 5 attacks the marker beside its cruiser;
    behind, or early, there is no press."""
    text = "VMBa1 VMBk1 Lc5 Le5 KRf5 Rg5 TKm5 / VMBf14 VMBk15 Mf6"
    v = _view(text, quiet=160, north_left=True)
    ctx = _Context(_bot(v), v, 30)
    assert ctx.material_margin(v) == sum(VALUE[k] for k in (K.L, K.L, K.KR, K.R, K.TK)) - VALUE[K.M]
    assert ctx.press == pytest.approx(PRESS * (160 - PRESS_FROM) / (200 - PRESS_FROM))
    hit = Attack(parse_cell("f5"), parse_cell("f6"))
    calm = _Context(_bot(v, press=False), v, 30)
    assert ctx.press == pytest.approx(24.0)
    assert ctx.attack_bonus(hit, 1.0, 1.0) - calm.attack_bonus(hit, 1.0, 1.0) == pytest.approx(ctx.press)
    assert ctx.attack_bonus(hit, 1.0, 0.0) == pytest.approx(calm.attack_bonus(hit, 1.0, 0.0))
    action = _bot(v).act(v, 1.0)
    assert type(action) is Attack and action.target == parse_cell("f6"), action
    early = _view(text, quiet=PRESS_FROM, north_left=True)
    assert _Context(_bot(early), early, 2).press == 0.0
    behind = _view("VMBa1 VMBk1 KRf5 / VMBf14 VMBk15 Lf6 Lg9 Af12", quiet=160, north_left=True)
    assert _Context(_bot(behind), behind, 2).press == 0.0


def test_pressing_level_five_brings_its_carrier_and_aircraft_to_the_bases() -> None:
    """rules §10.3 and §6 (an air strike reaches 1–4 cells along a line), issue 22 (a quiet-sea draw while ahead with
    only a carrier and its aircraft left to strike): while the press runs, the carrier and the aircraft pay
    :data:`AIR_HUNT` a step beyond :data:`AIR_REACH` from the nearest base target, so stepping towards the deep
    base candidates gains them that much; without the press they stay by the nearest enemy."""
    v = _view("VMBa1 VMBk1 Ac3 Sc4 / VMBf14 VMBk15 Mf6", quiet=160, north_left=True)
    ctx, calm = _Context(_bot(v), v, 30), _Context(_bot(v, press=False), v, 30)
    assert ctx.press > 0 and calm.press == 0
    own = v.own()
    for kind, cell in ((K.A, "c3"), (K.S, "c4"), (K.A, "f10"), (K.S, "k12")):
        c = parse_cell(cell)
        extra = ctx.term(kind, c, own) - calm.term(kind, c, own)
        assert extra == pytest.approx(-AIR_HUNT * max(0, ctx.base_dist[c] - AIR_REACH))
    c3, d3 = parse_cell("c3"), parse_cell("d3")
    assert ctx.base_dist[d3] == ctx.base_dist[c3] - 1 > AIR_REACH  # towards f14
    assert ctx.move_delta(c3, d3) - calm.move_delta(c3, d3) == pytest.approx(AIR_HUNT)
    assert ctx.term(K.L, c3, own) == calm.term(K.L, c3, own)  # rated ships: the endgame plan, as before


def test_once_the_enemy_cannot_attack_the_base_guards_join_the_hunt() -> None:
    """rules §6 (a rated ship, a fireship or an aircraft with its carrier attacks; mines, bases and the bomb never do)
    and §10.3, issue 22 (a quiet-sea draw 122 : 56 ahead: level 5's two destroyers stayed beside its bases, where
    nothing could come, while its carrier without aircraft shuffled for 100 moves): with only a base, mines and a bomb
    left to the enemy, no cell beside a base is worth keeping and the destroyer steps out towards the enemy base;
    one enemy torpedo boat left, and it stays. A carrier without its aircraft gets nothing from the press."""
    calm_sea = "VMBa1 VMBk1 ESb1 ESl1 Ae6 / VMBd15 Mc15 Me15 ABi11"
    v = _view(calm_sea, quiet=160, north_left=True)
    boat = _view(calm_sea + " TKn14", quiet=160, north_left=True)
    assert not can_attack(v.lost[Side.NORTH]) and can_attack(boat.lost[Side.NORTH])
    free, guarded = _Context(_bot(v), v, 30), _Context(_bot(boat), boat, 30)
    assert free.press == guarded.press == pytest.approx(24.0)
    b1, b2 = parse_cell("b1"), parse_cell("b2")
    assert free.plugs == set() and b1 in guarded.plugs
    assert free.move_delta(b1, b2) == pytest.approx(guarded.move_delta(b1, b2) + 2.0)  # the plug's worth, no more
    assert free.move_delta(b1, b2) > 0 > guarded.move_delta(b1, b2)
    assert _bot(v).act(v, 1.0) == Move(b1, b2)
    calm = _Context(_bot(v, press=False), v, 30)
    for cell in ("e6", "f10", "d13"):
        c = parse_cell(cell)
        assert free.term(K.A, c, v.own()) == calm.term(K.A, c, v.own())  # no aircraft: no air hunt
    assert not can_attack({**{k: k.count for k in K}, K.S: 0})  # an aircraft alone, without its carrier
    assert can_attack({**{k: k.count for k in K}, K.S: 0, K.A: 0})  # an aircraft with its carrier


def test_a_unit_does_not_walk_back_along_its_trail() -> None:
    """issue 22 (8.6 % of level 5's moves stepped straight back): after its destroyer stepped e4 → e5 and on,
    stepping back costs it :data:`REPEAT` (half for the older cell); level 4 keeps no trail."""
    import random

    game = Game.new_random(random.Random(1))
    game.state = GameState.from_text("VMBa1 VMBk1 ESe4 TKm5 / VMBa15 VMBn15 TKm11")  # a position, not a setup
    for action in (Move(parse_cell("e4"), parse_cell("e5")), Move(parse_cell("m11"), parse_cell("m10")),
                   Move(parse_cell("e5"), parse_cell("e6")), Move(parse_cell("m10"), parse_cell("m9"))):  # fmt: skip
        game.apply(action)
    v = game.view(Side.SOUTH, since=0)
    five, four = make_bot(5, 1), make_bot(4, 1)
    for bot in (five, four):
        bot.observe(v)
    ctx = _Context(five, v, 2)
    e6, e5, e4, f6 = (parse_cell(x) for x in ("e6", "e5", "e4", "f6"))
    assert ctx.trail_cost(e6, e5) == REPEAT
    assert ctx.trail_cost(e6, f6) == 0.0
    assert list(five.trail) == [(e4, e5), (e5, e6)]
    assert _Context(four, v, 2).cfg.trail is False


def test_level_five_thinks_until_its_choice_settles_or_the_deadline(monkeypatch) -> None:
    """issue 22 (anytime): on a stepped clock (1 ms a reading) level 5 refines its leading candidates with fresh
    worlds round after round, and never starts a round that would end past 80 % of its deadline."""
    from admiral.games.admiral.bots.bots import MAX_ROUNDS

    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 0.001
        return ticks[0]

    monkeypatch.setattr(bots_module, "_clock", clock)
    south = make_bot(5, 3)
    game = Game(south.setup(Side.SOUTH), make_bot(4, 4).setup(Side.NORTH))
    v = game.view(Side.SOUTH)
    rounds = []
    for deadline in (0.05, 0.1, 0.4):
        bot = make_bot(5, 11)
        bot.observe(v)
        ticks[0] = 0.0
        action = bot.act(v, deadline)
        assert action in v.legal
        assert ticks[0] <= 0.8 * deadline + 0.05  # at most one round's readings past the stop
        rounds.append(bot.rounds)
    assert rounds[0] == 0  # the search itself ran into the stop
    assert 1 <= rounds[1] < MAX_ROUNDS  # stopped by the deadline
    assert rounds[2] == MAX_ROUNDS  # time to spare: refined to the cap


def test_level_five_keeps_off_a_seen_aircrafts_lines_and_hunts_it_with_its_aa_ships() -> None:
    """rules §6 (an aircraft beside its carrier strikes 1–4 cells along its row or column), §7.2 (it destroys any
    rated ship but a battleship or raider, whose fire downs it), issue 22 (level 4's aircraft struck up to 15 times
    in a lost game's last 300 plies, from the same cells once seen): after North's aircraft on e9 struck the
    minesweeper on e6, a destroyer stepping from e4 onto its column (e5) pays :data:`AIR_DANGER` of its worth, the
    raider closing on it gains :data:`AA_PULL` a step, and a minesweeper off its lines pays nothing. Level 4 does
    neither; nor does level 5 once the carrier is gone (an aircraft without it never strikes)."""
    import random

    from admiral.games.admiral.bots.bots import AA_PULL, AIR_DANGER
    from admiral.games.admiral.rules import Action

    def seen_strike(text: str):
        game = Game.new_random(random.Random(1))
        game.state = GameState.from_text(text, Side.NORTH)
        game.apply(Action.parse("e9xe6"))  # the air strike: the minesweeper on e6 is removed, the aircraft seen
        return game.view(Side.SOUTH, since=0)

    v = seen_strike("VMBa1 VMBk1 ESe4 Rh2 TRn3 TRe6 / VMBa15 VMBn15 Ae10 Se9 TKm11")
    five, calm = _bot(v), _bot(v, air_defence=False)
    assert five.belief.known()[parse_cell("e9")] is K.S
    ctx, plain = _Context(five, v, 2), _Context(calm, v, 2)
    assert CONFIGS[5].air_defence and not CONFIGS[4].air_defence
    e4, e5, d4 = parse_cell("e4"), parse_cell("e5"), parse_cell("d4")
    h2, h3, n3, n4 = parse_cell("h2"), parse_cell("h3"), parse_cell("n3"), parse_cell("n4")
    assert {parse_cell(x) for x in ("e5", "e8", "a9", "i9", "e13")} <= ctx.air_lines
    assert not {parse_cell(x) for x in ("e4", "d8", "j9", "n3", "n4")} & ctx.air_lines
    assert ctx.move_delta(e4, e5) - plain.move_delta(e4, e5) == pytest.approx(-AIR_DANGER * VALUE[K.ES])
    assert ctx.move_delta(e4, d4) - plain.move_delta(e4, d4) == pytest.approx(0.0)
    assert ctx.aa_dist[h3] == ctx.aa_dist[h2] - 1 == 9
    assert ctx.move_delta(h2, h3) - plain.move_delta(h2, h3) == pytest.approx(AA_PULL)
    assert ctx.move_delta(n3, n4) - plain.move_delta(n3, n4) == pytest.approx(0.0)
    assert plain.air_lines == frozenset() and plain.aa_dist is None
    # the carrier gone (South's ships took it: counted lost), the aircraft can strike no more
    gone = replace(v, lost=(v.lost[Side.SOUTH], {**v.lost[Side.NORTH], K.A: 1}))
    gone_ctx = _Context(_bot(gone), gone, 2)
    assert gone_ctx.air_lines == frozenset() and gone_ctx.aa_dist is None
