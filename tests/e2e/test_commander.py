"""A guest earns points, registers keeping them, and a second browser logs in to the same profile (issue 5).

The guest plays level 1 with a 6-second clock (created through the JSON API, which the e2e server allows with
``TEST_TIME_CONTROLS``), makes its two turns and lets its flag fall: a counted loss that earns points
(PROGRESSION.md §2: only resigning gives 0).
"""

from __future__ import annotations

import re

from .ui import DESKTOP, PHONE, TIMEOUT_MS, legal, play, start_ai_game

NICK = "Адмирал Ушаков"
PASSWORD = "Керчь-Калиакрия-1791"


def test_guest_points_survive_registration_and_a_second_device(browser, server_url, shots, page_errors):
    laptop = browser.new_context(**DESKTOP)
    phone = browser.new_context(**PHONE)
    try:
        page = page_errors(laptop.new_page(), "guest")
        page.set_default_timeout(TIMEOUT_MS)
        start_ai_game(page, server_url, base_ms=6000, increment_ms=0)
        for _ in range(2):
            page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
            play(page, next(a["notation"] for a in legal(page) if a["type"] == "move"))
        page.locator(".result-panel .credit-points").wait_for(timeout=20_000)
        text = page.locator(".result-panel").inner_text()
        earned = int(re.search(r"Очки за партию: (\d+)", text).group(1))
        assert earned > 0 and "закончилось время" in text

        # register from this guest browser: the points stay
        page.goto(server_url + "/register")
        page.get_by_label("Электронная почта").fill("ushakov@example.org")
        page.get_by_label("Псевдоним командира").fill(NICK)
        page.get_by_label("Пароль (не короче 8 символов)").fill(PASSWORD)
        page.get_by_label("Пароль ещё раз").fill(PASSWORD)
        page.get_by_role("button", name="Зарегистрироваться").click()
        page.wait_for_url(re.compile(r"/profile"))
        assert NICK in page.locator("h1").inner_text()
        # 2 turns of 40 pay a twentieth (PROGRESSION.md §2's engagement): a few points, any plural form
        assert re.search(rf"\b{earned} очк(о|а|ов)\b", page.locator(".rank-line").inner_text())
        page.screenshot(path=shots / "40-profile-laptop.png", full_page=True)

        # a second device logs in and sees the same profile
        other = page_errors(phone.new_page(), "phone")
        other.set_default_timeout(TIMEOUT_MS)
        other.goto(server_url + "/login")
        other.get_by_label("Почта или псевдоним").fill(NICK)
        other.get_by_label("Пароль").fill(PASSWORD)
        other.get_by_role("button", name="Войти").click()
        other.wait_for_url(re.compile(r"/profile"))
        assert NICK in other.locator("h1").inner_text()
        assert re.search(rf"\b{earned} очк(о|а|ов)\b", other.locator(".rank-line").inner_text())
        assert other.locator("[data-stat=games_played]").inner_text() == "1"
        other.locator("details.award[data-award=veteran] summary").click()
        assert "до следующей степени — 9" in other.locator("details.award[data-award=veteran]").inner_text()
        other.screenshot(path=shots / "41-profile-phone.png", full_page=True)
        other.goto(server_url + "/leaders")
        assert NICK in other.locator("table").inner_text()
        assert page_errors.errors == []
    finally:
        laptop.close()
        phone.close()
