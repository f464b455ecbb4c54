"""Server load benchmark: N concurrent friend games played by scripted clients over real WebSockets.

Starts ``admiral serve`` on a temporary SQLite database (or targets ``--url``), creates N games over HTTP,
joins them through their invite links, opens two sockets per game (``websockets``), auto-arranges and readies
both fleets, then plays random legal actions, ``--plies`` plies a game, and resigns. Players act as soon as
the update arrives (``--think-ms 0``: the server's saturation) or after a human-like think time
(``--think-ms 3000``: 1.5–4.5 s). ``--game KEY`` (and ``--options JSON``) plays another game of the registry the
same way («Морской бой» ``battleship`` / ``battleship_ext``, ``naval``, which has no setup phase). Prints:

- actions/s over the play phase (all games together);
- p50/p99 latency from an action's send to the opponent's snapshot with the new version (ms);
- the snapshots the players got in play and their mean size in bytes (``--deltas``: the sockets take views as
  changes of the last one, ``?delta=1`` as the browser client does; docs/protocol.md);
- the group commits of moves (``admiral_moves_per_commit``: moves stored by one transaction);
- the servers' full garbage collections during play (their ``/metrics``: count, time, those over 100 ms), and how
  late their event loops woke a 0.1 s sleep (``admiral_event_loop_lag_seconds``): the servers' own share of the
  latency tail, the rest being the load client's and the network's;
- the server's RSS per open game (``/proc/<pid>/status`` VmRSS with every game open, minus the idle RSS), and again
  after play with every socket closed and the games idle in memory (an upper bound: freed memory need not go back
  to the system),
  when this script started the server.

    .venv/bin/python bench/ws_load.py --games 100
    .venv/bin/python bench/ws_load.py --games 500 --plies 30 --think-ms 3000
    .venv/bin/python bench/ws_load.py --url http://127.0.0.1:8000 --games 50
    .venv/bin/python bench/ws_load.py --instances 2 --database-url postgresql+psycopg://postgres@127.0.0.1/postgres \
        --redis-url redis://127.0.0.1:6379/0 --games 500 --plies 30 --think-ms 3000

With ``--lobby N`` it measures the lobby instead (issue 19): N lobby sockets (``/ws/lobby``, each its own browser
and address) and ``--challenges-per-s`` new open challenges a second for ``--lobby-seconds`` (each by a guest of its
own, ``POST /games`` with ``listing=open``), and prints the latency from a challenge's creation (its ``POST`` sent)
to its appearance on the lists of ``--lobby-sample`` of the sockets (p50/p99), the challenges a sampled list never
showed, refused requests and closed sockets:

    ulimit -n 16384; .venv/bin/python bench/ws_load.py --lobby 2000 --challenges-per-s 100

With ``--instances 2`` (PostgreSQL and Redis required) it starts two servers sharing a fresh database and Redis,
and seats each game's South on one instance and North on the other: every action crosses instances.

Behind nginx (``python -m tests.cluster.topology``, the production topology), ``--url`` is nginx's; nginx does not
serve ``/metrics``, so ``--metrics-url`` names the instances' own URLs and ``--pids`` their processes (server CPU):

    .venv/bin/python bench/ws_load.py --url http://127.0.0.1:NGINX --metrics-url http://127.0.0.1:A,http://127.0.0.1:B \
        --pids PID_A,PID_B --games 2000 --plies 30 --think-ms 3000 --deltas

A benchmark, not a test: it prints figures and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
import orjson
import uvloop
import websockets
from prometheus_client.parser import text_string_to_metric_families

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


def metric_samples(urls: list[str]) -> list:
    """Every sample of the servers' ``/metrics`` at ``urls``, read by prometheus_client's parser (a server that does
    not answer gives none)."""
    out = []
    for url in urls:
        try:
            answer = httpx.get(f"{url}/metrics", timeout=10)
        except httpx.HTTPError:
            continue
        if answer.status_code != 200:  # nginx in front does not serve it: --metrics-url
            continue
        text = answer.text
        out.extend(s for family in text_string_to_metric_families(text) for s in family.samples)
    return out


def gc_pauses(urls: list[str]) -> tuple[float, float, float]:
    """Full (generation 2) garbage collections the servers at ``urls`` counted so far (``admiral_gc_pause_seconds``):
    ``(count, seconds in all, count over 100 ms)``, summed; zeros if unreadable."""
    count = total = slow = 0.0
    for s in metric_samples(urls):
        if s.labels.get("generation") != "2":
            continue
        if s.name == "admiral_gc_pause_seconds_count":
            count += s.value
            slow += s.value
        elif s.name == "admiral_gc_pause_seconds_sum":
            total += s.value
        elif s.name == "admiral_gc_pause_seconds_bucket" and s.labels.get("le") == "0.1":
            slow -= s.value
    return count, total, slow


def commits(urls: list[str]) -> tuple[float, float]:
    """The servers' group commits of moves so far (``admiral_moves_per_commit``): ``(transactions, moves)``, summed."""
    count = total = 0.0
    for s in metric_samples(urls):
        if s.name == "admiral_moves_per_commit_count":
            count += s.value
        elif s.name == "admiral_moves_per_commit_sum":
            total += s.value
    return count, total


