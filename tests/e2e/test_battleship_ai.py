"""«Морской бой» against the AI in real Chromium (issue 17; ``../shared/rules/BATTLESHIP.md``).

A new visitor picks «Морской бой» on the home page, fills the form «Играть против ИИ» (a level, a rule set),
auto-arranges, gets ready and plays to the result screen by tapping (phone) or clicking (laptop) the bot's grid;
the bot answers every shot through its seat. The bot's fleet is hidden from the page, so a helper picks each cell
as a player would, from the page's own view (``window.admiral.view``): next to an unsunk hit, along the line of
two, else on a checkerboard. Screenshots go to ``artifacts/e2e/battleship/ai-*.png``.
"""

from __future__ import annotations

import re

import pytest

from .test_battleship import LAPTOP, auto, bs_cell, press, ready, seat
from .ui import PHONE, TIMEOUT_MS, version, wait_version

ROWS = "abcdefghij"


def create_ai_from_home(page, server_url: str, level: int, rules: str = "classic", salvo: bool = False) -> None:
    """Home page → «Морской бой» → «Играть против ИИ»: the level, the rule set → «Начать партию»."""
    page.goto(server_url + "/")
    press(page, page.locator(".game-tab:has(input[value=battleship])"))
    form = page.locator("#new-ai-game")
    assert form.is_visible() and page.locator(".no-ai").is_hidden()  # «Морской бой» has AI levels now
    assert form.locator("input[name=game]").input_value() == "battleship"
    levels = form.locator("fieldset[data-for-game=battleship] .level")
    assert levels.count() == 5
    assert not form.locator("fieldset[data-for-game=admiral]").first.is_visible()
    press(page, levels.nth(level - 1))
    assert levels.nth(level - 1).locator("input").is_checked()
    options = form.locator("fieldset.room-options[data-for-game=battleship]")
    salvo_box = options.locator("input[name=opt_salvo]")
    assert salvo_box.is_disabled()  # «Залп» applies only under the Hasbro rules
    if rules == "hasbro":
        press(page, options.locator("label:has(input[name=opt_rules][value=hasbro])"))
        assert salvo_box.is_enabled()
        if salvo:
            press(page, options.locator(".option-flag", has_text="Залп"))
            assert salvo_box.is_checked()
    press(page, form.get_by_role("button", name="Начать партию"))
    page.wait_for_url(re.compile(r"/g/"))
    page.wait_for_selector(".bs-setup")
    assert page.locator("#app").get_attribute("data-game") == "battleship"


def _name(r: int, c: int) -> str:
    return f"{ROWS[r]}{c}"


def _rc(name: str) -> tuple[int, int]:
    return ROWS.index(name[0]), int(name[1:])


def choose(view: dict, me: str) -> str:
    """A cell to shoot from the seat's own view: along a line of unsunk hits, next to one, else a checkerboard."""
    legal = [a["cell"] for a in view["legal"]]
    ok = set(legal)
    shots = view["sides"][me]["shots"]
    sunk = {c for s in shots for c in (s.get("sunk_cells") or [])}
    hits = [_rc(s["cell"]) for s in shots if s["answer"] in ("hit", "sunk") and s["cell"] not in sunk]
    hit_set = set(hits)
    for r, c in hits:  # two in a row: go on along the line
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in hit_set:
                k = 1
                while (r + k * dr, c + k * dc) in hit_set:
                    k += 1
                for rr, cc in ((r + k * dr, c + k * dc), (r - dr, c - dc)):
                    if 0 <= rr < 10 and 1 <= cc <= 10 and _name(rr, cc) in ok:
                        return _name(rr, cc)
    for r, c in hits:
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if 0 <= r + dr < 10 and 1 <= c + dc <= 10 and _name(r + dr, c + dc) in ok:
                return _name(r + dr, c + dc)
    marks = set(view["sides"][me].get("marks") or [])
    even = [x for x in legal if x not in marks and sum(_rc(x)) % 2 == 0]
    rest = [x for x in legal if x not in marks] or legal
    pool = even or rest
    return pool[(7 * len(shots)) % len(pool)]  # spread over the grid, the same every run


