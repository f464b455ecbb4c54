"""Open challenges, quick pairing, the lobby socket and «Сейчас играют» over the real app (issue 19; docs/protocol.md
"Lobby"): every rule and race of the lobby, and the bad input it must refuse without changing anything."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from admiral.service import ServiceError, hash_token
from admiral.web import Settings

from .conftest import Browser, RawDb, close_code, make_settings, snapshot, until
from .test_accounts import PASSWORD, Person, register


@pytest.fixture
def settings(db_url: str) -> Settings:
    return make_settings(db_url, rate_challenges="1000/minute")


def lobby(browser: Browser, **kw: Any):
    """Open ``browser``'s lobby socket."""
    headers = {**browser.headers, **kw.pop("headers", {})}
    return browser.client.websocket_connect("/ws/lobby", headers=headers, **kw)


def first(ws: Any) -> dict:
    """The socket's first message: the whole lobby."""
    msg = ws.receive_json()
    assert msg["type"] == "lobby"
    return msg


def challenge(browser: Browser, **body: Any) -> str:
    """Create an open challenge (JSON); its id."""
    r = browser.post("/games", json={"listing": "open", "time_control": "5+3", **body})
    assert r.status_code == 201, r.text
    assert r.json()["listed"] is True and r.json()["invite_url"] is None
    return r.json()["game_id"]


def added(ws: Any, game_id: str) -> dict:
    """The delta that adds ``game_id`` to the list; its entry."""
    msg = until(ws, lambda m: m["type"] == "challenges" and any(e["id"] == game_id for e in m["add"]))
    return next(e for e in msg["add"] if e["id"] == game_id)


def removed(ws: Any, game_id: str) -> None:
    until(ws, lambda m: m["type"] == "challenges" and game_id in m["remove"])


def status_of(settings: Settings, game_id: str) -> str:
    db = RawDb(settings.database_url)
    try:
        return db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()["status"]
    finally:
        db.close()


def registered(client, nickname: str, email: str) -> Person:
    p = Person(client)
    p.get("/")
    assert register(p, nickname=nickname, email=email).status_code == 303
    assert p.session
    return p


def test_a_challenge_appears_on_every_lobby_and_is_marked_as_its_creators(client, browsers, settings) -> None:
    """Issue 19 «Вызовы»: the list shows game, rule set, time control, rated or not, the creator (or «Гость») and
    age; a creator finds their own by ``by == me``; a new one arrives as a delta."""
    a, b = browsers(), browsers()
    old = challenge(a, game="battleship", options={"rules": "hasbro", "salvo": True})
    with lobby(a) as wa, lobby(b) as wb:
        mine, theirs = first(wa), first(wb)
        [entry] = theirs["challenges"]
        assert entry["id"] == old and entry["game"] == "battleship" and entry["room"] == ["Hasbro", "Залп"]
        assert entry["time_control"] == "5+3" and entry["base_ms"] == 300_000 and entry["increment_ms"] == 3000
        assert entry["rated"] is False and entry["player"] == {"guest": True} and entry["url"] == f"/g/{old}"
        assert abs(entry["created"] - theirs["now"]) < 10_000
        assert entry["by"] == mine["me"] != theirs["me"]
        new = challenge(b, time_control="10+5")
        got = added(wa, new)
        assert got["game"] == "admiral" and got["time_control"] == "10+5" and got["by"] == theirs["me"]
        assert added(wb, new)["id"] == new


