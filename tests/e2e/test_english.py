"""English in a real browser (issue 7): the «RU / EN» switch of the top bar turns the game screen to English —
turn indicator, buttons, unit names and codes, board letters, dialogs, the result — and a reload keeps it.

A laptop switches on the home page, starts a game against AI level 1, arranges, makes a move, reloads, resigns
and switches back; a phone (360×740) does the same up to its first move. Screenshots: ``artifacts/e2e/4*-en-*.png``.
"""

from __future__ import annotations

import re

from .ui import DESKTOP, PHONE, TIMEOUT_MS, cell, legal, press, steps, version, wait_version

EN_CODES = {"CV", "BB", "CR", "RD", "DD", "PB", "TB", "CSUB", "MS", "SUB", "AC", "T", "M", "SM", "FS", "AB", "NB"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def switch(page, lang: str) -> None:
    """Press the language button of the top bar and wait for the page to come back in ``lang``, whole.

    The switch posts a form and the server redirects back: the new document's ``<html lang>`` is parsed before its
    body, so waiting for the attribute alone let a check run against a page without its headings yet (CI, stop 35).
    """
    press(page, page.locator(f".topbar .lang-switch button[value={lang}]"))
    page.wait_for_function(
        "lang => document.documentElement?.lang === lang && document.readyState === 'complete'", arg=lang
    )


def start_vs_ai(page, shots, name: str) -> None:
    """From the (English) home page: level 1, no clock, South; arrange automatically and get ready."""
    form = page.locator("#new-ai-game")
    form.locator("fieldset[data-for-game=admiral] input[name=ai_level][value='1']").check()
    form.locator("input[name=time_control][value=none]").check()
    form.locator("input[name=setup_minutes][value='0']").check()
    form.locator("input[name=side][value=south]:visible").check()
    press(page, form.get_by_role("button", name="Start the game"))
    page.wait_for_url(re.compile(r"/g/"))
    page.wait_for_selector(".arsenal-item")
    page.locator(".opp-state", has_text="AI “Cabin Boy” — ready").wait_for()
    assert page.locator(".arsenal-item[data-kind=L] .a-name").inner_text() == "Battleship"
    assert page.locator(".arsenal-item[data-kind=L] .code").inner_text() == "BB"
    press(page, page.get_by_role("button", name="Auto-arrange"))
    page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    assert page.locator(".placed-count").inner_text() == "58 of 58"
    page.screenshot(path=shots / f"{name}-setup.png")
    press(page, page.get_by_role("button", name="Ready", exact=True))
    page.wait_for_selector(".play-board")
    wait_version(page, 0)
    page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")


def move_forward(page) -> None:
    """One forward step through the UI (the unit, its green dot, «End turn» when attacks could follow)."""
    src, dst = next((a, b) for a, b in steps(page) if int(b[1:]) == int(a[1:]) + 1)
    v = version(page)
    press(page, cell(page, src))
    hint = page.locator(".hint").inner_text()  # the sentence, then a link to the selected unit's rules
    assert hint.startswith("Green dots show where to move, red crosshairs what to attack.")
    assert re.search(r"Rules: [A-Z][a-z]", hint) and not re.search(r"[А-Яа-яЁё]", hint), hint
    press(page, cell(page, dst))
    if any(a["type"] == "attack" and (a["src"], a["via"]) == (src, dst) for a in legal(page)):
        assert "Attack from there or press “End turn”." in page.locator(".hint").inner_text()
        press(page, page.get_by_role("button", name="End turn"))
    wait_version(page, v + 1)


def assert_english_game_screen(page) -> None:
    """The play screen of South against the bot, in English."""
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title() == "● Your move — Game — Admiral"  # South's move: the tab says so (issue 18)
    assert page.locator(".hint").inner_text() == "Your turn: choose one of your ships."
    bottom = page.locator(".player-bar.side-south")
    assert bottom.locator(".pb-name").inner_text() == "Guest (you)"
    assert bottom.locator(".pb-turn").inner_text() == "to move"
    top = page.locator(".player-bar.side-north")
    assert top.locator(".pb-name").inner_text() == "AI — Cabin Boy"
    assert top.locator(".pb-conn").inner_text() == "level 1"
    assert page.get_by_role("button", name="Resign").is_visible()
    assert page.get_by_text("Always declare the strongest formation").is_visible()
    assert page.locator(".log-box .panel-title").inner_text() == "Battle log"
    assert page.locator(".lost .panel-title").inner_text() == "Losses"
    # the board: Latin column letters, English codes on the markers, English names for screen readers
    assert page.locator(".play-board .lab-col").all_inner_texts() == list("abcdefghijklmn")
    codes = set(page.locator(".play-board .unit.own .code").all_inner_texts())
    assert "BB" in codes and codes <= EN_CODES, codes
    battleship = page.evaluate("window.admiral.view.units.find(u => u.side === 'south' && u.kind === 'L').cell")
    assert cell(page, battleship).get_attribute("aria-label") == f"{battleship}, yours: Battleship"
    enemy = page.evaluate("window.admiral.view.units.find(u => u.side === 'north').cell")
    assert cell(page, enemy).get_attribute("aria-label") == f"{enemy}, enemy marker"
    panel = page.locator(".play-layout").inner_text()
    assert not CYRILLIC.search(panel), CYRILLIC.findall(panel)


def tn(page, n: int) -> str:
    """The client's plural of «Начальная расстановка ({n} полуход)» for ``n`` in the page's language."""
    return page.evaluate(
        "n => import('/static/js/core/t.js').then(m => m.tn('Начальная расстановка ({n} полуход)',"
        " 'Начальная расстановка ({n} полуходов)', n))",
        n,
    )


def test_english_game_screen_on_a_laptop(browser, server_url, shots, page_errors):
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "laptop")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.get_by_role("heading", name="Играть против ИИ").is_visible()
        switch(page, "en")
        assert page.url == server_url + "/"
        assert page.get_by_role("heading", name="Play the AI").is_visible()
        assert page.locator("#new-ai-game fieldset[data-for-game=admiral]").get_by_text("5. Admiral-Grade").is_visible()
        assert {c["name"]: c["value"] for c in ctx.cookies()}.get("admiral_lang") == "en"
        page.screenshot(path=shots / "40-en-home.png", full_page=True)

        start_vs_ai(page, shots, "41-en")
        assert_english_game_screen(page)
        move_forward(page)
        page.wait_for_function(  # the bot answers by itself
            "() => window.admiral.view.to_act === 'south' && window.admiral.game.version >= 2"
        )
        page.locator(".hint", has_text="Your turn: choose one of your ships.").wait_for()
        page.screenshot(path=shots / "42-en-game.png")

        # a reload keeps English (the cookie), the socket's snapshot included
        page.reload()
        page.wait_for_selector(".play-board .cell .unit")
        page.locator(".hint", has_text="Your turn: choose one of your ships.").wait_for()
        assert_english_game_screen(page)
        assert tn(page, 1) == "Starting setup (1 ply)" and tn(page, 3) == "Starting setup (3 plies)"

        # an English confirmation, then the result in English
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        page.get_by_role("button", name="Resign").click()
        page.locator(".result-panel .credit").wait_for()
        assert asked == ["Resign? You will lose the game."]
        result = page.locator(".result-panel")
        assert result.locator("h2").inner_text() == "Defeat"
        assert result.locator(".reason").inner_text() == "You resigned."
        # one turn each is too early for points (PROGRESSION.md §2)
        assert result.locator(".credit").inner_text() == "The game ended too early: no points were awarded."
        assert page.get_by_role("button", name="Watch the record").is_visible()
        page.screenshot(path=shots / "43-en-result.png")

        # and back to Russian, on the same game page
        switch(page, "ru")
        page.locator(".result-panel h2", has_text="Поражение").wait_for()
        assert page.locator(".result-panel .reason").inner_text() == "Вы сдались."
        assert page.locator(".play-board .lab-col").first.inner_text() in ("А", "О")
        assert tn(page, 3) == "Начальная расстановка (3 полухода)"
        assert tn(page, 5) == "Начальная расстановка (5 полуходов)"
        assert tn(page, 21) == "Начальная расстановка (21 полуход)"
        assert page_errors.errors == []
    finally:
        ctx.close()


def test_english_game_screen_on_a_phone(browser, server_url, shots, page_errors):
    ctx = browser.new_context(**PHONE)
    try:
        page = page_errors(ctx.new_page(), "phone")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        switch(page, "en")
        page.screenshot(path=shots / "44-en-phone-home.png")
        start_vs_ai(page, shots, "45-en-phone")
        assert_english_game_screen(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page scrolls sideways: {width}px"
        page.screenshot(path=shots / "46-en-phone-game.png", full_page=True)
        page.reload()
        page.wait_for_selector(".play-board .cell .unit")
        assert page.evaluate("document.documentElement.lang") == "en"
        page.locator(".hint", has_text="Your turn: choose one of your ships.").wait_for()
        assert page_errors.errors == []
    finally:
        ctx.close()
