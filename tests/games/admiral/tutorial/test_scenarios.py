"""Every lesson of «Обучение» replayed through the real engine (issue 7): each expected action is legal in its
position, each scripted reply is legal, the outcome the texts explain is what the engine reports, anything
else is refused without a change, and the player sees only the engine's view."""

from __future__ import annotations

import random
import re

import pytest

from admiral.games.admiral.rules import (
    Action,
    Attack,
    BattleReport,
    Declare,
    GameState,
    IllegalAction,
    Kind,
    Move,
    Side,
    apply,
    auto_arrange,
    cell_name,
    legal_actions,
    parse_cell,
    validate_setup,
)
from admiral.games.admiral.rules.board import FRONT_ROW, RING
from admiral.games.admiral.tutorial import SCENARIOS, Lesson, blast_square, scenario
from admiral.games.admiral.tutorial.lesson import _setup_try

PLAYS = [s for s in SCENARIOS if s.kind == "play"]
RU_COLUMNS = dict(zip("abcdefghijklmn", "АБВГДЕЖЗИКЛМНО", strict=True))


def ru(cell: str) -> str:
    """``e4`` → ``Д4``, as the board and the texts write cells."""
    return RU_COLUMNS[cell[0]] + cell[1:]


def short(seen) -> str:
    return f"{'SN'[seen.side]}:{seen.kind.code}{cell_name(seen.cell)}"


def cells_of(action: Action) -> list[str]:
    if isinstance(action, Move):
        return [cell_name(action.src), cell_name(action.dst)]
    if isinstance(action, Attack):
        cells = [action.src, action.target] + ([action.via] if action.via is not None else [])
        return [cell_name(c) for c in (*cells, *action.formation)]
    if isinstance(action, Declare):
        return [cell_name(c) for c in action.formation]
    return []


def test_the_tutorial_has_every_lesson_of_the_issue_in_order():
    assert [s.slug for s in SCENARIOS] == [
        "setup", "moving", "attack", "formation", "aircraft", "torpedo", "mines", "fireship", "atomic", "base",
    ]  # fmt: skip
    assert len({s.title for s in SCENARIOS}) == len(SCENARIOS)
    assert scenario("attack") is SCENARIOS[2] and scenario("nope") is None
    for s in SCENARIOS:
        assert s.title and s.summary and s.steps
        for step in s.steps:
            assert step.say.strip() and step.hint.strip() and step.explain.strip()
            for c in step.spot:
                parse_cell(c)


@pytest.mark.parametrize("sc", PLAYS, ids=lambda s: s.slug)
def test_a_lesson_replays_through_the_engine_as_its_texts_say(sc):
    """By hand, with the engine only: expected actions and replies are legal, outcomes are as written."""
    state = GameState.from_text(sc.position, Side.SOUTH)
    for n, step in enumerate(sc.steps):
        assert state.to_act is Side.SOUTH, f"step {n}: the player must be to act"
        expected = Action.parse(step.expect)
        assert expected in legal_actions(state), f"step {n}: {step.expect} is not legal"
        assert len(legal_actions(state)) > 1, f"step {n}: a step must be a choice, so that refusing means something"
        events = apply(state, expected)
        for reply in step.replies:
            assert state.to_act is Side.NORTH, f"step {n}: the opponent's reply {reply} comes when it is not to act"
            action = Action.parse(reply)
            assert action in legal_actions(state), f"step {n}: reply {reply} is not legal"
            events += apply(state, action)
        reports = [e for e in events if isinstance(e, BattleReport)]
        assert sorted(short(s) for r in reports for s in r.removed) == sorted(step.outcome.removed), f"step {n}"
        battles = tuple((r.attacker_row, r.defender_row) for r in reports if r.attacker_row is not None)
        assert battles == step.outcome.battles, f"step {n}"
        winner = None if state.result is None else state.result.winner.label
        assert winner == step.outcome.winner, f"step {n}"
        # The texts name what they are about: every cell of the action, and both rows of every battle.
        for c in cells_of(expected):
            assert ru(c) in step.say, f"step {n}: the instruction does not name {ru(c)}"
        for att, dfn in battles:
            assert re.search(rf"\b{att}\b", step.explain) and re.search(rf"\b{dfn}\b", step.explain), f"step {n}"
    assert state.result is None or sc is SCENARIOS[-1], "only the last lesson may end the game"