def test_accepting_starts_the_game_and_tells_the_creator(client, browsers, settings) -> None:
    """One click: the acceptor is sent to the game, every lobby socket of the creator gets ``accepted`` with its URL,
    the challenge leaves every list and the game goes to the setup with both seats held."""
    a, b, c = browsers(), browsers(), browsers()
    game_id = challenge(a)
    with lobby(a) as wa, lobby(a) as wa2, lobby(b) as wb, lobby(c) as wc:
        for ws in (wa, wa2, wb, wc):
            first(ws)
        wb.send_json({"type": "accept", "id": game_id})
        assert until(wb, lambda m: m["type"] == "go") == {"type": "go", "url": f"/g/{game_id}"}
        for ws in (wa, wa2):
            assert until(ws, lambda m: m["type"] == "accepted") == {"type": "accepted", "id": game_id,
                                                                    "url": f"/g/{game_id}"}  # fmt: skip
        removed(wc, game_id)
        # too late: the third one is told, and nothing changes
        wc.send_json({"type": "accept", "id": game_id})
        assert until(wc, lambda m: m["type"] == "error")["code"] == "challenge_gone"
    assert status_of(settings, game_id) == "setup"
    with b.ws(game_id) as ws:
        assert snapshot(ws)["game"]["seat"] in ("south", "north")
    with c.ws(game_id) as ws:
        assert snapshot(ws)["game"]["seat"] is None
    assert_seats_marked(settings, game_id, a, b)


def test_refusals_change_nothing(client, browsers, settings) -> None:
    """Issue 19 bad input: one's own challenge, a forged id, a friend game's id (never claimable from the lobby),
    cancelling another's; garbage and unknown types; each a clear error, the socket stays open."""
    a, b = browsers(), browsers()
    game_id = challenge(a)
    friend_game, _invite = b.create(side="south")
    with lobby(a) as wa, lobby(b) as wb:
        first(wa), first(wb)
        wa.send_json({"type": "accept", "id": game_id})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "own_challenge"
        wa.send_json({"type": "accept", "id": friend_game})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "challenge_gone"
        wa.send_json({"type": "accept", "id": "nope-nope"})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "challenge_gone"
        wb.send_json({"type": "cancel", "id": game_id})
        assert until(wb, lambda m: m["type"] == "error")["code"] == "not_yours"
        wb.send_text("{not json")
        assert until(wb, lambda m: m["type"] == "error")["code"] == "bad_json"
        wb.send_json({"type": "warp"})
        assert until(wb, lambda m: m["type"] == "error")["code"] == "unknown_type"
        wb.send_json({"type": "accept", "id": "x" * 40})
        err = until(wb, lambda m: m["type"] == "error")
        assert err["code"] == "bad_message" and err["detail"]["fields"] == ["id"]
        wb.send_json({"type": "ping"})
        assert until(wb, lambda m: m["type"] == "pong") == {"type": "pong"}
    assert status_of(settings, game_id) == "waiting" and status_of(settings, friend_game) == "waiting"


def test_cancel_takes_it_off_every_list(client, browsers, settings) -> None:
    a, b = browsers(), browsers()
    game_id = challenge(a)
    with lobby(a) as wa, lobby(b) as wb:
        first(wa), first(wb)
        wa.send_json({"type": "cancel", "id": game_id})
        assert until(wa, lambda m: m["type"] == "cancelled") == {"type": "cancelled", "id": game_id}
        removed(wb, game_id)
    assert status_of(settings, game_id) == "aborted"
    with lobby(b) as wb:
        assert first(wb)["challenges"] == []


def test_two_accepts_at_once_exactly_one_wins(client, browsers, settings) -> None:
    """Issue 19: two accepts at the same moment: exactly one takes the seat (the claim is one conditional
    UPDATE under the game's lock); the other gets a clear refusal."""
    service = client.app.state.service
    for n in range(5):
        a = browsers()
        game_id = challenge(a)
        keys = [f"{n}{i}" * 32 for i in (1, 2, 3)]  # fresh ones each round: the winner has just entered a game

        async def race(ids=keys, gid=game_id) -> list[Any]:
            tries = [service.accept_challenge(gid, k, guest=True) for k in ids]
            return await asyncio.gather(*tries, return_exceptions=True)

        results = client.portal.call(race)
        won = [r for r in results if isinstance(r, tuple)]
        lost = [r for r in results if isinstance(r, ServiceError)]
        assert len(won) == 1 and len(lost) == 2, results
        assert {e.code for e in lost} <= {"challenge_taken", "challenge_gone"}
        g = client.portal.call(service.current, game_id)
        assert g.status == "setup" and sum(s.browser_hash in keys for s in g.seats.values()) == 1


