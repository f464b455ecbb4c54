"""«Мои партии» across two instances (issue 19): a game played and resigned on instance 1 is listed, as soon as it
is over, by instance 2 for both players (the history is read from the shared database, nothing instance-local).

Needs ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; skips with the reason otherwise.
"""

from __future__ import annotations

import re

from .conftest import NEEDS_SERVICES
from .test_two_instances import cluster, start  # noqa: F401  (the fixture)

pytestmark = NEEDS_SERVICES


def test_a_game_ended_on_one_instance_is_in_both_histories_on_the_other(cluster) -> None:  # noqa: F811
    one, two = cluster
    game_id, a, b = start(one, two)
    try:
        a.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play")
        b.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play")
        a.send({"type": "resign"})  # on instance 1
        b.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "over")
        for player, outcome in ((a, "loss"), (b, "win")):
            page = player.get(two.url, "/games").text  # PROGRESSION.md §4: newest first, on any instance
            assert re.findall(r'class="history-item ([a-z]+)" data-game-id="([^"]+)"', page) == [(outcome, game_id)]
    finally:
        a.close()
        b.close()
