"""Turn notifications, correspondence clocks and the installable app in real browsers (issue 19), for every game of
the house, at 1366×768 and 360×740 with touch.

Two browsers play a correspondence game (3 days per move): the clocks read «2 дн 23 ч»; each player switches
notifications on with the bell (the permission is granted in the browser context; ``Notification`` is wrapped by a
spy that records what the page shows). A player whose page is hidden is notified «Ваш ход» when the opponent moves,
and «Соперник предлагает ничью» on a draw offer; a player looking at the page is not. The profile's switch shows
the same state. The service worker installs, precaches, and an offline navigation shows the offline page.
Screenshots in ``artifacts/e2e/notify/``.
"""

from __future__ import annotations

import pytest

from .test_offers import GAMES, SIZES, create, move_once, new_page, press, register, seat, set_up, to_act

#: Records every notification the page makes (the real one is made too: the permission is granted), and lets the
#: test hide the page (``window.__hide(true)``): headless Chromium keeps every page visible.
SPY = """
(() => {
  const Real = window.Notification;
  if (!Real) return;
  window.__notes = [];
  let hidden = false;
  const state = () => (hidden ? "hidden" : "visible");
  Object.defineProperty(document, "visibilityState", { configurable: true, get: state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  window.__hide = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
  function Spy(title, options) {
    window.__notes.push({ title, body: (options || {}).body, tag: (options || {}).tag });
    return new Real(title, options);
  }
  Object.defineProperty(Spy, "permission", { get: () => Real.permission });
  Spy.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Spy;
})();
"""


@pytest.fixture
def notify_shots(shots):
    d = shots / "notify"
    d.mkdir(parents=True, exist_ok=True)
    return d


def notes(page) -> list[dict]:
    return page.evaluate("() => window.__notes")


