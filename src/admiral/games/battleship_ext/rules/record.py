"""The extended variant's game record and playable game (DESIGN "game record"; BATTLESHIP.md D11, D13).

Settings: ``{"options": {"board", "mines", "sweepers"}, "seed": int, "levels": {"south": 1..10, "north":
1..10}}`` (``levels`` optional: 1 for both; fixed at the start, D11). Replaying a record reproduces every state,
every draw of the seed included (D13): the first shooter is draw 0, the rest are drawn as they happen.

>>> import random
>>> g = ExtGame.new_random(random.Random(1), {"options": {"board": "perelman", "mines": 2}, "seed": 7})
>>> events = g.apply(g.legal_actions()[0])
>>> again = ExtGameRecord.from_json(g.record.to_json()).replay()
>>> again.state == g.state, again.state.draws == g.state.draws, g.record.settings["levels"]
(True, True, {'south': 1, 'north': 1})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiral.games.battleship.rules import Cell, Game, GameRecord, IllegalAction, Side

from .fleet import LEVELS, ExtRules, options_of, rules_from_options
from .state import ExtState, parse_action
from .view import ExtPlayerView, view

__all__ = ["FORMAT", "ExtGame", "ExtGameRecord", "settings_of"]

#: The record's format name.
FORMAT = "battleship-ext-record/1"


def settings_of(settings: Mapping[str, Any] | None) -> tuple[ExtRules, int, dict[str, Any]]:
    """The rules, the seed and the normalised settings (options and levels filled in; other keys kept).

    :raises IllegalAction: ``bad_options``; ``bad_settings`` for a missing or non-int ``seed`` or bad ``levels``
        (an object with ``south`` and/or ``north``, each an int 1–10).
    """
    settings = dict(settings or {})
    rules = rules_from_options(settings.get("options"))
    seed = settings.get("seed")
    if type(seed) is not int:
        raise IllegalAction("bad_settings", f"settings need an int 'seed' (D13), not {seed!r}")
    raw = settings.get("levels") or {}
    if not isinstance(raw, Mapping) or set(raw) - {"south", "north"}:
        raise IllegalAction("bad_settings", f"'levels' is {{'south': 1..10, 'north': 1..10}}, not {raw!r}")
    levels = {side: raw.get(side, 1) for side in ("south", "north")}
    for side, level in levels.items():
        if type(level) is not int or level not in LEVELS:
            raise IllegalAction("bad_settings", f"the level of {side} is an int 1–10, not {level!r}")
    settings["options"] = options_of(rules)
    settings["levels"] = levels
    return rules, seed, settings


class ExtGameRecord(GameRecord):
    """A whole game of the extended variant as data (classic :class:`GameRecord`, its own format, settings and
    notation)."""

    FORMAT = FORMAT

    @staticmethod
    def read_settings(settings: Mapping[str, Any] | None) -> tuple[ExtRules, int, dict[str, Any]]:
        """:func:`settings_of`."""
        return settings_of(settings)

    @staticmethod
    def parse_action(text: str) -> Any:
        """:func:`~.state.parse_action`."""
        return parse_action(text)

    @classmethod
    def game_class(cls) -> type[ExtGame]:
        """:class:`ExtGame`."""
        return ExtGame


class ExtGame(Game):
    """A game of the extended variant in progress: ``state`` (an :class:`~.state.ExtState`), ``record``
    (:class:`ExtGameRecord`), ``log``.

    :raises IllegalAction: ``invalid_setup``, ``bad_options``, ``bad_settings``.
    """

    record_class = ExtGameRecord
    state: ExtState

    @staticmethod
    def new_state(rules: Any, setups: Mapping[Side, Mapping[Cell, str]], seed: int, settings: Mapping) -> ExtState:
        """The opening state: the first shooter is draw 0 of the seed (D2, D13); the levels from the settings."""
        levels = settings["levels"]
        return ExtState.from_setups(
            rules, setups[Side.SOUTH], setups[Side.NORTH], seed=seed, levels=(levels["south"], levels["north"])
        )

    def view(self, audience: Side | str, *, since: int | None = None) -> ExtPlayerView:
        """The view for ``audience`` (:func:`~.view.view`)."""
        return view(self.state, audience, since=since)
