"""The phone's game page ends where its content ends: no empty panel under «Журнал боёв».

QA found ~190 px of empty panel under «Журнал боёв» on the phone (a spectator's page, the result screen), and
«Морской бой»'s «Журнал выстрелов» had the same. Two guests start a game of each over its socket; a spectator
looks at it in play and after a resignation, and a player at the result: the side panel's bottom is the last
visible child's bottom plus the panel's padding. Screenshots in ``artifacts/e2e/panel/``.
"""

from __future__ import annotations

import json

import pytest

from .test_bars_phone import GAMES, start_game
from .test_rating import Seat, _cookie
from .ui import PHONE, TIMEOUT_MS

# the side panel's empty space below its last visible child, px
_GAP = """() => {
  const panel = document.querySelector('.side-panel');
  const kids = [...panel.children].filter(e => e.getClientRects().length && getComputedStyle(e).display !== 'none');
  const px = (e, prop) => parseFloat(getComputedStyle(e)[prop]);
  const last = Math.max(...kids.map(e => e.getBoundingClientRect().bottom + px(e, 'marginBottom')));
  return panel.getBoundingClientRect().bottom - last - px(panel, 'paddingBottom') - px(panel, 'borderBottomWidth');
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_no_empty_panel_under_the_battle_log(browser, server_url, shots, page_errors, game) -> None:
    out = shots / "panel"
    out.mkdir(parents=True, exist_ok=True)
    ctxs = [browser.new_context(**PHONE) for _ in range(3)]
    try:
        south, north, watcher = (page_errors(c.new_page(), n) for c, n in zip(ctxs, ("s", "n", "w"), strict=True))
        for p in (south, north, watcher):
            p.set_default_timeout(TIMEOUT_MS)
            p.goto(server_url + "/")
        seats = [Seat(server_url, _cookie(c)) for c in ctxs[:2]]
        game_id = start_game(*seats, GAMES[game], rated=False)
        watcher.goto(f"{server_url}/g/{game_id}")
        watcher.locator(".log-box").wait_for()
        watcher.wait_for_function("() => window.admiral?.game && window.admiral?.game.status === 'play'")
        watcher.screenshot(path=out / f"phone-{game}-spectator-play.png", full_page=True)
        gap = watcher.evaluate(_GAP)
        assert gap <= 2, f"{game}, spectator: {gap:.0f} px of empty panel under the log"

        seats[0].open(game_id)
        seats[0].until(lambda m: m["type"] == "snapshot")
        seats[0].ws.send(json.dumps({"type": "resign"}))
        seats[0].until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "over")
        seats[0].ws.close()
        for name, page in (("spectator", watcher), ("result", north)):
            page.goto(f"{server_url}/g/{game_id}")
            page.locator(".result-panel:not([hidden])").wait_for()
            page.locator(".log-box").wait_for()
            page.screenshot(path=out / f"phone-{game}-{name}-over.png", full_page=True)
            gap = page.evaluate(_GAP)
            assert gap <= 2, f"{game}, {name}: {gap:.0f} px of empty panel under the log"
        assert page_errors.errors == []
    finally:
        for c in ctxs:
            c.close()
