"""The one exception the engine raises for bad input: the house's :class:`~admiral.games.common.IllegalAction`.

«Адмирал»'s codes: ``bad_notation``, ``bad_cell``, ``bad_action``, ``bad_side``, ``bad_target``, ``bad_formation``,
``ambiguous``, ``unknown_kind``, ``no_unit``, ``not_your_unit``, ``immobile``, ``occupied``, ``not_adjacent``,
``cannot_attack``, ``no_torpedo``, ``no_bomb``, ``declaration_pending``, ``no_declaration_pending``,
``game_over``, ``invalid_setup``, ``bad_position``, ``bad_record``, ``bad_audience``, ``game_not_over``.

>>> e = IllegalAction("not_your_unit", "e4 holds no unit of yours")
>>> e.code, str(e)
('not_your_unit', 'e4 holds no unit of yours')
"""

from __future__ import annotations

from ...common import IllegalAction

__all__ = ["IllegalAction"]
