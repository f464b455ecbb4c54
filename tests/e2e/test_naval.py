"""«Военно-морская игра» in real browsers (``../shared/rules/NAVAL_GAME.md``; client ``static/js/games/naval/``).

A friend game between two browser contexts at laptop size: the invite taken, both see the open map with their own
coast at the bottom (North's turned a half-turn); every order goes through the map — a ship selected, its green
step dot, its ↺ ↻ beside it, the minesweeper's mine chosen first in the panel, a strike on its sight marked
«в борт» —, the die shows the roll of a ship entering a mined point, the log words the strike; then a resignation
and both see the result. The same at phone size with taps. Against the AI: level 1 for a dozen turns (strikes
first, then steps), then a resignation (a whole game at the bots' pace takes minutes: not here); level 5 a few
moves. Screenshots go to ``/tmp/naval-shots/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .ui import PHONE, TIMEOUT_MS, version, wait_version
from .ui import press as _press

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SHOTS = Path("/tmp/naval-shots")


@pytest.fixture
def nv_shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def press(page, locator) -> None:
    """A tap (phone) or click (laptop), the target scrolled into the window first."""
    box = locator.bounding_box()
    if box is None or box["y"] < 0 or box["y"] + box["height"] > page.viewport_size["height"]:
        locator.scroll_into_view_if_needed()
        page.wait_for_timeout(250)
    _press(page, locator)


def seat(page) -> str:
    return page.evaluate("() => window.admiral.game.seat")


def ship(page, point: str):
    return page.locator(f".nv-map .nv-ship[data-point='{point}']")


def legal(page) -> list[dict]:
    return page.evaluate("() => (window.admiral.view && window.admiral.view.legal) || []")


def my_turn(page) -> None:
    page.wait_for_function(
        "() => window.admiral.view && window.admiral.game.status === 'play' && "
        "window.admiral.view.to_act === window.admiral.game.seat && window.admiral.view.legal.length > 0"
    )


def order(page, notation: str) -> dict:
    """Give the legal order ``notation`` through the map: select its ship, choose its mine in the panel, then its
    step dot, strike sight or turn button (a mine alone: its button). Waits for the next version."""
    my_turn(page)
    listed = legal(page)
    o = next((a for a in listed if a["notation"] == notation), None)
    assert o, f"{notation} not legal: {[a['notation'] for a in listed]}"
    v = version(page)
    if "selected" not in (ship(page, o["ship"]).get_attribute("class") or ""):
        press(page, ship(page, o["ship"]))
    assert "selected" in ship(page, o["ship"]).get_attribute("class")
    if o["type"] in ("lay", "lift"):
        press(page, page.locator(f".nv-mine-alone[data-notation='{notation}']"))
    else:
        if o.get("mine"):
            when = "before" if o["type"] == "turn" else o["mine"]["when"]
            press(page, page.locator(f".nv-mine-mode[data-mode='{o['mine']['op']}:{when}']"))
        if o["type"] == "step":
            target = page.locator(f".nv-map .nv-step[data-point='{o['to']}']")
        elif o["type"] == "strike":
            target = page.locator(f".nv-map .nv-strike[data-point='{o['to']}']")
            label = {"bow": "в нос", "broadside": "в борт"}[o["struck"]]
            assert target.locator(".nv-struck-label").text_content() == label
        else:
            target = page.locator(f".nv-map .nv-turn[data-turn='{o['turn']}']")
        press(page, target)
    try:
        wait_version(page, v + 1)
    except Exception as e:
        raise AssertionError(f"{notation} not applied; toast: {page.locator('#toast').inner_text()!r}") from e
    return o


def centre_y(locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"] / 2


def create_friend_game(page, server_url: str) -> str:
    """South's creator: the game made (as the home page's form does), its page open; returns the invite link."""
    page.goto(server_url + "/")
    data = page.evaluate(
        """() => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({opponent: "friend", game: "naval", side: "south", time_control: "10+5"})})
             .then((r) => r.json())"""
    )
    page.goto(server_url + data["url"])
    page.wait_for_selector(".nv-wait .nv-map .nv-ship")
    assert page.locator("#app").get_attribute("data-game") == "naval"
    assert "Ждём соперника" in page.locator(".nv-wait-text").inner_text()
    return page.locator("#invite-link").input_value()


def join(page, link: str) -> None:
    page.goto(link)
    press(page, page.get_by_role("button", name="Принять приглашение"))
    page.wait_for_url(re.compile(r"/g/"))


def two_players(browser, size: dict, page_errors):
    contexts = [browser.new_context(**size), browser.new_context(**size)]
    pages = [page_errors(c.new_page(), name) for c, name in zip(contexts, ("south", "north"), strict=True)]
    for p in pages:
        p.set_default_timeout(TIMEOUT_MS)
        p.on("dialog", lambda d: d.accept())  # «Сдаться?»
    return contexts, pages


def start_friend_game(browser, server_url, size, page_errors):
    contexts, (south, north) = two_players(browser, size, page_errors)
    link = create_friend_game(south, server_url)
    join(north, link)
    for p in (south, north):
        p.wait_for_selector(".nv-layout .nv-map .nv-ship")
        p.wait_for_function("() => window.admiral.game.status === 'play'")
    assert seat(south) == "south" and seat(north) == "north"
    return contexts, south, north


def check_own_coast_at_the_bottom(south, north) -> None:
    # South's battleship e1 below North's e13 on South's screen; the reverse on North's (a half-turn)
    assert centre_y(ship(south, "e1")) > centre_y(ship(south, "e13")) + 300
    assert centre_y(ship(north, "e13")) > centre_y(ship(north, "e1")) + 300
    # a half-turn also swaps the columns: a1 is on South's left, on North's right
    assert ship(south, "a1").bounding_box()["x"] < ship(south, "i1").bounding_box()["x"]
    assert ship(north, "a1").bounding_box()["x"] > ship(north, "i1").bounding_box()["x"]
    for p in (south, north):
        assert p.locator(".nv-map .nv-island").count() == 5
        assert p.locator(".nv-map .nv-gun").count() == 6
        assert p.locator(".nv-map .nv-ship").count() == 24
        assert p.locator(".nv-map .nv-ship.own").count() == 12
        assert p.locator(".nv-map .nv-labels text").count() == 2 * (9 + 13)
        assert p.evaluate("() => document.documentElement.scrollWidth") <= p.viewport_size["width"]
    assert ship(south, "e1").get_attribute("data-kind") == "B"
    assert "Б" in ship(south, "e1").inner_html()  # the battleship's letter on its silhouette


def resign_and_check(loser, winner, shots: Path, prefix: str) -> None:
    press(loser, loser.get_by_role("button", name="Сдаться"))
    for p in (loser, winner):
        p.wait_for_function("() => window.admiral.game.status === 'over'")
        p.locator(".result-panel:not([hidden])").wait_for()
    assert loser.locator(".result-panel h2").inner_text() == "Поражение"
    assert winner.locator(".result-panel h2").inner_text() == "Победа!"
    assert "сдались" in loser.locator(".result-panel .reason").inner_text()
    # the seed at the end beside its commitment (§7.5)
    seed = winner.locator(".chance-line .chance-seed")
    seed.wait_for()
    assert re.fullmatch(r"[0-9a-f]{64}", seed.inner_text())
    winner.screenshot(path=shots / f"{prefix}-result.png", full_page=True)


def log_lines(page) -> list[str]:
    """The log's lines as shown, newest first."""
    page.wait_for_selector(".nv-log li")
    return [x.strip() for x in page.locator(".nv-log li").all_inner_texts()]


