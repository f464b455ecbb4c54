"""The player bars on a phone (360×740, touch) keep every essential part whole, in every game of the registry.

QA found the bars cut the rating, the rank and even the turn label on a phone («Qa30932 · 15…», «КапитанНемоД…»,
«х…») in a rated game between registered commanders. Two commanders with 24-character nicknames register
through the form and start a rated game of each game over its socket; each opens the game on a phone: the
nickname, «rank · rating» and the turn label («ходит», «стреляет») are whole (scrollWidth ≤ clientWidth) and
inside the viewport, and the bar reads nickname · rank · rating like the lobby (one formatter, core/names.js).
Screenshots in ``artifacts/e2e/bars/``.
"""

from __future__ import annotations

import json
import secrets

import pytest

from .test_rating import Seat, _cookie, _register
from .ui import PHONE, TIMEOUT_MS

GAMES = {
    "admiral": {"game": "admiral"},
    "battleship": {"game": "battleship", "options": {"rules": "classic"}},
    "battleship_ext": {"game": "battleship_ext", "options": {"board": "giant", "mines": 3, "sweepers": 1}},
}

# every part of a bar that must never be cut, and how to read whether it is
_CUT = """bar => [...bar.querySelectorAll('.pb-name, .pb-info, .pb-turn, .clock')]
  .filter(e => e.textContent.trim() !== '')
  .map(e => { const r = e.getBoundingClientRect();
              return {cls: e.className, text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth,
                      left: r.left, right: r.right, vw: window.innerWidth}; })"""


def start_game(south: Seat, north: Seat, settings: dict, rated: bool = True) -> str:
    """A game South creates and North joins, both fleets or armies auto-arranged: in play. :returns: its id."""
    r = south.http("POST", "/games", json={**settings, "side": "south", "rated": rated})
    assert r.status_code == 201, r.text
    game_id, invite = r.json()["game_id"], r.json()["invite_url"]
    page = north.http("GET", invite).text
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert north.http("POST", invite, data={"csrf_token": csrf}).status_code == 303
    for s in (south, north):
        s.open(game_id)
        s.until(lambda m: m["type"] == "snapshot")
        s.ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
        draft = s.until(lambda m: m["type"] == "setup.state")["draft"]
        s.ws.send(json.dumps({"type": "setup.ready", "setup": draft}))
    for s in (south, north):
        s.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play")
        s.ws.close()
    return game_id


@pytest.mark.parametrize("game", list(GAMES))
def test_phone_bars_keep_nickname_rank_rating_and_turn_whole(browser, server_url, shots, page_errors, game) -> None:
    out = shots / "bars"
    out.mkdir(parents=True, exist_ok=True)
    tag = secrets.token_hex(3)
    names = [f"CaptainNemo{tag}Farsailing"[:24], f"SinbadTheSailor{tag}Seven"[:24]]
    assert all(len(n) == 24 for n in names)
    ctxs = [browser.new_context(**PHONE) for _ in names]
    try:
        pages = [page_errors(c.new_page(), f"seat{i}") for i, c in enumerate(ctxs)]
        for page, name in zip(pages, names, strict=True):
            page.set_default_timeout(TIMEOUT_MS)
            _register(page, server_url, name, f"{name.lower()}@example.org")
        game_id = start_game(Seat(server_url, _cookie(ctxs[0])), Seat(server_url, _cookie(ctxs[1])), GAMES[game])
        for i, page in enumerate(pages):
            page.goto(f"{server_url}/g/{game_id}")
            page.locator(".player-bar.acting .pb-turn").first.wait_for()
            page.wait_for_function("() => document.querySelectorAll('.player-bar .pb-info:not(:empty)').length >= 2")
            bars = page.locator(".player-bar")
            assert bars.count() == 2
            seen = set()
            for j in range(2):
                bar = bars.nth(j)
                nick = bar.locator(".pb-name").inner_text()
                info = bar.locator(".pb-info").inner_text()
                seen.add(nick.removesuffix(" (вы)"))
                # nickname · rank · rating, as the lobby orders them (names.js)
                assert info == "Матрос · 1500?", info
                for part in bar.evaluate(_CUT):
                    assert part["sw"] <= part["cw"], f"{game}: cut {part}"
                    assert part["left"] >= 0 and part["right"] <= part["vw"], f"{game}: outside the screen {part}"
            assert seen == set(names)
            turn = page.locator(".player-bar.acting .pb-turn")
            assert turn.inner_text() in {"ходит", "стреляет", "защищается"}, turn.inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.screenshot(path=out / f"phone-{game}-{'south' if i == 0 else 'north'}.png")
            # the chat strip open (QA saw the bars cut then too): the bars stay whole
            page.locator(".chat .chat-toggle").click()
            page.locator(".chat.open").wait_for()
            for j in range(2):
                for part in bars.nth(j).evaluate(_CUT):
                    assert part["sw"] <= part["cw"] and part["right"] <= part["vw"], f"{game}, chat open: {part}"
            page.screenshot(path=out / f"phone-{game}-{'south' if i == 0 else 'north'}-chat.png", full_page=True)
        assert page_errors.errors == []
    finally:
        for c in ctxs:
            c.close()
