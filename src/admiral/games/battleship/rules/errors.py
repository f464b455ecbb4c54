"""The one exception the Battleship rules raise for bad input: the house's
:class:`~admiral.games.common.IllegalAction`.

Codes: ``bad_cell``, ``bad_notation``, ``already_shot``, ``not_your_turn``, ``game_over``, ``invalid_setup``,
``bad_options``, ``bad_settings``, ``bad_record``, ``bad_audience``, ``game_not_over``, ``no_arrangement``.

>>> e = IllegalAction("already_shot", "b5 was shot already")
>>> e.code, str(e)
('already_shot', 'b5 was shot already')
"""

from __future__ import annotations

from ...common import IllegalAction

__all__ = ["IllegalAction"]