def last_mark(page) -> dict:
    """The board's mark of the last move: the ringed point and the path's ends (screen), or {} without one."""
    return page.evaluate(
        """() => {
             const c = document.querySelector(".nv-map .nv-last"), l = document.querySelector(".nv-map .nv-last-path");
             return c ? {cx: c.getAttribute("cx"), cy: c.getAttribute("cy"), path: !!l} : {};
           }"""
    )


def check_log_survives_reload(browser, south, north, page_errors, shots: Path) -> None:
    """The log and the last move come from the view's history (with its rolls and sinkings), not from what the tab
    saw: a reload shows the same lines and the same mark, without replaying the die; so does a spectator who opens
    the game only now."""
    before = log_lines(south)
    mark = last_mark(south)
    assert mark.get("path"), mark  # the strike d8xd9: its path and its ring
    assert any("ударила в борт канонерку d9" in x for x in before), before
    assert any("Мина a1" in x for x in before), before
    assert [x for x in before if "прошла на d8" in x], before
    assert before == log_lines(north)
    south.reload()
    south.wait_for_selector(".nv-layout .nv-map .nv-ship")
    south.wait_for_function("() => window.admiral.view && window.admiral.view.ply > 0")
    assert log_lines(south) == before
    assert last_mark(south) == mark
    # the old roll is shown still, not rolled again
    die = south.locator(".nv-die")
    assert die.get_attribute("data-k") == "0" and "rolling" not in (die.get_attribute("class") or "")
    ctx = browser.new_context(**LAPTOP)
    try:
        watcher = page_errors(ctx.new_page(), "spectator")
        watcher.set_default_timeout(TIMEOUT_MS)
        watcher.goto(south.url)
        watcher.wait_for_selector(".nv-layout .nv-map .nv-ship")
        assert watcher.evaluate("() => window.admiral.game.seat") is None
        assert log_lines(watcher) == before  # a spectator sees South at the bottom, as South does
        assert last_mark(watcher) == mark
        watcher.screenshot(path=shots / "laptop-spectator.png")
    finally:
        ctx.close()


