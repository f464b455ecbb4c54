"""Server load benchmark: N concurrent friend games played by scripted clients over real WebSockets.

Starts ``admiral serve`` on a temporary SQLite database (or targets ``--url``), creates N games over HTTP,
joins them through their invite links, opens two sockets per game (``websockets``), auto-arranges and readies
both fleets, then plays random legal actions, ``--plies`` plies a game, and resigns. Players act as soon as
the update arrives (``--think-ms 0``: the server's saturation) or after a human-like think time
(``--think-ms 3000``: 1.5–4.5 s). Prints:

- actions/s over the play phase (all games together);
- p50/p99 latency from an action's send to the opponent's snapshot with the new version (ms);
- the server's RSS per open game (``/proc/<pid>/status`` VmRSS with every game open, minus the idle RSS),
  when this script started the server.

    .venv/bin/python bench/ws_load.py --games 100
    .venv/bin/python bench/ws_load.py --games 500 --plies 30 --think-ms 3000
    .venv/bin/python bench/ws_load.py --url http://127.0.0.1:8000 --games 50

A benchmark, not a test: it prints figures and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

COOKIE = "admiral_browser"


def rss_kib(pid: int) -> int:
    """VmRSS of ``pid`` in KiB (0 if unreadable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_s(pid: int) -> float:
    """CPU time (user + system) ``pid`` has used so far, in seconds (0 if unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path) -> tuple[subprocess.Popen, str]:
    """``admiral serve`` on a free port with a fresh SQLite file; returns the process and its URL."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}",
        "ENVIRONMENT": "development",
        "PORT": str(port),
    }
    log = open(tmp / "server.log", "w")  # lives as long as the server
    proc = subprocess.Popen(
        [sys.executable, "-c", "from admiral.cli import app; app()", "serve", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start; see {tmp / 'server.log'}")


class Bench:
    """Shared counters of one run."""

    def __init__(self, games: int) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.ready = 0
        self.all_ready = asyncio.Event()
        self.games = games
        self.open_event = asyncio.Event()
        self.done = 0


async def player(
    bench: Bench,
    ws,
    side: str,
    plies: int,
    sent: dict[int, float],
    rng: random.Random,
    is_south: bool,
    think_s: float = 0.0,
) -> None:
    """Play ``side`` on ``ws`` until the game ends or ``plies`` plies were played, thinking a random
    0.5–1.5 × ``think_s`` seconds before each action (0: as fast as the server answers)."""
    await ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
    last_sent = -1
    seen = 0
    counted = False
    while True:
        msg = json.loads(await ws.recv())
        kind = msg["type"]
        if kind == "setup.state" and not msg["ready"] and len(msg["draft"]) == 58:
            await ws.send(json.dumps({"type": "setup.ready", "setup": msg["draft"]}))
            continue
        if kind == "error":
            bench.errors += 1
            continue
        if kind != "snapshot":
            continue
        game = msg["game"]
        if game["status"] in ("waiting", "setup"):
            continue
        if not counted:
            counted = True
            bench.ready += 1
            if bench.ready == 2 * bench.games:
                bench.all_ready.set()
            await bench.all_ready.wait()
        version = game["version"]
        if version > seen:
            t = sent.pop(version - 1, None)
            if t is not None:
                bench.latencies.append(time.perf_counter() - t)
            seen = version
        if game["status"] != "play":
            return
        view = msg["view"]
        if version >= plies:
            if is_south:
                await ws.send(json.dumps({"type": "resign"}))
            continue
        if view and view["to_act"] == side and version > last_sent and view["legal"]:
            last_sent = version
            action = rng.choice(view["legal"])
            if think_s:
                await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
            sent[version] = time.perf_counter()
            bench.actions += 1
            await ws.send(json.dumps({"type": "action", "ply": version, "action": action}))


async def post(http: httpx.AsyncClient, url: str, **kw) -> httpx.Response:
    """POST with up to 5 tries on transport errors (a pooled keep-alive connection the busy server closed)."""
    for attempt in range(5):
        try:
            return await http.post(url, **kw)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


async def one_game(
    bench: Bench, url: str, http: httpx.AsyncClient, plies: int, seed: int, sem, think_s: float = 0.0
) -> None:
    south_tok, north_tok = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    async with sem:
        r = await post(
            http,
            f"{url}/games",
            json={"time_control": "none", "side": "south"},
            headers={"cookie": f"{COOKIE}={south_tok}"},
        )
        r.raise_for_status()
        data = r.json()
        await post(http, f"{url}{data['invite_url']}", headers={"cookie": f"{COOKIE}={north_tok}"})
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{data['game_id']}"
    sent: dict[int, float] = {}
    rng = random.Random(seed)
    async with (
        websockets.connect(ws_url, additional_headers={"Cookie": f"{COOKIE}={south_tok}"}, max_size=2**22) as s,
        websockets.connect(ws_url, additional_headers={"Cookie": f"{COOKIE}={north_tok}"}, max_size=2**22) as n,
    ):
        await asyncio.gather(
            player(bench, s, "south", plies, sent, rng, True, think_s),
            player(bench, n, "north", plies, sent, rng, False, think_s),
        )
    bench.done += 1


async def run(args: argparse.Namespace, url: str, pid: int | None) -> None:
    bench = Bench(args.games)
    rss_idle = rss_kib(pid) if pid else 0
    sem = asyncio.Semaphore(50)
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        t0 = time.perf_counter()
        tasks = [
            asyncio.create_task(one_game(bench, url, http, args.plies, args.seed + i, sem, args.think_ms / 1000))
            for i in range(args.games)
        ]
        ready = asyncio.create_task(bench.all_ready.wait())
        while not ready.done():
            done, _ = await asyncio.wait([ready, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                if t is not ready and t.exception() is not None:
                    raise SystemExit(f"a game failed before play: {t.exception()!r}")
            tasks = [t for t in tasks if not t.done()]
        t_play = time.perf_counter()
        cpu_play = cpu_s(pid) if pid else 0.0
        rss_open = rss_kib(pid) if pid else 0
        print(f"{args.games} games open and ready in {t_play - t0:.1f} s", flush=True)
        await asyncio.gather(*tasks)
        t_end = time.perf_counter()
        cpu_used = (cpu_s(pid) - cpu_play) if pid else 0.0
    lat = sorted(bench.latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    print(f"games: {args.games}, plies per game: {args.plies}, think time: {args.think_ms} ms, errors: {bench.errors}")
    print(f"actions: {bench.actions} in {t_end - t_play:.1f} s → {bench.actions / (t_end - t_play):,.0f} actions/s")
    print(f"latency send → opponent's update: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms (n={len(lat)})")
    if lat:
        print(f"  mean {statistics.fmean(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    if pid and bench.actions:
        print(
            f"server CPU during play: {cpu_used:.1f} s → {cpu_used / bench.actions * 1000:.2f} ms per action "
            f"(one core would serve ~{bench.actions / cpu_used:,.0f} actions/s)"
        )
    if pid:
        per_game = (rss_open - rss_idle) / args.games
        print(f"server RSS: idle {rss_idle / 1024:.0f} MiB, {args.games} open games {rss_open / 1024:.0f} MiB "
              f"→ {per_game:.0f} KiB per open game")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", help="target a running server instead of starting one")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--plies", type=int, default=40, help="plies per game before South resigns")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean think time of a player before each action, ms (0: act as soon as the update arrives)",
    )
    args = ap.parse_args()
    if args.url:
        asyncio.run(run(args, args.url.rstrip("/"), None))
        return
    with tempfile.TemporaryDirectory(prefix="admiral-bench-") as tmp:
        proc, url = start_server(Path(tmp))
        try:
            asyncio.run(run(args, url, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
