"""Event fan-out between the game service and the sockets: a small injectable interface.

:class:`EventBus` is what the service and the web layer use; :class:`InProcessBus` is the default.
A Redis pub/sub implementation (a later issue) fits the same interface so several app instances share
one game.

>>> bus = InProcessBus()
>>> sub = bus.subscribe("game:x")
>>> bus.deliver("game:x", {"version": 3})
>>> sub.queue.get_nowait()
{'version': 3}
>>> sub.close()
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

__all__ = ["EventBus", "InProcessBus", "Subscription"]


class Subscription:
    """Messages of one channel for one subscriber, in order. ``close()`` stops delivery.

    The queue is bounded (``maxsize`` messages); when a slow subscriber falls behind, the oldest
    message is dropped: game messages say "changed, version N", so the newest one suffices.
    """

    def __init__(
        self, bus: InProcessBus, channel: str, maxsize: int = 64, on_close: Callable[[], None] | None = None
    ) -> None:
        self.channel = channel
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize)
        self._bus = bus
        self._on_close = on_close

    def put(self, message: dict[str, Any]) -> None:
        """Deliver ``message`` (drops the oldest one if the queue is full)."""
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(message)

    async def get(self) -> dict[str, Any]:
        """The next message (waits for one)."""
        return await self.queue.get()

    def close(self) -> None:
        """Unsubscribe."""
        self._bus._unsubscribe(self)
        if self._on_close is not None:
            self._on_close()


class EventBus(ABC):
    """Publish/subscribe on named channels (``game:{id}``). Messages are JSON-ready dicts."""

    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every current subscriber of ``channel``."""

    @abstractmethod
    def subscribe(self, channel: str) -> Subscription:
        """Start receiving the messages of ``channel``."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (connections of a networked bus)."""

    @property
    def shared(self) -> bool:
        """Whether other instances share the games (a networked bus): then each mutation of a game takes
        :meth:`lock` and re-reads the game if another instance changed it."""
        return False

    async def mark_present(self, game_id: str, side: str, present: bool) -> None:  # noqa: B027 - optional hook
        """Record whether this instance holds an open socket of ``side`` in ``game_id`` (shared buses only)."""

    async def heartbeat(self, marks: list[tuple[str, str]]) -> None:
        """Renew the presence marks ``(game_id, side)`` of this instance's open sockets (by default one
        :meth:`mark_present` each; a networked bus sends them together)."""
        for game_id, side in marks:
            await self.mark_present(game_id, side, True)

    async def present_elsewhere(self, game_id: str) -> dict[str, bool]:
        """Sides of ``game_id`` with an open socket on another instance (shared buses only)."""
        return {}

    def lock(self, name: str) -> contextlib.AbstractAsyncContextManager[Any]:
        """A lock on ``name`` across every instance sharing this bus (in one process: no lock needed, the
        game's own asyncio lock serialises)."""
        return contextlib.nullcontext()


class InProcessBus(EventBus):
    """The embedded bus: subscribers are queues in this process."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver to every subscriber of ``channel`` now (never blocks)."""
        self.deliver(channel, message)

    def deliver(self, channel: str, message: dict[str, Any]) -> None:
        """The synchronous core of :meth:`publish`."""
        for sub in tuple(self._subs.get(channel, ())):
            sub.put(message)

    def subscribe(self, channel: str, on_close: Callable[[], None] | None = None) -> Subscription:
        """A new :class:`Subscription` to ``channel`` (``on_close`` runs when it is closed)."""
        sub = Subscription(self, channel, on_close=on_close)
        self._subs.setdefault(channel, set()).add(sub)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.channel]