def test_rated_challenges_are_for_registered_commanders(client, browsers, settings) -> None:
    """PROGRESSION.md §4: a guest can neither create nor accept a rated challenge; a registered commander's entry
    shows nickname, rank and rating (1500 «?» until the rating engineer's ratings_for says otherwise)."""
    guest = browsers()
    r = guest.post("/games", json={"listing": "open", "time_control": "5+3", "rated": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "guest_rated"
    nemo = registered(client, "Немо", "nemo@example.org")
    game_id = challenge(nemo, rated=True)
    with lobby(guest) as wg:
        [entry] = first(wg)["challenges"]
        assert entry["rated"] is True
        assert entry["player"]["name"] == "Немо" and entry["player"]["rating"] == 1500
        assert entry["player"]["provisional"] is True and entry["player"]["rank"]["number"] >= 1
        wg.send_json({"type": "accept", "id": game_id})
        assert until(wg, lambda m: m["type"] == "error")["code"] == "guest_rated"
    assert status_of(settings, game_id) == "waiting"
    flint = registered(client, "Флинт", "flint@example.org")
    with lobby(flint) as wf:
        first(wf)
        wf.send_json({"type": "accept", "id": game_id})
        assert until(wf, lambda m: m["type"] == "go")["url"] == f"/g/{game_id}"


def test_a_challenge_whose_creator_left_is_aborted(client, browsers, settings) -> None:
    """The creator «leaves» when no socket of theirs was seen for 20 s: the sweep aborts the challenge and every
    list drops it; a creator with the lobby open keeps theirs."""
    a, b, c, d = browsers(), browsers(), browsers(), browsers()
    gone, kept, on_page = challenge(a), challenge(c), challenge(d)
    db = RawDb(settings.database_url)
    with db:
        db.execute("UPDATE games SET creator_seen_at = 1000 WHERE id IN (?, ?, ?)", (gone, kept, on_page))
    db.close()
    room = client.app.state.lobby
    # c waits on the home page (a lobby socket), d on the challenge's own game page (its game socket)
    with lobby(b) as wb, lobby(c) as wc, d.ws(on_page) as wd:
        first(wb), first(wc), snapshot(wd)
        client.portal.call(room.heartbeat)
        removed(wb, gone)
    assert status_of(settings, gone) == "aborted"
    assert status_of(settings, kept) == status_of(settings, on_page) == "waiting"


def test_challenge_flood_from_one_address_is_rate_limited(db_url: str) -> None:
    from .conftest import running

    with running(make_settings(db_url, rate_challenges="2/minute")) as client:
        a = Browser(client)
        challenge(a)
        challenge(a)
        r = a.post("/games", json={"listing": "open", "time_control": "5+3"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        with lobby(Browser(client)) as ws:
            assert len(first(ws)["challenges"]) == 2


def test_at_most_three_open_challenges_each(client, browsers, settings) -> None:
    a = browsers()
    for _ in range(3):
        challenge(a)
    r = a.post("/games", json={"listing": "open", "time_control": "5+3"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_challenges"


def test_the_form_makes_an_open_challenge_and_goes_home(client, browsers, settings) -> None:
    """The friend form's choice «Открытый вызов»: back to the home page, where the list shows it."""
    a = browsers()
    a.get("/")
    form = {"opponent": "friend", "listing": "open", "game": "admiral", "time_control": "10+5", "setup_minutes": "5"}
    r = a.post("/games", data=form)
    assert r.status_code == 303 and r.headers["location"] == "/?game=admiral#challenges"
    page = a.get("/").text
    assert 'value="open"' in page and "Открытый вызов" in page and 'id="challenges"' in page
    with lobby(a) as ws:
        [entry] = first(ws)["challenges"]
        assert entry["time_control"] == "10+5"
    r = a.post("/games", data={**form, "opponent": "ai", "ai_level": "1"})
    assert r.status_code == 400


def assert_seats_marked(settings: Settings, game_id: str, *people: Browser) -> None:
    """Both seats keep the keyed marks of the browser and address they were taken from (PROGRESSION.md §2's
    unrated games: one browser, or one address game after game), whichever way into the game was used."""
    db = RawDb(settings.database_url)
    rows = list(db.execute("SELECT browser_key, address_key FROM game_seats WHERE game_id = ?", (game_id,)))
    db.close()
    assert sorted(r["browser_key"] for r in rows) == sorted(browser_key(settings, p.token) for p in people)
    assert len({r["address_key"] for r in rows}) == 1 and rows[0]["address_key"] is not None  # one test client


def browser_key(settings: Settings, token: str) -> str:
    """``GameService.browser_key`` under ``settings``' secret key."""
    return hmac.new(settings.secret_key.encode(), f"browser:{token}".encode(), hashlib.sha256).hexdigest()[:32]


def test_quick_pairing_pairs_two_close_players(client, browsers, settings) -> None:
    """Quick pairing: two waiting players of the same game, time control and rated-ness are paired at once (their
    ratings are within ±100); each socket gets ``paired`` with the same game, where both hold a seat."""
    a, b, c = browsers(), browsers(), browsers()
    with lobby(a) as wa, lobby(b) as wb, lobby(c) as wc:
        first(wa), first(wb), first(wc)
        wc.send_json({"type": "pair", "game": "battleship", "time_control": "5+3", "rated": False})
        until(wc, lambda m: m["type"] == "seeking")
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "5+3", "rated": False})
        assert until(wa, lambda m: m["type"] == "seeking")["seek"] == {"game": "admiral", "time_control": "5+3",
                                                                      "rated": False}  # fmt: skip
        wb.send_json({"type": "pair", "game": "admiral", "time_control": "5+3"})
        url = until(wa, lambda m: m["type"] == "paired")["url"]
        assert until(wb, lambda m: m["type"] == "paired")["url"] == url
        game_id = url.removeprefix("/g/")
        g = client.portal.call(client.app.state.service.current, game_id)
        assert g.status == "setup" and g.settings.time_control == "5+3" and g.settings.game == "admiral"
        assert {s.browser_hash for s in g.seats.values()} == {hash_token(a.token), hash_token(b.token)}
        # the battleship seeker is still waiting, alone
        db = RawDb(settings.database_url)
        assert [r["game"] for r in db.execute("SELECT game FROM lobby_seeks")] == ["battleship"]
        db.close()
    assert_seats_marked(settings, game_id, a, b)


def test_pairing_refusals_and_leaving_the_pool(client, browsers, settings) -> None:
    """A guest pairs casual only; a time control the game does not pair is refused; ``unpair`` and a closed
    socket take the seek out of the pool."""
    a = browsers()
    with lobby(a) as wa:
        first(wa)
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "5+3", "rated": True})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "guest_rated"
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "30+0"})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "bad_settings"
        wa.send_json({"type": "pair", "game": "chess", "time_control": "5+3"})
        assert until(wa, lambda m: m["type"] == "error")["code"] == "unknown_game"
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        until(wa, lambda m: m["type"] == "seeking")
        wa.send_json({"type": "unpair"})
        assert until(wa, lambda m: m["type"] == "seeking")["seek"] is None
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        until(wa, lambda m: m["type"] == "seeking" and m["seek"])
    db = RawDb(settings.database_url)
    for _ in range(50):
        if not db.execute("SELECT key FROM lobby_seeks").fetchall():
            break
        time.sleep(0.05)
    assert db.execute("SELECT key FROM lobby_seeks").fetchall() == []
    db.close()


