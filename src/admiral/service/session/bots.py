"""The bots runner (rules §12): a bot's seat sets up at once; on its turn it gets its side's view (never the true
state), thinks in a worker (:mod:`admiral.service.botpool`) and its action is committed like a player's."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any

from admiral.store import GameSeatRow

from .. import botpool, metrics, snapshot
from ..errors import ServiceError
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    T,
    log,
)


class BotsMixin(SessionBase):
    """The bots runner: set-up, turns in a worker, the pause and the think budget (a part of
    :class:`~admiral.service.session.GameService`)."""

    def _set_up_bots(self, g: LiveGame, seats: list[GameSeatRow]) -> None:
        """Let the bots of a new game set up (rules §3): their seats' drafts are filled and ready, in the
        rows about to be written and in ``g``."""
        for row in seats:
            level = g.seats[row.side].bot_level
            if level is None:
                continue
            bot = g.bots[row.side] = g.rules.new_bot(level, g.seed ^ SIDES.index(row.side), g.settings.options)
            row.draft, row.ready = g.rules.bot_setup(bot, row.side), True
            g.seats[row.side].draft, g.seats[row.side].ready = dict(row.draft), True

    def _drive_bots(self, g: LiveGame) -> None:
        """Start a bot turn if a bot must act in ``g`` and none is under way (see the module docstring)."""
        if g.status != "play" or g.game is None:
            return
        side = g.rules.to_act(g.game)
        if side is None or g.seats[side].bot_level is None:
            return
        running = g.bot_task
        if running is not None and not running.done() and running is not asyncio.current_task():
            return
        g.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(g, side), name=f"admiral-bot-{g.id}")
        self._tasks.add(g.bot_task)
        g.bot_task.add_done_callback(self._tasks.discard)

    def _bot_pause(self, g: LiveGame, side: str) -> float:
        """Seconds the bot waits before answering (so a player sees their own move land first): ``bot_delay_ms``,
        at most 1 % of the bot's remaining clock — a short game is never lost on this courtesy."""
        pause = self.options.bot_delay_ms / 1000
        if g.clock is not None:
            pause = min(pause, max(0.0, g.clock.left(side, self.now.mono()) / 100_000))
        return pause

    def _bot_deadline(self, g: LiveGame, side: str, level: int) -> float:
        """Seconds the bot may think: its level's budget, at most 1/30 of its remaining clock."""
        budget = self.options.bot_think_s.get(level, 1.0)
        if g.clock is not None:
            budget = min(budget, max(0.02, g.clock.left(side, self.now.mono()) / 30_000))
        return budget

    async def _bot_turn(self, g: LiveGame, side: str) -> None:
        """One bot action: view under the lock → think in a worker thread → commit under the lock if the
        game is still at the ply the bot saw. A bot that fails or answers illegally resigns (logged)."""
        try:
            async with g.bot_lock:
                await asyncio.sleep(self._bot_pause(g, side))
                level = g.seats[side].bot_level or 1
                async with self._locked(g):
                    if g.status != "play" or g.rules.to_act(g.game) != side:
                        return
                    game, ply = g.game, g.rules.ply(g.game)
                    bot = g.bots.get(side)
                    fresh = bot is None
                    if fresh:
                        bot = g.bots[side] = g.rules.new_bot(level, g.seed ^ SIDES.index(side), g.settings.options)
                    else:
                        view = snapshot.bot_view(g, side, g.bot_seen.get(side, 0))
                    deadline = self._bot_deadline(g, side, level)
                started = time.perf_counter()
                notation: str | None = None
                queued = 0.0  # seconds the jobs waited for a worker: not the bot's time, its clock gets them back
                try:
                    if fresh:  # a restart (or a reload) lost its memory: show it the game so far
                        submitted = time.monotonic()  # the workers stamp real monotonic time
                        _seen, bot, began = await self._in_bot_worker(botpool.catch_up, g.rules, bot, game, side)
                        queued += max(0.0, began - submitted)
                        g.bots[side] = bot
                        async with self._locked(g):
                            if g.status != "play" or g.rules.ply(g.game) != ply:
                                return
                            view = snapshot.bot_view(g, side, 0)
                    submitted = time.monotonic()
                    notation, g.bots[side], began = await self._in_bot_worker(
                        botpool.think, g.rules, bot, view, deadline
                    )
                    queued += max(0.0, began - submitted)
                except Exception:
                    g.log.exception("bot level=%s failed at ply=%s; it resigns", level, ply)
                think_ms = (time.perf_counter() - started) * 1000
                metrics.BOT_MOVE_SECONDS.labels(level=str(level)).observe(think_ms / 1000)
                g.bot_seen[side] = ply
                async with self._locked(g):
                    if g.status != "play" or g.game is not game or g.rules.ply(g.game) != ply:
                        return  # the game moved on meanwhile (resignation, flag, abort): the answer is void
                    g.log.info("bot level=%s ply=%s think_ms=%.0f queued_ms=%.0f action=%s", level, ply, think_ms,
                               queued * 1000, notation)  # fmt: skip
                    if g.clock is not None and g.clock.running == side:
                        g.clock.credit(side, int(queued * 1000))  # QA: bots lost on time waiting for a worker
                    if g.clock is not None and g.clock.left(side, self.now.mono()) <= 0:
                        await self._commit(g, [g.rules.end_action("flag", side)])
                    elif notation is None:
                        await self._commit(g, [g.rules.end_action("resign", side)])
                    else:
                        try:
                            await self._commit(g, [notation])
                        except ServiceError as e:
                            if e.code != "illegal_action":
                                raise
                            g.log.error("bot level=%s chose an illegal %s at ply=%s; it resigns", level, notation, ply)
                            await self._commit(g, [g.rules.end_action("resign", side)])
            await self._publish(g)
        except asyncio.CancelledError:
            raise
        except Exception:
            g.log.exception("bot turn failed")

    async def _in_bot_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` where the bots think (:mod:`.botpool`); a pool broken by a dead worker is made anew
        and the call tried once more."""
        for attempt in (1, 2):
            if self._bot_pool is None:  # starting the fork server blocks for ~0.3 s: not on the event loop (QA)
                self._bot_pool = await asyncio.to_thread(
                    botpool.make_pool, self.options.bot_workers, processes=self.options.bot_processes
                )
            pool = self._bot_pool
            try:  # submitting may start a worker process: from a thread as well
                return await asyncio.wrap_future(await asyncio.to_thread(pool.submit, fn, *args))
            except concurrent.futures.BrokenExecutor:
                if self._bot_pool is pool:
                    log.error("a bot worker died; the bots' pool is made anew")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._bot_pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _bot_thinking(self, g: LiveGame, side: str | None) -> bool:
        """Whether ``side`` is a bot whose turn is under way: its flag waits for its answer, which settles its
        clock (the time its job waited for a worker is given back first: :meth:`_bot_turn`)."""
        return (
            side is not None and g.seats[side].bot_level is not None and g.bot_task is not None
            and not g.bot_task.done()
        )  # fmt: skip
