"""Belief tracking (rules §11, §12): what a bot may deduce about closed enemy markers from its views."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from admiral.games.admiral.bots import Belief
from admiral.games.admiral.bots.belief import BASE_DEPTH, STILL_MINE
from admiral.games.admiral.rules import GameState, Kind, Side, apply, parse_cell, view

E = parse_cell


def _play(state: GameState, *moves: str) -> list:
    from admiral.games.admiral.rules import Action

    log: list = []
    for m in moves:
        log.extend(apply(state, Action.parse(m)))
    return log


def test_a_marker_that_moved_is_not_a_stationary_mine_or_base() -> None:
    state = GameState.from_text("Le2 VMBa1 / KRe12 VMBn15 SMa15", Side.SOUTH)
    belief = Belief(Side.SOUTH)
    belief.observe(view(state, Side.SOUTH))
    log = _play(state, "e2-e3", "e12-e11")
    belief.observe(view(state, Side.SOUTH, log, since=0))
    probs = belief.probabilities()
    assert Kind.SM not in probs[E("e11")] and Kind.VMB not in probs[E("e11")]
    assert probs[E("a15")][Kind.SM] > 0 and probs[E("a15")][Kind.VMB] > 0
    # Sampling respects it: the moved marker is never given an immobile kind.
    rng = random.Random(1)
    for _ in range(50):
        assert belief.sample(rng)[E("e11")] not in (Kind.SM, Kind.VMB)


def test_without_inference_a_moved_marker_may_still_be_anything() -> None:
    state = GameState.from_text("Le2 VMBa1 / KRe12 VMBn15", Side.SOUTH)
    belief = Belief(Side.SOUTH, infer=False)
    belief.observe(view(state, Side.SOUTH))
    log = _play(state, "e2-e3", "e12-e11")
    belief.observe(view(state, Side.SOUTH, log, since=0))
    assert belief.probabilities()[E("e11")][Kind.VMB] > 0


def test_a_revealed_unit_is_remembered_after_it_closes_and_moves() -> None:
    # South's patrol ship attacks North's battleship and loses: the battleship is revealed, stays,
    # closes again (rules §7.1.6) and then steps away twice.
    state = GameState.from_text("STe10 Le1 VMBa1 / Le11 VMBn15 KRa15", Side.SOUTH)
    follower, forgetter = Belief(Side.SOUTH), Belief(Side.SOUTH, follow=False)
    for b in (follower, forgetter):
        b.observe(view(state, Side.SOUTH))
    log = _play(state, "e10xe11", "e11-f11", "e1-e2", "f11-f10")
    assert [u.kind for u in view(state, Side.SOUTH).units if u.cell == E("f10")] == [None]  # closed again
    for b in (follower, forgetter):
        b.observe(view(state, Side.SOUTH, log, since=0))
    assert follower.known() == {E("f10"): Kind.L}
    assert follower.probabilities()[E("f10")] == {Kind.L: 1.0}
    assert forgetter.known() == {}
    # One battleship is known on the board, so the other marker's battleship share shrinks to 1 of 2.
    assert follower.pool()[Kind.L] == 1


def test_reports_seen_one_ply_at_a_time_give_the_same_belief() -> None:
    state = GameState.from_text("STe10 Le1 VMBa1 / Le11 VMBn15 KRa15", Side.SOUTH)
    b = Belief(Side.SOUTH)
    b.observe(view(state, Side.SOUTH))
    log: list = []
    for m in ("e10xe11", "e11-f11", "e1-e2", "f11-f10"):
        seen = state.ply
        log.extend(_play(state, m))
        b.observe(view(state, Side.SOUTH, log, since=seen))
    assert b.known() == {E("f10"): Kind.L}


def test_public_removal_counts_shrink_the_candidates() -> None:
    state = GameState.from_text("Le1 VMBa1 / KRe12 PLf12 VMBn15", Side.SOUTH)
    state.lost[Side.NORTH][Kind.KR] = 6  # every cruiser of North is gone (public, rules §11.4)
    state.lost[Side.NORTH][Kind.L] = 1
    b = Belief(Side.SOUTH)
    b.observe(view(state, Side.SOUTH))
    pool = b.pool()
    assert pool[Kind.KR] == 0 and pool[Kind.L] == 1 and pool[Kind.PL] == 6
    for dist in b.probabilities().values():
        assert Kind.KR not in dist
        assert abs(sum(dist.values()) - 1.0) < 1e-9


def test_samples_deal_out_the_pool_exactly() -> None:
    state = GameState.from_text("Le1 VMBa1 / KRe12 PLf12 VMBn15", Side.SOUTH)
    b = Belief(Side.SOUTH)
    b.observe(view(state, Side.SOUTH))
    # Three markers, a pool of 58: every sample gives three distinct-cell kinds drawn from the pool.
    sample = b.sample(random.Random(2))
    assert sorted(sample) == [E("e12"), E("f12"), E("n15")]
    counts = Counter(sample.values())
    assert all(counts[k] <= k.count for k in counts)


def test_a_front_row_starter_is_not_a_base() -> None:
    state = GameState.from_text("Le1 VMBa1 / KRe11 VMBn15", Side.SOUTH)
    b = Belief(Side.SOUTH)
    b.observe(view(state, Side.SOUTH))
    probs = b.probabilities()
    assert Kind.VMB not in probs[E("e11")]
    assert probs[E("n15")][Kind.VMB] == 1.0  # two bases in the pool, one marker may hold one


def test_fresh_knowledge_lasts_only_until_the_next_ply() -> None:
    # Level 2's belief (no memory, ``fresh``): it knows what the report it just read shows, and
    # forgets it when the next ply brings new events.
    state = GameState.from_text("STe10 Le1 VMBa1 / Le11 VMBn15 KRa15", Side.SOUTH)
    fresh, blind = Belief(Side.SOUTH, memory=False, fresh=True), Belief(Side.SOUTH, memory=False)
    for b in (fresh, blind):
        b.observe(view(state, Side.SOUTH))
    log = _play(state, "e10xe11")
    for b in (fresh, blind):
        b.observe(view(state, Side.SOUTH, log, since=0))
    assert fresh.known() == {E("e11"): Kind.L}
    assert blind.known() == {}
    more = _play(state, "a15-a14")
    fresh.observe(view(state, Side.SOUTH, more, since=1))
    assert fresh.known() == {}


def test_a_search_bot_follows_which_of_its_units_the_opponent_has_seen() -> None:
    from admiral.games.admiral.bots import make_bot

    state = GameState.from_text("KRe10 Le1 VMBa1 / STe11 VMBn15 KRa15", Side.SOUTH)
    bot = make_bot(4, 1)
    bot.observe(view(state, Side.SOUTH))
    log = _play(state, "e10xe11", "a15-a14", "e10-e11")
    bot.observe(view(state, Side.SOUTH, log, since=0))
    assert bot.exposed == {E("e11")}  # the cruiser revealed itself at e10, then moved on


def test_mines_are_likelier_under_markers_that_never_moved() -> None:
    # rules §5.2: a mine moves only beside its destroyer, so a marker seen moving is seldom one.
    north = " ".join(f"KR{c}{r}" for c in "abcdefghij" for r in (14, 15))  # 20 markers that never move
    state = GameState.from_text(f"Le2 VMBa1 / KRe12 {north}", Side.SOUTH)
    belief, plain = Belief(Side.SOUTH), Belief(Side.SOUTH, infer=False)
    for b in (belief, plain):
        b.observe(view(state, Side.SOUTH))
    log = _play(state, "e2-e3", "e12-e11")
    for b in (belief, plain):
        b.observe(view(state, Side.SOUTH, log, since=0))
    probs = belief.probabilities()
    moved, still = probs[E("e11")], probs[E("g14")]
    # The still marker's share left after SM/VMB, with mines weighed STILL_MINE : 1.
    rest = 1 - still[Kind.SM] - still[Kind.VMB]
    assert 0 < moved[Kind.M] and still[Kind.M] == pytest.approx(STILL_MINE * moved[Kind.M] * rest)
    for p in (moved, still):
        assert sum(p.values()) == pytest.approx(1.0)
    assert plain.probabilities()[E("e11")][Kind.M] == plain.probabilities()[E("g14")][Kind.M]
    # Sampling agrees: over many deals the still markers get most of the mines.
    rng = random.Random(2)
    deals = Counter(c for _ in range(2000) for c, k in belief.sample(rng).items() if k is Kind.M)
    assert deals[E("g14")] > 2 * deals[E("e11")]


def test_levels_four_and_five_look_for_bases_deep_in_the_enemy_zone() -> None:
    # rules §12: the search levels expect bases at the back (rules §3.2 keeps them off the front row only).
    state = GameState.from_text("Le2 VMBa1 / KRa15 KRa14 KRa13 KRa12 KRa11 VMBn15", Side.SOUTH)
    deep, flat = Belief(Side.SOUTH, deep_bases=True), Belief(Side.SOUTH)
    for b in (deep, flat):
        b.observe(view(state, Side.SOUTH))
    p = {b: b.probabilities() for b in (deep, flat)}
    rows = [E(f"a{r}") for r in (15, 14, 13, 12)]  # depth 0..3 of North's zone
    assert [p[flat][c][Kind.VMB] for c in rows] == [p[flat][rows[0]][Kind.VMB]] * 4  # flat: the same everywhere
    ratios = [p[deep][c][Kind.VMB] / p[deep][rows[2]][Kind.VMB] for c in rows]
    assert ratios == pytest.approx([BASE_DEPTH[0], BASE_DEPTH[1], 1.0, BASE_DEPTH[3]])
    assert Kind.VMB not in p[deep][E("a11")]  # the front row, rules §3.2
    for dist in p[deep].values():
        assert sum(dist.values()) == pytest.approx(1.0)
    # Sampling agrees: the back edge gets a base far more often than the row just behind the front.
    rng = random.Random(3)
    deals = Counter(c for _ in range(2000) for c, k in deep.sample(rng).items() if k is Kind.VMB)
    assert deals[E("a15")] > 4 * deals[E("a12")]
    assert sum(deals.values()) == 2 * 2000


def _deducer() -> Belief:
    return Belief(Side.SOUTH, deduce=True)


#: Twenty still North markers on the back rows: enough that the mines (6) do not take every unknown marker.
BACK = " ".join(f"KR{c}{r}" for c in "abcdefghij" for r in (14, 15))


def _deducer_and_plain(state: GameState, *moves: str) -> tuple[Belief, Belief]:
    """South's belief with ``deduce`` and a plain one, both fed the start and then ``moves``."""
    deducer, plain = _deducer(), Belief(Side.SOUTH)
    for b in (deducer, plain):
        b.observe(view(state, Side.SOUTH))
    log = _play(state, *moves)
    for b in (deducer, plain):
        b.observe(view(state, Side.SOUTH, log, since=0))
    return deducer, plain