def test_live_games_list_games_in_play_with_clocks(client, browsers, settings) -> None:
    """«Сейчас играют»: a game in play with both commanders and both clocks (remaining ms, which runs)."""
    from .conftest import live_game

    with live_game(browsers, base_ms=300_000, increment_ms=3000) as live:
        b = browsers()
        client.portal.call(client.app.state.lobby.refresh_live)
        with lobby(b) as wb:
            games = first(wb)["live"]
            [game] = [x for x in games if x["id"] == live.id]
            assert game["url"] == f"/g/{live.id}" and game["players"] == {"south": {"guest": True},
                                                                          "north": {"guest": True}}  # fmt: skip
            assert game["clock"]["running"] == "south" and 290_000 < game["clock"]["south"] <= 300_000
            assert game["clock"]["north"] == 300_000
            live.act("south")
            client.portal.call(client.app.state.lobby.refresh_live)
            msg = until(wb, lambda m: m["type"] == "live")
            [game] = [x for x in msg["games"] if x["id"] == live.id]
            assert game["clock"]["running"] == "north" and game["ply"] >= 1


def test_lobby_socket_budgets(client, browsers, settings) -> None:
    """Budgets as lila's lobby: a flood closes the socket (1008), an oversized frame 1009, a foreign origin is
    refused at the handshake, and one browser has at most ``lobby_max_per_browser`` lobby sockets."""
    a = browsers()
    with lobby(a) as ws:
        first(ws)
        for _ in range(settings.lobby_max_rate + 2):
            ws.send_json({"type": "ping"})
        assert close_code(ws) == 1008
    with lobby(a) as ws:
        first(ws)
        ws.send_text("x" * (settings.lobby_max_frame + 1))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "too_big"
        assert close_code(ws) == 1009
    with pytest.raises(WebSocketDisconnect), lobby(a, headers={"origin": "https://evil.example"}) as ws:
        ws.receive_json()
    with contextlib.ExitStack() as stack:
        for _ in range(settings.lobby_max_per_browser):
            first(stack.enter_context(lobby(a)))
        with lobby(a) as extra:
            assert extra.receive_json()["code"] == "too_many_tabs"
            assert close_code(extra) == 1008


