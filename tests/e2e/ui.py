"""Helpers of the browser tests: viewport presets, cells, taps or clicks, versions, moves through the UI."""

from __future__ import annotations

DESKTOP = {"viewport": {"width": 1366, "height": 820}}
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
TIMEOUT_MS = 15_000


def cell(page, name: str):
    return page.locator(f".board .cell[data-cell='{name}']")


def press(page, locator) -> None:
    """Click on the laptop, tap on the phone."""
    if page.context._impl_obj._options.get("hasTouch"):
        locator.tap()
    else:
        locator.click()


def version(page) -> int:
    return page.evaluate("window.admiral && window.admiral.game ? window.admiral.game.version : -1")


def wait_version(page, v: int) -> None:
    page.wait_for_function("v => window.admiral?.game && window.admiral?.game.version >= v", arg=v, timeout=TIMEOUT_MS)


def legal(page) -> list[dict]:
    """The page's view's legal actions as the server lists them: ``{type, …, notation}`` (docs/protocol.md)."""
    return page.evaluate("window.admiral.view ? window.admiral.view.legal : []")


def notations(page) -> list[str]:
    """The notations of the legal actions."""
    return [a["notation"] for a in legal(page)]


def steps(page) -> list[tuple[str, str]]:
    """The plain steps (no attack) the side may make: ``(src, dst)``."""
    return [(a["src"], a["dst"]) for a in legal(page) if a["type"] == "move"]


def placed(page) -> int:
    return page.locator(".setup-board .cell .unit").count()


def arsenal_left(page, kind: str) -> int:
    text = page.locator(f".arsenal-item[data-kind='{kind}'] .a-count").inner_text()
    return int(text.lstrip("×"))


def mouse_drag(page, src, dst) -> None:
    a, b = src.bounding_box(), dst.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def touch_drag(page, src, dst) -> None:
    """A real touch drag through the DevTools protocol (pointer events of type touch)."""
    a, b = src.bounding_box(), dst.bounding_box()
    cdp = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    page.wait_for_timeout(1000)  # let the browser's gesture detection settle before the next tap (at 400 ms a tap was
    # sometimes swallowed: no click, in 1 of 6 runs before issue 7 and more often with the taller top bar)


def play(page, notation: str) -> None:
    """Make a move (``c5-c6``) through the UI: the unit, its green dot, and «Остановиться здесь» when attacks could
    follow; waits for the next version."""
    listed = legal(page)
    move = next((a for a in listed if a["type"] == "move" and a["notation"] == notation), None)
    assert move, f"{notation} not legal: {[a['notation'] for a in listed]}"
    src, dst = move["src"], move["dst"]
    v = version(page)
    press(page, cell(page, src))
    assert "selected" in cell(page, src).get_attribute("class")
    assert "move" in cell(page, dst).get_attribute("class")
    press(page, cell(page, dst))
    if any(a["type"] == "attack" and (a["src"], a["via"]) == (src, dst) for a in listed):  # attacks could follow
        press(page, page.get_by_role("button", name="Остановиться здесь"))
    try:
        wait_version(page, v + 1)
    except Exception as e:
        raise AssertionError(f"{notation} not applied; toast: {page.locator('#toast').inner_text()!r}") from e


def defend(page, option) -> None:
    """Declare the defence (rules §7.1.2) in the panel under the board: choose the option named ``option`` (a string
    or a compiled pattern), then «Защищаться»."""
    panel = page.locator(".defence-panel")
    panel.wait_for()
    press(page, panel.get_by_role("radio", name=option))
    press(page, panel.get_by_role("button", name="Защищаться"))


def report_text(page) -> str:
    """The text of the last battle's card (beside the board on a laptop, in the strip under it on a phone)."""
    page.locator(".last-report:not([hidden])").wait_for(state="attached")
    return page.locator(".last-report").text_content()


def both_at(pages, v: int) -> None:
    for p in pages:
        wait_version(p, v)


def start_ai_game(page, server_url: str, **settings) -> None:
    """Create a game against the AI (level 1, South unless ``settings`` say otherwise), auto-arrange, get ready
    and wait for the play board."""
    page.goto(server_url + "/")
    url = page.evaluate(
        """s => fetch("/games", {method: "POST", headers: {"content-type": "application/json"},
             body: JSON.stringify({opponent: "ai", ai_level: 1, side: "south", ...s})})
             .then((r) => r.json()).then((d) => d.url)""",
        settings,
    )
    page.goto(server_url + url)
    page.get_by_role("button", name="Авторасстановка").click()
    page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
    page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
    page.get_by_role("button", name="Готов").click()
    page.wait_for_selector(".play-board")
