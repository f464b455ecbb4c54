"""A friend game in two real browsers (docs/protocol.md, rules §3–§11).

A laptop (South) creates the game; a phone (North, 360×740, touch) joins through the invite link. Both
place a few units by hand (clicks, mouse and touch drag and drop), auto-arrange the rest, get ready,
then walk two cruisers towards each other through the UI: South's move-then-attack with a formation
meets North's declared formation; both see the battle card; North resigns and South sees the result,
the replay and the record link.
"""

from __future__ import annotations

import re

from .ui import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    arsenal_left,
    both_at,
    cell,
    defend,
    legal,
    mouse_drag,
    notations,
    placed,
    play,
    press,
    touch_drag,
    version,
    wait_version,
)

# --- the game --------------------------------------------------------------------------------------


def test_friend_game_through_invite(browser, server_url, shots, page_errors):
    laptop = browser.new_context(**DESKTOP)
    phone = browser.new_context(**PHONE)
    try:
        south = page_errors(laptop.new_page(), "south")
        north = page_errors(phone.new_page(), "north")
        south.set_default_timeout(TIMEOUT_MS)
        north.set_default_timeout(TIMEOUT_MS)

        # Home: create a game as South, 10+5, 5 minutes to set up.
        south.goto(server_url + "/")
        south.locator("#new-game input[name=side][value=south]:visible").check()
        south.get_by_role("button", name="Создать партию").click()
        south.wait_for_url(re.compile(r"/g/"))
        link = south.locator("#invite-link").input_value()
        assert "/j/" in link and link.startswith("http")
        assert south.get_by_role("button", name="Копировать").is_visible()
        south.screenshot(path=shots / "01-invite-link-laptop.png")

        # The friend opens the link on a phone and accepts.
        north.goto(server_url + "/")
        north.screenshot(path=shots / "00-home-phone.png", full_page=True)
        north.goto(link)
        north.screenshot(path=shots / "01-invite-phone.png")
        north.get_by_role("button", name="Принять приглашение").tap()
        north.wait_for_url(re.compile(r"/g/"))
        north.wait_for_selector(".arsenal-item")
        south.wait_for_selector(".arsenal-item")
        south.locator("#invite").wait_for(state="hidden")
        assert south.locator(".opp-state").inner_text() == "расставляет"

        # South (laptop): click-to-place six cruisers on the front row, a mouse drag and drop round trip.
        south.locator(".arsenal-item[data-kind=KR]").click()
        for c in "abcdef":
            cell(south, f"{c}5").click()
        assert arsenal_left(south, "KR") == 0
        mouse_drag(south, south.locator(".arsenal-item[data-kind=L]"), cell(south, "g3"))
        assert cell(south, "g3").locator(".unit.k-L").count() == 1
        mouse_drag(south, cell(south, "g3"), cell(south, "h3"))
        assert cell(south, "g3").locator(".unit").count() == 0 and cell(south, "h3").locator(".k-L").count() == 1
        mouse_drag(south, cell(south, "h3"), cell(south, "a5"))  # onto a cruiser: they swap
        assert cell(south, "a5").locator(".k-L").count() == 1 and cell(south, "h3").locator(".k-KR").count() == 1
        mouse_drag(south, cell(south, "a5"), south.locator(".arsenal"))  # back to the arsenal
        assert cell(south, "a5").locator(".unit").count() == 0 and arsenal_left(south, "L") == 2
        mouse_drag(south, cell(south, "h3"), cell(south, "a5"))
        # a VMB in the front row: the server's problem shows in Russian
        south.locator(".arsenal-item[data-kind=VMB]").click()
        cell(south, "n5").click()
        south.locator(".problems .problem", has_text="ВМБ").wait_for()
        cell(south, "n5").click()  # selects the placed base
        south.get_by_role("button", name="Убрать с поля").click()
        # an aircraft far from the carrier: a warning
        south.locator(".arsenal-item[data-kind=S]").click()
        cell(south, "n1").click()
        south.locator(".problems .warning", has_text="не рядом с носителем").wait_for()
        south.screenshot(path=shots / "02-setup-laptop.png")
        cell(south, "n1").click()
        south.get_by_role("button", name="Убрать с поля").click()
        assert placed(south) == 6

        # North (phone): tap-to-place six cruisers on its front row, then a touch drag and drop round trip.
        press(north, north.locator(".arsenal-item[data-kind=KR]"))
        for c in "abcdef":
            press(north, cell(north, f"{c}11"))
        assert arsenal_left(north, "KR") == 0 and placed(north) == 6
        touch_drag(north, north.locator(".arsenal-item[data-kind=L]"), cell(north, "g13"))
        assert cell(north, "g13").locator(".k-L").count() == 1
        touch_drag(north, cell(north, "g13"), cell(north, "h13"))
        assert cell(north, "h13").locator(".k-L").count() == 1 and cell(north, "g13").locator(".unit").count() == 0
        touch_drag(north, cell(north, "h13"), north.locator(".arsenal"))
        assert placed(north) == 6 and arsenal_left(north, "L") == 2
        north.screenshot(path=shots / "03-setup-phone-partial.png", full_page=True)

        # Both auto-arrange the rest and get ready.
        for page in (south, north):
            press(page, page.get_by_role("button", name="Авторасстановка"))
            try:
                page.wait_for_function("() => document.querySelectorAll('.setup-board .cell .unit').length === 58")
            except Exception as e:
                state = page.evaluate("[admiral.recent, admiral.online]")
                raise AssertionError(f"auto-arrangement: {placed(page)} placed; messages, online: {state}") from e
            page.get_by_role("button", name="Готов").wait_for()
            page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        for c in "abcdef":
            assert cell(south, f"{c}5").locator(".k-KR").count() == 1
            assert cell(north, f"{c}11").locator(".k-KR").count() == 1
        # save the setup under a name
        south.locator("details.saved summary").click()
        south.get_by_label("Название расстановки").fill("Шесть крейсеров")
        south.get_by_role("button", name="Сохранить").click()
        south.locator("details.saved option", has_text="Шесть крейсеров").wait_for(state="attached")
        south.get_by_role("button", name="Очистить").click()
        assert placed(south) == 0
        south.get_by_label("Сохранённые расстановки").select_option(label="Шесть крейсеров")
        south.get_by_role("button", name="Загрузить").click()
        assert placed(south) == 58 and cell(south, "c5").locator(".k-KR").count() == 1
        south.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        south.screenshot(path=shots / "04-setup-complete.png")
        north.screenshot(path=shots / "05-setup-phone-complete.png", full_page=True)

        press(south, south.get_by_role("button", name="Готов"))
        south.locator(".opp-state").wait_for()
        press(north, north.get_by_role("button", name="Готов"))
        south.wait_for_selector(".play-board")
        north.wait_for_selector(".play-board")
        both_at((south, north), 0)

        # Two cruisers each walk into the open sea (rules §5), North shuffles while South closes in.
        plan = [
            (south, "c5-c6"), (north, "c11-c10"), (south, "c6-c7"), (north, "c10-c9"),
            (south, "d5-d6"), (north, "d11-d10"), (south, "d6-d7"), (north, "d10-d9"),
            (south, "d7-d8"), (north, "f11-f10"),
        ]  # fmt: skip
        for i, (page, move) in enumerate(plan):
            if i == 2:
                press(south, cell(south, "c6"))
                south.screenshot(path=shots / "06-game-selected.png")
                press(south, cell(south, "c6"))  # deselect
            if i == 3:
                press(north, cell(north, "c10"))
                north.screenshot(path=shots / "06-game-selected-phone.png")
                press(north, cell(north, "c10"))
            play(page, move)
            both_at((south, north), i + 1)
        assert "last-to" in cell(south, "f10").get_attribute("class")

        # South: move c7→c8, then attack c9 declaring the formation c8+d8 (2 КР, row 18).
        assert {
            "type": "attack", "src": "c7", "via": "c8", "target": "c9", "formation": ["c8", "d8"],
            "kinds": ["KR", "KR"], "row": 18, "notation": "c7-c8xc9 [c8+d8]",
        } in legal(south)  # fmt: skip
        v = version(south)
        south.locator(".cell[data-cell='c7']").click()
        south.locator(".cell[data-cell='c8']").click()
        assert "target" in cell(south, "c9").get_attribute("class")
        assert south.get_by_role("button", name="Остановиться здесь").is_visible()
        assert "waiting" in south.locator(".action-bar").get_attribute("class")
        south.screenshot(path=shots / "07-move-then-attack.png")
        cell(south, "c9").click()
        dialog = south.locator("dialog.formation-dialog")
        dialog.wait_for()
        assert dialog.get_by_text("сила 18").count() == 1
        south.screenshot(path=shots / "08-formation-dialog.png")
        dialog.get_by_role("button", name=re.compile("Строй: 2 КР")).click()

        # North defends: its dialog offers c9 alone (row 7) or c9+d9 (row 18).
        wait_version(north, v + 1)
        north_panel = north.locator(".defence-panel")
        north_panel.wait_for()
        assert "ваши часы идут" in north_panel.locator(".dialog-intro").inner_text()  # a 10+5 game
        north.screenshot(path=shots / "09-defender-panel-phone.png")
        defend(north, re.compile("Строй: 2 КР"))
        both_at((south, north), v + 2)

        # Both see the battle card: 18 against 18, four cruisers gone.
        for page in (south, north):
            card = page.locator(".last-report .report-card")
            card.wait_for(state="attached")
            assert "Равная сила (18)" in card.text_content()
            assert card.locator(".rep-removed .seen").count() == 4
            assert page.locator(".log li").count() == 1
        south.screenshot(path=shots / "10-battle-card.png")
        north.screenshot(path=shots / "11-battle-card-phone.png", full_page=True)
        assert "КР×2" in south.locator(".lost").inner_text()

        # A draw offered and declined.
        south.get_by_role("button", name="Предложить ничью").click()
        north.get_by_text("Соперник предлагает ничью.").wait_for()
        press(north, north.get_by_role("button", name="Отклонить"))
        north.get_by_text("Соперник предлагает ничью.").wait_for(state="hidden")
        south.get_by_role("button", name="Предложить ничью").wait_for()

        # A spectator: closed markers only, the reports, no controls.
        watcher = browser.new_context(**DESKTOP)
        try:
            spectator = page_errors(watcher.new_page(), "spectator")
            spectator.goto(south.url)
            spectator.wait_for_selector(".play-board .unit")
            units = spectator.locator(".play-board .unit")
            assert units.count() == spectator.locator(".play-board .unit.marker").count() == 112
            assert spectator.locator(".log li").count() == 1
            assert spectator.get_by_role("button", name="Сдаться").count() == 0
            spectator.screenshot(path=shots / "12-spectator.png")
        finally:
            watcher.close()

        # North resigns (with a confirmation); South sees the result.
        north.once("dialog", lambda d: d.accept())
        press(north, north.get_by_role("button", name="Сдаться"))
        south.locator(".result-panel h2").wait_for()
        assert south.locator(".result-panel h2").inner_text() == "Победа!"
        assert "Соперник сдался" in south.locator(".result-panel").inner_text()
        north.locator(".result-panel h2").wait_for()
        assert north.locator(".result-panel h2").inner_text() == "Поражение"
        assert south.get_by_role("button", name="Реванш", exact=True).is_visible()
        record = south.get_by_role("link", name="Скачать запись (JSON)")
        assert record.get_attribute("href").endswith("/record.json")
        # after the end both fleets are open
        south.wait_for_function("() => window.admiral?.view && window.admiral?.view.units.every(u => u.kind)")
        south.screenshot(path=shots / "13-result.png")
        north.screenshot(path=shots / "14-result-phone.png", full_page=True)

        # Replay: step through the game.
        south.get_by_role("button", name="Смотреть запись").click()
        south.get_by_role("button", name="В конец").click()
        label = south.locator(".replay-label").inner_text()
        assert label.startswith("Полуход 13 из 13"), label
        south.get_by_role("button", name="В начало").click()
        assert cell(south, "c5").locator(".k-KR").count() == 1
        for _ in range(11):
            south.get_by_role("button", name="Вперёд").click()
        assert "Полуход 11" in south.locator(".replay-label").inner_text()
        assert cell(south, "c8").locator(".k-KR").count() == 1
        south.screenshot(path=shots / "15-replay.png")

        # Rematch (issue 18): South offers it, North (the phone) sees the offer under the board and accepts; both
        # are taken to the new game, sides swapped.
        first = south.url
        south.get_by_role("button", name="Реванш", exact=True).click()
        south.get_by_role("button", name="Реванш предложен").wait_for()
        assert south.url == first and north.url == first  # an offer moves nobody
        strip = north.locator(".offer-strip", has_text="Соперник предлагает реванш")
        strip.wait_for()
        press(north, strip.get_by_role("button", name="Принять"))
        for page, side in ((south, "Север"), (north, "Юг")):
            page.wait_for_url(lambda u: u != first and "/g/" in u)
            page.wait_for_selector(".arsenal-item")
            assert f"Вы — {side}" in page.locator(".setup-panel").inner_text()
        assert page_errors.errors == []
    finally:
        laptop.close()
        phone.close()


