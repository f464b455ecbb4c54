"""The home page on a phone (360×740, touch) keeps its forms near the top however many games are on.

QA: with 10+ games in «Сейчас играют» the phone's «Играть с другом» began at y≈2576 px. Twelve games are started
through the app (two guests, created, joined and auto-arranged over the game's socket) and open challenges made by
a guest waiting on the home page; a third guest opens the home page: each lobby list shows its first 3 entries and
«Показать все (N)», «Играть с другом» starts within two screens (the live list goes under the forms on a phone),
and the button opens and closes the whole list.
Screenshots in ``artifacts/e2e/home/``.
"""

from __future__ import annotations

from .test_bars_phone import start_game
from .test_rating import Seat, _cookie
from .ui import PHONE, TIMEOUT_MS

GAMES = 12


def test_long_lobby_lists_fold_on_a_phone(browser, server_url, shots, page_errors) -> None:
    out = shots / "home"
    out.mkdir(parents=True, exist_ok=True)
    ctxs = [browser.new_context(**PHONE) for _ in range(3)]
    try:
        south, north, viewer = (page_errors(c.new_page(), n) for c, n in zip(ctxs, ("s", "n", "v"), strict=True))
        for p in (south, north, viewer):
            p.set_default_timeout(TIMEOUT_MS)
            p.goto(server_url + "/")
        seats = [Seat(server_url, _cookie(c)) for c in ctxs[:2]]
        for _ in range(GAMES):
            start_game(*seats, {"game": "battleship", "options": {"rules": "classic"}}, rated=False)
        # open challenges from both, who wait on the home page (their lobby sockets keep them listed)
        made = 0
        for seat, page in zip(seats, (south, north), strict=True):
            page.goto(server_url + "/")
            for _ in range(3):
                r = seat.http("POST", "/games", json={"game": "admiral", "listing": "open", "side": "random"})
                made += r.status_code == 201
        assert made > 3

        viewer.goto(server_url + "/")
        live, more = viewer.locator("[data-live-list]"), viewer.locator("#live-games [data-fold-toggle]")
        # the live list refreshes every few seconds
        viewer.wait_for_function(f"() => document.querySelectorAll('[data-live-list] > li').length >= {GAMES}",
                                 timeout=30_000)  # fmt: skip
        n = live.locator("li").count()
        assert more.inner_text() == f"Показать все ({n})"
        assert live.locator("li:visible").count() == 3
        viewer.screenshot(path=out / "phone-folded.png", full_page=True)
        viewer.screenshot(path=out / "phone-folded-top.png", full_page=True, clip={"x": 0, "y": 0, "width": 360,
                                                                                   "height": 2 * 740})  # fmt: skip
        friend_y = viewer.locator("#play-friend").bounding_box()["y"]
        assert friend_y < 2 * 740, f"«Играть с другом» at y={friend_y:.0f}"
        assert viewer.locator("#live-games").bounding_box()["y"] > viewer.locator("#play-ai").bounding_box()["y"]
        challenges = viewer.locator("[data-challenge-list]")
        viewer.wait_for_function(f"() => document.querySelectorAll('[data-challenge-list] > li').length >= {made}")
        assert challenges.locator("li:visible").count() == 3
        # other tests on the same server may have left challenges listed: the button counts the whole list
        listed = challenges.locator("li").count()
        assert listed >= made
        assert viewer.locator("#challenges [data-fold-toggle]").inner_text() == f"Показать все ({listed})"

        more.click()
        # every entry shows (the list may have grown since: games of other tests on the shared server start and end)
        assert live.locator("li:visible").count() == live.locator("li").count() >= n - 2
        assert more.inner_text() == "Свернуть" and more.get_attribute("aria-expanded") == "true"
        viewer.screenshot(path=out / "phone-open.png", full_page=True)
        more.click()
        assert live.locator("li:visible").count() == 3
        # a laptop keeps the two lobby columns side by side, 8 entries before «Показать все»
        laptop_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            laptop = page_errors(laptop_ctx.new_page(), "laptop")
            laptop.goto(server_url + "/")
            laptop.wait_for_function(f"() => document.querySelectorAll('[data-live-list] > li').length >= {GAMES}",
                                     timeout=30_000)  # fmt: skip
            assert laptop.locator("[data-live-list] li:visible").count() == 8
            assert laptop.locator("#live-games [data-fold-toggle]").is_visible()
            top = [laptop.locator(s).bounding_box()["y"] for s in ("#challenges", "#live-games")]
            assert top[0] == top[1]
            laptop.screenshot(path=out / "laptop-folded.png", full_page=True)
        finally:
            laptop_ctx.close()
        assert page_errors.errors == []
    finally:
        for c in ctxs:
            c.close()
