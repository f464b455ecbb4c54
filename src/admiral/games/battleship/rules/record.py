"""The game record and a playable game (DESIGN "game record"; rules A4, D2, D13).

A :class:`GameRecord` is settings (room options, seed, anything else the server keeps) + both setups + the actions
applied; replaying it reproduces every state exactly, the first shooter included (drawn from the seed, D2).
:class:`Game` is a game in progress: the true state, its record and its event log.

>>> import random
>>> g = Game.new_random(random.Random(1), {"options": {"rules": "hasbro", "salvo": True}, "seed": 7})
>>> events = g.apply(g.legal_actions()[0])
>>> GameRecord.from_json(g.record.to_json()).replay().state == g.state
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from ...common import Record, RecordedGame, record_parts, record_setups
from .board import Cell, cell_name
from .chance import draw, seed_bytes
from .errors import IllegalAction
from .fleet import Rules, options_of, rules_from_options
from .setup import Placements, auto_arrange, check_setup
from .state import Action, Event, GameState, Side
from .view import PlayerView, view

__all__ = ["FORMAT", "Game", "GameRecord", "first_shooter", "settings_of"]

#: The record's format name, written into every record.
FORMAT = "battleship-record/1"


def first_shooter(seed: int) -> Side:
    """The side that shoots first: draw 0 of the game's seed among South and North (A4, D2, D13)."""
    return Side(draw(seed_bytes(seed), 0, 2))


def settings_of(settings: Mapping[str, Any] | None) -> tuple[Rules, int, dict[str, Any]]:
    """The rules, the seed and the normalised settings (options filled in) of game ``settings``
    (``{"options": {...}, "seed": int, ...}``; other keys are kept as they are).

    :raises IllegalAction: ``bad_options``; ``bad_settings`` when ``seed`` is missing or not an ``int`` (the first
        shooter is drawn from it, A4: a game never falls back to a fixed first shooter).
    """
    settings = dict(settings or {})
    rules = rules_from_options(settings.get("options"))
    seed = settings.get("seed")
    if type(seed) is not int:
        raise IllegalAction("bad_settings", f"settings need an int 'seed' to draw the first shooter, not {seed!r}")
    settings["options"] = options_of(rules)
    return rules, seed, settings


class GameRecord(Record):
    """A whole game as data: ``settings`` (:func:`settings_of`), ``setups`` (side → ``{cell: code}``, reading
    order) and the ``actions`` applied, in order."""

    FORMAT = FORMAT

    @staticmethod
    def read_settings(settings: Mapping[str, Any] | None) -> tuple[Rules, int, dict[str, Any]]:
        """The hook a variant's record overrides: :func:`settings_of`."""
        return settings_of(settings)

    @staticmethod
    def parse_action(text: str) -> Action:
        """The hook a variant's record overrides: :meth:`Action.parse`."""
        return Action.parse(text)

    @staticmethod
    def cell_text(cell: Cell) -> str:
        """``cell_name``."""
        return cell_name(cell)

    @classmethod
    def from_dict(cls, data: Mapping) -> GameRecord:
        """Read the form :meth:`to_dict` writes. Settings, setups and notation are checked; the actions' legality
        by :meth:`replay`.

        :raises IllegalAction: ``bad_record`` (wrong shape) or the code of the first bad part.
        """
        setups, actions, settings = record_parts(data, cls.FORMAT, settings_required=True)
        rules, _, settings = cls.read_settings(settings)
        parsed = record_setups(setups, Side, lambda side, raw: check_setup(rules, raw))
        if not all(isinstance(a, str) for a in actions):
            raise IllegalAction("bad_record", "a record's actions are notation strings")
        return cls(parsed, [cls.parse_action(a) for a in actions], settings)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read JSON text written by :meth:`to_json`. :raises IllegalAction: ``bad_record`` for bad JSON."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:
            raise IllegalAction("bad_record", f"a record must be JSON: {e}") from None
        return cls.from_dict(data)

    def start(self) -> Game:
        """A new :class:`Game` from the record's setups and settings (:meth:`replay`, :meth:`states`)."""
        return self.game_class()(self.setups, self.settings)

    @classmethod
    def game_class(cls) -> type[Game]:
        """The hook a variant's record overrides: the game it starts (:class:`Game`)."""
        return Game


class Game(RecordedGame):
    """A game in progress: ``state`` (the truth), ``record`` and ``log`` (every event).

    ``setups``: side (a :class:`~.state.Side` or its label) → a complete setup; ``settings``: see
    :func:`settings_of`. The first shooter is drawn from the seed (A4, D2).

    :raises IllegalAction: ``invalid_setup`` (an :class:`~.setup.InvalidSetup` listing every problem),
        ``bad_options``, ``bad_settings``.
    """

    #: The record kept (a variant's game sets its own; its hooks read the settings and parse the actions).
    record_class: type[GameRecord] = GameRecord

    def __init__(self, setups: Mapping[Side | str, Placements], settings: Mapping[str, Any] | None = None) -> None:
        rules, seed, settings = self.record_class.read_settings(settings)
        by_side = {Side.parse(s): setup for s, setup in setups.items()}
        if set(by_side) != set(Side):
            raise IllegalAction("invalid_setup", "a game needs a setup for south and for north")
        normal = {s: check_setup(rules, by_side[s]) for s in Side}
        self.state = self.new_state(rules, normal, seed, settings)
        self.record = self.record_class(normal, [], settings)
        self.log: list[Event] = []

    @staticmethod
    def new_state(rules: Rules, setups: Mapping[Side, Mapping[Cell, str]], seed: int, settings: Mapping) -> GameState:
        """The hook a variant's game overrides: the opening state from the checked setups (the first shooter
        drawn from the seed, A4, D2)."""
        return GameState.from_setups(rules, setups[Side.SOUTH], setups[Side.NORTH], first_shooter(seed))

    @classmethod
    def new_random(cls, rng: random.Random, settings: Mapping[str, Any] | None = None, style: str = "plain") -> Game:
        """A game from two auto-arranged setups drawn from ``rng`` (South's first); ``settings`` default to
        classic with a seed drawn from ``rng``."""
        settings = dict(settings or {})
        settings.setdefault("seed", rng.getrandbits(64))
        rules = cls.record_class.read_settings(settings)[0]
        south, north = auto_arrange(rules, rng, style=style), auto_arrange(rules, rng, style=style)
        return cls({Side.SOUTH: south, Side.NORTH: north}, settings)

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.state.rules

    def legal_actions(self) -> list[Action]:
        """The side to act's legal shots (:meth:`GameState.legal_actions`)."""
        return self.state.legal_actions()

    def apply(self, action: Action | str, by: Side | None = None) -> list[Event]:
        """Apply an action (or its notation), ``by`` the side that sent it when known, and record it.

        :raises IllegalAction: for illegal input; the game is unchanged.
        """
        if isinstance(action, str):
            action = self.record_class.parse_action(action)
        events = self.state.apply(action, by)
        self.record.actions.append(action)
        self.log.extend(events)
        return events

    def view(self, audience: Side | str, *, since: int | None = None) -> PlayerView:
        """The view for ``audience`` (:func:`~.view.view`)."""
        return view(self.state, audience, since=since)
