"""«Обучение»: short guided lessons on a real board against a scripted opponent (issue 7).

Lessons are data (:mod:`.scenarios`): real positions, the one action each step accepts, the opponent's
fixed replies and the texts; :class:`Lesson` plays them with the real engine and shows the player only
the engine's view. Imports only :mod:`admiral.games.admiral.rules`.
"""

from .lesson import N_, PLAYER, Lesson, Outcome, Reply, Scenario, Step
from .scenarios import SCENARIOS, blast_square, scenario

__all__ = ["N_", "PLAYER", "SCENARIOS", "Lesson", "Outcome", "Reply", "Scenario", "Step", "blast_square", "scenario"]
