"""Issue 18 items 6 and 14 in a real browser, at 1366×768 and 360×740 with touch: the dark theme (the top bar's
switch, remembered, and the system's prefers-color-scheme) on the home page, a game's board, «Морской бой»'s grids
and the rules page; «О проекте» from the footer; the battle card, the formation dialog and the tutorial speaking of
«сила» (the scale) and «ряд» only for the board's rows. Screenshots in ``artifacts/e2e/polish/``."""

from __future__ import annotations

import re

import pytest

from admiral.games import GAMES

from .test_tutorial import close_card, refused, wait_step
from .ui import PHONE, TIMEOUT_MS, cell, defend, press, start_ai_game

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
DEVICES = {"desktop": LAPTOP, "phone": PHONE}

#: The data-theme on <html> at the moment <body> is inserted: set by then, the first paint has the theme.
WATCH_FIRST_PAINT = """
new MutationObserver((records, observer) => {
  if (document.body) {
    window.__themeAtBody = document.documentElement.getAttribute("data-theme");
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


#: «ряд» in any case form (a board row); «рядом» (next to) is another word.
ROW_WORD = re.compile(r"\b[Рр]яд(а|у|е|ы|ов|ам|ами|ах)?\b")


def theme(page) -> str:
    return page.evaluate("document.documentElement.getAttribute('data-theme')")


def background(page, selector: str = "body") -> tuple[int, ...]:
    """The computed background colour of the first ``selector`` (of <html> for body: the page's canvas)."""
    css = page.evaluate(
        """s => { const e = s === "body" ? document.documentElement : document.querySelector(s);
                  return getComputedStyle(e).backgroundColor; }""",
        selector,
    )
    return tuple(int(float(x)) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


def is_dark(rgb: tuple[int, ...]) -> bool:
    return sum(rgb) / 3 < 70


def is_light(rgb: tuple[int, ...]) -> bool:
    return sum(rgb) / 3 > 200


def choose_theme(page, choice: str) -> None:
    press(page, page.locator(f".theme-switch [data-theme-choice='{choice}']"))
    page.wait_for_function("c => document.documentElement.getAttribute('data-theme-choice') === c", arg=choice)


@pytest.fixture
def polish(shots):
    d = shots / "polish"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.mark.parametrize("device", list(DEVICES))
def test_dark_theme_switch_and_system_preference(browser, server_url, polish, page_errors, device):
    ctx = browser.new_context(**DEVICES[device], color_scheme="light")
    ctx.add_init_script(WATCH_FIRST_PAINT)
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        # a light system and no choice: light, the switch on «auto»
        assert theme(page) == "light" and is_light(background(page))
        switch = page.locator(".theme-switch")
        assert switch.is_visible()
        assert switch.locator("[aria-pressed='true']").get_attribute("data-theme-choice") == "auto"
        choose_theme(page, "dark")
        assert theme(page) == "dark" and is_dark(background(page))
        assert page.evaluate("localStorage.getItem('admiral_theme')") == "dark"
        assert switch.locator("[aria-pressed='true']").get_attribute("data-theme-choice") == "dark"
        assert is_dark(background(page, ".card"))
        page.screenshot(path=polish / f"dark-home-{device}.png", full_page=True)

        # remembered: the next page is dark from its first paint
        page.goto(server_url + "/rules")
        assert page.evaluate("window.__themeAtBody") == "dark"
        assert is_dark(background(page, ".scale-table thead th"))
        page.locator("#scale").scroll_into_view_if_needed()
        page.screenshot(path=polish / f"dark-rules-scale-{device}.png")
        page.locator("#collisions").scroll_into_view_if_needed()
        page.screenshot(path=polish / f"dark-rules-collisions-{device}.png")

        # a game's board against the AI: dark sea, units and the clock readable
        start_ai_game(page, server_url)
        assert theme(page) == "dark"
        sea = background(page, ".play-board .cell:not(.zone)")
        assert is_dark(sea) and sea[2] > sea[0]  # a dark blue sea
        assert background(page, ".play-board .cell .unit.own") != sea
        press(page, page.locator(".play-board .cell.can-act").first)
        page.screenshot(path=polish / f"dark-board-{device}.png", full_page=True)

        # «Морской бой»: setup dock and grids
        page.goto(server_url + "/")
        url = page.evaluate(
            """() => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                 body: JSON.stringify({game: "battleship", opponent: "ai", ai_level: 1})})
                 .then((r) => r.json()).then((d) => d.url)"""
        )
        page.goto(server_url + url)
        page.wait_for_selector(".bs-setup .bs-dock-item")
        assert is_dark(background(page, ".bs-dock-item"))
        press(page, page.locator(".bs-auto button").first)
        page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        page.screenshot(path=polish / f"dark-battleship-setup-{device}.png", full_page=True)
        press(page, page.get_by_role("button", name="Готов"))
        page.wait_for_selector(".bs-grid.can-shoot")
        target = page.locator(".bs-grid.can-shoot .bs-cell.can-shoot").first
        press(page, target)
        page.wait_for_selector(".bs-grid .bs-cell.shot-miss, .bs-grid .bs-cell .bs-cross")
        page.screenshot(path=polish / f"dark-battleship-play-{device}.png", full_page=True)

        # «auto» follows the system, live; «light» holds against a dark system
        page.goto(server_url + "/")
        choose_theme(page, "auto")
        assert page.evaluate("localStorage.getItem('admiral_theme')") is None
        assert theme(page) == "light"
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("() => document.documentElement.getAttribute('data-theme') === 'dark'")
        assert is_dark(background(page))
        page.reload()
        assert page.evaluate("window.__themeAtBody") == "dark"
        page.screenshot(path=polish / f"system-dark-home-{device}.png")
        choose_theme(page, "light")
        assert theme(page) == "light" and is_light(background(page))
        page.reload()
        assert theme(page) == "light" and page.evaluate("window.__themeAtBody") == "light"
        assert page_errors.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("device", list(DEVICES))
def test_about_page_from_the_footer(browser, server_url, polish, page_errors, device):
    ctx = browser.new_context(**DEVICES[device])
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        about = page.locator("footer a[href='/about']")
        assert about.inner_text() == "О проекте"
        assert page.locator("footer a[href='/feedback']").is_visible()
        press(page, about)
        page.wait_for_url("**/about")
        assert page.locator("h1").inner_text() == "О проекте"
        assert page.locator(".about-games li").count() == len(GAMES)  # one line per game of the registry
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= DEVICES[device]["viewport"]["width"]  # nothing wider than the screen
        page.screenshot(path=polish / f"about-{device}.png", full_page=True)
        press(page, page.locator(".about a[href='/feedback']"))
        page.wait_for_url("**/feedback")
        assert page.locator("textarea[name=message]").is_visible()
        assert page_errors.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_scale_is_strength_in_cards_dialogs_and_lessons(browser, server_url, polish, page_errors, device):
    """Lesson 1 speaks of «ряд 5» (a board row); lesson 4's dialog, battle card and texts of «сила» — here in the
    dark theme, so the dialog and the card are seen dark too."""
    ctx = browser.new_context(**DEVICES[device])
    ctx.add_init_script("localStorage.setItem('admiral_theme', 'dark')")
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/tutorial/setup")
        page.wait_for_selector(".arsenal-item")
        press(page, page.locator(".arsenal-item[data-kind='L']"))
        press(page, cell(page, "e3"))
        wait_step(page, 1)
        press(page, page.locator(".arsenal-item[data-kind='VMB']"))
        press(page, cell(page, "b5"))
        refused(page, "В ряд 5 базу ставить нельзя")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=polish / f"lesson-board-row-{device}.png")

        page.goto(server_url + "/tutorial/formation")
        wait_step(page, 0)
        say = page.locator(".coach-say").inner_text()
        assert "линкор (сила 15)" in say and "строй, сила 18" in say and not ROW_WORD.search(say)
        press(page, cell(page, "e7"))
        press(page, cell(page, "e8"))
        dialog = page.locator("dialog.formation-dialog")
        dialog.wait_for()
        details = dialog.locator(".choice-detail").all_inner_texts()
        assert any(d.startswith("сила 18 · ") for d in details) and any(d.startswith("сила 7 · ") for d in details)
        assert not any(ROW_WORD.search(d) for d in details)
        assert is_dark(background(page, "dialog.formation-dialog"))
        page.screenshot(path=polish / f"dark-formation-dialog-{device}.png")
        press(page, dialog.get_by_role("button", name="Строй: 2 КР"))
        page.locator(".defence-panel").wait_for()
        wait_step(page, 1)
        card = page.locator(".last-report")
        text = card.text_content()
        assert "Сила 18 больше силы 15: победа атакующих." in text
        assert "строй 2 КР — сила 18" in text and "Л — сила 15" in text
        assert not ROW_WORD.search(text)
        assert is_dark(background(page, ".last-report"))
        assert "сила 18" in page.locator(".coach-result").inner_text()
        # the defence: its panel, then the card of the battle it decides
        defence = page.locator(".defence-panel")
        assert any(d.startswith("сила 13 · ") for d in defence.locator(".choice-detail").all_inner_texts())
        page.screenshot(path=polish / f"dark-defender-dialog-{device}.png")
        defend(page, "Строй: 3 ЭС")
        wait_step(page, 2)
        text = card.text_content()
        assert "Сила 13 больше силы 12: атака отбита." in text and "строй 3 ЭС — сила 13" in text
        page.screenshot(path=polish / f"dark-battle-card-{device}.png")
        close_card(page)
        assert page_errors.errors == []
    finally:
        ctx.close()
