"""The one exception the engine raises for bad input."""

from __future__ import annotations

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """Illegal input of any kind: an illegal action, a malformed notation, an invalid setup.

    ``code`` is stable (the server maps it to its error reply); ``reason`` is for a person.
    The state an illegal action was tried on is left untouched.

    >>> e = IllegalAction("not_your_unit", "e4 holds no unit of yours")
    >>> e.code, str(e)
    ('not_your_unit', 'e4 holds no unit of yours')
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.reason!r})"
