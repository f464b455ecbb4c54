"""A game against the AI in a real browser (issue 4, rules §12).

A laptop picks «Играть против ИИ», level 1 «Юнга», South, no clock; auto-arranges, gets ready, and plays a
few turns through the UI; after each of its moves the bot's answer arrives by itself.
"""

from __future__ import annotations

import re

import pytest

from .ui import DESKTOP, PHONE, TIMEOUT_MS, cell, play, press, start_ai_game, steps, version, wait_version


def forward_move(page, used: set[str]) -> str:
    """A plain forward step of a unit that has not moved yet (keeps clear of the enemy for a few turns)."""
    moves = steps(page)
    for src, dst in moves:
        if src not in used and int(dst[1:]) == int(src[1:]) + 1:
            return f"{src}-{dst}"
    return "-".join(moves[0])


def test_play_against_level_1(browser, server_url, shots, page_errors):
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "human")
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        form = page.locator("#new-ai-game")
        levels = form.locator('fieldset[data-for-game="admiral"]')  # each game of the house lists its own levels
        assert levels.get_by_text("Адмиральский").is_visible()
        levels.locator("input[name=ai_level][value='1']").check()
        form.locator("input[name=time_control][value=none]").check()
        form.locator("input[name=setup_minutes][value='0']").check()
        form.locator("input[name=side][value=south]:visible").check()
        page.screenshot(path=shots / "30-home-ai.png", full_page=True)
        form.get_by_role("button", name="Начать партию").click()
        page.wait_for_url(re.compile(r"/g/"))

        # Straight to the setup: no invite, the bot is already ready.
        page.wait_for_selector(".arsenal-item")
        assert page.locator("#invite").is_hidden()
        page.locator(".opp-state", has_text="ИИ «Юнга» — готов").wait_for()
        page.get_by_role("button", name="Авторасстановка").click()
        page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
        page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        page.get_by_role("button", name="Готов").click()
        page.wait_for_selector(".play-board")
        wait_version(page, 0)
        page.get_by_text("Всегда объявлять сильнейший строй").click()  # the bot may strike first
        page.locator(".player-bar", has_text="ИИ — Юнга").wait_for()

        used: set[str] = set()
        for turn in range(4):
            page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
            v = version(page)
            move = forward_move(page, used)
            used.add(move.split("-")[1])
            play(page, move)
            # the bot answers by itself (after at least its half-second pause)
            page.wait_for_function(
                "v => window.admiral.game.version > v && window.admiral.view.to_act === 'south'"
                " || window.admiral.game.status !== 'play'",
                arg=v + 1,
            )
            assert page.evaluate("window.admiral.game.status") == "play", f"turn {turn}"
            if turn == 1:
                page.screenshot(path=shots / "31-ai-game.png")
        assert version(page) >= 8
        # the home page leads back to the unfinished game (a guest who closed the tab has no other way)
        home = ctx.new_page()
        home.goto(server_url + "/")
        back = home.locator("#unfinished a", has_text="Против ИИ: 1. Юнга")
        assert back.get_attribute("href") == page.url.removeprefix(server_url)
        assert "идёт игра" in home.locator("#unfinished").inner_text()
        home.screenshot(path=shots / "30-home-unfinished.png")
        home.close()
        # the bot's last move is marked on the board
        assert page.locator(".board .cell.last-to").count() >= 1
        assert cell(page, "a1").count() == 1
        # resign: the result screen shows what the commander got (PROGRESSION.md §2: resigning gives 0)
        page.once("dialog", lambda d: d.accept())
        page.get_by_role("button", name="Сдаться").click()
        page.locator(".result-panel .credit-points").wait_for()
        assert "Очки за партию: 0" in page.locator(".result-panel").inner_text()
        page.screenshot(path=shots / "32-ai-result.png")
        assert page_errors.errors == []
    finally:
        ctx.close()


def test_playing_north_the_player_dots_take_the_pieces_colours(browser, server_url, shots, page_errors):
    # QA finding F7: the dots were coloured by side (South blue), so North's own bar had the enemy's red dot.
    ctx = browser.new_context(**DESKTOP)
    try:
        page = page_errors(ctx.new_page(), "north")
        page.set_default_timeout(TIMEOUT_MS)
        start_ai_game(page, server_url, side="north")
        dot = "el => getComputedStyle(el.querySelector('.pb-dot')).backgroundColor"
        # a fleet's own colour: any unit but the atomic bomb, which has a colour of its own (the auto setup may put it
        # first in reading order)
        own_unit = page.locator(".play-board .unit.own:not(.k-AB)").first
        own_piece = own_unit.evaluate("el => getComputedStyle(el).backgroundColor")
        assert own_piece == "rgb(29, 79, 145)"
        assert "ИИ — Юнга" in page.locator(".player-bar.side-south.enemy").inner_text()
        assert page.locator(".player-bar.side-north.own").evaluate(dot) == own_piece
        assert page.locator(".player-bar.side-south.enemy").evaluate(dot) == "rgb(142, 43, 43)"
        page.screenshot(path=shots / "33-ai-north-bars.png")
        assert page_errors.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_default_ai_form_starts_level_1(browser, server_url, shots, page_errors, device):
    """A new player presses «Начать партию» without touching the level: level 1 of the shown game starts (QA, issue
    18: the hidden game's list took the default and the form sent no level, a 400 page); after switching the game
    the other game's first level does."""
    ctx = browser.new_context(**(DESKTOP if device == "laptop" else PHONE))
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server_url + "/")
        press(page, page.locator("#new-ai-game button[type=submit]"))
        page.wait_for_url(re.compile(r"/g/"))
        page.wait_for_function("() => window.admiral && window.admiral?.game")
        assert (
            page.evaluate("window.admiral.game.players.north.bot || window.admiral.game.players.south.bot")["level"]
            == 1
        )
        assert page.evaluate("window.admiral.game.settings.game") == "admiral"
        page.screenshot(path=shots / f"ai-default-level-{device}.png")
        page.goto(server_url + "/")
        press(page, page.locator("#pick-game label:has(input[value=battleship])"))
        press(page, page.locator("#new-ai-game button[type=submit]"))
        page.wait_for_url(re.compile(r"/g/"))
        page.wait_for_function("() => window.admiral && window.admiral?.game")
        assert page.evaluate("window.admiral.game.settings.game") == "battleship"
        assert page_errors.errors == []
    finally:
        ctx.close()
