"""The service's error: a stable ``code``, a ``message`` for a person (in the language of the request, Russian by
default: admiral.i18n), an optional ``detail``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiral.i18n import N_, _

__all__ = ["ENGINE_MESSAGES", "ServiceError", "engine_message"]


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
