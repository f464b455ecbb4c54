"""The setup: drafts, auto-arrangement, ready, the start of play, the setup deadline; saved named setups."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from admiral.games import DEFAULT_GAME, RuleError, Ruleset, StartSettings
from admiral.i18n import _

from ..clock import GameClock
from ..errors import ServiceError, engine_message
from ..lobby import checked_options
from ..messages import SetupAutoMsg, SetupReadyMsg, SetupUpdateMsg
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    clock_values,
)

#: Problems an ``invalid_setup`` message names; ``detail.problems`` has them all.
SHOWN_PROBLEMS = 3


def invalid_setup(problems: list[dict[str, Any]]) -> ServiceError:
    """The ``invalid_setup`` refusal of a setup with ``problems`` (the game's, each with its ``message``): the
    message names the first :data:`SHOWN_PROBLEMS` and says how many more there are; ``detail.problems`` lists
    every one (the client marks them on the board)."""
    shown = " ".join(p["message"] for p in problems[:SHOWN_PROBLEMS])
    if len(problems) > SHOWN_PROBLEMS:
        shown = _("%(problems)s … и ещё %(more)s.", problems=shown, more=len(problems) - SHOWN_PROBLEMS)
    return ServiceError("invalid_setup", _("Расстановка неверна: %(problems)s", problems=shown), {"problems": problems})


class SetupMixin(SessionBase):
    """Drafts, auto-arrangement, ready, the start of play, the setup deadline, saved setups (a part of
    :class:`~admiral.service.session.GameService`)."""

    async def _setup(self, g: LiveGame, side: str, msg: SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg) -> list[dict]:
        """A seat's setup message: a new draft (kept as the game writes its entries: :meth:`_draft`), an
        auto-arrangement around the units sent (each kept on its cell, else refused), or ready (checked whole).
        Lock → check → store the seat → set it in memory → start play when both are ready → publish.

        :raises ServiceError: ``game_over``, ``not_in_setup``, ``already_ready``, ``invalid_setup``
            (``detail.problems``: a ready setup with any problem, a draft with an entry the game cannot read, an
            auto-arrangement around units with a problem; ``detail.code`` ``no_arrangement``: no legal completion
            keeps the units sent),
            ``bad_style`` (not one of the game's auto-arrangement styles: ``detail.styles``), ``unavailable``."""
        async with self._locked(g):
            if g.status not in ("waiting", "setup"):
                raise self._not_in_setup(g)
            seat = g.seats[side]
            if seat.ready:
                raise ServiceError("already_ready", _("Расстановка уже зафиксирована: вы готовы."))
            ready = False
            if isinstance(msg, SetupUpdateMsg):
                draft = self._draft(g.rules, side, dict(msg.setup), g.settings.options)
            elif isinstance(msg, SetupAutoMsg):
                styles = [value for value, _label in g.rules.info.setup_styles]
                if msg.style and msg.style not in styles:
                    raise ServiceError(
                        "bad_style",
                        _("Нет такого способа расстановки: «%(style)s».", style=msg.style),
                        {"styles": styles},
                    )
                # a re-roll around what the player placed by hand: every unit sent stays where it is, or the
                # arrangement is refused with the reason and nothing changes (issue 18)
                problems = g.rules.setup_problems(side, dict(msg.setup), complete=False, options=g.settings.options)
                if problems:
                    raise invalid_setup(problems)
                try:
                    draft = g.rules.auto_setup(
                        side, secrets.randbits(62), dict(msg.setup), g.settings.options, msg.style or "", fixed=True
                    )
                except RuleError as e:  # no completion keeps the units sent (the game's message says why)
                    raise ServiceError("invalid_setup", engine_message(e.code, g.rules.info.messages),
                                       {"code": e.code, "reason": e.reason}) from None  # fmt: skip
            else:
                problems = g.rules.setup_problems(side, dict(msg.setup), complete=True, options=g.settings.options)
                if problems:
                    raise invalid_setup(problems)
                draft, ready = g.rules.canonical_setup(dict(msg.setup), g.settings.options), True
            await self._save_seat(g, side, draft=draft, ready=ready)
            seat.draft, seat.ready = draft, ready
            started = False
            if ready:
                g.log.info("ready side=%s", side)
                started = await self._start_if_ready(g)
                self._schedule(g)
        if ready:
            await self._publish(g)
        return [self.setup_state_message(g, side)] if not started else []

    @staticmethod
    def _draft(rules: Ruleset, side: str, setup: dict[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """``setup`` as a draft is kept (:meth:`Ruleset.draft_setup`: each entry as the game writes it).

        :raises ServiceError: ``invalid_setup`` as for a ready setup (:func:`invalid_setup`) when the game cannot
            read an entry."""
        try:
            return rules.draft_setup(side, setup, options)
        except RuleError as e:
            problems = rules.setup_problems(side, setup, complete=False, options=options)
            if problems:
                raise invalid_setup(problems) from None
            raise ServiceError("invalid_setup", engine_message(e.code, rules.info.messages),
                               {"code": e.code, "reason": e.reason}) from None  # fmt: skip

    async def _save_seat(self, g: LiveGame, side: str, **values: Any) -> None:
        """Store columns of a seat's row (then the caller sets them in memory).

        :raises ServiceError: ``unavailable`` when the database refused the write."""
        try:
            await self._db(self.store.update_seat, g.id, side, **values)
        except Exception:
            g.log.exception("a write of seat %s failed: %s", side, sorted(values))
            raise ServiceError("unavailable", _("Не удалось сохранить. Попробуйте ещё раз.")) from None

    async def _start_if_ready(self, g: LiveGame) -> bool:
        """Start play if the game is in setup with both seats held and ready (caller holds the lock); whether it
        started. A start whose write failed is tried again by the sweeper (:meth:`_check_deadlines`)."""
        if g.status == "setup" and all(g.seats[s].ready and g.seats[s].browser_hash is not None for s in SIDES):
            await self._start_play(g)
            return True
        return False

    def _not_in_setup(self, g: LiveGame) -> ServiceError:
        if g.status in ("over", "aborted"):
            return ServiceError("game_over", _("Партия окончена."))
        return ServiceError("not_in_setup", _("Расстановка уже закончена."))

    async def _start_play(self, g: LiveGame) -> None:
        """Both fleets are ready: build the game, start the first side's clock; stored, then live. Caller holds
        the lock.

        :raises ServiceError: ``unavailable`` when the write failed (the game stays in setup)."""
        if any(g.seats[s].browser_hash is None for s in SIDES):  # never play against nobody
            raise RuntimeError(f"game {g.id}: play cannot start with an empty seat")
        start = await self._start_settings(g)
        game = g.rules.new_game({s: g.seats[s].draft for s in SIDES}, self._record_settings(g, start or {}))
        wall, mono = self.now.wall_ms(), self.now.mono()
        values: dict[str, Any] = {
            "status": "play",
            "started_at": self.now.utc(),
            "setup_deadline": None,
            "checkpoint_at": wall,
        }
        if start is not None:
            values["start_settings"] = start
        clock = None
        if g.settings.base_ms:
            clock = GameClock({"south": g.settings.base_ms, "north": g.settings.base_ms})
            clock.start(g.rules.to_act(game), mono, wall)
            values.update(clock_values(clock))
        await self._save(g, **values)
        g.game, g.clock, g.status, g.setup_deadline_ms = game, clock, "play", None
        g.start_settings = start
        g.drop_views()
        for s in SIDES:
            g.seats[s].gone_since = mono
        g.log.info("play started")

    async def _start_settings(self, g: LiveGame) -> dict[str, Any] | None:
        """What the seats bring to a game of a ruleset with the capability ``"start_settings"``
        (:class:`~admiral.games.StartSettings`), fixed now and stored with the game; ``None`` for another game.
        A human seat's career is its commander's in this game (``{}`` before its first counted game, a guest's like
        a registered commander's), an AI seat's ``None`` with its level.

        :raises ServiceError: ``unavailable`` when the careers could not be read (the game stays in setup)."""
        rules = g.rules
        if "start_settings" not in rules.info.capabilities or not isinstance(rules, StartSettings):
            return None
        ai = {s: g.seats[s].bot_level for s in SIDES}
        humans = {s: g.seats[s].browser_hash for s in SIDES if ai[s] is None}
        try:
            found = {} if self.progress is None else await self._db(self.progress.careers, rules.info.key, humans)
        except Exception:
            g.log.exception("reading the careers at the start failed")
            raise ServiceError("unavailable", _("Не удалось сохранить. Попробуйте ещё раз.")) from None
        careers = {s: None if ai[s] is not None else dict(found.get(s) or {}) for s in SIDES}
        return dict(rules.start_settings(careers, ai))

    async def _expire_setup(self, g: LiveGame) -> None:
        """The setup time ran out: complete every unready draft with auto-arrangement and ready it (rules §3.6).
        A game with a seat nobody holds never starts: it is aborted instead. Caller holds the lock.

        :raises ServiceError: ``unavailable`` when a write failed (the sweeper tries again)."""
        if any(g.seats[s].browser_hash is None for s in SIDES):
            await self._save(g, status="aborted", setup_deadline=None, finished_at=self.now.utc())
            g.status, g.setup_deadline_ms = "aborted", None
            g.log.warning("setup time out with an empty seat: aborted")
            return
        for side in SIDES:
            seat = g.seats[side]
            if not seat.ready:
                draft = g.rules.auto_setup(side, secrets.randbits(62), seat.draft, g.settings.options)
                await self._save_seat(g, side, draft=draft, ready=True)
                seat.draft, seat.ready = draft, True
                g.log.info("setup time out: auto-arranged side=%s", side)
        await self._start_play(g)

    MAX_SAVED_SETUPS = 50

    def _setup_scope(self, game: str, options: Mapping[str, Any] | None) -> tuple[Ruleset, dict[str, Any], str]:
        """The ruleset, the checked room options and the setup variant saved setups of ``game`` are kept under.

        :raises ServiceError: ``unknown_game``, ``bad_options``."""
        rules, checked = checked_options(self.rulesets, game, options)
        return rules, checked, rules.setup_variant(checked)

    def list_setups(
        self, browser_hash: str, game: str = DEFAULT_GAME, options: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The browser's saved setups for ``game`` under the rule set ``options`` choose:
        ``[{"id", "name", "setup", "created_at"}]``, oldest first. :raises ServiceError: as :meth:`_setup_scope`."""
        _rules, _options, variant = self._setup_scope(game, options)
        return [
            {"id": r.id, "name": r.name, "setup": r.setup, "created_at": r.created_at.isoformat()}
            for r in self.store.list_setups(browser_hash, game, variant)
        ]

    def save_setup(
        self,
        browser_hash: str,
        name: str,
        setup: dict[str, str],
        game: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Save a side-neutral setup of ``game`` (checked as South's; may be partial) under the rule set ``options``
        choose.

        The setup is kept as the game writes its entries (:meth:`Ruleset.draft_setup`, as a draft).

        :raises ServiceError: ``bad_name`` (1–40 characters), ``too_many_setups`` (50 per browser),
            ``invalid_setup`` (``detail.problems``), ``unknown_game``, ``bad_options``.
        """
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ServiceError("bad_name", _("Название: от 1 до 40 символов."))
        rules, checked, variant = self._setup_scope(game, options)
        problems = rules.setup_problems("south", setup, complete=False, options=checked)
        if problems:
            raise invalid_setup(problems)
        setup = self._draft(rules, "south", setup, checked)
        if self.store.count_setups(browser_hash) >= self.MAX_SAVED_SETUPS:
            raise ServiceError("too_many_setups", _("Можно сохранить не больше 50 расстановок."))
        r = self.store.add_setup(browser_hash, name, setup, game, variant)
        return {"id": r.id, "name": r.name, "setup": r.setup, "created_at": r.created_at.isoformat()}

    def delete_setup(self, browser_hash: str, setup_id: int) -> None:
        """Delete one of the browser's saved setups. :raises ServiceError: ``not_found``."""
        if not self.store.delete_setup(browser_hash, setup_id):
            raise ServiceError("not_found", _("Расстановка не найдена."))
