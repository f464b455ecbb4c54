"""Chess clocks for a game (rules §13), monotonic-safe.

In memory a running clock is measured with :func:`time.monotonic`; what is stored is the remaining
time (ms) and the wall time (epoch ms) the running clock last started or was checkpointed. After a
restart the running clock starts again from "now": time the server was down is charged to nobody.

>>> c = GameClock({"south": 1000, "north": 1000})
>>> c.start("south", mono=10.0, wall_ms=0)
>>> c.left("south", mono=10.25)
750
>>> c.switch("north", mono=10.5, wall_ms=500, increment_to="south", increment_ms=100)
>>> c.left("south", mono=99.0), c.running
(600, 'north')
"""

from __future__ import annotations

__all__ = ["GameClock"]


class GameClock:
    """Remaining milliseconds per side and which one runs. ``remaining`` is as of ``started_mono``."""

    def __init__(self, remaining: dict[str, int], running: str | None = None) -> None:
        self.remaining = dict(remaining)
        self.running: str | None = None
        self.started_mono = 0.0
        self.started_wall_ms = 0
        if running is not None:
            self.running = running

    def copy(self) -> GameClock:
        """An independent copy (to stage a change on: :class:`~admiral.service.session.play.Staged`).

        >>> c = GameClock({"south": 1000, "north": 1000}, "south")
        >>> d = c.copy(); d.remaining["south"] = 5
        >>> c.remaining["south"], d.running
        (1000, 'south')
        """
        twin = GameClock(self.remaining, self.running)
        twin.started_mono, twin.started_wall_ms = self.started_mono, self.started_wall_ms
        return twin

    def left(self, side: str, mono: float) -> int:
        """Milliseconds ``side`` has left at monotonic time ``mono`` (may be negative once flagged)."""
        left = self.remaining[side]
        if side == self.running:
            left -= int((mono - self.started_mono) * 1000)
        return left

    def start(self, side: str | None, mono: float, wall_ms: int) -> None:
        """Start ``side``'s clock now (``None``: stop every clock) without charging anyone."""
        self.running = side
        self.started_mono = mono
        self.started_wall_ms = wall_ms

    def charge(self, mono: float, wall_ms: int) -> None:
        """Fold the running clock's elapsed time into ``remaining`` (a checkpoint); it keeps running."""
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running, mono)
        self.started_mono = mono
        self.started_wall_ms = wall_ms

    def switch(
        self, side: str | None, mono: float, wall_ms: int, *, increment_to: str | None = None, increment_ms: int = 0
    ) -> None:
        """Charge the running clock, add ``increment_ms`` to ``increment_to``, then run ``side`` (``None``: stop)."""
        self.charge(mono, wall_ms)
        if increment_to is not None and increment_ms:
            self.remaining[increment_to] += increment_ms
        self.running = side

    def credit(self, side: str, ms: int) -> None:
        """Give ``side`` back ``ms`` it was charged for nothing it did (the server kept it waiting).

        >>> c = GameClock({"south": 1000, "north": 1000})
        >>> c.start("north", mono=0.0, wall_ms=0)
        >>> c.credit("north", 400)
        >>> c.left("north", mono=1.0)
        400
        """
        self.remaining[side] += ms

    def seconds_to_flag(self, mono: float) -> float | None:
        """Seconds until the running clock reaches zero (``0`` if it has), ``None`` if none runs."""
        if self.running is None:
            return None
        return max(0.0, self.left(self.running, mono) / 1000)