def test_an_air_strike_narrows_the_carrier_to_the_markers_beside_the_aircraft() -> None:
    # rules §6: an aircraft strikes only with its carrier 8-adjacent; the level-5 belief reads that
    # (rules §12, "hunting the carrier"). North's S on e9 strikes South's cruiser on e5.
    state = GameState.from_text(f"KRe5 Le1 VMBa1 / Se9 Af10 TKd10 STe10 PLk12 VMBn15 {BACK}", Side.NORTH)
    deducer, plain = _deducer_and_plain(state, "e9xe5")
    beside = [E("d10"), E("e10"), E("f10")]
    assert deducer.carrier_candidates() == beside
    assert plain.carrier_candidates() == []
    probs = deducer.probabilities()
    for c in beside:
        assert probs[c][Kind.A] == pytest.approx(1 / 3)
        assert sum(probs[c].values()) == pytest.approx(1.0)
    assert probs[E("k12")].get(Kind.A, 0.0) == 0.0 and probs[E("n15")].get(Kind.A, 0.0) == 0.0
    assert plain.probabilities()[E("k12")][Kind.A] > 0
    rng = random.Random(4)
    for _ in range(200):
        sample = deducer.sample(rng)
        assert next(c for c, k in sample.items() if k is Kind.A) in beside
        assert Counter(sample.values())[Kind.A] == 1


