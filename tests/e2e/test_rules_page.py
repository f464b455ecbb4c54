"""The rules page «Правила» in Chromium (issue 7): it fits a laptop and a 360 × 740 phone, every marker carries the
board's icon, and the unit links on the setup screen and the game board open that unit's section."""

from __future__ import annotations

from .ui import DESKTOP, PHONE, TIMEOUT_MS, steps


def _check_layout(page, width: int) -> None:
    """Nothing wider than the screen; every diagram inside it; every marker drawn with the board's icon."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    markers = page.locator(".rules .unit[data-kind]")
    assert markers.count() > 150
    assert page.locator(".rules .unit[data-kind] > svg.icon").count() == markers.count()
    boxes = page.evaluate(
        "[...document.querySelectorAll('figure.diagram .board')].map(b => b.getBoundingClientRect())"
        ".map(r => [r.left, r.right])"
    )
    assert len(boxes) >= 15
    assert all(left >= 0 and right <= width for left, right in boxes), boxes
    # the table cells are real cells of the board: moves are green dots, targets red crosses (CSS ::after)
    dot = page.evaluate(
        "getComputedStyle(document.querySelector('#diagram-contact .cell.move'), '::after').backgroundColor"
    )
    assert dot == "rgb(35, 160, 74)"


def test_rules_page_on_a_laptop_and_a_phone(browser, server_url, shots, page_errors) -> None:
    for name, opts in (("laptop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(**opts)
        try:
            page = page_errors(context.new_page(), name)
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(server_url + "/")
            page.locator(".topbar").get_by_role("link", name="Правила").click()
            page.wait_for_url("**/rules")
            assert page.locator("h1").inner_text() == "Правила игры «Адмирал»"
            page.wait_for_function("() => document.querySelectorAll('.rules svg.icon').length > 150")
            _check_layout(page, opts["viewport"]["width"])
            page.screenshot(path=shots / f"50-rules-{name}.png")
            page.screenshot(path=shots / f"51-rules-{name}-full.png", full_page=True)
            # the table of contents leads to the section
            page.locator(".rules-toc").get_by_role("link", name="Особые столкновения").click()
            page.wait_for_url("**/rules#collisions")
            top = page.locator("#collisions").bounding_box()["y"]
            assert 0 <= top < 40
            page.screenshot(path=shots / f"52-rules-{name}-collisions.png")
            page.locator("#unit-S").scroll_into_view_if_needed()
            page.locator("#unit-S").screenshot(path=shots / f"53-rules-{name}-aircraft.png")
        finally:
            context.close()
    assert page_errors.errors == []


def _open_rules_link(context, link, kind: str):
    """Click a unit's rules link (it opens a new tab) and return that tab, checked at the unit's section."""
    assert link.get_attribute("href") == f"/rules#unit-{kind}"
    with context.expect_page() as info:
        link.click()
    rules = info.value
    rules.wait_for_load_state()
    assert rules.url.endswith(f"/rules#unit-{kind}")
    card = rules.locator(f"#unit-{kind}")
    box = card.bounding_box()
    assert 0 <= box["y"] < 60, box  # scrolled to the unit's card
    assert rules.evaluate("document.querySelector(':target').id") == f"unit-{kind}"
    return rules


def test_unit_links_on_setup_and_board_open_their_section(browser, server_url, shots, page_errors) -> None:
    context = browser.new_context(**DESKTOP)
    try:
        page = page_errors(context.new_page(), "player")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        url = page.evaluate(
            """async () => {
                const r = await fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                  body: JSON.stringify({opponent: "ai", ai_level: 1, side: "south"})});
                return (await r.json()).url;
            }"""
        )
        page.goto(server_url + url)

        # setup: choose the cruiser in the arsenal; the hint links to its section
        page.locator(".arsenal-item[data-kind='KR']").click()
        link = page.locator(".setup-panel .hint a.rules-link")
        assert link.inner_text() == "Правила: Крейсер"
        page.screenshot(path=shots / "54-setup-rules-link.png")
        rules = page_errors(_open_rules_link(context, link, "KR"), "rules-from-setup")
        assert rules.locator("#unit-KR .unit-name").inner_text() == "Крейсер"
        rules.screenshot(path=shots / "55-rules-from-setup.png")
        rules.close()

        # the game board: select a unit that can move; the hint links to its kind, the cell's tooltip names it
        page.get_by_role("button", name="Авторасстановка").click()
        page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
        page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        page.get_by_role("button", name="Готов").click()
        page.wait_for_selector(".play-board")
        page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
        src = steps(page)[0][0]
        kind = page.evaluate(f"window.admiral.view.units.find(u => u.cell === '{src}' && u.side === 'south').kind")
        cell = page.locator(f".play-board .cell[data-cell='{src}']")
        assert cell.get_attribute("title") == page.evaluate(
            f"import('/static/js/games/admiral/units.js').then(m => m.ruName('{kind}'))"
        )
        cell.click()
        link = page.locator(".action-bar .hint a.rules-link")
        assert link.get_attribute("data-kind") == kind
        page.screenshot(path=shots / "56-board-rules-link.png")
        rules = page_errors(_open_rules_link(context, link, kind), "rules-from-board")
        rules.screenshot(path=shots / "57-rules-from-board.png")
        rules.close()
        # the game page is still there, the unit still selected
        assert "selected" in cell.get_attribute("class")
    finally:
        context.close()
    assert page_errors.errors == []
