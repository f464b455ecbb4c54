"""Setups, the game record and a playable game (NAVAL_GAME.md §2, §7.5; DESIGN "game record").

The start is fixed (§2): a setup is the side's fleet as ``{point: code}``, the code a ship's kind and facing
(``"Cn"``: a cruiser facing ``n``), and the only valid one is :func:`start_setup`. A record is settings
(``{"options": {}, "seed": int}``, and for a lesson or a test ``"position"`` + ``"to_move"``: a position text of
:meth:`~.state.GameState.from_text`) + both setups + the actions; replaying it rolls the same dice from the same
seed and so reproduces every state.

>>> g = Game.new({"options": {}, "seed": 7})
>>> events = g.apply("d2-d3")
>>> again = GameRecord.from_json(g.record.to_json()).replay()
>>> again.state == g.state, g.record.to_dict()["setups"]["south"]["e1"]
(True, 'Bn')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...common import IllegalAction, InvalidSetup, Record, RecordedGame, SetupProblem, record_parts, record_setups
from .board import Point, name, parse_point
from .fleet import START, START_FACING
from .state import Action, Event, GameState, MineLaid, MineLifted, Moved, Order, Side, Strike, Turned
from .view import PlayerView, view

__all__ = [
    "FORMAT", "Game", "GameRecord", "check_setup", "settings_of", "setup_of", "setup_problems", "start_setup",
]  # fmt: skip

#: The events an order makes (one at least), each naming the side that gave it.
ORDER_EVENTS = (Moved, Turned, Strike, MineLaid, MineLifted)

#: The record's format name, written into every record.
FORMAT = "naval-record/1"


def start_setup(side: Side | str) -> dict[Point, str]:
    """``side``'s fleet at the start (§2): point → kind code + facing letter, bows toward the enemy.

    >>> {name(p): c for p, c in start_setup("north").items() if c[0] == "B"}
    {'e13': 'Bs'}
    """
    side = Side.parse(side)
    return {p: f"{k.code}{START_FACING[side].letter}" for p, k in sorted(START[side].items())}


def setup_of(state: GameState, side: Side) -> dict[Point, str]:
    """``side``'s fleet in ``state`` as a setup (point → code + facing)."""
    return {p: f"{s.kind.code}{s.facing.letter}" for p, s in sorted(state.ships.items()) if s.side is side}


def setup_problems(side: Side | str, raw: Mapping[Any, Any], *, complete: bool = True) -> list[SetupProblem]:
    """Every way ``raw`` (point or point name → code) differs from ``side``'s start (§2): ``bad_point`` (not a
    point of the map), ``wrong_ship`` (another ship or facing than the start's on a start point), ``not_a_start``
    (a ship off the start points) and, when ``complete``, ``missing`` (a start point left empty). Empty when it is
    the start."""
    side = Side.parse(side)
    want = start_setup(side)
    problems: list[SetupProblem] = []
    seen: set[Point] = set()
    for key, code in raw.items():
        try:
            p = key if isinstance(key, int) else parse_point(key)
        except IllegalAction:
            problems.append(SetupProblem("bad_point", f"{key!r} is not a point of the map", str(key), str(code)))
            continue
        seen.add(p)
        text = str(code).strip()
        if p not in want:
            problems.append(SetupProblem("not_a_start", f"{name(p)} is not a start point (§2)", name(p), text))
        elif text != want[p]:
            problems.append(
                SetupProblem("wrong_ship", f"{name(p)} holds {want[p]} at the start (§2), not {text}", name(p), text)
            )
    if complete:
        for p in want:
            if p not in seen:
                problems.append(SetupProblem("missing", f"{name(p)} needs {want[p]} (§2)", name(p), want[p]))
    return problems


def check_setup(side: Side | str, raw: Mapping[Any, Any]) -> dict[Point, str]:
    """``raw`` as a checked setup (points, canonical codes). :raises InvalidSetup: (``invalid_setup``) listing
    :func:`setup_problems`."""
    problems = setup_problems(side, raw)
    if problems:
        raise InvalidSetup(problems)
    return start_setup(side)


