"""Scenarios of the tutorial as data, and a lesson: a scenario played up to a step by the real engine.

A :class:`Scenario` is a real position (``GameState.from_text``) or, for the setup lesson, an empty zone,
and a list of :class:`Step`. Each step accepts exactly one action of the player (South), then the scripted
opponent (North) answers with fixed actions. So the position before step *n* is always the same: the
start plus the expected actions and replies of the steps before it — a lesson can be rebuilt from its
step number alone, with no state kept between requests.

Every player-facing text is Russian, marked with :func:`N_` for extraction into the translation catalogs;
the page translates it when it renders (``{{ _(text) }}``).

>>> from admiral.games.admiral.tutorial import scenario
>>> lesson = Lesson(scenario("moving"))
>>> lesson.play("e3-d3").accepted
False
>>> reply = lesson.play("e4-e5")
>>> reply.accepted, lesson.step, [f["ply"] for f in reply.frames]
(True, 1, [1, 2])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from admiral.games.admiral.rules import (
    Action,
    BattleReport,
    Event,
    GameState,
    IllegalAction,
    Kind,
    Side,
    apply,
    auto_arrange,
    cell_name,
    legal_actions,
    normalize_setup,
    parse_cell,
    validate_setup,
    view,
)

__all__ = ["N_", "PLAYER", "Lesson", "Outcome", "Reply", "Scenario", "Step"]

#: The side the player takes in every lesson (South moves first and sees its zone at the bottom).
PLAYER = Side.SOUTH


def N_(message: str) -> str:
    """Mark ``message`` for translation (extracted by Babel's default ``N_`` keyword); returns it unchanged."""
    return message


@dataclass(frozen=True)
class Outcome:
    """What a step must have caused, as the engine reports it (checked by ``tests/games/admiral/tutorial``).

    ``removed``: every unit removed by the step's action and the replies, as ``"N:Le8"`` (side letter,
    ASCII kind code, cell), in any order. ``battles``: the ``(attacker row, defender row)`` of each
    ordinary battle (rules §7.1) in order. ``winner``: the side that has won once the step is over.
    """

    removed: tuple[str, ...] = ()
    battles: tuple[tuple[int, int], ...] = ()
    winner: str | None = None


@dataclass(frozen=True)
class Step:
    """One instruction of a lesson.

    ``say``: what to do; ``expect``: the one action accepted — engine notation in a game (``e4-e5``,
    ``e7xe8 [d7+e7]``, ``[b5+c4+c5]``, ``АБ!``), and in the setup lesson ``e3=L`` (place a unit),
    ``auto`` (auto-arrangement) or ``ready``; ``hint``: the friendly refusal of anything else;
    ``explain``: what happened, shown after the step; ``replies``: the scripted opponent's actions after
    the player's; ``spot``: cells the board highlights; ``outcome``: what the engine must report.
    """

    say: str
    expect: str
    hint: str
    explain: str
    replies: tuple[str, ...] = ()
    spot: tuple[str, ...] = ()
    outcome: Outcome = field(default_factory=Outcome)


@dataclass(frozen=True)
class Scenario:
    """A lesson: ``slug`` (its URL), ``title``, ``summary`` (one line for the list), ``steps``.

    ``kind``: ``play`` (``position`` in ``GameState.from_text`` form, South to move) or ``setup`` (an
    empty zone; ``seed`` fixes the auto-arrangement, so every player gets the same fleet).
    """

    slug: str
    title: str
    summary: str
    steps: tuple[Step, ...]
    kind: Literal["play", "setup"] = "play"
    position: str = ""
    seed: int = 0


@dataclass(frozen=True)
class Reply:
    """The answer to one try: ``accepted`` or not (then nothing changed). ``frames``: the player's views
    after its action and after each scripted reply (wire form), to be shown in turn; ``setup``: the setup
    lesson's state after the step (``{"draft", "problems", "ready"}``); ``refusal``: always ``None`` here (a
    lesson of «Адмирал» answers a wrong try with the step's hint alone)."""

    accepted: bool
    frames: tuple[dict[str, Any], ...] = ()
    setup: dict[str, Any] | None = None
    refusal: str | None = None


class Lesson:
    """A scenario played up to ``step`` (default: its start) by the real engine.

    ``state``/``log``: the true position and every event so far (a game lesson); ``draft``/``ready``: the
    player's setup (the setup lesson). The player sees only :meth:`snapshot`, built by the engine's view.

    :raises IllegalAction: ``bad_step`` for a step outside the scenario; the engine's code if a
        scenario's own action is illegal (a bug of the data, caught by the tests).
    """

    def __init__(self, scenario: Scenario, step: int = 0) -> None:
        if not 0 <= step <= len(scenario.steps):
            raise IllegalAction("bad_step", f"step {step} is outside the lesson ({len(scenario.steps)} steps)")
        self.scenario = scenario
        self.step = 0
        self.state: GameState | None = None
        self.log: list[Event] = []
        self.mark = 0  # the first ply of the last step: its moves and reports are marked on the board
        self.draft: dict[str, str] = {}
        self.ready = False
        if scenario.kind == "play":
            self.state = GameState.from_text(scenario.position, PLAYER)
        while self.step < step:
            expected = scenario.steps[self.step].expect
            reply = self.setup(*_setup_try(expected, self.draft)) if scenario.kind == "setup" else self.play(expected)
            assert reply.accepted, f"{scenario.slug} step {self.step}: its own action was refused"

    @property
    def done(self) -> bool:
        """Whether every step has been made."""
        return self.step >= len(self.scenario.steps)

    @property
    def current(self) -> Step | None:
        """The step waiting for the player, ``None`` when done."""
        return None if self.done else self.scenario.steps[self.step]

    def attempt(
        self, *, action: str | None = None, op: str | None = None, setup: Mapping[str, str] | None = None
    ) -> Reply:
        """The house's try (:class:`admiral.games.LessonRun`): :meth:`setup` in the setup lesson, else :meth:`play`."""
        if self.scenario.kind == "setup":
            return self.setup(op or "", setup or {})
        return self.play(action or "")

    # -- a game lesson -----------------------------------------------------------------------------

    def _apply(self, notation: str) -> list[Event]:
        assert self.state is not None
        events = apply(self.state, Action.parse(notation))
        self.log.extend(events)
        return events

    def _view(self, since: int) -> dict[str, Any]:
        assert self.state is not None
        return view(self.state, PLAYER, self.log, since=since).to_dict()

    def play(self, text: str) -> Reply:
        """Try the player's action (notation). Anything but the step's expected action is refused and
        changes nothing; the expected one is applied, then the scripted replies."""
        step = self.current
        if self.scenario.kind != "play" or step is None or self.state.to_act is not PLAYER:
            return Reply(False)
        try:
            action = Action.parse(text)
        except IllegalAction:
            return Reply(False)
        if action != Action.parse(step.expect):
            return Reply(False)
        start = self.state.ply
        self._apply(step.expect)
        frames = [self._view(start)]
        for reply in step.replies:
            at = self.state.ply
            self._apply(reply)
            frames.append(self._view(at))
        self.mark = start
        self.step += 1
        return Reply(True, tuple(frames))

    def events_of_step(self, start: int) -> list[Event]:
        """The events at plies ≥ ``start`` (what a step caused, for checks)."""
        return [e for e in self.log if getattr(e, "ply", -1) >= start]

    def reports_since(self, start: int) -> list[BattleReport]:
        """Battle reports at plies ≥ ``start``."""
        return [e for e in self.events_of_step(start) if isinstance(e, BattleReport)]

    def legal(self) -> list[str]:
        """The player's legal actions now (notation), empty in the setup lesson or when it is not to act."""
        if self.state is None or self.state.to_act is not PLAYER:
            return []
        return [str(a) for a in legal_actions(self.state)]

    # -- the setup lesson ----------------------------------------------------------------------------

    def setup(self, op: str, draft: Mapping[str, str]) -> Reply:
        """Try a setup change: ``op`` ``update`` (the player's draft after placing a unit), ``auto`` or
        ``ready``. Only the step's expected change is accepted; anything else changes nothing."""
        step = self.current
        if self.scenario.kind != "setup" or step is None:
            return Reply(False)
        expected = step.expect
        if expected == "auto":  # arranges the lesson's own draft: the one sent is not needed
            if op != "auto":
                return Reply(False)
            board = auto_arrange(PLAYER, random.Random(self.scenario.seed), self.draft)
            self.draft = {cell_name(c): k.code for c, k in board.items()}
            self.step += 1
            return Reply(True, setup=self.setup_state())
        try:
            proposed = _canonical(draft)
        except IllegalAction:
            return Reply(False)
        if expected == "ready":
            if op != "ready" or proposed != self.draft:
                return Reply(False)
            self.ready = True
        else:
            cell, kind = expected.split("=")
            if op != "update" or proposed != {**self.draft, cell: kind}:
                return Reply(False)
            self.draft = _canonical(proposed)
        self.step += 1
        return Reply(True, setup=self.setup_state())

    def setup_state(self) -> dict[str, Any]:
        """The setup lesson's state in the game's ``setup.state`` form."""
        problems = [p.to_dict() for p in validate_setup(PLAYER, self.draft, complete=False)]
        return {"draft": dict(self.draft), "problems": problems, "ready": self.ready}

    # -- what the page gets ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The lesson now, as the player may see it: ``{"slug", "kind", "step", "steps", "done", "view",
        "setup", "spot"}`` (``view``: the engine's view of South in a game lesson; ``setup``: the setup
        lesson's state)."""
        step = self.current
        return {
            "slug": self.scenario.slug,
            "kind": self.scenario.kind,
            "step": self.step,
            "steps": len(self.scenario.steps),
            "done": self.done,
            "view": self._view(self.mark) if self.state is not None else None,
            "setup": self.setup_state() if self.scenario.kind == "setup" else None,
            "spot": list(step.spot) if step else [],
        }


def _canonical(draft: Mapping[str, str]) -> dict[str, str]:
    """A setup draft with canonical cells and kind codes, in notation order.

    :raises IllegalAction: for a bad cell or kind, or more than a zone holds.
    """
    if len(draft) > 70:
        raise IllegalAction("bad_setup", "more units than a zone holds")
    return {cell_name(c): k.code for c, k in normalize_setup(dict(draft)).items()}


def _setup_try(expected: str, draft: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The setup change a player makes to do step ``expected`` (used to replay a lesson to a step)."""
    if expected in ("auto", "ready"):
        return expected, draft
    cell, kind = expected.split("=")
    parse_cell(cell), Kind.parse(kind)
    return "update", {**draft, cell: kind}
