"""The bots' worker processes (issue 16, :mod:`admiral.service.botpool`): bots answer from processes of their own,
below the server's priority, and the workers end with the server. (Stopped while its bots had work queued, the
server left its workers behind, each waiting on its task queue for good and holding a core's share.)"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _marked(marker: str) -> dict[int, int]:
    """Processes whose environment holds ``marker``: pid → niceness."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[16])
        except OSError:
            continue
    return found


def _wait(pred, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _play(port: int, answers: list[int], stop: threading.Event) -> None:
    """A game against level 5 from South, answered at once, until ``stop`` or the socket closes."""
    from websockets.sync.client import connect

    cookie = {"cookie": f"admiral_browser={secrets.token_urlsafe(32)}"}
    game = httpx.post(f"http://127.0.0.1:{port}/games", json={"opponent": "ai", "ai_level": 5, "side": "south"},
                      headers=cookie)  # fmt: skip
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game.json()['game_id']}", additional_headers=cookie) as ws:
            ws.send(json.dumps({"type": "setup.auto", "setup": {}}))
            while not stop.is_set():
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] == "setup.state" and not msg["ready"]:
                    ws.send(json.dumps({"type": "setup.ready", "setup": msg["draft"]}))
                view = msg.get("view") if msg["type"] == "snapshot" else None
                if view and view["to_act"] == "south" and msg["game"]["status"] == "play":
                    answers.append(msg["game"]["version"])
                    move = next(a["notation"] for a in view["legal"] if a["type"] == "move")
                    ws.send(json.dumps({"type": "action", "ply": msg["game"]["version"], "action": move}))
    except Exception:  # the server stopped under it
        return


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
def test_bots_think_in_lower_priority_processes_that_end_with_the_server(tmp_path, how) -> None:
    marker = ("ADMIRAL_TEST_MARK", secrets.token_hex(6))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}", "BOT_DELAY_MS": "0", marker[0]: marker[1]}
    server = subprocess.Popen([sys.executable, "-c", "from admiral.cli import app; app()", "serve", "--port",
                               str(port)], env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    mark = "=".join(marker)
    stop, answers = threading.Event(), []
    players = [threading.Thread(target=_play, args=(port, answers, stop)) for _ in range(6)]
    try:
        # a busy machine (CI runs beside other suites) may take a while to migrate a new database and start
        assert _wait(lambda: _answers(f"http://127.0.0.1:{port}/healthz"), 60)
        for p in players:  # six games for two workers: the bots' queue is never empty
            p.start()
        assert _wait(lambda: len(answers) >= 30, 60)
        workers = {pid: nice for pid, nice in _marked(mark).items() if pid != server.pid}
        base = os.getpriority(os.PRIO_PROCESS, server.pid)  # the test run's own niceness (0, or more under `nice`)
        # beside the fork server (at the server's niceness): two workers 10 below it — or at 19, the floor, which a
        # run already under `nice -n 10` or more shares with the server's own processes
        lowered = [n for n in workers.values() if n == min(19, base + 10)]
        assert len(lowered) == 2 if base + 10 <= 18 else len(lowered) >= 2, (base, workers)
    finally:
        server.send_signal(how)  # while the bots think
        try:
            server.wait(15)
        finally:
            if server.poll() is None:
                server.kill()
        stop.set()
        for p in players:
            if p.is_alive():
                p.join(10)
    assert _wait(lambda: _marked(mark) == {}), _marked(mark)
