"""Presence: which seats have a socket open (here or on another instance), and since when one is gone."""

from __future__ import annotations

import asyncio

from .base import SessionBase
from .live import (
    LiveGame,
)


class PresenceMixin(SessionBase):
    """Which seats have a socket open, and since when one is gone (a part of
    :class:`~admiral.service.session.GameService`)."""

    def connect(self, g: LiveGame, side: str | None) -> None:
        """A socket of ``side`` (``None``: spectator) opened. Counted at once; telling the other instances and
        the opponent runs in a task of its own (:meth:`_announce`), so it cannot be left halfway."""
        if side is None:
            g.spectators += 1
            return
        seat = g.seats[side]
        seat.connections += 1
        if seat.connections == 1:
            self._spawn(self._announce(g, side))

    def disconnect(self, g: LiveGame, side: str | None) -> None:
        """A socket of ``side`` closed; when its last one closes the claim grace starts. Synchronous, so a socket
        handler's ``finally`` always completes it, even while its task is being cancelled (issue 16: a handler
        that never got here left its player "present" for good)."""
        if side is None:
            g.spectators = max(0, g.spectators - 1)
            return
        seat = g.seats[side]
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0:
            seat.gone_since = self.now.mono()
            self._spawn(self._announce(g, side))
            if g.status == "play":  # let the opponent's page learn when a claim becomes possible
                loop = asyncio.get_running_loop()
                loop.call_later(self.options.claim_grace_ms / 1000 + 0.05, lambda: self._spawn(self._publish(g)))

    async def _announce(self, g: LiveGame, side: str) -> None:
        """Write whether ``side`` has a socket here now (instances sharing the games) and publish the change.
        One write at a time per seat, each of the state at that moment: a quick open-then-close can never
        leave a stale "present" mark behind (two writes on two Redis connections could arrive out of order)."""
        seat = g.seats.get(side)
        if seat is None:
            return
        async with seat.presence_lock:
            await self.bus.mark_present(g.id, side, seat.connections > 0)
        await self._publish(g)

    def _disconnected_ms(self, g: LiveGame, side: str, mono: float) -> int:
        seat = g.seats[side]
        if seat.browser_hash is None or seat.connected:
            return 0
        return int((mono - seat.gone_since) * 1000)
