"""«Военно-морская игра»'s lessons replayed through the real engine (issue 21): every expected order is legal where it
is asked for, every refusal step meets exactly its rules' refusal, every scripted reply is legal, the sinkings and the
die's rolls the texts explain are what the engine reports, anything else is refused without a change, and the player
sees only the engine's view."""

from __future__ import annotations

import pytest

from admiral.games import tutorial_games
from admiral.games.naval import INFO
from admiral.games.naval.rules import Action, Order, legal_actions
from admiral.games.naval.tutorial import SCENARIOS, Lesson, Outcome, scenario

IDS = [s.slug for s in SCENARIOS]


def test_three_lessons_with_prefixed_slugs():
    assert IDS == ["naval-moves", "naval-strikes", "naval-mines"]
    assert all(s.slug.startswith("naval-") for s in SCENARIOS)
    assert "tutorial" in INFO.capabilities and INFO.tutorial == "/tutorial#naval" and INFO.tutorial_note
    assert tutorial_games()["naval"].lessons() == SCENARIOS


@pytest.mark.parametrize("sc", SCENARIOS, ids=IDS)
def test_each_step_does_what_its_text_says(sc):
    lesson = Lesson(sc)
    for n, step in enumerate(sc.steps):
        state = lesson.game.state
        legal = {str(o) for o in legal_actions(state)}
        for e in step.expect:
            order = Action.parse(e)
            assert isinstance(order, Order)
            if step.refusal:
                assert str(order) not in legal and lesson.refusal_of(order) == step.refusal, (n, e)
                assert not step.replies
            else:
                assert str(order) in legal, (n, e)
        assert step.refusal is None or step.refusal in INFO.messages  # the house has words for it
        for p in step.spot:
            assert p in step.say or p in step.hint, (n, p)  # a spotted point is named in the texts
        ply, before = state.ply, state.to_text()
        reply = lesson.attempt(action=step.expect[0])
        assert reply.accepted and lesson.step == n + 1
        if step.refusal:
            assert reply.refusal == step.refusal and len(reply.frames) == 1
            assert lesson.game.state.to_text() == before  # a refused try moves nothing
        else:
            assert reply.refusal is None and len(reply.frames) == 1 + len(step.replies)
            assert lesson.game.state.to_act is not None  # the game goes on: a lesson never ends the game
        assert lesson.outcome_since(ply) == step.outcome, n
    assert lesson.done and lesson.current is None


@pytest.mark.parametrize("sc", SCENARIOS, ids=IDS)
def test_a_wrong_try_changes_nothing_and_names_the_rules_reason(sc):
    for n in range(len(sc.steps)):
        lesson = Lesson(sc, n)
        before, snap = lesson.game.state.to_text(), lesson.snapshot()
        tries = [t["notation"] for t in snap["tries"]]
        legal_other = [o["notation"] for o in snap["view"]["legal"]
                       if o["notation"] not in {str(Action.parse(e)) for e in sc.steps[n].expect}]  # fmt: skip
        for text in ["", "nonsense", "resign south", *legal_other[:3], *tries[:6]]:
            reply = lesson.attempt(action=text)
            if reply.accepted:  # only a refusal step's own kind of try passes
                assert sc.steps[n].refusal and reply.refusal == sc.steps[n].refusal
                lesson = Lesson(sc, n)
                continue
            assert reply.frames == () and lesson.step == n and lesson.game.state.to_text() == before
            if text in tries:
                assert reply.refusal in INFO.messages, text  # the engine refused it: its reason is named
        assert lesson.snapshot() == snap


def test_a_setup_try_is_refused():
    assert Lesson(scenario("naval-moves")).attempt(op="auto", setup={}).accepted is False


def test_the_mines_lesson_rolls_what_its_texts_say():
    lesson = Lesson(scenario("naval-mines"), 2)
    rolls = [(r.k, r.value, r.cause) for r in lesson.game.state.rolls]
    assert rolls == [(0, 0, "mine"), (1, 5, "gun")]  # «взрыв», then a six (value 5)
    steps = scenario("naval-mines").steps
    assert "«взрыв»" in steps[0].explain and "шестёрку" in steps[1].explain
    view = lesson.snapshot()["view"]
    assert view["mines"] == ["f6"] and view["sides"]["south"]["reserve"] == 2
    assert view["chance"]["seed"] is None  # the game is not over: the seed stays hidden, as in a game


def test_tries_offer_only_what_the_rules_refuse():
    lesson = Lesson(scenario("naval-moves"), 1)
    tries = {t["notation"]: t for t in lesson.snapshot()["tries"]}
    assert {"d4-e4", "d4-c4", "d4-d3"} <= set(tries)  # sideways both ways, stern first
    assert "d4-d5" not in tries  # legal: the map's green dot
    assert tries["d4-e4"] == {"type": "step", "ship": "d4", "to": "e4", "notation": "d4-e4"}
    strikes = {t["notation"] for t in Lesson(scenario("naval-strikes"), 1).snapshot()["tries"] if t["type"] == "strike"}
    assert {"f5xf6", "h4xh5"} <= strikes
    assert Lesson(scenario("naval-moves"), 5).snapshot()["tries"] == []  # done: nothing to try


def test_the_view_is_the_engines():
    lesson = Lesson(scenario("naval-strikes"))
    snap = lesson.snapshot()
    assert snap["view"] == lesson.game.view("south", since=0).to_dict()
    assert snap["spot"] == ["d5", "d6"] and snap["kind"] == "play" and snap["steps"] == 5
    assert Outcome() == lesson.outcome_since(0)
