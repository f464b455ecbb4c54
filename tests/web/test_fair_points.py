"""Fair points and the rating (issue 19; PROGRESSION.md §2, §4): each farming pattern of the issue earns nothing
more than §2 gives, unrated games say why, and a rated game between two registered commanders moves both ratings
once, shown in the result and beside the nicknames."""

from __future__ import annotations

import time
from typing import Any

import pytest

from admiral.games.battleship.rules import setup_from_text
from admiral.web.config import Settings

from .conftest import Browser, RawDb, live_game, make_settings, snapshot, until
from .test_accounts import PASSWORD, Person, register

#: «Морской бой», both fleets alike (as tests/web/test_progress.py).
FLEET = setup_from_text("4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6")
#: Two turns each (a hit shoots again): the game counts, then the second shooter resigns.
OPENING = [("first", c) for c in ("a1", "a2", "j10")] + [("second", "j9")] + [
    ("first", c) for c in ("a3", "a4", "j8")
] + [("second", c) for c in ("a1", "a2", "j7")]  # fmt: skip


@pytest.fixture
def settings(db_url: str) -> Settings:
    """Test settings whose sockets may send as fast as the server answers."""
    return make_settings(db_url, ws_max_rate=1000)


def quiet_moves(live: Any, each: int) -> None:
    """Each side makes ``each`` plain moves (no attack), in turn, starting with the side to act."""
    for _ in range(2 * each):
        side = live.snaps["south"]["view"]["to_act"]
        move = next(a for a in live.snaps[side]["view"]["legal"] if a["type"] == "move")
        live.act(side, move["notation"])


def credited(ws: Any) -> dict:
    """The seat's first snapshot once the game is credited."""
    return until(ws, lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None, 80)


def credit_of(ws: Any) -> dict:
    """The seat's ``game.credit`` once the game is credited."""
    return credited(ws)["game"]["credit"]


def battleship(south: Browser, north: Browser, *, rated: bool = False) -> dict[str, Any]:
    """A classic «Морской бой» (South creates, North joins), the :data:`OPENING`, then the second shooter resigns.
    :returns: ``{"id", "winner", "credit": side → credit, "players": side → the last snapshot's players}``."""
    game_id, invite = south.create(side="south", game="battleship", options={"rules": "classic"}, rated=rated)
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        for ws in wss.values():
            snapshot(ws)
            ws.send_json({"type": "setup.ready", "setup": FLEET})
        snaps = {side: snapshot(ws, status="play") for side, ws in wss.items()}
        first = snaps["south"]["view"]["to_act"]
        roles = {"first": first, "second": "north" if first == "south" else "south"}
        for role, cell in OPENING:
            side = roles[role]
            version = snaps[side]["game"]["version"]
            wss[side].send_json({"type": "action", "ply": version, "action": cell})
            for s, ws in wss.items():
                snaps[s] = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)
        wss[roles["second"]].send_json({"type": "resign"})
        last = {side: credited(ws) for side, ws in wss.items()}
    credit = {side: snap["game"]["credit"] for side, snap in last.items()}
    players = {side: snap["game"]["players"] for side, snap in last.items()}
    return {"id": game_id, "winner": roles["first"], "credit": credit, "players": players}


# PROGRESSION.md §2 (engagement): a 1+0 game lost on time after two moves each paid 156–345 points; now
# the winner (184 preserved + 50 bases + 100 win) × 2/40 = 16.7 → 17, the loser (184 + 50) × 2/40 = 11.7 → 12
def test_a_game_lost_on_time_after_two_moves_each_pays_little(browsers) -> None:
    with live_game(browsers, base_ms=1500, increment_ms=0) as live:
        first = live.snaps["south"]["view"]["to_act"]
        quiet_moves(live, 2)
        snap = snapshot(live.sws, status="over")  # the first mover's clock runs out
        other = "north" if first == "south" else "south"
        assert snap["game"]["result"] == {"winner": other, "reason": "flag"}
        credit = {"south": credit_of(live.sws), "north": credit_of(live.nws)}
    assert credit[first]["points"] == 12 and credit[first]["counted"]
    assert credit[other]["points"] == 17 and credit[other]["counted"]