def test_a_lost_bus_event_is_made_good_by_the_re_read(client, browsers, settings) -> None:
    """Pub/sub may drop messages: the instance's copy is re-read from the database (every 30 s, at start, after a
    Redis reconnect), and the differences go to the sockets as ordinary deltas."""
    a, b = browsers(), browsers()
    room = client.app.state.lobby
    kept, gone = challenge(a), challenge(a)
    with lobby(b) as wb:
        assert {e["id"] for e in first(wb)["challenges"]} == {kept, gone}
        db = RawDb(settings.database_url)
        with db:  # as if another instance's events were lost: one aborted, one listed behind the copy's back
            db.execute("UPDATE games SET status = 'aborted' WHERE id = ?", (gone,))
        db.close()
        room.challenges.pop(kept)
        client.portal.call(room.reread)
        msg = until(wb, lambda m: m["type"] == "challenges" and m["remove"])
        assert [e["id"] for e in msg["add"]] == [kept] and msg["remove"] == [gone]


def test_rated_pairing_waits_for_close_ratings_then_widens(client, browsers, settings) -> None:
    """Quick pairing's window (docs/protocol.md "Quick pairing"): two registered commanders 300 apart are not paired
    at once (±100), and are once both have waited 30 s (any rating); the game is rated. Their ratings are the stored
    Glicko-2 ones (``commander_ratings``, read through ``AccountStore.ratings_for``)."""
    nemo = registered(client, "Немо", "nemo@example.org")
    flint = registered(client, "Флинт", "flint@example.org")
    room = client.app.state.lobby
    db = RawDb(settings.database_url)
    with db:
        for nickname, rating in (("Немо", 1500.0), ("Флинт", 1800.0)):
            db.execute(
                "INSERT INTO commander_ratings (commander_id, game, rating, rd, volatility, games, updated_at) "
                "SELECT id, 'admiral', ?, 60.0, 0.06, 30, '2026-12-01' FROM commanders WHERE nickname = ?",
                (rating, nickname),
            )
    with lobby(nemo) as wn, lobby(flint) as wf:
        first(wn), first(wf)
        for ws in (wn, wf):
            ws.send_json({"type": "pair", "game": "admiral", "time_control": "10+5", "rated": True})
            until(ws, lambda m: m["type"] == "seeking" and m["seek"])
        rows = {r["rating"]: r for r in db.execute("SELECT key, rating, rated FROM lobby_seeks")}
        assert set(rows) == {1500, 1800} and all(r["rated"] for r in rows.values())
        client.portal.call(room.pair)
        assert len(db.execute("SELECT key FROM lobby_seeks").fetchall()) == 2  # 300 apart: not yet
        with db:
            db.execute("UPDATE lobby_seeks SET joined_at = joined_at - 30000")
        db.close()
        client.portal.call(room.pair)
        url = until(wn, lambda m: m["type"] == "paired")["url"]
        assert until(wf, lambda m: m["type"] == "paired")["url"] == url
    g = client.portal.call(client.app.state.service.current, url.removeprefix("/g/"))
    assert g.settings.rated is True and g.settings.time_control == "10+5"


