"""The client of «Морской бой: расширенный» against hand-made wire views (bsx_fixture.py), in a real Chromium.

The screens (static/js/games/battleship_ext/) are mounted on a bare page of the real server with a stub socket that
records what would be sent, so every mark of the variant is on screen at once: own mines and minesweeper, an
exploded mine (a dot), a destroyed minesweeper, crosshairs and a gold circle handed over, own cells handed over,
a repaired deck, the sonar and satellite answers; the energy bar and the ability buttons (cost, condition, why
disabled), the area preview before a confirmation (rules C5, C6, D7), the manoeuvre as a boat then a cell (D9); the
levels with their tier badge (C7). A laptop (1366×768) and a phone (360×740, touch: zoom and pan of the 18×18
attack map, no sideways page scroll). Screenshots in ``artifacts/e2e/battleship_ext/``.
"""

from __future__ import annotations

import json

import pytest

from . import bsx_fixture as fx
from .ui import PHONE

LAPTOP = {"viewport": {"width": 1366, "height": 768}}

HARNESS = """<!doctype html><html lang="ru"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/admiral.css"><link rel="stylesheet" href="/static/css/dark.css">
<script src="/i18n/LANG.js"></script></head>
<body><main id="main" class="game-page"><div id="app" class="app game-battleship_ext" data-game-id="fixture">
<div id="toast" class="toast" role="alert" hidden></div><div id="screen" class="screen"></div></div></main>
<script type="module">
import { ExtManifest } from "/static/js/games/battleship_ext/manifest.js";
import { ExtPlayScreen } from "/static/js/games/battleship_ext/play.js";
import { ExtSetupScreen } from "/static/js/games/battleship_ext/setup.js";
import { Countdown } from "/static/js/core/clock.js";
const F = window.__BSX;
if (F.dark) document.documentElement.dataset.theme = "dark";
window.sent = [];
const send = (m) => { window.sent.push(m); return true; };
const options = F.game.settings.options;
const board = { width: 10, height: 10, rows: "abcdefghij", rows_ru: "АБВГДЕЖЗИК" };
const manifest = new ExtManifest({ key: "battleship_ext", board }).forOptions(options);
const countdown = new Countdown();
countdown.set(F.game.clocks);
const root = document.getElementById("screen");
if (F.screen === "setup") {
  window.screenObj = new ExtSetupScreen(root, { manifest, side: "south", options, send, countdown });
  window.screenObj.update(F.game, { draft: {}, problems: [], ready: false });
} else {
  const seat = "seat" in F ? F.seat : "south";
  window.screenObj = new ExtPlayScreen(root, { manifest, gameId: "fixture", seat, send, countdown });
  window.screenObj.update(F.game, F.view);
}
window.mounted = true;
</script></body></html>"""


def mount(browser, server_url: str, context: dict, data: dict, dark: bool = False, lang: str = "ru"):
    """A page of the real server's origin showing the screen of ``data`` ({screen, game, view}) in ``lang``."""
    ctx = browser.new_context(**context, color_scheme="dark" if dark else "light")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(f"window.__BSX = {json.dumps({**data, 'dark': dark})};")
    page.route(
        server_url + "/__bsx",
        lambda route: route.fulfill(
            status=200, content_type="text/html; charset=utf-8", body=HARNESS.replace("LANG", lang)
        ),
    )
    page.goto(server_url + "/__bsx")
    page.wait_for_function("window.mounted === true", timeout=10_000)
    page.errors = errors
    return ctx, page


def cell(page, grid: str, name: str):
    return page.locator(f".bs-grid[data-grid={grid}] .bs-cell[data-cell='{name}']")


def sent(page) -> list[str]:
    return [m["action"] for m in page.evaluate("window.sent") if m.get("type") == "action"]


@pytest.fixture
def out(shots):
    d = shots / "battleship_ext"
    d.mkdir(parents=True, exist_ok=True)
    return d