# PROGRESSION.md §2: a player who disconnects and whose opponent claims the win gets 0 (still a loss); the claimant
# gets its engagement's share: (184 + 50 + 100) × 2/40 = 16.7 → 17 (before issue 19 the one who left got 213)
def test_abandoning_gets_nothing(browsers, settings) -> None:
    with live_game(browsers) as live:
        quiet_moves(live, 2)
        live.nws.close()
        time.sleep(0.3)  # the test settings' grace is 0.2 s
        until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["can_claim"])
        live.sws.send_json({"type": "claim"})
        snap = snapshot(live.sws, status="over")
        assert snap["game"]["result"] == {"winner": "south", "reason": "abandonment"}
        assert credit_of(live.sws)["points"] == 17
        game_id, north = live.id, live.north
    with north.ws(game_id) as ws:
        gone = credit_of(ws)
    assert gone["counted"] and gone["points"] == 0 and gone["total_points"] == 0
    db = RawDb(settings.database_url)
    try:
        row = db.execute("SELECT losses, points FROM commander_games WHERE game = 'admiral' AND losses = 1").fetchone()
        assert (row["losses"], row["points"]) == (1, 0)  # still a loss
    finally:
        db.close()


# PROGRESSION.md §2: two browsers on one address, game after game: three count, the 4th and later pay 0 and say why
def test_two_browsers_on_one_address_earn_nothing_from_the_fourth_game(client, settings) -> None:
    a, b = Browser(client), Browser(client)
    games = [battleship(a, b) for _ in range(5)]
    for n, game in enumerate(games, 1):
        won = game["credit"][game["winner"]]
        if n <= 3:
            assert won["counted"] and won["points"] == 22 and "unrated" not in won  # tests/web/test_progress.py
        else:
            assert won == {**won, "counted": False, "points": 0, "unrated": ["repeated"]}
            assert won["total_points"] == sum(22 for g in games[:3] if g["winner"] == game["winner"])
    db = RawDb(settings.database_url)
    try:
        rows = db.execute("SELECT games, points FROM commander_games WHERE game = 'battleship'").fetchall()
        assert sorted(r["games"] for r in rows) == [3, 3]  # the unrated games are not in the careers
        assert sum(r["points"] for r in rows) == 66
    finally:
        db.close()


# PROGRESSION.md §2: a game whose two seats were taken from one browser (a guest, then logged in as another
# commander on the same browser) earns nothing
def test_one_browser_in_both_seats_earns_nothing(client) -> None:
    owner = Person(client)
    register(owner)
    guest = Person(client)
    logged = Person(client, token=guest.token)  # the same browser, logged in as the registered commander
    logged.submit("/login", login="nemo@example.org", password=PASSWORD)
    game = battleship(guest, logged)
    for credit in game["credit"].values():
        assert credit["counted"] is False and credit["points"] == 0 and credit["unrated"] == ["same_browser"]


# PROGRESSION.md §2: one commander in both seats earns nothing (no points, no career), the reason stored
def test_one_commander_in_both_seats_earns_nothing(client, settings) -> None:
    a, b = Browser(client), Browser(client)
    game = battleship(a, b)
    service = client.app.state.service
    g = service.get(game["id"])
    stats = g.rules.game_stats(g.game)
    db = RawDb(settings.database_url)
    try:
        with db:
            db.execute("DELETE FROM game_results WHERE game_id = ?", (game["id"],))
    finally:
        db.close()
    me = service.progress.store.by_key(g.seats["south"].browser_hash)
    before = me.points
    got = service.progress.credit(game["id"], g.rules, stats, {"south": me.key, "north": me.key}, {}, rated=True)
    assert {side: (c["counted"], c["points"], c["unrated"]) for side, c in got.items()} == {
        "south": (False, 0, ["same_commander"]), "north": (False, 0, ["same_commander"]),
    }  # fmt: skip
    assert service.progress.store.by_key(me.key).points == before


