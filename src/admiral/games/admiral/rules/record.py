"""The game record and a playable game (rules §3, DESIGN "game record").

A :class:`GameRecord` is settings + both setups + the list of actions; replaying it reproduces every
state exactly. :class:`Game` is a game in progress: the true state, its record and its event log.

>>> import random
>>> g = Game.new_random(random.Random(1))
>>> events = g.apply(g.legal_actions()[0])
>>> again = GameRecord.from_json(g.record.to_json()).replay()
>>> again.state == g.state
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from ...common import Record, RecordedGame, record_parts, record_setups
from .actions import Action
from .board import Cell, cell_name
from .errors import IllegalAction
from .events import Event
from .setup import Placements, auto_arrange, check_setup
from .state import GameState, apply, legal_actions
from .units import Kind, Side
from .view import MoveList, PlayerView, view

__all__ = ["FORMAT", "Game", "GameRecord"]

#: The record's format name, written into every record.
FORMAT = "admiral-record/1"


class GameRecord(Record):
    """A whole game as data: ``settings`` (opaque, JSON-ready metadata such as time control), the two
    ``setups`` (side → {cell: Kind}) and the ``actions`` applied, in order."""

    FORMAT = FORMAT

    @staticmethod
    def cell_text(cell: Cell) -> str:
        """``cell_name``."""
        return cell_name(cell)

    @staticmethod
    def unit_text(unit: Kind) -> str:
        """The kind's ASCII code."""
        return unit.code

    @classmethod
    def from_dict(cls, data: Mapping) -> GameRecord:
        """Read the form written by :meth:`to_dict`. Setups and action notation are checked; the
        actions' legality is checked by :meth:`replay`.

        :raises IllegalAction: ``bad_record`` (wrong shape) or the code of the first bad part.
        """
        setups, actions, settings = record_parts(data, FORMAT)
        parsed = record_setups(setups, Side, check_setup)
        return cls(parsed, [Action.parse(a) for a in actions], dict(settings))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read JSON text written by :meth:`to_json`.

        :raises IllegalAction: ``bad_record`` for text that is not JSON of the right shape.
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:  # RecursionError: hostile nesting
            raise IllegalAction("bad_record", f"a record must be JSON: {e}") from None
        return cls.from_dict(data)

    def start(self) -> Game:
        """A new :class:`Game` from the record's setups and settings (:meth:`replay`, :meth:`states`)."""
        return Game(self.setups[Side.SOUTH], self.setups[Side.NORTH], self.settings)


class Game(RecordedGame):
    """A game of «Адмирал» in progress: ``state`` (the truth), ``record`` and ``log`` (every event).

    :raises IllegalAction: ``invalid_setup`` if a setup is not valid.
    """

    def __init__(self, south: Placements, north: Placements, settings: Mapping[str, Any] | None = None) -> None:
        south_setup, north_setup = check_setup(Side.SOUTH, south), check_setup(Side.NORTH, north)
        self.state = GameState.from_setups(south_setup, north_setup)
        self.record = GameRecord({Side.SOUTH: south_setup, Side.NORTH: north_setup}, [], dict(settings or {}))
        self.log: list[Event] = []

    @classmethod
    def new_random(cls, rng: random.Random, settings: Mapping[str, Any] | None = None) -> Game:
        """A game from two auto-arranged setups drawn from ``rng`` (South's first)."""
        return cls(auto_arrange(Side.SOUTH, rng), auto_arrange(Side.NORTH, rng), settings)

    def legal_actions(self) -> list[Action]:
        """Legal actions of the side to act (see :func:`admiral.games.admiral.rules.legal_actions`)."""
        return legal_actions(self.state)

    def apply(self, action: Action | str) -> list[Event]:
        """Apply an action (or its notation) and record it.

        :raises IllegalAction: for illegal input; the game is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        events = apply(self.state, action)
        self.record.actions.append(action)
        self.log.extend(events)
        return events

    def copy(self) -> Game:
        """:meth:`RecordedGame.copy`, with this game's move list (the server applies each move to a copy and keeps
        the copy: without it, every version would read the whole log again)."""
        twin = super().copy()
        kept = getattr(self, "_moves", None)
        if kept is not None:
            twin._moves = kept.copy()
        return twin

    def view(self, audience: Side | str, *, since: int | None = None, moves: bool = False) -> PlayerView:
        """The view for ``audience`` (see :func:`admiral.games.admiral.rules.view`); ``moves``: with the move
        list, kept up along the log by this game's own :class:`MoveList` (every audience's view of every version
        shares its work: issue 23)."""
        if moves:
            kept = getattr(self, "_moves", None)  # a copy (``RecordedGame.copy``) starts its own
            if kept is None or kept.read > len(self.log):
                kept = self._moves = MoveList()
            return view(self.state, audience, self.log, since=since, moves=kept)
        return view(self.state, audience, self.log, since=since)
