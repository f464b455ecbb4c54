"""The rating and unrated games as a player sees them (issue 19; PROGRESSION.md §2, §4), laptop 1366×768 and phone
360×740 (touch).

Two commanders register through the form; a rated «Морской бой» between them is played over the game's socket by
the test (the play itself is covered by test_battleship.py), then each opens the finished game: the bars show the
rating after the nickname and rank («Капитан Немо · Матрос · 1662?») and the result panel the change
(«Рейтинг: 1662? (+162).»).
Then the same browser, logged out (a guest), plays the registered commander: the result panel says «Партия без
начисления очков.» and why. Screenshots in ``artifacts/e2e/rating/``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .ui import PHONE, TIMEOUT_MS

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PASSWORD = "correct horse battery staple 19"


def _register(page, server_url: str, nickname: str, email: str) -> None:
    page.goto(server_url + "/register")
    page.fill("input[name=email]", email)
    page.fill("input[name=nickname]", nickname)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Зарегистрироваться").click()
    page.wait_for_url(re.compile(r"/profile"))


def _cookie(context) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in context.cookies() if c["name"].startswith("admiral_"))


class Seat:
    """One side played over the socket with a browser context's cookies."""

    def __init__(self, server_url: str, cookie: str) -> None:
        self.url, self.cookie, self.ws = server_url, cookie, None

    def http(self, method: str, path: str, **kw: Any):
        import httpx

        return httpx.request(method, self.url + path, headers={"cookie": self.cookie}, follow_redirects=False,
                             timeout=10, **kw)  # fmt: skip

    def open(self, game_id: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(f"ws{self.url[4:]}/ws/games/{game_id}", additional_headers={"cookie": self.cookie})

    def until(self, pred) -> dict:
        while True:
            msg = json.loads(self.ws.recv(timeout=15))
            if pred(msg):
                return msg


def _play(south: Seat, north: Seat, rated: bool) -> str:
    """A classic «Морской бой»: South creates, North joins; both auto-arrange; each side begins two turns, shooting
    the first legal cell; then the side to act resigns. :returns: the game's id."""
    r = south.http("POST", "/games", json={"game": "battleship", "options": {"rules": "classic"}, "side": "south",
                                           "rated": rated})  # fmt: skip
    assert r.status_code == 201, r.text
    game_id, invite = r.json()["game_id"], r.json()["invite_url"]
    page = north.http("GET", invite).text
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert north.http("POST", invite, data={"csrf_token": csrf}).status_code == 303
    seats = {"south": south, "north": north}
    for s in seats.values():
        s.open(game_id)
        s.until(lambda m: m["type"] == "snapshot")
        s.ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
        draft = s.until(lambda m: m["type"] == "setup.state")["draft"]
        s.ws.send(json.dumps({"type": "setup.ready", "setup": draft}))
    snaps = {side: s.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play") for side, s in
             seats.items()}  # fmt: skip
    begun = {"south": 0, "north": 0}
    last = None
    while min(begun.values()) < 2:  # each side begins two turns (a hit shoots again): the game counts
        side = snaps["south"]["view"]["to_act"]
        if side != last:
            begun[side], last = begun[side] + 1, side
        snap = snaps[side]
        version = snap["game"]["version"]
        seats[side].ws.send(
            json.dumps({"type": "action", "ply": version, "action": snap["view"]["legal"][0]["notation"]})
        )
        snaps = {s: seats[s].until(lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)
                 for s in seats}  # fmt: skip
    second = snaps["south"]["view"]["to_act"]
    seats[second].ws.send(json.dumps({"type": "resign"}))
    for s in seats.values():
        s.until(lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None)
        s.ws.close()
    return game_id


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_rating_in_bars_and_result_and_the_unrated_reason(browser, server_url, shots, size) -> None:
    opts = LAPTOP if size == "laptop" else PHONE
    out = shots / "rating"
    out.mkdir(parents=True, exist_ok=True)
    tag = f"{size}-{id(opts) % 1000}"
    ctx_a, ctx_b = browser.new_context(**opts), browser.new_context(**opts)
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        a.set_default_timeout(TIMEOUT_MS)
        b.set_default_timeout(TIMEOUT_MS)
        _register(a, server_url, f"Немо {tag}"[:24], f"nemo-{tag}@example.org")
        _register(b, server_url, f"Синдбад {tag}"[:24], f"sinbad-{tag}@example.org")
        # the friend form offers «Рейтинговая партия», checked for a registered commander
        a.goto(server_url + "/")
        assert a.locator("#new-game input[name=rated]").is_checked()
        game_id = _play(Seat(server_url, _cookie(ctx_a)), Seat(server_url, _cookie(ctx_b)), rated=True)
        for page, name in ((a, "nemo"), (b, "sinbad")):
            page.goto(f"{server_url}/g/{game_id}")
            page.locator(".result-panel .credit-rating").wait_for()
            line = page.locator(".result-panel .credit-rating").inner_text()
            assert re.fullmatch(r"Рейтинг: (1662\? \(\+162\)|1338\? \(−162\))\.", line), line
            # nickname, then «rank · rating» (core/names.js: the lobby's order too)
            bars = page.locator(".player-bar .pb-info").all_inner_texts()
            assert any(re.fullmatch(r"\S.* · 1662\?", t) for t in bars), bars
            assert any(re.fullmatch(r"\S.* · 1338\?", t) for t in bars), bars
            page.screenshot(path=out / f"{size}-rated-{name}.png", full_page=True)
        # «Личное дело»: the rating per game and its chart, drawn by the server
        a.goto(server_url + "/profile")
        chart = a.locator("section.game-rating[data-rating=battleship] svg.rating-chart")
        assert chart.is_visible() and chart.locator("polyline").count() == 1
        a.locator("section.game-rating").scroll_into_view_if_needed()
        a.screenshot(path=out / f"{size}-profile.png", full_page=True)
        # the same browser as Nemo, logged out (a guest of that browser), plays Nemo: nothing is counted
        guest_ctx = browser.new_context(**opts)
        try:
            token = next(c for c in ctx_a.cookies() if c["name"] == "admiral_browser")
            guest_ctx.add_cookies([{**token}])
            guest = guest_ctx.new_page()
            guest.set_default_timeout(TIMEOUT_MS)
            guest.goto(server_url + "/")
            box = guest.locator("#new-game input[name=rated]")
            assert box.is_disabled() and not box.is_checked()  # a guest: casual only, with the note
            assert "Только для зарегистрированных командиров" in guest.locator("#new-game").inner_text()
            game_id = _play(Seat(server_url, _cookie(guest_ctx)), Seat(server_url, _cookie(ctx_a)), rated=False)
            guest.goto(f"{server_url}/g/{game_id}")
            panel = guest.locator(".result-panel .credit-unrated")
            panel.wait_for()
            assert [x for x in panel.inner_text().splitlines() if x.strip()] == [
                "Партия без начисления очков.", "Оба места заняты из одного браузера."
            ]  # fmt: skip
            guest.screenshot(path=out / f"{size}-unrated.png", full_page=True)
        finally:
            guest_ctx.close()
    finally:
        ctx_a.close()
        ctx_b.close()