@pytest.mark.parametrize("sc", PLAYS, ids=lambda s: s.slug)
def test_a_lesson_refuses_every_other_action_and_changes_nothing(sc):
    lesson = Lesson(sc)
    while not lesson.done:
        step = lesson.current
        before = lesson.state.copy()
        others = [str(a) for a in legal_actions(lesson.state) if a != Action.parse(step.expect)]
        for text in [*others[:: max(1, len(others) // 8)], "e4-e6", "garbage", "resign south", ""]:
            reply = lesson.play(text)
            assert not reply.accepted and reply.frames == ()
            assert lesson.state == before
        n = lesson.step
        reply = lesson.play(step.expect)
        assert reply.accepted and lesson.step == n + 1
        assert len(reply.frames) == 1 + len(step.replies)
        assert [f["ply"] for f in reply.frames] == list(range(before.ply + 1, lesson.state.ply + 1))
    assert lesson.play(sc.steps[-1].expect).accepted is False  # nothing is accepted once done


@pytest.mark.parametrize("sc", PLAYS, ids=lambda s: s.slug)
def test_a_lesson_rebuilt_at_a_step_is_the_lesson_played_to_it(sc):
    played = Lesson(sc)
    for n in range(len(sc.steps) + 1):
        rebuilt = Lesson(sc, n)
        assert rebuilt.state == played.state and rebuilt.step == n
        assert rebuilt.snapshot() == played.snapshot()
        if n < len(sc.steps):
            played.play(sc.steps[n].expect)


@pytest.mark.parametrize("sc", PLAYS, ids=lambda s: s.slug)
def test_the_player_sees_only_the_engines_view(sc):
    """Hidden information as in a game: North's units are closed markers, except in battle reports."""
    lesson = Lesson(sc)
    while True:
        snap = lesson.snapshot()
        north = [u for u in snap["view"]["units"] if u["side"] == "north"]
        assert north and all(u["kind"] is None for u in north)
        assert snap["view"]["audience"] == "south"
        listed = [a["notation"] for a in snap["view"]["legal"]]
        assert listed == ([] if lesson.state.to_act is not Side.SOUTH else lesson.legal())
        if lesson.done:
            break
        for frame in lesson.play(lesson.current.expect).frames:
            assert all(u["kind"] is None for u in frame["units"] if u["side"] == "north")


def test_a_step_outside_the_lesson_is_refused():
    with pytest.raises(IllegalAction) as e:
        Lesson(scenario("moving"), 4)
    assert e.value.code == "bad_step"


def test_the_atomic_lessons_square_is_the_blast_of_rules_8():
    square = blast_square("e8")
    assert len(square) == 25 and square[0] == "c6" and square[-1] == "g10"
    assert len(blast_square("a1")) == 9  # cut off at the corner, never shifted
    atomic = scenario("atomic")
    assert atomic.steps[1].spot == square
    gone = {r.split(":")[1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for r in atomic.steps[1].outcome.removed}
    assert gone <= set(square)


def test_the_setup_lesson_places_auto_arranges_and_locks():
    sc = scenario("setup")
    lesson = Lesson(sc)
    # Wrong cell, wrong kind, a change that drops nothing in: refused, nothing kept.
    for op, draft in [("update", {"e4": "L"}), ("update", {"e3": "KR"}), ("auto", {}), ("ready", {}), ("update", {})]:
        assert not lesson.setup(op, draft).accepted and lesson.draft == {} and lesson.step == 0
    assert lesson.setup("update", {"e3": "Л"}).accepted  # the Russian code is the same kind
    assert lesson.draft == {"e3": "L"}
    # A base in the front row (rules §3.2) is refused.
    assert not lesson.setup("update", {"e3": "L", "b5": "VMB"}).accepted
    assert lesson.setup("update", {"e3": "L", "b1": "VMB"}).accepted
    assert not lesson.setup("update", {"e3": "L", "b1": "VMB", "c1": "KR"}).accepted  # not now: auto-arrange
    reply = lesson.setup("auto", {"e3": "L", "b1": "VMB", "zz": "??"})  # the client's draft is not trusted
    assert reply.accepted and reply.setup["problems"] == []
    board = {parse_cell(c): Kind.parse(k) for c, k in lesson.draft.items()}
    assert board[parse_cell("e3")] is Kind.L and board[parse_cell("b1")] is Kind.VMB
    assert validate_setup(Side.SOUTH, board) == []
    # What the explanation says auto-arrangement did: every weapon next to a carrier, bases off the front row.
    carrier = {Kind.S: Kind.A, Kind.T: Kind.TK, Kind.M: Kind.ES}
    for c, k in board.items():
        if k in carrier:
            assert any(board.get(n) is carrier[k] for n in RING[c]), f"{cell_name(c)} {k.code} untethered"
        if k is Kind.VMB:
            assert c not in FRONT_ROW[Side.SOUTH]
    # The same seed gives every player the same fleet.
    seeded = auto_arrange(Side.SOUTH, random.Random(sc.seed), {parse_cell("e3"): Kind.L, parse_cell("b1"): Kind.VMB})
    assert {cell_name(c): k.code for c, k in seeded.items()} == lesson.draft
    other = dict(lesson.draft)
    other["e3"], other["d3"] = other.get("d3", "L"), "L"
    assert not lesson.setup("ready", other).accepted
    assert lesson.setup("ready", dict(lesson.draft)).accepted and lesson.done and lesson.setup_state()["ready"]


def test_the_setup_lesson_rebuilt_at_each_step():
    sc = scenario("setup")
    played = Lesson(sc)
    for n, step in enumerate(sc.steps):
        assert Lesson(sc, n).snapshot() == played.snapshot()
        assert played.setup(*_setup_try(step.expect, played.draft)).accepted
    assert Lesson(sc, len(sc.steps)).snapshot() == played.snapshot()


#: «ряд» in any case form (a board row); «рядом» (next to) is another word.
ROW_WORD = re.compile(r"\b[Рр]яд(а|у|е|ы|ов|ам|ами|ах)?\b")


def _texts(sc) -> list[str]:
    return [sc.title, sc.summary] + [t for st in sc.steps for t in (st.say, st.hint, st.explain) if t]


def test_the_scale_is_strength_and_a_row_is_the_boards():
    """Issue 18 item 6: a battle's explanation names both sides' strength as «сила N», and «ряд» means only a row
    of the board — which only the setup lesson speaks of."""
    battles = 0
    for sc in SCENARIOS:
        for st in sc.steps:
            for a, d in st.outcome.battles if st.outcome else ():
                battles += 1
                for n in (a, d):
                    assert re.search(rf"\bсил[аыу] {n}\b", st.explain), (sc.slug, n, st.explain)
        rows = [t for t in _texts(sc) if ROW_WORD.search(t)]
        assert not rows or sc.slug == "setup", (sc.slug, rows)
    assert battles >= 5
    setup_rows = [t for t in _texts(scenario("setup")) if ROW_WORD.search(t)]
    assert any("ряд 5" in t for t in setup_rows)