def seeks_in_pool(settings: Settings) -> list[str]:
    db = RawDb(settings.database_url)
    try:
        return [r["key"] for r in db.execute("SELECT key FROM lobby_seeks")]
    finally:
        db.close()


def test_a_guest_who_registers_keeps_their_challenge(client, browsers, settings) -> None:
    """QA issue 19 (u8, t13c/d): a guest with an open challenge registers (their games move to a new identity):
    the challenge is the commander's at once — on the home tab open since before (the whole list again, with the
    new ``me``), on a tab opened after, and on everyone else's list (their nickname and rating, no «Гость»); they
    cannot accept it, they can cancel it, and it stays while they are on the site (the creator-gone sweep sees
    their sockets under the new identity)."""
    guest, other = Person(client), browsers()
    guest.get("/")
    game_id = challenge(guest)
    with lobby(guest) as old_tab, lobby(other) as wo:
        full = first(old_tab)
        first(wo)
        assert [(e["id"], e["by"]) for e in full["challenges"]] == [(game_id, full["me"])]
        assert register(guest, nickname="Новобранец", email="recruit@example.org").status_code == 303
        entry = added(wo, game_id)
        if entry["player"].get("guest"):  # the add of its making, flushed late: the new entry follows
            entry = added(wo, game_id)
        assert entry["player"]["name"] == "Новобранец" and not entry["player"].get("guest")
        again = until(old_tab, lambda m: m["type"] == "lobby")
        assert again["registered"] is True and again["me"] != full["me"]
        mine = next(e for e in again["challenges"] if e["id"] == game_id)
        assert mine["by"] == again["me"]  # its own at once; the nickname follows with the re-read
        while mine["player"].get("guest"):
            mine = added(old_tab, game_id)
        assert mine["by"] == again["me"] and mine["player"]["name"] == "Новобранец"
        with lobby(guest) as new_tab:
            full = first(new_tab)
            mine = next(e for e in full["challenges"] if e["id"] == game_id)
            assert mine["by"] == full["me"] and mine["player"]["name"] == "Новобранец"
            new_tab.send_json({"type": "accept", "id": game_id})
            assert until(new_tab, lambda m: m["type"] == "error")["code"] == "own_challenge"
            # long unseen in the database, yet here: the sweep keeps it
            db = RawDb(settings.database_url)
            with db:
                db.execute("UPDATE games SET creator_seen_at = 1000 WHERE id = ?", (game_id,))
            db.close()
            client.portal.call(client.app.state.lobby.heartbeat)
            assert status_of(settings, game_id) == "waiting"
            new_tab.send_json({"type": "cancel", "id": game_id})
            assert until(new_tab, lambda m: m["type"] == "cancelled")["id"] == game_id
    assert status_of(settings, game_id) == "aborted"


