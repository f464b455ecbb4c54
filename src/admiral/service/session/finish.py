"""The ends of a game other than by the rules: resignation, claims, draw offers, abort; the credit of a finished
game to its commanders; the rematch."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from admiral.i18n import _
from admiral.store import GameRow, GameSeatRow

from ..errors import ServiceError
from ..lobby import new_game_id
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    Seat,
    _other,
    clock_values,
)


class FinishMixin(SessionBase):
    """Resignation, claims, draw offers, abort, the credit of a finished game, the rematch (a part of
    :class:`~admiral.service.session.GameService`)."""

    async def _credit_later(self, g: LiveGame) -> None:
        """Credit a game that just ended (:meth:`_credit`) in the one crediting thread, off the game's lock, then
        show the players what they got. A wave of ends must not hold other games' moves back: 500 games ending
        together took the database threads for 2 s, under their games' locks (issue 16). Left undone by a
        stop, the credit is finished when the game is next loaded."""
        await asyncio.get_running_loop().run_in_executor(self._credit_pool, self._credit, g)
        await self._publish(g)

    def _credit(self, g: LiveGame) -> None:
        """Credit the finished game to its human commanders, exactly once (a failure is logged: the game's
        end stands, and crediting is retried when the game is next loaded)."""
        if self.progress is None or g.game is None or "progression" not in g.rules.info.capabilities:
            return  # a game without points (it does not say how its statistics become points)
        try:
            holders = {s: g.seats[s].browser_hash for s in SIDES}
            levels = {s: g.seats[s].bot_level for s in SIDES}
            stats = g.rules.game_stats(g.game)
            self.progress.credit(g.id, g.rules, stats, holders, levels, rated=g.settings.rated, now=self.now.utc())
            g.credited = self.progress.results(g.id)
            self._show_new_ratings(g)
        except Exception:
            g.log.exception("crediting the game failed")

    async def _end(self, g: LiveGame, side: str, how: str) -> None:
        """Resign (``resign``) or claim the win over a disconnected opponent (``claim``).

        :raises ServiceError: ``game_over``, ``not_started``, ``cannot_claim``."""

        def decide() -> list[str]:
            if how != "claim":
                return [g.rules.end_action("resign", side)]
            if g.settings.correspondence:
                raise ServiceError(
                    "cannot_claim", _("В партии по переписке победу не требуют: у соперника есть срок на ход.")
                )
            if not self.can_claim(g, side):
                raise ServiceError(
                    "cannot_claim", _("Победу можно потребовать, когда соперник отключён не меньше минуты.")
                )
            return [g.rules.end_action("abandon", _other(side))]

        await self._act(g, decide)

    async def offer_draw(self, g: LiveGame, side: str) -> None:
        """Offer a draw; an offer already made by the opponent is accepted instead.

        :raises ServiceError: ``game_over``, ``not_started``, ``draw_declined`` (a bot's seat),
            ``draw_already_offered``, ``unavailable``."""

        def decide() -> list[str]:
            if (level := g.seats[_other(side)].bot_level) is not None:
                name = g.rules.info.levels.get(level, "")
                raise ServiceError(
                    "draw_declined", _("ИИ «%(name)s» отклоняет ничью: партия продолжается.", name=_(name))
                )
            if g.draw_offer == side:
                raise ServiceError("draw_already_offered", _("Вы уже предложили ничью."))
            return [g.rules.end_action("draw", None)] if g.draw_offer == _other(side) else []

        async def offer() -> None:
            await self._save(g, draw_offer=side)
            g.draw_offer = side
            g.log.info("draw offered side=%s", side)

        await self._act(g, decide, otherwise=offer)

    async def accept_draw(self, g: LiveGame, side: str) -> None:
        """Accept the opponent's draw offer: the game ends in a draw by agreement (rules §10.3).

        :raises ServiceError: ``game_over``, ``not_started``, ``no_draw_offer``."""

        def decide() -> list[str]:
            if g.draw_offer != _other(side):
                raise ServiceError("no_draw_offer", _("Соперник не предлагал ничью."))
            return [g.rules.end_action("draw", None)]

        await self._act(g, decide)

    async def decline_draw(self, g: LiveGame, side: str) -> None:
        """Decline the opponent's draw offer; the offerer's sockets are told (a ``declined`` message).

        :raises ServiceError: ``no_draw_offer``, ``unavailable``."""
        async with self._locked(g):
            self._check_playing(g)
            if g.draw_offer != _other(side):
                raise ServiceError("no_draw_offer", _("Соперник не предлагал ничью."))
            await self._save(g, draw_offer=None)
            g.draw_offer = None
            g.log.info("draw declined side=%s", side)
        await self._publish(g, declined={"offer": "draw", "to": _other(side)})

    async def abort(self, g: LiveGame, side: str) -> None:
        """Abort the game: before play, or while neither side has made two turns. Status ``aborted``, no result.

        :raises ServiceError: ``game_over``, ``cannot_abort``, ``unavailable``."""
        async with self._locked(g):
            if g.status in ("over", "aborted"):
                raise ServiceError("game_over", _("Партия окончена."))
            if not self.can_abort(g):
                raise ServiceError(
                    "cannot_abort", _("Отменить партию можно, пока ни одна сторона не сделала двух ходов.")
                )
            values: dict[str, Any] = {"status": "aborted", "finished_at": self.now.utc(), "draw_offer": None}
            clock = None if g.clock is None else g.clock.copy()
            if clock is not None:
                clock.switch(None, self.now.mono(), self.now.wall_ms())
                values.update(clock_values(clock))
            await self._save(g, **values)
            g.status, g.draw_offer, g.clock = "aborted", None, clock
            g.drop_views()  # the same ply, other views: an aborted game with chance shows its seed (D13)
            g.log.info("aborted by side=%s", side)
            self._schedule(g)
        await self._publish(g)

    def makes_rematch(self, g: LiveGame, side: str, kind: str) -> bool:
        """Whether the message ``kind`` from ``side`` would make the rematch game now (the rate limit of new games
        counts it): an acceptance, or a ``rematch`` against a bot or answering the opponent's own offer."""
        if g.rematch_id is not None:
            return False
        if kind == "rematch.accept":
            return True
        return kind == "rematch" and (g.seats[_other(side)].bot_level is not None or g.rematch_offer == _other(side))

    def _check_rematch(self, g: LiveGame) -> None:
        """A rematch may be offered or answered only after the end of a game both seats held.

        :raises ServiceError: ``not_over``, ``cannot_rematch``."""
        if g.status not in ("over", "aborted"):
            raise ServiceError("not_over", _("Реванш — после окончания партии."))
        if any(g.seats[s].browser_hash is None for s in SIDES):
            raise ServiceError("cannot_rematch", _("Реванш невозможен: соперник так и не присоединился к партии."))

    async def rematch(self, g: LiveGame, side: str) -> str | None:
        """After the end: offer the opponent a rematch (stored as ``rematch_offer``, shown in the snapshot). Against
        a bot, or when the opponent offered first, the offer is accepted at once (:meth:`accept_rematch`).

        :returns: the new game's URL once it exists (made now, or before: asking again gives the same game);
            ``None`` while the offer waits for the opponent's answer.
        :raises ServiceError: ``not_over`` while the game is on; ``cannot_rematch`` if a seat was never taken
            (a game aborted before the friend joined); ``rematch_already_offered`` for a second offer;
            ``too_many_ai_games`` (a bot's game, see :meth:`_make_rematch`); ``unavailable``.
        """
        async with self._locked(g):
            self._check_rematch(g)
            if g.rematch_id is None:
                opponent = g.seats[_other(side)]
                if opponent.bot_level is None and g.rematch_offer != _other(side):
                    if g.rematch_offer == side:
                        raise ServiceError("rematch_already_offered", _("Вы уже предложили реванш."))
                    await self._save(g, rematch_offer=side)
                    g.rematch_offer = side
                    g.log.info("rematch offered side=%s", side)
                else:
                    await self._make_rematch(g, side)
            url = None if g.rematch_id is None else f"/g/{g.rematch_id}"
        await self._publish(g, **({"rematch_url": url} if url else {}))
        return url

    async def accept_rematch(self, g: LiveGame, side: str) -> str:
        """Accept the opponent's rematch offer: the new game is made (same settings, sides swapped, both seats
        bound) and both players are sent there (a ``rematch`` message to each seat's sockets).

        :returns: the new game's URL.
        :raises ServiceError: ``not_over``, ``cannot_rematch``, ``no_rematch_offer`` (the opponent has not offered
            one, or it was answered already), ``too_many_ai_games``, ``unavailable``."""
        async with self._locked(g):
            self._check_rematch(g)
            if g.rematch_offer != _other(side) or g.rematch_id is not None:
                raise ServiceError("no_rematch_offer", _("Соперник не предлагал реванш."))
            await self._make_rematch(g, side)
            url = f"/g/{g.rematch_id}"
        await self._publish(g, rematch_url=url)
        return url

    async def decline_rematch(self, g: LiveGame, side: str) -> None:
        """Decline the opponent's rematch offer; the offerer's sockets are told (a ``declined`` message).

        :raises ServiceError: ``not_over``, ``cannot_rematch``, ``no_rematch_offer``, ``unavailable``."""
        await self._drop_rematch_offer(g, _other(side), declined=True)

    async def cancel_rematch(self, g: LiveGame, side: str) -> None:
        """Take back one's own rematch offer. :raises ServiceError: ``not_over``, ``cannot_rematch``,
        ``no_rematch_offer`` (no offer of this side's is waiting), ``unavailable``."""
        await self._drop_rematch_offer(g, side, declined=False)

    async def _drop_rematch_offer(self, g: LiveGame, offerer: str, *, declined: bool) -> None:
        """Clear ``offerer``'s waiting rematch offer: declined by the opponent, or cancelled by the offerer."""
        async with self._locked(g):
            self._check_rematch(g)
            if g.rematch_offer != offerer or g.rematch_id is not None:
                if declined:
                    raise ServiceError("no_rematch_offer", _("Соперник не предлагал реванш."))
                raise ServiceError("no_rematch_offer", _("Вы не предлагали реванш."))
            await self._save(g, rematch_offer=None)
            g.rematch_offer = None
            g.log.info("rematch offer of side=%s %s", offerer, "declined" if declined else "cancelled")
        await self._publish(g, **({"declined": {"offer": "rematch", "to": offerer}} if declined else {}))

    async def _make_rematch(self, g: LiveGame, side: str) -> None:
        """Make the rematch of ``g`` (caller holds the lock, checked :meth:`_check_rematch`): a new game with the
        same settings, sides swapped, both seats bound, its setup open; ``g`` records it and drops the offer.

        :raises ServiceError: ``too_many_ai_games`` for a game against the AI when the player already holds
            ``max_bot_games`` unfinished ones; ``unavailable``."""
        if any(g.seats[s].bot_level is not None for s in SIDES):
            await self.check_bot_games(g.seats[side].browser_hash, g.creator_address)
        new_id = new_game_id()
        _code, invite_hash, _sealed = self._new_invite(new_id)
        # who took the seats, as PROGRESSION.md §2 needs it: the same browsers and addresses, sides swapped
        marks = {} if self.progress is None else await self._db(self.progress.store.seat_marks, g.id)
        row = GameRow(
            id=new_id, invite_hash=invite_hash, invite_sealed=None, creator_hash=g.creator_hash,
            creator_address=g.creator_address, game=g.rules.info.key,
            status="setup", settings=g.settings.to_dict(), seed=secrets.randbits(62), ply=0, rematch_of=g.id,
            checkpoint_at=self.now.wall_ms(),
            setup_deadline=self.now.wall_ms() + g.settings.setup_ms if g.settings.setup_ms else None,
        )  # fmt: skip
        seats = [
            GameSeatRow(
                game_id=new_id,
                side=s,
                browser_hash=g.seats[_other(s)].browser_hash,
                draft={},
                ready=False,
                auto_declare=g.seats[_other(s)].auto_declare,
                joined_at=self.now.utc(),
                browser_key=m.browser_key if (m := marks.get(_other(s))) else None,
                address_key=m.address_key if m else None,
            )
            for s in SIDES
        ]
        new = LiveGame(
            row,
            {s.side: Seat(s.side, s.browser_hash, {}, False, s.auto_declare) for s in seats},
            self._rules_of(row),
        )
        for s in SIDES:  # the same commanders: their names need no new read
            before = g.seats[_other(s)]
            new.seats[s].profile, new.seats[s].profile_of = before.profile, before.profile_of
        self._set_up_bots(new, seats)
        self._fix_starts(new, seats)
        await self._db(self.store.create_game, row, seats)
        await self._db(self.store.update_game, g.id, rematch_id=new_id, rematch_offer=None)
        g.rematch_id, g.rematch_offer = new_id, None
        self.games[new_id] = new
        await self._start_fixed(new)
        self._schedule(new)
        g.log.info("rematch game=%s by side=%s", new_id, side)
