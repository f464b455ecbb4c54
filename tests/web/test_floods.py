"""Floods and abuse (issue 16): sockets capped per seat and per address, socket openings and messages budgeted per
address, games against the AI limited per address, request bodies capped. Each refusal is a clear error and
changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time

import pytest
from starlette.websockets import WebSocketDisconnect

from admiral.service import ServiceError

from .conftest import (
    Browser,
    close_code,
    error,
    fingerprint,
    from_address,
    live_game,
    make_settings,
    observe,
    running,
    snapshot,
    until,
)  # fmt: skip


def _refused(ws) -> tuple[dict, int]:
    """The error a refused socket gets at its opening, and its close code."""
    message = ws.receive_json()
    return message, close_code(ws)


def test_a_seat_has_at_most_ws_max_per_seat_sockets(db_url) -> None:
    with running(make_settings(db_url, ws_max_per_seat=2)) as client:
        south, north = Browser(client), Browser(client)
        game_id, invite = south.create(side="south")
        north.join(invite)
        with south.ws(game_id) as one, south.ws(game_id) as two:
            assert snapshot(one)["game"]["seat"] == snapshot(two)["game"]["seat"] == "south"
            with south.ws(game_id) as third:
                message, code = _refused(third)
            assert (message["type"], message["code"], message["detail"], code) == (
                "error", "too_many_tabs", {"max": 2}, 1008,
            )  # fmt: skip
            assert "2 вкладках" in message["message"]
            with north.ws(game_id) as other_seat:  # the other seat is counted apart
                assert snapshot(other_seat)["game"]["seat"] == "north"
        with south.ws(game_id) as again:  # closed sockets give their places back
            assert snapshot(again)["game"]["seat"] == "south"
        assert client.app.state.service.games[game_id].seats["south"].connections == 0


def test_an_address_has_at_most_ws_max_per_address_sockets(db_url) -> None:
    with running(make_settings(db_url, ws_max_per_address=3)) as client:
        b = Browser(client)
        game_id, _invite = b.create(side="south")
        watchers = [Browser(client) for _ in range(3)]
        with watchers[0].ws(game_id) as a, watchers[1].ws(game_id) as c, watchers[2].ws(game_id) as d:
            for ws in (a, c, d):
                snapshot(ws)
            with b.ws(game_id) as fourth:  # any browser, any seat: the address is full
                message, code = _refused(fourth)
            assert (message["code"], message["detail"], code) == ("too_many_sockets", {"max": 3}, 1008)
            elsewhere = Browser(from_address(client, "198.51.100.7"))  # another address is not
            with elsewhere.ws(game_id) as ws:
                assert snapshot(ws)["game"]["seat"] is None
        assert client.app.state.sockets.open == {}  # every place given back


def test_socket_openings_are_rate_limited_per_address(db_url) -> None:
    with running(make_settings(db_url, rate_sockets="3/minute")) as client:
        b = Browser(client)
        game_id, _invite = b.create(side="south")
        for _ in range(3):
            with b.ws(game_id) as ws:
                snapshot(ws)
        with pytest.raises(WebSocketDisconnect) as refused, b.ws(game_id):
            pass  # refused at the handshake (HTTP 403): the cheapest answer to a reconnecting flood
        assert refused.value.code == 1008
        with Browser(from_address(client, "198.51.100.8")).ws(game_id) as ws:
            assert snapshot(ws)["game"]["id"] == game_id


def test_messages_are_budgeted_per_address_across_its_sockets(db_url) -> None:
    # 20 a socket are allowed; two sockets of one address sending 9 each (after their 2 of the setup) break the
    # address's budget of 16: the messages beyond it are refused, the sockets stay open.
    with running(make_settings(db_url, ws_max_rate=20, ws_max_rate_per_address=16)) as client:
        browsers = lambda: Browser(client)  # noqa: E731
        with live_game(browsers) as live:
            before = fingerprint(observe(Browser(from_address(client, "198.51.100.9")), live.id))
            for _ in range(9):
                live.sws.send_json({"type": "ping"})
                live.nws.send_json({"type": "ping"})
            refused = [error(ws) for ws in (live.sws, live.nws)]
            assert {(e["code"], e["detail"]["per"], e["detail"]["max_per_second"]) for e in refused} == {
                ("flood", "address", 16),
            }  # fmt: skip
            after = fingerprint(observe(Browser(from_address(client, "198.51.100.9")), live.id))
            assert after == before
            time.sleep(1.1)  # a new second: both sockets are still there (a household's other tabs too)
            for ws in (live.sws, live.nws):
                ws.send_json({"type": "ping"})
                until(ws, lambda m: m["type"] == "pong")


def test_a_flood_of_sockets_from_one_address_leaves_other_games_playing(db_url) -> None:
    # 60 sockets from one address on one game in setup, half of them its creator's tabs asking for
    # auto-arrangement, half spectators: the seat opens 8, the address 32 in all; a game of two other
    # addresses plays on meanwhile.
    with running(make_settings(db_url, ws_max_rate_per_address=40)) as client:
        attacker = Browser(client)
        target, _invite = attacker.create(side="south")
        players = [Browser(from_address(client, f"203.0.113.{i}")) for i in (1, 2)]
        game_id, invite = players[0].create(side="south")
        players[1].join(invite)
        opened, refused = [], []
        with contextlib.ExitStack() as stack:
            for i in range(60):
                ws = stack.enter_context((attacker if i % 2 == 0 else Browser(client)).ws(target))
                first = ws.receive_json()
                (opened if first["type"] == "snapshot" else refused).append((ws, first))
            seated = [ws for ws, m in opened if m["game"]["seat"] == "south"]
            assert (len(opened), len(seated)) == (32, 8)
            assert {m["code"] for _, m in refused} == {"too_many_sockets", "too_many_tabs"}
            for ws in seated:
                for _ in range(3):
                    ws.send_json({"type": "setup.auto", "setup": {}})
            with players[0].ws(game_id) as sws, players[1].ws(game_id) as nws:
                snapshot(sws), snapshot(nws)
                for ws in (sws, nws):
                    ws.send_json({"type": "setup.auto", "setup": {}})
                    draft = until(ws, lambda m: m["type"] == "setup.state")["draft"]
                    ws.send_json({"type": "setup.ready", "setup": draft})
                s_snap = snapshot(sws, status="play")
                action = next(a["notation"] for a in s_snap["view"]["legal"] if a["type"] == "move")
                sws.send_json({"type": "action", "ply": 0, "action": action})
                assert snapshot(nws, version=1)["view"]["to_act"] == "north"
            for ws in seated:  # every auto-arrangement the attacker asked for was answered
                states = [until(ws, lambda m: m["type"] == "setup.state") for _ in range(3)]
                assert all(len(m["draft"]) == 58 for m in states)


def test_ai_games_are_limited_per_address_whatever_the_cookie(db_url) -> None:
    with running(make_settings(db_url, max_bot_games=3, max_bot_games_per_address=2, bot_delay_ms=0)) as client:
        for _ in range(2):
            assert Browser(client).post("/games", json={"opponent": "ai", "ai_level": 1}).status_code == 201
        fresh = Browser(client)  # a fresh cookie, the same address
        r = fresh.post("/games", json={"opponent": "ai", "ai_level": 1})
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_ai_games"
        assert r.json()["error"]["message"].startswith("С вашего адреса уже идут 2 партии против ИИ")
        # a friend game is not limited; another address may start its own AI game
        assert fresh.post("/games", json={"side": "south"}).status_code == 201
        other = Browser(from_address(client, "198.51.100.20"))
        assert other.post("/games", json={"opponent": "ai", "ai_level": 1}).status_code == 201


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_over_the_cap_is_refused(db_url, chunked) -> None:
    # Starlette's body limit (FastAPI max_body_size): with a Content-Length over the cap the app never reads the
    # body; a chunked body is cut as soon as it goes over. Nothing is created either way.
    with running(make_settings(db_url, max_body_bytes=1024)) as client:
        b = Browser(client)
        body = json.dumps({"side": "south", "pad": "x" * 2000}).encode()
        content = (part for part in (body[:1000], body[1000:])) if chunked else body
        r = b.post("/games", content=content, headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert client.app.state.service.games == {}
        ok = b.post("/games", json={"side": "south", "pad": "x" * 900})
        assert ok.status_code == 201 and len(client.app.state.service.games) == 1


def test_ai_games_asked_for_at_once_respect_the_limits(db_url) -> None:
    # QA: 20 requests at once from fresh cookies at one address made 20 AI games (limit 6), and one cookie's 10
    # at once made 5 (limit 3): the check and the insert were two database calls with nothing between them.
    from admiral.service.lobby import GameSettings

    with running(make_settings(db_url, max_bot_games=3, max_bot_games_per_address=4)) as client:
        service = client.app.state.service
        service.db_threads = True  # the database calls leave the event loop, as on PostgreSQL
        settings = GameSettings.from_form("none", side="south", ai_level=1)

        async def burst(requests: list[tuple[str, str]]) -> list[str]:
            outcome = await asyncio.gather(
                *(service.create_game(b, settings, a) for b, a in requests), return_exceptions=True
            )
            return [r.code if isinstance(r, ServiceError) else "created" for r in outcome]

        fresh_cookies = [(secrets.token_hex(32), "203.0.113.50") for _ in range(10)]
        assert sorted(client.portal.call(burst, fresh_cookies)) == ["created"] * 4 + ["too_many_ai_games"] * 6
        one = secrets.token_hex(32)
        many_addresses = [(one, f"203.0.113.{60 + i}") for i in range(6)]
        assert sorted(client.portal.call(burst, many_addresses)) == ["created"] * 3 + ["too_many_ai_games"] * 3
        assert len(service.store.active_bot_games(one, "bot:")) == 3


def test_page_reads_are_limited_per_address(db_url) -> None:
    # QA (issue 16, F5): 16 clients of one address took two instances' cores with GET /rules
    with running(make_settings(db_url, rate_pages="3/minute")) as client:
        b = Browser(client)
        assert [b.get(p).status_code for p in ("/", "/rules", "/leaders")] == [200, 200, 200]
        refused = b.get("/rules")
        assert refused.status_code == 429 and "Слишком много запросов подряд" in refused.text
        assert b.get("/api/setups", headers={"accept": "application/json"}).json()["error"]["code"] == "rate_limited"
        for free in ("/healthz", "/static/css/admiral.css", "/i18n/ru.js"):  # files and probes are not counted
            assert b.get(free).status_code == 200, free
        assert Browser(from_address(client, "198.51.100.30")).get("/rules").status_code == 200