def test_laptop_friend_game(browser, server_url, nv_shots, page_errors):
    """1366×768: the invite, both coasts at the bottom, steps, turns, the minesweeper's mine, a roll of the die, a
    broadside strike in the log, the replay stepper; then a resignation."""
    contexts, south, north = start_friend_game(browser, server_url, LAPTOP, page_errors)
    try:
        check_own_coast_at_the_bottom(south, north)
        # the whole map and both bars in the window without scrolling
        box = south.locator(".nv-map").bounding_box()
        assert box["y"] + box["height"] <= 768, box
        assert south.locator(".nv-main .player-bar").nth(1).bounding_box()["y"] < 768
        commitment = south.locator(".chance-line .chance-commitment").inner_text()
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        south.screenshot(path=nv_shots / "laptop-south-start.png")
        north.screenshot(path=nv_shots / "laptop-north-start.png")
        # South selects a gunboat: its step dot, its two turns beside it, nothing else
        press(south, ship(south, "d2"))
        assert "selected" in ship(south, "d2").get_attribute("class")
        assert south.locator(".nv-map .nv-step").count() == 1
        assert south.locator(".nv-map .nv-step").get_attribute("data-point") == "d3"
        assert south.locator(".nv-map .nv-turn").count() == 2
        south.screenshot(path=nv_shots / "laptop-south-selected.png")
        south.keyboard.press("Escape")  # deselects
        assert south.locator(".nv-map .nv-step").count() == 0
        # the minesweeper: «Поставить мину на a1, затем ход», then its step
        press(south, ship(south, "a1"))
        assert south.locator(".nv-mine-mode").count() >= 3
        south.screenshot(path=nv_shots / "laptop-minesweeper.png")
        order(south, "+a1 a1-a2")
        assert "a1" in south.evaluate("() => window.admiral.view.mines")
        assert south.locator(".nv-map .nv-mine[data-point='a1']").count() == 1
        north.wait_for_selector(".nv-map .nv-mine[data-point='a1']")
        order(north, "d12-d11")
        order(south, "b1<")  # the torpedo boat turns west, toward the mine
        assert ship(south, "b1").get_attribute("data-facing") == "w"
        order(north, "d11-d10")
        order(south, "b1-a1")  # enters the mined point: the die is rolled (§5)
        for p in (south, north):
            p.wait_for_selector(".nv-die[data-k='0']")
        south.wait_for_function("() => !document.querySelector('.nv-die').classList.contains('rolling')")
        verdict = south.locator(".nv-die-result").inner_text()
        assert verdict in ("Взрыв!", "Мимо"), verdict
        assert "Мина a1" in south.locator(".nv-die-text").inner_text()
        south.screenshot(path=nv_shots / "laptop-die.png")
        order(north, "d10-d9")
        order(south, "d2-d3")
        order(north, "d9>")  # North turns its gunboat: broadside to South's
        assert ship(north, "d9").get_attribute("data-facing") == "w"
        for src, dst in (("d3", "d4"), ("d4", "d5"), ("d5", "d6"), ("d6", "d7"), ("d7", "d8")):
            order(south, f"{src}-{dst}")
            order(north, "i13>" if src in ("d3", "d5", "d7") else "i13<")
        press(south, ship(south, "d8"))
        sight = south.locator(".nv-map .nv-strike[data-point='d9']")
        assert sight.count() == 1 and sight.locator(".nv-struck-label").text_content() == "в борт"
        south.screenshot(path=nv_shots / "laptop-strike.png")
        o = order(south, "d8xd9")
        assert o["struck"] == "broadside"
        for p in (south, north):
            p.wait_for_function("() => document.querySelector('.nv-log').textContent.includes('ударила в борт')")
        log = south.locator(".nv-log").inner_text()
        assert "Канонерка d8 ударила в борт канонерку d9" in log, log
        assert "Мина a1" in log and "повернул налево" in log, log
        assert north.evaluate("() => window.admiral.view.sides.north.afloat") == 11
        north.screenshot(path=nv_shots / "laptop-north-after-strike.png")
        check_log_survives_reload(browser, south, north, page_errors, nv_shots)
        resign_and_check(north, south, nv_shots, "laptop")
        # the replay: from the start to the strike
        press(south, south.get_by_role("button", name="Смотреть запись"))
        south.wait_for_selector(".replay-controls")
        press(south, south.get_by_role("button", name="В начало"))
        assert south.locator(".nv-map .nv-ship").count() == 24
        assert "Начальная расстановка" in south.locator(".replay-label").inner_text()
        press(south, south.get_by_role("button", name="Вперёд"))
        assert "мина поставлена на a1" in south.locator(".replay-label").inner_text()
        assert south.locator(".nv-map .nv-mine[data-point='a1']").count() == 1
        press(south, south.get_by_role("button", name="В конец"))
        assert "сдался" in south.locator(".replay-label").inner_text()
        assert south.locator(".nv-map .nv-ship").count() == 24 - 1 - len(
            [r for r in south.evaluate("() => window.admiral.view.rolls") if r["explosion"]]
        )
        south.wait_for_selector(".chance-check[data-ok='true']")
        south.screenshot(path=nv_shots / "laptop-replay.png", full_page=True)
    finally:
        for c in contexts:
            c.close()
    assert not page_errors.errors, page_errors.errors


