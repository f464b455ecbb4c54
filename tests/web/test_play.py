"""Play over the WebSocket: resync, stale plies, declarations, draw, abort, claim, rematch."""

from __future__ import annotations

import random
import time

from admiral.games.admiral.rules import Side, auto_arrange, cell_name

from .conftest import error, fingerprint, live_game, observe, snapshot, until


def _setups(seed: int) -> dict[str, dict[str, str]]:
    """Fixed setups (seeds searched so the scripted players reach a pending declaration for North)."""
    out = {}
    for side, s in ((Side.SOUTH, seed), (Side.NORTH, seed + 1000)):
        out[side.label] = {cell_name(c): k.code for c, k in auto_arrange(side, random.Random(s)).items()}
    return out


def test_reconnect_resyncs_with_the_same_version(browsers) -> None:
    with live_game(browsers) as live:
        live.act("south")
        live.act("north")
        version = live.snaps["south"]["game"]["version"]
        assert version == 2
    # both sockets closed; a new one gets the same position
    again = observe(live.south, live.id)
    assert again["game"]["version"] == version
    assert again["view"]["units"] == live.snaps["south"]["view"]["units"]
    assert again["view"]["legal"] == live.snaps["south"]["view"]["legal"]


def test_stale_and_duplicate_ply_are_rejected(browsers) -> None:
    with live_game(browsers) as live:
        action = live.snaps["south"]["view"]["legal"][0]["notation"]
        live.act("south", action)
        before = fingerprint(observe(live.south, live.id))
        assert before[0] == 1
        live.sws.send_json({"type": "action", "ply": 0, "action": action})  # the same message again
        err = error(live.sws)
        assert err["code"] == "stale_ply" and err["detail"] == {"ply": 1}
        live.nws.send_json({"type": "action", "ply": 5, "action": live.snaps["north"]["view"]["legal"][0]["notation"]})
        assert error(live.nws)["code"] == "stale_ply"
        assert fingerprint(observe(live.south, live.id)) == before
        record_len = live.snaps["north"]["game"]["version"]
        assert record_len == 1


def test_pending_declaration_only_the_defender_may_act(browsers) -> None:
    with live_game(browsers, setups=_setups(21)) as live:
        while live.snaps["south"]["view"]["pending"] is None:
            live.act(live.snaps["south"]["view"]["to_act"])
        pending = live.snaps["north"]["view"]["pending"]
        assert pending["defender"] == "north" and len(pending["options"]) == 2
        assert live.snaps["south"]["view"]["pending"]["options"] is None  # hidden from the attacker
        declarations = live.snaps["north"]["view"]["legal"]
        assert [(a["type"], a["target"], a["formation"], a["notation"]) for a in declarations] == [
            ("declare", "b13", ["b13"], "[b13]"),
            ("declare", "b13", ["b13", "c13"], "[b13+c13]"),
        ]
        version = live.snaps["south"]["game"]["version"]
        live.sws.send_json({"type": "action", "ply": version, "action": "[b13]"})
        assert error(live.sws)["code"] == "not_your_turn"
        assert live.snaps["south"]["game"]["clocks"]["running"] in ("north", None)
        live.act("north", "[b13+c13]")
        assert live.snaps["south"]["view"]["pending"] is None
        assert live.snaps["south"]["view"]["reports"][-1]["defender_row"] is not None


def test_auto_declare_preference_declares_the_strongest(browsers) -> None:
    with live_game(browsers, setups=_setups(21)) as live:
        live.nws.send_json({"type": "prefs", "auto_declare": True})
        snap = until(live.nws, lambda m: m["type"] == "snapshot" and m["game"]["players"]["north"]["auto_declare"])
        assert snap["game"]["players"]["south"]["auto_declare"] is None  # the other seat's pref is private

        def battle() -> dict | None:
            reports = live.snaps["south"]["view"]["reports"]
            return next((r for r in reports if r["target"] and r["target"]["cell"] == "b13"), None)

        while battle() is None:
            assert live.snaps["north"]["view"]["pending"] is None  # never asked
            live.act(live.snaps["south"]["view"]["to_act"])
        assert [m["cell"] for m in battle()["defender_formation"]] == ["b13", "c13"]  # the stronger of the two
        replay_version = live.snaps["south"]["game"]["version"]
        live.sws.send_json({"type": "resign"})
        snapshot(live.sws, status="over")
    record = live.south.get(f"/api/games/{live.id}/record.json").json()
    assert record["actions"][replay_version - 1] == "[b13+c13]"


