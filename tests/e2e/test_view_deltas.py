"""Views as changes in a real browser (issue 23, docs/protocol.md ``?delta=1``): the page's socket asks for them,
gets each move's view as a change of the last one, and what it rebuilds is the whole view a fresh socket is sent
(checked by reloading the page at the same version), on a laptop and on a phone."""

from __future__ import annotations

import json

import pytest

from .test_ai_game import forward_move
from .ui import DESKTOP, PHONE, TIMEOUT_MS, play, start_ai_game, version, wait_version


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_rebuilt_view_is_the_whole_view(browser, server_url, shots, page_errors, device):
    ctx = browser.new_context(**(DESKTOP if device == "laptop" else PHONE))
    try:
        page = page_errors(ctx.new_page(), device)
        page.set_default_timeout(TIMEOUT_MS)
        frames: list[dict] = []

        def watch(ws) -> None:
            if "/ws/games/" in ws.url:
                assert ws.url.endswith("?delta=1")
                ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        page.on("websocket", watch)
        start_ai_game(page, server_url)
        wait_version(page, 0)
        used: set[str] = set()
        for _ in range(3):
            page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
            move = forward_move(page, used)
            used.add(move.split("-")[1])
            play(page, move)
        page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
        held, at = page.evaluate("window.admiral.view"), version(page)
        deltas = [f for f in frames if f.get("type") == "snapshot" and "view_delta" in f]
        assert len(deltas) >= 5  # three moves and (at least) two of the bot's answers came as changes
        assert any(d["view_delta"]["append"].get("history") for d in deltas)  # the move list only grew
        assert len(held["history"]) == at
        page.screenshot(path=shots / f"90-view-deltas-{device}.png")

        page.reload()  # a fresh socket: its first snapshot is the whole view
        wait_version(page, at)
        page.wait_for_function("() => window.admiral?.view && window.admiral?.view.to_act === 'south'")
        assert version(page) == at and page.evaluate("window.admiral.view") == held
    finally:
        ctx.close()