def play_against_ai(page, limit: int = 120) -> int:
    """Tap the bot's grid until the game ends; returns the shots fired. Waits for the bot between turns."""
    me = seat(page)
    fired = 0
    while True:
        page.wait_for_function(
            "s => window.admiral.game.status !== 'play' || (window.admiral.view && window.admiral.view.to_act === s"
            " && document.querySelector('.bs-grid[data-grid=attack].can-shoot'))",
            arg=me,
            timeout=60_000,
        )
        if page.evaluate("() => window.admiral.game.status") != "play":
            return fired
        assert fired < limit, "the game did not end"
        view = page.evaluate("() => window.admiral.view")
        name = choose(view, me)
        v = version(page)
        target = bs_cell(page, "attack", name)
        assert "can-shoot" in target.get_attribute("class"), f"{name}: {target.get_attribute('class')}"
        press(page, target)
        wait_version(page, v + 1)
        fired += 1


def check_result(page, level: int, shots_dir, prefix: str) -> None:
    page.wait_for_selector(".result-panel h2")
    result = page.evaluate("() => window.admiral.game.result")
    assert result["reason"] == "fleet_sunk", result
    headline = page.locator(".result-panel h2").inner_text()
    assert headline == ("Победа!" if result["winner"] == seat(page) else "Поражение"), headline
    assert " — " in page.locator(".player-bar.enemy .pb-name").inner_text()  # the bot's bar names its level
    # the end opens the bot's fleet: its untouched ships are shown on the attack grid
    assert page.locator(".bs-grid[data-grid=attack] .bs-cell.ship").count() > 0
    assert page.get_by_role("link", name="Скачать запись (JSON)").is_visible()
    page.screenshot(path=shots_dir / f"{prefix}-result.png", full_page=True)
    page.locator(".result-panel").screenshot(path=shots_dir / f"{prefix}-result-panel.png")


@pytest.fixture
def bs_shots(shots):
    d = shots / "battleship"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _game(browser, server_url, bs_shots, page_errors, size, level, rules, salvo, prefix):
    ctx = browser.new_context(**size)
    page = page_errors(ctx.new_page(), prefix)
    page.set_default_timeout(TIMEOUT_MS)
    try:
        create_ai_from_home(page, server_url, level, rules, salvo)
        page.screenshot(path=bs_shots / f"{prefix}-setup-empty.png")
        auto(page, 0)
        page.screenshot(path=bs_shots / f"{prefix}-setup.png", full_page=True)
        ready(page)
        page.wait_for_selector(".bs-play")
        game = page.evaluate("() => window.admiral.game")
        me = seat(page)
        bot = game["players"]["north" if me == "south" else "south"]["bot"]
        assert bot["level"] == level, bot
        assert page.evaluate("s => window.admiral.view.sides[s].ships", "north" if me == "south" else "south") is None
        width = size["viewport"]["width"]
        grid = page.locator(".bs-grid[data-grid=attack]").bounding_box()
        assert grid["x"] >= 0 and grid["x"] + grid["width"] <= width, grid  # the bot's grid fits the window
        assert bs_cell(page, "attack", "a1").bounding_box()["width"] >= 30
        page.screenshot(path=bs_shots / f"{prefix}-play-start.png")
        fired = play_against_ai(page)
        assert fired >= 1
        view = page.evaluate("() => window.admiral.view")
        other = "north" if me == "south" else "south"
        assert view["sides"][other]["shots"], "the bot never shot"
        if salvo:
            assert view["options"]["salvo"] is True
        check_result(page, level, bs_shots, prefix)
        return page.evaluate("() => window.admiral.game.result")
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("level", "rules", "salvo"),
    [(1, "classic", False), (3, "hasbro", True), (5, "hasbro", False)],
    ids=["level1-classic", "level3-hasbro-salvo", "level5-hasbro"],
)
def test_phone_game_against_the_ai_to_the_end(browser, server_url, bs_shots, page_errors, level, rules, salvo):
    """A phone (360×740, touch): home page → «Морской бой» → «Играть против ИИ», level and rules → auto setup →
    «Готов» → taps on the bot's grid to the result screen."""
    prefix = f"ai-phone-level{level}-{rules}{'-salvo' if salvo else ''}"
    _game(browser, server_url, bs_shots, page_errors, PHONE, level, rules, salvo, prefix)
    assert not page_errors.errors, page_errors.errors


def test_laptop_game_against_the_ai_level_2(browser, server_url, bs_shots, page_errors):
    """A laptop (1366×768): level 2, classic rules, played by clicks to the result screen."""
    _game(browser, server_url, bs_shots, page_errors, LAPTOP, 2, "classic", False, "ai-laptop-level2-classic")
    assert not page_errors.errors, page_errors.errors