def loop_lags(urls: list[str]) -> dict[str, float]:
    """The servers' event-loop lag histogram so far (``admiral_event_loop_lag_seconds``, a sample per 0.1 s tick):
    cumulative count per bucket edge (``le``, seconds as text; ``+Inf`` the total), summed over the servers."""
    out: dict[str, float] = {}
    for s in metric_samples(urls):
        if s.name == "admiral_event_loop_lag_seconds_bucket":
            out[s.labels["le"]] = out.get(s.labels["le"], 0.0) + s.value
    return out


def lag_summary(before: dict[str, float], after: dict[str, float]) -> str:
    """What the servers' event loops did between two :func:`loop_lags` readings: wake-ups, those late by over 50 and
    100 ms, and the bucket edge under which 99 % of them woke (the loop's own p99, an upper bound)."""
    diff = {le: after.get(le, 0.0) - before.get(le, 0.0) for le in after}
    total = diff.get("+Inf", 0.0)
    if not total:
        return "no readings (admiral_event_loop_lag_seconds)"
    edges = sorted((float(le), n) for le, n in diff.items() if le != "+Inf")
    p99 = next((f"{e * 1000:g} ms" for e, n in edges if n >= 0.99 * total), "over the last bucket")
    late, later = total - diff.get("0.05", 0.0), total - diff.get("0.1", 0.0)
    return f"{total:.0f} wake-ups, {late:.0f} over 50 ms late, {later:.0f} over 100 ms; p99 ≤ {p99}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, extra: dict[str, str] | None = None, name: str = "server") -> tuple[subprocess.Popen, str]:
    """``admiral serve`` on a free port (a fresh SQLite file unless ``extra`` says otherwise); returns the
    process and its URL."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}",
        "ENVIRONMENT": "development",
        "PORT": str(port),
        "RATE_GAMES": "100000/minute",  # the bench creates its games from one address
        **(extra or {}),
    }
    log = open(tmp / f"{name}.log", "w")  # lives as long as the server
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
        self.resends = 0  # actions sent again after an ``unavailable`` error, as the message asks
        self.ready = 0
        self.all_ready = asyncio.Event()
        self.games = games
        self.open_event = asyncio.Event()
        self.done = 0
        #: Whether the players' sockets take views as changes (``?delta=1``, ``--deltas``), and the bytes of the
        #: snapshots they got in play.
        self.deltas = False
        self.snapshots = 0
        self.snapshot_bytes = 0
        self.changes = 0


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
    arranged = False  # «Авторасстановка» sent (a game without a setup phase, «Военно-морская игра», starts in play)
    last_sent = -1
    seen = 0
    counted = False
    held = None  # the last view (the base of a delta)
    pending: tuple[int, str] | None = None  # the last action sent: its version and message
    while True:
        raw = await ws.recv()
        msg = orjson.loads(raw)
        kind = msg["type"]
        if kind == "setup.state" and not msg["ready"] and msg["draft"] and not msg["problems"]:  # auto-arranged
            await ws.send(json.dumps({"type": "setup.ready", "setup": msg["draft"]}))
            continue
        if kind == "error":
            bench.errors += 1
            if bench.errors <= 3:
                print(f"error: {msg}", file=sys.stderr, flush=True)
            if msg.get("code") == "unavailable" and pending is not None and seen <= pending[0]:
                # «Сервер занят. Попробуйте ещё раз через секунду.»: the move was not made; a player sends it again
                await asyncio.sleep(1.0)
                bench.resends += 1
                await ws.send(pending[1])
            continue
        if kind != "snapshot":
            continue
        game = msg["game"]
        if game["status"] == "setup" and not arranged:
            arranged = True
            await ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
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
        delta = msg.get("view_delta")
        if delta is not None:  # as static/js/core/net.js rebuilds it
            bench.changes += 1
            view = {**held, **delta["set"]}
            for key, items in delta["append"].items():
                view[key] = held[key] + items
            msg["view"] = view
        held = msg["view"]
        bench.snapshots += 1
        bench.snapshot_bytes += len(raw)
        if game["status"] != "play":
            return
        view = msg["view"]
        if version >= plies:
            if is_south:
                await ws.send(json.dumps({"type": "resign"}))
            continue
        if view and view["to_act"] == side and version > last_sent and view["legal"]:
            last_sent = version
            # a structured action: send its notation back (an entry without one, «Морской бой»'s compact area
            # abilities, is skipped)
            action = rng.choice([a for a in view["legal"] if "notation" in a])["notation"]
            if think_s:
                await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
            sent[version] = time.perf_counter()
            bench.actions += 1
            pending = (version, json.dumps({"type": "action", "ply": version, "action": action}))
            await ws.send(pending[1])


async def request(http: httpx.AsyncClient, url: str, method: str = "POST", **kw) -> httpx.Response:
    """A request (POST by default) with up to 5 tries on transport errors (a pooled keep-alive connection the
    busy server closed)."""
    for attempt in range(5):
        try:
            return await http.request(method, url, **kw)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


def player_address(n: int) -> str:
    """The loopback address player ``n`` connects from (``127.1.0.0/16``: Linux routes all of ``127/8`` to the
    loopback), so that every player has an address of its own, as on the internet, and per-address limits
    (nginx's, the app's) count each player alone."""
    return f"127.1.{n // 250 % 250}.{n % 250 + 1}"


async def one_game(
    bench: Bench,
    urls: list[str],
    plies: int,
    seed: int,
    sem,
    think_s: float = 0.0,
    game: str = "admiral",
    options: dict | None = None,
) -> None:
    south_tok, north_tok = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    url, other = urls[seed % len(urls)], urls[(seed + 1) % len(urls)]
    south_at, north_at = player_address(2 * seed), player_address(2 * seed + 1)
    async with (
        sem,
        httpx.AsyncClient(timeout=60, transport=httpx.AsyncHTTPTransport(local_address=south_at)) as south_http,
        httpx.AsyncClient(timeout=60, transport=httpx.AsyncHTTPTransport(local_address=north_at)) as north_http,
    ):
        r = await request(
            south_http,
            f"{url}/games",
            json={"time_control": "none", "side": "south", "game": game, "options": options or {}},
            headers={"cookie": f"{COOKIE}={south_tok}"},
        )
        r.raise_for_status()
        data = r.json()
        # the invite page carries the anti-CSRF token of North's browser
        page = await request(
            north_http, f"{other}{data['invite_url']}", "GET", headers={"cookie": f"{COOKIE}={north_tok}"}
        )
        token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
        r = await request(north_http, f"{other}{data['invite_url']}", headers={"cookie": f"{COOKIE}={north_tok}"},
                          data={"csrf_token": token})  # fmt: skip
        assert r.status_code == 303, r.text
    query = "?delta=1" if bench.deltas else ""
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{data['game_id']}{query}"
    ws_other = other.replace("http", "ws", 1) + f"/ws/games/{data['game_id']}{query}"
    sent: dict[int, float] = {}
    rng = random.Random(seed)
    async with (
        websockets.connect(
            ws_url, additional_headers={"Cookie": f"{COOKIE}={south_tok}"}, max_size=2**22, local_addr=(south_at, 0)
        ) as s,
        websockets.connect(
            ws_other, additional_headers={"Cookie": f"{COOKIE}={north_tok}"}, max_size=2**22, local_addr=(north_at, 0)
        ) as n,
    ):
        await asyncio.gather(
            player(bench, s, "south", plies, sent, rng, True, think_s),
            player(bench, n, "north", plies, sent, rng, False, think_s),
        )
    bench.done += 1


FLOOD_ADDRESS = "127.9.9.9"


async def flood(url: str, sockets: int, rate: float, outcome: dict[str, int]) -> None:
    """The attack of issue 16, until cancelled: ``sockets`` sockets from one address (:data:`FLOOD_ADDRESS`) to
    one game in setup, half of them its creator's tabs and half spectators, each sending ``setup.auto``
    ``rate`` times a second; a refused or closed socket tries again a second later. Counts what happened to the
    openings and messages in ``outcome``."""
    token = secrets.token_urlsafe(32)
    async with httpx.AsyncClient(timeout=30, transport=httpx.AsyncHTTPTransport(local_address=FLOOD_ADDRESS)) as http:
        r = await request(http, f"{url}/games", json={"side": "south"}, headers={"cookie": f"{COOKIE}={token}"})
        r.raise_for_status()
        game_id = r.json()["game_id"]
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    message = json.dumps({"type": "setup.auto", "setup": {}})

    async def one(i: int) -> None:
        cookie = f"{COOKIE}={token if i % 2 == 0 else secrets.token_urlsafe(32)}"
        while True:
            try:
                async with websockets.connect(ws_url, additional_headers={"Cookie": cookie},
                                              local_addr=(FLOOD_ADDRESS, 0), open_timeout=30) as ws:  # fmt: skip
                    first = json.loads(await ws.recv())
                    if first["type"] == "error":
                        outcome[f"refused {first['code']}"] = outcome.get(f"refused {first['code']}", 0) + 1
                    else:
                        outcome["opened"] = outcome.get("opened", 0) + 1

                        async def drain() -> None:
                            async for _ in ws:
                                pass

                        reader = asyncio.create_task(drain())
                        try:
                            while True:
                                await ws.send(message)
                                outcome["sent"] = outcome.get("sent", 0) + 1
                                await asyncio.sleep(1 / rate)
                        finally:
                            reader.cancel()
            except (websockets.ConnectionClosed, websockets.InvalidStatus, OSError, TimeoutError) as e:
                key = f"http {e.response.status_code}" if isinstance(e, websockets.InvalidStatus) else "closed"
                outcome[key] = outcome.get(key, 0) + 1
            await asyncio.sleep(1.0)

    await asyncio.gather(*(one(i) for i in range(sockets)))


async def bot_games(url: str, games: int, level: int, outcome: dict[str, int]) -> None:
    """``games`` games against the AI at ``level``, each from an address of its own (127.8.x.y), played by a
    client that answers at once with a random legal action, again and again until cancelled: the bots think
    all the time, as under many players at once. Counts bot answers in ``outcome``."""

    async def one(i: int) -> None:
        address, rng = f"127.8.{i // 250}.{i % 250 + 1}", random.Random(i)
        while True:
            token = secrets.token_urlsafe(32)
            async with httpx.AsyncClient(timeout=30, transport=httpx.AsyncHTTPTransport(local_address=address)) as h:
                r = await request(h, f"{url}/games", json={"opponent": "ai", "ai_level": level, "side": "south"},
                                  headers={"cookie": f"{COOKIE}={token}"})  # fmt: skip
                r.raise_for_status()
                game_id = r.json()["game_id"]
            ws_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
            async with websockets.connect(ws_url, additional_headers={"Cookie": f"{COOKIE}={token}"},
                                          local_addr=(address, 0), max_size=2**22) as ws:  # fmt: skip
                await ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
                last = -1
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "setup.state" and not msg["ready"] and len(msg["draft"]) == 58:
                        await ws.send(json.dumps({"type": "setup.ready", "setup": msg["draft"]}))
                    if msg["type"] != "snapshot" or msg["game"]["status"] != "play" or not msg["view"]:
                        if msg["type"] == "snapshot" and msg["game"]["status"] in ("over", "aborted"):
                            break
                        continue
                    version, view = msg["game"]["version"], msg["view"]
                    if view["to_act"] == "south" and version > last and view["legal"]:
                        if last >= 0:
                            outcome["bot answers"] = outcome.get("bot answers", 0) + 1
                        last = version
                        action = rng.choice(view["legal"])["notation"]  # a structured action: send its notation back
                        await ws.send(json.dumps({"type": "action", "ply": version, "action": action}))
            outcome["games finished"] = outcome.get("games finished", 0) + 1

    await asyncio.gather(*(one(i) for i in range(games)))


async def run(args: argparse.Namespace, urls: list[str], pids: list[int]) -> None:
    bench = Bench(args.games)
    bench.deltas = args.deltas
    servers = args.metrics_url.split(",") if args.metrics_url else urls  # their /metrics
    pid = pids[0] if len(pids) == 1 else None
    rss_idle = rss_kib(pid) if pid else 0
    sem = asyncio.Semaphore(50)
    if True:
        t0 = time.perf_counter()
        tasks = [
            asyncio.create_task(
                one_game(
                    bench,
                    urls,
                    args.plies,
                    args.seed + i,
                    sem,
                    args.think_ms / 1000,
                    args.game,
                    json.loads(args.options),
                )
            )
            for i in range(args.games)
        ]
        ready = asyncio.create_task(bench.all_ready.wait())
        while not ready.done():
            done, _ = await asyncio.wait([ready, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                if t is not ready and t.exception() is not None:
                    raise SystemExit(f"a game failed before play: {t.exception()!r}")
            tasks = [t for t in tasks if not t.done()]
        attack, outcome = None, {}
        if args.flood_sockets:
            attack = asyncio.create_task(flood(urls[0], args.flood_sockets, args.flood_rate, outcome))
        bots, bot_outcome = None, {}
        if args.bot_games:
            bots = asyncio.create_task(bot_games(urls[0], args.bot_games, args.bot_level, bot_outcome))
        t_play = time.perf_counter()
        cpu_play = sum(cpu_s(p) for p in pids)
        client_play = time.process_time()
        gc_play = gc_pauses(servers)
        lag_play = loop_lags(servers)
        commit_play = commits(servers)
        rss_open = rss_kib(pid) if pid else 0
        print(f"{args.games} games open and ready in {t_play - t0:.1f} s", flush=True)
        await asyncio.gather(*tasks)
        t_end = time.perf_counter()
        if attack is not None:
            attack.cancel()
        if bots is not None:
            bots.cancel()
        cpu_used = sum(cpu_s(p) for p in pids) - cpu_play
        client_used = time.process_time() - client_play
        gc_end = gc_pauses(servers)
        lag_end = loop_lags(servers)
        commit_end = commits(servers)
        await asyncio.sleep(2.0)  # every socket has closed: the games stay in memory, idle
        rss_closed = rss_kib(pid) if pid else 0
    lat = sorted(bench.latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    print(f"game: {args.game} {args.options}; games: {args.games}, plies per game: {args.plies}, think time: "
          f"{args.think_ms} ms, errors: {bench.errors}"
          f"{f' ({bench.resends} actions sent again after «unavailable»)' if bench.resends else ''}")  # fmt: skip
    print(f"actions: {bench.actions} in {t_end - t_play:.1f} s → {bench.actions / (t_end - t_play):,.0f} actions/s")
    print(f"latency send → opponent's update: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms (n={len(lat)})")
    if lat:
        print(f"  mean {statistics.fmean(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    if bench.snapshots:
        print(f"snapshots in play: {bench.snapshots}, mean {bench.snapshot_bytes / bench.snapshots:,.0f} bytes"
              f"{f' ({bench.changes} with the view as a change, --deltas)' if bench.deltas else ''}")  # fmt: skip
    n_gc, s_gc, slow_gc = (b - a for a, b in zip(gc_play, gc_end, strict=True))
    if n_gc:
        print(f"full garbage collections during play: {n_gc:.0f}, {s_gc * 1000:.0f} ms in all, mean "
              f"{s_gc / n_gc * 1000:.0f} ms, {slow_gc:.0f} over 100 ms (admiral_gc_pause_seconds)")  # fmt: skip
    print(f"servers' event loops during play: {lag_summary(lag_play, lag_end)}")
    n_commits, n_moves = (b - a for a, b in zip(commit_play, commit_end, strict=True))
    if n_commits:
        print(f"moves stored during play: {n_moves:.0f} in {n_commits:.0f} transactions "
              f"({n_moves / n_commits:.2f} a transaction; admiral_moves_per_commit)")  # fmt: skip
    print(f"load client CPU during play: {client_used:.1f} s ({client_used / (t_end - t_play) * 100:.0f} % of a core)")
    if bots is not None:
        print(f"meanwhile {args.bot_games} games against AI level {args.bot_level}, answered at once: "
              f"{dict(sorted(bot_outcome.items()))}")  # fmt: skip
    if attack is not None:
        print(f"flood: {args.flood_sockets} sockets from {FLOOD_ADDRESS} on one game, setup.auto "
              f"{args.flood_rate:g}/s each: {dict(sorted(outcome.items()))}")  # fmt: skip
    if pids and bench.actions:
        print(f"instances: {len(pids)}")
        print(
            f"server CPU during play: {cpu_used:.1f} s → {cpu_used / bench.actions * 1000:.2f} ms per action "
            f"(one core would serve ~{bench.actions / cpu_used:,.0f} actions/s)"
        )
    if pid:
        per_game = (rss_open - rss_idle) / args.games
        print(f"server RSS: idle {rss_idle / 1024:.0f} MiB, {args.games} open games {rss_open / 1024:.0f} MiB "
              f"→ {per_game:.0f} KiB per open game")  # fmt: skip
        # The sockets' memory goes back to Python's allocator, not always to the system: an upper bound.
        closed = (rss_closed - rss_idle) / args.games
        print(f"  without sockets (after play, every socket closed, the games idle in memory): "
              f"{rss_closed / 1024:.0f} MiB → {closed:.0f} KiB per game at most")  # fmt: skip


async def lobby_load(args: argparse.Namespace, url: str, pids: list[int]) -> None:
    """The lobby load of ``--lobby`` (see the module docstring)."""
    ws_url = url.replace("http", "ws", 1) + "/ws/lobby"
    sample = min(args.lobby, args.lobby_sample)
    arrivals: dict[str, list[float]] = {}  # challenge id → when each sampled socket first listed it
    created: dict[str, float] = {}  # challenge id → when its POST was sent
    answered: list[float] = []  # each creation's POST round trip, s
    counts = {"messages": 0, "closed": 0, "refused": 0, "create errors": 0, "resends": 0}
    opened = asyncio.Event()
    state = {"open": 0}
    stop = asyncio.Event()

    async def observer(i: int) -> None:
        cookie = f"{COOKIE}={secrets.token_urlsafe(32)}"
        try:
            async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**24,
                                          local_addr=(player_address(i), 0), open_timeout=120) as ws:  # fmt: skip
                first = json.loads(await ws.recv())
                if first["type"] != "lobby":
                    counts["refused"] += 1
                    return
                state["open"] += 1
                if state["open"] == sample:
                    opened.set()
                async for raw in ws:
                    counts["messages"] += 1
                    if i >= sample:
                        continue  # every socket reads all its messages; the sampled ones also time them
                    now = time.perf_counter()
                    msg = json.loads(raw)
                    if msg["type"] == "challenges":
                        for e in msg["add"]:
                            arrivals.setdefault(e["id"], []).append(now)
                    elif msg["type"] == "lobby":
                        counts["resends"] += 1
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            if not stop.is_set():
                counts["closed"] += 1

    async def creator(n: int, http: httpx.AsyncClient) -> None:
        token = secrets.token_urlsafe(32)
        body = {"listing": "open", "time_control": ("5+3", "10+5", "15+10")[n % 3], "game": "admiral"}
        t0 = time.perf_counter()
        try:
            r = await request(http, f"{url}/games", json=body, headers={"cookie": f"{COOKIE}={token}"})
        except httpx.HTTPError:
            counts["create errors"] += 1
            return
        if r.status_code != 201:
            counts["create errors"] += 1
            return
        created[r.json()["game_id"]] = t0
        answered.append(time.perf_counter() - t0)

    t_open = time.perf_counter()
    # The sampled sockets live in this process; the others in --lobby-workers processes of their own that only
    # read their messages, so that this process's loop (the creations, the timing) is not starved by them.
    rest = args.lobby - sample
    workers, per = [], -(-rest // max(1, args.lobby_workers)) if rest else 0
    for k in range(args.lobby_workers if rest else 0):
        count = min(per, rest - k * per)
        if count <= 0:
            break
        workers.append(subprocess.Popen(
            [sys.executable, __file__, "--url", url, "--lobby-drain", str(count), "--lobby-offset",
             str(sample + k * per), "--lobby-seconds", str(args.lobby_seconds + 60)],
            stdout=subprocess.PIPE, text=True,
        ))  # fmt: skip
    sockets = [asyncio.create_task(observer(i)) for i in range(sample)]
    while not opened.is_set() and not all(t.done() for t in sockets):
        await asyncio.sleep(0.2)
    await asyncio.sleep(max(0.0, args.lobby / 200))  # the workers' sockets open meanwhile (≈200/s here)
    print(f"{state['open']} sampled lobby sockets open in {time.perf_counter() - t_open:.1f} s, {rest} more in "
          f"{len(workers)} worker processes", flush=True)  # fmt: skip
    cpu0 = sum(cpu_s(p) for p in pids)
    transports = [httpx.AsyncHTTPTransport(local_address=f"127.2.{k}.1") for k in range(16)]
    clients = [httpx.AsyncClient(timeout=30, transport=t) for t in transports]
    posts = []
    t_start = time.perf_counter()
    total = int(args.challenges_per_s * args.lobby_seconds)
    for n in range(total):
        delay = t_start + n / args.challenges_per_s - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        posts.append(asyncio.create_task(creator(n, clients[n % len(clients)])))
    await asyncio.gather(*posts)
    await asyncio.sleep(3.0)  # the last deltas arrive
    elapsed = time.perf_counter() - t_start
    cpu_used = sum(cpu_s(p) for p in pids) - cpu0
    stop.set()
    for t in sockets:
        t.cancel()
    for c in clients:
        await c.aclose()
    for w in workers:
        w.terminate()
        out, _ = w.communicate(timeout=30)
        try:
            got = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            got = {"messages": 0, "closed": 0, "opened": 0, "refused": 0}
        counts["messages"] += got["messages"]
        counts["closed"] += got["closed"]
        counts["refused"] += got["refused"]
        state["open"] += got["opened"]
    lat = sorted(at - created[i] for i, ats in arrivals.items() if i in created for at in ats)
    seen = sum(len(arrivals.get(i, ())) for i in created)
    missing = len(created) * sample - seen
    q = (lambda x: lat[min(len(lat) - 1, int(x * len(lat)))] * 1000) if lat else (lambda x: float("nan"))
    print(f"lobby: {state['open']} of {args.lobby} sockets open ({counts['refused']} refused), {len(created)} "
          f"challenges created in {args.lobby_seconds:g} s "
          f"({args.challenges_per_s:g}/s asked), {counts['create errors']} refused or failed")  # fmt: skip
    print(f"latency creation (POST sent) → listed on another socket: p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, "
          f"max {q(1.0):.1f} ms (n={len(lat)}: {sample} sampled sockets × challenges)")  # fmt: skip
    posts_s = sorted(answered)
    if posts_s:
        print(f"  of which the POST's own round trip: p50 {posts_s[len(posts_s) // 2] * 1000:.1f} ms, "
              f"p99 {posts_s[min(len(posts_s) - 1, int(0.99 * len(posts_s)))] * 1000:.1f} ms")  # fmt: skip
    print(f"never listed on a sampled socket: {missing}; whole-list resends: {counts['resends']}; sockets closed: "
          f"{counts['closed']}; messages received by all sockets: {counts['messages']:,}")  # fmt: skip
    if pids:
        print(f"server CPU meanwhile: {cpu_used:.1f} s in {elapsed:.1f} s ({cpu_used / elapsed * 100:.0f} % of a core)")
        if len(pids) == 1:
            print(f"server RSS: {rss_kib(pids[0]) / 1024:.0f} MiB")


async def drain_sockets(url: str, count: int, offset: int, seconds: float) -> None:
    """A worker of :func:`lobby_load`: ``count`` lobby sockets (addresses from ``offset`` on) that read every message
    until SIGTERM or ``seconds``; prints ``{"opened", "refused", "closed", "messages"}`` as JSON."""
    import signal

    ws_url = url.replace("http", "ws", 1) + "/ws/lobby"
    counts = {"opened": 0, "refused": 0, "closed": 0, "messages": 0}
    done = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, done.set)

    async def one(i: int) -> None:
        cookie = f"{COOKIE}={secrets.token_urlsafe(32)}"
        try:
            async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**24,
                                          local_addr=(player_address(i), 0), open_timeout=120) as ws:  # fmt: skip
                first = json.loads(await ws.recv())
                counts["opened" if first["type"] == "lobby" else "refused"] += 1
                async for _ in ws:
                    counts["messages"] += 1
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            if not done.is_set():
                counts["closed"] += 1

    tasks = [asyncio.create_task(one(offset + i)) for i in range(count)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), seconds)
    done.set()
    for t in tasks:
        t.cancel()
    print(json.dumps(counts), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", help="target a running server instead of starting one")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--plies", type=int, default=40, help="plies per game before South resigns")
    ap.add_argument("--game", default="admiral", help="the game's key in the registry (admiral.games.GAMES)")
    ap.add_argument("--options", default="{}", help='its room options as JSON, e.g. \'{"rules": "hasbro"}\'')
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean think time of a player before each action, ms (0: act as soon as the update arrives)",
    )
    ap.add_argument(
        "--metrics-url",
        help="with --url: the servers' own URLs (comma-separated) to read /metrics from, e.g. behind nginx",
    )
    ap.add_argument("--pids", help="with --url: the servers' process ids (comma-separated), for their CPU and RSS")
    ap.add_argument("--instances", type=int, default=1, help="servers to start (2+: sharing PostgreSQL + Redis)")
    ap.add_argument("--database-url", help="PostgreSQL admin URL (a fresh database is made there)")
    ap.add_argument("--redis-url", help="Redis URL the instances share")
    ap.add_argument(
        "--flood-sockets",
        type=int,
        default=0,
        help="during play, this many sockets from one address flood one game in setup (issue 16)",
    )
    ap.add_argument("--flood-rate", type=float, default=15.0, help="setup.auto per second on each flood socket")
    ap.add_argument(
        "--bot-games",
        type=int,
        default=0,
        help="during play, this many games against the AI run at once, answered at once (issue 16)",
    )
    ap.add_argument("--bot-level", type=int, default=5)
    ap.add_argument("--deltas", action="store_true", help="the players' sockets take views as changes (?delta=1)")
    ap.add_argument("--lobby", type=int, default=0, help="measure the lobby instead: this many lobby sockets")
    ap.add_argument("--challenges-per-s", type=float, default=100.0, help="open challenges made a second (--lobby)")
    ap.add_argument("--lobby-seconds", type=float, default=20.0, help="how long challenges are made (--lobby)")
    ap.add_argument("--lobby-sample", type=int, default=50, help="sockets whose arrival times are kept (--lobby)")
    ap.add_argument("--lobby-workers", type=int, default=3, help="processes holding the other sockets (--lobby)")
    ap.add_argument("--lobby-drain", type=int, default=0, help=argparse.SUPPRESS)  # a worker of --lobby
    ap.add_argument("--lobby-offset", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.lobby_drain:
        asyncio.run(drain_sockets(args.url.rstrip("/"), args.lobby_drain, args.lobby_offset, args.lobby_seconds))
        return
    if args.url:
        if args.lobby:
            asyncio.run(lobby_load(args, args.url.rstrip("/"), []))
            return
        pids = [int(p) for p in args.pids.split(",")] if args.pids else []
        uvloop.run(run(args, [u.rstrip("/") for u in args.url.split(",")], pids))
        return
    with tempfile.TemporaryDirectory(prefix="admiral-bench-") as tmp:
        extra: dict[str, str] = {}
        cleanup = None
        if args.instances > 1 or args.database_url:
            if not (args.database_url and args.redis_url) and args.instances > 1:
                raise SystemExit("--instances 2+ needs --database-url (PostgreSQL) and --redis-url")
            from sqlalchemy import create_engine, make_url, text

            from admiral.store import upgrade_database

            name = f"admiral_bench_{secrets.token_hex(4)}"
            admin = create_engine(args.database_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            db = make_url(args.database_url).set(database=name).render_as_string(hide_password=False)
            upgrade_database(db)
            extra = {"DATABASE_URL": db, "MIGRATE_ON_START": "0", "SECRET_KEY": "bench-" + secrets.token_hex(8)}
            if args.redis_url:
                extra["REDIS_URL"] = args.redis_url

            def cleanup() -> None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

        if args.lobby:  # every socket and creator is a browser and address of its own: the app's per-address caps
            extra.update({"RATE_SOCKETS": "100000/minute", "RATE_CHALLENGES": "100000/minute"})  # stay as they are
        servers = [start_server(Path(tmp), extra, f"server{i}") for i in range(max(1, args.instances))]
        try:
            if args.lobby:
                asyncio.run(lobby_load(args, servers[0][1], [p.pid for p, _ in servers]))
            else:
                uvloop.run(run(args, [u for _, u in servers], [p.pid for p, _ in servers]))
        finally:
            for proc, _ in servers:
                proc.terminate()
                proc.wait(timeout=20)
            if cleanup is not None:
                cleanup()


if __name__ == "__main__":
    main()
