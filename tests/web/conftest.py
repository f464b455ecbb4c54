"""Fixtures of the web tests: an app on a temporary SQLite file, browsers with their own token, and
helpers to read WebSocket messages.

One :class:`TestClient` serves an app (one event loop, one service); each :class:`Browser` sends its own
``admiral_browser`` cookie in a header, so several browsers share that client without sharing cookies.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from admiral.web import Settings, create_app
from admiral.web.deps import COOKIE, csrf_token

#: Run the web tests against PostgreSQL and Redis (CI's second run): e.g.
#: ``ADMIRAL_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/postgres``,
#: ``ADMIRAL_TEST_REDIS_URL=redis://127.0.0.1:6379/0``. Unset: SQLite files and the in-process bus.
PG_URL = os.environ.get("ADMIRAL_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("ADMIRAL_TEST_REDIS_URL") or None


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    """A fresh database per test: an SQLite file, or a new PostgreSQL database (dropped afterwards)."""
    if not PG_URL:
        yield f"sqlite:///{tmp_path / 'admiral.db'}"
        return
    from sqlalchemy import create_engine, make_url, text

    name = f"admiral_test_{secrets.token_hex(5)}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def make_settings(db_url: str, **overrides: Any) -> Settings:
    """Test settings: tiny grace and sweep period, test time controls on, no .env file; Redis when the
    environment asks for it (see ``REDIS_URL``). Every test client comes from one address and plays as fast as
    the server answers: the per-address budgets are raised (the flood tests set their own)."""
    values: dict[str, Any] = {
        "database_url": db_url, "claim_grace_ms": 200, "sweep_interval_s": 0.2, "test_time_controls": True,
        "redis_url": REDIS_URL, "rate_games": "1000/minute", "rate_sockets": "1000/minute",
        "rate_pages": "10000/minute",
        "ws_max_rate_per_address": 1000,
    }  # fmt: skip
    return Settings(_env_file=None, **{**values, **overrides})


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The shared test settings (:func:`make_settings`)."""
    return make_settings(db_url)


@contextlib.contextmanager
def running(settings: Settings) -> Iterator[TestClient]:
    """A TestClient over a new app for ``settings`` (lifespan started and, on exit, stopped)."""
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield client


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A running app."""
    with running(settings) as c:
        yield c


class Browser:
    """One browser: its own token cookie, sent as a header on every request and WebSocket."""

    def __init__(self, client: TestClient, token: str | None = None) -> None:
        self.client = client
        self.token = token or secrets.token_urlsafe(32)

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.token}"}

    def get(self, url: str, **kw: Any):
        headers = {**self.headers, **kw.pop("headers", {})}
        return self.client.get(url, headers=headers, follow_redirects=False, **kw)

    @property
    def csrf(self) -> str:
        """This browser's anti-CSRF token, as the pages put it in every form."""
        return csrf_token(self.client.app.state.settings.secret_key, self.token)

    def post(self, url: str, *, csrf: bool = True, **kw: Any):
        """POST; a form (anything but ``json=``) carries this browser's ``csrf_token`` unless ``csrf=False``."""
        headers = {**self.headers, **kw.pop("headers", {})}
        if csrf and "json" not in kw and "content" not in kw:
            kw["data"] = {"csrf_token": self.csrf, **kw.get("data", {})}
        return self.client.post(url, headers=headers, follow_redirects=False, **kw)

    def create(self, **body: Any) -> tuple[str, str]:
        """Create a game (JSON); returns ``(game_id, invite_code)``."""
        r = self.post("/games", json=body)
        assert r.status_code == 201, r.text
        data = r.json()
        return data["game_id"], data["invite_url"].removeprefix("/j/")

    def join(self, invite: str) -> None:
        r = self.post(f"/j/{invite}")
        assert r.status_code == 303

    def ws(self, game_id: str, **kw: Any):
        headers = {**self.headers, **kw.pop("headers", {})}
        return self.client.websocket_connect(f"/ws/games/{game_id}", headers=headers, **kw)


@pytest.fixture
def browsers(client: TestClient) -> Callable[[], Browser]:
    """A factory of browsers on the running app."""
    return lambda: Browser(client)


