"""The production topology on one machine, for the cluster tests and the load benchmark: app instances as real
``uvicorn`` processes sharing PostgreSQL and Redis, and Debian's ``nginx`` in front of them running the project's
own ``deploy/nginx.conf`` inside its ``deploy/nginx-main.conf`` (only the replicas' addresses, the port and the
paths replaced), as a non-root process on a free loopback port.

Also a command, to run the topology by hand (for ``bench/ws_load.py --url``; PostgreSQL and Redis required)::

    .venv/bin/python -m tests.cluster.topology --database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres \\
        --redis-url redis://127.0.0.1:6379/0 --instances 2

It makes a fresh database, prints nginx's URL, and stops everything (dropping the database) on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
NGINX_MAIN_CONF = ROOT / "deploy" / "nginx-main.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, log: Path, name: str, seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{name} not ready:\n{log.read_text()[-3000:]}")


class Instance:
    """One ``admiral serve`` process (uvicorn) of the app on a free port of 127.0.0.1, with the settings of
    a replica in docker-compose.yml (test time controls on, limits for one test machine); ``env`` adds or
    overrides settings."""

    def __init__(self, db_url: str, redis_url: str, secret: str, workdir: Path, name: str, **env: str) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.address = f"127.0.0.1:{self.port}"
        self.log = workdir / f"{name}.log"
        environment = {
            **os.environ, "DATABASE_URL": db_url, "REDIS_URL": redis_url, "SECRET_KEY": secret,
            "ENVIRONMENT": "development", "MIGRATE_ON_START": "0", "TEST_TIME_CONTROLS": "1",
            "SWEEP_INTERVAL_S": "0.3", "RATE_LIMIT_STORAGE": "memory://", "PYTHONUNBUFFERED": "1",
            "RATE_GAMES": "1000/minute", **env,
        }  # fmt: skip
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(  # `admiral serve`: the server as it ships (uvicorn's settings included)
                [sys.executable, "-c", "from admiral.cli import app; app()", "serve", "--port", str(self.port)],
                cwd=workdir, env=environment, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        _wait_ready(self.url + "/readyz", self.proc, self.log, name)

    def kill(self) -> None:
        """``kill -9``: no shutdown, no checkpoint, nothing released."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Nginx:
    """Debian's nginx running ``deploy/nginx.conf`` (inside ``deploy/nginx-main.conf``) in front of ``upstreams``
    (``host:port`` of two instances, in place of compose's ``app1:8000`` and ``app2:8000``) on a free loopback
    port, as a non-root process: its pid file, logs and temporary files live in ``workdir``.

    :raises RuntimeError: nginx is missing, refuses the configuration, or does not answer."""

    def __init__(self, upstreams: list[str], workdir: Path) -> None:
        if NGINX is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.access_log = workdir / "nginx-access.log"
        self.error_log = workdir / "nginx-error.log"
        site = NGINX_CONF.read_text()
        replacements = {
            "server app1:8000": f"server {upstreams[0]}",
            "server app2:8000": f"server {upstreams[1]}",
            "listen 80;": f"listen 127.0.0.1:{self.port};",
            "/var/log/nginx/access.log": str(self.access_log),
            "/var/log/nginx/error.log": str(self.error_log),
        }
        for old, new in replacements.items():
            if old not in site:
                raise RuntimeError(f"deploy/nginx.conf no longer has {old!r}: update tests/cluster/topology.py")
            site = site.replace(old, new)
        (workdir / "site.conf").write_text(site)
        main = NGINX_MAIN_CONF.read_text()
        user = "user root root;" if os.geteuid() == 0 else ""  # the workers read and write in workdir
        replacements = {
            "user nginx;": user,
            "pid /var/run/nginx.pid;": f"pid {workdir}/nginx.pid;",
            "error_log /var/log/nginx/error.log notice;": f"error_log {self.error_log} info;",
            "include /etc/nginx/conf.d/*.conf;": (
                f"client_body_temp_path {workdir}/body; proxy_temp_path {workdir}/proxy;\n"
                f"    fastcgi_temp_path {workdir}/fastcgi; uwsgi_temp_path {workdir}/uwsgi;\n"
                f"    scgi_temp_path {workdir}/scgi;\n    include {workdir}/site.conf;"
            ),
        }
        for old, new in replacements.items():
            if old not in main:
                raise RuntimeError(f"deploy/nginx-main.conf no longer has {old!r}: update tests/cluster/topology.py")
            main = main.replace(old, new)
        (workdir / "nginx.conf").write_text(main)
        log = workdir / "nginx-stdout.log"
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [NGINX, "-c", str(workdir / "nginx.conf"), "-p", str(workdir), "-g", "daemon off;"],
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        _wait_ready(self.url + "/healthz", self.proc, log, "nginx", 15)

    def stop(self) -> None:
        """Stop nginx (SIGQUIT: graceful; SIGKILL after 5 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Player:
    """A browser: a token cookie valid on every instance, HTTP through httpx, a socket through websockets; from
    loopback ``address`` (any of ``127/8``; default 127.0.0.1), so per-address limits can tell players apart."""

    def __init__(self, address: str = "127.0.0.1") -> None:
        self.token = secrets.token_urlsafe(32)
        self.address = address
        self.ws: Any = None

    @property
    def cookie(self) -> str:
        return f"admiral_browser={self.token}"

    def request(self, method: str, base: str, path: str, **kw: Any):
        """An HTTP request to ``base + path`` with this browser's cookie (no redirects followed)."""
        import httpx

        headers = {"cookie": self.cookie, **kw.pop("headers", {})}
        with httpx.Client(transport=httpx.HTTPTransport(local_address=self.address), timeout=10) as http:
            return http.request(method, base + path, headers=headers, follow_redirects=False, **kw)

    def post(self, base: str, path: str, **kw: Any):
        return self.request("POST", base, path, **kw)

    def get(self, base: str, path: str, **kw: Any):
        return self.request("GET", base, path, **kw)

    def connect(self, server: Instance | Nginx, game_id: str) -> dict:
        """Open this browser's socket on ``server``; returns the first snapshot."""
        self.ws = self.open_socket(server, game_id)
        return self.until(lambda m: m["type"] == "snapshot")

    def open_socket(self, server: Instance | Nginx, game_id: str) -> Any:
        """A new socket of this browser on ``server`` (not kept: the caller reads and closes it).

        :raises websockets.exceptions.InvalidStatus: the handshake was refused (nginx's 429)."""
        from websockets.sync.client import connect

        return connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", additional_headers={"cookie": self.cookie},
                       open_timeout=10, source_address=(self.address, 0))  # fmt: skip

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def until(self, pred, timeout: float = 15.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("expected message did not arrive")
            msg = json.loads(self.ws.recv(timeout=left))
            if pred(msg):
                return msg

    def at(self, version: int) -> dict:
        return self.until(lambda m: m["type"] == "snapshot" and m["game"]["version"] >= version)

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:
                pass
            self.ws = None


def main() -> None:
    """Run N instances on a fresh PostgreSQL database and Redis behind nginx until Ctrl-C."""
    ap = argparse.ArgumentParser(description="N app instances sharing PostgreSQL + Redis behind nginx")
    ap.add_argument("--database-url", required=True, help="PostgreSQL admin URL (a fresh database is made there)")
    ap.add_argument("--redis-url", required=True)
    ap.add_argument("--instances", type=int, default=2, choices=(1, 2), help="behind nginx (compose has two)")
    args = ap.parse_args()
    from sqlalchemy import create_engine, make_url, text

    from admiral.store import upgrade_database

    name = f"admiral_topology_{secrets.token_hex(4)}"
    admin = create_engine(args.database_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    db = make_url(args.database_url).set(database=name).render_as_string(hide_password=False)
    upgrade_database(db)
    secret = "topology-" + secrets.token_hex(16)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a SIGTERM stops it as Ctrl-C does, cleaning up
    with tempfile.TemporaryDirectory(prefix="admiral-topology-") as tmp:
        work = Path(tmp)
        instances: list[Instance] = []
        proxy = None
        try:
            instances = [Instance(db, args.redis_url, secret, work, f"app{i + 1}") for i in range(args.instances)]
            proxy = Nginx([instances[0].address, instances[-1].address], work)
            print(f"nginx {proxy.url} → {', '.join(i.url for i in instances[:2])} (logs in {work})", flush=True)
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            if proxy is not None:
                proxy.stop()
            for inst in instances:
                inst.stop()
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
