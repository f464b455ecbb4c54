"""Play comfort (issue 18) in real browsers, a laptop (South, 1366×820) against a phone (North, 360×740, touch):
nothing covers or moves the board, a move that may be followed by an attack waits visibly, the defence is chosen
beside the board, the bomb is offered only when selected, the phone zooms, and a move list with a last-move mark
that opens positions after the game.

Screenshots go to ``artifacts/e2e/play-*-{laptop,phone}.png``.
"""

from __future__ import annotations

import re

from admiral.games.admiral.rules import Side

from .test_comfort import _neutral, _setup
from .ui import DESKTOP, PHONE, TIMEOUT_MS, cell, defend, play, press, version, wait_version

TEAL = "rgb(14, 154, 167)"  # --last: the last move's colour, used for nothing else


def _box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def _apart(a: dict, b: dict) -> bool:
    """The two boxes do not overlap."""
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _on_top(page, name: str) -> bool:
    """Nothing covers the centre of cell ``name``: a tap there reaches the cell."""
    return page.evaluate(
        """name => { const el = document.querySelector(`.play-board .cell[data-cell='${name}']`);
             el.scrollIntoView({block: "nearest"}); const r = el.getBoundingClientRect();
             const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
             return !!top && (top === el || el.contains(top)); }""",
        name,
    )


def _ready_with(page, server_url: str, url: str, setup: dict[str, str], *, invite: bool) -> None:
    """Save ``setup`` (side-neutral, docs/protocol.md), open the game (accepting the invitation if ``invite``),
    load it and get ready."""
    page.goto(server_url + "/")
    status = page.evaluate(
        """s => fetch("/api/setups", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({name: "Крейсеры", setup: s})}).then((r) => r.status)""",
        setup,
    )
    assert status == 201
    page.goto(server_url + url)
    if invite:
        press(page, page.get_by_role("button", name="Принять приглашение"))
    page.wait_for_selector(".arsenal-item")
    page.locator("details.saved summary").click()
    page.get_by_label("Сохранённые расстановки").select_option(label="Крейсеры")
    page.get_by_role("button", name="Загрузить").click()
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    press(page, page.get_by_role("button", name="Готов"))


PLAN = [
    ("south", "c5-c6"), ("north", "c11-c10"), ("south", "c6-c7"), ("north", "c10-c9"),
    ("south", "d5-d6"), ("north", "d11-d10"), ("south", "d6-d7"), ("north", "d10-d9"),
    ("south", "d7-d8"), ("north", "f11-f10"),
]  # fmt: skip
"""Cruisers walk towards each other: South's c7 and d8 face North's c9 and d9."""


def _friend_game(server_url: str, south, north) -> None:
    """A friend game of 30 minutes each: South creates it, North accepts the invitation; both load their setups
    (six cruisers on the front row) and are ready; waits for the board."""
    for p in (south, north):
        p.set_default_timeout(TIMEOUT_MS)
    south.goto(server_url + "/")
    created = south.evaluate(
        """async () => (await fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({side: "south", time_control: "30+0", setup_minutes: 0})})).json()"""
    )
    _ready_with(south, server_url, created["url"], _setup(Side.SOUTH, 4), invite=False)
    _ready_with(north, server_url, created["invite_url"], _neutral(_setup(Side.NORTH, 8)), invite=True)
    for p in (south, north):
        p.wait_for_selector(".play-board")
    wait_version(south, 0)


def _walk(south, north, plies: int, before=None) -> None:
    """Play the first ``plies`` of :data:`PLAN` through the UI; ``before(n)`` runs before ply ``n``."""
    pages = {"south": south, "north": north}
    for n, (side, move) in enumerate(PLAN[:plies]):
        if before:
            before(n)
        page = pages[side]
        play(page, move)
        wait_version(north if page is south else south, version(page))


def _bomb_offered_only_when_selected(page, shots, device: str) -> None:
    """Rules §8: «Подорвать АБ» shows with the bomb selected, over the square it would clear; a declined
    confirmation sends nothing."""
    v = version(page)
    assert not page.get_by_role("button", name="Подорвать АБ").is_visible()
    bomb = page.evaluate("window.admiral.view.legal.find((a) => a.type === 'detonate').cell")
    blast = page.evaluate("window.admiral.view.legal.find((a) => a.type === 'detonate').blast")
    press(page, cell(page, bomb))
    assert page.get_by_role("button", name="Подорвать АБ").is_visible()
    assert sorted(
        page.eval_on_selector_all(".play-board .cell.blast", "els => els.map((e) => e.dataset.cell)")
    ) == sorted(blast)
    assert "квадрате 5×5" in page.locator(".action-bar .hint").inner_text()
    page.screenshot(path=shots / f"play-bomb-selected-{device}.png")
    page.once("dialog", lambda d: d.dismiss())
    press(page, page.get_by_role("button", name="Подорвать АБ"))
    page.wait_for_timeout(300)
    assert version(page) == v  # declined: nothing sent
    page.keyboard.press("Escape")
    assert page.locator(".play-board .cell.blast").count() == 0
    assert not page.get_by_role("button", name="Подорвать АБ").is_visible()