def from_address(client: TestClient, address: str) -> TestClient:
    """A client of the same running app (the same event loop) whose requests and sockets come from ``address``
    (per-address limits count it apart from the default ``testclient``)."""
    other = TestClient(client.app, base_url="http://testserver", client=(address, 50000))
    other.portal = client.portal
    return other


#: Seconds a test waits for the next message before it fails (a lost message must fail the test, never stall the
#: run: a message-less ``receive`` of Starlette's test socket waits for ever).
RECEIVE_TIMEOUT_S = 60.0


def receive_json(ws: Any, timeout_s: float = RECEIVE_TIMEOUT_S) -> dict:
    """The next JSON message of test socket ``ws``, waiting at most ``timeout_s`` seconds.

    :raises AssertionError: when none came in time; what the socket raises when it was closed."""
    rx = getattr(ws, "_send_rx", None)
    if rx is None:  # not Starlette's test socket: no way to bound the wait
        return ws.receive_json()

    async def _next() -> Any:
        with anyio.fail_after(timeout_s):
            return await rx.receive()

    try:
        message = ws.portal.call(_next)
    except TimeoutError:
        raise AssertionError(f"no message within {timeout_s:g} s") from None
    ws._raise_on_close(message)
    return json.loads(message["text"] if message.get("text") is not None else message["bytes"].decode())


def until(ws: Any, pred: Callable[[dict], bool], limit: int = 50) -> dict:
    """Read messages until one satisfies ``pred`` (at most ``limit``, each within :data:`RECEIVE_TIMEOUT_S`);
    returns it."""
    for _ in range(limit):
        msg = receive_json(ws)
        if pred(msg):
            return msg
    raise AssertionError("expected message did not arrive")


def snapshot(ws: Any, **where: Any) -> dict:
    """The next snapshot whose ``game`` fields match ``where`` (e.g. ``status="play"``)."""
    return until(ws, lambda m: m["type"] == "snapshot" and all(m["game"].get(k) == v for k, v in where.items()))


def error(ws: Any) -> dict:
    """The next ``error`` message."""
    return until(ws, lambda m: m["type"] == "error")


def start_game(browsers: Callable[[], Browser], **settings: Any) -> tuple[str, Browser, Browser]:
    """Create a game with the creator on South and the friend joined: ``(game_id, south, north)``."""
    south, north = browsers(), browsers()
    game_id, invite = south.create(side="south", **settings)
    north.join(invite)
    return game_id, south, north


def ready_both(south_ws: Any, north_ws: Any) -> tuple[dict, dict]:
    """Auto-arrange and ready both fleets; returns each side's first snapshot in play."""
    for ws in (south_ws, north_ws):
        ws.send_json({"type": "setup.auto", "setup": {}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert len(state["draft"]) == 58 and state["problems"] == []
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
    return snapshot(south_ws, status="play"), snapshot(north_ws, status="play")


def observe(browser: Browser, game_id: str) -> dict:
    """Open a socket, return its first snapshot, close it."""
    with browser.ws(game_id) as ws:
        return snapshot(ws)


def fingerprint(snap: dict) -> tuple:
    """What must not change when a bad input is refused: version, status, units, pending, result."""
    view = snap["view"] or {}
    return (
        snap["game"]["version"], snap["game"]["status"], str(view.get("units")), str(view.get("pending")),
        str(snap["game"]["result"]),
    )  # fmt: skip


def pick_action(legal: list[dict], side: str) -> str:
    """A scripted player that makes units meet fast: declare the first option, else attack from where it
    stands, else step the front-most unit forward. Reads the view's structured ``legal``; returns a notation."""
    if legal[0]["type"] == "declare":
        return legal[0]["notation"]
    attacks = [a for a in legal if a["type"] == "attack" and a["via"] is None]
    if attacks:
        return attacks[0]["notation"]
    best: tuple[int, str] | None = None
    for a in legal:
        if a["type"] != "move":
            continue
        sr, dr = int(a["src"][1:]), int(a["dst"][1:])
        if (dr - sr if side == "south" else sr - dr) <= 0:
            continue
        key = dr if side == "south" else -dr
        if best is None or key > best[0]:
            best = (key, a["notation"])
    return best[1] if best else legal[0]["notation"]


def play_until(wss: dict[str, Any], snaps: dict[str, dict], stop: Callable[[str], bool], limit: int = 80) -> dict:
    """Play scripted actions (see :func:`pick_action`) over the two sockets ``wss`` (side → socket) from
    their latest snapshots ``snaps`` until ``stop(action)`` is true for an action just played.

    :returns: the latest snapshots, side → snapshot (updated in place too).
    """
    for _ in range(limit):
        to_act = snaps["south"]["view"]["to_act"]
        view = snaps[to_act]["view"]
        action = pick_action(view["legal"], to_act)
        version = snaps[to_act]["game"]["version"]
        wss[to_act].send_json({"type": "action", "ply": version, "action": action})
        for side, ws in wss.items():
            snaps[side] = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)
        if stop(action) or snaps["south"]["game"]["status"] != "play":
            return snaps
    raise AssertionError("the stop condition never held")


class Live:
    """A game in play: ids, browsers, open sockets and the latest snapshots (side → snapshot)."""

    def __init__(self, game_id: str, south: Browser, north: Browser, sws: Any, nws: Any, snaps: dict) -> None:
        self.id, self.south, self.north, self.sws, self.nws, self.snaps = game_id, south, north, sws, nws, snaps

    @property
    def wss(self) -> dict[str, Any]:
        return {"south": self.sws, "north": self.nws}

    def act(self, side: str, action: str | None = None) -> dict[str, dict]:
        """``side`` plays ``action`` (default: the scripted choice); waits for both sockets' new snapshots."""
        snap = self.snaps[side]
        version = snap["game"]["version"]
        action = action or pick_action(snap["view"]["legal"], side)
        self.wss[side].send_json({"type": "action", "ply": version, "action": action})
        for s, ws in self.wss.items():
            self.snaps[s] = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)
        return self.snaps


