"""The setup: drafts, auto-arrangement, ready, the start of play, the setup deadline; saved named setups."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import Any

from admiral.games import DEFAULT_GAME, RuleError, Ruleset
from admiral.i18n import _

from ..clock import GameClock
from ..errors import ServiceError
from ..messages import SetupAutoMsg, SetupReadyMsg, SetupUpdateMsg
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    _now,
    _wall_ms,
)


class SetupMixin(SessionBase):
    """Drafts, auto-arrangement, ready, the start of play, the setup deadline, saved setups (a part of
    :class:`~admiral.service.session.GameService`)."""

    async def _setup(self, g: LiveGame, side: str, msg: SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg) -> list[dict]:
        async with self._locked(g):
            if g.status not in ("waiting", "setup"):
                raise self._not_in_setup(g)
            seat = g.seats[side]
            if seat.ready:
                raise ServiceError("already_ready", _("Расстановка уже зафиксирована: вы готовы."))
            if isinstance(msg, SetupUpdateMsg):
                seat.draft = dict(msg.setup)
            elif isinstance(msg, SetupAutoMsg):
                seat.draft = g.rules.auto_setup(
                    side, secrets.randbits(62), dict(msg.setup), g.settings.options, msg.style
                )
            else:
                problems = g.rules.setup_problems(side, dict(msg.setup), complete=True, options=g.settings.options)
                if problems:
                    raise ServiceError(
                        "invalid_setup",
                        _("Расстановка неверна: %(problems)s", problems=" ".join(p["message"] for p in problems[:3])),
                        {"problems": problems},
                    )  # fmt: skip
                seat.draft, seat.ready = g.rules.canonical_setup(dict(msg.setup), g.settings.options), True
            await self._db(self.store.update_seat, g.id, side, draft=seat.draft, ready=seat.ready)
            started = False
            if seat.ready:
                g.log.info("ready side=%s", side)
                if g.status == "setup" and all(g.seats[s].ready for s in SIDES):
                    await self._start_play(g)
                    started = True
                self._schedule(g)
        if seat.ready or started:
            await self._publish(g)
        return [self.setup_state_message(g, side)] if not started else []

    def _not_in_setup(self, g: LiveGame) -> ServiceError:
        if g.status in ("over", "aborted"):
            return ServiceError("game_over", _("Партия окончена."))
        return ServiceError("not_in_setup", _("Расстановка уже закончена."))

    async def _start_play(self, g: LiveGame) -> None:
        """Both fleets are ready: build the game, start South's clock. Caller holds the lock."""
        if any(g.seats[s].browser_hash is None for s in SIDES):  # never play against nobody
            raise RuntimeError(f"game {g.id}: play cannot start with an empty seat")
        g.game = g.rules.new_game({s: g.seats[s].draft for s in SIDES}, self._record_settings(g))
        g.status = "play"
        g.setup_deadline_ms = None
        wall, mono = _wall_ms(), time.monotonic()
        values: dict[str, Any] = {"status": "play", "started_at": _now(), "setup_deadline": None, "checkpoint_at": wall}
        if g.settings.base_ms:
            g.clock = GameClock({"south": g.settings.base_ms, "north": g.settings.base_ms})
            g.clock.start(g.rules.to_act(g.game), mono, wall)
            values.update(self._clock_values(g))
        for s in SIDES:
            g.seats[s].gone_since = mono
        await self._db(self.store.update_game, g.id, **values)
        g.log.info("play started")

    async def _expire_setup(self, g: LiveGame) -> None:
        """The setup time ran out: complete every unready draft with auto-arrangement and ready it (rules §3.6).
        A game with a seat nobody holds never starts: it is aborted instead. Caller holds the lock."""
        if any(g.seats[s].browser_hash is None for s in SIDES):
            g.status, g.setup_deadline_ms = "aborted", None
            await self._db(self.store.update_game, g.id, status="aborted", setup_deadline=None, finished_at=_now())
            g.log.warning("setup time out with an empty seat: aborted")
            return
        for side in SIDES:
            seat = g.seats[side]
            if not seat.ready:
                seat.draft = g.rules.auto_setup(side, secrets.randbits(62), seat.draft, g.settings.options)
                seat.ready = True
                await self._db(self.store.update_seat, g.id, side, draft=seat.draft, ready=True)
                g.log.info("setup time out: auto-arranged side=%s", side)
        await self._start_play(g)

    MAX_SAVED_SETUPS = 50

    def _setup_scope(self, game: str, options: Mapping[str, Any] | None) -> tuple[Ruleset, dict[str, Any], str]:
        """The ruleset, the checked room options and the setup variant saved setups of ``game`` are kept under.

        :raises ServiceError: ``unknown_game``, ``bad_options``."""
        rules = self.rulesets.get(game)
        if rules is None:
            raise ServiceError("unknown_game", _("Такой игры на сайте нет."))
        try:
            checked = rules.options(options or {})
        except RuleError as e:
            raise ServiceError("bad_options", e.reason) from None
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

        :raises ServiceError: ``bad_name`` (1–40 characters), ``too_many_setups`` (50 per browser),
            ``invalid_setup`` (``detail.problems``), ``unknown_game``, ``bad_options``.
        """
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ServiceError("bad_name", _("Название: от 1 до 40 символов."))
        rules, checked, variant = self._setup_scope(game, options)
        problems = rules.setup_problems("south", setup, complete=False, options=checked)
        if problems:
            raise ServiceError("invalid_setup", _("Расстановка неверна."), {"problems": problems})
        if self.store.count_setups(browser_hash) >= self.MAX_SAVED_SETUPS:
            raise ServiceError("too_many_setups", _("Можно сохранить не больше 50 расстановок."))
        r = self.store.add_setup(browser_hash, name, setup, game, variant)
        return {"id": r.id, "name": r.name, "setup": r.setup, "created_at": r.created_at.isoformat()}

    def delete_setup(self, browser_hash: str, setup_id: int) -> None:
        """Delete one of the browser's saved setups. :raises ServiceError: ``not_found``."""
        if not self.store.delete_setup(browser_hash, setup_id):
            raise ServiceError("not_found", _("Расстановка не найдена."))