def test_every_mark_of_the_variant_on_a_laptop(browser, server_url, out) -> None:
    view = fx.view("giant")
    ctx, page = mount(browser, server_url, LAPTOP, {"screen": "play", "game": fx.game("giant"), "view": view})
    try:
        page.screenshot(path=str(out / "fixture-giant-laptop.png"))
        attack, own = ".bs-grid[data-grid=attack]", ".bs-grid[data-grid=own]"
        assert page.locator(f"{attack} .bs-cell").count() == 18 * 18
        # C3: a destroyed minesweeper, an exploded mine as a dot, two crosshairs and a gold circle handed over
        assert page.locator(f"{attack} .bsx-sweeper-down").count() == 1
        assert cell(page, "attack", "i2").locator(".bs-dot").count() == 1
        assert page.locator(f"{attack} .bsx-sure .bsx-crosshair").count() == 2
        assert page.locator(f"{attack} .bsx-avoid .bsx-gold").count() == 1
        # the own sonar («!») and satellite («3») answers, on the attack map only
        badges = page.locator(f"{attack} .bsx-scan-badge").all_inner_texts()
        assert sorted(badges) == ["!", "3"]
        assert page.locator(f"{own} .bsx-scan-badge").count() == 0
        # own board: a live mine, the exploded one a dot, the minesweeper, two cells handed over, one repaired
        assert page.locator(f"{own} .bsx-fig-mine .bsx-mine").count() == 1
        assert page.locator(f"{own} .bsx-fig-sweeper .bsx-sweeper").count() == 1
        assert page.locator(f"{own} .bsx-handed").count() == 2
        assert page.locator(f"{own} .bsx-repaired").count() == 1
        assert "отремонтирована" in page.locator(f"{own} .bsx-repaired").get_attribute("aria-label")
        # energy, abilities with cost, condition and why disabled; the levels with a tier badge
        assert page.locator(".bsx-energy-text").inner_text().startswith("Энергия: 11/15")
        assert "+5 в начале хода" in page.locator(".bsx-energy-text").inner_text()
        buttons = page.locator(".bsx-ability")
        assert buttons.count() == 4
        sat = page.locator(".bsx-ability[data-ability=satellite]")
        assert sat.is_disabled() and "уже использована" in sat.inner_text() and "⚡12" in sat.inner_text()
        assert "эсминец на плаву" in page.locator(".bsx-ability[data-ability=sonar]").inner_text()
        assert page.locator(".player-bar .bsx-level.tier-3").inner_text().strip() == "ур. 7"
        assert page.locator(".player-bar .bsx-level.tier-2").inner_text().strip() == "ур. 4"
        # the opponent's sonar named in the log
        assert "Сонар 3×3" in page.locator(".bs-log").inner_text()
        # the laptop shows both boards whole, side by side, without scrolling sideways
        for grid in (attack, own):
            box = page.locator(grid).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, box
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 1366

        # sonar: the 3×3 preview under the pointer, then the centre chosen, then confirmed
        page.locator(".bsx-ability[data-ability=sonar]").click()
        cell(page, "attack", "f6").hover()
        assert page.locator(f"{attack} .bsx-area-preview").count() == 9
        page.screenshot(path=str(out / "fixture-giant-sonar-preview.png"))
        cell(page, "attack", "f6").click()
        assert page.locator(f"{attack} .bsx-area-set").count() == 9
        assert "Е6" in page.locator(".bsx-aim-text").inner_text()
        assert sent(page) == []  # nothing goes before the confirmation
        page.locator(".bsx-confirm").click()
        assert sent(page) == ["sonar f6"]
        # an air strike's cross, cut at the edge (D7): the corner keeps 3 cells
        page.evaluate("(v) => { window.screenObj.update(window.__BSX.game, {...v, ply: v.ply + 1}); }", view)
        page.locator(".bsx-ability[data-ability=air]").click()
        cell(page, "attack", "a1").hover()
        assert page.locator(f"{attack} .bsx-area-preview").count() == 3
        cell(page, "attack", "e5").hover()
        assert page.locator(f"{attack} .bsx-area-preview").count() == 5
        page.keyboard.press("Escape")
        assert page.locator(f"{attack} .bsx-area").count() == 0
        # the manoeuvre: the boat, then its cell, then the confirmation
        move = next(a for a in view["legal"] if a["type"] == "move")
        page.locator(".bsx-ability[data-ability=move]").click()
        assert page.locator(f"{own} .bsx-pick").count() == 1
        cell(page, "own", move["dst"]).click()
        page.screenshot(path=str(out / "fixture-giant-move.png"))
        page.locator(".bsx-confirm").click()
        assert sent(page)[-1] == move["notation"]
        assert page.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("board", ["classic", "perelman"])
