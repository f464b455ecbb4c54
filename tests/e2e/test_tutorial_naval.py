"""«Обучение» of «Военно-морская игра» in a real browser (issue 21): the three lessons played by clicking at laptop
size (1366×768) — a ship selected, its green dot, its ↻, its strike sight, the minesweeper's mine chosen in the panel,
and the grey circles of the tries the rules refuse, each answered with the rules' reason —, then the first lesson by
taps at phone size (360×740); the page never scrolls sideways. Screenshots go to ``/tmp/tutorial-shots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_naval import LAPTOP, press, ship
from .ui import PHONE, TIMEOUT_MS, version

SHOTS = Path("/tmp/tutorial-shots")


@pytest.fixture
def tshots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def wait_step(page, n: int) -> None:
    """Wait until the lesson is at step ``n`` with every view of the last step shown."""
    page.wait_for_function("n => window.admiral?.step === n && !window.admiral?.busy", arg=n, timeout=TIMEOUT_MS)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width


def select(page, point: str) -> None:
    if "selected" not in (ship(page, point).get_attribute("class") or ""):
        press(page, ship(page, point))
    assert "selected" in ship(page, point).get_attribute("class")


def step_to(page, src: str, dst: str) -> None:
    select(page, src)
    press(page, page.locator(f".nv-map .nv-step[data-point='{dst}']"))


def strike(page, src: str, dst: str, struck: str) -> None:
    select(page, src)
    sight = page.locator(f".nv-map .nv-strike[data-point='{dst}']")
    assert sight.locator(".nv-struck-label").text_content() == struck
    press(page, sight)


def try_(page, src: str, dst: str) -> None:
    """Tap the grey circle of an order the rules refuse."""
    select(page, src)
    press(page, page.locator(f".nv-map .nv-try[data-point='{dst}']"))


def coach(page, part: str) -> str:
    return page.locator(f".coach-{part}").inner_text()


def lesson_moves(page, shots: Path, device: str) -> None:
    page.wait_for_selector(".nv-map .nv-ship")
    wait_step(page, 0)
    assert "Шаг 1 из 5" in coach(page, "progress")
    assert page.locator(".nv-map .nv-spot").count() == 2  # d3 and d4 ringed
    no_sideways_scroll(page)
    # A wrong try: sideways before the step asked for it — refused with the rules' reason, nothing moves.
    try_(page, "d3", "e3")
    page.locator(".coach-hint", has_text="Боком корабль не ходит").wait_for(state="visible")
    assert "зелёную точку на d4" in coach(page, "hint") and version(page) == 0
    assert ship(page, "d3").count() == 1
    page.screenshot(path=shots / f"n01-moves-refused-{device}.png")
    step_to(page, "d3", "d4")
    wait_step(page, 1)
    assert ship(page, "d4").get_attribute("data-facing") == "n" and ship(page, "g11").count() == 1
    assert page.locator(".coach-hint").is_hidden()
    # The refusal step: the grey circle beside the cruiser, the rules' reason in what happened.
    try_(page, "d4", "e4")
    wait_step(page, 2)
    assert "Боком корабль не ходит" in coach(page, "result") and ship(page, "d4").count() == 1
    page.screenshot(path=shots / f"n02-moves-sideways-{device}.png")
    select(page, "d4")
    press(page, page.locator(".nv-map .nv-turn[data-turn='right']"))
    wait_step(page, 3)
    assert ship(page, "d4").get_attribute("data-facing") == "e"
    step_to(page, "d4", "e4")
    wait_step(page, 4)
    try_(page, "e4", "d4")
    wait_step(page, 5)
    page.locator(".coach-done").wait_for(state="visible")
    assert "Кормой вперёд корабль не ходит" in coach(page, "result")
    assert page.evaluate("window.admiral.done") is True and page.evaluate("window.admiral.view.legal.length") == 0
    no_sideways_scroll(page)
    page.screenshot(path=shots / f"n03-moves-done-{device}.png", full_page=True)


def lesson_strikes(page, shots: Path) -> None:
    page.wait_for_selector(".nv-map .nv-ship")
    wait_step(page, 0)
    strike(page, "d5", "d6", "в борт")
    wait_step(page, 1)
    assert ship(page, "d6").get_attribute("data-side") == "south"
    assert "ударил в борт канонерку d6" in page.locator(".nv-log").inner_text()
    try_(page, "f5", "f6")
    wait_step(page, 2)
    assert "В корму бить нельзя" in coach(page, "result")
    try_(page, "h4", "h5")
    wait_step(page, 3)
    assert "В нос бьёт только старший" in coach(page, "result")
    page.screenshot(path=shots / "n04-strikes-bow-refused-laptop.png")
    strike(page, "d6", "d7", "в нос")
    wait_step(page, 4)
    strike(page, "b8", "b9", "в нос")
    wait_step(page, 5)
    page.locator(".coach-done").wait_for(state="visible")
    assert ship(page, "b9").get_attribute("data-kind") == "S"
    page.screenshot(path=shots / "n05-strikes-done-laptop.png")


def lesson_mines(page, shots: Path) -> None:
    page.wait_for_selector(".nv-map .nv-ship")
    wait_step(page, 0)
    select(page, "f6")
    press(page, page.locator(".nv-mine-mode[data-mode='lay:before']"))
    press(page, page.locator(".nv-map .nv-step[data-point='e6']"))
    wait_step(page, 1)
    assert page.locator(".nv-map .nv-mine[data-point='f6']").count() == 1
    assert ship(page, "f6").count() == 0 and ship(page, "e6").get_attribute("data-kind") == "M"  # the gunboat sank
    page.wait_for_function("() => document.querySelector('.nv-die')?.dataset.result === 'boom'")
    page.locator(".nv-die-result.boom").wait_for(state="visible")
    page.screenshot(path=shots / "n06-mines-boom-laptop.png")
    step_to(page, "e10", "e11")
    wait_step(page, 2)
    page.wait_for_function("() => document.querySelector('.nv-die')?.dataset.k === '1'")
    assert page.locator(".nv-die").get_attribute("data-result") == "safe"
    assert ship(page, "e11").get_attribute("data-kind") == "C"
    page.locator(".nv-die-result.safe").wait_for(state="visible")
    page.screenshot(path=shots / "n07-mines-gun-safe-laptop.png")
    step_to(page, "f5", "f6")
    wait_step(page, 3)
    page.locator(".coach-done").wait_for(state="visible")
    assert page.locator(".nv-die").get_attribute("data-k") == "1"  # the submarine rolled nothing
    page.screenshot(path=shots / "n08-mines-done-laptop.png")


def test_the_three_naval_lessons_at_laptop_size(browser, server_url, tshots, page_errors):
    ctx = browser.new_context(**LAPTOP)
    try:
        page = page_errors(ctx.new_page(), "laptop")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/tutorial")
        naval = page.locator(".tutorial-game[data-game='naval']")
        assert naval.locator("h2").inner_text() == "Военно-морская игра"
        assert naval.locator(".lesson-item").count() == 3
        assert page.locator(".tutorial-game[data-game='admiral'] .lesson-item").count() == 10
        page.screenshot(path=tshots / "n00-list-laptop.png", full_page=True)
        press(page, naval.locator(".lesson-item[data-slug='naval-moves'] a"))
        lesson_moves(page, tshots, "laptop")
        press(page, page.get_by_role("link", name="Следующий урок: Удар по курсу"))
        lesson_strikes(page, tshots)
        press(page, page.get_by_role("link", name="Следующий урок: Мины и батареи"))
        lesson_mines(page, tshots)
        assert page.locator(".coach-done a", has_text="Следующий урок").count() == 0  # the last of its game

        page.goto(server_url + "/tutorial#naval")
        done = naval.locator(".lesson-item.done")
        assert [done.nth(i).get_attribute("data-slug") for i in range(done.count())] == [
            "naval-moves", "naval-strikes", "naval-mines",
        ]  # fmt: skip
        assert "Пройдено уроков: 3 из 3" in naval.locator(".tutorial-total").inner_text()
        page.screenshot(path=tshots / "n09-list-done-laptop.png", full_page=True)
        assert page_errors.errors == []
    finally:
        ctx.close()


def test_the_first_naval_lesson_at_phone_size(browser, server_url, tshots, page_errors):
    ctx = browser.new_context(**PHONE)
    try:
        page = page_errors(ctx.new_page(), "phone")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        page.goto(server_url + "/tutorial")
        no_sideways_scroll(page)
        page.screenshot(path=tshots / "p00-list-phone.png", full_page=True)
        press(page, page.locator(".lesson-item[data-slug='naval-moves'] a"))
        page.wait_for_selector(".nv-map .nv-ship")
        # the coach above the map
        assert page.locator(".coach").bounding_box()["y"] < page.locator(".nv-map").bounding_box()["y"]
        page.screenshot(path=tshots / "p01-moves-start-phone.png")
        lesson_moves(page, tshots, "phone")
        assert page_errors.errors == []
    finally:
        ctx.close()
