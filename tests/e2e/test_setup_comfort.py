"""Issue 18, item 12 — the setup screen at 1366×768 and 360×740 (touch), for «Адмирал» and «Морской бой»:

(a) «Готов», the units placed and the setup clock are in view without scrolling, with the invite box showing and
    without it, and the board is not pushed below the fold;
(b) the phone's arsenal names every unit (tap targets ≥ 36 px);
(c) auto-arrangement can be pressed again and again, and a re-roll keeps the unit placed by hand on its cell;
    the setup then completes.

Screenshots: ``artifacts/e2e/setup-comfort-*.png``.
"""

from __future__ import annotations

import re

import pytest

from .ui import PHONE, TIMEOUT_MS, cell, press

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SIZES = {"laptop": LAPTOP, "phone": PHONE}

pytestmark = pytest.mark.parametrize("size", list(SIZES))

#: The setup clock shows minutes and seconds (it runs once the friend has joined).
CLOCK_RUNS = "() => /\\d:\\d\\d/.test(document.querySelector('.setup-strip .setup-clock').textContent)"


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not drawn"
    return box


def _in_view(page, selector: str, below: float | None = None) -> dict:
    """Assert the element is wholly inside the viewport at the current scroll (``below``: the lowest y it may
    reach, e.g. the top of the phone's strip); returns its box."""
    vp = page.viewport_size
    b = _box(page, selector)
    bottom = vp["height"] if below is None else below
    assert b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= vp["width"] + 0.5, (selector, b, vp)
    assert b["y"] + b["height"] <= bottom + 0.5, (selector, b, bottom)
    return b


def _at_top(page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(100)


def _create(page, server_url: str, game: str) -> str:
    """A friend game of ``game`` created by South (5 minutes to set up); opens it; returns the invite link."""
    page.goto(server_url + "/")
    made = page.evaluate(
        """g => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({game: g, side: "south", time_control: "none", setup_minutes: 5})})
             .then((r) => r.json())""",
        game,
    )
    page.goto(server_url + made["url"])
    page.wait_for_selector(".setup-strip")
    return page.locator("#invite-link").input_value()


def _join(browser, link: str):
    ctx = browser.new_context(locale="ru-RU", **LAPTOP)
    friend = ctx.new_page()
    friend.goto(link)
    friend.get_by_role("button", name="Принять приглашение").click()
    friend.wait_for_url(re.compile(r"/g/"))
    friend.wait_for_selector(".setup-strip")
    return ctx


def _check_fold(page, board: str) -> None:
    """(a): «Готов», the count, and the board in view at the top of the page; on the phone nothing hides under the
    strip but what scrolls."""
    _at_top(page)
    strip = _in_view(page, ".setup-strip")
    _in_view(page, ".ready-row .btn")
    _in_view(page, ".setup-strip .placed-count")
    limit = strip["y"] if page.viewport_size["width"] <= 900 else None
    _in_view(page, board, below=limit)


def _units(page) -> dict[str, str]:
    """«Адмирал»: the own units on the setup board, ``{cell: kind}`` (from each token's ``k-…`` class)."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.setup-board .cell .unit')].map((u) =>
             [u.closest('.cell').dataset.cell, [...u.classList].find((c) => c.startsWith('k-')).slice(2)]))"""
    )


def _auto_admiral(page, before: dict[str, str] | None) -> dict[str, str]:
    _at_top(page)
    press(page, page.get_by_role("button", name="Авторасстановка"))
    page.wait_for_function(
        """b => { const n = document.querySelectorAll('.setup-board .cell .unit');
                 if (n.length !== 58) return false;
                 if (!b) return true;
                 return [...n].some((u) => !u.classList.contains('k-' + b[u.closest('.cell').dataset.cell])); }""",
        arg=before,
    )
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    return _units(page)


