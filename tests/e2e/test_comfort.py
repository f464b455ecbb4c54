"""Playing in comfort (issue 7) in real browsers: a phone sets up by tapping and notes an enemy marker that then
moves, keyboard-only play, sounds with a remembered mute, and every main page at desktop and phone size.

Screenshots go to ``artifacts/e2e/`` (``pages/<page>-<size>.png`` for the page tour, ``comfort-*.png`` otherwise).
"""

from __future__ import annotations

import random
import re

from admiral.games.admiral.rules import Side, auto_arrange, cell_name

from .ui import DESKTOP, PHONE, TIMEOUT_MS, cell, defend, play, press, start_ai_game, steps, version, wait_version

COLS = "abcdefghijklmn"

#: Accessible name of an element as a person with a screen reader meets it (enough for our markup):
#: aria-label, aria-labelledby, a <label>, alt, title or the text. Lists visible controls without one.
UNNAMED_JS = """() => {
  const name = (el) => {
    const by = el.getAttribute("aria-labelledby");
    const parts = [el.getAttribute("aria-label"),
      by && by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent).join(" "),
      ...[...(el.labels || [])].map((l) => l.textContent), el.getAttribute("alt"), el.getAttribute("title"),
      el.tagName === "INPUT" && ["submit", "button"].includes(el.type) ? el.value : "", el.textContent];
    return parts.some((p) => p && p.trim());
  };
  return [...document.querySelectorAll("button, a[href], input:not([type=hidden]), select, textarea, [role=gridcell]")]
    .filter((el) => el.getClientRects().length && !name(el)).map((el) => el.outerHTML.slice(0, 160));
}"""


def _setup(side: Side, seed: int) -> dict[str, str]:
    """A complete setup with six cruisers on the front row (a–f), the rest auto-arranged from ``seed``."""
    row = 5 if side is Side.SOUTH else 11
    placed = auto_arrange(side, random.Random(seed), {f"{c}{row}": "KR" for c in "abcdef"})
    return {cell_name(c): k.code for c, k in placed.items()}


def _neutral(north: dict[str, str]) -> dict[str, str]:
    """North's setup as a saved setup stores it: side-neutral, turned half a turn (docs/protocol.md)."""
    return {f"{COLS[13 - COLS.index(c[0])]}{16 - int(c[1:])}": k for c, k in north.items()}


def _fits(page, locator) -> None:
    """The element lies within the viewport's width, nothing in it is cut off sideways, and the page has no
    horizontal scrolling."""
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    overflowing = locator.evaluate(
        "el => [el, ...el.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1"
        " && getComputedStyle(e).overflowX !== 'visible').map((e) => e.className)"
    )
    assert overflowing == [], overflowing


