"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright (sync API).

Never runs ``playwright install``: the browser is ``/usr/bin/chromium``. Screenshots go to
``artifacts/e2e/`` (gitignored). ``ADMIRAL_E2E_URL`` points the tests at a server already running.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"the server did not answer /healthz within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def server_database(tmp_path_factory: pytest.TempPathFactory) -> str | None:
    """The ``DATABASE_URL`` of the test server :func:`server_url` starts (a fresh SQLite file), for a test that seeds
    what a person cannot make in a few clicks (a commander's career) through the app's own stores; ``None`` when
    ``ADMIRAL_E2E_URL`` points at a server running elsewhere."""
    if os.environ.get("ADMIRAL_E2E_URL"):
        return None
    return f"sqlite:///{tmp_path_factory.mktemp('e2e-data') / 'admiral.db'}"


def check_can_serve() -> None:
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="browser tests need playwright (Python)")
    try:
        import admiral.web.app  # noqa: F401
    except ImportError as e:
        pytest.skip(f"the web server is not importable yet: {e}")


@contextmanager
def run_server(database_url: str, **extra_env: str) -> Iterator[str]:
    """A real «Адмирал» server (uvicorn on a free port) on ``database_url`` with the tests' settings and
    ``extra_env``; yields its base URL and stops it afterwards."""
    data = Path(database_url.removeprefix("sqlite:///")).parent
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "ENVIRONMENT": "development",
        "TEST_TIME_CONTROLS": "1",  # lets a test create a game with a clock of seconds (JSON base_ms)
        "RATE_GAMES": "1000/minute",  # the tests create games faster than a person
        # every browser of the tests comes from 127.0.0.1: the per-address budgets are raised, the per-seat
        # cap lowered (test_comfort.py opens one tab too many)
        "RATE_SOCKETS": "1000/minute",
        "RATE_PAGES": "10000/minute",
        "WS_MAX_PER_ADDRESS": "1000",
        "WS_MAX_RATE_PER_ADDRESS": "1000",
        "WS_MAX_PER_SEAT": "3",
        # every test's guest is a new commander, but all come from one address: its cap on unfinished games
        # against the AI (default 6) would refuse the suite's later ones
        "MAX_BOT_GAMES_PER_ADDRESS": "1000",
        # the suite registers more commanders (rating, offers, history) and opens more challenges than a person
        "RATE_REGISTER": "1000/minute",
        "RATE_CHALLENGES": "1000/minute",
        "PYTHONUNBUFFERED": "1",
        **extra_env,
    }
    log = data / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "admiral.web.app:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=data, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def server_url(server_database: str | None) -> Iterator[str]:
    """Base URL of a real «Адмирал» server (uvicorn, a fresh SQLite database in a temporary directory)."""
    if server_database is None:
        yield os.environ["ADMIRAL_E2E_URL"].rstrip("/")
        return
    check_can_serve()
    with run_server(server_database) as url:
        yield url


@pytest.fixture(scope="session")
def browser(server_url: str):
    """One headless Chromium for the session."""
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright (Python)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def shots() -> Path:
    """Directory for screenshots (test artifacts)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def page_errors():
    """Collects uncaught page errors and anything the Content-Security-Policy refused (a console error: "Refused to
    …"); a test asserts it stays empty."""
    errors: list[str] = []

    def console(name: str, message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(f"{name}: {message.text}")

    def watch(page, name: str):
        page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        page.on("console", lambda m: console(name, m))
        return page

    watch.errors = errors
    return watch
