"""The one exception the Battleship rules raise for bad input."""

from __future__ import annotations

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """Illegal input of any kind: a bad cell or notation, a refused shot, an invalid setup or options.

    ``code`` is stable (``bad_cell``, ``bad_notation``, ``already_shot``, ``not_your_turn``, ``game_over``,
    ``invalid_setup``, ``bad_options``, ``bad_settings``, ``bad_record``, ``bad_audience``, ``game_not_over``,
    ``no_arrangement``); ``reason`` is an English sentence for a person. A state an illegal action was tried on
    is left untouched.

    >>> e = IllegalAction("already_shot", "b5 was shot already")
    >>> e.code, str(e)
    ('already_shot', 'b5 was shot already')
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.reason!r})"
