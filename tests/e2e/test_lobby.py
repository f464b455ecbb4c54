"""Two strangers meet through the lobby in real browsers (issue 19, docs/protocol.md "Lobby").

A laptop makes an open challenge with the friend form («Открытый вызов») and waits on the home page, where the list
shows it as theirs; a phone sees it in «Вызовы» and accepts it with one tap; both pages go to the game, set up and
play; a third browser finds the game in «Сейчас играют» and opens it as a spectator; after the end both find it in
«Мои партии». Then two phones meet through quick pairing.
"""

from __future__ import annotations

import re

from .ui import DESKTOP, PHONE, TIMEOUT_MS, press


def ready(page) -> None:
    """Auto-arrange and get ready, on the game page."""
    press(page, page.get_by_role("button", name="Авторасстановка"))
    page.get_by_role("button", name="Готов").wait_for()
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    press(page, page.get_by_role("button", name="Готов"))


def test_strangers_meet_through_the_challenge_list_and_a_third_watches(browser, server_url, shots, page_errors):
    laptop, phone, third = browser.new_context(**DESKTOP), browser.new_context(**PHONE), browser.new_context(**PHONE)
    try:
        creator = page_errors(laptop.new_page(), "creator")
        taker = page_errors(phone.new_page(), "taker")
        watcher = page_errors(third.new_page(), "watcher")
        for page in (creator, taker, watcher):
            page.set_default_timeout(TIMEOUT_MS)

        # The laptop: the friend form, «Открытый вызов», 10+5; back on the home page with the challenge as theirs.
        creator.goto(server_url + "/")
        creator.get_by_text("Открытый вызов (любой соперник)").click()
        creator.locator("#new-game input[name=time_control][value='10+5']").check()
        creator.get_by_role("button", name="Создать партию").click()
        creator.wait_for_url(re.compile(r"/\?game=admiral#challenges$"))
        mine = creator.locator(".challenge.mine")
        mine.wait_for()
        game_id = mine.get_attribute("data-id")
        assert "Ваш вызов" in mine.inner_text() and "10+5" in mine.inner_text()
        assert mine.get_by_role("button", name="Отменить").is_visible()
        assert mine.get_by_role("button", name="Принять").count() == 0
        creator.screenshot(path=shots / "lobby-01-own-challenge-laptop.png")

        # The phone: the list shows it (Гость, 10+5, без рейтинга) with «Принять»; one tap.
        taker.goto(server_url + "/")
        theirs = taker.locator(f".challenge[data-id='{game_id}']")
        theirs.wait_for()
        text = theirs.inner_text()
        assert "Гость" in text and "10+5" in text and "без рейтинга" in text and "Адмирал" in text
        taker.screenshot(path=shots / "lobby-02-home-phone.png", full_page=True)
        taker.locator("#challenges").screenshot(path=shots / "lobby-02-challenge-list-phone.png")
        # the list follows the game tab: «Морской бой» shows none of «Адмирал»'s challenges
        taker.locator(".game-tab:has(input[value=battleship])").tap()
        theirs.wait_for(state="detached")
        taker.locator(".game-tab", has_text="Адмирал").tap()
        press(taker, taker.locator(f".challenge[data-id='{game_id}']").get_by_role("button", name="Принять"))

        # Both go to the game: the creator's page followed by itself.
        taker.wait_for_url(re.compile(rf"/g/{game_id}$"))
        creator.wait_for_url(re.compile(rf"/g/{game_id}$"))
        for page in (creator, taker):
            page.wait_for_selector(".arsenal-item")
            ready(page)
        creator.wait_for_selector(".play-board .unit")
        taker.wait_for_selector(".play-board .unit")

        # The third browser: «Сейчас играют» lists the game with both commanders and clocks; it opens as a spectator.
        watcher.goto(server_url + "/")
        live = watcher.locator(f".live-game:has(a[href='/g/{game_id}'])")
        live.wait_for(timeout=TIMEOUT_MS)
        text = live.inner_text()
        assert "Адмирал · 10+5" in text and "Гость — Гость" in text and re.search(r"\d:\d\d — 10:00", text), text
        watcher.locator("#live-games").screenshot(path=shots / "lobby-03-live-games-phone.png")
        press(watcher, live.get_by_role("link", name="Смотреть"))
        watcher.wait_for_url(re.compile(rf"/g/{game_id}$"))
        watcher.wait_for_selector(".play-board .unit")
        units = watcher.locator(".play-board .unit")
        # 2 × 58 units, every one a closed marker to a spectator
        assert units.count() == watcher.locator(".play-board .unit.marker").count() == 116
        assert watcher.get_by_role("button", name="Сдаться").count() == 0
        watcher.screenshot(path=shots / "lobby-04-spectator-phone.png")

        # The creator resigns; both strangers find the game in «Мои партии»: a loss for one, a win for the other.
        creator.once("dialog", lambda d: d.accept())
        press(creator, creator.get_by_role("button", name="Сдаться"))
        for page in (creator, taker):
            page.locator(".result-panel h2").wait_for()
        for page, outcome in ((creator, "loss"), (taker, "win")):
            page.goto(server_url + "/games")
            line = page.locator(f".history-item[data-game-id='{game_id}']")
            line.wait_for()
            assert outcome in line.get_attribute("class").split(), line.get_attribute("class")
            assert "Гость" in line.inner_text()
        taker.screenshot(path=shots / "lobby-06-history-phone.png")
        assert page_errors.errors == []
    finally:
        for ctx in (laptop, phone, third):
            ctx.close()


