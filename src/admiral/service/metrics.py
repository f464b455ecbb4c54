"""Prometheus metrics of the game service and its sockets (``GET /metrics`` exposes them).

The objects live in this module's :data:`REGISTRY`, one set per process (with the process, platform and
garbage-collector collectors prometheus-client usually registers by default): every app instance is scraped
on its own and Prometheus sums across instances. An own registry rather than the global one: importing this
file a second time under another name (doctests) makes a second set instead of a duplicate-name error.

Actions per second is not a metric here but a query over the counter: ``rate(admiral_actions_total[1m])``.

The service layer updates them with one-line calls; this module imports nothing of the web layer.

>>> before = ACTIONS.collect()[0].samples[0].value
>>> ACTIONS.inc(2)
>>> ACTIONS.collect()[0].samples[0].value - before
2.0
"""

from __future__ import annotations

import gc
import time

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)

__all__ = [
    "ACTIONS", "ACTION_LATENCY", "BOT_MOVE_SECONDS", "CATCH_UPS", "GC_PAUSE_SECONDS", "LOOP_LAG_SECONDS",
    "LOOP_TICK_S", "OPEN_GAMES", "REGISTRY", "SOCKETS",
]  # fmt: skip

#: Every metric of the app; ``GET /metrics`` exposes this registry.
REGISTRY = CollectorRegistry()
for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_collector)

#: Games held in memory by the service and not finished (waiting, setup or play); set at each scrape.
OPEN_GAMES = Gauge(
    "admiral_open_games", "Games cached by the service and not finished (waiting, setup, play).", registry=REGISTRY
)

#: WebSockets open on game pages (players and spectators) of this instance.
SOCKETS = Gauge(
    "admiral_sockets_connected", "Game WebSockets open on this instance (players and spectators).", registry=REGISTRY
)

#: Action rows written (players' and bots' actions, automatic declarations, ends: resign, flag, draw…).
ACTIONS = Counter("admiral_actions", "Actions applied and stored (one per action row written).", registry=REGISTRY)

#: Instances sharing the games: how a cached game caught up with another instance's change: ``event`` (the
#: event's delta applied in memory) or ``database`` (read back: a gap, an event without a delta, a resync).
CATCH_UPS = Counter(
    "admiral_catch_ups",
    "Cached games brought up to another instance's change, by source (event delta or database read).",
    ["source"],
    registry=REGISTRY,
)

#: From the service receiving a player's action to "changed" being published (lock wait, engine, commit).
ACTION_LATENCY = Histogram(
    "admiral_action_latency_seconds",
    "Seconds from a player's action reaching the game service to its publication.",
    registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)

#: How many games' moves each group commit stored in one transaction (:meth:`Store.append_actions_many`): under
#: load, the moves made in one turn of the event loop share a transaction (issue 23).
MOVES_PER_COMMIT = Histogram(
    "admiral_moves_per_commit",
    "Games' moves stored by one transaction (group commit).",
    registry=REGISTRY,
    buckets=(1, 2, 4, 8, 16, 32, 64, 128),
)

#: How long a bot thought about one action, by AI level (rules §12).
BOT_MOVE_SECONDS = Histogram(
    "admiral_bot_move_seconds",
    "Seconds a bot spent choosing one action, by AI level.",
    ["level"],
    registry=REGISTRY,
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0),
)

#: How long each garbage collection stopped the process, by generation (2: a full one, every object scanned):
#: what the event loop's latency tail is made of under many open games (issue 23; ``GC_FREEZE_S``).
GC_PAUSE_SECONDS = Histogram(
    "admiral_gc_pause_seconds",
    "Seconds each garbage collection stopped the process, by generation.",
    ["generation"],
    registry=REGISTRY,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
#: How late the event loop woke a task that sleeps :data:`LOOP_TICK_S` seconds at a time (issue 23): every socket's
#: message waits at least that long, so this is the server's own share of the latency tail a load client measures
#: (the rest is the network's and the client's). Observed by ``admiral.web.app``'s loop watch.
LOOP_LAG_SECONDS = Histogram(
    "admiral_event_loop_lag_seconds",
    "Seconds the event loop woke a 0.1 s sleep late.",
    registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
#: Seconds between two wake-ups of the loop watch (:data:`LOOP_LAG_SECONDS`).
LOOP_TICK_S = 0.1
_GC_PAUSES = tuple(GC_PAUSE_SECONDS.labels(generation=str(g)) for g in range(3))
_gc_started = 0.0


def _time_collections(phase: str, info: dict) -> None:
    """``gc.callbacks`` entry: a collection's start and stop, observed into :data:`GC_PAUSE_SECONDS`."""
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        _GC_PAUSES[info["generation"]].observe(time.perf_counter() - _gc_started)


gc.callbacks.append(_time_collections)