def test_phone_setup_by_tapping_and_a_note_follows_its_marker(browser, server_url, shots, page_errors):
    phone = browser.new_context(**PHONE)
    laptop = browser.new_context(**DESKTOP)
    try:
        south = page_errors(phone.new_page(), "south-phone")
        north = page_errors(laptop.new_page(), "north")
        for p in (south, north):
            p.set_default_timeout(TIMEOUT_MS)
        south.goto(server_url + "/")
        created = south.evaluate(
            """async () => (await fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                 body: JSON.stringify({side: "south", time_control: "none", setup_minutes: 0})})).json()"""
        )
        # North keeps a saved setup and loads it after accepting the invitation
        north.goto(server_url + "/")
        north_setup = _setup(Side.NORTH, 8)
        status = north.evaluate(
            """s => fetch("/api/setups", {method: "POST", headers: {"content-type": "application/json"},
                 body: JSON.stringify({name: "Крейсеры", setup: s})}).then((r) => r.status)""",
            _neutral(north_setup),
        )
        assert status == 201
        north.goto(server_url + created["invite_url"])
        north.get_by_role("button", name="Принять приглашение").click()
        north.wait_for_selector(".arsenal-item")
        north.locator("details.saved summary").click()
        north.get_by_label("Сохранённые расстановки").select_option(label="Крейсеры")
        north.get_by_role("button", name="Загрузить").click()
        north.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        north.get_by_role("button", name="Готов").click()

        # The phone places its whole fleet by tapping: a kind in the arsenal, then its cells.
        south.goto(server_url + created["url"])
        south.wait_for_selector(".arsenal-item")
        _fits(south, south.locator(".setup-board"))
        setup = _setup(Side.SOUTH, 4)
        by_kind: dict[str, list[str]] = {}
        for c, k in setup.items():
            by_kind.setdefault(k, []).append(c)
        for n, (kind, cells) in enumerate(by_kind.items()):
            press(south, south.locator(f".arsenal-item[data-kind={kind}]"))
            for c in cells:
                press(south, cell(south, c))
            assert south.locator(f".arsenal-item[data-kind={kind}] .a-count").inner_text() == "×0"
            if n == 5:
                south.screenshot(path=shots / "comfort-setup-tapping-phone.png", full_page=True)
        assert south.locator(".setup-board .cell .unit").count() == 58
        south.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        press(south, south.get_by_role("button", name="Готов"))
        south.wait_for_selector(".play-board")
        north.wait_for_selector(".play-board")
        wait_version(south, 0)
        _fits(south, south.locator(".play-board"))
        assert south.evaluate("window.admiral.view.units.filter(u => u.side === 'south').length") == 58
        assert cell(south, "c5").locator(".k-KR").count() == 1

        # The cruisers walk towards each other (phone taps for South, clicks for North).
        plan = [
            (south, "c5-c6"), (north, "c11-c10"), (south, "c6-c7"), (north, "c10-c9"),
            (south, "d5-d6"), (north, "d11-d10"), (south, "d6-d7"), (north, "d10-d9"),
            (south, "d7-d8"), (north, "f11-f10"),
        ]  # fmt: skip
        for page, move in plan:
            play(page, move)
            wait_version(north if page is south else south, version(page))

        # South (phone) moves c7→c8 and attacks c9 alone: the formation dialog fits the phone.
        v = version(south)
        press(south, cell(south, "c7"))
        press(south, cell(south, "c8"))
        press(south, cell(south, "c9"))
        dialog = south.locator("dialog.formation-dialog")
        dialog.wait_for()
        _fits(south, dialog)
        south.screenshot(path=shots / "comfort-formation-dialog-phone.png")
        press(south, dialog.get_by_role("button", name=re.compile("Один: Крейсер")))
        # North defends with both cruisers (row 18 against 7): South's cruiser is lost, North's two are revealed
        wait_version(north, v + 1)
        defend(north, re.compile("Строй: 2 КР"))
        wait_version(south, v + 2)

        # The battle card offers one click to note each revealed enemy unit that stays on the board.
        card = south.locator(".report-strip")  # on the phone: the strip under the board, its card opened in place
        card.wait_for()
        press(south, card.get_by_role("button", name="Карточка"))
        note_btn = card.get_by_role("button", name=re.compile("Отметить: Крейсер на В9"))
        assert card.get_by_role("button", name=re.compile("Отметить: Крейсер на Г9")).count() == 1
        _fits(south, card)
        south.screenshot(path=shots / "comfort-report-note-phone.png")
        press(south, note_btn)
        south.wait_for_function("() => window.admiral?.notes && window.admiral?.notes.c9 === 'KR'")
        press(south, card.get_by_role("button", name="Закрыть карточку боя"))
        badge = cell(south, "c9").locator(".note-badge")
        assert badge.inner_text() == "КР"
        assert "заметка: Крейсер" in cell(south, "c9").get_attribute("aria-label")

        # A note by hand on the other revealed cruiser: tap the marker, pick «сильный».
        press(south, cell(south, "d9"))
        notes = south.locator("dialog.note-dialog")
        notes.wait_for()
        _fits(south, notes)
        south.screenshot(path=shots / "comfort-note-dialog-phone.png")
        press(south, notes.get_by_role("button", name=re.compile("сильный")))
        south.wait_for_function("() => window.admiral?.notes.d9 === 'strong'")

        # North moves the noted cruiser: the note goes along with the marker on South's board.
        north.get_by_role("button", name="Закрыть карточку боя").click()
        play(north, "c9-c10")
        wait_version(south, version(north))
        south.wait_for_function("() => window.admiral?.notes.c10 === 'KR' && !('c9' in window.admiral?.notes)")
        assert cell(south, "c10").locator(".note-badge").inner_text() == "КР"
        assert cell(south, "c9").locator(".note-badge").count() == 0
        assert cell(south, "d9").locator(".note-badge").inner_text() == "+"
        south.screenshot(path=shots / "comfort-note-followed-phone.png")
        # private: North's board shows no notes, and its snapshot carries only its own (none)
        assert north.locator(".note-badge").count() == 0
        assert north.evaluate("window.admiral.notes") == {}
        # kept for the commander: a reload shows them again
        south.reload()
        south.wait_for_selector(".play-board .note-badge")
        assert cell(south, "c10").locator(".note-badge").inner_text() == "КР"
        assert south.evaluate("window.admiral.notes") == {"c10": "KR", "d9": "strong"}

        # the result is reachable on the phone without horizontal scrolling
        south.once("dialog", lambda d: d.accept())
        press(south, south.get_by_role("button", name="Сдаться"))
        result = south.locator(".result-panel")
        result.wait_for()
        result.scroll_into_view_if_needed()
        _fits(south, result)
        assert south.locator(".note-badge").count() == 0  # the full view after the end needs no guesses
        south.screenshot(path=shots / "comfort-result-phone.png")
        assert page_errors.errors == []
    finally:
        phone.close()
        laptop.close()


