"""«Мои партии» in real Chromium (issue 19, PROGRESSION.md §4): a guest finishes a short game against the AI, opens
«Мои партии» from the top bar, finds the game (opponent, result, reason), opens its replay: both fleets open, the
move list, the record's download; a stranger opening the same link sees the same. «Адмирал» on a laptop
(1366×768), «Морской бой» on a phone (360×740, touch; the player's in the dark theme). Screenshots:
``artifacts/e2e/history/``.
"""

from __future__ import annotations

import re

import pytest

from .test_battleship import auto, fire, ready
from .ui import PHONE, TIMEOUT_MS, play, press, start_ai_game, steps, version

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture
def history_shots(shots):
    d = shots / "history"
    d.mkdir(parents=True, exist_ok=True)
    return d


def resign(page) -> None:
    """«Сдаться» (confirmed) and wait for the result panel."""
    page.once("dialog", lambda d: d.accept())
    press(page, page.get_by_role("button", name="Сдаться"))
    page.locator(".result-panel h2").wait_for()


def open_my_games(page) -> None:
    """«Мои партии» in the top bar, in sight without scrolling the bar; waits for the list."""
    link = page.locator(".topbar a.my-games")
    box = link.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    press(page, link)
    page.wait_for_url(re.compile(r"/games$"))
    page.locator(".history-item").first.wait_for()


def test_laptop_admiral_game_in_my_games_and_its_replay(browser, server_url, history_shots, page_errors):
    ctx = browser.new_context(**LAPTOP)
    watcher = browser.new_context(**LAPTOP)
    try:
        page = page_errors(ctx.new_page(), "player")
        page.set_default_timeout(TIMEOUT_MS)
        start_ai_game(page, server_url)
        game_url = page.url.removeprefix(server_url)
        # one step, the bot's answer, then the resignation
        v = version(page)
        src, dst = steps(page)[0]
        play(page, f"{src}-{dst}")
        page.wait_for_function(
            "v => window.admiral.game.version >= v && window.admiral.view.to_act === 'south'", arg=v + 2
        )
        resign(page)
        open_my_games(page)
        line = page.locator(f".history-item[data-game-id='{game_url.removeprefix('/g/')}']")
        text = " ".join(line.inner_text().split())
        assert text.startswith("Поражение соперник: ИИ: 1. Юнга Адмирал сдача 3 полухода"), text
        assert "без рейтинга не засчитана" in text  # PROGRESSION.md §2: before each side made two turns
        page.screenshot(path=history_shots / "laptop-my-games.png")
        # «Личное дело» shows it too, and says a guest's games live in this browser only
        page.goto(server_url + "/profile")
        assert page.locator(".record-history .history-item").count() == 1
        assert "только в этом браузере" in page.locator(".record-history").inner_text()
        page.screenshot(path=history_shots / "laptop-profile.png", full_page=True)
        page.goto(server_url + "/games")
        press(page, line.get_by_role("link", name="Запись партии"))
        page.wait_for_url(re.compile(re.escape(game_url) + "$"))
        for viewer, name in ((page, "player"), (page_errors(watcher.new_page(), "stranger"), "stranger")):
            viewer.set_default_timeout(TIMEOUT_MS)
            if name == "stranger":
                viewer.goto(server_url + game_url)
            viewer.locator(".result-panel h2").wait_for()
            # both fleets open: every unit of both sides shows its kind
            viewer.wait_for_function(
                "() => window.admiral.view && window.admiral.view.units.length === 116"
                " && window.admiral.view.units.every(u => u.kind)"
            )
            assert viewer.locator(".play-board .unit.marker").count() == 0
            moves = viewer.locator(".moves-box li")
            assert moves.count() >= 2, moves.count()
            record = viewer.get_by_role("link", name="Скачать запись (JSON)")
            assert record.get_attribute("href") == f"/api/games/{game_url.removeprefix('/g/')}/record.json"
            press(viewer, viewer.get_by_role("button", name="Смотреть запись"))
            viewer.wait_for_selector(".replay-controls")
            press(viewer, viewer.get_by_role("button", name="В конец"))
            # the end action in words, not in notation («resign south»)
            assert viewer.locator(".replay-label").inner_text() == "Полуход 3 из 3: Юг сдался."
            viewer.screenshot(path=history_shots / f"laptop-replay-{name}.png")
        assert page_errors.errors == []
    finally:
        ctx.close()
        watcher.close()


def test_phone_battleship_game_in_my_games_and_its_replay(browser, server_url, history_shots, page_errors):
    ctx = browser.new_context(**PHONE, color_scheme="dark")  # the player's phone in the dark theme
    watcher = browser.new_context(**PHONE)
    try:
        page = page_errors(ctx.new_page(), "player")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        url = page.evaluate(
            """() => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                 body: JSON.stringify({game: "battleship", opponent: "ai", ai_level: 2, options: {rules: "classic"}})})
                 .then((r) => r.json()).then((d) => d.url)"""
        )
        page.goto(server_url + url)
        page.wait_for_selector(".bs-setup")
        auto(page)
        ready(page)
        page.wait_for_function("() => window.admiral?.game.status === 'play'")
        # a few shots by taps on our turn, then the resignation
        for _ in range(3):
            page.wait_for_function("() => window.admiral?.view.to_act === window.admiral?.game.seat")
            fire(page, page.evaluate("() => window.admiral.view.legal[0].cell"))
        page.wait_for_function("() => window.admiral?.view.to_act === window.admiral?.game.seat")
        plies = version(page) + 1  # the resignation is the record's last action
        resign(page)
        open_my_games(page)
        game_id = url.removeprefix("/g/")
        line = page.locator(f".history-item[data-game-id='{game_id}']")
        text = " ".join(line.inner_text().split())
        assert text.startswith("Поражение соперник: ИИ: 2."), text
        assert "Морской бой сдача" in text and re.search(rf"\b{plies} полуход", text), text
        page.screenshot(path=history_shots / "phone-my-games.png", full_page=True)
        page.goto(server_url + "/profile")
        assert page.locator(".record-history .history-item").count() == 1
        page.screenshot(path=history_shots / "phone-profile.png", full_page=True)
        page.goto(server_url + "/games")
        press(page, line.get_by_role("link", name="Запись партии"))
        page.wait_for_url(re.compile(re.escape(url) + "$"))
        for viewer, name in ((page, "player"), (page_errors(watcher.new_page(), "stranger"), "stranger")):
            viewer.set_default_timeout(TIMEOUT_MS)
            if name == "stranger":
                viewer.goto(server_url + url)
            viewer.locator(".result-panel h2").wait_for()
            # both fleets open: the attack grid shows the bot's whole fleet, the own grid the player's
            assert viewer.locator(".bs-grid .bs-cell.ship").count() >= 40  # 20 decks a fleet (classic, A2)
            assert viewer.locator(".bs-log li").count() >= 3
            record = viewer.get_by_role("link", name="Скачать запись (JSON)")
            assert record.get_attribute("href") == f"/api/games/{game_id}/record.json"
            press(viewer, viewer.get_by_role("button", name="Смотреть запись"))
            viewer.wait_for_selector(".replay-controls")
            press(viewer, viewer.get_by_role("button", name="В конец"))
            label = viewer.locator(".replay-label").inner_text()
            assert re.fullmatch(rf"Полуход {plies} из {plies}: (Юг|Север) сдался\.", label), label
            viewer.screenshot(path=history_shots / f"phone-replay-{name}.png", full_page=True)
        assert page_errors.errors == []
    finally:
        ctx.close()
        watcher.close()
