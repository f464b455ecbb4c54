"""The lobby of one instance (issue 19; docs/protocol.md "Lobby"): the open challenges («Вызовы») and the games in
play («Сейчас играют») as its lobby sockets see them, the quick pairing's ticks, and the liveness of challenges.

Nothing that matters is instance-local: a challenge is a listed waiting game in the database; accepting it is the
atomic claim of its seat (:meth:`GameService.accept_challenge`); the pool is the ``lobby_seeks`` table under
``bus.lock``. What each instance keeps in memory is a *copy* of the list, so that a list request never costs a
database round trip: it follows the ``lobby`` channel of the bus (``add``/``remove``, ``accepted``, ``paired``) and
is re-read whole from the database every :data:`REREAD_S` seconds and at start (pub/sub may drop messages).

Deltas are coalesced: changes are gathered and sent to every lobby socket at most every :data:`FLUSH_S` seconds
(less often with thousands of sockets: :meth:`LobbyRoom.flush_period`) as one message, serialised once for all of
them. A socket that falls :attr:`LobbyListener.QUEUE` messages behind
gets the whole list again instead of the backlog.

Liveness: every :data:`HEARTBEAT_S` seconds each instance renews ``games.creator_seen_at`` of the challenges whose
creator has a socket here (a lobby socket, or the challenge's own game page) and ``lobby_seeks.seen_at`` of its
sockets' seeks; any instance aborts the challenges whose creator was not seen for :data:`CREATOR_GONE_MS` (one
conditional ``UPDATE``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from admiral.games import GAMES
from admiral.progression.ranks import rank_for

from .errors import ServiceError
from .lobby import GameSettings, room_labels
from .session import GameService
from .session.live import BOT_PREFIX, _bot_level

__all__ = ["CREATOR_GONE_MS", "LobbyListener", "LobbyRoom", "Rated", "ratings_for"]

log = logging.getLogger("admiral.lobby")
T = TypeVar("T")

#: The bus channel of the lobby's events.
CHANNEL = "lobby"
#: Seconds between two flushes of the coalesced deltas to the sockets, at least.
FLUSH_S = 0.1
#: Delta messages a second an instance sends to its lobby sockets at most, all together: with more sockets than
#: ``SEND_BUDGET * FLUSH_S`` the flushes space out (2,000 sockets: every 0.4 s). A send costs the server ~80 µs of
#: CPU (bench/results/lobby_load.txt): 2,000 sockets every 100 ms would take 1.7 cores for deltas alone.
SEND_BUDGET = 5000
#: Seconds between liveness heartbeats (creators seen, seeks renewed, abandoned challenges aborted).
HEARTBEAT_S = 5.0
#: A challenge whose creator no instance has seen for this long is aborted, ms.
CREATOR_GONE_MS = 20_000
#: Seconds between full re-reads of the open challenges from the database.
REREAD_S = 30.0
#: Seconds between reads of the games in play (sent to the sockets only when they changed).
LIVE_S = 5.0
#: Most games «Сейчас играют» lists.
LIVE_LIMIT = 20
#: Seconds between quick-pairing passes while a socket of this instance is in the pool (windows widen with time).
PAIR_S = 1.0
#: Most open challenges a re-read takes (the oldest first); beyond it, a re-read only adds (3 per commander,
#: creators seen within 20 s: a list this long means thousands of commanders waiting).
LIST_LIMIT = 5000
#: Seconds an id removed from the list is remembered, so that a late ``add`` of it is not believed.
GONE_S = 60.0


@dataclass(frozen=True)
class Rated:
    """A commander's rating in one game as the lobby shows it: ``rating`` (whole points), ``provisional`` (RD over
    110: shown with «?», PROGRESSION.md §4)."""

    rating: int
    provisional: bool


def ratings_for(accounts: Any, keys: Iterable[str], game: str) -> dict[str, Rated]:
    """The ratings of ``keys`` in ``game`` as the lobby shows and pairs them: ``AccountStore.ratings_for`` (one
    query; Glicko-2's start, 1500 with RD 350, for a guest or a commander without a rated game), rounded, with
    «?» while provisional (PROGRESSION.md §4)."""
    got = accounts.ratings_for(list(dict.fromkeys(keys)), game)
    return {key: Rated(round(r.rating), r.provisional) for key, r in got.items()}


class LobbyListener:
    """One lobby socket as the room sees it: its commander's identity ``key``, ``guest`` (not registered), its
    ``tag`` (the opaque mark of its own challenges in the list) and an outbox of ready JSON texts that the web
    layer's writer drains; ``seek``: what it waits for in the pool, if anything."""

    #: Messages an outbox holds; a socket further behind gets the whole list again (``None`` in the queue).
    QUEUE = 64

    def __init__(self, key: str, guest: bool, tag: str, marks: dict[str, str | None] | None = None) -> None:
        self.key, self.guest, self.tag = key, guest, tag
        #: The socket's browser and address as a seat keeps them (``GameService.seat_marks``, PROGRESSION.md §2).
        self.marks = marks or {}
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE)
        self.seek: dict[str, Any] | None = None

    def push(self, text: str | None) -> None:
        """Queue ``text`` (never blocks); when the outbox is full its backlog is replaced by one full resend."""
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
            text = None
        self.queue.put_nowait(text)