def test_other_boards_and_the_repair(browser, server_url, out, board) -> None:
    view = fx.view(board, level=8)
    ctx, page = mount(browser, server_url, LAPTOP, {"screen": "play", "game": fx.game(board), "view": view})
    try:
        n = fx.SIZES[board]
        assert page.locator(".bs-grid[data-grid=own] .bs-cell").count() == n * n
        page.screenshot(path=str(out / f"fixture-{board}-laptop.png"))
        repair = next(a for a in view["legal"] if a["type"] == "repair")
        page.locator(".bsx-ability[data-ability=repair]").click()
        cell(page, "own", repair["cell"]).click()
        cell(page, "own", repair["cell"]).click()  # a second click on the chosen deck confirms
        assert sent(page) == [repair["notation"]]
        assert page.locator(".player-bar .bsx-level.tier-3").inner_text().strip() == "ур. 8"
        assert page.errors == []
    finally:
        ctx.close()


def test_the_giant_attack_map_on_a_phone(browser, server_url, out) -> None:
    ctx, page = mount(
        browser, server_url, PHONE, {"screen": "play", "game": fx.game("giant"), "view": fx.view("giant")}
    )
    try:
        width = lambda: page.evaluate("document.scrollingElement.scrollWidth")  # noqa: E731
        assert width() <= 360
        page.screenshot(path=str(out / "fixture-giant-phone.png"), full_page=True)
        page.locator(".bs-home .player-bar").screenshot(path=str(out / "fixture-giant-phone-bar.png"))
        assert page.locator(".bs-home .bsx-level").inner_text().strip() == "7"  # the number beside the badge
        size = lambda: page.locator(".bs-grid[data-grid=attack] .bs-cell").first.bounding_box()["width"]  # noqa: E731
        fitted = size()
        assert fitted >= 14
        page.locator(".zoom-in").tap()
        page.locator(".zoom-in").tap()
        assert size() > fitted * 1.5
        assert width() <= 360  # the frame scrolls, not the page
        frame = page.locator(".zoom-frame")
        assert page.evaluate("(f) => f.scrollWidth > f.clientWidth", frame.element_handle())
        # pan the frame to the far corner and aim a sonar there by taps
        page.evaluate("(f) => { f.scrollLeft = f.scrollWidth; f.scrollTop = f.scrollHeight; }", frame.element_handle())
        page.locator(".bsx-ability[data-ability=sonar]").tap()
        target = cell(page, "attack", "r18")
        target.tap()
        assert page.locator(".bs-grid[data-grid=attack] .bsx-area-set").count() == 4  # cut at the corner (D7)
        page.screenshot(path=str(out / "fixture-giant-phone-zoomed.png"))
        page.locator(".bsx-confirm").tap()
        assert sent(page) == ["sonar r18"]
        page.locator(".zoom-fit").tap()
        assert abs(size() - fitted) < 1
        assert page.errors == []
    finally:
        ctx.close()