def test_quick_pairing_pairs_two_phones(browser, server_url, shots, page_errors):
    one, two = browser.new_context(**PHONE), browser.new_context(**DESKTOP)
    try:
        a = page_errors(one.new_page(), "a")
        b = page_errors(two.new_page(), "b")
        for page in (a, b):
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(server_url + "/?game=battleship")
        press(a, a.locator("[data-pair][data-game=battleship][data-tc='5+3']"))
        a.get_by_text("Ищем соперника: Морской бой, 5+3…").wait_for()
        a.screenshot(path=shots / "lobby-05-seeking-phone.png")
        press(b, b.locator("[data-pair][data-game=battleship][data-tc='5+3']"))
        a.wait_for_url(re.compile(r"/g/"))
        b.wait_for_url(re.compile(r"/g/"))
        assert a.url == b.url
        assert page_errors.errors == []
    finally:
        one.close()
        two.close()


def test_a_tab_over_the_cap_says_the_list_is_unavailable_and_recovers(browser, server_url, shots, page_errors):
    """QA issue 19 (u10): a 9th home tab of one browser (over ``LOBBY_MAX_PER_BROWSER``) says why it has no list and
    never claims that there are no challenges; when a tab closes, it connects by itself (backoff) and lists them."""
    ctx = browser.new_context(**DESKTOP)
    try:
        tabs = []
        first = page_errors(ctx.new_page(), "tab1")
        first.set_default_timeout(TIMEOUT_MS)
        first.goto(server_url + "/")
        first.get_by_text("Открытый вызов (любой соперник)").click()
        first.get_by_role("button", name="Создать партию").click()
        first.locator(".challenge.mine").wait_for()
        game_id = first.locator(".challenge.mine").get_attribute("data-id")
        tabs.append(first)
        for n in range(2, 9):
            page = page_errors(ctx.new_page(), f"tab{n}")
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(server_url + "/")
            page.locator(f".challenge[data-id='{game_id}']").wait_for()
            tabs.append(page)
        extra = page_errors(ctx.new_page(), "tab9")
        extra.set_default_timeout(TIMEOUT_MS)
        extra.goto(server_url + "/")
        state = extra.locator("[data-lobby-status]")
        extra.get_by_text("Главная страница уже открыта в 8 вкладках").wait_for()
        assert "Список вызовов в этой вкладке недоступен" in state.inner_text()
        assert extra.locator("[data-challenge-empty]").is_hidden()
        assert extra.locator("[data-live-empty]").is_hidden()
        extra.locator("#challenges").screenshot(path=shots / "lobby-07-tab-over-the-cap.png")
        tabs.pop().close()  # a place frees: the 9th tab finds it on its next try (5 s, then 10 s, …)
        extra.locator(f".challenge[data-id='{game_id}']").wait_for(timeout=40_000)
        assert state.is_hidden()
        assert page_errors.errors == []
    finally:
        ctx.close()
