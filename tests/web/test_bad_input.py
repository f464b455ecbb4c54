"""Every kind of bad input gets a clear error (Russian message) or a close, and changes nothing."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import close_code, error, fingerprint, live_game, observe, snapshot, until


def _refused(live, side: str, payload, code: str) -> dict:
    """Send ``payload`` from ``side``; assert the error ``code`` and that the game did not change."""
    before = fingerprint(observe(live.south, live.id))
    ws = live.wss[side]
    ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
    err = error(ws)
    assert err["code"] == code
    assert err["message"] and any("а" <= ch <= "я" for ch in err["message"].lower())  # Russian text
    assert fingerprint(observe(live.south, live.id)) == before
    ws.send_json({"type": "ping"})  # the socket is still served
    until(ws, lambda m: m["type"] == "pong")
    return err


def test_malformed_json(browsers) -> None:
    with live_game(browsers) as live:
        _refused(live, "south", '{"type": "action", "ply": 0, ', "bad_json")


def test_valid_json_of_the_wrong_shape(browsers) -> None:
    with live_game(browsers) as live:
        err = _refused(live, "south", {"type": "action", "ply": "zero", "action": "a5-a6"}, "bad_message")
        assert "ply" in err["detail"]["fields"]
        _refused(live, "south", [1, 2, 3], "bad_message")
        _refused(live, "south", {"type": "action", "ply": 0, "action": "a5-a6", "extra": 1}, "bad_message")
        _refused(live, "south", {"type": "setup.update", "setup": {"a1": 5}}, "bad_message")


def test_a_preference_takes_only_true_or_false(browsers) -> None:
    """QA finding: ``"yes"`` turned «always declare the strongest» on, ``"no"`` and ``0`` off."""
    with live_game(browsers) as live:
        for loose in ("yes", "no", 0, None):
            err = _refused(live, "south", {"type": "prefs", "auto_declare": loose}, "bad_message")
            assert err["detail"]["fields"] == ["auto_declare"]


def test_unknown_message_type(browsers) -> None:
    with live_game(browsers) as live:
        err = _refused(live, "south", {"type": "teleport"}, "unknown_type")
        assert err["detail"] == {"type": "teleport"}
        err = _refused(live, "south", {"no_type": True}, "unknown_type")
        assert err["detail"] == {"type": None}  # QA (issue 18): it said the string "None"


def test_unknown_action_notation(browsers) -> None:
    with live_game(browsers) as live:
        err = _refused(live, "south", {"type": "action", "ply": 0, "action": "fly to the moon"}, "illegal_action")
        assert err["detail"]["code"] == "bad_notation"


def test_illegal_action(browsers) -> None:
    with live_game(browsers) as live:
        own = [u["cell"] for u in live.snaps["south"]["view"]["units"] if u["side"] == "south"]
        enemy = next(u["cell"] for u in live.snaps["south"]["view"]["units"] if u["side"] == "north")
        # a step onto an occupied neighbour, or moving an enemy unit: both illegal
        err = _refused(live, "south", {"type": "action", "ply": 0, "action": f"{enemy}-a8"}, "illegal_action")
        assert err["detail"]["code"] in ("not_your_unit", "not_adjacent")
        a1, a2 = "a1", "a2"
        if a1 in own and a2 in own:
            err = _refused(live, "south", {"type": "action", "ply": 0, "action": f"{a1}-{a2}"}, "illegal_action")
            assert err["detail"]["code"] in ("occupied", "immobile")


def test_server_only_actions_cannot_be_sent(browsers) -> None:
    with live_game(browsers) as live:
        for text in ("resign north", "flag north", "abandon north", "draw"):
            err = _refused(live, "south", {"type": "action", "ply": 0, "action": text}, "illegal_action")
            assert err["detail"]["code"] == "bad_notation"


def test_out_of_turn(browsers) -> None:
    with live_game(browsers) as live:
        legal_for_south = live.snaps["south"]["view"]["legal"][0]["notation"]
        _refused(live, "north", {"type": "action", "ply": 0, "action": legal_for_south}, "not_your_turn")
        assert live.snaps["north"]["view"]["legal"] == []


def test_forged_or_missing_token_is_a_spectator(browsers) -> None:
    with live_game(browsers) as live:
        before = fingerprint(observe(live.south, live.id))
        legal = live.snaps["south"]["view"]["legal"][0]["notation"]
        forged = browsers()
        forged.token = live.south.token[:-1] + ("A" if live.south.token[-1] != "A" else "B")
        no_cookie = live.south.client.websocket_connect(f"/ws/games/{live.id}")
        bad_format = browsers()
        bad_format.token = "not-a-token"
        for ctx in (forged.ws(live.id), no_cookie, bad_format.ws(live.id)):
            with ctx as ws:
                snap = snapshot(ws)
                assert snap["game"]["seat"] is None
                assert snap["view"]["audience"] == "spectator"
                ws.send_json({"type": "action", "ply": 0, "action": legal})
                assert error(ws)["code"] == "not_a_player"
                ws.send_json({"type": "resign"})
                assert error(ws)["code"] == "not_a_player"
        assert fingerprint(observe(live.south, live.id)) == before


def test_acting_on_a_finished_game(browsers) -> None:
    with live_game(browsers) as live:
        legal = live.snaps["south"]["view"]["legal"][0]["notation"]
        live.nws.send_json({"type": "resign"})
        snapshot(live.sws, status="over")
        for payload, side in (
            ({"type": "action", "ply": 1, "action": legal}, "south"),
            ({"type": "resign"}, "north"),
            ({"type": "draw.offer"}, "south"),
            ({"type": "abort"}, "south"),
            ({"type": "setup.ready", "setup": {}}, "south"),
        ):
            _refused(live, side, payload, "game_over")


def test_frame_over_64_kib_closes_1009(browsers) -> None:
    with live_game(browsers) as live:
        before = fingerprint(observe(live.south, live.id))
        big = json.dumps({"type": "setup.update", "setup": {}, "pad": "x" * (65 * 1024)})
        live.sws.send_text(big)
        err = error(live.sws)
        assert err["code"] == "too_big"
        assert close_code(live.sws) == 1009
        assert fingerprint(observe(live.south, live.id)) == before


def test_flood_closes_1008(browsers) -> None:
    with live_game(browsers) as live:
        before = fingerprint(observe(live.south, live.id))
        for _ in range(25):
            live.sws.send_json({"type": "ping"})
        err = error(live.sws)
        assert err["code"] == "flood"
        assert close_code(live.sws) == 1008
        assert fingerprint(observe(live.south, live.id)) == before
        # the other player's socket is unaffected
        live.nws.send_json({"type": "ping"})
        until(live.nws, lambda m: m["type"] == "pong")


def test_foreign_origin_is_refused(browsers) -> None:
    with live_game(browsers) as live:
        with pytest.raises(WebSocketDisconnect) as e:
            with live.south.ws(live.id, headers={"origin": "https://evil.example"}) as ws:
                ws.receive_json()
        assert e.value.code == 1008
        with live.south.ws(live.id, headers={"origin": "http://testserver"}) as ws:
            assert snapshot(ws)["game"]["seat"] == "south"


def test_unknown_game_socket(browsers) -> None:
    b = browsers()
    with b.ws("nosuchgm") as ws:
        assert ws.receive_json()["code"] == "not_found"
        assert close_code(ws) == 1008


def test_bad_input_leaves_other_games_alone(browsers) -> None:
    with live_game(browsers) as one, live_game(browsers) as two:
        before = fingerprint(observe(two.south, two.id))
        one.sws.send_text("{{{{")
        assert error(one.sws)["code"] == "bad_json"
        for _ in range(25):
            one.sws.send_json({"type": "ping"})
        assert close_code(one.sws) == 1008
        assert fingerprint(observe(two.south, two.id)) == before
        two.act("south")
        assert two.snaps["north"]["game"]["version"] == 1
