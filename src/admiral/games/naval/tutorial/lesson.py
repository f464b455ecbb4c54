"""A lesson of «Военно-морская игра» as data, and a lesson played up to a step by the real engine (issue 21).

A :class:`Scenario` is a real position (:meth:`~admiral.games.naval.rules.GameState.from_text`, South to move) with
the die's seed fixed (so every roll of the lesson is known beforehand and its texts can say what the die did), and a
list of :class:`Step`. A step either accepts one of its ``expect`` orders — the engine applies it, then the scripted
opponent (North) answers with its ``replies`` — or, with ``refusal``, asks the player to try an order the rules
forbid: the step is made when the engine refuses the try with that code, and nothing moves. So the position before
step *n* is always the same, and a lesson is rebuilt from its step number alone.

A wrong try changes nothing; the reply names the rules' refusal code when the engine refused it (the house words it
with the game's :attr:`~admiral.games.GameInfo.messages`).

>>> from admiral.games.naval.tutorial import scenario
>>> lesson = Lesson(scenario("naval-moves"))
>>> r = lesson.attempt(action="d3-e3")
>>> r.accepted, r.refusal
(False, 'sideways')
>>> r = lesson.attempt(action="d3-d4")
>>> r.accepted, lesson.step, [f["ply"] for f in r.frames]
(True, 1, [1, 2])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from admiral.games.naval.rules import (
    MAP,
    Action,
    Event,
    Facing,
    Game,
    IllegalAction,
    Order,
    Roll,
    Side,
    Sunk,
    name,
    parse_point,
)

__all__ = ["N_", "PLAYER", "Lesson", "Outcome", "Reply", "Scenario", "Step"]

#: The side the player takes in every lesson (South moves first and has its coast at the bottom).
PLAYER = Side.SOUTH


def N_(message: str) -> str:
    """Mark ``message`` for translation (extracted by Babel's default ``N_`` keyword); returns it unchanged."""
    return message


@dataclass(frozen=True)
class Outcome:
    """What a step must have caused, as the engine reports it (checked by ``tests/games/naval/test_tutorial.py``):
    ``sunk``: every sinking as ``"north G1 f6 mine"`` (side, ship id, point, cause), in order; ``rolls``: each roll
    of the die as ``(point, value)`` (value 0 is «взрыв»), in order."""

    sunk: tuple[str, ...] = ()
    rolls: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Step:
    """One instruction of a lesson.

    ``say``: what to do; ``expect``: the orders accepted (notation; the first is the one a replay makes);
    ``hint``: the friendly refusal of anything else; ``explain``: what happened, shown after the step; ``replies``:
    the scripted opponent's orders after the player's; ``spot``: points the map highlights; ``refusal``: the step
    is a try the rules forbid — made when the engine refuses a try with this code (``expect`` then lists tries that
    do); ``outcome``: what the engine must report.
    """

    say: str
    expect: tuple[str, ...]
    hint: str
    explain: str
    replies: tuple[str, ...] = ()
    spot: tuple[str, ...] = ()
    refusal: str | None = None
    outcome: Outcome = field(default_factory=Outcome)


@dataclass(frozen=True)
class Scenario:
    """A lesson: ``slug`` (its URL, ``naval-`` first: slugs are unique over every game), ``title``, ``summary`` (one
    line for the list), ``steps``, ``position`` (``GameState.from_text``, South to move), ``seed`` (the die's)."""

    slug: str
    title: str
    summary: str
    steps: tuple[Step, ...]
    position: str
    seed: int = 0
    kind: str = "play"


@dataclass(frozen=True)
class Reply:
    """The answer to one try: ``accepted`` or not (then nothing changed); ``frames``: the player's views after its
    order and after each scripted reply (wire form; a refusal step's one frame is the unchanged position);
    ``refusal``: the engine's refusal code of the try, ``None`` if the engine would have taken it."""

    accepted: bool
    frames: tuple[dict[str, Any], ...] = ()
    refusal: str | None = None


class Lesson:
    """A scenario played up to ``step`` (default: its start) by the real engine; ``game`` is the engine's game
    (record and all). The player sees only :meth:`snapshot`, built by the engine's view.

    :raises IllegalAction: ``bad_step`` for a step outside the scenario; the engine's code if a scenario's own
        order is illegal (a bug of the data, caught by the tests).
    """

    def __init__(self, scenario: Scenario, step: int = 0) -> None:
        if not 0 <= step <= len(scenario.steps):
            raise IllegalAction("bad_step", f"step {step} is outside the lesson ({len(scenario.steps)} steps)")
        self.scenario = scenario
        self.step = 0
        self.game = Game.from_position(scenario.position, PLAYER, scenario.seed)
        self.mark = 0  # the first ply of the last step made: its move is marked on the map
        while self.step < step:
            reply = self.attempt(action=scenario.steps[self.step].expect[0])
            assert reply.accepted, f"{scenario.slug} step {self.step}: its own try was refused"

    @property
    def done(self) -> bool:
        """Whether every step has been made."""
        return self.step >= len(self.scenario.steps)

    @property
    def current(self) -> Step | None:
        """The step waiting for the player, ``None`` when done."""
        return None if self.done else self.scenario.steps[self.step]

    def _view(self, since: int) -> dict[str, Any]:
        return self.game.view(PLAYER, since=since).to_dict()

    def refusal_of(self, order: Order) -> str | None:
        """The engine's refusal code of ``order`` now, ``None`` if it is legal (nothing changes either way)."""
        try:
            self.game.state.check(order, PLAYER)
        except IllegalAction as e:
            return e.code
        return None

    def attempt(
        self, *, action: str | None = None, op: str | None = None, setup: Mapping[str, str] | None = None
    ) -> Reply:
        """Try the player's order (``action``, notation); ``op``/``setup`` (a setup lesson's) are refused: the start
        is fixed. Anything but the step's expected order (or, in a refusal step, a try the rules refuse with the
        step's code) is refused and changes nothing."""
        step = self.current
        if step is None or op is not None or self.game.state.to_act is not PLAYER:
            return Reply(False)
        try:
            parsed = Action.parse(action or "")
        except IllegalAction as e:
            return Reply(False, refusal=e.code)
        if not isinstance(parsed, Order):
            return Reply(False)  # a resignation or a draw: not a lesson's try
        code = self.refusal_of(parsed)
        if step.refusal is not None:
            if code != step.refusal:
                return Reply(False, refusal=code)
            self.step += 1
            return Reply(True, (self._view(self.mark),), code)
        if str(parsed) not in {str(Action.parse(e)) for e in step.expect}:
            return Reply(False, refusal=code)
        start = self.game.state.ply
        self.game.apply(parsed, PLAYER)
        frames = [self._view(start)]
        for reply in step.replies:
            at = self.game.state.ply
            self.game.apply(reply, PLAYER.opponent)
            frames.append(self._view(at))
        self.mark = start
        self.step += 1
        return Reply(True, tuple(frames))

    def events_since(self, ply: int) -> list[Event]:
        """The events at plies ≥ ``ply`` (what a step caused, for checks)."""
        return [e for e in self.game.log if getattr(e, "ply", -1) >= ply]

    def outcome_since(self, ply: int) -> Outcome:
        """The sinkings and rolls at plies ≥ ``ply``, in :class:`Outcome`'s form."""
        events = self.events_since(ply)
        sunk = tuple(f"{e.side.label} {e.ship} {name(e.point)} {e.cause}" for e in events if isinstance(e, Sunk))
        rolls = tuple((name(e.point), e.value) for e in events if isinstance(e, Roll))
        return Outcome(sunk, rolls)

    def tries(self) -> list[dict[str, Any]]:
        """The orders the rules refuse that the map offers to try (the lesson only: a game offers only what is
        legal): for each own ship, a step or strike to each neighbouring point on the map that is not legal now —
        sideways, stern first, onto land, a strike on the stern or, by a junior, on the bow. ``[{"type": "step" |
        "strike", "ship", "to", "notation"}]``; empty when the player is not to act."""
        state = self.game.state
        if self.done or state.to_act is not PLAYER:
            return []
        legal = {str(o) for o in state.legal_actions()}
        out = []
        for src in sorted(state.fleet(PLAYER)):
            for facing in Facing:
                dst = MAP.ahead(src, facing)
                if dst is None:
                    continue
                other = state.ships.get(dst)
                if other is not None and other.side is PLAYER:
                    continue  # the own ship there is selected by a tap, not tried
                kind = "step" if other is None else "strike"
                notation = f"{name(src)}{'-' if other is None else 'x'}{name(dst)}"
                if notation not in legal:
                    out.append({"type": kind, "ship": name(src), "to": name(dst), "notation": notation})
        return out

    def snapshot(self) -> dict[str, Any]:
        """The lesson now, as the player may see it: ``{"slug", "kind", "step", "steps", "done", "view", "spot",
        "tries"}`` (``view``: the engine's view of South, legal orders included while it is to act; ``tries``:
        :meth:`tries`)."""
        step = self.current
        view = self._view(self.mark)
        if self.done:
            view["legal"] = []  # a finished lesson takes no more orders
        return {
            "slug": self.scenario.slug,
            "kind": self.scenario.kind,
            "step": self.step,
            "steps": len(self.scenario.steps),
            "done": self.done,
            "view": view,
            "spot": list(step.spot) if step else [],
            "tries": self.tries(),
        }


def points(*names: str) -> tuple[str, ...]:
    """Point names checked against the map (a scenario's ``spot``)."""
    return tuple(name(parse_point(n)) for n in names)