def test_phone_friend_game(browser, server_url, nv_shots, page_errors):
    """360×740 with touch: the map fits the width (no horizontal scroll, points ≥ 32 px apart), taps select, step
    and turn; a few moves, then South resigns."""
    contexts, south, north = start_friend_game(browser, server_url, PHONE, page_errors)
    try:
        check_own_coast_at_the_bottom(south, north)
        box = south.locator(".nv-map").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        gap = ship(south, "e1").bounding_box()["x"] - ship(south, "d1").bounding_box()["x"]
        assert gap >= 32, gap  # a tap target per point
        south.screenshot(path=nv_shots / "phone-south-start.png", full_page=True)
        north.screenshot(path=nv_shots / "phone-north-start.png", full_page=True)
        press(south, ship(south, "e2"))
        turn = south.locator(".nv-map .nv-turn").first.bounding_box()
        assert turn["width"] >= 24, turn
        south.screenshot(path=nv_shots / "phone-selected.png")
        order(south, "e2-e3")  # onto South's own gun: no roll
        order(north, "f12<")  # North turns a gunboat
        assert ship(north, "f12").get_attribute("data-facing") == "e"
        order(south, "i1-i2")
        order(north, "f12>")
        order(south, "+a1")  # the minesweeper's mine alone
        assert south.evaluate("() => window.admiral.view.sides.south.reserve") == 2
        order(north, "e12-e11")
        assert south.evaluate("() => window.admiral.view.rolls.length") == 0
        for p in (south, north):
            p.wait_for_function("() => document.querySelectorAll('.nv-log li:not(.empty)').length >= 6")
        assert "прошла на e11" in north.locator(".nv-log").inner_text()
        north.screenshot(path=nv_shots / "phone-north-play.png", full_page=True)
        assert south.evaluate("() => document.documentElement.scrollWidth") <= 360
        resign_and_check(south, north, nv_shots, "phone")
        south.screenshot(path=nv_shots / "phone-south-result.png", full_page=True)
    finally:
        for c in contexts:
            c.close()
    assert not page_errors.errors, page_errors.errors