def player(browser, size, page_errors, name, server_url):
    ctx, page = new_page(browser, size, page_errors, name)
    ctx.grant_permissions(["notifications"], origin=server_url)
    ctx.add_init_script(SPY)
    return ctx, page


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_notifications_only_when_hidden(browser, server_url, notify_shots, page_errors, game: str, size: str):
    a_ctx, a = player(browser, size, page_errors, "south", server_url)
    b_ctx, b = player(browser, size, page_errors, "north", server_url)
    tag = f"{game}-{size}"
    try:
        register(a, server_url)  # South is a registered commander, North a guest
        made = create(a, server_url, side="south", time_control="correspondence", days_per_move=3, **GAMES[game])
        b.goto(server_url + made["invite_url"])
        press(b, b.get_by_role("button", name="Принять приглашение"))
        a.goto(server_url + made["url"])
        for p in (a, b):
            p.wait_for_function("() => window.admiral?.game && window.admiral?.game.status === 'setup'")
            set_up(p)
        for p in (a, b):
            p.wait_for_function("() => window.admiral?.game.status === 'play' && window.admiral?.view")
        # the correspondence clock: days and hours
        a.wait_for_function("() => [...document.querySelectorAll('.clock')].some((c) => c.textContent === '2 дн 23 ч')")
        assert "3 дн 0 ч" in [c.inner_text() for c in a.locator(".clock").all()]

        # the bell asks for nothing until clicked; a click switches notifications on
        for p in (a, b):
            bell = p.locator(".notify-toggle").first
            assert bell.get_attribute("aria-pressed") == "false"
            press(p, bell)
            p.wait_for_function(
                "() => document.querySelector('.notify-toggle').getAttribute('aria-pressed') === 'true'"
            )
        mover, waiter = (a, b) if to_act(a) == seat(a) else (b, a)
        mover.screenshot(path=notify_shots / f"{tag}-1-bell-on.png")

        # the waiter's page is hidden: the opponent's move notifies it «Ваш ход»
        waiter.evaluate("() => window.__hide(true)")
        move_once(mover, waiter)
        waiter.wait_for_function("() => window.__notes.length > 0")
        got = notes(waiter)
        assert [n["title"] for n in got] == ["Ваш ход"]
        assert got[0]["tag"].startswith("turn:")

        # the other page is visible: its turn comes without a notification
        waiter.evaluate("() => window.__hide(false)")
        move_once(waiter, mover)
        mover.wait_for_function("() => document.title.startsWith('● Ваш ход — ')")
        mover.wait_for_timeout(500)
        assert notes(mover) == []

        # a draw offer to a hidden page notifies it
        mover.evaluate("() => window.__hide(true)")
        press(waiter, waiter.get_by_role("button", name="Предложить ничью"))
        mover.wait_for_function("() => window.__notes.length > 0")
        assert [n["title"] for n in notes(mover)] == ["Соперник предлагает ничью"]
        mover.evaluate("() => window.__hide(false)")
        mover.screenshot(path=notify_shots / f"{tag}-2-offer.png")

        # the profile's switch shows the same choice (it is the browser's), and the e-mail switch is for the
        # registered only
        b.goto(server_url + "/profile#notifications")
        switch = b.locator("input[data-notify-toggle]")
        assert switch.is_checked()
        assert b.locator("form[data-turn-mail]").count() == 0
        b.locator("#notifications").scroll_into_view_if_needed()
        b.screenshot(path=notify_shots / f"{tag}-3-profile.png")
        press(b, switch)
        b.wait_for_function("() => !document.querySelector('input[data-notify-toggle]').checked")
        assert b.evaluate("() => localStorage.getItem('admiral.notify')") == "off"
        # the registered commander also has the e-mail switch, off by default
        a.goto(server_url + "/profile#notifications")
        mail = a.locator("form[data-turn-mail] input[name=turn_mail]")
        assert not mail.is_checked()
        press(a, mail)
        press(a, a.locator("form[data-turn-mail]").get_by_role("button", name="Сохранить"))
        a.wait_for_url("**/profile?turn_mail=on#notifications")
        assert a.locator("form[data-turn-mail] input[name=turn_mail]").is_checked()
        a.locator("#notifications").scroll_into_view_if_needed()
        a.screenshot(path=notify_shots / f"{tag}-4-profile-mail.png")
    finally:
        a_ctx.close()
        b_ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_service_worker_and_the_offline_page(browser, server_url, notify_shots, page_errors, size: str):
    ctx, page = new_page(browser, size, page_errors, "offline")
    try:
        page.goto(server_url + "/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
        cached = page.evaluate(
            """async () => {
                const names = await caches.keys();
                const cache = await caches.open(names.find((n) => n.startsWith('admiral-static-')));
                return { names, urls: (await cache.keys()).map((r) => new URL(r.url).pathname) };
            }"""
        )
        assert len(cached["names"]) == 1
        assert {"/offline", "/static/css/admiral.css", "/static/js/core/notify.js"} <= set(cached["urls"])
        assert not [u for u in cached["urls"] if u.startswith(("/api/", "/g/", "/ws/", "/profile"))]
        ctx.set_offline(True)
        page.goto(server_url + "/rules")
        page.get_by_role("heading", name="Нет сети").wait_for()
        assert "«Адмиралу» нужна связь с сервером" in page.inner_text("main")
        # the styles came from the cache: the top bar is the site's navy
        assert page.evaluate("() => getComputedStyle(document.querySelector('.topbar')).backgroundColor") == (
            "rgb(15, 47, 82)"
        )
        page.screenshot(path=notify_shots / f"offline-{size}.png")
        ctx.set_offline(False)
        page.goto(server_url + "/rules")
        assert page.get_by_role("heading", name="Нет сети").count() == 0
        manifest = page.evaluate("() => fetch('/manifest.webmanifest').then((r) => r.json())")
        assert manifest["display"] == "standalone"
        assert page_errors.errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_form_makes_a_correspondence_game(browser, server_url, notify_shots, page_errors, size: str):
    """Home page: «по переписке» shows the days per move (1, 3, 7; 3 chosen); the game's clocks read days."""
    ctx, page = new_page(browser, size, page_errors, "form")
    try:
        page.goto(server_url + "/")
        form = page.locator("#new-game")
        days = form.locator("[data-days-per-move]")
        assert days.is_hidden()
        press(page, form.get_by_label("по переписке"))
        days.wait_for(state="visible")
        assert form.locator("input[name=days_per_move]:checked").get_attribute("value") == "3"
        press(page, days.get_by_label("7 дн"))
        days.scroll_into_view_if_needed()
        page.screenshot(path=notify_shots / f"form-{size}.png")
        press(page, form.get_by_role("button", name="Создать партию"))
        page.wait_for_url("**/g/*")
        page.wait_for_function("() => window.admiral?.game && window.admiral?.game.settings.days_per_move === 7")
        assert page.evaluate("() => window.admiral.game.settings.base_ms") == 7 * 86_400_000
        assert page_errors.errors == []
    finally:
        ctx.close()
