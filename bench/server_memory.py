"""What the server's memory holds: ``admiral serve`` under ``tracemalloc``, by source file and line (issue 23).

Runs the server in this process with tracemalloc on (one frame per allocation; the server is then ~2x slower, so
this is for where the memory goes, not for speed). Each ``SIGUSR1`` takes a snapshot; from the second on, the
difference to the first is written to ``--out`` (KiB and allocations, by file then by line, largest first). Take
the first snapshot when the server is idle, then load it (``bench/ws_load.py --url``) and take the second while the
games are open:

    .venv/bin/python bench/server_memory.py --port 8766 --out /tmp/memory.txt &
    kill -USR1 <pid>                      # idle
    .venv/bin/python bench/ws_load.py --url http://127.0.0.1:8766 --games 300 --plies 12 --think-ms 3000 &
    kill -USR1 <pid>                      # every game open: writes /tmp/memory.txt

The environment configures the server as for ``admiral serve`` (``DATABASE_URL``, ``RATE_GAMES``, …).
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import signal
import tracemalloc
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--out", type=Path, default=Path("server-memory.txt"))
    parser.add_argument("--top", type=int, default=45, help="lines per table")
    args = parser.parse_args()
    tracemalloc.start(1)
    snapshots: list[tracemalloc.Snapshot] = []

    def take(signum: int, frame: object) -> None:
        """Snapshot now; from the second on, write the difference to the first."""
        snapshots.append(tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)]))
        if len(snapshots) < 2:
            return
        with args.out.open("w") as out:
            for key in ("filename", "lineno"):
                diff = snapshots[-1].compare_to(snapshots[0], key)
                grown = sum(d.size_diff for d in diff) / 1024
                out.write(f"== by {key}: {grown:.0f} KiB more than the first snapshot\n")
                for d in diff[: args.top]:
                    out.write(f"{d.size_diff / 1024:9.0f} KiB {d.count_diff:8d} {d.traceback}\n")

    signal.signal(signal.SIGUSR1, take)
    from admiral.cli import app

    app(["serve", "--port", str(args.port)])


if __name__ == "__main__":
    main()
