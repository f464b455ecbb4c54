"""Clocks, timers and persistence: flag fall and setup expiry with nobody connected, increments, restarts."""

from __future__ import annotations

import time

import pytest

from admiral.store import Store

from .conftest import REDIS_URL, Browser, Live, RawDb, live_game, observe, ready_both, running, snapshot, start_game

#: Downtime charged to nobody is a lone server's promise; instances sharing the games serve on while one
#: restarts, so their clocks run on as stored (README "Deploy").
LONE_SERVER = pytest.mark.skipif(REDIS_URL is not None, reason="a lone server's restart semantics (no REDIS_URL)")


def _wait_status(browser: Browser, game_id: str, status: str, timeout_s: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        snap = observe(browser, game_id)
        if snap["game"]["status"] == status or time.monotonic() > deadline:
            return snap
        time.sleep(0.1)


def _row(settings, game_id: str) -> dict:
    con = RawDb(settings.database_url)
    row = dict(con.execute("select * from games where id = ?", (game_id,)).fetchone())
    rows = con.execute("select notation from game_actions where game_id = ? order by ply", (game_id,))
    row["actions"] = [r[0] for r in rows]
    con.close()
    return row


def test_increment_after_each_completed_turn(browsers) -> None:
    with live_game(browsers, base_ms=60_000, increment_ms=10_000) as live:
        assert live.snaps["south"]["game"]["clocks"]["running"] == "south"
        live.act("south")
        clocks = live.snaps["north"]["game"]["clocks"]
        assert clocks["running"] == "north"
        assert 60_000 < clocks["south_ms"] <= 70_000  # base − thinking time + the increment
        assert clocks["north_ms"] <= 60_000


def test_flag_fall_with_no_client_connected(browsers, settings) -> None:
    with live_game(browsers, base_ms=1000) as live:
        live.act("south")
    # nobody is connected now; North's second runs out on the server
    snap = _wait_status(live.south, live.id, "over")
    assert snap["game"]["result"] == {"winner": "south", "reason": "flag"}
    assert snap["game"]["clocks"]["north_ms"] == 0
    row = _row(settings, live.id)
    assert row["status"] == "over" and row["actions"][-1] == "flag north"


def test_setup_timer_completes_and_readies_with_nobody_connected(browsers, settings) -> None:
    game_id, south, north = start_game(browsers, setup_ms=600)
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        ws.send_json({"type": "setup.update", "setup": {"a1": "VMB", "b2": "L", "z1": "L"}})
        next(m for m in iter(ws.receive_json, None) if m["type"] == "setup.state")
    snap = _wait_status(south, game_id, "play")
    assert snap["game"]["status"] == "play"
    assert all(p["ready"] for p in snap["game"]["players"].values())
    own = {u["cell"]: u["kind"] for u in snap["view"]["units"] if u["side"] == "south"}
    assert len(own) == 58 and own["a1"] == "VMB" and own["b2"] == "L"  # the draft was completed, not replaced
    assert len([u for u in observe(north, game_id)["view"]["units"] if u["side"] == "north" and u["kind"]]) == 58


@LONE_SERVER
def test_restart_keeps_position_and_clocks(browsers, settings) -> None:
    with running(settings) as client:
        south, north = Browser(client), Browser(client)
        game_id, invite = south.create(side="south", base_ms=120_000, increment_ms=0)
        north.join(invite)
        with south.ws(game_id) as sws, north.ws(game_id) as nws:
            snapshot(sws)
            snapshot(nws)
            s, n = ready_both(sws, nws)
            live = Live(game_id, south, north, sws, nws, {"south": s, "north": n})
            for _ in range(3):
                live.act("south")
                live.act("north")
            live.act("south")
            before = live.snaps["south"]
    stored = _row(settings, game_id)  # checkpointed at shutdown
    assert stored["clock_running"] == "north" and stored["ply"] == 7
    time.sleep(1.0)  # downtime: charged to nobody
    started = time.monotonic()
    with running(settings) as client:
        after = observe(Browser(client, south.token), game_id)
        elapsed_ms = (time.monotonic() - started) * 1000
    assert after["game"]["version"] == before["game"]["version"] == 7
    assert after["view"]["units"] == before["view"]["units"]
    assert after["view"]["legal"] == [] and after["game"]["clocks"]["running"] == "north"
    assert after["game"]["clocks"]["south_ms"] == stored["clock_south_ms"]
    north_ms = after["game"]["clocks"]["north_ms"]
    assert stored["clock_north_ms"] - elapsed_ms - 50 <= north_ms <= stored["clock_north_ms"]


def test_crash_without_shutdown_resumes_from_the_rows(browsers, settings) -> None:
    """Like kill -9: the first app never checkpoints at shutdown; the second rebuilds from the action rows."""
    with running(settings) as client:
        south, north = Browser(client), Browser(client)
        game_id, invite = south.create(side="south", base_ms=120_000)
        north.join(invite)
        with south.ws(game_id) as sws, north.ws(game_id) as nws:
            snapshot(sws)
            snapshot(nws)
            s, n = ready_both(sws, nws)
            live = Live(game_id, south, north, sws, nws, {"south": s, "north": n})
            live.act("south")
            live.act("north")
            before = live.snaps["south"]
        service = client.app.state.service
        service.stop = _no_checkpoint(service)  # the process dies: no shutdown checkpoint
        stored = _row(settings, game_id)
    with running(settings) as client:
        after = observe(Browser(client, south.token), game_id)
    assert after["game"]["version"] == 2 == stored["ply"]
    assert after["view"]["units"] == before["view"]["units"]
    assert after["game"]["clocks"]["running"] == "south"
    assert after["game"]["clocks"]["south_ms"] <= stored["clock_south_ms"]
    assert after["game"]["clocks"]["north_ms"] == stored["clock_north_ms"]


def _no_checkpoint(service):
    async def stop() -> None:
        if service._sweeper is not None:
            service._sweeper.cancel()
        for g in service.games.values():
            if g.timer is not None:
                g.timer.cancel()

    return stop


@LONE_SERVER
def test_slow_start_up_is_charged_to_nobody(browsers, settings, monkeypatch) -> None:
    """kill -9, then a start-up that takes long (each game's load sleeps): the running clocks restart only
    once every game is loaded, so each loses at most the time since its last checkpoint (here: none, the
    stored values are the last checkpoint) plus the time the test takes to look."""
    games: list[tuple[str, Browser]] = []
    with running(settings) as client:
        for _ in range(3):
            with live_game(lambda: Browser(client), base_ms=120_000) as live:
                live.act("south")
                games.append((live.id, live.south))
        service = client.app.state.service
        service.stop = _no_checkpoint(service)  # the process dies: no shutdown checkpoint
    stored = {game_id: _row(settings, game_id) for game_id, _ in games}  # the last checkpoint of each
    load = Store.load_game

    def slow_load(self, game_id: str):
        time.sleep(0.4)
        return load(self, game_id)

    monkeypatch.setattr(Store, "load_game", slow_load)
    with running(settings) as client:
        started = time.monotonic()
        service = client.app.state.service
        mono = time.monotonic()
        left = {game_id: service.games[game_id].clock.left("north", mono) for game_id, _ in games}
        elapsed_ms = (time.monotonic() - started) * 1000
        assert observe(Browser(client, games[0][1].token), games[0][0])["game"]["clocks"]["running"] == "north"
    for game_id, _ in games:
        assert stored[game_id]["clock_running"] == "north"
        lost = stored[game_id]["clock_north_ms"] - left[game_id]
        assert 0 <= lost <= elapsed_ms + 100, (game_id, lost)