def bomb_takes_both_bases(page) -> bool:
    """Whether the placed АБ's 5×5 blast square (rules §8) holds both placed ВМБ (read from the cells'
    accessible names, «д5: Атомная бомба»)."""
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.cell[data-cell]')]"
        ".map(b => [b.dataset.cell, b.getAttribute('aria-label')])"
    )

    def at(name: str) -> tuple[int, int]:
        return "abcdefghijklmn".index(name[0]), int(name[1:])

    bombs = [at(c) for c, label in labels if label.endswith(": Атомная бомба")]
    bases = [at(c) for c, label in labels if label.endswith(": Военно-морская база")]
    assert len(bombs) == 1 and len(bases) == 2, (bombs, bases)
    (bc, br) = bombs[0]
    return all(abs(c - bc) <= 2 and abs(r - br) <= 2 for c, r in bases)


def test_atomic_bomb_then_abort_without_clocks(browser, server_url, shots, page_errors):
    """No time limit, nothing placed by hand: South detonates its atomic bomb (rules §8), North aborts."""
    one, two = browser.new_context(**DESKTOP), browser.new_context(**DESKTOP)
    try:
        south = page_errors(one.new_page(), "south")
        north = page_errors(two.new_page(), "north")
        south.goto(server_url + "/")
        south.locator("#new-game input[name=time_control][value=none]").check()
        south.locator("#new-game input[name=setup_minutes][value='0']").check()
        south.locator("#new-game input[name=side][value=south]:visible").check()
        south.get_by_role("button", name="Создать партию").click()
        north.goto(south.locator("#invite-link").input_value())
        north.get_by_role("button", name="Принять приглашение").click()
        for page in (south, north):
            page.get_by_role("button", name="Авторасстановка").click()
            page.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        # In ~5 % of auto-arrangements South's bomb stands within two cells of both its bases: detonating
        # would then end the game (rules §8, §10.1) and there would be nothing left to abort. Arrange anew.
        for _ in range(20):
            if not bomb_takes_both_bases(south):
                break
            south.get_by_role("button", name="Очистить").click()
            south.get_by_role("button", name="Авторасстановка").click()
            south.wait_for_function("() => !document.querySelector('.ready-row .btn').disabled")
        assert not bomb_takes_both_bases(south)
        for page in (south, north):
            page.get_by_role("button", name="Готов").click()
        south.wait_for_selector(".play-board")
        assert south.locator(".player-bar .clock").first.inner_text() == "∞"

        assert "АБ!" in notations(south)
        assert not south.get_by_role("button", name="Подорвать АБ").is_visible()  # offered with the bomb selected
        bomb = south.evaluate("window.admiral.view.legal.find((a) => a.type === 'detonate').cell")
        cell(south, bomb).click()
        assert south.locator(".play-board .cell.blast").count() >= 9
        south.once("dialog", lambda d: d.accept())
        south.get_by_role("button", name="Подорвать АБ").click()
        for page in (south, north):
            card = page.locator(".last-report .report-card")
            card.wait_for(state="attached")
            assert "Взрыв атомной бомбы" in card.text_content()
        south.screenshot(path=shots / "20-atomic-bomb.png")

        north.once("dialog", lambda d: d.accept())
        north.get_by_role("button", name="Прервать партию").click()
        for page in (south, north):
            page.locator(".result-panel h2", has_text="Партия прервана").wait_for()
        assert south.get_by_role("button", name="Сдаться").count() == 0
        assert page_errors.errors == []
    finally:
        one.close()
        two.close()
