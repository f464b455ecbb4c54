"""What a socket is shown: the public facts of a game (players, clocks, offers, result) handed to the snapshot
module (:mod:`admiral.service.snapshot`, the one place that picks what an audience sees), and the record and
replay after the end."""

from __future__ import annotations

from typing import Any

from admiral.i18n import _

from .. import snapshot
from ..errors import ServiceError
from .base import SessionBase
from .live import (
    SIDES,
    LiveGame,
    _other,
)


class ShowMixin(SessionBase):
    """The public facts of a snapshot; the record and the replay (a part of
    :class:`~admiral.service.session.GameService`)."""

    def _version(self, g: LiveGame) -> int:
        return 0 if g.game is None else g.rules.ply(g.game)

    def can_abort(self, g: LiveGame) -> bool:
        """Whether the game may still be aborted: before play, or while neither side has made two turns."""
        if g.status in ("waiting", "setup"):
            return True
        return g.status == "play" and all(n < 2 for n in g.turns.values())

    def can_claim(self, g: LiveGame, side: str | None, mono: float | None = None) -> bool:
        """Whether ``side`` may claim the win: in play, its opponent disconnected ≥ the grace time. Never in a
        correspondence game (issue 19): there a player is away between moves by design, and only the move's days
        decide (flag fall)."""
        if side is None or g.status != "play" or g.settings.correspondence:
            return False
        mono = self.now.mono() if mono is None else mono
        return self._disconnected_ms(g, _other(side), mono) >= self.options.claim_grace_ms

    def snapshot(
        self,
        g: LiveGame,
        side: str | None,
        browser_hash: str | None = None,
        *,
        chat_history: bool = True,
        wire: bool = False,
        held: snapshot.HeldView | None = None,
    ) -> dict[str, Any]:
        """The ``snapshot`` message for ``side`` (``None``: spectator); see docs/protocol.md. ``chat_history``:
        whether the seat's ``chat`` carries the messages (a socket's first snapshot, a block change, a lost event)
        or only its state (``messages: null``: every other snapshot, so a move does not resend the chat). ``wire``: the
        view as its cached JSON (:func:`admiral.service.snapshot.encoded_view`), for a socket's ``orjson.dumps``;
        ``held``: what a socket that takes deltas holds (:class:`.snapshot.HeldView`; :func:`.snapshot.message`)."""
        mono = self.now.mono()
        clocks: dict[str, Any] = {"south_ms": None, "north_ms": None, "running": None, "setup_ms": None}
        if g.clock is not None:
            clocks.update(
                south_ms=max(0, g.clock.left("south", mono)),
                north_ms=max(0, g.clock.left("north", mono)),
                running=g.clock.running if g.status == "play" else None,
            )
        elif g.settings.base_ms:
            clocks.update(south_ms=g.settings.base_ms, north_ms=g.settings.base_ms)
        if g.status == "setup" and g.setup_deadline_ms is not None:
            clocks["setup_ms"] = max(0, g.setup_deadline_ms - self.now.wall_ms())
        public = {
            "id": g.id,
            "status": g.status,
            "version": self._version(g),
            "settings": {k: v for k, v in g.settings.to_dict().items() if k != "time_control"},
            "players": {
                s: {
                    "joined": g.seats[s].browser_hash is not None,
                    "connected": g.seats[s].connected,
                    "bot": self._bot_info(g, g.seats[s].bot_level),
                    # a registered commander's nickname and rank are public (a guest's and a bot's: None)
                    "name": (g.seats[s].public_profile or {}).get("name"),
                    "rank": (g.seats[s].public_profile or {}).get("rank"),
                    # its rating in this game (PROGRESSION.md §4): {"rating", "rd", "provisional", "games"}
                    "rating": (g.seats[s].public_profile or {}).get("rating"),
                    "ready": g.seats[s].ready,
                    "disconnected_ms": self._disconnected_ms(g, s, mono),
                }
                for s in SIDES
            },
            "clocks": clocks,
            "draw_offer": g.draw_offer,
            "can_abort": self.can_abort(g) and side is not None,
            "can_claim": self.can_claim(g, side, mono),
            "result": g.result,
            "rematch_url": None if g.rematch_id is None else f"/g/{g.rematch_id}",
            "rematch_offer": g.rematch_offer if g.rematch_id is None else None,
        }
        invite_url = self.invite_url_for(g, browser_hash) if side is not None else None
        chat = self.chat_of(g, side, history=chat_history) if side is not None else None
        return snapshot.message(
            g, side, public, invite_url=invite_url, notes=self.notes_of(g, side), chat=chat, wire=wire, held=held
        )

    @staticmethod
    def _bot_info(g: LiveGame, level: int | None) -> dict[str, Any] | None:
        return None if level is None else {"level": level, "name": g.rules.info.levels.get(level, "")}

    def setup_state_message(self, g: LiveGame, side: str) -> dict[str, Any]:
        """The ``setup.state`` message for ``side`` (:func:`.snapshot.setup_state`)."""
        return {"type": "setup.state", **snapshot.setup_state(g, side)}

    def record_json(self, g: LiveGame) -> str:
        """The game record (JSON text) after the end. :raises ServiceError: ``not_over``."""
        if g.status != "over" or g.game is None:
            raise ServiceError("not_over", _("Запись партии доступна после её окончания."))
        return g.rules.record_json(g.game)

    def replay(self, g: LiveGame) -> dict[str, Any]:
        """Setups and per-ply deltas after the end. :raises ServiceError: ``not_over``."""
        if g.status != "over" or g.game is None:
            raise ServiceError("not_over", _("Запись партии доступна после её окончания."))
        return g.rules.replay(g.game)
