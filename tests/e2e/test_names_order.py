"""One order for a commander's name, rank and rating on every page: «Nickname · rank · rating».

QA: the lobby read «QaRatC · Матрос · 1500?», the player bars «QaRatT · 1500? · Матрос». Both now come from
static/js/core/names.js: a registered commander's rated open challenge in «Вызовы» reads exactly what
``commanderLine`` makes of it, and so does the bars' ``playerLine`` for the same commander in a game's snapshot
(the bars themselves: test_bars_phone.py).
"""

from __future__ import annotations

import secrets

from .test_rating import Seat, _cookie, _register
from .ui import TIMEOUT_MS

LAPTOP = {"viewport": {"width": 1366, "height": 768}}

_FORMATTERS = """async (name) => {
  const names = await import('/static/js/core/names.js');
  const bars = await import('/static/js/core/bars.js');
  return {
    line: names.commanderLine({name, rank: 'Матрос', rating: 1500, provisional: true}),
    bar: bars.playerLine({name, joined: true, rank: {name: 'Матрос'}, rating: {rating: 1500, provisional: true}},
                         'south'),
    details: bars.playerDetails({name, rank: {name: 'Матрос'}, rating: {rating: 1500, provisional: true}}),
  };
}"""


def test_lobby_and_bars_name_a_commander_in_one_order(browser, server_url, page_errors) -> None:
    nick = f"QaOrder{secrets.token_hex(3)}"
    ctxs = [browser.new_context(**LAPTOP) for _ in range(2)]
    try:
        creator, viewer = (page_errors(c.new_page(), n) for c, n in zip(ctxs, ("creator", "viewer"), strict=True))
        for p in (creator, viewer):
            p.set_default_timeout(TIMEOUT_MS)
        _register(creator, server_url, nick, f"{nick.lower()}@example.org")
        creator.goto(server_url + "/")  # the creator waits on the home page: the challenge stays listed
        r = Seat(server_url, _cookie(ctxs[0])).http(
            "POST", "/games", json={"game": "admiral", "listing": "open", "side": "random", "rated": True}
        )
        assert r.status_code == 201, r.text
        viewer.goto(server_url + "/")
        who = viewer.locator("[data-challenge-list] li .who", has_text=nick)
        who.wait_for()
        made = viewer.evaluate(_FORMATTERS, nick)
        assert who.inner_text() == f"{nick} · Матрос · 1500?"
        assert made == {"line": who.inner_text(), "bar": who.inner_text(), "details": "Матрос · 1500?"}
        assert page_errors.errors == []
    finally:
        for c in ctxs:
            c.close()