def test_dark_mode(browser, server_url, out) -> None:
    ctx, page = mount(
        browser,
        server_url,
        LAPTOP,
        {"screen": "play", "game": fx.game("perelman"), "view": fx.view("perelman")},
        dark=True,
    )
    try:
        page.screenshot(path=str(out / "fixture-perelman-dark.png"))
        bg = page.evaluate("getComputedStyle(document.querySelector('.bsx-ability')).backgroundColor")
        assert bg == "rgb(31, 45, 58)"
        assert page.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("board", "context"), [("perelman", LAPTOP), ("giant", PHONE)], ids=["perelman-laptop", "giant-phone"]
)
def test_setup_with_mines_and_a_minesweeper(browser, server_url, out, board, context) -> None:
    ctx, page = mount(browser, server_url, context, {"screen": "setup", "game": {**fx.game(board), "status": "setup"}})
    try:
        n = fx.SIZES[board]
        assert page.locator(".bs-grid[data-grid=setup] .bs-cell").count() == n * n
        mine = page.locator(".bs-dock-item[data-code=M]")
        sweeper = page.locator(".bs-dock-item[data-code=T]")
        assert "Мина" in mine.inner_text() and "×2" in mine.inner_text()
        assert "Тральщик" in sweeper.inner_text() and "×1" in sweeper.inner_text()
        assert page.locator(".bsx-legend").is_visible()
        tap = (lambda loc: loc.tap()) if context.get("has_touch") else (lambda loc: loc.click())
        # a mine and the minesweeper by tapping the dock then a cell; a destroyer right beside the mine
        tap(mine)
        tap(cell(page, "setup", "c3"))
        tap(sweeper)
        tap(cell(page, "setup", "h8"))
        tap(page.locator(".bs-dock-item[data-code='2']"))
        tap(cell(page, "setup", "d4"))
        assert page.locator(".bs-grid[data-grid=setup] .bsx-fig-mine .bsx-mine").count() == 1
        assert page.locator(".bs-grid[data-grid=setup] .bsx-fig-sweeper .bsx-sweeper").count() == 1
        page.wait_for_function("window.sent.some((m) => m.type === 'setup.update')")
        draft = [m for m in page.evaluate("window.sent") if m["type"] == "setup.update"][-1]["setup"]
        assert draft == {"c3": "M", "h8": "T", "d4": "2", "d5": "2"}
        # the server's word: the mine touches the destroyer (C2), both marked on the board and listed under it
        problem = {
            "code": "touching",
            "message": "Мина В3 касается эсминца Г4–Г5",
            "cell": "c3",
            "cells": ["d4"],
            "kind": "touching",
        }
        page.evaluate(
            "(p) => { const s = window.screenObj; s.onSetupState({ draft: s.draftJson(), problems: [p] }); }",
            problem,
        )
        assert page.locator(".bs-grid[data-grid=setup] .bs-cell.problem").count() == 3
        assert page.locator(".bs-grid[data-grid=setup] .bs-badge").inner_text() == "1"
        assert "касается" in page.locator(".bs-problems").inner_text()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= context["viewport"]["width"]
        page.screenshot(
            path=str(out / f"fixture-setup-{board}-{'phone' if context.get('has_touch') else 'laptop'}.png"),
            full_page=True,
        )
        assert page.errors == []
    finally:
        ctx.close()


def engine_views(board: str, plies: int, seed: int) -> tuple[dict, dict, dict]:
    """South's view, the full view after the end, and the snapshot's game of a real engine game on ``board``: both
    sides play ``plies`` random legal actions (abilities a third of the time), then South resigns."""
    import random

    from admiral.games.battleship_ext.rules import ExtGame, auto_arrange, options_of, rules_from_options

    opts = {"board": board, "mines": 1 if board == "classic" else 3, "sweepers": 1}
    rules = rules_from_options(opts)
    setups = {"south": auto_arrange(rules, random.Random(seed)), "north": auto_arrange(rules, random.Random(seed + 1))}
    g = ExtGame(setups, {"options": options_of(rules), "seed": seed, "levels": {"south": 8, "north": 6}})
    rng = random.Random(seed)
    for _ in range(plies):
        side = g.state.to_move
        if side is None:
            break
        legal = g.view(side.label).to_dict()["legal"]
        other = [a for a in legal if a["type"] != "shot"]
        a = (
            rng.choice(other)
            if other and rng.random() < 0.33
            else rng.choice([a for a in legal if a["type"] == "shot"])
        )
        g.apply(a.get("notation") or f"{a['prefix']} {rng.choice(a['cells'])}")
    live = g.view("south").to_dict()
    game = {**fx.game(board), "settings": {"game": "battleship_ext", "options": live["options"]}}
    game["clocks"]["running"] = live["to_act"]
    g.apply("resign south")
    return live, g.view("full").to_dict(), game


