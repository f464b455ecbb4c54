"""Lobby helpers: game settings, browser tokens, ids and invite codes (all from :mod:`secrets`).

>>> s = GameSettings.from_form("10+5", setup_minutes=3, side="north")
>>> s.base_ms, s.increment_ms, s.setup_ms, s.side
(600000, 5000, 180000, 'north')
>>> GameSettings.from_form("custom", base_minutes=1, increment_seconds=0).base_ms
60000
>>> GameSettings.from_form("5+3", ai_level=5).ai_level
5
>>> GameSettings.from_form("5+3", rated=True).rated, GameSettings.from_form("5+3", ai_level=2, rated=True).rated
(True, False)
>>> c = GameSettings.from_form("correspondence", days_per_move=3)
>>> c.base_ms, c.increment_ms, c.days_per_move, c.correspondence
(259200000, 0, 3, True)
>>> GameSettings.from_form(game="chess")
Traceback (most recent call last):
...
admiral.service.errors.ServiceError: Такой игры на сайте нет.
>>> len(hash_token("x"))
64
"""

from __future__ import annotations

import copy
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from admiral.games import DEFAULT_GAME, GAMES, GameInfo, RuleError, Ruleset
from admiral.i18n import _

from .errors import ServiceError, option_refusal

__all__ = [
    "AI_LEVELS", "DAYS_PER_MOVE", "DAY_MS", "TIME_CONTROLS", "GameSettings", "checked_options", "hash_token",
    "new_browser_token", "new_game_id", "new_invite_code", "room_labels",
]  # fmt: skip

#: Named time controls: base minutes, increment seconds (rules §13).
TIME_CONTROLS = {"5+3": (5, 3), "10+5": (10, 5), "15+10": (15, 10), "30+0": (30, 0)}
SETUP_MINUTES = (0, 3, 5, 10)
#: Correspondence («По переписке»): the days each move may take (issue 19).
DAYS_PER_MOVE = (1, 3, 7)
#: Milliseconds in a day (the unit of ``days_per_move``).
DAY_MS = 86_400_000
SIDES = ("random", "south", "north")
#: AI levels a game may be played against (rules §12); 0 in :attr:`GameSettings.ai_level`: a friend game.
AI_LEVELS = (1, 2, 3, 4, 5)


def hash_token(token: str) -> str:
    """``sha256(token)`` as hex: what the database stores instead of a browser token or invite code."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_browser_token() -> str:
    """32 random bytes, URL-safe base64 (the ``admiral_browser`` cookie)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    """A game id: 8 URL-safe characters (48 random bits)."""
    return secrets.token_urlsafe(6)


def new_invite_code() -> str:
    """An invite code: 22 URL-safe characters (128 random bits)."""
    return secrets.token_urlsafe(16)


def room_labels(info: GameInfo, options: Mapping[str, Any]) -> list[str]:
    """The room options of a game as the Russian labels (message ids, untranslated: a page's ``_()`` or the
    browser's ``t()`` translates them) of what was chosen: each non-``bool`` option's chosen label, and the label
    of each ``bool`` option not at its default where it applies; ``[]`` without options."""
    parts = []
    for o in info.options:
        value = options.get(o.name, o.default)
        if isinstance(o.default, bool):
            if value != o.default and all(options.get(k, None) in v for k, v in o.applies.items()):
                parts.append(o.label)
        else:
            parts.append(next((label for v, label in o.choices if v == value), str(value)))
    return parts


def checked_options(
    rulesets: Mapping[str, Ruleset], game: str, options: Mapping[str, Any] | None
) -> tuple[Ruleset, dict[str, Any]]:
    """The ruleset of ``game`` among ``rulesets`` and the room ``options`` as it checked them.

    :raises ServiceError: ``unknown_game``; ``bad_options`` (the rules' own reason in ``detail.reason``, English; in
        ``detail.explained`` the same in the request's language when the house can word it: :func:`option_refusal`,
        else ``null``)."""
    rules = rulesets.get(game)
    if rules is None:
        raise ServiceError("unknown_game", _("Такой игры на сайте нет."))
    try:
        return rules, rules.options(options or {})
    except RuleError as e:
        explained = option_refusal(rules.info, getattr(e, "detail", None))
        raise ServiceError(
            "bad_options",
            _("Таких правил партии нет: проверьте выбранные настройки."),
            {"reason": e.reason, "explained": explained},
        ) from None


