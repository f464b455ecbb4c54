"""«Обучение» in a real browser (issue 7): the first three lessons — setup, moving, attacking — at desktop and
phone size, each step through the game's own screens, a wrong try refused with its hint and nothing changed,
and the done marks remembered for the commander.
"""

from __future__ import annotations

import pytest

from .ui import DESKTOP, PHONE, TIMEOUT_MS, cell, defend, legal, notations, play, press, version

DEVICES = {"desktop": DESKTOP, "phone": PHONE}


def wait_step(page, n: int) -> None:
    """Wait until the lesson is at step ``n`` with every view of the last step shown."""
    page.wait_for_function("n => window.admiral?.step === n && !window.admiral?.busy", arg=n, timeout=TIMEOUT_MS)


def close_card(page) -> None:
    """Close the last battle's card (it lies beside the board or in a strip under it, never over it)."""
    close = page.locator(".last-report:not([hidden]) .close, .report-strip:not([hidden]) .close").locator(
        "visible=true"
    )
    if close.count():
        press(page, close.first)


def refused(page, hint: str) -> None:
    """The coach shows the step's hint for a refused try."""
    page.locator(".coach-hint", has_text=hint).wait_for(state="visible")


def place(page, kind: str, where: str) -> None:
    """Pick ``kind`` in the arsenal and put it on ``where``."""
    press(page, page.locator(f".arsenal-item[data-kind='{kind}']"))
    press(page, cell(page, where))


def coach_text(page) -> str:
    return page.locator(".coach").inner_text()


def lesson_setup(page, shots, device: str) -> None:
    page.wait_for_selector(".arsenal-item")
    assert "Шаг 1 из 4" in coach_text(page)
    assert "Д3" in page.locator(".coach-say").inner_text()
    assert "spot" in cell(page, "e3").get_attribute("class")
    # A linkor on the wrong cell: refused, taken back off the board.
    place(page, "L", "e4")
    refused(page, "именно на клетку Д3")
    page.wait_for_function("() => !document.querySelector(\".board .cell[data-cell='e4'] .unit\")")
    assert page.evaluate("window.admiral.step") == 0
    place(page, "L", "e3")
    wait_step(page, 1)
    assert cell(page, "e3").locator(".unit.k-L").count() == 1
    assert page.locator(".coach-hint").is_hidden()
    assert "Линкор на месте" in page.locator(".coach-result").inner_text()
    # A base in the front row is refused with the reason.
    place(page, "VMB", "b5")
    refused(page, "В ряд 5 базу ставить нельзя")
    page.wait_for_function("() => !document.querySelector(\".board .cell[data-cell='b5'] .unit\")")
    place(page, "VMB", "b1")
    wait_step(page, 2)
    press(page, page.get_by_role("button", name="Авторасстановка"))
    wait_step(page, 3)
    page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
    assert cell(page, "e3").locator(".unit.k-L").count() == 1 and cell(page, "b1").locator(".unit.k-VMB").count() == 1
    assert "самолёт рядом с авианосцем" in page.locator(".coach-result").inner_text()
    page.screenshot(path=shots / f"41-lesson-setup-auto-{device}.png")
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    press(page, page.get_by_role("button", name="Готов"))
    page.locator(".coach-done").wait_for(state="visible")
    assert page.evaluate("window.admiral.done") is True
    assert "Расстановка закреплена" in page.locator(".coach-result").inner_text()
    page.screenshot(path=shots / f"42-lesson-setup-done-{device}.png")


def lesson_moving(page, shots, device: str) -> None:
    page.wait_for_selector(".play-board")
    wait_step(page, 0)
    assert "Шаг 1 из 3" in coach_text(page)
    # A move other than the step's: refused with the hint, nothing changes.
    assert "e3-d3" in notations(page)
    press(page, cell(page, "e3"))
    press(page, cell(page, "d3"))
    refused(page, "Сейчас нужен ход крейсером с Д4 на Д5")
    assert version(page) == 0
    assert cell(page, "e3").locator(".unit.k-L").count() == 1 and cell(page, "d3").locator(".unit").count() == 0
    page.screenshot(path=shots / f"43-lesson-moving-refused-{device}.png")
    play(page, "e4-e5")
    wait_step(page, 1)
    # The opponent's reply: a closed marker went from Д11 to Д10.
    assert cell(page, "e10").locator(".unit.marker").count() == 1 and cell(page, "e11").locator(".unit").count() == 0
    assert "last-to" in cell(page, "e10").get_attribute("class")
    assert "Корабль ходит на одну клетку" in page.locator(".coach-result").inner_text()
    assert page.locator(".coach-hint").is_hidden()
    play(page, "e3-e4")
    wait_step(page, 2)
    play(page, "e5-f5")
    wait_step(page, 3)
    page.locator(".coach-done").wait_for(state="visible")
    assert legal(page) == []  # a finished lesson takes no more actions
    page.screenshot(path=shots / f"44-lesson-moving-done-{device}.png")


