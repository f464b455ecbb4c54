"""Lobby and invite: cookies, creating games, the single-use invite, spectators, saved setups."""

from __future__ import annotations

import threading

from admiral.service import hash_token
from admiral.store import Store, make_engine

from .conftest import error, snapshot, start_game


def test_healthz_and_browser_cookie(client) -> None:
    r = client.get("/healthz")
    assert r.json() == {"status": "ok"}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("admiral_browser=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie and "Max-Age=31536000" in cookie
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) == 43


def test_create_game_json_and_form(browsers) -> None:
    b = browsers()
    r = b.post("/games", json={"time_control": "custom", "base_minutes": 7, "increment_seconds": 2, "side": "north"})
    assert r.status_code == 201
    data = r.json()
    assert data["url"] == f"/g/{data['game_id']}" and data["invite_url"].startswith("/j/")
    with b.ws(data["game_id"]) as ws:
        snap = snapshot(ws)
        assert snap["game"]["seat"] == "north"
        assert snap["game"]["settings"] == {
            "base_ms": 420_000, "increment_ms": 2000, "setup_ms": 0, "side": "north", "ai_level": 0,
            "game": "admiral", "options": {}, "rated": False, "days_per_move": 0,
        }  # fmt: skip
        assert snap["game"]["status"] == "waiting"
        assert snap["game"]["clocks"]["south_ms"] == 420_000
    r = b.post("/games", data={"time_control": "none", "setup_minutes": "0", "side": "random"})
    assert r.status_code == 303 and r.headers["location"].startswith("/g/")


def test_create_game_bad_settings(browsers) -> None:
    b = browsers()
    for body in (
        {"time_control": "1+0"},
        {"time_control": "custom", "base_minutes": 0},
        {"time_control": "custom", "base_minutes": 10, "increment_seconds": 61},
        {"setup_minutes": 4},
        {"side": "east"},
        {"time_control": ["x"]},
    ):
        r = b.post("/games", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"]["code"] in ("bad_settings", "bad_request")
    assert b.post("/games", content=b"[1]", headers={"content-type": "application/json"}).status_code == 400
    assert b.post("/games", data={"side": "east"}).status_code == 400


def test_invite_single_use_third_browser_is_spectator(browsers) -> None:
    creator, friend, third = browsers(), browsers(), browsers()
    game_id, invite = creator.create(side="south")
    assert creator.get(f"/j/{invite}").headers["location"] == f"/g/{game_id}"  # the creator is redirected
    page = friend.get(f"/j/{invite}")
    assert page.status_code == 200 and invite in page.text
    friend.join(invite)
    # the invite is used: the third visitor is redirected and cannot take a seat
    assert third.get(f"/j/{invite}").headers["location"] == f"/g/{game_id}"
    third.join(invite)
    assert 'data-role="spectator"' in third.get(f"/g/{game_id}").text
    assert 'data-role="south"' in creator.get(f"/g/{game_id}").text  # the creator stays creator
    assert 'data-role="north"' in friend.get(f"/g/{game_id}").text
    friend.join(invite)  # a second press by the friend changes nothing
    assert 'data-role="north"' in friend.get(f"/g/{game_id}").text
    with third.ws(game_id) as ws:
        snap = snapshot(ws)
        assert snap["game"]["seat"] is None and snap["setup"] is None and snap["game"]["invite_url"] is None
        for msg in ({"type": "setup.auto", "setup": {}}, {"type": "abort"}, {"type": "resign"}):
            ws.send_json(msg)
            assert error(ws)["code"] == "not_a_player"


def test_unknown_invite_and_game(browsers) -> None:
    b = browsers()
    assert b.get("/j/nope").status_code == 404
    assert b.post("/j/nope").status_code == 404
    assert b.get("/g/nope").status_code == 404


def test_two_concurrent_claims_exactly_one_wins(browsers, settings) -> None:
    creator = browsers()
    game_id, _ = creator.create(side="south")
    store = Store(make_engine(settings.database_url))
    barrier = threading.Barrier(8)
    wins: list[bool] = []

    def claim(n: int) -> None:
        barrier.wait()
        wins.append(store.claim_seat(game_id, "north", hash_token(f"browser-{n}")))

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False] * 7 + [True]
    store.engine.dispose()