def pick(listed: list[dict]) -> str:
    """A strike if there is one, else a step (the first), else a turn; never a mine."""
    plain = [a for a in listed if not a.get("mine") and a["type"] in ("step", "turn", "strike")]
    for kind in ("strike", "step", "turn"):
        found = [a for a in plain if a["type"] == kind]
        if found:
            return found[0]["notation"]
    raise AssertionError(f"nothing to play: {listed}")


def ai_game(page, server_url: str, level: int) -> None:
    page.goto(server_url + "/")
    url = page.evaluate(
        """l => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({opponent: "ai", ai_level: l, side: "south", game: "naval"})})
             .then((r) => r.json()).then((d) => d.url)""",
        level,
    )
    page.goto(server_url + url)
    page.wait_for_selector(".nv-layout .nv-map .nv-ship")
    assert page.evaluate("() => window.admiral.game.status") == "play"
    assert page.locator(".nv-main .player-bar").first.inner_text().startswith("ИИ")


@pytest.mark.parametrize(("level", "turns", "size"), [(1, 12, LAPTOP), (5, 4, PHONE)], ids=["level1", "level5"])
def test_ai_game(browser, server_url, nv_shots, page_errors, level, turns, size):
    """Against the AI: each turn the first strike, else step, else turn, clicked or tapped on the map; the bot
    answers; then a resignation (a whole game takes minutes at the bots' pace)."""
    ctx = browser.new_context(**size)
    page = page_errors(ctx.new_page(), f"ai{level}")
    page.set_default_timeout(30_000)
    page.on("dialog", lambda d: d.accept())
    try:
        ai_game(page, server_url, level)
        for _ in range(turns):
            my_turn(page)
            order(page, pick(legal(page)))
            page.wait_for_function(
                "() => window.admiral.view.to_act !== 'north' || window.admiral.game.status !== 'play'"
            )
            if page.evaluate("() => window.admiral.game.status") != "play":
                break
        page.wait_for_function("() => window.admiral.view.ply >= 2")
        assert page.locator(".nv-log li:not(.empty)").count() >= 2
        page.screenshot(path=nv_shots / f"ai{level}-play.png", full_page=True)
        if page.evaluate("() => window.admiral.game.status") == "play":
            press(page, page.get_by_role("button", name="Сдаться"))
        page.wait_for_function("() => window.admiral.game.status === 'over'")
        page.locator(".result-panel:not([hidden])").wait_for()
        page.screenshot(path=nv_shots / f"ai{level}-result.png", full_page=True)
    finally:
        ctx.close()
    assert not page_errors.errors, page_errors.errors
