"""Fair chance in a real browser (BATTLESHIP.md D13): the play screen shows the seed's SHA-256 from the start and the
seed at the end, and the replay re-checks every draw against it with the browser's WebCrypto
(``static/js/core/chance.js``). Played on classic «Морской бой», whose first shooter is draw 0."""

from __future__ import annotations

import hashlib
import re

from .test_battleship import LAPTOP, auto, create_from_home, join, play_out, press, ready, two_players


def test_the_commitment_shows_from_the_start_and_the_replay_checks_the_draws(browser, server_url, page_errors):
    contexts, a, b = two_players(browser, LAPTOP, page_errors)
    try:
        join(b, create_from_home(a, server_url))
        auto(a)
        auto(b)
        ready(a)
        ready(b)
        for p in (a, b):
            p.wait_for_selector(".bs-play")
        commitment = a.locator(".chance-line .chance-commitment").inner_text()
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert b.locator(".chance-line .chance-commitment").inner_text() == commitment
        assert a.locator(".chance-line .chance-seed").count() == 0  # never before the end
        play_out([a, b])
        for p in (a, b):
            p.wait_for_function("() => window.admiral?.game.status === 'over'")
        seed = b.locator(".chance-line .chance-seed").inner_text()
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        press(b, b.get_by_role("button", name="Смотреть запись"))
        b.wait_for_selector(".chance-check[data-ok]")
        check = b.locator(".chance-check")
        assert check.get_attribute("data-ok") == "true"
        assert check.inner_text() == "Жребии сверены с зерном: 1 из 1, по порядку ✓"
    finally:
        for c in contexts:
            c.close()
    assert not page_errors.errors, page_errors.errors
