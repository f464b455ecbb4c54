"""A whole friend game over HTTP and the WebSocket: create → invite → join → setup → play → resign."""

from __future__ import annotations

from .conftest import play_until, ready_both, snapshot


def test_full_game_create_join_setup_play_attack_resign(browsers) -> None:
    south, north = browsers(), browsers()
    r = south.post("/games", data={"time_control": "10+5", "setup_minutes": "3", "side": "south"})
    assert r.status_code == 303
    game_id = r.headers["location"].removeprefix("/g/")
    page = south.get(f"/g/{game_id}")
    assert page.status_code == 200
    assert 'data-role="south"' in page.text
    assert "/j/" in page.text  # the creator sees the invite link until the friend joins

    with south.ws(game_id) as sws:
        first = snapshot(sws)
        assert first["game"]["status"] == "waiting"
        assert first["game"]["seat"] == "south"
        invite_url = first["game"]["invite_url"]
        assert invite_url.startswith("/j/")
        assert first["game"]["settings"] == {
            "base_ms": 600_000,
            "increment_ms": 5000,
            "setup_ms": 180_000,
            "side": "south",
            "ai_level": 0,
            "game": "admiral",
            "options": {},
            "rated": False,
            "days_per_move": 0,
        }

        invite_page = north.get(invite_url)
        assert invite_page.status_code == 200
        assert north.post(invite_url).headers["location"] == f"/g/{game_id}"
        assert 'data-role="north"' in north.get(f"/g/{game_id}").text
        snap = snapshot(sws, status="setup")
        assert snap["game"]["invite_url"] is None
        assert 0 < snap["game"]["clocks"]["setup_ms"] <= 180_000

        with north.ws(game_id) as nws:
            snapshot(nws, status="setup")
            snaps = dict(zip(("south", "north"), ready_both(sws, nws), strict=True))
            for side, snap in snaps.items():
                assert snap["game"]["version"] == 0
                assert snap["view"]["audience"] == side
                assert snap["game"]["clocks"]["running"] == "south"
                assert snap["setup"] is None
            # enemy units are closed markers (rules §11.2)
            north_units = [u for u in snaps["south"]["view"]["units"] if u["side"] == "north"]
            assert len(north_units) == 58 and all(u["kind"] is None for u in north_units)

            snaps = play_until({"south": sws, "north": nws}, snaps, lambda a: "x" in a)
            assert snaps["south"]["game"]["version"] >= 3
            reports = snaps["south"]["view"]["reports"]
            assert len(reports) == 1 or snaps["south"]["view"]["pending"] is not None
            south_turns = (snaps["south"]["game"]["version"] + 1) // 2
            assert snaps["south"]["game"]["clocks"]["south_ms"] <= 600_000 + 5000 * south_turns

            sws.send_json({"type": "resign"})
            over_s, over_n = snapshot(sws, status="over"), snapshot(nws, status="over")
            assert over_s["game"]["result"] == {"winner": "north", "reason": "resignation"}
            assert over_n["game"]["result"] == over_s["game"]["result"]
            assert over_s["view"]["audience"] == "full"

    record = south.get(f"/api/games/{game_id}/record.json")
    assert record.status_code == 200
    assert record.headers["content-disposition"].startswith("attachment")
    data = record.json()
    assert data["format"] == "admiral-record/1"
    assert data["actions"][-1] == "resign south"
    replay = north.get(f"/api/games/{game_id}/replay").json()
    assert [p["ply"] for p in replay["plies"]] == list(range(len(data["actions"])))
    assert replay["plies"][0]["side"] == "south" and replay["plies"][0]["moves"]
    assert any(p["report"] for p in replay["plies"])
    assert len(replay["setups"]["south"]) == 58