@pytest.mark.parametrize("board", ["classic", "giant"])
def test_real_engine_views(browser, server_url, out, board) -> None:
    """The engine's own wire views (merged from ext-engine) draw without an error: every shot, scan and use of a
    random game is on the grids or in the log, and the full view after the end opens both fleets and figures."""
    live, full, game = engine_views(board, 140 if board == "giant" else 40, seed=7)
    ctx, page = mount(browser, server_url, LAPTOP, {"screen": "play", "game": game, "view": live})
    try:
        page.screenshot(path=str(out / f"engine-{board}-laptop.png"))
        me = live["sides"]["south"]
        shot_cells = {s["cell"] for s in me["shots"]}
        drawn = page.locator(".bs-grid[data-grid=attack] .bs-cell.shot").count()
        assert drawn == len(shot_cells)
        scans = [s for s in me["scans"] if s["answer"] is not None]
        centres = {s["center"] for s in scans}
        assert page.locator(".bs-grid[data-grid=attack] .bsx-scan-badge").count() == len(centres)
        uses = me["uses"] + live["sides"]["north"]["uses"]
        assert page.locator(".bs-log .bsx-log-use").count() == len(uses)
        active = [f for f in me["figures"] if f["state"] == "active"]
        shown = page.locator(".bs-grid[data-grid=own] .bsx-fig").count()
        assert shown == len(active)
        assert page.locator(".bsx-ability").count() == len(live["abilities"])
        page.evaluate("([g, v]) => window.screenObj.update({...g, status: 'over', result: v.result}, v)", [game, full])
        page.screenshot(path=str(out / f"engine-{board}-over.png"))
        assert page.locator(".bsx-abilities").is_hidden()
        figures = full["sides"]["north"]["figures"]
        unshot = [f for f in figures if f["cell"] not in shot_cells]
        assert page.locator(".bs-grid[data-grid=attack] .bsx-fig").count() == len(unshot)
        assert page.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(("ultimate", "level", "centre", "cells"), [("carpet", 4, "e5", 9), ("satellite", 6, "b2", 16)])
def test_area_ultimates(browser, server_url, out, ultimate, level, centre, cells) -> None:
    """«Ковровый удар» (3×3) and «Спутник-сканер» (5×5, cut at the edge near a corner: D7): the preview covers the
    area, nothing is sent before the confirmation, then ``carpet e5`` / ``satellite b2``."""
    view = fx.view("perelman", level=level)
    cost = {"carpet": 14, "satellite": 12}[ultimate]
    view["abilities"][3] = {
        "key": ultimate, "cost": cost, "ultimate": True, "ready": True, "why": None,
        "ends_turn": ultimate == "carpet", "reveal": 0, "area": 3 if ultimate == "carpet" else 5,
    }  # fmt: skip
    n = fx.SIZES["perelman"]
    every = [fx.c(r, k) for r in range(n) for k in range(n)]
    view["legal"].append({"type": "area", "ability": ultimate, "cells": every, "prefix": ultimate})
    ctx, page = mount(browser, server_url, LAPTOP, {"screen": "play", "game": fx.game("perelman"), "view": view})
    try:
        button = page.locator(f".bsx-ability[data-ability={ultimate}]")
        assert "ульта" in button.inner_text() and f"⚡{cost}" in button.inner_text()
        tier = 2 if level < 7 else 3
        assert page.locator(f".bsx-ability[data-ability={ultimate}] .bsx-ability-icon.tier-{tier}").count() == 1
        button.click()
        cell(page, "attack", centre).hover()
        assert page.locator(".bs-grid[data-grid=attack] .bsx-area-preview").count() == cells
        cell(page, "attack", centre).click()
        page.screenshot(path=str(out / f"fixture-{ultimate}-aim.png"))
        assert sent(page) == []
        page.locator(".bsx-confirm").click()
        assert sent(page) == [f"{ultimate} {centre}"]
        assert page.errors == []
    finally:
        ctx.close()


def test_english(browser, server_url, out) -> None:
    """English through the catalogs (the client's ``t()``): abilities, energy, marks' labels, Latin row letters."""
    data = {"screen": "play", "game": fx.game("giant"), "view": fx.view("giant")}
    ctx, page = mount(browser, server_url, LAPTOP, data, lang="en")
    try:
        page.screenshot(path=str(out / "fixture-giant-english.png"))
        assert page.locator(".bsx-ability[data-ability=air] .bsx-ability-name").inner_text() == "Air strike"
        assert page.locator(".bsx-energy-text").inner_text().startswith("Energy: 11/15")
        assert "already used" in page.locator(".bsx-ability[data-ability=satellite]").inner_text()
        rows = page.locator(".bs-grid[data-grid=attack] .bs-rowlab").all_inner_texts()
        assert "".join(rows) == "ABCDEFGHIJKLMNOPQR"
        assert "repaired" in page.locator(".bs-grid[data-grid=own] .bsx-repaired").get_attribute("aria-label")
        assert "3 decks" in page.locator(".bs-log").inner_text()
        assert page.errors == []
    finally:
        ctx.close()


