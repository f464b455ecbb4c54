"""The service's error: a stable ``code``, a ``message`` for a person (in the language of the request, Russian by
default: admiral.i18n), an optional ``detail``."""

from __future__ import annotations

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


#: Text for the engine's stable codes (``IllegalAction.code``), translated by :func:`engine_message`.
ENGINE_MESSAGES = {
    "game_over": N_("Партия окончена: ходы больше не принимаются."),
    "declaration_pending": N_("Идёт бой: ждём объявления защитника."),
    "no_declaration_pending": N_("Сейчас объявлять нечего."),
    "bad_declaration": N_("Такое объявление невозможно."),
    "no_unit": N_("На этой клетке нет вашего объекта."),
    "not_your_unit": N_("Это не ваш объект."),
    "immobile": N_("Этот объект не двигается."),
    "not_adjacent": N_("Ход — только на соседнюю клетку по горизонтали или вертикали."),
    "occupied": N_("Клетка занята."),
    "tethered": N_("Оружие не может уйти от своего носителя."),
    "cannot_attack": N_("Этот объект не атакует."),
    "bad_target": N_("Эту цель атаковать нельзя."),
    "bad_formation": N_("Такое соединение невозможно."),
    "no_bomb": N_("У вас нет атомной бомбы."),
    "bad_notation": N_("Не удалось прочитать ход."),
    "bad_cell": N_("Нет такой клетки."),
    "bad_side": N_("Нет такой стороны."),
    "bad_action": N_("Такого действия нет."),
    "invalid_setup": N_("Расстановка неверна."),
}


def engine_message(code: str) -> str:
    """The message for an engine code in the current language (a generic one for unknown codes)."""
    return _(ENGINE_MESSAGES.get(code, N_("Недопустимый ход.")))
