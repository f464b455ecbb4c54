"""Operations (issue 6): ``/healthz``, ``/readyz``, ``/metrics``, JSON log lines and the ``serve`` options a
deployment behind a proxy needs."""

from __future__ import annotations

import io
import json
import logging
import socket
import time
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from admiral import cli
from admiral.service.session.live import GameLog
from admiral.web import Settings

from .conftest import live_game, pick_action, snapshot
from .test_ai import ai_game, my_turn, ready


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The shared settings with bots answering at once and no message-rate cap (as in test_ai.py)."""
    return Settings(
        _env_file=None, database_url=db_url, claim_grace_ms=200, sweep_interval_s=0.2, test_time_controls=True,
        bot_delay_ms=0, ws_max_rate=1000,
    )  # fmt: skip


# -- health and readiness --------------------------------------------------------------------------------


def test_healthz_says_the_process_is_up(client) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_readyz_with_the_database_up(client, settings: Settings) -> None:
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ready", "database": "ok", "redis": "ok" if settings.redis_url else "off"}


def test_readyz_is_503_when_the_database_is_unreachable(client, monkeypatch) -> None:
    def refuse(*_a: Any, **_kw: Any):
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(client.app.state.engine, "connect", refuse)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "unready" and body["database"] == "fail"
    assert body["errors"]["database"] == "OperationalError"
    assert "refused" not in r.text  # the class only: a driver's message may hold the connection string
    monkeypatch.undo()
    assert client.get("/readyz").status_code == 200  # ready again once the database answers


def test_readyz_is_503_when_redis_is_unreachable(client, monkeypatch) -> None:
    # Port 1 on loopback: nothing listens, the connection is refused at once.
    settings = client.app.state.settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"})
    monkeypatch.setattr(client.app.state, "settings", settings)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert (body["status"], body["database"], body["redis"]) == ("unready", "ok", "fail")
    assert body["errors"] == {"redis": "ConnectionError"}


def _redis_up(host: str = "127.0.0.1", port: int = 6379) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.mark.skipif(not _redis_up(), reason="no Redis on 127.0.0.1:6379 (CI starts one)")
def test_readyz_pings_redis(client, monkeypatch) -> None:
    settings = client.app.state.settings.model_copy(update={"redis_url": "redis://127.0.0.1:6379/0"})
    monkeypatch.setattr(client.app.state, "settings", settings)
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready", "database": "ok", "redis": "ok"}


# -- metrics ---------------------------------------------------------------------------------------------


def scrape(client) -> dict[tuple[str, tuple], float]:
    """``GET /metrics`` parsed: (sample name, sorted labels) → value."""
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_a_friend_games_actions(client, browsers) -> None:
    before = scrape(client)
    with live_game(browsers) as live:
        start = live.snaps["south"]["game"]["version"]
        during = scrape(client)
        assert value(during, "admiral_open_games") == 1
        assert value(during, "admiral_sockets_connected") - value(before, "admiral_sockets_connected") == 2
        played = 0
        for _ in range(6):
            live.act(live.snaps["south"]["view"]["to_act"])
            played += 1
        live.sws.send_json({"type": "resign"})
        end = snapshot(live.sws, status="over")["game"]["version"]
        after = scrape(client)
    # One action row per submitted action (nobody auto-declares here), plus the resignation.
    assert end - start == played + 1
    assert value(after, "admiral_actions_total") - value(before, "admiral_actions_total") == played + 1
    # The latency histogram times submitted actions (a resignation is not one): exactly ``played`` samples.
    latency = value(after, "admiral_action_latency_seconds_count") - value(
        before, "admiral_action_latency_seconds_count"
    )
    assert latency == played
    assert value(after, "admiral_action_latency_seconds_sum") > value(before, "admiral_action_latency_seconds_sum")
    assert (
        value(after, "admiral_action_latency_seconds_bucket", le="+Inf")
        - value(before, "admiral_action_latency_seconds_bucket", le="+Inf")
        == played
    )
    assert value(after, "admiral_open_games") == 0  # over: no longer open
    deadline = time.monotonic() + 5  # the server's socket handlers finish after the client closes
    while value(scrape(client), "admiral_sockets_connected") != value(before, "admiral_sockets_connected"):
        assert time.monotonic() < deadline, "the sockets gauge did not come back down"
        time.sleep(0.02)


def test_metrics_time_the_bots_moves_by_level(client, browsers) -> None:
    before = scrape(client)
    b = browsers()
    game_id = ai_game(b, level=1, side="south")
    human = 0
    with b.ws(game_id) as ws:
        snap = ready(ws)
        start = snap["game"]["version"]
        for _ in range(5):
            assert snap["game"]["status"] == "play"
            ws.send_json(
                {
                    "type": "action",
                    "ply": snap["game"]["version"],
                    "action": pick_action(snap["view"]["legal"], "south"),
                }
            )
            human += 1
            snap = my_turn(ws, "south")
        end = snap["game"]["version"]
    after = scrape(client)
    bot_moves = end - start - human
    assert bot_moves >= 5
    name = "admiral_bot_move_seconds_count"
    assert value(after, name, level="1") - value(before, name, level="1") == bot_moves
    assert value(after, "admiral_bot_move_seconds_sum", level="1") > value(
        before, "admiral_bot_move_seconds_sum", level="1"
    )
    assert value(after, "admiral_actions_total") - value(before, "admiral_actions_total") == end - start


# -- logs ------------------------------------------------------------------------------------------------


def test_json_log_lines_carry_the_game_id() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(cli.JsonFormatter())
    logger = logging.getLogger("admiral.test_ops")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        GameLog(logger, {"game_id": "Zq7x"}).warning("ply=%s side=%s action=%s", 4, "south", "e4-e5")
        logger.info("started «Адмирал»")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    first, second, third = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["game_id"] == "Zq7x" and first["level"] == "WARNING" and first["logger"] == "admiral.test_ops"
    assert first["message"] == "game=Zq7x ply=4 side=south action=e4-e5"
    assert first["time"].endswith("+00:00") and "T" in first["time"]
    assert "game_id" not in second and second["message"] == "started «Адмирал»"
    assert third["level"] == "ERROR" and "ValueError: boom" in third["exc_info"]


def test_serve_applies_log_format_and_trusted_proxies(monkeypatch) -> None:
    import uvicorn

    ran: dict[str, Any] = {}
    formats: list[tuple[str, str]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(kw))
    monkeypatch.setattr(cli, "_configure_logging", lambda *a: formats.append(a))
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.0/8")
    result = CliRunner().invoke(cli.app, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert formats == [("json", "DEBUG")]
    assert ran["proxy_headers"] is True and ran["forwarded_allow_ips"] == "10.0.0.0/8" and ran["port"] == 8123
    result = CliRunner().invoke(cli.app, ["serve", "--forwarded-allow-ips", "*"])
    assert result.exit_code == 0 and ran["forwarded_allow_ips"] == "*"


def test_a_line_per_ply_only_at_debug(browsers, caplog) -> None:
    """Issue 23 (a log line per ply was 3.5 % of a move's time): ``LOG_LEVEL=DEBUG`` logs each ply with its
    actor and notation; at ``INFO`` (the default) no line is written for a move."""
    with live_game(browsers) as live:
        with caplog.at_level(logging.INFO, logger="admiral.game"):
            live.act("south")
        assert not [r for r in caplog.records if "ply=" in r.getMessage()]
        with caplog.at_level(logging.DEBUG, logger="admiral.game"):
            live.act("north")
        lines = [r.getMessage() for r in caplog.records if "ply=" in r.getMessage()]
        assert len(lines) == 1 and lines[0].startswith(f"game={live.id} ply=1 side=north action=")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_freezer_moves_the_living_out_of_sight_and_gives_them_back(
    monkeypatch, anyio_backend, caplog
) -> None:
    """Issue 23 (``GC_FREEZE_S``, ``GC_THAW_S``): every interval what is alive is frozen; after the thaw interval
    it is unfrozen and collected once, then frozen again, and the log says what the thaw found; ``0`` never
    freezes. The defaults freeze every 5 s and thaw every 10 minutes."""
    import asyncio

    from admiral.web import Settings
    from admiral.web import app as app_module

    assert (Settings.model_fields["gc_freeze_s"].default, Settings.model_fields["gc_thaw_s"].default) == (5.0, 600.0)
    calls: list[str] = []
    for name in ("freeze", "unfreeze", "collect"):
        monkeypatch.setattr(app_module.gc, name, lambda name=name: calls.append(name) or 7)
    caplog.set_level(logging.INFO, logger="admiral.web")
    await app_module._freeze_forever(0, 1.0)
    assert calls == []
    task = asyncio.create_task(app_module._freeze_forever(0.01, 0.025))
    for _ in range(500):  # a starved loop wakes the task less often: wait for what must happen, 5 s at most
        if calls.count("freeze") >= 3 and calls.count("unfreeze") >= 1:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls.count("freeze") >= 3 and calls.count("unfreeze") >= 1
    for i, name in enumerate(calls):
        if name == "unfreeze":
            assert calls[i + 1 : i + 3] == ["collect", "freeze"]
    thaws = [r.getMessage() for r in caplog.records if r.getMessage().startswith("gc thaw:")]
    assert thaws and thaws[0].startswith("gc thaw: 7 unreachable objects collected in ")


def test_each_garbage_collection_is_timed_by_generation() -> None:
    """Issue 23: ``admiral_gc_pause_seconds`` counts every collection by generation, a full one as ``2``."""
    import gc

    from admiral.service import metrics

    def full() -> tuple[float, float]:
        samples = {s.name: s.value for s in metrics.GC_PAUSE_SECONDS.collect()[0].samples
                   if s.labels.get("generation") == "2" and "le" not in s.labels}  # fmt: skip
        return samples["admiral_gc_pause_seconds_count"], samples["admiral_gc_pause_seconds_sum"]

    count, seconds = full()
    gc.collect()
    gc.collect()
    after, after_s = full()
    assert after >= count + 2 and after_s > seconds  # another thread may have collected meanwhile


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_loop_watch_times_how_late_the_event_loop_wakes(anyio_backend) -> None:
    """Issue 23: ``admiral_event_loop_lag_seconds`` takes one sample per wake-up of the loop watch, and a loop
    blocked for 80 ms (what a long collection or a blocking call does) shows as a wake-up late by 50 ms or more."""
    import asyncio

    from admiral.service import metrics
    from admiral.web import app as app_module

    def counts() -> tuple[float, float]:
        samples = {(s.name, s.labels.get("le")): s.value for s in metrics.LOOP_LAG_SECONDS.collect()[0].samples}
        return samples["admiral_event_loop_lag_seconds_count", None], samples[
            "admiral_event_loop_lag_seconds_bucket", "0.05"
        ]

    count, quick = counts()
    task = asyncio.create_task(app_module._watch_loop(0.01))
    try:
        await asyncio.sleep(0.005)
        time.sleep(0.08)  # the loop blocked: the watch's 10 ms sleep ends 70 ms late at least
        for _ in range(500):
            await asyncio.sleep(0.01)
            if counts()[0] >= count + 3:
                break
    finally:
        task.cancel()
    after, after_quick = counts()
    assert after >= count + 3
    assert after - count - (after_quick - quick) >= 1  # at least one wake-up over 50 ms late