def test_a_spectator_sees_public_marks_only(browser, server_url, out) -> None:
    """A spectator's view (D12): both shot records and the uses, no ability buttons, no energy, no crosshair, gold
    circle or scan answer (the view does not carry them, and nothing is drawn from elsewhere)."""
    import random

    from admiral.games.battleship_ext.rules import ExtGame, auto_arrange, options_of, rules_from_options

    rules = rules_from_options({"board": "perelman", "mines": 3, "sweepers": 1})
    setups = {"south": auto_arrange(rules, random.Random(3)), "north": auto_arrange(rules, random.Random(4))}
    g = ExtGame(setups, {"options": options_of(rules), "seed": 9})
    rng = random.Random(9)
    for _ in range(60):
        legal = g.view(g.state.to_move.label).to_dict()["legal"]
        other = [a for a in legal if a["type"] != "shot"]
        a = rng.choice(other) if other and rng.random() < 0.3 else rng.choice([a for a in legal if a["type"] == "shot"])
        g.apply(a.get("notation") or f"{a['prefix']} {rng.choice(a['cells'])}")
    spectator = g.view("spectator").to_dict()
    game = {**fx.game("perelman"), "settings": {"game": "battleship_ext", "options": spectator["options"]}}
    data = {"screen": "play", "game": game, "view": spectator, "seat": None}
    ctx, page = mount(browser, server_url, LAPTOP, data)
    try:
        page.screenshot(path=str(out / "engine-perelman-spectator.png"))
        assert page.locator(".bsx-abilities").is_hidden()
        assert page.locator(".bsx-sure, .bsx-avoid, .bsx-scan-badge, .bsx-handed").count() == 0
        for shooter, grid in (("south", "north"), ("north", "south")):  # a spectator: North's grid, South's grid
            cells = {s["cell"] for s in spectator["sides"][shooter]["shots"]}
            assert page.locator(f".bs-grid[data-grid={grid}] .bs-cell.shot").count() == len(cells)
        uses = sum(len(spectator["sides"][side]["uses"]) for side in ("south", "north"))
        assert page.locator(".bs-log .bsx-log-use").count() == uses
        assert page.errors == []
    finally:
        ctx.close()


def test_phone_area_confirmation_stays_in_view(browser, server_url, out) -> None:
    """QA F3: on a phone, once an area ability's centre is chosen «Подтвердить» is on screen, and the status line
    says the next step (the confirmation), not «Выберите центр»."""
    ctx, page = mount(
        browser, server_url, PHONE, {"screen": "play", "game": fx.game("giant"), "view": fx.view("giant")}
    )
    try:
        page.locator(".bsx-ability[data-ability=sonar]").tap()
        assert "Выберите центр" in page.locator(".bs-turn").inner_text()
        # the real page's header and lines above the map (the harness has none), and the page at its top, as a tap
        # on the map left it on the QA's phone
        page.evaluate(
            "() => { const d = document.createElement('div'); d.style.height = '300px';"
            " document.getElementById('main').prepend(d); window.scrollTo(0, 0); }"
        )
        cell(page, "attack", "b5").tap()
        page.wait_for_timeout(300)
        box = page.locator(".bsx-confirm").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740, box
        turn = page.locator(".bs-turn").inner_text()
        assert "подтвердите" in turn and "Б5" in turn and "Выберите центр" not in turn, turn
        page.screenshot(path=str(out / "fixture-giant-phone-confirm.png"))
        page.locator(".bsx-confirm").tap()
        assert sent(page) == ["sonar b5"]
        assert page.errors == []
    finally:
        ctx.close()


def test_ultimate_badge_is_a_separate_word(browser, server_url, out) -> None:
    """QA F11: a screen reader hears the ultimate's name and its «ульта» badge apart, not «…ремонтульта»."""
    ctx, page = mount(
        browser, server_url, LAPTOP, {"screen": "play", "game": fx.game("classic"), "view": fx.view("classic", level=8)}
    )
    try:
        name = page.locator(".bsx-ability.ultimate .bsx-ability-name")
        assert name.count() >= 1
        text = name.first.evaluate("(e) => e.textContent")
        assert not text.endswith("ремонтульта") and text.endswith(", ульта"), text
        assert page.errors == []
    finally:
        ctx.close()