def settings_of(settings: Mapping[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """The seed and the normalised settings of a game: ``{"options": {}, "seed": int}`` (the game has no room
    options), plus ``"position"`` (text) and ``"to_move"`` (``"south"``/``"north"``) for a game from a position.

    :raises IllegalAction: ``bad_options`` for any room option; ``bad_settings`` for a missing or non-``int``
        seed (the die needs it, §7.5) or a malformed position.
    """
    settings = dict(settings or {})
    options = settings.get("options", {})
    if not isinstance(options, Mapping) or options:
        raise IllegalAction("bad_options", f"«Военно-морская игра» has no room options, not {options!r}")
    seed = settings.get("seed")
    if type(seed) is not int:
        raise IllegalAction("bad_settings", f"settings need an int 'seed' for the die (§7.5), not {seed!r}")
    settings["options"] = {}
    if "position" in settings:
        if not isinstance(settings["position"], str):
            raise IllegalAction("bad_settings", "a 'position' is a position text")
        settings["to_move"] = Side.parse(settings.get("to_move", "south")).label
    return seed, settings


def _opening(settings: Mapping[str, Any], seed: int) -> GameState:
    if "position" in settings:
        try:
            return GameState.from_text(settings["position"], settings["to_move"], seed)
        except IllegalAction as e:
            raise IllegalAction("bad_settings", f"bad position: {e.reason}") from None
    return GameState.start(seed)


class GameRecord(Record):
    """A whole game as data: ``settings`` (:func:`settings_of`), ``setups`` (side → ``{point: code}``) and the
    ``actions`` applied, in order."""

    FORMAT = FORMAT

    @staticmethod
    def cell_text(cell: Point) -> str:
        """A point's name."""
        return name(cell)

    @classmethod
    def from_dict(cls, data: Mapping) -> GameRecord:
        """Read the form :meth:`to_dict` writes; the actions' legality is checked by :meth:`replay`.

        :raises IllegalAction: ``bad_record`` (wrong shape) or the code of the first bad part.
        """
        setups, actions, settings = record_parts(data, cls.FORMAT, settings_required=True)
        seed, settings = settings_of(settings)
        opening = _opening(settings, seed)
        parsed = record_setups(setups, Side, lambda side, raw: _setup_for(opening, settings, side, raw))
        if not all(isinstance(a, str) for a in actions):
            raise IllegalAction("bad_record", "a record's actions are notation strings")
        return cls(parsed, [Action.parse(a) for a in actions], settings)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read JSON text written by :meth:`to_json`. :raises IllegalAction: ``bad_record`` for bad JSON."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:
            raise IllegalAction("bad_record", f"a record must be JSON: {e}") from None
        return cls.from_dict(data)

    def start(self) -> Game:
        """A new :class:`Game` from the record's setups and settings."""
        return Game(self.setups, self.settings)


def _setup_for(opening: GameState, settings: Mapping[str, Any], side: Side, raw: Mapping) -> dict[Point, str]:
    """``side``'s setup checked: the start (§2), or for a game from a position that position's fleet."""
    if "position" not in settings:
        return check_setup(side, raw)
    want = setup_of(opening, side)
    try:
        got = {k if isinstance(k, int) else parse_point(k): str(v).strip() for k, v in raw.items()}
    except IllegalAction:
        got = None
    if got != want:
        raise IllegalAction("invalid_setup", f"{side.label}'s setup is not the fleet of the position")
    return want


class Game(RecordedGame):
    """A game in progress: ``state`` (the truth), ``record`` and ``log`` (every event).

    ``setups``: side (a :class:`~.state.Side` or its label) → its setup (the start, §2; for a game from a
    position, that position's fleet); ``settings``: :func:`settings_of`.

    :raises IllegalAction: ``invalid_setup`` (an :class:`~admiral.games.common.InvalidSetup` listing every
        problem), ``bad_options``, ``bad_settings``.
    """

    def __init__(self, setups: Mapping[Side | str, Mapping[Any, Any]], settings: Mapping[str, Any] | None) -> None:
        seed, settings = settings_of(settings)
        opening = _opening(settings, seed)
        by_side = {Side.parse(s): setup for s, setup in setups.items()}
        if set(by_side) != set(Side):
            raise IllegalAction("invalid_setup", "a game needs a setup for south and for north")
        normal = {s: _setup_for(opening, settings, s, by_side[s]) for s in Side}
        self.state = opening
        self.record = GameRecord(normal, [], settings)
        self.log: list[Event] = []

    @classmethod
    def new(cls, settings: Mapping[str, Any]) -> Game:
        """A game from the start (§2) with ``settings`` (:func:`settings_of`)."""
        return cls({side: start_setup(side) for side in Side}, settings)

    @classmethod
    def from_position(cls, position: str, to_move: Side | str, seed: int) -> Game:
        """A game from a position text (:meth:`~.state.GameState.from_text`; lessons, tests), replayable from its
        record like any other."""
        settings = {"options": {}, "seed": seed, "position": position, "to_move": Side.parse(to_move).label}
        opening = _opening(settings_of(settings)[1], seed)
        return cls({side: setup_of(opening, side) for side in Side}, settings)

    def legal_actions(self) -> list[Order]:
        """The side to act's legal orders (:meth:`GameState.legal_actions`)."""
        return self.state.legal_actions()

    def apply(self, action: Action | str, by: Side | None = None) -> list[Event]:
        """Apply an action (or its notation), ``by`` the side that sent it when known, and record it.

        :raises IllegalAction: for illegal input; the game is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        events = self.state.apply(action, by)
        self.record.actions.append(action)
        self.log.extend(events)
        return events

    def view(self, audience: Side | str, *, since: int | None = None) -> PlayerView:
        """The view for ``audience`` (:func:`~.view.view`), with the orders given so far (:meth:`history`)."""
        return view(self.state, audience, since=since, history=self.history())

    def history(self) -> tuple[tuple[int, Side, str, str | None], ...]:
        """Every order given so far, in order: ``(ply, side, notation, struck)`` (public, §5: an open board) —
        ``struck`` the side a strike landed on (``"bow"``/``"broadside"``, §4), else ``None``; end actions left out.
        The side is read from the events the order made (each makes at least one that names it)."""
        sides = {e.ply: e.side for e in self.log if isinstance(e, ORDER_EVENTS)}
        struck = {e.ply: e.struck.value for e in self.log if isinstance(e, Strike)}
        actions = enumerate(self.record.actions)
        return tuple(
            (ply, sides[ply], str(a), struck.get(ply)) for ply, a in actions if isinstance(a, Order) and ply in sides
        )