def lesson_attack(page, shots, device: str) -> None:
    page.wait_for_selector(".play-board")
    wait_step(page, 0)
    assert cell(page, "e8").locator(".unit.marker").count() == 1
    press(page, cell(page, "e7"))
    assert "target" in cell(page, "e8").get_attribute("class")
    press(page, cell(page, "e8"))
    wait_step(page, 1)
    card = page.locator(".last-report")
    card.wait_for(state="attached")
    assert "Сторожевик" in card.text_content() and "Сила 7 больше силы 2: победа атакующих." in card.text_content()
    assert cell(page, "e8").locator(".unit").count() == 0 and cell(page, "e7").locator(".unit.k-KR").count() == 1
    assert "сила 7 по шкале" in page.locator(".coach-result").inner_text()
    page.screenshot(path=shots / f"45-lesson-attack-card-{device}.png")
    close_card(page)
    # Step, then attack: З6 → З7 and the target on З8.
    press(page, cell(page, "h6"))
    press(page, cell(page, "h7"))
    assert "target" in cell(page, "h8").get_attribute("class")
    press(page, cell(page, "h8"))
    wait_step(page, 2)
    assert "Сила 5 больше силы 1" in page.locator(".last-report").text_content()
    close_card(page)
    # A blind attack on a linkor loses the cruiser.
    press(page, cell(page, "e7"))
    press(page, cell(page, "e8"))
    wait_step(page, 3)
    card.wait_for(state="attached")
    assert "Сила 15 больше силы 7: атака отбита." in card.text_content()
    assert cell(page, "e7").locator(".unit").count() == 0
    page.locator(".coach-done").wait_for(state="visible")
    assert "На Д8 оказался линкор" in page.locator(".coach-result").inner_text()
    assert page.locator(".log li").count() == 3
    page.screenshot(path=shots / f"46-lesson-attack-done-{device}.png", full_page=True)


@pytest.mark.parametrize("device", list(DEVICES))
def test_first_three_lessons(browser, server_url, shots, page_errors, device):
    ctx = browser.new_context(**DEVICES[device])
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        assert page.locator(".tutorial-invite a[href='/tutorial']").is_visible()
        press(page, page.locator(".topbar a[href='/tutorial']"))
        page.wait_for_url("**/tutorial")
        assert page.locator("[data-game='admiral'] .lesson-item").count() == 10
        assert page.locator(".lesson-item.done").count() == 0
        page.screenshot(path=shots / f"40-tutorial-list-{device}.png", full_page=True)

        press(page, page.locator(".lesson-item[data-slug='setup'] a"))
        lesson_setup(page, shots, device)
        press(page, page.get_by_role("link", name="Следующий урок: Движение"))
        lesson_moving(page, shots, device)
        press(page, page.get_by_role("link", name="Следующий урок: Атака и карточка боя"))
        lesson_attack(page, shots, device)

        # The commander's progress: three lessons done, remembered after a reload.
        page.goto(server_url + "/tutorial")
        done = page.locator(".lesson-item.done")
        assert [done.nth(i).get_attribute("data-slug") for i in range(done.count())] == ["setup", "moving", "attack"]
        assert "Пройдено уроков: 3 из 10" in page.locator("[data-game='admiral'] .tutorial-total").inner_text()
        page.reload()
        assert page.locator(".lesson-item.done").count() == 3
        page.screenshot(path=shots / f"47-tutorial-list-done-{device}.png", full_page=True)
        assert page_errors.errors == []
    finally:
        ctx.close()


def attack(page, src: str, target: str, via: str | None = None) -> None:
    """Attack through the board: the unit, the cell it steps to (if any), the target."""
    close_card(page)
    press(page, cell(page, src))
    if via:
        press(page, cell(page, via))
    assert "target" in cell(page, target).get_attribute("class")
    press(page, cell(page, target))