def test_replay_draws_mines_and_minesweepers(browser, server_url, out) -> None:
    """QA F4: the replay draws each side's mines and minesweeper from the record's setups, as the setup does; a
    mine shot in the record shows exploded (a dot)."""
    view = fx.view("classic", over=True)
    game = {**fx.game("classic"), "status": "over"}
    ctx, page = mount(browser, server_url, LAPTOP, {"screen": "play", "game": game, "view": view})
    try:
        ships = fx.layout("classic")
        fleet = {cell: s["code"] for s in ships for cell in s["cells"]}
        free = fx.free_cells("classic", set(fleet))
        south = {**fleet, free[0]: "M", free[-1]: "T"}
        north = {**fleet, free[1]: "M", free[-2]: "T"}
        shot = {
            "ply": 1,
            "side": "north",
            "action": free[0],
            "answer": "mine",
            "shots": [{"cell": free[0], "answer": "mine"}],
        }
        data = {"setups": {"south": south, "north": north}, "plies": [shot], "options": game["settings"]["options"]}
        page.evaluate(
            "(d) => { const s = window.screenObj; s.replayData = d; s.replay = { index: 0 }; s.render(); }", data
        )
        own = ".bs-grid[data-grid=own]"
        assert page.locator(f"{own} .bsx-fig-mine .bsx-mine").count() == 1
        assert page.locator(f"{own} .bsx-fig-sweeper .bsx-sweeper").count() == 1
        assert "bsx-fig-mine" in cell(page, "own", free[0]).get_attribute("class")
        assert "bsx-fig-sweeper" in cell(page, "own", free[-1]).get_attribute("class")
        assert "bsx-fig-mine" in cell(page, "attack", free[1]).get_attribute("class")
        assert "bsx-fig-sweeper" in cell(page, "attack", free[-2]).get_attribute("class")
        page.screenshot(path=str(out / "fixture-classic-replay-figures.png"))
        page.evaluate("() => { const s = window.screenObj; s.replay = { index: 1 }; s.render(); }")
        assert cell(page, "own", free[0]).locator(".bs-dot").count() == 1  # the mine exploded
        assert page.errors == []
    finally:
        ctx.close()


def test_phone_own_player_bar_fits(browser, server_url, out) -> None:
    """QA F8: at 360 px the own bar shows «Гость (вы)» and «стреляет» whole (it wraps rather than cut them)."""
    ctx, page = mount(
        browser, server_url, PHONE, {"screen": "play", "game": fx.game("giant"), "view": fx.view("giant")}
    )
    try:
        bar = page.locator(".player-bar.own")
        page.evaluate("document.querySelector('.player-bar.own').scrollIntoView()")
        bar.screenshot(path=str(out / "fixture-giant-phone-own-bar.png"))
        assert "(вы)" in bar.locator(".pb-name").inner_text()
        assert bar.locator(".pb-turn").inner_text() == "стреляет"
        for part in (".pb-name", ".pb-turn", ".bsx-level", ".clock"):
            el = bar.locator(part).element_handle()
            assert page.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1", el), part  # not cut (no ellipsis)
        box, outer = bar.bounding_box(), bar.locator(".clock").bounding_box()
        assert outer["x"] + outer["width"] <= box["x"] + box["width"] + 1
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
        assert page.errors == []
    finally:
        ctx.close()


def test_log_sets_the_row_letter_apart(browser, server_url, out) -> None:
    """QA F9: in the log a cell's row letter is its own element (underlined, a gap before the column), so «З10»
    does not read as «310»; the text stays «З10» for a screen reader and the use lines keep their words."""
    ctx, page = mount(
        browser, server_url, LAPTOP, {"screen": "play", "game": fx.game("classic"), "view": fx.view("classic")}
    )
    try:
        log = page.locator(".bs-log")
        rows = log.locator(".bsx-cellname-row").all_inner_texts()
        assert "З" in rows, rows
        names = log.locator(".bsx-cellname").all_inner_texts()
        assert names and all(n[0] in fx.ROWS_RU and n[1:].isdigit() for n in names), names
        assert "И3 мимо, З3 ранен" in log.inner_text()
        gap = log.locator(".bsx-cellname-row").first.evaluate("(e) => parseFloat(getComputedStyle(e).marginRight)")
        assert gap > 0
        log.screenshot(path=str(out / "fixture-classic-log.png"))
        assert page.errors == []
    finally:
        ctx.close()
