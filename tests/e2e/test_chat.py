"""The players' chat in real browsers (issue 19 «Chat» 6), at 1366×768 («Адмирал») and 360×740 with touch
(«Морской бой»): two registered commanders exchange a quick phrase and a free text (escaped: markup shows as
text), the live length counter, the unread count on a phone's closed strip and in a hidden tab's title; a blocked
player's messages vanish from the blocker's panel (the blocked one sees nothing change) and come back on unblock;
a spectator has no chat at all. Screenshots in ``artifacts/e2e/chat/``.
"""

from __future__ import annotations

import pytest

from .test_offers import GAMES, create, new_page, press, register, set_up

CASES = {"laptop": "admiral", "phone": "battleship"}


@pytest.fixture
def chat_shots(shots):
    d = shots / "chat"
    d.mkdir(parents=True, exist_ok=True)
    return d


def lines(page) -> list[str]:
    """The chat panel's lines as shown («Вы: Удачи!»)."""
    return [t.strip() for t in page.locator(".chat .chat-line").all_inner_texts()]


def open_chat(page) -> None:
    """Open the phone's chat strip if it is closed."""
    toggle = page.locator(".chat .chat-toggle")
    if toggle.get_attribute("aria-expanded") == "false":
        press(page, toggle)


@pytest.mark.parametrize("size", sorted(CASES))
def test_two_players_chat_block_and_a_spectator_sees_none(browser, server_url, chat_shots, page_errors, size: str):
    game = CASES[size]
    a_ctx, a = new_page(browser, size, page_errors, "south")
    b_ctx, b = new_page(browser, size, page_errors, "north")
    w_ctx, w = new_page(browser, size, page_errors, "spectator")
    tag = f"{game}-{size}"
    try:
        nick_a, nick_b = register(a, server_url), register(b, server_url)
        made = create(a, server_url, side="south", **GAMES[game])
        b.goto(server_url + made["invite_url"])
        press(b, b.get_by_role("button", name="Принять приглашение"))
        a.goto(server_url + made["url"])
        for p in (a, b):
            p.wait_for_function("() => window.admiral?.game?.status === 'setup'")
        # «Удачи!» during the setup (from a second socket of south's: the setup screens have no panel), shown
        # once play begins: the play screen's panel gets the messages the page heard before it
        a.evaluate(
            """async () => {
              const ws = new WebSocket(`ws://${location.host}/ws/games/${window.admiral.game.id}`);
              await new Promise((ok) => ws.addEventListener("open", ok));
              ws.send(JSON.stringify({ type: "chat", phrase: "gl" }));
              await new Promise((ok) => setTimeout(ok, 500));
              ws.close();
            }"""
        )
        for p in (a, b):
            set_up(p)
        for p in (a, b):
            p.wait_for_function("() => window.admiral?.game?.status === 'play' && window.admiral?.view")
            p.locator(".chat").wait_for()
        phone = size == "phone"
        assert (a.locator(".chat .chat-toggle").get_attribute("aria-expanded") == "false") == phone
        open_chat(a)
        assert lines(a) == ["Вы: Удачи!"]

        # A quick phrase: south sends «Спасибо»; north sees it with south's nickname (on a phone: the unread count).
        press(a, a.locator(".chat-phrase[data-phrase=thanks]"))
        a.locator(".chat .chat-line.mine", has_text="Спасибо").wait_for()
        b.locator(".chat .chat-line.theirs", has_text="Спасибо").wait_for(state="attached")
        if phone:
            assert b.locator(".chat .chat-unread").inner_text() == "1"
            b.screenshot(path=chat_shots / f"{tag}-1-unread.png")
            open_chat(b)
            b.locator(".chat .chat-unread").wait_for(state="hidden")
        assert lines(b) == [f"{nick_a}: Удачи!", f"{nick_a}: Спасибо"]

        # Free text (both registered): the counter counts what the user sees; markup stays text.
        box = b.locator(".chat .chat-input")
        press(b, box)
        box.fill("<b>Привет</b> 👍🏽")
        assert b.locator(".chat .chat-counter").inner_text() == "15/200"
        press(b, b.locator(".chat .chat-send"))
        a.locator(".chat .chat-line.theirs", has_text="<b>Привет</b> 👍🏽").wait_for()
        assert a.locator(".chat .chat-line b").count() == 0  # shown as text, never as HTML
        assert lines(a)[-1] == f"{nick_b}: <b>Привет</b> 👍🏽" and box.input_value() == ""
        a.screenshot(path=chat_shots / f"{tag}-2-exchanged.png")
        b.screenshot(path=chat_shots / f"{tag}-3-exchanged-north.png")

        # A hidden tab: the opponent's message puts «(1)» before the title; back in sight, it goes.
        a.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        press(b, b.locator(".chat-phrase[data-phrase=gl]"))
        a.wait_for_function("() => document.title.startsWith('(1) ')")
        a.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        a.wait_for_function("() => !document.title.startsWith('(')")

        # South blocks north: north's messages vanish from south's panel; north sees nothing change.
        press(a, a.get_by_role("button", name="Скрыть сообщения соперника"))
        a.get_by_role("button", name="Показывать сообщения соперника").wait_for()
        a.wait_for_function("() => !document.querySelector('.chat .chat-line.theirs')")
        assert lines(a) == ["Вы: Удачи!", "Вы: Спасибо"]
        press(b, b.locator(".chat-phrase[data-phrase=gg]"))
        b.locator(".chat .chat-line.mine", has_text="Хорошая партия").wait_for()
        assert b.locator(".chat .chat-blocked").is_hidden()  # the blocked one is not told
        press(a, a.locator(".chat-phrase[data-phrase=rematch]"))  # published after north's «gg»
        b.locator(".chat .chat-line.theirs", has_text="Реванш?").wait_for()
        a.locator(".chat .chat-line.mine", has_text="Реванш?").wait_for()
        assert "Хорошая партия" not in " ".join(lines(a))
        a.screenshot(path=chat_shots / f"{tag}-4-blocked.png")
        press(a, a.get_by_role("button", name="Показывать сообщения соперника"))
        a.locator(".chat .chat-line.theirs", has_text="Хорошая партия").wait_for()

        # A spectator: no chat panel, and nothing of the chat in what it received.
        w.goto(server_url + made["url"])
        w.wait_for_function("() => window.admiral?.game?.status === 'play'")
        press(a, a.locator(".chat .chat-input"))
        a.locator(".chat .chat-input").fill("Ещё партию?")
        press(a, a.locator(".chat .chat-send"))
        b.locator(".chat .chat-line.theirs", has_text="Ещё партию?").wait_for()
        assert w.locator(".chat").is_hidden()
        assert "chat" not in w.evaluate("() => window.admiral.recent")
        w.screenshot(path=chat_shots / f"{tag}-5-spectator.png")

        # Phrases are keys: north, now reading in English, sees south's «Удачи!» as «Good luck!»; texts stay as typed.
        b_ctx.add_cookies([{"name": "admiral_lang", "value": "en", "url": server_url}])
        b.reload()
        b.locator(".chat").wait_for()
        open_chat(b)
        shown = lines(b)
        assert shown[0] == f"{nick_a}: Good luck!" and shown[1] == f"{nick_a}: Thank you", shown
        assert shown[-1] == f"{nick_a}: Ещё партию?" and "You: <b>Привет</b> 👍🏽" in shown
        b.screenshot(path=chat_shots / f"{tag}-6-english.png")
        assert not page_errors.errors, page_errors.errors
    finally:
        for ctx in (a_ctx, b_ctx, w_ctx):
            ctx.close()