@dataclass(frozen=True)
class GameSettings:
    """Settings of a game. ``base_ms == 0`` means no time limit; ``setup_ms == 0`` no setup limit.

    ``side`` is what the creator asked for: ``random``, ``south`` or ``north``. ``ai_level``: one of the game's
    levels (1–5) for a game against the AI of that level, 0 for a game with a friend. ``game``: the key of the
    game of the house (:data:`admiral.games.GAMES`); ``options``: its room options as its ruleset validated them.

    ``days_per_move`` (1, 3 or 7; 0: not a correspondence game): time control ``correspondence``
    («По переписке», issue 19). Each move then has that long: ``base_ms`` is ``days_per_move`` days, there is no
    increment, and the clock of the side to move is reset to ``base_ms`` whenever the move passes to it
    (:meth:`admiral.service.session.play.PlayMixin._apply_one`); a move not made in time loses on time.
    """

    base_ms: int = 0
    increment_ms: int = 0
    setup_ms: int = 0
    side: str = "random"
    time_control: str = "none"
    ai_level: int = 0
    game: str = DEFAULT_GAME
    options: dict[str, Any] = field(default_factory=dict)
    rated: bool = False
    days_per_move: int = 0

    @property
    def correspondence(self) -> bool:
        """Whether this is a correspondence game (each move has ``days_per_move`` days)."""
        return self.days_per_move > 0

    @classmethod
    def from_form(
        cls,
        time_control: str = "none",
        *,
        base_minutes: int | None = None,
        increment_seconds: int | None = None,
        setup_minutes: int = 0,
        side: str = "random",
        ai_level: int = 0,
        game: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
        rated: bool = False,
        days_per_move: int | None = None,
    ) -> GameSettings:
        """Settings from the home page form (docs/protocol.md ``POST /games``).

        :raises ServiceError: ``bad_settings`` naming the field out of range, ``unknown_game``, ``bad_options``
            (the game's own reason).
        """
        rules, checked = checked_options(GAMES, game, options)
        if side not in SIDES:
            raise ServiceError("bad_settings", _("Сторона: «random», «south» или «north»."))
        if ai_level != 0 and ai_level not in rules.info.levels:
            if not rules.info.levels:
                raise ServiceError("bad_settings", _("В этой игре пока нет ИИ: сыграйте с другом."))
            raise ServiceError("bad_settings", _("Уровень ИИ: от 1 до 5."))
        if setup_minutes not in SETUP_MINUTES:
            raise ServiceError("bad_settings", _("Время на расстановку: 0, 3, 5 или 10 минут."))
        days = 0
        if time_control == "none":
            base, inc = 0, 0
        elif time_control == "correspondence":
            if days_per_move not in DAYS_PER_MOVE:
                raise ServiceError("bad_settings", _("По переписке: 1, 3 или 7 дней на ход."))
            days = days_per_move
            base, inc = days * DAY_MS // 60_000, 0
        elif time_control in TIME_CONTROLS:
            base, inc = TIME_CONTROLS[time_control]
        elif time_control == "custom":
            if base_minutes is None or not 1 <= base_minutes <= 180:
                raise ServiceError("bad_settings", _("Основное время: от 1 до 180 минут."))
            if increment_seconds is None:
                increment_seconds = 0
            if not 0 <= increment_seconds <= 60:
                raise ServiceError("bad_settings", _("Добавка: от 0 до 60 секунд."))
            base, inc = base_minutes, increment_seconds
        else:
            raise ServiceError("bad_settings", _("Неизвестный контроль времени."))
        return cls(
            base * 60_000,
            inc * 1000,
            setup_minutes * 60_000,
            side,
            time_control,
            ai_level,
            game,
            checked,
            rated=bool(rated) and ai_level == 0,
            days_per_move=days,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameSettings:
        """Read :meth:`to_dict` output (unknown keys ignored; settings stored before the registry are
        «Адмирал»'s)."""
        keys = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in keys})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in ``games.settings`` and sent in snapshots): :func:`dataclasses.asdict`'s,
        without its recursion over every field (2 % of the server's time, once a snapshot: issue 23)."""
        out = {name: getattr(self, name) for name in _SETTINGS_FIELDS}
        out["options"] = copy.deepcopy(self.options) if self.options else {}
        return out


#: :class:`GameSettings`' fields in order (the keys of :meth:`~GameSettings.to_dict`).
_SETTINGS_FIELDS = tuple(f.name for f in fields(GameSettings))