def _focused_cell(page) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.cell || null")


def _cursor_to(page, target: str) -> None:
    """Move the board's cursor to ``target`` with the arrow keys (South's orientation: up is row + 1)."""
    here = _focused_cell(page)
    dc = COLS.index(target[0]) - COLS.index(here[0])
    dr = int(target[1:]) - int(here[1:])
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowUp" if dr > 0 else "ArrowDown")
    assert _focused_cell(page) == target


def _forward_step(page) -> tuple[str, str]:
    """A plain step of South towards the enemy: ``(src, dst)``."""
    src, dst = next((a, b) for a, b in steps(page) if int(b[1:]) > int(a[1:]))
    return src, dst


def _keyboard_move(page) -> tuple[str, str]:
    """One forward step played with the keyboard only: cursor to the unit, Enter, ArrowUp, Enter."""
    page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
    src, dst = _forward_step(page)
    v = version(page)
    _cursor_to(page, src)
    page.keyboard.press("Enter")
    assert "selected" in cell(page, src).get_attribute("class")
    page.keyboard.press("ArrowUp")
    assert "сюда можно пойти" in cell(page, dst).get_attribute("aria-label")
    page.keyboard.press("Enter")
    if page.get_by_role("button", name="Остановиться здесь").is_visible():  # attacks could follow from there
        page.get_by_role("button", name="Остановиться здесь").focus()
        page.keyboard.press("Enter")
    wait_version(page, v + 1)
    return src, dst


