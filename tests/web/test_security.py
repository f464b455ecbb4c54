"""Cross-site requests, the browser cookie, and hostile input found by breaking the server (QA findings)."""

from __future__ import annotations

import re

import pytest

from admiral.web.deps import COOKIE

from .conftest import error, live_game, make_settings, observe, running, snapshot


def _games(client) -> int:
    store = client.app.state.service.store
    from sqlalchemy import func, select

    from admiral.store.models import GameRow

    with store.session() as s:
        return s.scalar(select(func.count()).select_from(GameRow))


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example", "sec-fetch-site": "cross-site"},
        {"origin": "http://evil.example"},
        {"sec-fetch-site": "cross-site"},
    ],
)
def test_cross_site_post_without_cookie_is_refused_and_sets_no_cookie(client, headers) -> None:
    # A cross-site form arrives without our SameSite=Lax cookie: a fresh cookie in the answer would
    # overwrite the player's identity (seats in every game, saved setups).
    before = _games(client)
    r = client.post("/games", data={"time_control": "none"}, headers=headers, follow_redirects=False)
    assert r.status_code == 403
    assert COOKIE not in r.headers.get("set-cookie", "")
    assert _games(client) == before


def test_cross_site_post_with_the_cookie_is_refused(client, browsers) -> None:
    b = browsers()
    before = _games(client)
    r = b.post("/games", data={"time_control": "none"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "Запрос с чужого сайта" in r.text
    assert _games(client) == before


def test_any_unsafe_request_without_cookie_is_refused_without_a_new_cookie(client) -> None:
    r = client.post("/healthz", headers={"origin": "http://evil.example", "sec-fetch-site": "cross-site"})
    assert r.status_code == 403 and COOKIE not in r.headers.get("set-cookie", "")
    r = client.post("/api/setups", json={"name": "x", "setup": {}})
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_cookie"
    assert COOKIE not in r.headers.get("set-cookie", "")


def test_a_page_load_issues_the_cookie_and_same_site_posts_work(client) -> None:
    r = client.get("/")
    assert r.status_code == 200 and f"{COOKIE}=" in r.headers["set-cookie"]
    assert "httponly" in r.headers["set-cookie"].lower() and "samesite=lax" in r.headers["set-cookie"].lower()
    host = "http://testserver"
    token = re.search(r'name="csrf_token" value="([0-9a-f]{40})"', r.text).group(1)
    r = client.post("/games", data={"time_control": "none", "csrf_token": token}, headers={"origin": host},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303 and r.headers["location"].startswith("/g/")


@pytest.mark.parametrize("token", [None, "", "0" * 40, "forged"])
def test_a_form_without_this_browsers_csrf_token_is_refused(browsers, token) -> None:
    """Issue 5: every state-changing form carries the browser's anti-CSRF token; without it nothing changes."""
    b, other = browsers(), browsers()
    data = {"time_control": "none"} if token is None else {"time_control": "none", "csrf_token": token}
    r = b.post("/games", data=data, csrf=False)
    assert r.status_code == 403 and "Форма устарела" in r.text
    r = b.post("/games", data={**data, "csrf_token": other.csrf}, csrf=False)  # another browser's token
    assert r.status_code == 403
    game_id, invite = other.create()
    r = b.post(f"/j/{invite}", csrf=False)
    assert r.status_code == 403
    with other.ws(game_id) as ws:
        assert snapshot(ws)["game"]["status"] == "waiting"


@pytest.mark.parametrize("payload", ['{"type": ["action"]}', '{"type": {"a": 1}}', '{"type": 7}'])
def test_a_type_that_is_not_a_string_is_an_unknown_type(browsers, payload) -> None:
    with live_game(browsers) as live:
        live.sws.send_text(payload)
        assert error(live.sws)["code"] == "unknown_type"
        assert observe(live.south, live.id)["game"]["version"] == 0


def test_deeply_nested_json_on_post_games_is_a_400(browsers) -> None:
    b = browsers()
    r = b.post("/games", content="[" * 30_000 + "]" * 30_000, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"


def test_deleting_a_setup_id_beyond_any_integer_is_a_404(browsers) -> None:
    b = browsers()
    r = b.client.delete("/api/setups/99999999999999999999999", headers=b.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_ready_setup_is_stored_with_canonical_kind_codes(browsers) -> None:
    # The engine reads 'pl' or 'Л' (Russian) as kinds; the protocol's kinds are the ASCII codes.
    from .conftest import snapshot, start_game, until

    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as ws:
        snapshot(ws)
        ws.send_json({"type": "setup.auto", "setup": {}})
        full = until(ws, lambda m: m["type"] == "setup.state")["draft"]
        written = {c: (k.lower() if k != "L" else "Л") for c, k in full.items()}
        ws.send_json({"type": "setup.ready", "setup": written})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert state["ready"] is True
        assert state["draft"] == full


def test_bodies_over_64_kib_are_refused_by_default(browsers) -> None:
    # issue 16: a 60 MB JSON POST /games was read whole (+120 MiB RSS)
    b = browsers()
    body = b'{"pad": "' + b"x" * (64 * 1024) + b'"}'
    r = b.post("/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert b.post("/games", json={"side": "south"}).status_code == 201


def test_pages_carry_a_content_security_policy_with_scripts_from_self_only(client) -> None:
    for path in ("/", "/rules", "/login", "/nosuchpage"):
        policy = client.get(path).headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'", path
        assert directives["default-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
        assert directives["object-src"] == "'none'"


def test_the_api_description_is_published_in_development_only(db_url) -> None:
    with running(make_settings(db_url)) as client:
        assert client.get("/openapi.json").status_code == 200
        assert client.get("/docs").status_code == 200
    with running(make_settings(db_url, environment="production", secret_key="x" * 40, test_time_controls=False)) as c:
        assert c.get("/openapi.json").status_code == 404
        assert c.get("/docs").status_code == 404
        assert c.get("/").status_code == 200


def test_a_form_starlette_cannot_read_is_a_400_not_an_outdated_form(browsers) -> None:
    # QA (issue 16): 1001 fields, well under 64 KiB, were answered "the form is outdated or came from another site"
    b = browsers()
    fields = {"csrf_token": b.csrf, **{f"f{i}": "x" for i in range(1001)}}
    r = b.post("/games", data=fields, csrf=False)
    assert r.status_code == 400 and "Неверный запрос" in r.text and "устарела" not in r.text
