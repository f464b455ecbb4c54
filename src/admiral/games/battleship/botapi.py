"""The interface a bot of «Морской бой» implements, and the registry of levels (empty until bots exist).

A bot sees only :class:`~.rules.PlayerView` values (the one view function), never the true state:

- ``bot.setup(side) -> {cell: code}``: its complete setup for ``side`` (``"south"``/``"north"``), called once
  before play (it may call :func:`~.rules.auto_arrange` with its own rng and the ``"hard"`` style);
- ``bot.act(view, deadline_s) -> notation``: its shot for ``view`` (a cell name such as ``"b5"``; one of
  ``view.legal``), chosen within about ``deadline_s`` seconds;
- ``bot.observe(view)``: a view it was not asked to act on (after a restart the server shows a new bot its
  side's views along the record, :meth:`~.ruleset.BattleshipRuleset.bot_catch_up`).

To add levels: implement :class:`Bot`, and put ``LEVELS[n] = BotLevel(N_("name"), factory)`` here (the factory
takes ``(seed, rules)`` and returns a bot); :data:`~admiral.games.battleship.INFO` lists them from this table and
:meth:`~.ruleset.BattleshipRuleset.new_bot` makes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .rules import PlayerView, Rules

__all__ = ["LEVELS", "Bot", "BotLevel"]


@runtime_checkable
class Bot(Protocol):
    """A bot of «Морской бой» (module docstring)."""

    def setup(self, side: str) -> Mapping[str, str]:
        """Its complete setup for ``side``: ``{cell: code}``."""

    def act(self, view: PlayerView, deadline_s: float) -> str:
        """Its shot (notation) for ``view``, within about ``deadline_s`` seconds."""

    def observe(self, view: PlayerView) -> None:
        """Take note of ``view`` without acting."""


@dataclass(frozen=True)
class BotLevel:
    """A level offered: ``name`` (Russian, ``N_``-marked) and ``make(seed, rules) -> Bot``."""

    name: str
    make: Callable[[int, Rules], Bot]


#: AI level → :class:`BotLevel`. Empty: the bots come from another issue.
LEVELS: dict[int, BotLevel] = {}