def test_keyboard_play_and_a_remembered_mute(browser, server_url, shots, page_errors):
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "keyboard")
        page.set_default_timeout(TIMEOUT_MS)
        start_ai_game(page, server_url, time_control="none")
        page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
        assert page.locator(".play-board[role=grid] [role=row] [role=gridcell]").count() == 210

        # Tab from the top of the page reaches the board: one tab stop, the cursor on a cell
        page.locator("body").focus()
        for _ in range(40):
            page.keyboard.press("Tab")
            if _focused_cell(page):
                break
        start = _focused_cell(page)
        assert start is not None
        # the cursor is visible: a 3 px outline on the focused cell
        assert page.evaluate("getComputedStyle(document.activeElement).outlineWidth") == "3px"

        # Home/End go to the row's ends, Ctrl+Home/End to the board's corners, PageUp/PageDown five rows;
        # none of them scrolls the page
        scroll = page.evaluate("window.scrollY")
        row = start[1:]
        page.keyboard.press("End")
        assert _focused_cell(page) == "n" + row
        page.keyboard.press("Home")
        assert _focused_cell(page) == "a" + row
        page.keyboard.press("Control+End")
        assert _focused_cell(page) == "n1"  # South's view: the bottom right is its own corner
        page.keyboard.press("PageUp")
        assert _focused_cell(page) == "n6"
        page.keyboard.press("Control+Home")
        assert _focused_cell(page) == "a15"
        page.keyboard.press("PageDown")
        assert _focused_cell(page) == "a10"
        assert page.evaluate("window.scrollY") == scroll

        # select with Enter, cancel with Escape, select again and move with the arrow key and Enter
        src, _ = _forward_step(page)
        _cursor_to(page, src)
        page.keyboard.press("Enter")
        assert cell(page, src).get_attribute("aria-selected") == "true"
        page.screenshot(path=shots / "comfort-keyboard-selected.png")
        page.keyboard.press("Escape")
        assert "selected" not in cell(page, src).get_attribute("class")
        assert page.locator(".play-board .cell.move").count() == 0
        # Escape cancels wherever the focus is, not only on the board
        page.keyboard.press("Enter")
        assert page.locator(".play-board .cell.move").count() > 0
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("Escape")
        assert page.locator(".play-board .cell.move").count() == 0
        cell(page, src).focus()
        moved_from, moved_to = _keyboard_move(page)
        units = page.evaluate("Object.fromEntries(window.admiral.view.units.map(u => [u.cell, u.kind]))")
        assert moved_from not in units and units[moved_to] is not None
        assert "ваш объект" in cell(page, moved_to).get_attribute("aria-label")
        # the bot answers; the moves were heard
        page.wait_for_function("() => window.admiral?.view.to_act === 'south' && window.admiral?.game.version >= 2")
        assert "move" in page.evaluate("window.admiral.sounds")
        assert page.evaluate(UNNAMED_JS) == []

        # Mute with the keyboard: remembered after a reload, and nothing is played any more
        mute = page.get_by_role("button", name="Без звука")
        assert mute.get_attribute("aria-pressed") == "false"
        mute.focus()
        page.keyboard.press("Enter")
        assert mute.get_attribute("aria-pressed") == "true"
        page.reload()
        page.wait_for_selector(".play-board")
        mute = page.get_by_role("button", name="Без звука")
        assert mute.get_attribute("aria-pressed") == "true"
        assert page.evaluate("localStorage.getItem('admiral.muted')") == "1"
        page.locator(".play-board .cell[tabindex='0']").focus()
        v = version(page)
        _keyboard_move(page)
        page.wait_for_function("v => window.admiral?.game.version >= v + 2", arg=v)
        assert page.evaluate("window.admiral.sounds") == []
        mute.click()
        assert mute.get_attribute("aria-pressed") == "false"
        page.locator(".play-board .cell[tabindex='0']").focus()
        _keyboard_move(page)
        assert page.evaluate("window.admiral.sounds")[:1] == ["move"]
        page.screenshot(path=shots / "comfort-keyboard-played.png")
        assert page_errors.errors == []
    finally:
        ctx.close()


def test_low_time_warning_sounds_once_per_turn(browser, server_url, page_errors):
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "low-time")
        page.set_default_timeout(TIMEOUT_MS)
        start_ai_game(page, server_url, base_ms=11_500, increment_ms=0)
        page.wait_for_function("() => window.admiral?.sounds.includes('lowtime')", timeout=8_000)
        page.wait_for_timeout(2_500)  # still South's turn, still under 10 s: no second warning
        assert page.evaluate("window.admiral.game.status") == "play"
        assert page.evaluate("window.admiral.sounds.filter(s => s === 'lowtime').length") == 1
        assert page_errors.errors == []
    finally:
        ctx.close()