def test_a_guest_who_logs_in_leaves_their_challenges_and_seek(client, browsers, settings) -> None:
    """A guest with an open challenge and a seek logs in to an existing account: the guest's challenge is
    withdrawn (nobody in that browser could take its seat any more: the browser is now the account) and leaves
    every list, the seek leaves the pool, and the home tab open since before becomes the account's."""
    registered(client, "Старожил", "old@example.org")
    guest, other = Person(client), browsers()
    guest.get("/")
    game_id = challenge(guest)
    with lobby(guest) as tab, lobby(other) as wo:
        first(tab), first(wo)
        tab.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        until(tab, lambda m: m["type"] == "seeking" and m["seek"])
        r = guest.submit("/login", login="old@example.org", password=PASSWORD)
        assert r.status_code == 303 and guest.session
        removed(wo, game_id)
        again = until(tab, lambda m: m["type"] == "lobby")
        assert again["registered"] is True and again["seek"] is None
        assert game_id not in [e["id"] for e in again["challenges"]]
        with lobby(guest) as new_tab:
            assert first(new_tab)["me"] == again["me"]
    assert status_of(settings, game_id) == "aborted"
    assert seeks_in_pool(settings) == []


def test_entering_a_game_through_the_lobby_ends_the_seek_and_other_challenges(client, browsers, settings) -> None:
    """QA issue 19 (u16, t18): one browser, two home tabs seeking; tab 1 accepts a challenge: the seek leaves the
    pool (both tabs hear ``seeking: null``) and the browser's own open challenge is withdrawn, so a third player's
    seek pairs nobody into a second game; the creator's seek and other challenges go too."""
    a, b, c = browsers(), browsers(), browsers()
    b_first, b_second = challenge(b), challenge(b)
    a_own = challenge(a, time_control="15+10")
    with lobby(a) as tab1, lobby(a) as tab2, lobby(b) as wb, lobby(c) as wc:
        for ws in (tab1, tab2, wb, wc):
            first(ws)
        wb.send_json({"type": "pair", "game": "admiral", "time_control": "5+3"})
        until(wb, lambda m: m["type"] == "seeking" and m["seek"])
        tab2.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        for tab in (tab1, tab2):
            until(tab, lambda m: m["type"] == "seeking" and m["seek"])
        tab1.send_json({"type": "accept", "id": b_first})
        # the reply and the bus's ``seeking`` may come in either order (on Redis the event can overtake the reply)
        heard = {m["type"]: m for m in (until(tab1, lambda m: m["type"] in ("go", "seeking")) for _ in range(2))}
        assert heard["go"]["url"] == f"/g/{b_first}"
        assert heard["seeking"]["seek"] is None
        for tab in (tab2, wb):
            assert until(tab, lambda m: m["type"] == "seeking")["seek"] is None
        removed_all(wc, {a_own, b_second})
        assert seeks_in_pool(settings) == []
        # a third player's 10+5 finds nobody: no second game for a
        wc.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        until(wc, lambda m: m["type"] == "seeking" and m["seek"])
        client.portal.call(client.app.state.lobby.pair)
        assert seeks_in_pool(settings) == [hash_token(c.token)]
        # the other tab cannot start a second game either, however quick
        tab2.send_json({"type": "pair", "game": "admiral", "time_control": "10+5"})
        assert until(tab2, lambda m: m["type"] == "error")["code"] == "in_game"
        assert seeks_in_pool(settings) == [hash_token(c.token)]
    assert status_of(settings, a_own) == status_of(settings, b_second) == "aborted"
    assert status_of(settings, b_first) == "setup"


