"""The service's error: a stable ``code``, a ``message`` for a person (in the language of the request, Russian by
default: admiral.i18n), an optional ``detail``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiral.i18n import N_, _

__all__ = ["ENGINE_MESSAGES", "OPTION_MESSAGES", "ServiceError", "engine_message", "option_refusal"]


class ServiceError(Exception):
    """A request the service refuses. ``code`` is stable (``not_your_turn``, ``stale_ply``,
    ``illegal_action``, ``not_a_player``, ``game_over``, ``not_found`` …); ``message`` is for a person, already
    translated (``_("…")`` where it is raised);
    ``detail`` is JSON-ready (e.g. the engine's code and reason)."""

    def __init__(self, code: str, message: str, detail: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message of the WebSocket protocol."""
        return {"type": "error", "code": self.code, "message": self.message, "detail": self.detail}


#: Text for the codes every game's rules share (a game adds its own: :attr:`GameInfo.messages`).
ENGINE_MESSAGES = {
    "game_over": N_("Партия окончена: ходы больше не принимаются."),
    "not_your_turn": N_("Сейчас не ваш ход."),
    "bad_notation": N_("Не удалось прочитать ход."),
    "bad_cell": N_("Нет такой клетки."),
    "bad_side": N_("Нет такой стороны."),
    "bad_action": N_("Такого действия нет."),
    "invalid_setup": N_("Расстановка неверна."),
}


def engine_message(code: str, messages: Mapping[str, str] | None = None) -> str:
    """The message for a rules code in the current language: the game's own (``messages``, its
    :attr:`~admiral.games.GameInfo.messages`), else the house's, else a generic one."""
    text = (messages or {}).get(code) or ENGINE_MESSAGES.get(code) or N_("Недопустимый ход.")
    return _(text)


#: The house's words for why room options are refused (``bad_options``' ``detail["why"]``,
#: :data:`admiral.games.common.OPTION_REFUSALS`); a game may say it its own way in :attr:`GameInfo.messages` under
#: ``"bad_options.<why>"``. ``%(option)s``: the option's label; ``%(choices)s``: its choices' labels; ``%(board)s``:
#: the board's label; ``%(low)s``, ``%(high)s``: the range; ``%(rules)s``: the rule sets it needs.
OPTION_MESSAGES = {
    "unknown": N_("у этой игры нет настройки «%(option)s»."),
    "choice": N_("«%(option)s» — одно из: %(choices)s."),
    "range": N_("«%(option)s» на поле %(board)s — от %(low)s до %(high)s."),
    "not_applicable": N_("«%(option)s» бывает только в правилах %(rules)s."),
}


def option_refusal(info: Any, detail: Mapping[str, Any] | None) -> str | None:
    """Why the rules refused room options, in the current language, from the refusal's ``detail`` (data the rules
    gave: ``{"why", "option", …}``) and the game's :class:`~admiral.games.GameInfo` (``info``: its option labels,
    its ``messages``); ``None`` when the detail says nothing the house can word (the caller shows the rules' own
    English reason then).

    >>> from admiral.games import GAMES
    >>> option_refusal(GAMES["battleship_ext"].info, {"why": "range", "option": "mines", "board": "classic",
    ...                                                "low": 0, "high": 1, "value": 3})
    '«Мины» на поле 10×10 «Классика» — от 0 до 1.'
    """
    detail = detail or {}
    why = detail.get("why")
    template = (getattr(info, "messages", None) or {}).get(f"bad_options.{why}") or OPTION_MESSAGES.get(why)
    if not isinstance(why, str) or template is None:
        return None
    options = {o.name: o for o in getattr(info, "options", ())}
    name = detail.get("option")
    option = options.get(name) if isinstance(name, str) else None

    def choice(opt: Any, value: Any) -> str:
        label = next((lab for v, lab in opt.choices if type(v) is type(value) and v == value), None) if opt else None
        return _(label) if label is not None else str(value)[:32]

    def count(key: str) -> str:
        value = detail.get(key)
        return str(value) if type(value) is int else "?"

    rules = options.get("rules")
    params = {
        "option": _(option.label) if option is not None else str(name)[:32],
        "choices": ", ".join(_(lab) for _v, lab in option.choices) if option is not None else "",
        "board": choice(options.get("board"), detail.get("board")),
        "low": count("low"),
        "high": count("high"),
        "rules": ", ".join(f"«{choice(rules, r)}»" for r in detail.get("rules") or () if isinstance(r, str)),
    }
    return _(template, **params)