# PROGRESSION.md §4: a rated game between two registered commanders moves both ratings once (1500/350 each: the
# winner 1662, the loser 1338), shown in the result (+162 / −162) and beside the nicknames («1662?»)
def test_a_rated_game_moves_both_ratings_once(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    game = battleship(nemo, sinbad, rated=True)
    winner = game["winner"]
    loser = "north" if winner == "south" else "south"
    assert game["credit"][winner]["rating"] == {
        "before": 1500, "after": 1662, "delta": 162, "rd": 290, "provisional": True, "games": 1
    }  # fmt: skip
    assert game["credit"][loser]["rating"]["after"] == 1338 and game["credit"][loser]["rating"]["delta"] == -162
    assert game["players"]["south"][winner]["rating"] == {"rating": 1662, "rd": 290, "provisional": True, "games": 1}
    service, store = client.app.state.service, client.app.state.accounts.store
    g = service.get(game["id"])
    service._credit(g)  # another end trigger, a reload: rated once
    assert service.progress.rate(game["id"], g.rules, g.rules.game_stats(g.game), {
        s: g.seats[s].browser_hash for s in ("south", "north")
    }, {}) is None  # fmt: skip
    keys = {s: g.seats[s].browser_hash for s in ("south", "north")}
    ratings = store.ratings_for([*keys.values(), "unknown-key"], "battleship")
    assert round(ratings[keys[winner]].rating) == 1662 and ratings[keys[winner]].games == 1
    assert ratings[keys[winner]].provisional and ratings["unknown-key"].rating == 1500
    assert store.ratings_for(keys.values(), "admiral")[keys[winner]].games == 0


# PROGRESSION.md §4: a game is rated only between registered commanders who asked for it
def test_guests_and_casual_games_are_not_rated(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    casual = battleship(nemo, sinbad, rated=False)
    assert all("rating" not in c and c["counted"] for c in casual["credit"].values())
    guest = battleship(Browser(client), nemo, rated=True)
    assert all("rating" not in c for c in guest["credit"].values())
    assert client.app.state.accounts.store.rated(guest["id"]) == {}


# PROGRESSION.md §2: a seat keeps only keyed hashes of the browser and the address
def test_seats_keep_no_clear_token_or_address(client, settings) -> None:
    a, b = Browser(client), Browser(client)
    game_id, invite = a.create(side="south")
    b.join(invite)
    db = RawDb(settings.database_url)
    try:
        rows = db.execute("SELECT browser_key, address_key FROM game_seats WHERE game_id = ?", (game_id,)).fetchall()
    finally:
        db.close()
    keys = [r["browser_key"] for r in rows]
    assert len(set(keys)) == 2 and all(len(k) == 32 for k in keys)
    assert a.token not in keys and b.token not in keys
    assert len({r["address_key"] for r in rows}) == 1 and rows[0]["address_key"] != "testclient"


# PROGRESSION.md §4: the profile shows the rating per game («?» while provisional) and its chart drawn by the server
# (an SVG polyline); the leaderboard's second table lists those with 10 rated games and RD ≤ 110
def test_profile_chart_and_rating_table(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    game = battleship(nemo, sinbad, rated=True)
    winner = nemo if game["winner"] == "south" else sinbad
    page = winner.get("/profile").text
    assert '<strong data-stat="battleship.rating">1662?</strong>' in page
    # from the start (1500) to the rating after the game: a line, not a lone dot (QA)
    assert '<svg class="rating-chart"' in page and '<polyline class="line" points="40.0,120.0 312.0,29.1"' in page
    public = Person(client).get("/c/Синдбад").text
    assert 'data-stat="battleship.rating"' in public
    board = Person(client).get("/leaders?game=battleship").text
    assert 'data-rating-game="battleship"' in board and "Пока никого" in board  # 1 rated game, RD 290
    store = client.app.state.accounts.store
    key = store.by_email("nemo@example.org").id
    from admiral.store.models import CommanderRatingRow

    with store.sessions.begin() as s:  # a settled rating: 12 rated games, RD 80
        row = s.get(CommanderRatingRow, (key, "battleship"))
        row.games, row.rd, row.rating = 12, 80.0, 1720.4
    board = Person(client).get("/leaders?game=battleship").text
    assert '<td title="RD 80">1720</td><td>12</td>' in board and "Синдбад</a></td><td title" not in board
    assert 'data-rating-game="admiral"' in Person(client).get("/leaders").text


# PROGRESSION.md §4: the friend form offers «Рейтинговая партия», checked for a registered commander, disabled for
# a guest (with a note)
def test_friend_form_rated_checkbox(client) -> None:
    guest = Person(client).get("/").text
    assert '<input type="checkbox" name="rated" value="on" disabled>' in guest
    assert "Только для зарегистрированных командиров" in guest
    nemo = Person(client)
    register(nemo)
    assert '<input type="checkbox" name="rated" value="on" checked>' in nemo.get("/").text


# PROGRESSION.md §2: the rematch keeps who took each seat (the same browsers and addresses, sides swapped), so a
# rematch cannot launder one browser into two
def test_the_rematch_keeps_the_seats_browser_and_address(browsers, settings) -> None:
    with live_game(browsers) as live:
        live.sws.send_json({"type": "resign"})
        snapshot(live.nws, status="over")
        live.nws.send_json({"type": "rematch"})
        until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_offer"] == "north")
        live.sws.send_json({"type": "rematch.accept"})
        new_id = until(live.nws, lambda m: m["type"] == "rematch")["url"].removeprefix("/g/")
        game_id = live.id
    db = RawDb(settings.database_url)
    try:
        marks = {
            (r["game_id"], r["side"]): (r["browser_key"], r["address_key"])
            for r in db.execute(
                "SELECT game_id, side, browser_key, address_key FROM game_seats WHERE game_id IN (?, ?)",
                (game_id, new_id),
            ).fetchall()
        }
    finally:
        db.close()
    assert (
        marks[(new_id, "south")] == marks[(game_id, "north")] and marks[(new_id, "north")] == marks[(game_id, "south")]
    )
    assert all(b is not None and a is not None for b, a in marks.values())


# PROGRESSION.md §2: a game against the AI is never unrated (its opponent factor pays less)
def test_a_game_against_the_ai_is_never_unrated(client) -> None:
    progress = client.app.state.service.progress
    assert progress.unrated_reasons("nogame", {"south": "k", "north": "bot:3"}, {"south": None, "north": 3}) == []
    assert progress.unrated_reasons("nogame", {"south": "k", "north": "k"}, {}) == ["same_commander"]


# PROGRESSION.md §4: a guest's game is casual whatever the request says; a registered commander's keeps its choice
def test_a_guests_game_is_never_marked_rated(client) -> None:
    guest = Browser(client)
    game_id, _invite = guest.create(side="south", rated=True)
    assert client.app.state.service.get(game_id).settings.rated is False
    nemo = Person(client)
    register(nemo)
    game_id, _invite = nemo.create(side="south", rated=True)
    assert client.app.state.service.get(game_id).settings.rated is True


# QA (issue 19): a finished game loaded afresh from the database (a restart, an evicted copy) names its
# commanders and their ratings to a stranger opening its replay — it showed «Гость» for both
def test_a_game_loaded_afresh_names_its_commanders_to_a_stranger(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    game = battleship(nemo, sinbad, rated=True)
    del client.app.state.service.games[game["id"]]
    with Browser(client).ws(game["id"]) as ws:
        players = snapshot(ws)["game"]["players"]
    assert {players[s]["name"] for s in ("south", "north")} == {"Капитан Немо", "Синдбад"}
    assert sorted(players[s]["rating"]["rating"] for s in ("south", "north")) == [1338, 1662]
