"""A game as the session holds it in memory (:class:`LiveGame`, its :class:`Seat` s), the service's tunables
(:class:`ServiceOptions`) and the small helpers every session module shares."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from admiral.games import Ruleset
from admiral.i18n import _
from admiral.store import GameRow
from admiral.store.repo import ACTIVE

from .. import snapshot
from ..clock import GameClock
from ..errors import ServiceError
from ..lobby import GameSettings

__all__ = [
    "BOT_PREFIX", "DELTA_KEYS", "SIDES", "GameLog", "LiveGame", "Seat", "ServiceOptions", "SystemTime", "clock_values",
]  # fmt: skip

log = logging.getLogger("admiral.game")

SIDES = ("south", "north")
#: Columns of the game row a foreign instance takes from an action's delta (the rest does not change in play).
DELTA_KEYS = ("ply", "status", "draw_offer", "clock_south_ms", "clock_north_ms", "clock_running", "clock_started_at")
T = TypeVar("T")
#: Prefix of the pseudo browser hash that marks a seat held by the AI: ``bot:3``.
BOT_PREFIX = "bot:"


def _busy() -> str:
    """The refusal of a change whose lock could not be had (in the request's language)."""
    return _("Сервер занят. Попробуйте ещё раз через секунду.")


def _other(side: str) -> str:
    return "north" if side == "south" else "south"


class SystemTime:
    """The session's time source: monotonic seconds (clocks, timers, presence) and wall time (what is stored).
    Tests of the session tier pass a fake one (``tests/session``) to move time by hand."""

    def mono(self) -> float:
        """Monotonic seconds (:func:`time.monotonic`)."""
        return time.monotonic()

    def wall_ms(self) -> int:
        """Wall time, epoch milliseconds."""
        return int(time.time() * 1000)

    def utc(self) -> datetime:
        """Wall time as an aware UTC datetime (the stored ``created_at``/``finished_at`` columns)."""
        return datetime.fromtimestamp(self.wall_ms() / 1000, UTC)


def clock_values(clock: GameClock | None) -> dict[str, Any]:
    """The stored columns of a game's clock (``clock_south_ms``, ``clock_north_ms``: ms left as of
    ``clock_started_at``, epoch ms; ``clock_running``: the side whose clock runs); none for an untimed game."""
    if clock is None:
        return {}
    return {
        "clock_south_ms": clock.remaining["south"],
        "clock_north_ms": clock.remaining["north"],
        "clock_running": clock.running,
        "clock_started_at": clock.started_wall_ms,
    }


@dataclass
class ServiceOptions:
    """Tunables of the service. ``claim_grace_ms``: disconnection before a claim is allowed (rules §10.1);
    ``sweep_interval_s``: period of flag checks and clock checkpoints; ``secret_key`` seals invite codes;
    ``waiting_ttl_s``: a game whose invite was not accepted within this time is aborted.

    Bots: ``bot_workers`` worker processes think for them (threads of this process with ``bot_processes`` off:
    tests that watch a bot from inside); ``bot_delay_ms`` is the least time between the
    position a bot answers and its answer (so that a player sees their own move land first; the bot's
    clock runs meanwhile); ``bot_think_s`` the thinking budget per level in seconds (further capped at
    1/30 of the bot's remaining clock); ``max_bot_games`` unfinished games against the AI one commander may
    have at once, ``max_bot_games_per_address`` those created from one client address (bots cost the server's
    CPU)."""

    claim_grace_ms: int = 60_000
    sweep_interval_s: float = 2.0
    secret_key: str = "dev"
    waiting_ttl_s: float = 24 * 3600
    bot_workers: int = 2
    bot_processes: bool = True
    bot_delay_ms: int = 500
    bot_think_s: dict[int, float] = field(default_factory=lambda: {1: 0.05, 2: 0.3, 3: 0.5, 4: 1.0, 5: 1.0})
    max_bot_games: int = 3
    max_bot_games_per_address: int = 6
    #: Seconds between two passes of the sweeper over correspondence games for «ваш ход» mails (issue 19).
    turn_mail_interval_s: float = 60.0
    #: Seconds an untimed game in play stays cached with no socket open on it and no change (issue 23: memory per
    #: game); then the sweeper drops it, and the next request or socket reloads it from the database (0: never).
    idle_evict_s: float = 600.0


@dataclass
class Seat:
    """One side of a live game. ``gone_since``: monotonic time its last socket closed (or the game was loaded)."""

    side: str
    browser_hash: str | None
    draft: dict[str, str]
    ready: bool
    auto_declare: bool
    connections: int = 0
    gone_since: float = field(default_factory=time.monotonic)
    #: An open socket of this seat on another instance (instances sharing the games).
    elsewhere: bool = False
    #: The seat's notes on enemy markers as ``(version, {cell: note})``; ``None`` until read from the database.
    notes: tuple[int, dict[str, str]] | None = None
    #: Serialises the writes of this seat's presence mark (:meth:`GameService._announce`).
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The public face of the seat's commander, read once per holder (:meth:`GameService._ensure_profiles`):
    #: ``{"name", "rank"}`` of a registered commander, ``None`` for a guest; ``profile_of`` is the holder it was
    #: read for (a different holder, e.g. a guest who registered, is read again).
    profile: dict[str, Any] | None = None
    profile_of: str | None = None
    #: The identity keys whose chat messages the seat's holder blocks (:mod:`.chat`), read as ``(holder, keys)``;
    #: ``None`` until read or after a block changed on some instance.
    chat_blocks: tuple[str, frozenset[str]] | None = None

    @property
    def connected(self) -> bool:
        """Whether the seat's player has a socket open anywhere (a bot is always there)."""
        return self.connections > 0 or self.elsewhere or self.bot_level is not None

    @property
    def public_profile(self) -> dict[str, Any] | None:
        """The commander's ``{"name", "rank"}`` if read for the seat's present holder (else ``None``, as a guest)."""
        return self.profile if self.profile_of == self.browser_hash else None

    @property
    def bot_level(self) -> int | None:
        """The AI level holding this seat (rules §12), ``None`` for a person or a free seat."""
        return _bot_level(self.browser_hash)


def _forget_task(tasks: set[asyncio.Task]) -> Callable[[asyncio.Task], None]:
    """A done callback: drop the task from ``tasks`` and retrieve its outcome (a change whose requester went away
    has nobody to read its error: it is logged, not left as "exception was never retrieved")."""

    def done(task: asyncio.Task) -> None:
        tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None and not isinstance(exc, ServiceError):
            log.error("a change failed", exc_info=exc)

    return done


def _bot_level(holder: str | None) -> int | None:
    """The AI level of a seat holder (``bot:3`` → 3), ``None`` for a person or a free seat."""
    return int(holder[len(BOT_PREFIX) :]) if holder is not None and holder.startswith(BOT_PREFIX) else None


class GameLog(logging.LoggerAdapter):
    """Log lines about one game, each carrying ``game=<id>``."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        """Prefix the message with the game id and pass it as ``extra["game_id"]`` too."""
        kwargs.setdefault("extra", {})["game_id"] = self.extra["game_id"]
        return f"game={self.extra['game_id']} {msg}", kwargs


class LiveGame:
    """A game cached in memory: its settings, seats, engine handle, clock, timer and lock."""

    def __init__(self, row: GameRow, seats: dict[str, Seat], rules: Ruleset) -> None:
        self.id = row.id
        #: The game's rules (the registry's ruleset of ``row.game``).
        self.rules = rules
        self.status = row.status
        self.settings = GameSettings.from_dict(row.settings)
        self.creator_hash = row.creator_hash
        self.creator_address = row.creator_address
        self.seed = row.seed
        #: What the seats brought when play started (capability ``"start_settings"``), stored with the game.
        self.start_settings: dict[str, Any] | None = row.start_settings
        self.invite_sealed = row.invite_sealed
        self.seats = seats
        self.game: Any = None
        self.clock: GameClock | None = None
        self.setup_deadline_ms: int | None = row.setup_deadline
        self.draw_offer = row.draw_offer
        self.rematch_id = row.rematch_id
        #: The side that offered a rematch after the end and waits for the other's answer (issue 18).
        self.rematch_offer: str | None = row.rematch_offer
        self.result: dict[str, Any] | None = (
            {"winner": row.result_winner, "reason": row.result_reason} if row.result_reason else None
        )
        self.turns = {"south": 0, "north": 0}
        #: This copy's key among the process's encoded views (:func:`admiral.service.snapshot.encoded_view`), and
        #: the count of changes that show the same version otherwise (:meth:`drop_views`).
        self.serial = snapshot.next_serial()
        self.views_epoch = 0
        #: Revisions made by a notes write alone (see :meth:`GameService.shows_current`), the newest few.
        self.notes_bumps: set[int] = set()
        self.finished = row.finished_at is not None
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None
        #: Open spectator sockets (a seat counts its own in ``Seat.connections``).
        self.spectators = 0
        self.log = GameLog(log, {"game_id": row.id})
        #: Bots of this game by side (made on first need; their memory lives here), the ply each has
        #: seen up to, and the task of the bot turn in progress.
        #: What each side's commander got from the finished game (PROGRESSION.md §2–§5): side → changes.
        self.credited: dict[str, dict[str, Any]] = {}
        self.bots: dict[str, Any] = {}
        self.bot_seen: dict[str, int] = {}
        self.bot_task: asyncio.Task | None = None
        self.bot_lock = asyncio.Lock()
        #: Instances sharing the games: when this copy was last checked against the database, and whether
        #: that check found a change (sockets of the game share one check a second).
        self.refreshed_at = 0.0
        self.refreshed_changed = False
        #: When this instance last read where the players' sockets are (instances sharing the games).
        self.presence_at = 0.0
        #: Deltas of the actions committed here and not yet published (instances sharing the games): the
        #: next "changed" event carries them, so other instances apply them without reading the database.
        self.outbox: list[dict[str, Any]] = []
        #: The last chat messages between the seats (:mod:`.chat`), oldest first; ``None`` until read.
        self.chat: list[dict[str, Any]] | None = None
        #: When this instance last checked the stored chat against ``chat`` (monotonic s; ``chat_recheck``), and
        #: how many times such a check found the copy behind (a socket that showed an older one sends it again).
        self.chat_checked_at = 0.0
        self.chat_version = 0
        #: When (the service's monotonic seconds) the game was last asked for (``current``, ``get``), changed here, or
        #: seen by the sweeper with a socket open on it; ``None`` until then (see ``TimerMixin._evictable``).
        self.touched: float | None = None

    @property
    def active(self) -> bool:
        """Not finished: waiting, setup or play."""
        return self.status in ACTIVE

    @property
    def timed(self) -> bool:
        """Whether a timer watches the game: a clock in play, or a setup deadline."""
        return (self.status == "play" and self.clock is not None) or (
            self.status == "setup" and self.setup_deadline_ms is not None
        )

    @property
    def watched(self) -> bool:
        """Whether any socket (a player's or a spectator's) is open on the game."""
        return self.spectators > 0 or any(s.connections for s in self.seats.values())

    def drop_views(self) -> None:
        """Forget the views encoded for this copy: its state changed (a move swapped in, a reload, the start of
        play) or the same version now shows otherwise (an abort reveals a fair-chance seed)."""
        self.views_epoch += 1

    def seat_of(self, browser_hash: str | None) -> str | None:
        """The side held by ``browser_hash``, else ``None``."""
        if browser_hash is None:
            return None
        for side, seat in self.seats.items():
            if seat.browser_hash == browser_hash:
                return side
        return None