def test_two_strikes_from_two_cells_pin_the_carrier_down() -> None:
    # rules §6: the one carrier stood beside the aircraft both times; the markers beside it both times
    # are followed through their moves (rules §11.2) and the only common one becomes known.
    state = GameState.from_text("KRe5 KRg5 Le1 VMBa1 / Se9 Af10 TKd10 STe10 PLk12 VMBn15", Side.NORTH)
    b = _deducer()
    b.observe(view(state, Side.SOUTH))
    log = _play(state, "e9xe5", "e1-e2", "e9-f9", "e2-e3", "f10-g10", "e3-e4", "f9-g9", "e4-d4", "g9xg5")
    b.observe(view(state, Side.SOUTH, log, since=0))
    assert b.known()[E("g10")] is Kind.A
    assert b.carrier_candidates() == [E("g10")]
    assert b.probabilities()[E("g10")] == {Kind.A: 1.0}


def test_a_dummy_torpedo_says_no_torpedo_boat_stood_beside_it() -> None:
    # rules §7.2: a ship attacking a dummy torpedo (no TK 8-adjacent) only removes it; so none of the
    # markers beside the torpedo is a TK. An armed one goes off with the ship: one of them is a TK.
    dummy = GameState.from_text(f"KRe10 KRh10 Le1 VMBa1 / Te11 STd12 PLf12 Th11 TKg12 KRn14 {BACK}", Side.SOUTH)
    b, plain = _deducer_and_plain(dummy, "e10xe11")
    probs = b.probabilities()
    assert probs[E("d12")].get(Kind.TK, 0.0) == 0.0 and probs[E("f12")].get(Kind.TK, 0.0) == 0.0
    assert plain.probabilities()[E("d12")][Kind.TK] > 0
    assert probs[E("n14")][Kind.TK] == pytest.approx(plain.probabilities()[E("n14")][Kind.TK])
    assert sum(probs[E("d12")].values()) == pytest.approx(1.0)
    rng = random.Random(5)
    for _ in range(200):
        sample = b.sample(rng)
        assert sample[E("d12")] is not Kind.TK and sample[E("f12")] is not Kind.TK
    seen = dummy.ply
    more = _play(dummy, "n14-n13", "h10xh11")  # armed: g12's TK is beside h11
    b.observe(view(dummy, Side.SOUTH, more, since=seen))
    assert b.known()[E("g12")] is Kind.TK  # the only marker beside h11


