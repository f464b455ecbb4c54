"""Correspondence games («По переписке», issue 19): days per move, the clock over simulated days, flag fall, and the
deadline kept through a restart. The service's time source is shifted by hand (:class:`Shifted`)."""

from __future__ import annotations

import time

import pytest

from admiral.service.lobby import DAY_MS
from admiral.service.session.live import SystemTime

from .conftest import REDIS_URL, Browser, Live, RawDb, live_game, observe, ready_both, running, snapshot

HOUR_MS = 3_600_000


class Shifted(SystemTime):
    """The system's time moved ``offset_s`` seconds ahead (monotonic and wall alike): days pass in a test."""

    def __init__(self) -> None:
        self.offset_s = 0.0

    def mono(self) -> float:
        return super().mono() + self.offset_s

    def wall_ms(self) -> int:
        return super().wall_ms() + int(self.offset_s * 1000)

    def advance(self, hours: float) -> None:
        self.offset_s += hours * 3600


def _shift(browser: Browser) -> Shifted:
    now = Shifted()
    browser.client.app.state.service.now = now
    return now


def _wait_over(browser: Browser, game_id: str, timeout_s: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        snap = observe(browser, game_id)
        if snap["game"]["status"] == "over" or time.monotonic() > deadline:
            return snap
        time.sleep(0.1)


def test_correspondence_settings_and_refusals(browsers) -> None:
    """Issue 19: «По переписке» with 1, 3 or 7 days per move, for every game of the registry; other values refused."""
    b = browsers()
    for game in ("admiral", "battleship"):
        r = b.post("/games", json={"game": game, "time_control": "correspondence", "days_per_move": 7})
        assert r.status_code == 201, r.text
        snap = observe(b, r.json()["game_id"])
        assert snap["game"]["settings"]["days_per_move"] == 7
        assert snap["game"]["settings"]["base_ms"] == 7 * DAY_MS == 604_800_000
        assert snap["game"]["settings"]["increment_ms"] == 0
        assert snap["game"]["clocks"]["south_ms"] == 7 * DAY_MS
    for days in (None, 0, 2, 30, "x"):
        r = b.post("/games", json={"time_control": "correspondence", "days_per_move": days})
        assert r.status_code == 400
        assert r.json()["error"]["code"] in ("bad_settings", "bad_request")
    # against the AI too
    r = b.post("/games", json={"opponent": "ai", "ai_level": 1, "time_control": "correspondence", "days_per_move": 1})
    assert r.status_code == 201, r.text
    page = b.get("/").text
    assert 'value="correspondence"' in page and 'name="days_per_move" value="7"' in page


def test_each_move_has_its_days_and_the_flag_falls(browsers) -> None:
    """Issue 19: each move has ``days_per_move`` afresh; a move not made in time loses on time (rules §13)."""
    with live_game(browsers, time_control="correspondence", days_per_move=1) as live:
        now = _shift(live.south)
        assert live.snaps["south"]["game"]["clocks"]["running"] == "south"
        now.advance(20)
        clocks = observe(live.south, live.id)["game"]["clocks"]
        assert 4 * HOUR_MS - 2000 <= clocks["south_ms"] <= 4 * HOUR_MS  # 20 h of the day gone
        assert clocks["north_ms"] == DAY_MS
        live.act("south")
        clocks = live.snaps["north"]["game"]["clocks"]
        assert clocks["running"] == "north"
        assert DAY_MS - 2000 <= clocks["north_ms"] <= DAY_MS  # North's move has a whole day
        now.advance(23)
        live.act("north")
        clocks = live.snaps["south"]["game"]["clocks"]
        assert clocks["running"] == "south" and DAY_MS - 2000 <= clocks["south_ms"] <= DAY_MS
        now.advance(24.1)  # South lets the day pass: the sweeper ends the game
    snap = _wait_over(live.north, live.id)
    assert snap["game"]["result"] == {"winner": "north", "reason": "flag"}
    assert snap["game"]["clocks"]["south_ms"] == 0


@pytest.mark.skipif(REDIS_URL is not None, reason="a lone server's restart")
def test_restart_keeps_the_correspondence_deadline(settings) -> None:
    """A restart does not move a correspondence move's deadline (a date days away), unlike a blitz clock whose
    downtime is charged to nobody (test_clocks.py)."""
    with running(settings) as client:
        south, north = Browser(client), Browser(client)
        game_id, invite = south.create(side="south", time_control="correspondence", days_per_move=3)
        north.join(invite)
        with south.ws(game_id) as sws, north.ws(game_id) as nws:
            snapshot(sws)
            snapshot(nws)
            s, n = ready_both(sws, nws)
            live = Live(game_id, south, north, sws, nws, {"south": s, "north": n})
            live.act("south")
    con = RawDb(settings.database_url)
    stored = dict(con.execute("select * from games where id = ?", (game_id,)).fetchone())
    con.close()
    assert stored["clock_running"] == "north"
    deadline = stored["clock_started_at"] + stored["clock_north_ms"]
    time.sleep(1.5)  # downtime
    with running(settings) as client:
        started = int(time.time() * 1000)
        after = observe(Browser(client, south.token), game_id)["game"]["clocks"]
    assert after["running"] == "north"
    assert deadline - started - 200 <= after["north_ms"] <= deadline - started + 50
    assert after["north_ms"] <= 3 * DAY_MS - 1400


def test_no_claim_over_an_absent_opponent(browsers) -> None:
    """Issue 19: in a correspondence game a player is away between moves by design; the win over a disconnected
    opponent (rules §10.1) is never offered nor granted, only the move's days decide."""
    from .conftest import error, until

    with live_game(browsers, time_control="correspondence", days_per_move=1) as live:
        live.nws.close()
        snap = until(live.sws, lambda m: m["type"] == "snapshot" and not m["game"]["players"]["north"]["connected"])
        time.sleep(0.5)  # the test settings' grace is 0.2 s
        assert observe(live.south, live.id)["game"]["can_claim"] is False
        live.sws.send_json({"type": "claim"})
        refused = error(live.sws)
        assert refused["code"] == "cannot_claim" and "по переписке" in refused["message"]
        assert observe(live.south, live.id)["game"]["status"] == "play"
        assert snap["game"]["version"] == observe(live.south, live.id)["game"]["version"]
