"""«Обучение» (issue 7, issue 21): lessons played over plain requests, progress remembered for the commander.

Each game brings its own lessons (capability ``"tutorial"``, :class:`admiral.games.Lessons`); this service knows
them only through the registry: it lists them under their game, finds a lesson by its slug (unique over every
game) and lets the game's lesson judge each try. No game is created: a lesson is rebuilt from its scenario and step
number at every request (the steps are fixed, so the position before step *n* is always the same), tried, and
forgotten. Nothing here touches the games, the lobby or the commander's points; only ``tutorial_progress`` is
written. A commander may open any step it has reached (so a lesson can be resumed or replayed), never one further
on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from admiral.games import GameInfo, LessonPlan, LessonRun, Lessons, tutorial_games
from admiral.i18n import _
from admiral.store import TutorialStore

from .errors import ServiceError, engine_message

__all__ = ["LessonEntry", "TutorialService"]

#: What a lesson's snapshot says that the act reply carries in its own keys (the rest is passed through).
_OWN_KEYS = frozenset({"slug", "kind", "step", "steps", "done", "view"})


@dataclass(frozen=True)
class LessonEntry:
    """One lesson in the list: its ``game`` (key), the scenario, its number in its game (1-based), the furthest
    step reached, done or not."""

    game: str
    scenario: LessonPlan
    number: int
    step: int
    done: bool

    @property
    def steps(self) -> int:
        """How many steps the lesson has."""
        return len(self.scenario.steps)


class TutorialService:
    """The lessons of one commander (by identity key). ``store``: the tutorial progress repository; ``games``: the
    games with lessons by key (default: the registry's, :func:`admiral.games.tutorial_games`).

    :raises ValueError: two lessons of the games share a slug.
    """

    def __init__(self, store: TutorialStore, games: Mapping[str, Lessons] | None = None) -> None:
        self.store = store
        self.games = dict(tutorial_games() if games is None else games)
        self._game_of: dict[str, str] = {}
        for key, rs in self.games.items():
            for sc in rs.lessons():
                if sc.slug in self._game_of:
                    raise ValueError(f"lesson slug {sc.slug!r} of {key!r} is {self._game_of[sc.slug]!r}'s already")
                self._game_of[sc.slug] = key

    def info(self, game: str) -> GameInfo:
        """The facts of a game with lessons."""
        return self.games[game].info  # type: ignore[attr-defined]

    def lessons(self, key: str | None) -> list[LessonEntry]:
        """Every lesson, game by game in the registry's order, with the commander's progress (none for an unknown
        key)."""
        rows = self.store.progress(key) if key else {}
        out = []
        for game, rs in self.games.items():
            for i, sc in enumerate(rs.lessons(), 1):
                row = rows.get(sc.slug)
                out.append(LessonEntry(game, sc, i, row.step if row else 0, bool(row and row.done_at)))
        return out

    def by_game(self, key: str | None) -> list[tuple[GameInfo, list[LessonEntry]]]:
        """:meth:`lessons` grouped under each game's facts, in the registry's order."""
        entries = self.lessons(key)
        return [(self.info(game), [e for e in entries if e.game == game]) for game in self.games]

    def entry(self, key: str | None, slug: str) -> LessonEntry:
        """One lesson with the commander's progress. :raises ServiceError: ``not_found``."""
        for e in self.lessons(key):
            if e.scenario.slug == slug:
                return e
        raise ServiceError("not_found", _("Урок не найден."))

    def _lesson(self, key: str, slug: str, step: int | None, *, to_act: bool) -> LessonRun:
        game = self._game_of.get(slug)
        if game is None:
            raise ServiceError("not_found", _("Урок не найден."))
        steps = len(next(sc for sc in self.games[game].lessons() if sc.slug == slug).steps)
        reached = self.store.reached(key, slug)
        if step is None:
            step = reached if reached < steps else 0
        last = steps - 1 if to_act else steps
        if to_act and step == steps and reached >= step:
            raise ServiceError("lesson_done", _("Урок уже пройден: откройте его заново, чтобы повторить."))
        if not 0 <= step <= min(reached, last):
            raise ServiceError("bad_step", _("До этого шага урока вы ещё не дошли."), {"reached": reached})
        return self.games[game].lesson(slug, step)

    def start(self, key: str, slug: str, step: int | None = None) -> dict[str, Any]:
        """The lesson at ``step`` (default: where the commander stopped, or the start once it is done), as the
        game's :meth:`~admiral.games.LessonRun.snapshot`. :raises ServiceError: ``not_found``, ``bad_step``."""
        return self._lesson(key, slug, step, to_act=False).snapshot()

    def act(
        self, key: str, slug: str, step: int, *, action: str | None = None, op: str | None = None,
        setup: dict[str, str] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Try the player's ``action`` (a game lesson) or setup change (``op`` ``update``/``auto``/``ready``
        with its ``setup`` draft) at ``step``. Anything but what the step expects is refused and changes nothing;
        the accepted try advances the commander's progress.

        :returns: ``{"accepted", "step", "steps", "done", "frames", "reason", …}`` — ``frames``: the player's views
            after its action and after each scripted reply; ``reason``: the rules' refusal of the try in words (the
            game's :attr:`~admiral.games.GameInfo.messages`), ``None`` when the rules had none to give; then the rest
            of the lesson's snapshot after the try (``spot``; the setup lesson's ``setup``, on a refusal the state to
            go back to; whatever else the game's client reads).
        :raises ServiceError: ``not_found``, ``bad_step`` (a step not reached), ``lesson_done`` (a try after
            the last step).
        """
        lesson = self._lesson(key, slug, step, to_act=True)
        reply = lesson.attempt(action=action, op=op, setup=setup)
        if reply.accepted:
            self.store.advance(key, slug, lesson.step, lesson.done)
        snap = lesson.snapshot()
        reason = None
        if reply.refusal:
            reason = engine_message(reply.refusal, self.info(self._game_of[slug]).messages)
        return {
            "accepted": reply.accepted,
            "step": lesson.step,
            "steps": snap["steps"],
            "done": lesson.done,
            "frames": list(reply.frames),
            "reason": reason,
            **{k: v for k, v in snap.items() if k not in _OWN_KEYS},
        }
