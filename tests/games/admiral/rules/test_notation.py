"""Action notation: parsing, formatting, round trips and malformed input (rules §4, §7.1, §8, §10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from admiral.games.admiral.rules import (
    Abandon,
    Action,
    AgreeDraw,
    Attack,
    Declare,
    Detonate,
    FlagFall,
    Game,
    IllegalAction,
    Move,
    Resign,
    Side,
    parse_cell,
)

CODES = {"bad_notation", "bad_cell", "bad_side"}


def c(name: str) -> int:
    return parse_cell(name)


# text → (the action it means, its canonical notation)
FORMS = [
    ("e4-e5", Move(c("e4"), c("e5")), "e4-e5"),
    ("a1-a2", Move(c("a1"), c("a2")), "a1-a2"),
    ("n15-n14", Move(c("n15"), c("n14")), "n15-n14"),
    ("e5xe6", Attack(c("e5"), c("e6")), "e5xe6"),
    ("e5xe6 [d5+e5]", Attack(c("e5"), c("e6"), None, (c("d5"), c("e5"))), "e5xe6 [d5+e5]"),
    # rules §7.1.3: members are written in notation order whatever the input order
    ("e5xe6 [e5+d5]", Attack(c("e5"), c("e6"), None, (c("d5"), c("e5"))), "e5xe6 [d5+e5]"),
    ("e5xe6 [f5+e5+d5]", Attack(c("e5"), c("e6"), None, (c("d5"), c("e5"), c("f5"))), "e5xe6 [d5+e5+f5]"),
    ("e5xe6[d5+e5]", Attack(c("e5"), c("e6"), None, (c("d5"), c("e5"))), "e5xe6 [d5+e5]"),
    ("e4-e5xe6", Attack(c("e4"), c("e6"), c("e5")), "e4-e5xe6"),
    ("e4-e5xe6 [d5+e5]", Attack(c("e4"), c("e6"), c("e5"), (c("d5"), c("e5"))), "e4-e5xe6 [d5+e5]"),
    ("e4-e5xe6 [ e5 + d5 ]", Attack(c("e4"), c("e6"), c("e5"), (c("d5"), c("e5"))), "e4-e5xe6 [d5+e5]"),
    # an air strike from afar: any distance is notation, legality is apply's business
    ("e1xe5", Attack(c("e1"), c("e5")), "e1xe5"),
    ("[e6+e7]", Declare((c("e6"), c("e7"))), "[e6+e7]"),
    ("[e7+e6]", Declare((c("e6"), c("e7"))), "[e6+e7]"),
    ("[e6]", Declare((c("e6"),)), "[e6]"),
    ("[e6+d6+e7]", Declare((c("d6"), c("e6"), c("e7"))), "[d6+e6+e7]"),
    ("АБ!", Detonate(), "АБ!"),
    ("AB!", Detonate(), "АБ!"),
    ("ab!", Detonate(), "АБ!"),
    ("resign south", Resign(Side.SOUTH), "resign south"),
    ("resign north", Resign(Side.NORTH), "resign north"),
    ("resign s", Resign(Side.SOUTH), "resign south"),
    ("resign NORTH", Resign(Side.NORTH), "resign north"),
    ("draw", AgreeDraw(), "draw"),
    ("flag north", FlagFall(Side.NORTH), "flag north"),
    ("flag south", FlagFall(Side.SOUTH), "flag south"),
    ("abandon north", Abandon(Side.NORTH), "abandon north"),
    ("abandon n", Abandon(Side.NORTH), "abandon north"),
    ("  e4-e5  ", Move(c("e4"), c("e5")), "e4-e5"),
]


class TestForms:
    @pytest.mark.parametrize(("text", "action", "canonical"), FORMS)
    def test_parses_formats_and_round_trips(self, text, action, canonical):
        parsed = Action.parse(text)
        assert parsed == action
        assert type(parsed) is type(action)
        assert hash(parsed) == hash(action)
        assert str(parsed) == canonical
        assert Action.parse(canonical) == parsed
        assert parsed.to_json() == canonical

    @pytest.mark.parametrize(("text", "action", "canonical"), FORMS)
    def test_repr_round_trips(self, text, action, canonical):
        assert repr(action) == f"Action.parse({canonical!r})"
        assert eval(repr(action), {"Action": Action}) == action

    def test_fields_of_a_move_then_attack(self):
        a = Action.parse("e4-e5xe6 [d5+e5]")
        assert (a.src, a.via, a.target, a.origin, a.formation) == (63, 64, 65, 64, (49, 64))

    def test_attack_origin_without_a_move(self):
        a = Action.parse("e5xe6")
        assert (a.src, a.via, a.target, a.origin, a.formation) == (64, None, 65, 64, ())

    @pytest.mark.parametrize(
        ("alone", "plain"),
        [("e5xe6 [e5]", "e5xe6"), ("e4-e5xe6 [e5]", "e4-e5xe6"), ("e5xe6 [ e5 ]", "e5xe6")],
    )
    def test_a_formation_of_the_attacker_alone_is_no_formation(self, alone, plain):  # rules §7.1.1
        assert Action.parse(alone) == Action.parse(plain)
        assert str(Action.parse(alone)) == plain

    def test_the_starting_cell_of_a_move_then_attack_is_not_the_attacker_alone(self):
        # after e4-e5 the attacker stands on e5: [e4] names another cell, kept as written
        a = Action.parse("e4-e5xe6 [e4]")
        assert a.formation == (c("e4"),)
        assert str(a) == "e4-e5xe6 [e4]"

    def test_distinct_actions_are_unequal(self):
        actions = {a for _, a, _ in FORMS}
        # FORMS lists 29 texts of 19 distinct actions
        assert len(actions) == 19
        assert Move(1, 2) != Attack(1, 2)
        assert Declare((1,)) != Declare((1, 2))
        assert Resign(Side.SOUTH) != FlagFall(Side.SOUTH) != Abandon(Side.SOUTH)
        assert Resign(Side.SOUTH) != Resign(Side.NORTH)
        assert Detonate() != AgreeDraw()

    def test_every_legal_action_of_real_games_round_trips(self):
        rng = random.Random(12)
        seen = set()
        for _ in range(3):
            game = Game.new_random(rng)
            for _ in range(300):
                if game.state.is_over:
                    break
                actions = game.legal_actions()
                for a in actions:
                    assert Action.parse(str(a)) == a
                    seen.add(type(a).__name__)
                game.apply(rng.choice(actions))
        assert {"Move", "Attack"} <= seen


MALFORMED = [
    ("", "bad_notation"),
    ("   ", "bad_notation"),
    ("e4e5", "bad_notation"),
    ("e4 - e5", "bad_notation"),
    ("E4-E5", "bad_notation"),
    ("o1-o2", "bad_notation"),
    ("e4-e16", "bad_cell"),
    ("e0-e1", "bad_cell"),
    ("e04-e5", "bad_cell"),
    ("e5xe66", "bad_cell"),
    ("e5xe6 []", "bad_notation"),
    ("e5xe6 [e5+e5]", "bad_notation"),
    ("e5xe6 [e5+]", "bad_cell"),
    ("e5xe6 [e5+z9]", "bad_cell"),
    ("e5xe6 [e5", "bad_notation"),
    ("e5xe6 e5]", "bad_notation"),
    ("e5xe6 [e5]]", "bad_notation"),
    ("e4-e5-e6", "bad_notation"),
    ("e4-e5xe6xe7", "bad_notation"),
    ("[]", "bad_notation"),
    ("[ ]", "bad_notation"),
    ("[e6+e6]", "bad_notation"),
    ("[e6+]", "bad_cell"),
    ("[+]", "bad_cell"),
    ("[e6 e7]", "bad_cell"),
    ("[[e6]", "bad_cell"),
    ("resign", "bad_side"),
    ("resign east", "bad_side"),
    ("flag", "bad_side"),
    ("abandon both", "bad_side"),
    ("resign south north", "bad_side"),
    ("draw please", "bad_notation"),
    ("Draw", "bad_notation"),
    ("АБ", "bad_notation"),
    ("Ab!", "bad_notation"),
    ("e4-e5 " + " " * 70 + "x", "bad_notation"),
    ("[" + "+".join(["a1"] * 30) + "]", "bad_notation"),  # longer than 64 characters
]


class TestMalformed:
    @pytest.mark.parametrize(("text", "code"), MALFORMED)
    def test_raises_illegal_action_with_its_code(self, text, code):
        with pytest.raises(IllegalAction) as info:
            Action.parse(text)
        assert info.value.code == code
        assert info.value.reason

    @pytest.mark.parametrize("value", [None, 5, b"e4-e5", ["e4-e5"], Move(1, 2)])
    def test_non_text_is_bad_notation(self, value):
        with pytest.raises(IllegalAction) as info:
            Action.parse(value)
        assert info.value.code == "bad_notation"


def _check(text: str) -> None:
    try:
        action = Action.parse(text)
    except IllegalAction as e:
        assert e.code in CODES, (text, e.code)
        return
    assert isinstance(action, Action)
    again = Action.parse(str(action))
    assert again == action and hash(again) == hash(action)
    assert str(again) == str(action)


NOTATION_ALPHABET = "abcdemnoxz0123456789-+[] !АБABsouthnrigdwflN\t"
TOKENS = st.sampled_from(
    [
        "e4", "e5", "d5", "a1", "n15", "o3", "e0", "e16", "e05", "-", "x", " ", "[", "]", "+", "АБ!", "AB!",
        "resign", "flag", "abandon", "draw", "south", "north", "s", "n", "!",
    ]
)  # fmt: skip


class TestArbitraryText:
    @settings(max_examples=400, deadline=None)
    @given(st.text(max_size=80))
    def test_any_text_parses_to_a_round_tripping_action_or_raises(self, text):
        _check(text)

    @settings(max_examples=600, deadline=None)
    @given(st.text(alphabet=NOTATION_ALPHABET, max_size=30))
    def test_notation_like_text(self, text):
        _check(text)

    @settings(max_examples=600, deadline=None)
    @given(st.lists(TOKENS, max_size=10).map("".join))
    def test_token_soup(self, text):
        _check(text)
