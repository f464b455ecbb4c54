"""Where the bots think (rules §12): worker processes at a lower OS priority than the server.

A bot's search is pure Python: in a thread of the server's process it held the interpreter lock the event loop
needs, and twelve level-5 games thinking at once took other players' moves from 2 ms to 210 ms (p50) and 880 ms
(p99) (issue 16). In worker processes the bots share no lock with the server, and with a niceness of
``NICENESS`` the operating system gives the cores to the server first: human games keep their latency while the
bots take what is left. A bot is a small value (a level-5 bot pickles to about 5 KiB in 0.2 ms), so it travels
to the worker with its view and comes back with its memory: the workers keep nothing, any worker serves any
game, and a worker that dies loses no game (the pool is made anew and the turn tried again).

>>> pool = make_pool(1, processes=False)
>>> from admiral.games.admiral import AdmiralRuleset
>>> rules = AdmiralRuleset()
>>> bot = rules.new_bot(1, seed=3)
>>> setups = {"south": rules.bot_setup(bot, "south"), "north": rules.bot_setup(rules.new_bot(1, 4), "north")}
>>> game = rules.new_game(setups, {"game_id": "doc"})
>>> notation, bot, _started = pool.submit(think, rules, bot, rules.bot_view(game, "south", 0), 0.05).result()
>>> rules.apply(game, notation).actor
'south'
>>> pool.shutdown()
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import threading
import time
from typing import Any

__all__ = ["NICENESS", "catch_up", "make_pool", "think"]

#: How much lower than the server the bot workers run (``nice``: 0 normal, 19 lowest).
NICENESS = 10


def think(rules: Any, bot: Any, view: Any, deadline_s: float) -> tuple[str, Any, float]:
    """In a worker: the bot's action for ``view`` (``rules.bot_act``, about ``deadline_s`` seconds), the bot as
    it is after it (its memory of the view), and when the worker took the job up (``time.monotonic()``, which on
    Linux is one clock for every process of the machine: the time the job waited for a worker before that is
    the server's, not the bot's)."""
    started = time.monotonic()
    return rules.bot_act(bot, view, deadline_s), bot, started


def catch_up(rules: Any, bot: Any, game: Any, side: str) -> tuple[int, Any, float]:
    """In a worker: show a fresh bot its side's views along the game so far (``rules.bot_catch_up``); returns
    the ply it has seen up to, the bot, and when the worker took the job up (as :func:`think`)."""
    started = time.monotonic()
    return rules.bot_catch_up(bot, game, side), bot, started


#: Seconds between a worker's checks that the server that made it still runs.
WATCH_S = 1.0


def _start_worker(server_pid: int) -> None:
    """Worker initializer: run below the server (raising one's own niceness needs no privilege), and end when
    the server does. A pool's worker does not notice its server's death by itself (it holds both ends of its
    task queue, so it waits on it forever): without this, workers outlived their server after a SIGTERM."""
    try:
        os.nice(NICENESS)
    except OSError:  # pragma: no cover - a platform without nice
        pass

    def watch() -> None:
        while True:
            time.sleep(WATCH_S)
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # pragma: no cover - the pid was taken by another user's process
                os._exit(0)

    threading.Thread(target=watch, name="admiral-bot-watch", daemon=True).start()


def make_pool(workers: int, *, processes: bool = True) -> concurrent.futures.Executor:
    """An executor for :func:`think` and :func:`catch_up`: ``workers`` processes at niceness ``NICENESS`` (started
    from a fork server with the engine and the bots already imported, so a new worker costs milliseconds), or
    ``workers`` threads of this process with ``processes=False`` (tests that watch a bot from inside)."""
    if not processes:
        return concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="admiral-bot")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["admiral.games", "admiral.service.botpool"])
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=max(1, workers), mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )
