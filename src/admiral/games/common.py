"""What the rules of every game of the house share (standard library only, like the rules themselves): the
exception for bad input, a setup's problems, a result, a game with its record, and the fair-chance generator that
every game drawing at random uses (:func:`draw` from a committed seed). Each game's rules import these and add
their own (the way python-chess's variants extend one board); the session never imports them.

>>> e = IllegalAction("already_shot", "b5 was shot already")
>>> e.code, str(e), e
('already_shot', 'b5 was shot already', IllegalAction('already_shot', 'b5 was shot already'))
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

__all__ = [
    "OPTION_REFUSALS", "IllegalAction", "InvalidSetup", "RecordedGame", "RecordedRuleset", "Result", "SetupProblem",
    "commitment", "draw", "record_parts", "record_setups", "Record", "seed_bytes",
]  # fmt: skip

#: Why room options are refused (``bad_options``' ``detail["why"]``): an option the game does not have
#: (``option``), a value it does not take (``option``, ``value``), a count outside its range on a board
#: (``option``, ``value``, ``board``, ``low``, ``high``), an option that needs other rules (``option``, ``rules``).
OPTION_REFUSALS = ("unknown", "choice", "range", "not_applicable")


class IllegalAction(ValueError):
    """Illegal input of any kind: an illegal action, a malformed notation, an invalid setup or options.

    ``code`` is stable (the server maps it to its error reply; each game lists its own codes); ``reason`` is an
    English sentence for a person; ``detail`` the facts behind it as data, for the house to say them in the
    player's language (``bad_options``: ``{"why", "option", …}``, :data:`OPTION_REFUSALS`). The state an illegal
    action was tried on is left untouched."""

    def __init__(self, code: str, reason: str, detail: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.detail: dict[str, Any] = dict(detail or {})

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.reason!r})"


# -- fair chance ------------------------------------------------------------------------------------------------
# One generator for every game that draws at random (BATTLESHIP.md D13, NAVAL_GAME.md §7.5), so that the browser's
# check (static/js/core/chance.js) holds for all of them. The seed of a game is an ``int`` (``settings["seed"]``);
# its 32 bytes are the big-endian value modulo 2²⁵⁶. Draw ``k`` among ``n`` choices is the first byte below 252 of
# HMAC-SHA256(seed bytes, message) taken modulo ``n``, where the message is ``k`` in ASCII decimal (``b"0"``), then
# ``b"0.1"``, ``b"0.2"``… while no byte is below 252.


def seed_bytes(seed: int) -> bytes:
    """The 32 bytes of an ``int`` seed (big-endian, modulo 2²⁵⁶).

    >>> seed_bytes(1)[-2:], len(seed_bytes(-1))
    (b'\\x00\\x01', 32)
    """
    return (seed % (1 << 256)).to_bytes(32, "big")


def commitment(seed: bytes) -> str:
    """The SHA-256 (hex) of the seed's bytes that both players see from the start.

    >>> len(commitment(seed_bytes(1)))
    64
    """
    return hashlib.sha256(seed).hexdigest()


def draw(seed: bytes, k: int, n: int) -> int:
    """Draw ``k`` among ``n`` choices (0 ≤ result < ``n``) from the seed's bytes, as the comment above says.

    :raises ValueError: for ``n`` outside 1–252.

    >>> draw(seed_bytes(1), 0, 2) in (0, 1)
    True
    """
    if not 1 <= n <= 252:
        raise ValueError("a draw has 1–252 choices")
    counter = 0
    while True:
        message = f"{k}" if counter == 0 else f"{k}.{counter}"
        for byte in hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                return byte % n
        counter += 1


@dataclass(frozen=True, slots=True)
class SetupProblem:
    """One problem of a setup: ``code`` stable (each game lists its own), ``message`` for a person, ``cell`` (the
    wire name of the cell concerned) and ``kind`` (the unit's or ship's code) when there is one.

    >>> SetupProblem("too_few", "2 ships missing").to_dict()
    {'code': 'too_few', 'message': '2 ships missing', 'cell': None, 'kind': None}
    """

    code: str
    message: str
    cell: str | None = None
    kind: str | None = None

    def to_dict(self) -> dict:
        """``{"code", "message", "cell", "kind"}``, JSON-ready."""
        return {"code": self.code, "message": self.message, "cell": self.cell, "kind": self.kind}


class InvalidSetup(IllegalAction):
    """A setup with problems (code ``invalid_setup``); ``problems`` lists every one of them."""

    def __init__(self, problems: list[SetupProblem]) -> None:
        super().__init__("invalid_setup", "; ".join(p.message for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: ``winner`` a side (``None`` for a draw), ``reason`` one of the game's reasons (an enum
    whose values are the wire names)."""

    winner: Any
    reason: Enum

    def to_dict(self) -> dict:
        """``{"winner": "south" | "north" | None, "reason": the reason's value}``."""
        return {"winner": None if self.winner is None else self.winner.label, "reason": self.reason.value}


def record_parts(
    data: Any, fmt: str, *, settings_required: bool = False
) -> tuple[Mapping[str, Any], list[Any], Mapping[str, Any]]:
    """The ``setups``, ``actions`` and ``settings`` of a record in the JSON form of format ``fmt`` (each game's
    ``GameRecord.from_dict`` checks what they hold); without ``settings_required`` a record may omit its settings
    (``{}``).

    :raises IllegalAction: ``bad_record`` for another format or a wrong shape.

    >>> record_parts({"format": "x/1", "setups": {}, "actions": []}, "x/1")
    ({}, [], {})
    """
    if not isinstance(data, Mapping) or data.get("format") != fmt:
        raise IllegalAction("bad_record", f"not a game record: expected format {fmt!r}")
    setups, actions = data.get("setups"), data.get("actions")
    settings = data.get("settings") if settings_required else data.get("settings", {})
    if not isinstance(setups, Mapping) or not isinstance(actions, list) or not isinstance(settings, Mapping):
        raise IllegalAction("bad_record", "a record needs 'settings' (object), 'setups' (object), 'actions' (list)")
    return setups, actions, settings


def record_setups(setups: Mapping[str, Any], sides: Iterable[Any], check: Callable[[Any, Mapping], Any]) -> dict:
    """Each side's setup of a record's ``setups`` (side label → ``{cell: unit}``) as ``check(side, raw)`` returns
    it, keyed by side (a side has a ``label``).

    :raises IllegalAction: ``bad_record`` for a side with no setup object; whatever ``check`` raises.

    >>> class S:
    ...     label = "south"
    >>> list(record_setups({"south": {"a1": "1"}}, [S], lambda side, raw: dict(raw)).values())
    [{'a1': '1'}]
    """
    parsed = {}
    for side in sides:
        raw = setups.get(side.label)
        if not isinstance(raw, Mapping):
            raise IllegalAction("bad_record", f"the record has no setup for {side.label}")
        parsed[side] = check(side, raw)
    return parsed


