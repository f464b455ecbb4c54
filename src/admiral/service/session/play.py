"""Play: the one entry point for a socket's messages (:meth:`PlayMixin.handle`) and the one path of an action:
lock → check → apply → store → publish."""

from __future__ import annotations

import time
from typing import Any

from admiral.games import AutoReply, RuleError
from admiral.i18n import _
from admiral.store.repo import DuplicatePly

from .. import metrics
from ..errors import ServiceError, engine_message
from ..messages import ActionMsg, ClientMessage, NoteMsg, PrefsMsg, SetupAutoMsg, SetupReadyMsg, SetupUpdateMsg
from .base import SessionBase
from .live import (
    DELTA_KEYS,
    LiveGame,
    _now,
    _wall_ms,
)


class PlayMixin(SessionBase):
    """The socket messages' entry point and the action path (a part of
    :class:`~admiral.service.session.GameService`)."""

    async def handle(
        self, g: LiveGame, side: str | None, msg: ClientMessage, *, received: float | None = None
    ) -> list[dict[str, Any]]:
        """Handle one validated client message from a socket of ``side`` (``None``: spectator), received at
        monotonic time ``received`` (an action's clock stops then: :meth:`submit`). A change runs whole in a
        task of its own (:meth:`_shielded`): the socket closing meanwhile does not cut it short.

        :returns: the messages to send back to that socket (others learn through the bus).
        :raises ServiceError: for a refused request; the game is unchanged then.
        """
        if msg.type == "ping":
            return [{"type": "pong"}]
        if side is None:
            raise ServiceError("not_a_player", _("Вы зритель: действовать могут только игроки."))
        return await self._shielded(self._handle(g, side, msg, received))

    async def _handle(self, g: LiveGame, side: str, msg: ClientMessage, received: float | None) -> list[dict[str, Any]]:
        kind = msg.type
        if isinstance(msg, SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg):
            return await self._setup(g, side, msg)
        if isinstance(msg, ActionMsg):
            await self.submit(g, side, msg.ply, msg.action, received=received)
            return []
        if isinstance(msg, PrefsMsg):
            await self.set_prefs(g, side, auto_declare=msg.auto_declare)
            return []
        if isinstance(msg, NoteMsg):
            await self.set_note(g, side, msg.ply, msg.cell, msg.note)
            return []
        if kind == "resign":
            await self._end(g, side, "resign")
        elif kind == "draw.offer":
            await self.offer_draw(g, side)
        elif kind == "draw.accept":
            await self.accept_draw(g, side)
        elif kind == "draw.decline":
            await self.decline_draw(g, side)
        elif kind == "abort":
            await self.abort(g, side)
        elif kind == "claim":
            await self._end(g, side, "claim")
        elif kind == "rematch":
            url = await self.rematch(g, side)
            return [{"type": "rematch", "url": url}]
        return []

    async def submit(self, g: LiveGame, side: str, ply: int, action: str, *, received: float | None = None) -> None:
        """A player's action made at version ``ply`` (docs/protocol.md ``action``), received at monotonic time
        ``received`` (default: now). The mover's clock stops at ``received``: time the server then spends
        waiting for the game's lock (another instance holding it, or one that died holding it) is charged to
        nobody (issue 16).

        :raises ServiceError: ``game_over``, ``not_started``, ``stale_ply``, ``not_your_turn``,
            ``illegal_action`` (engine code and reason in ``detail``).
        """
        started = time.perf_counter()
        received = time.monotonic() if received is None else received
        try:
            notation = g.rules.parse_player_action(action)
        except RuleError as e:
            raise ServiceError("illegal_action", engine_message(e.code), {"code": e.code, "reason": e.reason}) from None
        flagged = False
        async with self._locked(g):
            self._check_playing(g)
            if ply != g.rules.ply(g.game):
                raise ServiceError(
                    "stale_ply", _("Позиция уже изменилась: ход не принят."), {"ply": g.rules.ply(g.game)}
                )
            if g.rules.to_act(g.game) != side:
                raise ServiceError("not_your_turn", _("Сейчас не ваш ход."))
            # The mover's clock has run without a break since it last started (a checkpoint or a catch-up meanwhile
            # only moved its reference point), so its time left at ``received`` is still known exactly.
            if g.clock is not None and g.clock.left(side, received) <= 0:
                await self._commit(g, [g.rules.end_action("flag", side)])
                flagged = True
            else:
                await self._commit(g, [notation], at=received)
        await self._publish(g)
        metrics.ACTION_LATENCY.observe(time.perf_counter() - started)
        if flagged:
            raise ServiceError("game_over", _("Ваше время истекло."))

    def _check_playing(self, g: LiveGame) -> None:
        if g.status in ("over", "aborted"):
            raise ServiceError("game_over", _("Партия окончена."))
        if g.status != "play":
            raise ServiceError("not_started", _("Партия ещё не началась."))

    async def _commit(self, g: LiveGame, actions: list[str], *, at: float | None = None) -> None:
        """Apply ``actions`` (then any automatic declarations), append their rows and save the game, in one
        transaction (in a worker thread; ``g.settled`` is clear meanwhile). Caller holds the lock. Instances
        sharing the games: the rows and the game's new values are queued as a delta for the next event.
        ``at``: the monotonic time the mover's clock stops at (default: now); the next side's clock starts now.

        :raises ServiceError: ``illegal_action`` if the first action is illegal (nothing changes then).
        """
        rows: list[tuple[int, str, str | None]] = []
        for i, notation in enumerate(actions):
            try:
                self._apply_one(g, notation, rows, at)
            except RuleError as e:
                if i == 0:
                    raise ServiceError(
                        "illegal_action", engine_message(e.code), {"code": e.code, "reason": e.reason}
                    ) from None
                raise
        while (
            g.game is not None
            and (to_act := g.rules.to_act(g.game)) is not None
            and g.seats[to_act].auto_declare
            and isinstance(g.rules, AutoReply)
            and (decl := g.rules.auto_reply(g.game)) is not None
        ):
            self._apply_one(g, decl, rows, at)
        result = g.rules.result(g.game)
        values = self._clock_values(g)
        values.update(ply=g.rules.ply(g.game), draw_offer=g.draw_offer, checkpoint_at=_wall_ms())
        if result is not None:
            g.status, g.result, g.draw_offer = "over", result, None
            values.update(
                status="over", result_winner=result["winner"], result_reason=result["reason"], finished_at=_now(),
                draw_offer=None,
            )  # fmt: skip
            g.log.info("over winner=%s reason=%s ply=%s", result["winner"], result["reason"], values["ply"])
        base = self.store.known.get(g.id)
        g.settled.clear()  # the engine state runs ahead of the database: never let anyone see a move not stored
        try:
            await self._db(self.store.append_actions, g.id, rows, **values)
        except DuplicatePly:
            g.log.warning("duplicate ply on write; reloading from the database")
            await self._areload(g)
            raise ServiceError("stale_ply", _("Позиция уже изменилась: ход не принят.")) from None
        except Exception:
            g.log.exception("action write failed; reloading from the database")
            await self._areload(g)
            raise ServiceError("unavailable", _("Ход не удалось сохранить. Попробуйте ещё раз.")) from None
        finally:
            g.settled.set()
        revision = self.store.known.get(g.id)
        if self.bus.shared and base is not None and revision == base + 1:
            g.outbox.append({
                "base": base, "revision": revision, "actions": [[ply, notation] for ply, notation, _ in rows],
                "game": {k: values[k] for k in DELTA_KEYS if k in values},
            })  # fmt: skip
            del g.outbox[: -self.DELTAS_MAX]
        for ply, notation, actor in rows:
            g.log.info("ply=%s side=%s action=%s", ply, actor, notation)
        metrics.ACTIONS.inc(len(rows))
        if result is not None:
            self._spawn(self._credit_later(g))
        self._schedule(g)

    def _apply_one(self, g: LiveGame, notation: str, rows: list, at: float | None = None) -> None:
        applied = g.rules.apply(g.game, notation)
        rows.append((g.rules.ply(g.game) - 1, notation, applied.actor))
        if applied.turn and applied.actor:
            g.turns[applied.actor] += 1
            if g.draw_offer is not None and g.draw_offer != applied.actor:
                g.draw_offer = None  # an offer lapses when the offerer's opponent moves
        if g.clock is not None:
            nxt = g.rules.to_act(g.game)
            mono, wall = time.monotonic(), _wall_ms()
            increment_to = applied.completed if nxt is not None else None
            if at is not None and at < mono:
                # The mover's clock stops at receipt and the next side's starts now: the server's wait in
                # between (for the game's lock) is charged to nobody.
                at_wall = wall - int((mono - at) * 1000)
                g.clock.switch(nxt, at, at_wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)
                g.clock.start(nxt, mono, wall)
            else:
                g.clock.switch(nxt, mono, wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)

    def _clock_values(self, g: LiveGame) -> dict[str, Any]:
        c = g.clock
        if c is None:
            return {}
        return {
            "clock_south_ms": c.remaining["south"],
            "clock_north_ms": c.remaining["north"],
            "clock_running": c.running,
            "clock_started_at": c.started_wall_ms,
        }

    async def set_prefs(self, g: LiveGame, side: str, *, auto_declare: bool) -> None:
        """Set the seat's "always declare the strongest formation" preference; if a declaration is pending
        for it now, it is made at once."""
        async with self._locked(g):
            g.seats[side].auto_declare = auto_declare
            await self._db(self.store.update_seat, g.id, side, auto_declare=auto_declare)
            if (
                auto_declare
                and g.status == "play"
                and g.rules.to_act(g.game) == side
                and isinstance(g.rules, AutoReply)
                and (decl := g.rules.auto_reply(g.game)) is not None
            ):
                await self._commit(g, [decl])
        await self._publish(g)
