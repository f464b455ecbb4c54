"""Readable declarations by kinds (``e4-e5xe6 [Л+Л]``), resolved against a position."""

import pytest

from admiral.games.admiral.rules import (
    Attack,
    Declare,
    GameState,
    IllegalAction,
    Side,
    apply,
    format_san,
    legal_actions,
    parse_san,
)


def test_kinds_only_when_unambiguous():
    # rules §7.1.3: L+L is row 21; the only partner of e5 is d5.
    s = GameState.from_text("Le5 Ld5 VMBa1 / KRe6 VMBa15")
    a = parse_san(s, "e5xe6 [Л+Л]")
    assert a == Attack(s_cell("e5"), s_cell("e6"), None, (s_cell("d5"), s_cell("e5")))
    assert format_san(s, a) == "e5xe6 [Л+Л]"


def test_cells_added_when_kinds_are_ambiguous():
    s = GameState.from_text("Le5 Ld5 Le4 VMBa1 / KRe6 VMBa15")
    with pytest.raises(IllegalAction) as e:
        parse_san(s, "e5xe6 [Л+Л]")
    assert e.value.code == "ambiguous"
    a = parse_san(s, "e5xe6 [Лe4+Лe5]")
    assert str(a) == "e5xe6 [e4+e5]"
    assert format_san(s, a) == "e5xe6 [Лe4+Лe5]"


def test_move_then_attack_describes_members_after_the_step():
    # The cruiser steps e4→e5 and forms 2 KR with d5 there (rules §6 "may follow a move", §7.1.3).
    s = GameState.from_text("KRe4 KRd5 VMBa1 / ESe6 VMBa15")
    a = parse_san(s, "e4-e5xe6 [КР+КР]")
    assert str(a) == "e4-e5xe6 [d5+e5]"
    assert format_san(s, a) == "e4-e5xe6 [КР+КР]"
    assert all(parse_san(s, format_san(s, x)) == x for x in legal_actions(s))


def test_defender_declaration_by_kinds():
    # rules §7.1.2: the defender (North) has KR alone or 2 KR.
    s = GameState.from_text("Le5 VMBa1 / KRe6 KRf6 VMBa15")
    apply(s, parse_san(s, "e5xe6"))
    assert s.to_act is Side.NORTH
    d = parse_san(s, "[КР+КР]")
    assert d == Declare((s_cell("e6"), s_cell("f6")))
    assert format_san(s, d) == "[КР+КР]"


def test_no_match_is_refused():
    s = GameState.from_text("Le5 Ld5 VMBa1 / KRe6 VMBa15")
    with pytest.raises(IllegalAction) as e:
        parse_san(s, "e5xe6 [КР+КР]")
    assert e.value.code == "bad_formation"


def s_cell(name: str) -> int:
    from admiral.games.admiral.rules import parse_cell

    return parse_cell(name)


def test_attack_declaring_only_its_attacker_is_the_plain_attack():
    # rules §7.1.1: the attacker declares "the attacking ship alone or a formation"; alone has one form.
    e5, e6, e4 = s_cell("e5"), s_cell("e6"), s_cell("e4")
    assert Attack(e5, e6, None, (e5,)) == Attack(e5, e6)
    assert Attack(e4, e6, e5, (e5,)).formation == ()
    assert str(Attack(e5, e6, None, (e5,))) == "e5xe6"
