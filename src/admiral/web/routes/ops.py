"""Operations: ``/healthz`` (the process is up), ``/readyz`` (its database and Redis answer), ``/metrics``
(Prometheus). README "Deploy" describes them.

A load balancer sends traffic only to instances whose ``/readyz`` answers 200; an orchestrator restarts a
container whose ``/healthz`` stops answering. ``/metrics`` is per instance (the registry of
:mod:`admiral.service.metrics`): scrape every instance directly, not through the proxy.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import Engine, text

from admiral.service import metrics

__all__ = ["READY_TIMEOUT_S", "router"]

router = APIRouter(tags=["ops"])
log = logging.getLogger("admiral.web")

#: How long each readiness check may take before it counts as failed, seconds.
READY_TIMEOUT_S = 2.0


@router.get("/healthz", tags=["api"])
async def healthz() -> dict[str, str]:
    """Liveness: ``{"status": "ok"}``."""
    return {"status": "ok"}


def _select_one(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def _check_database(engine: Engine) -> None:
    # The engine is synchronous: a worker thread, so a database that hangs does not stall the event loop.
    await asyncio.wait_for(asyncio.to_thread(_select_one, engine), READY_TIMEOUT_S)


async def _check_redis(url: str) -> None:
    import redis.asyncio as aioredis

    client = aioredis.from_url(url, socket_connect_timeout=READY_TIMEOUT_S, socket_timeout=READY_TIMEOUT_S)
    try:
        await asyncio.wait_for(client.ping(), READY_TIMEOUT_S)
    finally:
        await client.aclose()


@router.get("/readyz", tags=["api"], response_model=None)
async def readyz(request: Request) -> dict[str, Any] | JSONResponse:
    """Readiness: ``200 {"status": "ready", "database": "ok", "redis": "ok" | "off"}`` when ``SELECT 1``
    answers through the app's engine and, with ``REDIS_URL`` set, Redis answers ``PING``; otherwise ``503``
    with ``"status": "unready"`` and ``"fail"`` for each check that failed (its exception class in
    ``"errors"``; never the message, which may hold a connection string)."""
    settings = request.app.state.settings
    engine = getattr(request.app.state, "engine", None)
    checks: dict[str, str] = {"database": "ok", "redis": "off"}
    errors: dict[str, str] = {}
    try:
        if engine is None:
            raise RuntimeError("not started")
        await _check_database(engine)
    except Exception as e:
        checks["database"], errors["database"] = "fail", type(e).__name__
    if settings.redis_url:
        try:
            await _check_redis(settings.redis_url)
            checks["redis"] = "ok"
        except Exception as e:
            checks["redis"], errors["redis"] = "fail", type(e).__name__
    if errors:
        log.warning("not ready: %s", ", ".join(f"{k}={v}" for k, v in errors.items()))
        return JSONResponse({"status": "unready", **checks, "errors": errors}, status_code=503)
    return {"status": "ready", **checks}


@router.get("/metrics", tags=["api"])
async def prometheus_metrics(request: Request) -> Response:
    """The Prometheus text exposition of this instance (see :mod:`admiral.service.metrics`)."""
    service = getattr(request.app.state, "service", None)
    if service is not None:
        metrics.OPEN_GAMES.set(sum(1 for g in list(service.games.values()) if g.active))
    return Response(generate_latest(metrics.REGISTRY), media_type=CONTENT_TYPE_LATEST)