class LobbyRoom:
    """The lobby of this instance over the game service ``service`` (see the module docstring). ``secret_key``
    keys the sockets' tags. Call :meth:`start` in the running loop, :meth:`stop` at shutdown."""

    def __init__(self, service: GameService, secret_key: str) -> None:
        self.service = service
        self.store = service.lobby_store
        self.bus = service.bus
        self.accounts = service.progress.store if service.progress is not None else None
        self._secret = secret_key.encode()
        #: Open challenges: id → (public entry, creator's key).
        self.challenges: dict[str, tuple[dict[str, Any], str]] = {}
        self.listeners: set[LobbyListener] = set()
        self.by_key: dict[str, set[LobbyListener]] = {}
        self.live: list[dict[str, Any]] = []
        self._live_sig: bytes = b""
        self._live_at = 0.0  # monotonic time self.live's clocks were true
        self._adds: dict[str, dict[str, Any]] = {}
        self._removes: set[str] = set()
        self._gone: dict[str, float] = {}
        self._reread_now = False
        #: Ids whose entries the next re-read makes again (their creator's identity changed).
        self._stale: set[str] = set()
        self._tasks: list[asyncio.Task] = []
        self._leaving: set[asyncio.Task] = set()
        self._sub: Any = None

    # -- life ---------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe to the lobby's channel, read the list and the games in play, start the ticks."""
        self._sub = self.bus.subscribe(CHANNEL)
        # The channel carries every challenge's add and remove: a deeper queue than a game's (64) rides out a
        # burst; what it still drops, the next re-read brings back.
        self._sub.queue = asyncio.Queue(4096)
        with contextlib.suppress(Exception):
            await self.reread()
        with contextlib.suppress(Exception):
            await self.refresh_live()
        self._tasks = [
            asyncio.create_task(self._consume(), name="admiral-lobby-events"),
            asyncio.create_task(self._tick(), name="admiral-lobby-tick"),
        ]

    async def stop(self) -> None:
        """Stop the ticks and the subscription."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1)
        if self._sub is not None:
            self._sub.close()

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """A blocking store call, as the game service runs its own (its database threads, or inline for SQLite)."""
        return await self.service._db(fn, *args)

    # -- sockets ------------------------------------------------------------------------------------------

    def tag(self, key: str) -> str:
        """The opaque mark of ``key``'s challenges in the list (``by``), 16 hex digits of an HMAC: a socket learns
        its own (``me``) and finds its challenges, nobody learns a key."""
        return hmac.new(self._secret, f"lobby:{key}".encode(), hashlib.sha256).hexdigest()[:16]

    def sockets_of(self, key: str) -> int:
        """How many lobby sockets ``key`` has open on this instance."""
        return len(self.by_key.get(key, ()))

    async def join(self, key: str, guest: bool, marks: dict[str, str | None] | None = None) -> LobbyListener:
        """A new lobby socket of ``key`` (``marks``: its seat marks, ``GameService.seat_marks``): registered for the
        broadcasts, with the commander's current seek (another tab's, maybe on another instance: the pool is
        read); its first message is :meth:`full_text`."""
        listener = LobbyListener(key, guest, self.tag(key), marks)
        mine = self.by_key.get(key)
        if mine:
            listener.seek = next(iter(mine)).seek
        else:
            try:
                listener.seek = await self.service.seek_of(key)
            except Exception:  # the list still comes; the seek shows with the next ``seeking``
                log.warning("reading the seek of a new lobby socket failed", exc_info=True)
        self.listeners.add(listener)
        self.by_key.setdefault(key, set()).add(listener)
        return listener

    def leave(self, listener: LobbyListener) -> None:
        """A lobby socket closed: forgotten; its seek leaves the pool (unless another socket of the same commander
        here waits too). Synchronous, so that it is done even while the socket's task is being cancelled: the
        seek's deletion runs in a task of the room's own."""
        self.listeners.discard(listener)
        mine = self.by_key.get(listener.key)
        if mine is not None:
            mine.discard(listener)
            if not mine:
                del self.by_key[listener.key]
        if listener.seek is not None and not any(o.seek for o in self.by_key.get(listener.key, ())):
            task = asyncio.get_running_loop().create_task(self._leave_pool(listener.key))
            self._leaving.add(task)
            task.add_done_callback(self._leaving.discard)

    async def _leave_pool(self, key: str) -> None:
        try:
            await self.service.leave_pool(key)
            await self.bus.publish(CHANNEL, {"type": "seek", "key": key, "seek": None})
        except Exception:  # the seek is dropped by the pool's staleness check within SEEK_GONE_MS
            log.warning("leaving the pool failed", exc_info=True)

    async def rekeyed(self, old: str, new: str) -> None:
        """The browser of identity ``old`` is now the commander ``new`` (a guest registered: its games moved to
        ``new``; or logged in to an account): every instance moves the sockets of ``old`` to ``new`` (each gets the
        whole list again, with its new ``me``) and re-reads the list, whose entries of ``old``'s challenges now
        show their new creator. Never raises: the re-reads (:data:`REREAD_S`) bring the entries in line anyway."""
        try:
            await self.bus.publish(CHANNEL, {"type": "rekey", "old": old, "new": new})
        except Exception:
            log.warning("announcing the new identity failed", exc_info=True)

    async def left_identity(self, old: str, new: str) -> None:
        """The browser of the guest ``old`` logged in as the commander ``new``: the guest's seek and open
        challenges are withdrawn (nobody in that browser could take their seat any more), and its sockets become
        ``new``'s (:meth:`rekeyed`). Never raises (the creator-gone check aborts what this could not)."""
        try:
            gone = await self.service.leave_lobby_identity(old)
            if gone:
                await self.bus.publish(CHANNEL, {"type": "remove", "ids": gone})
            await self.bus.publish(CHANNEL, {"type": "seek", "key": old, "seek": None})
        except Exception:
            log.warning("withdrawing the challenges of a guest who logged in failed", exc_info=True)
        await self.rekeyed(old, new)

    def _rekey(self, old: str, new: str) -> None:
        """Apply a ``rekey`` event here (see :meth:`rekeyed`)."""
        self.service.rekey(old, new)  # the cached games of this instance (the registering one did it already)
        moved = self.by_key.pop(old, set())
        for listener in moved:
            listener.key, listener.guest, listener.tag = new, False, self.tag(new)
            listener.push(None)  # the whole list again, with the new ``me``
        if moved:
            self.by_key.setdefault(new, set()).update(moved)
        for game_id, (entry, creator) in list(self.challenges.items()):
            if creator == old:  # the new key and mark at once (its sockets keep it alive, a new tab finds it its
                # own), the new player with the re-read
                self.challenges[game_id] = ({**entry, "by": self.tag(new)}, new)
                self._stale.add(game_id)
        self._reread_now = True

    def full_text(self, listener: LobbyListener) -> str:
        """The first message of a socket (and its resend after it fell behind): ``{"type": "lobby", "me", "now",
        "challenges", "live", "seek", "registered"}``."""
        return orjson.dumps({
            "type": "lobby", "me": listener.tag, "now": self.service.now.wall_ms(),
            "challenges": [entry for entry, _creator in self.challenges.values()],
            "live": self._live_now(), "seek": listener.seek, "registered": not listener.guest,
        }).decode()  # fmt: skip

    def _send(self, keys: Iterable[str], message: dict[str, Any]) -> None:
        text = orjson.dumps(message).decode()
        for key in keys:
            for listener in tuple(self.by_key.get(key, ())):
                listener.push(text)

    # -- actions (docs/protocol.md "Lobby socket") -----------------------------------------------------------

    async def handle(self, listener: LobbyListener, msg: Any) -> list[dict[str, Any]]:
        """Carry out one validated message of ``listener``'s socket; the replies for that socket.

        :raises ServiceError: as the service refuses (``challenge_gone``, ``challenge_taken``, ``own_challenge``,
            ``guest_rated``, ``not_yours``, ``bad_settings``, ``unknown_game``, ``unavailable``)."""
        kind = msg.type
        if kind == "ping":
            return [{"type": "pong"}]
        if kind == "accept":
            url, creator, withdrawn = await self.service.accept_challenge(
                msg.id, listener.key, guest=listener.guest, marks=listener.marks
            )
            await self.bus.publish(CHANNEL, {"type": "remove", "ids": [msg.id, *withdrawn]})
            await self.bus.publish(CHANNEL, {"type": "accepted", "id": msg.id, "url": url, "creator": creator})
            await self.bus.publish(CHANNEL, {"type": "entered", "keys": [listener.key, creator], "url": url})
            return [{"type": "go", "url": url}]
        if kind == "cancel":
            await self.service.cancel_challenge(msg.id, listener.key)
            await self.bus.publish(CHANNEL, {"type": "remove", "ids": [msg.id]})
            return [{"type": "cancelled", "id": msg.id}]
        if kind == "pair":
            rating = 1500
            if not listener.guest:
                rating = (await self._db(ratings_for, self.accounts, [listener.key], msg.game))[listener.key].rating
            await self.service.join_pool(
                listener.key, msg.game, msg.time_control, msg.rated, rating, guest=listener.guest, marks=listener.marks
            )
            seek = {"game": msg.game, "time_control": msg.time_control, "rated": msg.rated}
            self._seeking(listener.key, seek)
            await self.bus.publish(CHANNEL, {"type": "seek", "key": listener.key, "seek": seek})
            try:
                await self.pair()
            except Exception:  # the seek stands: the next pass (PAIR_S) tries again
                log.warning("pairing failed", exc_info=True)
            return []
        if kind == "unpair":
            await self.service.leave_pool(listener.key)
            self._seeking(listener.key, None)
            await self.bus.publish(CHANNEL, {"type": "seek", "key": listener.key, "seek": None})
            return []
        raise ServiceError("unknown_type", "?")  # parse_lobby_message lets no other type through

    async def announce(self, game_id: str) -> None:
        """Tell every instance's sockets of the new open challenge ``game_id`` (just made here: its live game is
        cached). Never raises: a failed announcement is made good by the re-reads."""
        g = self.service.games.get(game_id)
        if g is None:
            return
        try:
            entries = await self._entries([(g.id, g.settings, self.service.now.wall_ms(), g.creator_hash)])
        except Exception:  # the challenge exists: every instance's next re-read (REREAD_S) lists it
            log.warning("announcing challenge %s failed", game_id, exc_info=True)
            return
        if entries:
            entry, creator = entries[0]
            await self.bus.publish(CHANNEL, {"type": "add", "entry": entry, "creator": creator})

    def _seeking(self, key: str, seek: dict[str, Any] | None) -> None:
        """``key``'s seek is now ``seek``: its sockets here know it and hear it (``seeking``), unless they knew."""
        mine = self.by_key.get(key, ())
        if all(listener.seek == seek for listener in mine):
            return
        for listener in mine:
            listener.seek = seek
        self._send([key], {"type": "seeking", "seek": seek})

    async def pair(self) -> None:
        """One quick-pairing pass (:meth:`GameService.pair_pool`); each pair made is published (``paired``), and
        the challenges it withdrew (``remove``)."""
        made, withdrawn = await self.service.pair_pool()
        if withdrawn:
            await self.bus.publish(CHANNEL, {"type": "remove", "ids": withdrawn})
        for first, second, game_id in made:
            await self.bus.publish(CHANNEL, {"type": "paired", "keys": [first, second], "url": f"/g/{game_id}"})

    # -- the list -----------------------------------------------------------------------------------------

    async def _entries(self, rows: list[tuple[str, GameSettings, int, str]]) -> list[tuple[dict[str, Any], str]]:
        """Public entries of challenges ``(id, settings, created epoch ms, creator key)``: one profile query, one
        rating query per game."""
        keys = [creator for _id, _s, _at, creator in rows]
        profiles = {} if self.accounts is None or not keys else await self._db(self.accounts.by_keys, keys)
        ratings: dict[str, dict[str, Rated]] = {}
        for game in {s.game for _id, s, _at, _c in rows}:
            registered = [k for _id, s, _at, k in rows if s.game == game and k in profiles]
            ratings[game] = await self._db(ratings_for, self.accounts, registered, game) if registered else {}
        out = []
        for game_id, s, created, creator in rows:
            info = GAMES[s.game].info if s.game in GAMES else None
            if info is None:
                continue
            row = profiles.get(creator)
            player: dict[str, Any] = {"guest": True}
            if row is not None and row.email is not None and row.nickname:
                rank = rank_for(row.points)
                rated = ratings[s.game].get(creator) or Rated(1500, True)
                player = {
                    "name": row.nickname, "rank": {"number": rank.number, "name": rank.name},
                    "rating": rated.rating, "provisional": rated.provisional,
                }  # fmt: skip
            out.append(({
                "id": game_id, "url": f"/g/{game_id}", "game": s.game, "room": room_labels(info, s.options),
                "time_control": s.time_control, "base_ms": s.base_ms, "increment_ms": s.increment_ms,
                "days_per_move": s.days_per_move, "rated": s.rated, "player": player, "by": self.tag(creator),
                "created": created,
            }, creator))  # fmt: skip
        return out

    async def reread(self) -> None:
        """Read the open challenges from the database and bring the copy in line (the differences go out with the
        next flush)."""
        rows = await self._db(self.store.listed, LIST_LIMIT)
        known = {r.id for r in rows}
        stale, self._stale = self._stale, set()
        fresh = [
            (r.id, GameSettings.from_dict(r.settings), int(r.created_at.timestamp() * 1000), r.creator_hash)
            for r in rows
            if r.id not in self.challenges or r.id in stale or self.challenges[r.id][1] != r.creator_hash
        ]
        for entry, creator in await self._entries(fresh):
            if entry["id"] in self.challenges:  # its creator's identity changed (a guest registered): a new entry
                self.challenges.pop(entry["id"])
            self._add(entry, creator, trust=True)
        if len(rows) < LIST_LIMIT:  # the whole list was read: what it lacks is gone
            for game_id in [i for i in self.challenges if i not in known]:
                self._remove(game_id)

    def _add(self, entry: dict[str, Any], creator: str, *, trust: bool = False) -> None:
        game_id = entry["id"]
        if game_id in self.challenges or (not trust and game_id in self._gone):
            return
        self.challenges[game_id] = (entry, creator)
        self._adds[game_id] = entry
        self._removes.discard(game_id)

    def _remove(self, game_id: str) -> None:
        self._gone[game_id] = time.monotonic()
        if self.challenges.pop(game_id, None) is not None:
            self._adds.pop(game_id, None)
            self._removes.add(game_id)

    async def _consume(self) -> None:
        """Apply the lobby channel's events to the copy (and tell the sockets they concern)."""
        while True:
            msg = await self._sub.get()
            try:
                kind = msg.get("type")
                if kind == "add" and isinstance(msg.get("entry"), dict):
                    self._add(msg["entry"], str(msg.get("creator")))
                elif kind == "remove":
                    for game_id in msg.get("ids") or ():
                        self._remove(game_id)
                elif kind == "accepted":
                    self._remove(msg["id"])
                    self._send([msg["creator"]], {"type": "accepted", "id": msg["id"], "url": msg["url"]})
                elif kind == "paired":
                    for key in msg["keys"]:
                        for listener in self.by_key.get(key, ()):
                            listener.seek = None
                    self._send(msg["keys"], {"type": "paired", "url": msg["url"]})
                elif kind == "entered":  # an accepted challenge: both commanders' seeks left the pool
                    for key in msg["keys"]:
                        self._seeking(key, None)
                elif kind == "seek":
                    self._seeking(str(msg["key"]), msg.get("seek"))
                elif kind == "rekey":
                    self._rekey(str(msg["old"]), str(msg["new"]))
                elif msg.get("resync"):  # this instance's subscription (re)started: events may have been lost
                    self._reread_now = True
            except Exception:
                log.exception("lobby event failed: %r", msg)

    def flush_period(self) -> float:
        """Seconds between flushes now: :data:`FLUSH_S`, longer when the sockets would take more than
        :data:`SEND_BUDGET` messages a second."""
        return max(FLUSH_S, len(self.listeners) / SEND_BUDGET)

    def flush(self) -> None:
        """Send the gathered deltas, ``{"type": "challenges", "add": [entries], "remove": [ids]}``, to every socket
        (serialised once)."""
        if not (self._adds or self._removes):
            return
        text = orjson.dumps({"type": "challenges", "add": list(self._adds.values()), "remove": list(self._removes)})
        self._adds, self._removes = {}, set()
        decoded = text.decode()
        for listener in tuple(self.listeners):
            listener.push(decoded)

    # -- «Сейчас играют» ------------------------------------------------------------------------------------

    async def refresh_live(self) -> None:
        """Read the games in play (one query, one profile query) and send them to every socket if they changed
        (who plays, the ply, whose clock runs; the clocks themselves tick in the browsers)."""
        rows = await self._db(self.store.live_games, LIVE_LIMIT)
        humans = [k for r in rows for k in r.holders.values() if k and not k.startswith(BOT_PREFIX)]
        profiles = {} if self.accounts is None or not humans else await self._db(self.accounts.by_keys, humans)
        wall = self.service.now.wall_ms()
        games = []
        for r in rows:
            g = r.game
            settings = GameSettings.from_dict(g.settings or {})
            clock = None
            if g.clock_south_ms is not None and g.clock_north_ms is not None:
                left = {"south": g.clock_south_ms, "north": g.clock_north_ms}
                if g.clock_running in left and g.clock_started_at is not None:
                    left[g.clock_running] = max(0, left[g.clock_running] - (wall - g.clock_started_at))
                clock = {**left, "running": g.clock_running}
            games.append({
                "id": g.id, "url": f"/g/{g.id}", "game": g.game, "time_control": settings.time_control,
                "base_ms": settings.base_ms, "increment_ms": settings.increment_ms,
                "days_per_move": settings.days_per_move, "rated": settings.rated, "ply": g.ply, "clock": clock,
                "players": {side: self._player(key, profiles) for side, key in r.holders.items()},
            })  # fmt: skip
        signature = orjson.dumps([
            (x["id"], x["ply"], x["players"], x["clock"] and x["clock"]["running"]) for x in games
        ])  # fmt: skip
        self.live, self._live_at = games, time.monotonic()
        if signature != self._live_sig:
            self._live_sig = signature
            text = orjson.dumps({"type": "live", "games": games}).decode()
            for listener in tuple(self.listeners):
                listener.push(text)

    @staticmethod
    def _player(key: str | None, profiles: dict[str, Any]) -> dict[str, Any]:
        """A seat's commander as «Сейчас играют» shows it: ``{"ai": level}``, ``{"name", "rank"}`` or
        ``{"guest": true}``."""
        level = _bot_level(key)
        if level is not None:
            return {"ai": level}
        row = profiles.get(key) if key else None
        if row is not None and row.email is not None and row.nickname:
            rank = rank_for(row.points)
            return {"name": row.nickname, "rank": {"number": rank.number, "name": rank.name}}
        return {"guest": True}

    def _live_now(self) -> list[dict[str, Any]]:
        """:attr:`live` with the running clocks brought to now."""
        elapsed = int((time.monotonic() - self._live_at) * 1000)
        out = []
        for game in self.live:
            clock = game["clock"]
            if clock and clock["running"] in ("south", "north") and elapsed > 0:
                clock = {**clock, clock["running"]: max(0, clock[clock["running"]] - elapsed)}
            out.append({**game, "clock": clock})
        return out

    # -- ticks --------------------------------------------------------------------------------------------

    async def heartbeat(self) -> None:
        """Renew the creators seen here and the seeks of this instance's sockets; abort the challenges whose
        creator nobody has seen for :data:`CREATOR_GONE_MS` and take them off every list."""
        now = self.service.now.wall_ms()
        seen = set()
        for game_id, (_entry, creator) in self.challenges.items():
            if creator in self.by_key:
                seen.add(creator)
                continue
            g = self.service.games.get(game_id)
            if g is not None and any(s.browser_hash == creator and s.connections > 0 for s in g.seats.values()):
                seen.add(creator)
        if seen:
            await self._db(self.store.touch_creators, seen, now)
        seekers = {listener.key for listener in self.listeners if listener.seek is not None}
        if seekers:
            await self._db(self.store.touch_seeks, seekers, now)
        gone = await self.service.abandon_challenges(now - CREATOR_GONE_MS)
        if gone:
            await self.bus.publish(CHANNEL, {"type": "remove", "ids": gone})
        cutoff = time.monotonic() - GONE_S
        self._gone = {k: t for k, t in self._gone.items() if t > cutoff}

    async def _tick(self) -> None:
        """The instance's lobby clock: flushes every :data:`FLUSH_S`, pairing passes, heartbeats, reads of the
        games in play and full re-reads at their own periods; a failed step is logged and tried again."""
        last = {"pair": 0.0, "heartbeat": time.monotonic(), "live": time.monotonic(), "reread": time.monotonic()}
        steps: list[tuple[str, float, Callable[[], Any]]] = [
            ("pair", PAIR_S, self.pair), ("heartbeat", HEARTBEAT_S, self.heartbeat),
            ("live", LIVE_S, self.refresh_live), ("reread", REREAD_S, self.reread),
        ]  # fmt: skip
        flushed = 0.0
        while True:
            await asyncio.sleep(FLUSH_S)
            now = time.monotonic()
            if now - flushed >= self.flush_period():
                flushed = now
                self.flush()
            for name, period, step in steps:
                due = now - last[name] >= period
                if name == "pair":
                    due = due and any(listener.seek for listener in self.listeners)
                if name == "reread" and self._reread_now:
                    due, self._reread_now = True, False
                if not due:
                    continue
                last[name] = now
                try:
                    await step()
                except Exception:
                    log.warning("lobby %s failed", name, exc_info=True)
