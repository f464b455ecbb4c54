"""The service's error: a stable ``code``, a Russian ``message`` for a person, an optional ``detail``."""

from __future__ import annotations

from typing import Any

__all__ = ["ENGINE_MESSAGES", "ServiceError", "engine_message"]


class ServiceError(Exception):
    """A request the service refuses. ``code`` is stable (``not_your_turn``, ``stale_ply``,
    ``illegal_action``, ``not_a_player``, ``game_over``, ``not_found`` …); ``message`` is Russian;
    ``detail`` is JSON-ready (e.g. the engine's code and reason)."""

    def __init__(self, code: str, message: str, detail: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message of the WebSocket protocol."""
        return {"type": "error", "code": self.code, "message": self.message, "detail": self.detail}


#: Russian text for the engine's stable codes (``IllegalAction.code``).
ENGINE_MESSAGES = {
    "game_over": "Партия окончена: ходы больше не принимаются.",
    "declaration_pending": "Идёт бой: ждём объявления защитника.",
    "no_declaration_pending": "Сейчас объявлять нечего.",
    "bad_declaration": "Такое объявление невозможно.",
    "no_unit": "На этой клетке нет вашего объекта.",
    "not_your_unit": "Это не ваш объект.",
    "immobile": "Этот объект не двигается.",
    "not_adjacent": "Ход — только на соседнюю клетку по горизонтали или вертикали.",
    "occupied": "Клетка занята.",
    "tethered": "Оружие не может уйти от своего носителя.",
    "cannot_attack": "Этот объект не атакует.",
    "bad_target": "Эту цель атаковать нельзя.",
    "bad_formation": "Такое соединение невозможно.",
    "no_bomb": "У вас нет атомной бомбы.",
    "bad_notation": "Не удалось прочитать ход.",
    "bad_cell": "Нет такой клетки.",
    "bad_side": "Нет такой стороны.",
    "bad_action": "Такого действия нет.",
    "invalid_setup": "Расстановка неверна.",
}


def engine_message(code: str) -> str:
    """The Russian message for an engine code (a generic one for unknown codes)."""
    return ENGINE_MESSAGES.get(code, "Недопустимый ход.")