PAGES = ("home", "login", "register", "leaders", "profile", "setup", "play")


def _check_page(page, path, width: int) -> None:
    """Screenshot the whole page to ``path``; it must not scroll sideways and every control has a name."""
    page.screenshot(path=path, full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{path.name} scrolls sideways"
    assert page.evaluate(UNNAMED_JS) == [], f"{path.name}: controls without a name"


def test_every_main_page_at_desktop_and_phone_size(browser, server_url, shots, page_errors):
    out = shots / "pages"
    out.mkdir(exist_ok=True)
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(**options)
        try:
            page = page_errors(ctx.new_page(), size)
            page.set_default_timeout(TIMEOUT_MS)
            width = options["viewport"]["width"]

            for name, path in (("home", "/"), ("login", "/login"), ("register", "/register"),
                               ("leaders", "/leaders"), ("profile", "/profile")):  # fmt: skip
                page.goto(server_url + path)
                _check_page(page, out / f"{name}-{size}.png", width)
            page.goto(server_url + "/")
            url = page.evaluate(
                """() => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                     body: JSON.stringify({opponent: "ai", ai_level: 1, side: "north", time_control: "10+5"})})
                     .then((r) => r.json()).then((d) => d.url)"""
            )
            page.goto(server_url + url)
            page.wait_for_selector(".arsenal-item")
            _check_page(page, out / f"setup-{size}.png", width)
            page.get_by_role("button", name="Авторасстановка").click()
            page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
            page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
            page.get_by_role("button", name="Готов").click()
            page.wait_for_selector(".play-board")
            page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'north'")
            board = page.locator(".play-board").bounding_box()
            assert board["width"] <= width
            _check_page(page, out / f"play-{size}.png", width)
        finally:
            ctx.close()
    expected = sorted(f"{n}-{s}.png" for n in PAGES for s in ("desktop", "phone"))
    assert sorted(p.name for p in out.glob("*.png")) == expected
    assert page_errors.errors == []


def test_a_tab_too_many_says_so_and_does_not_knock_again(browser, server_url, shots, page_errors):
    """QA (issue 16, F4): a tab the server refused (the seat already open in WS_MAX_PER_SEAT tabs, 3 here)
    reconnected twice a second, showing the same toast 50 times, until its address ran out of socket openings and
    the player's other games went offline. Now it says why, stays closed, and reconnects when asked."""
    ctx = browser.new_context(**DESKTOP)
    try:
        first = page_errors(ctx.new_page(), "tab 1")
        first.set_default_timeout(TIMEOUT_MS)
        first.goto(server_url + "/")
        url = first.evaluate(
            """() => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
                 body: JSON.stringify({side: "south"})}).then((r) => r.json()).then((d) => d.url)"""
        )
        tabs = [first]
        for n in range(2, 5):
            tab = page_errors(ctx.new_page(), f"tab {n}")
            tab.set_default_timeout(TIMEOUT_MS)
            tabs.append(tab)
        opened: list[str] = []
        tabs[-1].on("websocket", lambda ws: opened.append(ws.url))
        for tab in tabs:
            tab.goto(server_url + url)
        for tab in tabs[:3]:
            tab.wait_for_selector(".arsenal-item")
        refused = tabs[-1].locator("#offline")
        refused.get_by_role("button", name="Подключиться снова").wait_for()
        assert "уже открыта в 3 вкладках" in refused.inner_text()
        tabs[-1].wait_for_timeout(4000)  # the old tab knocked twice a second
        assert len(opened) == 1
        tabs[-1].screenshot(path=shots / "tab-refused.png")
        tabs[0].close()  # a place frees up: the player asks again
        refused.get_by_role("button", name="Подключиться снова").click()
        tabs[-1].wait_for_selector(".arsenal-item")
        assert tabs[-1].locator("#offline").is_hidden() and len(opened) == 2
    finally:
        ctx.close()
    assert page_errors.errors == []
