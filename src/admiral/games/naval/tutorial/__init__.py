"""«Обучение» for «Военно-морская игра» (issue 21): three short guided lessons on the real engine.

Lessons are data (:mod:`.scenarios`): real positions, the orders each step accepts (or, for a try the rules forbid,
the refusal it must meet), the opponent's fixed replies, the die's fixed seed and the texts; :class:`Lesson` plays
them with the real engine and shows the player only the engine's view. Imports only
:mod:`admiral.games.naval.rules`.
"""

from .lesson import N_, PLAYER, Lesson, Outcome, Reply, Scenario, Step
from .scenarios import SCENARIOS, scenario

__all__ = ["N_", "PLAYER", "SCENARIOS", "Lesson", "Outcome", "Reply", "Scenario", "Step", "scenario"]