def test_admiral_setup_comfort(browser, server_url, shots, page_errors, size):
    ctx = browser.new_context(locale="ru-RU", **SIZES[size])
    page = page_errors(ctx.new_page(), "south")
    page.set_default_timeout(TIMEOUT_MS)
    friend = None
    try:
        link = _create(page, server_url, "admiral")
        # (a) with the invite box showing
        assert page.locator("#invite").is_visible()
        _check_fold(page, ".setup-board")
        page.screenshot(path=shots / f"setup-comfort-admiral-invite-{size}.png")

        # (b) every unit is named in the arsenal, each a comfortable tap target
        names = page.locator(".arsenal-item .a-name")
        assert names.count() == 17
        for i in range(names.count()):
            assert names.nth(i).is_visible() and names.nth(i).inner_text().strip()
            assert page.locator(".arsenal-item").nth(i).bounding_box()["height"] >= 36
        assert page.locator(".arsenal-item[data-kind=KRPL] .a-name").inner_text() == "Крейсерская ПЛ"

        # the friend joins: the invite box goes, the setup clock runs and is in view too
        friend = _join(browser, link)
        page.locator("#invite").wait_for(state="hidden")
        page.wait_for_function(CLOCK_RUNS)
        _check_fold(page, ".setup-board")
        _in_view(page, ".setup-strip .setup-timer")

        # (c) one unit by hand (the carrier on c2), then auto-arrangement three times: it never greys out, the
        # carrier stays on c2, the rest changes each time
        press(page, page.locator(".arsenal-item[data-kind=A]"))
        _at_top(page)
        press(page, cell(page, "c2"))
        page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 1")
        first = _auto_admiral(page, None)
        assert first["c2"] == "A"
        assert "hand" in cell(page, "c2").get_attribute("class")  # the hand-placed unit is marked
        assert page.get_by_role("button", name="Авторасстановка").is_enabled()
        assert "Поставлено вручную: 1" in page.locator(".hand-note").inner_text()
        second = _auto_admiral(page, first)
        third = _auto_admiral(page, second)
        assert second["c2"] == third["c2"] == "A"
        assert len({tuple(sorted(d.items())) for d in (first, second, third)}) == 3
        _check_fold(page, ".setup-board")
        _in_view(page, ".setup-strip .setup-timer")
        assert page.locator(".setup-strip .placed-count").inner_text() == "58 из 58"
        page.screenshot(path=shots / f"setup-comfort-admiral-reroll-{size}.png")
        page.screenshot(path=shots / f"setup-comfort-admiral-reroll-{size}-full.png", full_page=True)

        # «Очистить» still clears everything, the hand-placed unit too
        press(page, page.get_by_role("button", name="Очистить"))
        page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 0")
        assert page.locator(".hand-note").is_hidden()
        third = _auto_admiral(page, None)
        assert "hand" not in (cell(page, "c2").get_attribute("class") or "")

        # the setup completes
        _at_top(page)
        press(page, page.get_by_role("button", name="Готов"))
        page.wait_for_function("() => document.querySelector('.ready-row .btn').textContent.includes('✓')")
        assert page_errors.errors == []
    finally:
        if friend:
            friend.close()
        ctx.close()


def _ships(page) -> dict[str, bool]:
    """«Морской бой»: the decks on the setup grid, ``{cell: placed by hand}``."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.bs-setup .bs-cell.ship')].map((c) =>
             [c.dataset.cell, c.classList.contains('hand')]))"""
    )


def _auto_battleship(page, before: dict | None) -> dict:
    press(page, page.locator(".bs-auto button").first)
    page.wait_for_function(
        """b => { const decks = [...document.querySelectorAll('.bs-setup .bs-cell.ship')].map((c) => c.dataset.cell);
                 if (decks.length !== 20) return false;
                 return !b || decks.some((c) => !(c in b)); }""",
        arg=before,
    )
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    return _ships(page)


def test_battleship_setup_comfort(browser, server_url, shots, page_errors, size):
    ctx = browser.new_context(locale="ru-RU", **SIZES[size])
    page = page_errors(ctx.new_page(), "south")
    page.set_default_timeout(TIMEOUT_MS)
    friend = None
    try:
        link = _create(page, server_url, "battleship")
        assert page.locator("#invite").is_visible()
        _check_fold(page, ".bs-setup .bs-grid")
        page.screenshot(path=shots / f"setup-comfort-battleship-invite-{size}.png")
        friend = _join(browser, link)
        page.locator("#invite").wait_for(state="hidden")
        page.wait_for_function(CLOCK_RUNS)
        _check_fold(page, ".bs-setup .bs-grid")
        _in_view(page, ".setup-strip .setup-timer")

        # the four-decker by hand on a1–a4, then «Обычная» again and again: it stays, the rest changes
        press(page, page.locator(".bs-dock-item[data-code='4']"))
        _at_top(page)
        press(page, page.locator(".bs-setup .bs-cell[data-cell=a1]"))
        page.wait_for_function("() => document.querySelectorAll('.bs-setup .bs-cell.ship').length === 4")
        hand = ["a1", "a2", "a3", "a4"]
        assert sorted(_ships(page)) == hand
        _at_top(page)
        first = _auto_battleship(page, None)
        assert page.locator(".bs-auto button").first.is_enabled()
        second = _auto_battleship(page, first)
        third = _auto_battleship(page, second)
        for decks in (first, second, third):
            assert all(c in decks for c in hand)
        assert [c for c, by_hand in third.items() if by_hand] == hand
        assert len({tuple(sorted(d)) for d in (first, second, third)}) == 3
        _check_fold(page, ".bs-setup .bs-grid")
        page.screenshot(path=shots / f"setup-comfort-battleship-reroll-{size}.png")

        _at_top(page)
        press(page, page.get_by_role("button", name="Готов"))
        page.wait_for_function("() => document.querySelector('.ready-row .btn').textContent.includes('✓')")
        assert page_errors.errors == []
    finally:
        if friend:
            friend.close()
        ctx.close()