def test_two_claims_through_http_one_seat(browsers) -> None:
    creator, a, b = browsers(), browsers(), browsers()
    game_id, invite = creator.create(side="north")
    a.join(invite)
    b.join(invite)
    roles = [a.get(f"/g/{game_id}").text, b.get(f"/g/{game_id}").text]
    assert sum('data-role="south"' in t for t in roles) == 1
    assert sum('data-role="spectator"' in t for t in roles) == 1


def test_saved_setups_per_browser(browsers) -> None:
    a, b = browsers(), browsers()
    setup = {"a1": "VMB", "b1": "L", "c2": "КР"}
    r = a.post("/api/setups", json={"name": "Крепость", "setup": setup})
    assert r.status_code == 201
    saved = r.json()
    assert saved["name"] == "Крепость" and saved["setup"] == setup
    assert [s["id"] for s in a.get("/api/setups").json()] == [saved["id"]]
    assert b.get("/api/setups").json() == []
    assert b.client.delete(f"/api/setups/{saved['id']}", headers=b.headers).status_code == 404
    bad = a.post("/api/setups", json={"name": "x", "setup": {"a5": "VMB"}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_setup"
    assert a.post("/api/setups", json={"name": "", "setup": {}}).status_code == 422
    assert a.post("/api/setups", json={"name": "x" * 41, "setup": {}}).json()["error"]["code"] == "bad_request"
    assert a.client.delete(f"/api/setups/{saved['id']}", headers=a.headers).status_code == 204
    assert a.get("/api/setups").json() == []


def test_record_and_replay_only_after_the_end(browsers) -> None:
    game_id, south, _ = start_game(browsers)
    for url in (f"/api/games/{game_id}/record.json", f"/api/games/{game_id}/replay"):
        r = south.get(url)
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    assert south.get("/api/games/nosuch/replay").status_code == 404


def test_setup_update_auto_ready(browsers) -> None:
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        snap = snapshot(sws, status="setup")
        assert snap["setup"] == {"draft": {}, "problems": [], "ready": False}
        sws.send_json({"type": "setup.update", "setup": {"a5": "VMB", "b1": "L", "z9": "L"}})
        state = next(m for m in iter(sws.receive_json, None) if m["type"] == "setup.state")
        assert {p["code"] for p in state["problems"]} == {"base_in_front_row", "bad_cell"}
        assert all(p["message"] for p in state["problems"])
        sws.send_json({"type": "setup.ready", "setup": state["draft"]})
        err = error(sws)
        assert err["code"] == "invalid_setup" and err["detail"]["problems"]
        sws.send_json({"type": "setup.auto", "setup": {"b1": "L", "a5": "VMB"}})
        err = error(sws)  # what the player placed is kept or refused, never dropped (issue 18)
        assert err["code"] == "invalid_setup"
        assert [p["code"] for p in err["detail"]["problems"]] == ["base_in_front_row"]
        sws.send_json({"type": "setup.auto", "setup": {"b1": "L", "a4": "VMB"}})
        state = next(m for m in iter(sws.receive_json, None) if m["type"] == "setup.state")
        assert state["problems"] == [] and len(state["draft"]) == 58 and state["draft"]["b1"] == "L"
        assert state["draft"]["a4"] == "VMB"
        sws.send_json({"type": "setup.auto", "setup": {}})
        again = next(m for m in iter(sws.receive_json, None) if m["type"] == "setup.state")
        assert again["draft"] != state["draft"]  # a fresh seed each press
        sws.send_json({"type": "setup.ready", "setup": again["draft"]})
        # the opponent learns only "ready" (rules §11.5)
        nsnap = snapshot(nws)
        while not nsnap["game"]["players"]["south"]["ready"]:
            nsnap = snapshot(nws)
        assert nsnap["view"] is None and nsnap["setup"]["draft"] == {}
        assert "a1" not in str({k: v for k, v in nsnap["game"].items() if k != "id"})  # a random id may hold "a1"
        sws.send_json({"type": "setup.update", "setup": {}})
        assert error(sws)["code"] == "already_ready"
