"""Creating games and inviting: the invite code (sealed with the secret key), the lobby's create, a friend's
claim of the free seat, the AI game limits, who holds which seat."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

from admiral.games import DEFAULT_GAME
from admiral.i18n import ngettext
from admiral.store import GameRow, GameSeatRow

from ..errors import ServiceError
from ..lobby import GameSettings, hash_token, new_game_id
from .base import SessionBase
from .live import (
    BOT_PREFIX,
    SIDES,
    LiveGame,
    Seat,
    _bot_level,
    _other,
)


class InviteMixin(SessionBase):
    """Creating games, invite codes, claiming the free seat, the AI game limits, seats (a part of
    :class:`~admiral.service.session.GameService`)."""

    def _pad(self, game_id: str) -> bytes:
        return hmac.new(self.options.secret_key.encode(), f"invite:{game_id}".encode(), hashlib.sha256).digest()[:16]

    def _seal(self, game_id: str, code: bytes) -> str:
        return bytes(a ^ b for a, b in zip(code, self._pad(game_id), strict=True)).hex()

    def invite_code(self, g: LiveGame) -> str | None:
        """The plain invite code of ``g`` (kept sealed with the secret key, never in clear in the database)."""
        if not g.invite_sealed:
            return None
        raw = bytes(a ^ b for a, b in zip(bytes.fromhex(g.invite_sealed), self._pad(g.id), strict=True))
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def _new_invite(self, game_id: str) -> tuple[str, str, str]:
        raw = secrets.token_bytes(16)
        code = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return code, hash_token(code), self._seal(game_id, raw)

    async def create_game(
        self,
        browser_hash: str,
        settings: GameSettings,
        address: str | None = None,
        browser_token: str | None = None,
        *,
        listed: bool = False,
        opponent: str | None = None,
        creator_marks: dict[str, str | None] | None = None,
        opponent_marks: dict[str, str | None] | None = None,
    ) -> tuple[str, str | None]:
        """Create a game and seat its creator (``settings.side``, or a random side). With a friend the game
        waits for the invite to be accepted; against the AI (``settings.ai_level``) the bot takes the
        other seat and sets up at once, and the game goes straight to the setup. ``address``: the creator's
        client address (only a keyed hash of it is stored, to count AI games per address and, with the keyed hash
        of ``browser_token``, the creator's cookie, to find the games PROGRESSION.md §2 leaves unrated). ``listed``:
        an open challenge in the lobby (issue 19; its creator counts as seen now). ``opponent``: the identity key that
        takes the other seat at once (quick pairing, issue 19): the game goes straight to the setup, no invite;
        ``creator_marks``/``opponent_marks``: each seat's ``browser_key`` and ``address_key`` as stored (already
        keyed hashes; by default the creator's come from ``browser_token`` and ``address``).

        :returns: ``(game_id, invite_code)``; the invite code is ``None`` in a game against the AI.
        :raises ServiceError: ``too_many_ai_games`` when the creator (or its address) already has the most
            unfinished games against the AI (:meth:`check_bot_games`).
        """
        ai = settings.ai_level
        address_key = self.address_key(address)
        # Check and insert as one, per commander and per address (QA: 20 requests at once made 20 AI games where
        # the limit was 6), in this process and, with instances sharing the games, across them.
        names = (f"ai-games:{browser_hash}", f"ai-games:{address_key}") if ai else ()
        async with self._serialised(*names):
            if ai:
                await self.check_bot_games(browser_hash, address_key)
            side = settings.side if settings.side in SIDES else secrets.choice(SIDES)
            for _attempt in range(5):
                game_id = new_game_id()
                if await self._db(self.store.revision, game_id) is None:
                    break
            code, invite_hash, sealed = self._new_invite(game_id)
            direct = bool(ai) or opponent is not None  # both seats held from the start: straight to the setup
            if direct:
                code, sealed = None, None
            wall = self.now.wall_ms()
            row = GameRow(
                id=game_id, invite_hash=invite_hash, invite_sealed=sealed, creator_hash=browser_hash,
                creator_address=address_key, game=settings.game, status="setup" if direct else "waiting",
                settings=settings.to_dict(),
                seed=secrets.randbits(62), ply=0,
                checkpoint_at=wall if direct else None,
                setup_deadline=wall + settings.setup_ms if direct and settings.setup_ms else None,
                listed=listed and not direct, creator_seen_at=wall if listed and not direct else None,
            )  # fmt: skip
            holders = {side: browser_hash, _other(side): f"{BOT_PREFIX}{ai}" if ai else opponent}
            marks = {side: creator_marks or self.seat_marks(address, browser_token), _other(side): opponent_marks or {}}
            seats = [
                GameSeatRow(
                    game_id=game_id,
                    side=s,
                    browser_hash=holders[s],
                    draft={},
                    ready=False,
                    auto_declare=False,
                    joined_at=self.now.utc() if holders[s] else None,
                    browser_key=marks[s].get("browser_key"),
                    address_key=marks[s].get("address_key"),
                )
                for s in SIDES
            ]
            g = LiveGame(
                row, {s.side: Seat(s.side, s.browser_hash, {}, False, False) for s in seats}, self._rules_of(row)
            )
            self._set_up_bots(g, seats)
            self._fix_starts(g, seats)
            await self._db(self.store.create_game, row, seats)
            self.games[game_id] = g
            g.log.info("created side=%s settings=%s", side, settings.to_dict())
            if direct:
                await self._start_fixed(g)
            self._schedule(g)
            return game_id, code

    def _fix_starts(self, g: LiveGame, seats: list[GameSeatRow]) -> None:
        """In a game whose start is fixed by its rules (capability ``"fixed_start"``: nothing to arrange), every
        seat's draft is that start and ready from the creation, so play begins as soon as both seats are held."""
        if "fixed_start" not in g.rules.info.capabilities:
            return
        for row in seats:
            row.draft, row.ready = g.rules.auto_setup(row.side, 0, {}, g.settings.options), True
            g.seats[row.side].draft, g.seats[row.side].ready = dict(row.draft), True

    async def _start_fixed(self, g: LiveGame) -> None:
        """Start play at once in a new game with both seats held whose start is fixed (``"fixed_start"``); nothing
        for another game. A failed start is tried again by the sweeper (:meth:`_check_deadlines`)."""
        if "fixed_start" in g.rules.info.capabilities:
            async with self._locked(g):
                await self._start_if_ready(g)

    async def unfinished_games(self, browser_hash: str) -> list[dict[str, Any]]:
        """The games ``browser_hash`` holds a seat in that are not over, newest first (at most 20), for the home
        page: ``{"id", "url", "status" ("waiting"/"setup"/"play"), "side", "ai_level" (None: a friend),
        "created_at" (aware datetime), "game" (its key)}``."""
        out = []
        for row, side, holder in await self._db(self.store.unfinished_games, browser_hash):
            out.append({
                "id": row.id, "url": f"/g/{row.id}", "status": row.status, "side": side,
                "ai_level": _bot_level(holder), "created_at": row.created_at, "game": row.game or DEFAULT_GAME,
            })  # fmt: skip
        return out

    def address_key(self, address: str | None) -> str | None:
        """The stored form of a client address: a keyed hash (32 hex digits), so the database never holds an
        address in clear; ``None`` for none."""
        if not address:
            return None
        digest = hmac.new(self.options.secret_key.encode(), f"address:{address}".encode(), hashlib.sha256)
        return digest.hexdigest()[:32]

    def seat_marks(self, address: str | None, browser_token: str | None) -> dict[str, str | None]:
        """What a seat keeps of who took it (PROGRESSION.md §2's unrated games): ``{"browser_key", "address_key"}``,
        keyed hashes of the browser token and the client address (:meth:`browser_key`, :meth:`address_key`)."""
        return {"browser_key": self.browser_key(browser_token), "address_key": self.address_key(address)}

    def browser_key(self, token: str | None) -> str | None:
        """The stored form of a browser token (the ``admiral_browser`` cookie) for PROGRESSION.md §2's "one
        browser": a keyed hash (32 hex digits), never the token; ``None`` for none. Unlike the identity key it stays
        the same when the browser's commander logs in or out."""
        if not token:
            return None
        digest = hmac.new(self.options.secret_key.encode(), f"browser:{token}".encode(), hashlib.sha256)
        return digest.hexdigest()[:32]

    async def check_bot_games(self, browser_hash: str | None, address_key: str | None = None) -> None:
        """Refuse one more game against the AI (each keeps a bot thinking on the server's cores) to a commander
        who already holds ``max_bot_games`` unfinished ones, or to a client address from which
        ``max_bot_games_per_address`` unfinished ones were created (fresh cookies must not give unlimited
        games: issue 16). ``address_key``: the address as :meth:`address_key` stores it.

        :raises ServiceError: ``too_many_ai_games`` (``detail.max``: the limit reached)."""
        if browser_hash is None or browser_hash.startswith(BOT_PREFIX):
            return
        if address_key is not None:
            from_address = await self._db(self.store.active_bot_games_from, address_key, BOT_PREFIX)
            if from_address >= self.options.max_bot_games_per_address:
                raise ServiceError(
                    "too_many_ai_games",
                    ngettext(
                        "С вашего адреса уже идёт %(num)s партия против ИИ — это предел. Доиграйте, сдайте или "
                        "отмените одну из них.",
                        "С вашего адреса уже идут %(num)s партии против ИИ — это предел. Доиграйте, сдайте или "
                        "отмените одну из них.",
                        self.options.max_bot_games_per_address,
                    ),
                    {"max": self.options.max_bot_games_per_address},
                )
        if len(await self._db(self.store.active_bot_games, browser_hash, BOT_PREFIX)) >= self.options.max_bot_games:
            raise ServiceError(
                "too_many_ai_games",
                ngettext(
                    "У вас уже идёт %(num)s партия против ИИ — это предел. Доиграйте, сдайте или отмените её: "
                    "незаконченные партии перечислены на главной странице.",
                    "У вас уже идут %(num)s партии против ИИ — это предел. Доиграйте, сдайте или отмените одну "
                    "из них: незаконченные партии перечислены на главной странице.",
                    self.options.max_bot_games,
                ),
                {"max": self.options.max_bot_games},
            )

    async def game_by_invite(self, code: str) -> LiveGame | None:
        """The game an invite code belongs to, if any, current as the database holds it (:meth:`current`)."""
        if not code or len(code) > 64:
            return None
        game_id = await self._db(self.store.game_id_by_invite, hash_token(code))
        return None if game_id is None else await self.current(game_id)

    def invite_state(self, g: LiveGame, browser_hash: str | None) -> str:
        """For the invite page: ``creator``, ``seated`` (this browser holds a seat), ``open`` or ``used``."""
        if browser_hash is not None and browser_hash == g.creator_hash:
            return "creator"
        if g.seat_of(browser_hash) is not None:
            return "seated"
        if g.status == "waiting" and any(s.browser_hash is None for s in g.seats.values()):
            return "open"
        return "used"

    async def claim(
        self, code: str, browser_hash: str, address: str | None = None, browser_token: str | None = None
    ) -> str | None:
        """Claim the free seat of the invite's game for ``browser_hash`` (atomic, single use). ``address`` and
        ``browser_token``: the claimant's client address and cookie, kept with the seat only as keyed hashes
        (:meth:`address_key`, :meth:`browser_key`; PROGRESSION.md §2).

        :returns: the game id (whether or not the seat was won: a loser becomes a spectator), ``None`` for an
            unknown invite.
        """
        g = await self.game_by_invite(code)
        if g is None:
            return None
        if self.invite_state(g, browser_hash) != "open":
            return g.id
        return await self._shielded(self._claim(g, browser_hash, self.seat_marks(address, browser_token)))

    async def _claim(self, g: LiveGame, browser_hash: str, marks: dict[str, str | None] | None = None) -> str:
        """Take the free seat (one atomic write: a second claimant loses), then open the setup. ``marks``: the
        seat's ``browser_key`` and ``address_key`` (PROGRESSION.md §2)."""
        async with self._locked(g):
            free = [s for s in SIDES if g.seats[s].browser_hash is None]
            if g.status != "waiting" or not free:
                return g.id
            if not await self._db(self.store.claim_seat, g.id, free[0], browser_hash, **(marks or {})):
                await self._catch_up(g, stale=True)  # another instance's claimant won the seat
                return g.id
            g.seats[free[0]].browser_hash = browser_hash
            g.seats[free[0]].gone_since = self.now.mono()
            g.log.info("joined side=%s", free[0])
            await self._open_setup(g)
            self._schedule(g)
        await self._publish(g)
        return g.id

    async def _open_setup(self, g: LiveGame) -> None:
        """Both seats are held: the game goes from ``waiting`` to ``setup`` (with its setup deadline), stored,
        then live; play starts at once if both fleets are ready. Caller holds the lock. A failed write leaves
        the game waiting with both seats held, which the sweeper finishes (:meth:`_check_deadlines`).

        :raises ServiceError: ``unavailable`` when the write failed."""
        wall = self.now.wall_ms()
        deadline = wall + g.settings.setup_ms if g.settings.setup_ms else None
        values: dict[str, Any] = {"status": "setup", "checkpoint_at": wall}
        if deadline is not None:
            values["setup_deadline"] = deadline
        await self._save(g, **values)
        g.status, g.setup_deadline_ms = "setup", deadline
        await self._start_if_ready(g)

    def role(self, g: LiveGame, browser_hash: str | None) -> str:
        """``south``, ``north`` or ``spectator`` for the browser ``browser_hash``."""
        return g.seat_of(browser_hash) or "spectator"

    def invite_url_for(self, g: LiveGame, browser_hash: str | None) -> str | None:
        """``/j/{code}`` for the creator until the friend joined, else ``None``."""
        if g.status != "waiting" or browser_hash is None or browser_hash != g.creator_hash:
            return None
        code = self.invite_code(g)
        return None if code is None else f"/j/{code}"

    def rekey(self, old: str, new: str) -> None:
        """A guest registered: its seats and games, moved to the identity ``new`` in the database, follow in
        the cache too (open sockets keep their seat; the next connection finds it under ``new``)."""
        for g in self.games.values():
            if g.creator_hash == old:
                g.creator_hash = new
            for seat in g.seats.values():
                if seat.browser_hash == old:
                    seat.browser_hash = new
