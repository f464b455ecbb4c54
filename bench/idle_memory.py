"""What an idle game without sockets costs the server's memory, and what ``IDLE_EVICT_S`` gives back (issue 23).

Plays ``--games`` untimed friend games of ``--plies`` plies each (scripted players, both sockets through the
in-process test client, on a temporary SQLite database), closes every socket, then lets the sweeper evict them
(``idle_evict_s`` set to 0.5 s) and prints the Python memory freed per game (``tracemalloc``, started before the
server: every allocation of the games is traced; the sockets' own memory is not in the figure, they closed before).

    .venv/bin/python bench/idle_memory.py --games 20 --plies 60

A benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=60)
    args = ap.parse_args()
    from tests.web.conftest import Browser, live_game, make_settings, running

    settings = make_settings(f"sqlite:///{tempfile.mkdtemp()}/bench.db", ws_max_rate=1000)
    tracemalloc.start(1)
    with running(settings) as client:
        service = client.app.state.service
        service.options.idle_evict_s = 0  # nothing leaves before every game is played
        ids, plies = [], []
        for _ in range(args.games):
            with live_game(lambda: Browser(client)) as live:
                game = live.snaps["south"]["game"]
                while game["status"] == "play" and game["version"] < args.plies:
                    live.act(live.snaps["south"]["view"]["to_act"])
                    game = live.snaps["south"]["game"]
                ids.append(live.id)
                plies.append(live.snaps["south"]["game"]["version"])
        time.sleep(1.0)
        idle = [i for i in ids if i in service.games]
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        service.options.idle_evict_s = 0.5
        deadline = time.monotonic() + 30
        while any(i in service.games for i in idle) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = sum(i in service.games for i in idle)
        time.sleep(0.5)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    freed = (before - after) / 1024
    print(f"{len(idle)} idle games in play (of {args.games}; versions {min(plies)}–{max(plies)}), no sockets; "
          f"evicted: {len(idle) - left}")  # fmt: skip
    print(f"memory freed by evicting them: {freed:.0f} KiB → {freed / max(1, len(idle)):.1f} KiB a game (tracemalloc)")


if __name__ == "__main__":
    main()
