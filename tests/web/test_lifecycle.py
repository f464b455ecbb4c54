"""The life of games beyond one session: rematch only between two players, no play against an empty seat."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from .conftest import Browser, observe, running, snapshot, start_game, until


def _db(settings) -> sqlite3.Connection:
    con = sqlite3.connect(settings.database_url.removeprefix("sqlite:///"))
    con.row_factory = sqlite3.Row
    return con


def _row(settings, game_id: str) -> dict[str, Any]:
    con = _db(settings)
    row = dict(con.execute("select * from games where id = ?", (game_id,)).fetchone())
    con.close()
    return row


def _wait(pred, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not pred():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.05)


# -- rematch and empty seats (QA finding 2) ---------------------------------------------------------------


def test_no_rematch_when_the_friend_never_joined(client, browsers) -> None:
    creator = browsers()
    game_id, _ = creator.create(side="south", base_ms=1000, setup_ms=300)
    with creator.ws(game_id) as ws:
        snapshot(ws)
        ws.send_json({"type": "abort"})
        snapshot(ws, status="aborted")
        ws.send_json({"type": "rematch"})
        msg = until(ws, lambda m: m["type"] in ("rematch", "error"))
    assert msg["type"] == "error" and msg["code"] == "cannot_rematch", msg
    assert _db(client.app.state.settings).execute("select count(*) from games").fetchone()[0] == 1
    assert observe(creator, game_id)["game"]["rematch_url"] is None


def test_rematch_after_an_abort_in_setup_binds_both_players(browsers) -> None:
    game_id, south, north = start_game(browsers, setup_ms=60_000)
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        ws.send_json({"type": "abort"})
        snapshot(ws, status="aborted")
        ws.send_json({"type": "rematch"})
        url = until(ws, lambda m: m["type"] == "rematch")["url"]
    players = observe(north, url.removeprefix("/g/"))["game"]["players"]
    assert players["south"]["joined"] and players["north"]["joined"]


def test_setup_expiry_aborts_a_game_with_an_empty_seat(settings) -> None:
    """A setup game whose seat nobody holds (a rematch made before the fix) never starts play: when its setup
    time runs out it is aborted, with no result."""
    with running(settings) as client:
        south, north = Browser(client), Browser(client)
        game_id, invite = south.create(side="south", base_ms=1000, setup_ms=60_000)
        north.join(invite)
    con = _db(settings)
    with con:
        con.execute("update game_seats set browser_hash = null where game_id = ? and side = 'north'", (game_id,))
        con.execute("update games set setup_deadline = checkpoint_at where id = ?", (game_id,))  # time is up
    con.close()
    with running(settings) as client:
        _wait(lambda: _row(settings, game_id)["status"] != "setup")
        snap = observe(Browser(client, south.token), game_id)
    assert snap["game"]["status"] == "aborted" and snap["game"]["result"] is None
    row = _row(settings, game_id)
    assert row["status"] == "aborted" and row["started_at"] is None and row["finished_at"] is not None