def _board_stays(page, unit: str, shots, device: str) -> None:
    """Selecting a unit (a long hint, a button row) and leaving it with Escape never moves the board."""
    before = _box(page, ".play-board")
    press(page, cell(page, unit))
    assert "selected" in cell(page, unit).get_attribute("class")
    assert _box(page, ".play-board") == before
    page.screenshot(path=shots / f"play-selected-{device}.png")
    page.keyboard.press("Escape")
    assert "selected" not in cell(page, unit).get_attribute("class")
    assert _box(page, ".play-board") == before


def test_play_comfort_laptop_against_phone(browser, server_url, shots, page_errors):
    laptop = browser.new_context(**DESKTOP)
    phone = browser.new_context(**PHONE)
    try:
        south = page_errors(laptop.new_page(), "south-laptop")
        north = page_errors(phone.new_page(), "north-phone")
        _friend_game(server_url, south, north)

        # Nothing moves the board; the bomb is offered only when selected (laptop).
        _board_stays(south, "c5", shots, "laptop")
        _bomb_offered_only_when_selected(south, shots, "laptop")
        assert south.locator(".move-list li.empty").count() == 1

        def phone_first_turn(n: int) -> None:
            if n == 1:  # the phone, at its first turn: the same checks
                _board_stays(north, "c11", shots, "phone")
                _bomb_offered_only_when_selected(north, shots, "phone")

        _walk(south, north, 9, phone_first_turn)

        # The last move stands out on both boards: from and to in teal, a colour used for nothing else.
        for page in (south, north):
            for name, cls in (("d7", "last-from"), ("d8", "last-to")):
                assert cls in cell(page, name).get_attribute("class")
            shadow = cell(page, "d8").evaluate("el => getComputedStyle(el).boxShadow")
            assert TEAL in shadow, shadow
        # The move list: every ply in notation, the same on both sides.
        for page in (south, north):
            lines = page.locator(".move-list li")
            assert lines.count() == 9
            assert re.sub(r"\s+", " ", lines.first.inner_text()).strip() == "1. В5-В6"
            assert "9. Г7-Г8" in re.sub(r"\s+", " ", lines.last.inner_text())

        # The phone (North): with a ship selected, a tap on an enemy marker that is not its target leaves the
        # selection and opens no note dialog; with nothing selected the same tap notes the marker.
        press(north, cell(north, "f11"))
        assert "selected" in cell(north, "f11").get_attribute("class")
        press(north, cell(north, "a5"))
        north.wait_for_timeout(300)
        assert north.locator("dialog.note-dialog").count() == 0
        assert north.locator(".play-board .cell.selected").count() == 0
        press(north, cell(north, "a5"))
        north.locator("dialog.note-dialog").wait_for()
        north.keyboard.press("Escape")
        north.locator("dialog.note-dialog").wait_for(state="detached")

        # The phone's board: legible codes, and «Крупнее» for taps of ≥ 32 px, panned inside its frame.
        code = north.locator(".play-board .unit .code").first.evaluate(
            "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        assert code >= 9, code
        normal = cell(north, "f11").bounding_box()["width"]
        press(north, north.get_by_role("button", name="Крупнее"))
        big = cell(north, "f11").bounding_box()["width"]
        assert big >= 32 > normal, (big, normal)
        wrap = north.locator(".board-wrap")
        assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")
        assert north.evaluate("document.documentElement.scrollWidth") <= 360
        wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")  # panned to the far side
        labels = north.locator(".play-board .lab-row").first.bounding_box()
        assert labels["x"] >= 0, labels  # the row numbers stay in sight while panned
        north.screenshot(path=shots / "play-zoomed-phone.png")
        press(north, cell(north, "f11"))  # a tap on the panned board reaches its cell
        assert "selected" in cell(north, "f11").get_attribute("class")
        north.keyboard.press("Escape")
        press(north, north.get_by_role("button", name="Всё поле"))
        assert cell(north, "f11").bounding_box()["width"] == normal
        play(north, "f11-f10")
        wait_version(south, version(north))

        # South (laptop) steps c7→c8 where an attack may follow: the ship waits there, its targets lit, one clear
        # choice to stop, the own clock visibly running; the board has not moved.
        before = _box(south, ".play-board")
        v = version(south)
        south.locator(".cell[data-cell='c7']").click()
        south.locator(".cell[data-cell='c8']").click()
        bar = south.locator(".action-bar")
        assert "waiting" in bar.get_attribute("class")
        assert "Корабль ждёт на В8" in bar.inner_text() and "Ваши часы идут" in bar.inner_text()
        stop = south.get_by_role("button", name="Остановиться здесь")
        assert stop.is_visible() and stop.bounding_box()["y"] + stop.bounding_box()["height"] <= 820
        assert "target" in cell(south, "c9").get_attribute("class")
        assert "k-KR" in cell(south, "c8").inner_html() and "ghost-from" in cell(south, "c7").get_attribute("class")
        assert "running" in south.locator(".player-bar.own .clock").get_attribute("class")
        assert _box(south, ".play-board") == before
        assert version(south) == v  # nothing sent yet
        south.screenshot(path=shots / "play-move-waits-laptop.png")
        cell(south, "c9").click()
        dialog = south.locator("dialog.formation-dialog")
        dialog.wait_for()
        dialog.get_by_role("button", name=re.compile("Один: Крейсер")).click()

        # North (phone) defends in a panel under the board: the attacker, the target and its neighbours stay in
        # sight, and a tap on an option outlines its formation before «Защищаться».
        wait_version(north, v + 1)
        panel = north.locator(".defence-panel")
        panel.wait_for()
        assert _apart(panel.bounding_box(), _box(north, ".play-board"))
        for name in ("c8", "c9", "d9", "b9", "c10"):
            assert _on_top(north, name), name
        press(north, panel.get_by_role("radio", name=re.compile("Строй: 2 КР")))
        assert {"c9", "d9"} <= set(
            north.eval_on_selector_all(".play-board .cell.member", "els => els.map((e) => e.dataset.cell)")
        )
        assert panel.get_by_role("radio", name=re.compile("Строй: 2 КР")).get_attribute("aria-checked") == "true"
        north.screenshot(path=shots / "play-defence-phone.png")
        defend(north, re.compile("Строй: 2 КР"))
        wait_version(south, v + 2)
        wait_version(north, v + 2)

        # The battle card never covers the board: beside it on the laptop, a strip under it on the phone.
        card = south.locator(".last-report")
        card.wait_for()
        assert _apart(card.bounding_box(), _box(south, ".play-board"))
        assert "Сила 18 больше силы 7" in card.inner_text()
        south.screenshot(path=shots / "play-report-laptop.png")
        strip = north.locator(".report-strip")
        strip.wait_for()
        assert north.locator(".last-report").is_hidden()
        assert _apart(strip.bounding_box(), _box(north, ".play-board"))
        press(north, strip.get_by_role("button", name="Карточка"))
        assert "Сила 18 больше силы 7" in strip.locator(".strip-card").inner_text()
        assert _apart(strip.bounding_box(), _box(north, ".play-board"))
        for name in ("c9", "d9", "c8"):
            assert _on_top(north, name), name
        north.screenshot(path=shots / "play-report-phone.png")
        # the battle is in the move list with its loss
        assert "11. В7-В8×В9" in re.sub(r"\s+", " ", south.locator(".move-list li").nth(10).inner_text())
        for page in (south, north):
            last = re.sub(r"\s+", " ", page.locator(".move-list li").last.inner_text())
            assert "12. [В9+Г9]" in last and "✕ КР" in last, last

        # The next action dismisses the card: North's first tap on its own cruiser selects it.
        north.wait_for_function("() => window.admiral?.view.to_act === 'north'")
        press(north, cell(north, "c9"))
        assert "selected" in cell(north, "c9").get_attribute("class")
        assert strip.is_hidden()
        north.keyboard.press("Escape")

        assert south.locator(".zoom-toggle").is_hidden()  # the laptop's cells are big enough
        assert cell(south, "a1").bounding_box()["width"] >= 32

        # After the game the move list opens the position after any ply.
        south.once("dialog", lambda d: d.accept())
        north.once("dialog", lambda d: d.accept())
        press(north, north.get_by_role("button", name="Сдаться"))
        # the phone sees the end at once: the result right under its board, the last card gone with its buttons
        result = north.locator(".result-panel")
        result.wait_for()
        north.wait_for_timeout(300)
        box = result.bounding_box()
        assert box["y"] >= 0 and box["y"] + 60 <= 740, box  # its headline in sight
        assert north.locator(".report-strip").is_hidden()
        assert north.get_by_role("button", name="Реванш", exact=True).is_visible()
        north.screenshot(path=shots / "play-result-phone.png")
        south.locator(".result-panel").wait_for()
        first = south.locator(".move-list button.mv-line").first
        first.click()
        south.wait_for_function("() => document.querySelector('.move-list [aria-current=step]')")
        assert "1. В5-В6" in re.sub(r"\s+", " ", south.locator(".move-list [aria-current=step]").inner_text())
        assert "last-to" in cell(south, "c6").get_attribute("class") and cell(south, "c6").locator(".k-KR").count() == 1
        south.screenshot(path=shots / "play-move-list-replay-laptop.png")
        north.locator(".result-panel").wait_for()
        line = north.locator(".move-list button.mv-line").nth(3)
        press(north, line)
        north.wait_for_function("() => document.querySelector('.move-list [aria-current=step]')")
        assert "last-to" in cell(north, "c9").get_attribute("class")
        north.screenshot(path=shots / "play-move-list-replay-phone.png", full_page=True)
        assert page_errors.errors == []
    finally:
        laptop.close()
        phone.close()


def test_the_phone_attacks_and_the_laptop_defends(browser, server_url, shots, page_errors):
    """The same steps on the other sizes: the phone's move waits for «attack or stop» under its board (the clock
    running), and the laptop (North) chooses its defence in the panel beside its board, in sight at 1366×768."""
    laptop = browser.new_context(**{**DESKTOP, "viewport": {"width": 1366, "height": 768}})
    phone = browser.new_context(**PHONE)
    try:
        south = page_errors(phone.new_page(), "south-phone")
        north = page_errors(laptop.new_page(), "north-laptop")
        _friend_game(server_url, south, north)
        _walk(south, north, len(PLAN))

        v = version(south)
        press(south, cell(south, "c7"))
        press(south, cell(south, "c8"))
        bar = south.locator(".action-bar")
        assert "waiting" in bar.get_attribute("class") and "Корабль ждёт на В8" in bar.inner_text()
        assert "Ваши часы идут" in bar.inner_text()
        assert "target" in cell(south, "c9").get_attribute("class")
        assert "running" in south.locator(".player-bar.own .clock").get_attribute("class")
        stop = south.get_by_role("button", name="Остановиться здесь")
        stop.scroll_into_view_if_needed()
        assert stop.is_visible()
        for name in ("c8", "c9"):
            assert _on_top(south, name), name
        south.screenshot(path=shots / "play-move-waits-phone.png")
        press(south, cell(south, "c9"))
        dialog = south.locator("dialog.formation-dialog")
        dialog.wait_for()
        press(south, dialog.get_by_role("button", name=re.compile("Один: Крейсер")))

        wait_version(north, v + 1)
        panel = north.locator(".defence-panel")
        panel.wait_for()
        box = panel.bounding_box()
        assert _apart(box, _box(north, ".play-board")) and box["y"] + box["height"] <= 768  # beside the board
        for name in ("c8", "c9", "d9", "b9", "c10"):
            assert _on_top(north, name), name
        # pointing at an option outlines its formation; a click chooses it
        panel.get_by_role("radio", name=re.compile("Один: Крейсер")).hover()
        assert north.eval_on_selector_all(".play-board .cell.member", "els => els.map((e) => e.dataset.cell)") == ["c9"]
        panel.get_by_role("radio", name=re.compile("Строй: 2 КР")).click()
        assert sorted(
            north.eval_on_selector_all(".play-board .cell.member", "els => els.map((e) => e.dataset.cell)")
        ) == ["c9", "d9"]
        north.screenshot(path=shots / "play-defence-laptop.png")
        panel.get_by_role("button", name="Защищаться").click()
        wait_version(south, v + 2)
        card = north.locator(".last-report")
        card.wait_for()
        assert _apart(card.bounding_box(), _box(north, ".play-board"))
        assert south.locator(".report-strip").is_visible() and north.locator(".report-strip").is_hidden()
        north.screenshot(path=shots / "play-report-laptop-768.png")
        assert page_errors.errors == []
    finally:
        laptop.close()
        phone.close()