def removed_all(ws: Any, ids: set[str]) -> None:
    """Read deltas until every one of ``ids`` was removed (in one delta or several)."""
    left = set(ids)
    while left:
        msg = until(ws, lambda m: m["type"] == "challenges")
        left -= set(msg["remove"])


def test_being_paired_withdraws_open_challenges(client, browsers, settings) -> None:
    """A commander with an open challenge who is quick-paired: the challenge leaves every list (it cannot be
    taken while they play); one who just entered a game cannot accept another from a second tab."""
    a, b, c = browsers(), browsers(), browsers()
    a_own = challenge(a)
    c_own = challenge(c)
    with lobby(a) as wa, lobby(b) as wb, lobby(c) as wc:
        first(wa), first(wb), first(wc)
        wa.send_json({"type": "pair", "game": "admiral", "time_control": "5+3"})
        until(wa, lambda m: m["type"] == "seeking" and m["seek"])
        wb.send_json({"type": "pair", "game": "admiral", "time_control": "5+3"})
        until(wa, lambda m: m["type"] == "paired")
        removed(wc, a_own)
        wa.send_json({"type": "accept", "id": c_own})
        error = until(wa, lambda m: m["type"] == "error")
        assert error["code"] == "in_game" and error["detail"]["url"].startswith("/g/")
    assert status_of(settings, a_own) == "aborted"
    assert status_of(settings, c_own) == "waiting"


def test_a_new_tab_shows_the_seek_of_another(client, browsers, settings) -> None:
    """QA issue 19 (t4): a home tab opened while another tab of the browser waits in the pool gets the seek in its
    first message (``seek``), read from the pool even when no tab of it is on this instance."""
    a = browsers()
    seek = {"game": "admiral", "time_control": "10+5", "rated": False}
    with lobby(a) as tab1:
        first(tab1)
        tab1.send_json({"type": "pair", **seek})
        until(tab1, lambda m: m["type"] == "seeking" and m["seek"])
        with lobby(a) as tab2:
            assert first(tab2)["seek"] == seek
        # as if the seeking tab were on another instance: this one knows no socket of a
        room = client.app.state.lobby
        listener = next(iter(room.by_key[hash_token(a.token)]))
        room.by_key.pop(hash_token(a.token))
        try:
            with lobby(a) as tab3:
                assert first(tab3)["seek"] == seek
        finally:
            room.by_key.setdefault(hash_token(a.token), set()).add(listener)


def test_a_guest_who_registers_while_seeking_is_paired_as_the_commander(client, browsers, settings) -> None:
    """A guest waiting in the pool registers: the seek moves to the new identity with the rest (the tab still shows
    it), and the pairing then seats the commander, whose tab hears ``paired``."""
    guest, other = Person(client), browsers()
    guest.get("/")
    seek = {"game": "admiral", "time_control": "5+3", "rated": False}
    with lobby(guest) as tab, lobby(other) as wo:
        first(tab), first(wo)
        tab.send_json({"type": "pair", **seek})
        until(tab, lambda m: m["type"] == "seeking" and m["seek"])
        assert register(guest, nickname="Юнга", email="cabin-boy@example.org").status_code == 303
        assert until(tab, lambda m: m["type"] == "lobby")["seek"] == seek
        assert len(seeks_in_pool(settings)) == 1 and seeks_in_pool(settings) != [hash_token(guest.token)]
        wo.send_json({"type": "pair", **seek})
        url = until(tab, lambda m: m["type"] == "paired")["url"]
        assert until(wo, lambda m: m["type"] == "paired")["url"] == url
    with guest.ws(url.removeprefix("/g/")) as ws:
        assert snapshot(ws)["game"]["seat"] in ("south", "north")