def test_a_followed_weapon_steps_only_beside_its_carrier() -> None:
    # rules §5.2: South's aircraft reveals North's mine on e11 (rules §7.2: nothing removed); the mine then
    # steps to e12, which it may only do beside a destroyer: f12 is the one marker beside either cell.
    state = GameState.from_text("Se8 Ae7 Le1 VMBa1 / Me11 ESf12 KRn14 VMBn15", Side.SOUTH)
    b = _deducer()
    b.observe(view(state, Side.SOUTH))
    log = _play(state, "e8xe11", "e11-e12")
    b.observe(view(state, Side.SOUTH, log, since=0))
    assert b.known() == {E("e12"): Kind.M, E("f12"): Kind.ES}
    plain = Belief(Side.SOUTH)
    plain.observe(view(state, Side.SOUTH, log, since=0))
    assert plain.known() == {E("e12"): Kind.M}  # following alone keeps the mine, not its destroyer


def test_each_level_remembers_as_its_description_says() -> None:
    # rules §11.2, §12: a battleship revealed in a report closes again and steps away twice. Level 3 knows it
    # only while it stays on its cell; levels 4–5 sample consistently with every view (its marker's steps are
    # in them), so it stays a battleship for them; level 2 remembers no older report at all.
    from admiral.games.admiral.bots import make_bot

    state = GameState.from_text("STe10 Le1 Lf1 VMBa1 / Le11 VMBn15 KRa15", Side.SOUTH)
    bots = {level: make_bot(level, 1) for level in (2, 3, 4, 5)}
    for bot in bots.values():
        bot.observe(view(state, Side.SOUTH))
    log = _play(state, "e10xe11")
    for bot in bots.values():
        bot.observe(view(state, Side.SOUTH, log, since=0))
    assert {n: b.belief.known() for n, b in bots.items()} == {n: {E("e11"): Kind.L} for n in (2, 3, 4, 5)}
    seen = state.ply
    log = _play(state, "e11-f11", "e1-e2", "f11-f10")
    for bot in bots.values():
        bot.observe(view(state, Side.SOUTH, log, since=seen))
    remembered = {n: b.belief.known() for n, b in bots.items()}
    assert remembered == {2: {}, 3: {}, 4: {E("f10"): Kind.L}, 5: {E("f10"): Kind.L}}
