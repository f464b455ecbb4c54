"""The life of games beyond one session: rematch only between two players, no play against an empty seat,
light start-up (only timed games loaded), expiry of invites nobody accepted, spectators kept up to date."""

from __future__ import annotations

import time
from typing import Any

from .conftest import Browser, Live, RawDb, fingerprint, live_game, observe, running, snapshot, start_game, until


def _db(settings) -> RawDb:
    return RawDb(settings.database_url)


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
    with south.ws(game_id) as ws, north.ws(game_id) as nws:
        snapshot(ws, status="setup")
        ws.send_json({"type": "abort"})
        snapshot(ws, status="aborted")
        ws.send_json({"type": "rematch"})  # an offer (issue 18): North accepts it
        until(nws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_offer"] == "south")
        nws.send_json({"type": "rematch.accept"})
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


# -- start-up and the sweeper (QA finding 4) --------------------------------------------------------------


def test_start_loads_only_timed_games_and_the_others_on_first_access(settings) -> None:
    with running(settings) as client:
        south = Browser(client)
        waiting, _ = south.create(side="south", base_ms=60_000, setup_ms=60_000)
        untimed = start_game(lambda: Browser(client))[0]  # in setup without a deadline
        timed_setup = start_game(lambda: Browser(client), setup_ms=60_000)[0]
        with live_game(lambda: Browser(client), base_ms=60_000) as live:
            playing = live.id
    untimed_at = _row(settings, untimed)["checkpoint_at"]
    with running(settings) as client:
        service = client.app.state.service
        assert set(service.games) == {timed_setup, playing}
        time.sleep(3 * settings.sweep_interval_s)
        assert _row(settings, waiting)["checkpoint_at"] is None  # never checkpointed: nothing runs
        assert _row(settings, untimed)["checkpoint_at"] == untimed_at
        snap = observe(Browser(client, south.token), waiting)  # loaded on first access
        assert snap["game"]["status"] == "waiting" and snap["game"]["invite_url"].startswith("/j/")
        assert waiting in service.games
        assert observe(Browser(client), untimed)["game"]["status"] == "setup"


def test_sweeper_checkpoints_only_running_clocks(client, browsers, settings) -> None:
    creator = browsers()
    waiting, _ = creator.create(side="south", base_ms=60_000)
    untimed = start_game(browsers)[0]
    before = _row(settings, untimed)["checkpoint_at"]
    with live_game(browsers, base_ms=60_000) as live:
        first = _row(settings, live.id)["checkpoint_at"]
        time.sleep(3 * settings.sweep_interval_s)
        assert _row(settings, live.id)["checkpoint_at"] > first  # the running clock is checkpointed
    assert _row(settings, waiting)["checkpoint_at"] is None
    assert _row(settings, untimed)["checkpoint_at"] == before


def _short_ttl(client, ttl_s: float) -> None:
    # ``Settings.waiting_ttl_s`` reaches the service as ``ServiceOptions.waiting_ttl_s``; set the option directly
    # so that the test does not depend on that wiring in the app factory.
    client.app.state.service.options.waiting_ttl_s = ttl_s


def test_an_invite_nobody_accepts_expires(client, browsers, settings) -> None:
    creator, friend = browsers(), browsers()
    game_id, invite = creator.create(side="south")
    joined = start_game(browsers)[0]
    with creator.ws(game_id) as ws:
        assert snapshot(ws)["game"]["status"] == "waiting"
        _short_ttl(client, 0.3)
        _wait(lambda: _row(settings, game_id)["status"] == "aborted")
        snap = snapshot(ws, status="aborted")  # the open page learns it
    assert snap["game"]["result"] is None and snap["game"]["invite_url"] is None
    row = _row(settings, game_id)
    assert row["status"] == "aborted" and row["finished_at"] is not None
    friend.join(invite)  # too late: the friend is only a spectator
    assert observe(friend, game_id)["game"]["seat"] is None
    assert _row(settings, joined)["status"] == "setup"  # a game both joined does not expire


def test_expired_invites_are_aborted_without_being_loaded(settings) -> None:
    with running(settings) as client:
        creator = Browser(client)
        game_id, _ = creator.create(side="south")
    with running(settings) as client:
        service = client.app.state.service
        assert game_id not in service.games
        _short_ttl(client, 0.1)
        _wait(lambda: _row(settings, game_id)["status"] == "aborted")
        assert game_id not in service.games  # one bulk UPDATE, the game was not loaded for it
        assert observe(Browser(client, creator.token), game_id)["game"]["status"] == "aborted"


# -- spectators (QA finding 10) ----------------------------------------------------------------------------


def test_a_spectator_socket_sees_the_rematch_after_the_sweeper_ran(client, browsers, settings) -> None:
    spectator = browsers()
    with live_game(browsers) as live, spectator.ws(live.id) as pws:
        snapshot(pws, status="play")
        live.sws.send_json({"type": "resign"})
        snapshot(pws, status="over")
        live.sws.close()
        live.nws.close()
        cached = client.app.state.service.games[live.id]
        time.sleep(3 * settings.sweep_interval_s)
        # the sweeper must not drop a finished game a socket still shows (that socket would go stale)
        assert client.app.state.service.games.get(live.id) is cached
        with live.south.ws(live.id) as ws, live.north.ws(live.id) as nws:
            snapshot(ws, status="over")
            snapshot(nws, status="over")
            ws.send_json({"type": "rematch"})  # an offer (issue 18): the spectator sees it, North accepts it
            offered = until(pws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_offer"] is not None)
            assert offered["game"]["rematch_offer"] == "south"
            nws.send_json({"type": "rematch.accept"})
            url = until(ws, lambda m: m["type"] == "rematch")["url"]
        snap = until(pws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_url"] is not None)
    assert snap["game"]["rematch_url"] == url


# -- idle games leave memory (issue 23) ------------------------------------------------------------------------


def test_an_idle_untimed_game_leaves_memory_and_comes_back_whole(client, browsers) -> None:
    """Issue 23 (``IDLE_EVICT_S``): an untimed game in play that no socket watched for ``idle_evict_s`` leaves the
    instance's memory; a timed one and a watched one stay. Opened again, it is reloaded from the database: each
    seat sees the same version and units as before, and play goes on."""
    service = client.app.state.service
    service.options.idle_evict_s = 1.0
    with live_game(browsers) as live:
        live.act("south")
        live.act("north")
        idle, south, north = live.id, live.south, live.north
        before = {side: fingerprint(snap) for side, snap in live.snaps.items()}
    with live_game(browsers, base_ms=3_600_000) as timed:
        timed.act("south")
    with live_game(browsers) as watched:
        _wait(lambda: idle not in service.games)
        time.sleep(3 * service.options.sweep_interval_s)
        assert timed.id in service.games and watched.id in service.games
        watched.act("south")  # its socket still plays the same copy
    with south.ws(idle) as sws, north.ws(idle) as nws:
        snaps = {"south": snapshot(sws), "north": snapshot(nws)}
        assert {side: fingerprint(snap) for side, snap in snaps.items()} == before
        assert idle in service.games
        again = Live(idle, south, north, sws, nws, snaps)
        version = snaps["south"]["game"]["version"]
        again.act(snaps["south"]["view"]["to_act"])
        assert again.snaps["south"]["game"]["version"] == again.snaps["north"]["game"]["version"] == version + 1