@dataclass
class Record:
    """A whole game as data, the base of each game's ``GameRecord``: ``setups`` (side → ``{cell: unit}``, a side
    having a ``label`` and a cell a wire name through :meth:`cell_text`), the ``actions`` applied in order (each
    ``str()`` is its notation) and the ``settings`` (JSON-ready). A subclass sets ``FORMAT`` and says how a cell
    and a unit are written (:meth:`cell_text`, :meth:`unit_text`)."""

    FORMAT: ClassVar[str] = ""

    setups: dict[Any, dict[Any, Any]]
    actions: list[Any] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def cell_text(cell: Any) -> str:
        """A cell's wire name."""
        raise NotImplementedError

    @staticmethod
    def unit_text(unit: Any) -> str:
        """A unit's or ship's code in the record."""
        return str(unit)

    def to_dict(self) -> dict:
        """``{"format", "settings", "setups": {"south": {cell: code, …}, "north": …}, "actions": [notation, …]}``,
        each setup in cell order."""
        return {
            "format": self.FORMAT,
            "settings": self.settings,
            "setups": {
                side.label: {self.cell_text(c): self.unit_text(u) for c, u in sorted(self.setups[side].items())}
                for side in self._sides()
            },
            "actions": [str(a) for a in self.actions],
        }

    def start(self) -> Any:
        """A new game (a :class:`RecordedGame`) from the record's setups and settings, before any action."""
        raise NotImplementedError

    def replay(self, upto: int | None = None) -> Any:
        """The game after the first ``upto`` actions (all by default).

        :raises IllegalAction: with the code of the first illegal action, its ply in the reason."""
        game = self.start()
        for ply, action in enumerate(self.actions[:upto]):
            try:
                game.apply(action)
            except IllegalAction as e:
                raise IllegalAction(e.code, f"ply {ply} ({action}): {e.reason}") from None
        return game

    def states(self) -> Iterator[Any]:
        """Every state of the game in turn, from the opening to the last (copies)."""
        game = self.start()
        yield game.state.copy()
        for action in self.actions:
            game.apply(action)
            yield game.state.copy()

    def _sides(self) -> list[Any]:
        """The sides in their enum's order (South first), whatever order the setups were given in."""
        return list(type(next(iter(self.setups)))) if self.setups else []

    def to_json(self) -> str:
        """The record as JSON text (UTF-8 kept, deterministic: the exported file)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


class RecordedGame:
    """A game in progress as each game's rules keep it: ``state`` (the truth, with ``copy()``, ``ply``, ``to_act``
    and ``result``), ``record`` (a dataclass with ``setups``, ``actions``, ``settings``, ``to_dict()`` and
    ``to_json()``) and ``log`` (every event so far). Subclasses build them and apply actions."""

    state: Any
    record: Any
    log: list[Any]

    def copy(self) -> Any:
        """An independent copy (the state copied; the record's and the log's lists too, their immutable items
        shared): apply an action to the copy, keep it if it stands."""
        twin = object.__new__(type(self))
        twin.state = self.state.copy()
        twin.record = dataclasses.replace(
            self.record, actions=list(self.record.actions), settings=dict(self.record.settings)
        )
        twin.log = list(self.log)
        return twin

    @property
    def ply(self) -> int:
        """The game's version: actions applied so far."""
        return self.state.ply

    def fresh(self) -> Any:
        """A new game from the same setups and settings (its opening, to replay the record on)."""
        return self.record.start()


class RecordedRuleset:
    """The part of a :class:`~admiral.games.protocol.Ruleset` that is the same for every game kept as a
    :class:`RecordedGame`: copies, the ply, the side to act, the result and the record."""

    def copy(self, game: RecordedGame) -> Any:
        """:meth:`RecordedGame.copy`."""
        return game.copy()

    def ply(self, game: RecordedGame) -> int:
        """Actions applied so far (the game's version)."""
        return game.ply

    def to_act(self, game: RecordedGame) -> str | None:
        """The side to act (the game's own rule: a defender's declaration, a salvo's shooter); ``None`` once over."""
        side = game.state.to_act
        return None if side is None else side.label

    def result(self, game: RecordedGame) -> dict[str, Any] | None:
        """:meth:`Result.to_dict` of the game's end, ``None`` while it goes on."""
        r = game.state.result
        return None if r is None else r.to_dict()

    def record(self, game: RecordedGame) -> dict[str, Any]:
        """The record's ``to_dict()``: ``{"format", "settings", "setups", "actions"}``."""
        return game.record.to_dict()

    def record_json(self, game: RecordedGame) -> str:
        """The record's ``to_json()``."""
        return game.record.to_json()

    def bot_catch_up(self, bot: Any, game: RecordedGame, side: str) -> int:
        """Show a fresh ``bot`` (with ``observe(view)``) its side's views along the game so far, as it would have
        seen them before each of its turns (a bot whose memory was lost: a restart).

        :returns: the ply the bot has seen up to."""
        g = game.fresh()
        seen = 0
        for action in list(game.record.actions):  # a copy: the game may go on while this runs
            if g.state.to_act is not None and g.state.to_act.label == side:
                bot.observe(g.view(side, since=seen))
                seen = g.ply
            g.apply(action)
        return seen