def test_lessons_four_to_ten(browser, server_url, shots, page_errors):
    """The other lessons through the same screens: formation and defence dialogs, the aircraft, torpedoes,
    mines, the fireship, the detonation and the last base; each finishes with its done mark."""
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "rest")
        page.set_default_timeout(TIMEOUT_MS)

        page.goto(server_url + "/tutorial/formation")
        wait_step(page, 0)
        attack(page, "e7", "e8")
        dialog = page.locator("dialog.formation-dialog")
        assert "Атакуйте Д8 крейсером с Д7" in dialog.locator(".dialog-note").inner_text()
        dialog.get_by_role("button", name="Строй: 2 КР").click()
        defence = page.locator(".defence-panel")
        defence.wait_for()
        # A lesson has no clocks: the panel does not say they run.
        assert "часы" not in defence.locator(".dialog-intro").inner_text()
        wait_step(page, 1)
        assert "Сила 18 больше силы 15: победа атакующих." in page.locator(".last-report").text_content()
        # A weaker declaration is refused; the panel comes back for the right one.
        defend(page, "Строй: 2 ЭС")
        refused(page, "Выберите строй из трёх эсминцев")
        defence.wait_for()
        page.screenshot(path=shots / "48-lesson-formation-defence.png")
        defend(page, "Строй: 3 ЭС")
        wait_step(page, 2)
        card = page.locator(".last-report")
        assert "Сила 13 больше силы 12: атака отбита." in card.text_content()

        page.goto(server_url + "/tutorial/aircraft")
        wait_step(page, 0)
        play(page, "c5-d5")
        wait_step(page, 1)
        attack(page, "e5", "e8")
        wait_step(page, 2)
        assert cell(page, "e8").locator(".unit").count() == 0 and cell(page, "f5").locator(".unit").count() == 0
        assert cell(page, "e5").locator(".unit.k-S").count() == 1

        page.goto(server_url + "/tutorial/torpedo")
        wait_step(page, 0)
        attack(page, "e6", "e8")
        wait_step(page, 1)
        assert cell(page, "h6").locator(".unit").count() == 0 and cell(page, "h7").locator(".unit").count() == 0
        attack(page, "k6", "k7")
        wait_step(page, 2)
        assert cell(page, "k6").locator(".unit.k-ST").count() == 1

        page.goto(server_url + "/tutorial/mines")
        wait_step(page, 0)
        attack(page, "e7", "e8")
        wait_step(page, 1)
        close_card(page)
        play(page, "g6-g7")
        wait_step(page, 2)
        assert cell(page, "g7").locator(".unit").count() == 0

        page.goto(server_url + "/tutorial/fireship")
        wait_step(page, 0)
        play(page, "e6-e7")
        wait_step(page, 1)
        attack(page, "e7", "e8")
        wait_step(page, 2)

        page.goto(server_url + "/tutorial/atomic")
        wait_step(page, 0)
        play(page, "e7-e8")
        wait_step(page, 1)
        assert page.locator(".board .cell.spot").count() == 25  # the blast square is outlined
        assert not page.get_by_role("button", name="Подорвать АБ").is_visible()  # only with the bomb selected
        press(page, cell(page, "e8"))
        assert page.locator(".board .cell.blast").count() == 25  # the square it would clear
        page.once("dialog", lambda d: d.accept())
        page.get_by_role("button", name="Подорвать АБ").click()
        wait_step(page, 2)
        assert "Взрыв на Д8" in page.locator(".last-report").text_content()
        assert page.locator(".board .cell[data-cell^='e'] .unit.marker").count() == 0
        page.screenshot(path=shots / "49-lesson-atomic.png")

        page.goto(server_url + "/tutorial/base")
        wait_step(page, 0)
        attack(page, "d13", "d14")
        wait_step(page, 1)
        attack(page, "k12", "k14", via="k13")
        wait_step(page, 2)
        page.locator(".result-panel h2", has_text="Победа!").wait_for()
        assert page.locator(".result-panel .btn").count() == 0  # no rematch, record or credit in a lesson
        page.screenshot(path=shots / "50-lesson-base-won.png")

        page.goto(server_url + "/tutorial")
        done = page.locator(".lesson-item.done")
        slugs = [done.nth(i).get_attribute("data-slug") for i in range(done.count())]
        assert slugs == ["formation", "aircraft", "torpedo", "mines", "fireship", "atomic", "base"]
        assert page_errors.errors == []
    finally:
        ctx.close()