def test_abort_before_two_turns_each(browsers) -> None:
    with live_game(browsers) as live:
        live.act("south")
        live.act("north")
        assert live.snaps["south"]["game"]["can_abort"] is True
        live.nws.send_json({"type": "abort"})
        snap = snapshot(live.sws, status="aborted")
        assert snap["game"]["result"] is None
        assert snap["game"]["clocks"]["running"] is None
    with live_game(browsers) as live:
        for _ in range(2):
            live.act("south")
            live.act("north")
        assert live.snaps["south"]["game"]["can_abort"] is False
        before = fingerprint(observe(live.south, live.id))
        live.sws.send_json({"type": "abort"})
        assert error(live.sws)["code"] == "cannot_abort"
        assert fingerprint(observe(live.south, live.id)) == before


def test_abort_during_setup(browsers) -> None:
    creator = browsers()
    game_id, _ = creator.create(side="north")
    with creator.ws(game_id) as ws:
        assert snapshot(ws)["game"]["can_abort"] is True
        ws.send_json({"type": "abort"})
        snap = snapshot(ws, status="aborted")
        assert snap["game"]["result"] is None and snap["game"]["invite_url"] is None
        ws.send_json({"type": "setup.auto", "setup": {}})
        assert error(ws)["code"] == "game_over"


def test_draw_offer_accept_decline_and_lapse(browsers) -> None:
    with live_game(browsers) as live:
        live.sws.send_json({"type": "draw.offer"})
        snap = until(live.nws, lambda m: m["type"] == "snapshot" and m["game"]["draw_offer"] == "south")
        live.nws.send_json({"type": "draw.decline"})
        snap = until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["draw_offer"] is None)
        live.nws.send_json({"type": "draw.accept"})
        assert error(live.nws)["code"] == "no_draw_offer"
        # an offer lapses when the offerer's opponent moves
        live.sws.send_json({"type": "draw.offer"})
        until(live.nws, lambda m: m["type"] == "snapshot" and m["game"]["draw_offer"] == "south")
        live.act("south")
        assert live.snaps["north"]["game"]["draw_offer"] == "south"  # the offerer's own move keeps it
        live.act("north")
        assert live.snaps["south"]["game"]["draw_offer"] is None
        # offer and accept
        live.nws.send_json({"type": "draw.offer"})
        until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["draw_offer"] == "north")
        live.sws.send_json({"type": "draw.accept"})
        snap = snapshot(live.nws, status="over")
        assert snap["game"]["result"] == {"winner": None, "reason": "agreement"}
        assert snap["game"]["draw_offer"] is None


def test_claim_after_the_opponent_left(browsers) -> None:
    with live_game(browsers) as live:
        live.sws.send_json({"type": "claim"})
        assert error(live.sws)["code"] == "cannot_claim"
        live.nws.close()
        snap = until(live.sws, lambda m: m["type"] == "snapshot" and not m["game"]["players"]["north"]["connected"])
        assert snap["game"]["can_claim"] is False
        time.sleep(0.3)  # the test settings' grace is 0.2 s
        snap = until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["can_claim"])
        assert snap["game"]["players"]["north"]["disconnected_ms"] >= 200
        live.sws.send_json({"type": "claim"})
        snap = snapshot(live.sws, status="over")
        assert snap["game"]["result"] == {"winner": "south", "reason": "abandonment"}


