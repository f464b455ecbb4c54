"""Play: the one entry point for a socket's messages (:meth:`PlayMixin.handle`) and the one path of an action:
lock → check → apply → store → publish."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from admiral.games import AutoReply, RuleError
from admiral.i18n import _
from admiral.store.repo import DuplicatePly

from .. import metrics
from ..clock import GameClock
from ..errors import ServiceError, engine_message
from ..messages import (
    ActionMsg,
    ChatBlockMsg,
    ChatMsg,
    ClientMessage,
    NoteMsg,
    PrefsMsg,
    SetupAutoMsg,
    SetupReadyMsg,
    SetupUpdateMsg,
)
from .base import SessionBase
from .live import (
    DELTA_KEYS,
    LiveGame,
    clock_values,
)


@dataclass
class Staged:
    """A change of a game in play before it is stored: a copy of the game (the rules' :meth:`Ruleset.copy`), of
    its clock, turn counts and draw offer, and the action rows ``(ply, notation, actor)`` applied to it."""

    game: Any
    clock: GameClock | None
    turns: dict[str, int]
    draw_offer: str | None
    rows: list[tuple[int, str, str | None]] = field(default_factory=list)

    @classmethod
    def of(cls, g: LiveGame) -> Staged:
        """A copy of ``g``'s game state to apply actions to."""
        return cls(g.rules.copy(g.game), None if g.clock is None else g.clock.copy(), dict(g.turns), g.draw_offer)

    def swap_into(self, g: LiveGame) -> None:
        """Make the stored change the live game's (synchronous: no reader sees half of it)."""
        g.game, g.clock, g.turns, g.draw_offer = self.game, self.clock, self.turns, self.draw_offer
        g.drop_views()


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
        if isinstance(msg, ChatMsg):  # a spectator's is refused as a chat (chat_not_allowed), not as an action
            await self._shielded(self.send_chat(g, side, phrase=msg.phrase, text=msg.text))
            return []
        if isinstance(msg, ChatBlockMsg):
            await self._shielded(self.block_chat(g, side, msg.blocked))
            return []
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
            return [{"type": "rematch", "url": url}] if url else []
        elif kind == "rematch.accept":
            return [{"type": "rematch", "url": await self.accept_rematch(g, side)}]
        elif kind == "rematch.decline":
            await self.decline_rematch(g, side)
        elif kind == "rematch.cancel":
            await self.cancel_rematch(g, side)
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
        received = self.now.mono() if received is None else received
        try:
            notation = g.rules.parse_player_action(action)
        except RuleError as e:
            raise ServiceError(
                "illegal_action", engine_message(e.code, g.rules.info.messages), {"code": e.code, "reason": e.reason}
            ) from None
        flagged = False

        def decide() -> list[str]:
            nonlocal flagged
            now = g.rules.ply(g.game)
            if ply != now:
                message = (
                    _("Позиция уже изменилась: ход не принят.")
                    if ply < now
                    else _("Такой позиции ещё не было: ход не принят.")
                )
                raise ServiceError("stale_ply", message, {"ply": now})
            if g.rules.to_act(g.game) != side:
                raise ServiceError("not_your_turn", _("Сейчас не ваш ход."))
            # The mover's clock has run without a break since it last started (a checkpoint or a catch-up meanwhile
            # only moved its reference point), so its time left at ``received`` is still known exactly.
            if g.clock is not None and g.clock.left(side, received) <= 0:
                flagged = True
                return [g.rules.end_action("flag", side)]
            return [notation]

        await self._act(g, decide, at=received)
        metrics.ACTION_LATENCY.observe(time.perf_counter() - started)
        if flagged:
            raise ServiceError("game_over", _("Ваше время истекло."))

    async def _act(
        self,
        g: LiveGame,
        decide: Callable[[], list[str]],
        *,
        at: float | None = None,
        otherwise: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """The one path of a change in play: the game's lock → is it in play → ``decide()`` (the op's own checks:
        it raises :class:`ServiceError` to refuse, else returns the actions to apply) → :meth:`_commit` (apply to a
        copy → store → swap in) → publish to every socket of the game. ``decide`` may return no action, then
        ``otherwise`` runs under the lock instead (a change that is not an action: a draw offer). ``at``: when
        the mover's clock stops (:meth:`_commit`).

        :raises ServiceError: ``game_over``, ``not_started``, what ``decide`` raises, what :meth:`_commit` raises;
            nothing changed then."""
        async with self._locked(g):
            self._check_playing(g)
            actions = decide()
            if actions:
                await self._commit(g, actions, at=at)
            elif otherwise is not None:
                await otherwise()
        await self._publish(g)

    def _check_playing(self, g: LiveGame) -> None:
        if g.status in ("over", "aborted"):
            raise ServiceError("game_over", _("Партия окончена."))
        if g.status != "play":
            raise ServiceError("not_started", _("Партия ещё не началась."))

    async def _commit(self, g: LiveGame, actions: list[str], *, at: float | None = None) -> None:
        """The one way a game in play changes: apply ``actions`` (then any automatic replies) to a copy of the
        game, its clock, turns and draw offer; append their rows and save the game in one transaction (shared
        with the other games' moves of this turn of the event loop: :meth:`_store_move`; in a worker thread on
        PostgreSQL); only then swap the copy in. Caller holds the lock. A refused action or a
        failed write leaves the live game as it was: nobody can see a move that is not stored, and nothing
        needs replaying. Instances sharing the games: the rows and the game's new values are queued as a delta
        for the next event. ``at``: the monotonic time the mover's clock stops at (default: now); the next
        side's clock starts now.

        :raises ServiceError: ``illegal_action`` if the first action is illegal; ``stale_ply`` if another
            instance stored this ply first (the copy then catches up); ``unavailable`` if the write failed.
        """
        staged = Staged.of(g)
        for i, notation in enumerate(actions):
            try:
                self._apply_one(g, staged, notation, at)
            except RuleError as e:
                if i == 0:
                    raise ServiceError(
                        "illegal_action",
                        engine_message(e.code, g.rules.info.messages),
                        {"code": e.code, "reason": e.reason},
                    ) from None
                raise
        while (
            (to_act := g.rules.to_act(staged.game)) is not None
            and g.seats[to_act].auto_declare
            and isinstance(g.rules, AutoReply)
            and (decl := g.rules.auto_reply(staged.game)) is not None
        ):
            self._apply_one(g, staged, decl, at)
        result = g.rules.result(staged.game)
        if result is not None:
            staged.draw_offer = None
        values = clock_values(staged.clock)
        values.update(ply=g.rules.ply(staged.game), draw_offer=staged.draw_offer, checkpoint_at=self.now.wall_ms())
        if result is not None:
            values.update(
                status="over", result_winner=result["winner"], result_reason=result["reason"],
                finished_at=self.now.utc(),
            )  # fmt: skip
        base = self.store.known.get(g.id)
        try:
            await self._store_move(g.id, staged.rows, values)
        except DuplicatePly:
            g.log.warning("duplicate ply on write: another instance moved first; catching up")
            await self._catch_up(g, stale=True)
            raise ServiceError("stale_ply", _("Позиция уже изменилась: ход не принят.")) from None
        except Exception:
            g.log.exception("action write failed; the game stays as stored")
            raise ServiceError("unavailable", _("Ход не удалось сохранить. Попробуйте ещё раз.")) from None
        staged.swap_into(g)
        if result is not None:
            g.status, g.result = "over", result
            g.log.info("over winner=%s reason=%s ply=%s", result["winner"], result["reason"], values["ply"])
        revision = self.store.known.get(g.id)
        if self.bus.shared and base is not None and revision == base + 1:
            g.outbox.append({
                "base": base, "revision": revision, "actions": [[ply, notation] for ply, notation, _ in staged.rows],
                "game": {k: values[k] for k in DELTA_KEYS if k in values},
            })  # fmt: skip
            del g.outbox[: -self.DELTAS_MAX]
        if g.log.isEnabledFor(logging.DEBUG):  # the record is in the database: a line per ply was 3.5 % of a move
            for ply, notation, actor in staged.rows:
                g.log.debug("ply=%s side=%s action=%s", ply, actor, notation)
        metrics.ACTIONS.inc(len(staged.rows))
        if result is not None:
            self._spawn(self._credit_later(g))
        self._schedule(g)

    def _apply_one(self, g: LiveGame, staged: Staged, notation: str, at: float | None = None) -> None:
        """Apply one action to the staged copy: its row, the turn count, a lapsed draw offer, the clocks.

        :raises RuleError: the action is illegal (the copy is unchanged then: the rules apply whole or not)."""
        applied = g.rules.apply(staged.game, notation)
        staged.rows.append((g.rules.ply(staged.game) - 1, notation, applied.actor))
        if applied.turn and applied.actor:
            staged.turns[applied.actor] += 1
            if staged.draw_offer is not None and staged.draw_offer != applied.actor:
                staged.draw_offer = None  # an offer lapses when the offerer's opponent moves
        clock = staged.clock
        if clock is not None:
            nxt = g.rules.to_act(staged.game)
            mono, wall = self.now.mono(), self.now.wall_ms()
            increment_to = applied.completed if nxt is not None else None
            before = clock.running
            if at is not None and at < mono:
                # The mover's clock stops at receipt and the next side's starts now: the server's wait in
                # between (for the game's lock) is charged to nobody.
                at_wall = wall - int((mono - at) * 1000)
                clock.switch(nxt, at, at_wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)
                clock.start(nxt, mono, wall)
            else:
                clock.switch(nxt, mono, wall, increment_to=increment_to, increment_ms=g.settings.increment_ms)
            if g.settings.correspondence and nxt is not None and nxt != before:
                clock.remaining[nxt] = g.settings.base_ms  # correspondence: each move has its days afresh

    async def set_prefs(self, g: LiveGame, side: str, *, auto_declare: bool) -> None:
        """Set the seat's "always answer automatically" preference (:class:`~admiral.games.AutoReply`: «Адмирал»'s
        strongest declaration); if such an answer is due from it now, it is made at once. Taken in setup and in
        play; after the end nothing is left to answer, and the rematch carries the seat's value as it was then.

        :raises ServiceError: ``game_over`` after the end (over or aborted; nothing changes), ``unavailable`` when
            the write failed."""
        async with self._locked(g):
            if g.status in ("over", "aborted"):
                raise ServiceError("game_over", _("Партия окончена: настройки этой партии больше не меняются."))
            await self._save_seat(g, side, auto_declare=auto_declare)
            g.seats[side].auto_declare = auto_declare
            if (
                auto_declare
                and g.status == "play"
                and g.rules.to_act(g.game) == side
                and isinstance(g.rules, AutoReply)
                and (decl := g.rules.auto_reply(g.game)) is not None
            ):
                await self._commit(g, [decl])
        await self._publish(g)