@contextlib.contextmanager
def live_game(browsers: Callable[[], Browser], setups: dict | None = None, **settings: Any) -> Iterator[Live]:
    """A game created by South, joined by North, both sockets open and both fleets ready (auto-arranged, or
    ``setups`` side → {cell: kind})."""
    game_id, south, north = start_game(browsers, **settings)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        snapshot(sws)
        snapshot(nws)
        if setups is None:
            s, n = ready_both(sws, nws)
        else:
            sws.send_json({"type": "setup.ready", "setup": setups["south"]})
            nws.send_json({"type": "setup.ready", "setup": setups["north"]})
            s, n = snapshot(sws, status="play"), snapshot(nws, status="play")
        yield Live(game_id, south, north, sws, nws, {"south": s, "north": n})


def close_code(ws: Any, limit: int = 50) -> int:
    """Read until the server closes the socket; returns the close code."""
    from starlette.websockets import WebSocketDisconnect

    for _ in range(limit):
        try:
            ws.receive_json()
        except WebSocketDisconnect as e:
            return e.code
    raise AssertionError("the socket was not closed")


class _Row(dict):
    """A row by column name (``row["status"]``, ``dict(row)``) or by position (``row[0]``)."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int):
            return list(self.values())[key]
        return super().__getitem__(key)


class RawDb:
    """A raw connection to the test database, SQLite or PostgreSQL, with the small part of :mod:`sqlite3`'s API
    the tests use: ``execute(sql, params)`` with ``?`` placeholders, ``fetchone``/``fetchall``/iteration giving
    rows by name and position, ``with db:`` committing, ``close()``."""

    def __init__(self, url: str) -> None:
        from sqlalchemy import create_engine

        self.engine = create_engine(url)
        self.conn = self.engine.connect()

    def execute(self, sql: str, params: tuple = ()) -> Any:
        if self.engine.dialect.name != "sqlite":
            sql = sql.replace("?", "%s")
        result = self.conn.exec_driver_sql(sql, tuple(params))

        class _Result:
            def fetchone(self) -> _Row | None:
                row = result.fetchone()
                return None if row is None else _Row(row._mapping)

            def fetchall(self) -> list[_Row]:
                return [_Row(r._mapping) for r in result]

            def __iter__(self):
                return iter(self.fetchall())

        return _Result()

    def __enter__(self) -> RawDb:
        return self

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        if exc_type is None:
            self.conn.commit()
        else:
            self.conn.rollback()

    def close(self) -> None:
        self.conn.close()
        self.engine.dispose()