def test_rematch_swaps_sides_and_binds_both_seats(browsers) -> None:
    with live_game(browsers, base_ms=60_000, increment_ms=1000) as live:
        live.sws.send_json({"type": "rematch"})
        assert error(live.sws)["code"] == "not_over"
        live.sws.send_json({"type": "resign"})
        snapshot(live.nws, status="over")
        live.nws.send_json({"type": "rematch"})  # an offer (issue 18): South accepts it
        until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_offer"] == "north")
        live.sws.send_json({"type": "rematch.accept"})
        url = until(live.nws, lambda m: m["type"] == "rematch")["url"]
        assert until(live.sws, lambda m: m["type"] == "rematch")["url"] == url
        snap = until(live.sws, lambda m: m["type"] == "snapshot" and m["game"]["rematch_url"])
        assert snap["game"]["rematch_url"] == url
        live.sws.send_json({"type": "rematch"})  # asking again gives the same game
        assert until(live.sws, lambda m: m["type"] == "rematch")["url"] == url
    new_id = url.removeprefix("/g/")
    assert 'data-role="north"' in live.south.get(url).text
    assert 'data-role="south"' in live.north.get(url).text
    with live.north.ws(new_id) as ws:
        snap = snapshot(ws)
        assert snap["game"]["status"] == "setup" and snap["game"]["seat"] == "south"
        assert snap["game"]["settings"]["base_ms"] == 60_000 and snap["game"]["settings"]["increment_ms"] == 1000
        assert snap["game"]["players"]["north"]["joined"] is True


def test_a_failed_write_is_never_shown_and_the_next_action_goes_through(browsers, client) -> None:
    # DESIGN "nothing the players saw acknowledged is lost": the action is applied to a copy of the game; when
    # the write fails the copy is dropped, and the live game is what the database holds.
    from sqlalchemy.exc import OperationalError

    store = client.app.state.service.store
    real = store.append_actions
    with live_game(browsers) as live:
        live.act("south")
        before = fingerprint(observe(live.north, live.id))

        def fail(*args, **kwargs):
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        store.append_actions = fail
        try:
            version = live.snaps["north"]["game"]["version"]
            live.nws.send_json(
                {"type": "action", "ply": version, "action": live.snaps["north"]["view"]["legal"][0]["notation"]}
            )
            err = error(live.nws)
            assert err["code"] == "unavailable"
        finally:
            store.append_actions = real
        assert fingerprint(observe(live.north, live.id)) == before
        assert fingerprint(observe(live.south, live.id))[0] == 1
        live.act("north")
        assert live.snaps["south"]["game"]["version"] == 2


def test_a_write_in_flight_leaves_the_loop_free_and_no_socket_sees_its_move(browsers, client) -> None:
    # An action's write runs in a database thread (PostgreSQL; forced here): the server answers meanwhile, and a
    # socket that opens while the write is in flight is shown the stored game at once (the action is applied to
    # a copy, swapped in only once stored: there is nothing to wait for); the write fails here, so version 0 stays.
    import threading

    from sqlalchemy.exc import OperationalError

    client.app.state.service.db_threads = True  # on SQLite too (there calls run inline by default)
    store = client.app.state.service.store
    real = store.append_actions
    entered, release, left = threading.Event(), threading.Event(), threading.Event()

    def held_then_failed(*args, **kwargs):
        entered.set()
        try:
            release.wait(10)
            raise OperationalError("INSERT", {}, Exception("connection lost"))
        finally:
            left.set()

    with live_game(browsers) as live:
        store.append_actions = held_then_failed
        try:
            live.sws.send_json(
                {"type": "action", "ply": 0, "action": live.snaps["south"]["view"]["legal"][0]["notation"]}
            )
            assert entered.wait(10)
            assert client.get("/healthz").status_code == 200  # served while the write is held
            assert not left.is_set()
            with live.north.ws(live.id) as late:
                threading.Timer(0.3, release.set).start()
                first = until(late, lambda m: m["type"] == "snapshot")
                assert first["game"]["version"] == 0
                # a lone server shows the stored game at once; instances sharing the games first bring their copy up
                # to date under the game's lock, which the write holds
                assert left.is_set() is client.app.state.service.bus.shared
            assert error(live.sws)["code"] == "unavailable"
        finally:
            release.set()
            store.append_actions = real
        assert observe(live.north, live.id)["game"]["version"] == 0
        live.act("south")
        assert live.snaps["north"]["game"]["version"] == 1
