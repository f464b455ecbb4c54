"""How an instance learns of another instance's action (issue 6): the ``changed`` event carries the action as a
delta (the engine's notation, the game's new clock values, the revision it was made on), and the other
instance applies it in memory without asking the database; a gap in the revisions (an event lost) or an
event without a delta (too big) makes it read the database instead.

Two apps run in this process (one event loop each, one ``TestClient`` each) on one PostgreSQL database and one
Redis; spies count the database reads of the receiving instance's store.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from admiral.web import Settings, create_app
from admiral.web.deps import COOKIE, csrf_token

from .conftest import NEEDS_SERVICES, REDIS_URL

pytestmark = NEEDS_SERVICES

SECRET = "events-test-secret-" + secrets.token_hex(8)


class App:
    """One app instance: its client, its service, and a count of its store's reads of a game."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.service = client.app.state.service
        self.reads: dict[str, int] = {"revision": 0, "load_game": 0}
        self._lock = threading.Lock()
        store = self.service.store
        for name in self.reads:
            real = getattr(store, name)
            setattr(store, name, self._counting(name, real))

    def _counting(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            with self._lock:  # store calls run in the database threads
                self.reads[name] += 1
            return real(*args, **kwargs)

        return spy

    def counts(self) -> tuple[int, int, int, int]:
        """``(revision reads, game loads, catch-ups by event, catch-ups by database)``."""
        c = self.service.catch_ups
        return self.reads["revision"], self.reads["load_game"], c["event"], c["database"]


@pytest.fixture
def apps(shared_db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[App, App]]:
    """Two instances sharing the database and Redis (the sockets' resync ticks are off: on a loaded machine a
    tick could read the database in the middle of what a test counts)."""
    from admiral.web.routes import ws

    monkeypatch.setattr(ws, "RESYNC_S", 3600.0)

    def settings() -> Settings:
        return Settings(
            _env_file=None, database_url=shared_db, redis_url=REDIS_URL, secret_key=SECRET, migrate_on_start=False,
            claim_grace_ms=200, sweep_interval_s=0.2, test_time_controls=True,
        )  # fmt: skip

    with (
        TestClient(create_app(settings()), base_url="http://testserver") as one,
        TestClient(create_app(settings()), base_url="http://testserver") as two,
    ):
        yield App(one), App(two)


class Browser:
    """A browser: its token cookie, valid on either instance."""

    def __init__(self) -> None:
        self.token = secrets.token_urlsafe(32)
        self.headers = {"cookie": f"{COOKIE}={self.token}"}

    def create(self, app: App, **settings: Any) -> tuple[str, str]:
        r = app.client.post("/games", json={"side": "south", **settings}, headers=self.headers)
        assert r.status_code == 201, r.text
        return r.json()["game_id"], r.json()["invite_url"]

    def join(self, app: App, invite_url: str) -> None:
        r = app.client.post(invite_url, data={"csrf_token": csrf_token(SECRET, self.token)}, headers=self.headers,
                            follow_redirects=False)  # fmt: skip
        assert r.status_code == 303

    def ws(self, app: App, game_id: str):
        return app.client.websocket_connect(f"/ws/games/{game_id}", headers=self.headers)


def until(ws: Any, pred: Callable[[dict], bool], limit: int = 50) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("expected message did not arrive")


def at(ws: Any, version: int) -> dict:
    """The first snapshot at ``version`` or later."""
    return until(ws, lambda m: m["type"] == "snapshot" and m["game"]["version"] >= version)


def ready(*wss: Any) -> list[dict]:
    """Auto-arrange and ready each socket's fleet; each one's first snapshot in play."""
    for ws in wss:
        ws.send_json({"type": "setup.auto", "setup": {}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
    return [until(ws, lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play") for ws in wss]


def subscribed(channel: str, instances: int) -> None:
    """Wait until ``instances`` instances listen to ``channel`` on Redis (a socket's subscription reaches Redis
    within the bus listener's next turn, up to 0.2 s after the socket opened)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        deadline = time.monotonic() + 5
        while client.pubsub_numsub(channel)[0][1] < instances:
            assert time.monotonic() < deadline, f"{channel} has not {instances} subscribers"
            time.sleep(0.02)
    finally:
        client.close()


def move(snap: dict) -> str:
    """A quiet move of the side to act."""
    return next(a["notation"] for a in snap["view"]["legal"] if a["type"] == "move")


def test_a_foreign_action_is_applied_from_the_event_without_a_database_read(apps) -> None:
    one, two = apps
    south, north = Browser(), Browser()
    game_id, invite = south.create(one, base_ms=60_000, increment_ms=5_000)
    north.join(two, invite)
    with south.ws(one, game_id) as sws, north.ws(two, game_id) as nws:
        at(sws, 0), at(nws, 0)
        subscribed(f"game:{game_id}", 2)  # and each instance's resync on subscribing is under way (not counted)
        s_snap, n_snap = ready(sws, nws)
        for ply in range(4):  # South on instance one, North on instance two: every action crosses
            mover, snap = (sws, s_snap) if ply % 2 == 0 else (nws, n_snap)
            here, there = (one, two) if ply % 2 == 0 else (two, one)
            before_here, before_there = here.counts(), there.counts()
            mover.send_json({"type": "action", "ply": ply, "action": move(snap)})
            s_snap, n_snap = at(sws, ply + 1), at(nws, ply + 1)
            assert s_snap["game"]["version"] == n_snap["game"]["version"] == ply + 1
            after_here, after_there = here.counts(), there.counts()
            # the receiver: no revision check, no load, one catch-up from the event
            assert (after_there[0] - before_there[0], after_there[1] - before_there[1]) == (0, 0)
            assert (after_there[2] - before_there[2], after_there[3] - before_there[3]) == (1, 0)
            # the mover: its lock's one revision check (its copy was current: nothing loaded)
            assert (after_here[0] - before_here[0], after_here[1] - before_here[1]) == (1, 0)
            # the receiver's copy has the mover's clocks (South moved first: North's clock runs now, and back)
            sc, nc = s_snap["game"]["clocks"], n_snap["game"]["clocks"]
            assert sc["running"] == nc["running"] == ("north" if ply % 2 == 0 else "south")
            idle = "south" if ply % 2 == 0 else "north"
            assert sc[f"{idle}_ms"] == nc[f"{idle}_ms"]  # the stopped clock: the same value on both
            assert 0 < nc[f"{idle}_ms"] <= 60_000 + 5_000 * (ply // 2 + 1)
        # what each instance shows is what the database holds
        assert one.service.games[game_id].game is not None
        assert (
            two.service.store.known[game_id] == one.service.store.known[game_id] == two.service.store.revision(game_id)
        )


def test_a_gap_in_the_revisions_makes_the_instance_read_the_database(apps) -> None:
    one, two = apps
    south, north, watcher = Browser(), Browser(), Browser()
    game_id, invite = south.create(one)
    north.join(one, invite)
    dropped: list[dict] = []
    local = two.service.bus._local
    deliver = local.deliver

    def lossy(channel: str, message: dict) -> None:  # pub/sub loses one event (as around a reconnect)
        if message.get("deltas") and not dropped:
            dropped.append(message)
            return
        deliver(channel, message)

    with south.ws(one, game_id) as sws, north.ws(one, game_id) as nws:
        at(sws, 0), at(nws, 0)
        s_snap, _ = ready(sws, nws)
        with watcher.ws(two, game_id) as spectator, watcher.ws(one, game_id) as reference:
            at(spectator, 0), at(reference, 0)
            subscribed(f"game:{game_id}", 2)
            local.deliver = lossy
            try:
                sws.send_json({"type": "action", "ply": 0, "action": move(s_snap)})
                n_snap = at(nws, 1)
                at(reference, 1)
                deadline = time.monotonic() + 5
                while not dropped and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert dropped and dropped[0]["deltas"][0]["actions"][0][0] == 0  # instance two missed ply 0
                before = two.counts()
                nws.send_json({"type": "action", "ply": 1, "action": move(n_snap)})
                seen = at(spectator, 2)
            finally:
                local.deliver = deliver
            after = two.counts()
            assert seen["game"]["version"] == 2
            assert after[1] - before[1] >= 1  # the game was read back from the database…
            assert (after[2] - before[2], after[3] - before[3]) == (0, 1)  # …not patched from the event
            assert seen["view"] == at(reference, 2)["view"]  # and shows what instance one shows


def test_an_event_whose_deltas_are_too_big_carries_none_and_the_database_is_read(apps) -> None:
    one, two = apps
    one.service.DELTAS_MAX_BYTES = 10  # every delta is too big now
    south, north = Browser(), Browser()
    game_id, invite = south.create(one)
    north.join(two, invite)
    heard: list[dict] = []
    local = two.service.bus._local
    deliver = local.deliver

    def listening(channel: str, message: dict) -> None:
        heard.append(message)
        deliver(channel, message)

    with south.ws(one, game_id) as sws, north.ws(two, game_id) as nws:
        at(sws, 0), at(nws, 0)
        subscribed(f"game:{game_id}", 2)
        s_snap, _ = ready(sws, nws)
        local.deliver = listening
        try:
            before = two.counts()
            sws.send_json({"type": "action", "ply": 0, "action": move(s_snap)})
            n_snap = at(nws, 1)
        finally:
            local.deliver = deliver
        after = two.counts()
        assert n_snap["game"]["version"] == 1 and n_snap["view"]["to_act"] == "north"
        assert [m for m in heard if m.get("deltas")] == []
        assert any(m.get("version") == 1 and m.get("revision") is not None for m in heard)
        assert after[1] - before[1] == 1  # one load of the tail
        assert (after[2] - before[2], after[3] - before[3]) == (0, 1)


def test_an_event_published_before_the_instance_subscribed_is_not_lost(apps) -> None:
    # A game's first socket on an instance gets its snapshot at once, but the instance's Redis subscription
    # follows within its listener's next turn: an event published in between reaches nobody there. When the
    # subscription lands, the socket re-reads the game (no resync tick in these tests: it would come 10 s late).
    import asyncio

    one, two = apps
    south, north, watcher = Browser(), Browser(), Browser()
    game_id, invite = south.create(one)
    north.join(one, invite)
    bus = two.service.bus
    real_sync = bus._sync
    landed = threading.Event()

    async def late_sync(pubsub: Any, subscribed: set[str], **kwargs: Any) -> None:
        if f"game:{game_id}" in bus._channels and f"game:{game_id}" not in subscribed:
            await asyncio.sleep(1.0)  # the subscription reaches Redis a second late
            await real_sync(pubsub, subscribed, **kwargs)
            landed.set()
        else:
            await real_sync(pubsub, subscribed, **kwargs)

    with south.ws(one, game_id) as sws, north.ws(one, game_id) as nws:
        at(sws, 0), at(nws, 0)
        s_snap, _ = ready(sws, nws)
        bus._sync = late_sync
        try:
            with watcher.ws(two, game_id) as spectator:
                assert at(spectator, 0)["game"]["version"] == 0
                sws.send_json({"type": "action", "ply": 0, "action": move(s_snap)})
                at(nws, 1)
                assert not landed.is_set()  # the event went out while instance two was not listening
                seen: list[dict] = []
                reader = threading.Thread(target=lambda: seen.append(at(spectator, 1)), daemon=True)
                reader.start()
                reader.join(10)
                assert landed.is_set() and seen and seen[0]["game"]["version"] == 1
        finally:
            bus._sync = real_sync
