"""«Обучение» (issue 7): lessons played over plain requests, progress remembered for the commander.

No game is created: a lesson is rebuilt from its scenario and step number at every request (the steps are
fixed, so the position before step *n* is always the same), tried, and forgotten. Nothing here touches
the games, the lobby or the commander's points; only ``tutorial_progress`` is written. A commander may
open any step it has reached (so a lesson can be resumed or replayed), never one further on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from admiral.games.admiral.tutorial import SCENARIOS, Lesson, Scenario, scenario
from admiral.i18n import _
from admiral.store import TutorialStore

from .errors import ServiceError

__all__ = ["LessonEntry", "TutorialService"]


@dataclass(frozen=True)
class LessonEntry:
    """One lesson in the list: the scenario, its number (1-based), the furthest step reached, done or not."""

    scenario: Scenario
    number: int
    step: int
    done: bool

    @property
    def steps(self) -> int:
        """How many steps the lesson has."""
        return len(self.scenario.steps)


class TutorialService:
    """The lessons of one commander (by identity key). ``store``: the tutorial progress repository."""

    def __init__(self, store: TutorialStore) -> None:
        self.store = store

    def lessons(self, key: str | None) -> list[LessonEntry]:
        """Every lesson in order, with the commander's progress (none for an unknown key)."""
        rows = self.store.progress(key) if key else {}
        out = []
        for i, sc in enumerate(SCENARIOS, 1):
            row = rows.get(sc.slug)
            out.append(LessonEntry(sc, i, row.step if row else 0, bool(row and row.done_at)))
        return out

    def entry(self, key: str | None, slug: str) -> LessonEntry:
        """One lesson with the commander's progress. :raises ServiceError: ``not_found``."""
        for e in self.lessons(key):
            if e.scenario.slug == slug:
                return e
        raise ServiceError("not_found", _("Урок не найден."))

    def _lesson(self, key: str, slug: str, step: int | None, *, to_act: bool) -> Lesson:
        sc = scenario(slug)
        if sc is None:
            raise ServiceError("not_found", _("Урок не найден."))
        reached = self.store.reached(key, slug)
        if step is None:
            step = reached if reached < len(sc.steps) else 0
        last = len(sc.steps) - 1 if to_act else len(sc.steps)
        if to_act and step == len(sc.steps) and reached >= step:
            raise ServiceError("lesson_done", _("Урок уже пройден: откройте его заново, чтобы повторить."))
        if not 0 <= step <= min(reached, last):
            raise ServiceError("bad_step", _("До этого шага урока вы ещё не дошли."), {"reached": reached})
        return Lesson(sc, step)

    def start(self, key: str, slug: str, step: int | None = None) -> dict[str, Any]:
        """The lesson at ``step`` (default: where the commander stopped, or the start once it is done), as
        :meth:`admiral.games.admiral.tutorial.Lesson.snapshot`. :raises ServiceError: ``not_found``, ``bad_step``."""
        return self._lesson(key, slug, step, to_act=False).snapshot()

    def act(
        self, key: str, slug: str, step: int, *, action: str | None = None, op: str | None = None,
        setup: dict[str, str] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Try the player's ``action`` (a game lesson) or setup change (``op`` ``update``/``auto``/``ready``
        with its ``setup`` draft) at ``step``. Anything but the step's one expected action is refused and
        changes nothing; the accepted one advances the commander's progress.

        :returns: ``{"accepted", "step", "steps", "done", "frames", "setup", "spot"}`` — ``frames``: the
            player's views after its action and after each scripted reply; ``setup``: the setup lesson's
            state (on a refusal, the state to go back to).
        :raises ServiceError: ``not_found``, ``bad_step`` (a step not reached), ``lesson_done`` (a try after
            the last step).
        """
        lesson = self._lesson(key, slug, step, to_act=True)
        if lesson.scenario.kind == "setup":
            reply = lesson.setup(op or "", setup or {})
        else:
            reply = lesson.play(action or "")
        if reply.accepted:
            self.store.advance(key, slug, lesson.step, lesson.done)
        snap = lesson.snapshot()
        return {
            "accepted": reply.accepted,
            "step": lesson.step,
            "steps": snap["steps"],
            "done": lesson.done,
            "frames": list(reply.frames),
            "setup": snap["setup"],
            "spot": snap["spot"],
        }
