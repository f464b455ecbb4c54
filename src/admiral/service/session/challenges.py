"""Open challenges («Вызовы», issue 19; docs/protocol.md "Lobby"): an open challenge is a waiting game that is
listed (``games.listed``). Creating one is :meth:`create_game` with ``listed``; accepting it is the atomic claim of
its free seat (:meth:`_claim`: one conditional ``UPDATE`` under the game's lock, across instances), so of two
accepts exactly one wins; cancelling it is aborting the waiting game; a challenge whose creator has not been seen
for a while is aborted by :meth:`abandon_challenges`. Quick pairing makes a game with both seats held
(:meth:`create_paired`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from functools import cached_property
from typing import Protocol, TypeVar

from admiral.games import GAMES
from admiral.i18n import _
from admiral.store import LobbyStore

from ..errors import ServiceError
from ..lobby import GameSettings
from .base import SessionBase
from .live import LiveGame

#: Quick pairing's rating window (docs/protocol.md "Quick pairing"): ±``WINDOW_START`` at once, ``WINDOW_STEP``
#: wider every ``WINDOW_EVERY_MS`` of waiting, any rating once a seek has waited ``WINDOW_ANY_MS``.
WINDOW_START, WINDOW_STEP, WINDOW_EVERY_MS, WINDOW_ANY_MS = 100, 50, 5_000, 30_000
#: A seek whose lobby socket no instance has renewed for this long (its instance died) leaves the pool, ms.
SEEK_GONE_MS = 20_000
#: A commander the lobby put in a game (an accepted challenge, a pairing) this long ago or less, and whose game is
#: still being set up or played, is refused another lobby game (``in_game``): the race of two tabs, ms.
ENTERED_MS = 15_000


def rating_window(wait_ms: int) -> float:
    """The rating difference a seek that has waited ``wait_ms`` accepts.

    >>> rating_window(0), rating_window(4_999), rating_window(5_000), rating_window(29_999), rating_window(30_000)
    (100, 100, 150, 350, inf)"""
    if wait_ms >= WINDOW_ANY_MS:
        return math.inf
    return WINDOW_START + WINDOW_STEP * (max(0, wait_ms) // WINDOW_EVERY_MS)


class SeekLike(Protocol):
    """What :func:`match_seeks` reads of a seek (:class:`~admiral.store.models.LobbySeekRow`)."""

    key: str
    game: str
    time_control: str
    rated: bool
    rating: int
    joined_at: int


S = TypeVar("S", bound=SeekLike)


def match_seeks(seeks: Sequence[S], now_ms: int) -> list[tuple[S, S]]:
    """Pairs of the pool: the same game, time control and rated-ness, and a rating difference both windows
    accept (:func:`rating_window` of each one's wait: each side must accept the other, as lichess's pool does).
    The longest waiting seek (``seeks`` oldest first) is served first, with its closest rating; nobody twice.

    >>> from types import SimpleNamespace as S
    >>> a = S(key="a", game="admiral", time_control="5+3", rated=True, rating=1500, joined_at=0)
    >>> b = S(key="b", game="admiral", time_control="5+3", rated=True, rating=1620, joined_at=9_000)
    >>> c = S(key="c", game="admiral", time_control="5+3", rated=True, rating=1560, joined_at=10_000)
    >>> [(x.key, y.key) for x, y in match_seeks([a, b, c], 10_000)]
    [('a', 'c')]
    >>> match_seeks([a, b], 10_000), [(x.key, y.key) for x, y in match_seeks([a, b], 14_000)]
    ([], [('a', 'b')])"""
    pairs: list[tuple[S, S]] = []
    taken: set[str] = set()
    for i, a in enumerate(seeks):
        if a.key in taken:
            continue
        best: tuple[int, S] | None = None
        for b in seeks[i + 1 :]:
            if (
                b.key in taken
                or b.key == a.key
                or (b.game, b.time_control, b.rated) != (a.game, a.time_control, a.rated)
            ):
                continue
            diff = abs(a.rating - b.rating)
            if diff <= min(rating_window(now_ms - a.joined_at), rating_window(now_ms - b.joined_at)):
                if best is None or diff < best[0]:
                    best = (diff, b)
        if best is not None:
            taken |= {a.key, best[1].key}
            pairs.append((a, best[1]))
    return pairs


class ChallengeMixin(SessionBase):
    """Open challenges and paired games (a part of :class:`~admiral.service.session.GameService`)."""

    #: Open challenges one commander may have at once (more: ``too_many_challenges``).
    MAX_OPEN_CHALLENGES = 3

    @cached_property
    def lobby_store(self) -> LobbyStore:
        """The lobby's reads and writes, on the games' database."""
        return LobbyStore(self.store.engine)

    async def create_challenge(
        self,
        browser_hash: str,
        settings: GameSettings,
        address: str | None = None,
        browser_token: str | None = None,
        *,
        guest: bool,
    ) -> str:
        """Create an open challenge by ``browser_hash`` (a waiting game, listed; the creator's seat as
        ``settings.side`` asks). ``guest``: the creator is not a registered commander (casual only). ``address``,
        ``browser_token``: the creator's, kept as keyed hashes with the seat (PROGRESSION.md §2).

        :returns: the game id.
        :raises ServiceError: ``guest_rated`` (a guest asked for a rated game, PROGRESSION.md §4: rated games are
            between registered commanders), ``bad_settings`` (a game against the AI cannot be open),
            ``too_many_challenges`` (``detail.max``: :attr:`MAX_OPEN_CHALLENGES` open already)."""
        if settings.ai_level:
            raise ServiceError("bad_settings", _("Открытый вызов — это партия с человеком, не с ИИ."))
        if settings.rated and guest:
            raise ServiceError("guest_rated", _("Рейтинговые партии — для зарегистрированных командиров. Гость "
                                                "может играть без рейтинга."))  # fmt: skip
        async with self._serialised(f"challenges:{browser_hash}"):
            if await self._db(self.lobby_store.open_challenges_of, browser_hash) >= self.MAX_OPEN_CHALLENGES:
                raise ServiceError(
                    "too_many_challenges",
                    _("У вас уже %(n)s открытых вызова — это предел. Дождитесь соперника или отмените один.",
                      n=self.MAX_OPEN_CHALLENGES),
                    {"max": self.MAX_OPEN_CHALLENGES},
                )  # fmt: skip
            game_id, _code = await self.create_game(browser_hash, settings, address, browser_token, listed=True)
        return game_id

    async def _challenge(self, game_id: str) -> LiveGame:
        """The open challenge ``game_id`` as the database holds it now.

        :raises ServiceError: ``challenge_gone`` for an id that is no open challenge (unknown, taken, cancelled,
            abandoned, or a game by invite link: those are never claimed from the lobby)."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > 16:
            raise ServiceError("challenge_gone", _("Этого вызова уже нет: его приняли или отменили."))
        if not await self._db(self.lobby_store.is_listed, game_id):
            raise ServiceError("challenge_gone", _("Этого вызова уже нет: его приняли или отменили."))
        try:
            return await self.current(game_id)
        except ServiceError:
            raise ServiceError("challenge_gone", _("Этого вызова уже нет: его приняли или отменили.")) from None

    async def accept_challenge(
        self, game_id: str, browser_hash: str, *, guest: bool, marks: dict[str, str | None] | None = None
    ) -> tuple[str, str, list[str]]:
        """``browser_hash`` accepts the open challenge ``game_id``: the atomic claim of its free seat (of two
        accepts at once, on one instance or two, exactly one wins; the game goes to the setup). ``marks``: the
        seat's ``browser_key`` and ``address_key`` (:meth:`seat_marks`; PROGRESSION.md §2).

        Both commanders enter the game through the lobby (:meth:`_enter`): their seeks leave the pool and their
        other open challenges are withdrawn. All of it happens under the pool's lock, as pairing does, so that a
        commander cannot get into two games at once from two tabs (one accepting, the other seeking).

        :returns: ``(url, creator, withdrawn)``: the game's URL ``/g/{id}``, its creator's identity key (to tell
            them) and the ids of the open challenges withdrawn.
        :raises ServiceError: ``challenge_gone`` (no such open challenge), ``own_challenge`` (the creator's own),
            ``guest_rated`` (a rated challenge and a guest), ``challenge_taken`` (another accept won the seat
            first), ``in_game`` (the acceptor entered a game through the lobby a moment ago); nothing changed
            then."""
        async with self._serialised(self.POOL_LOCK):
            g = await self._challenge(game_id)
            if g.creator_hash == browser_hash or g.seat_of(browser_hash) is not None:
                raise ServiceError("own_challenge", _("Это ваш собственный вызов: его примет другой игрок."))
            if g.settings.rated and guest:
                raise ServiceError("guest_rated", _("Рейтинговые партии — для зарегистрированных командиров. Гость "
                                                    "может играть без рейтинга."))  # fmt: skip
            await self._refuse_if_entered(browser_hash)
            await self._shielded(self._claim(g, browser_hash, marks))
            if g.seat_of(browser_hash) is None:
                raise ServiceError("challenge_taken", _("Вызов уже принял другой игрок."))
            g.log.info("challenge accepted")
            withdrawn = await self._shielded(self._enter([browser_hash, g.creator_hash], keep=g.id))
        return f"/g/{g.id}", g.creator_hash, withdrawn

    async def _refuse_if_entered(self, key: str) -> None:
        """Refuse ``key`` a new lobby game while one the lobby made them a moment ago (:data:`ENTERED_MS`) is
        being set up or played: the other tab's accept or pairing won the race. Caller holds the pool's lock.

        :raises ServiceError: ``in_game`` with ``detail.url``."""
        since = self.now.utc() - timedelta(milliseconds=ENTERED_MS)
        game_id = await self._db(self.lobby_store.entered_since, key, since)
        if game_id is not None:
            raise ServiceError("in_game", _("Вы только что начали другую партию — сначала доиграйте её."),
                               {"url": f"/g/{game_id}"})  # fmt: skip

    async def _enter(self, keys: list[str], keep: str | None) -> list[str]:
        """``keys`` entered a game through the lobby (``keep``: the accepted challenge, if any): their seeks leave
        the pool and their other open challenges are withdrawn (aborted; the cached copies follow and every
        socket of those games is told). Caller holds the pool's lock. Returns the withdrawn ids."""
        await self._db(self.lobby_store.drop_seeks, keys)
        gone = await self._db(self.lobby_store.withdraw, keys, keep, self.now.utc())
        for game_id in gone:
            g = self.games.get(game_id)
            if g is not None and g.status == "waiting":
                g.status, g.draw_offer = "aborted", None
                g.log.info("challenge withdrawn: its creator entered another game")
                await self._publish(g)
        return gone

    async def cancel_challenge(self, game_id: str, browser_hash: str) -> None:
        """The creator withdraws the open challenge ``game_id``: the waiting game is aborted.

        :raises ServiceError: ``challenge_gone``; ``not_yours`` (only its creator may cancel it);
            ``game_over`` (taken or ended meanwhile)."""
        g = await self._challenge(game_id)
        side = g.seat_of(browser_hash)
        if g.creator_hash != browser_hash or side is None:
            raise ServiceError("not_yours", _("Отменить вызов может только тот, кто его сделал."))
        if g.status != "waiting":
            raise ServiceError("challenge_taken", _("Вызов уже принял другой игрок."))
        await self.abort(g, side)  # type: ignore[attr-defined]  # FinishMixin: under the lock, then published

    async def create_paired(
        self,
        first: str,
        second: str,
        settings: GameSettings,
        marks: tuple[dict[str, str | None], dict[str, str | None]] = ({}, {}),
    ) -> str:
        """A game of two commanders the quick pairing matched (issue 19): ``first`` as ``settings.side`` asks
        (random by default), ``second`` the other seat, both held from the start (straight to the setup).
        ``marks``: each one's stored seat marks (``browser_key``, ``address_key``: PROGRESSION.md §2).

        :returns: the game id."""
        game_id, _code = await self.create_game(
            first, settings, opponent=second, creator_marks=marks[0], opponent_marks=marks[1]
        )
        self.games[game_id].log.info("paired")
        return game_id

    async def abandon_challenges(self, seen_before_ms: int) -> list[str]:
        """Abort the open challenges whose creator no instance has seen since ``seen_before_ms`` (epoch ms): one
        conditional ``UPDATE`` (a challenge taken meanwhile is left alone), then the cached copies follow and
        every socket of those games is told. Returns their ids."""
        gone = await self._db(self.lobby_store.abandon, seen_before_ms, self.now.utc())
        for game_id in gone:
            g = self.games.get(game_id)
            if g is not None and g.status == "waiting":
                g.status, g.draw_offer = "aborted", None
                g.log.info("challenge abandoned by its creator: aborted")
                await self._publish(g)
        return gone

    # -- quick pairing (docs/protocol.md "Quick pairing") ----------------------------------------------------

    #: The lock every change of the pool takes, on every instance (``bus.lock``): nobody is paired twice.
    POOL_LOCK = "lobby:pairing"

    async def join_pool(
        self,
        key: str,
        game: str,
        time_control: str,
        rated: bool,
        rating: int,
        *,
        guest: bool,
        marks: dict[str, str | None] | None = None,
    ) -> None:
        """Put ``key`` in the quick-pairing pool (replacing a seek of theirs) for ``game`` at ``time_control`` (one
        of the game's ``GameInfo.pairing``), ``rated`` or not, with ``rating`` (1500 for a guest); ``marks``: the
        seeker's ``browser_key`` and ``address_key`` (:meth:`seat_marks`), for the seat the pairing makes.

        :raises ServiceError: ``unknown_game``; ``bad_settings`` (a time control the game does not pair);
            ``guest_rated``; ``in_game`` (the lobby made them a game a moment ago); ``unavailable`` (the pool's
            lock could not be had)."""
        info = GAMES[game].info if game in GAMES else None
        if info is None:
            raise ServiceError("unknown_game", _("Такой игры на сайте нет."))
        if time_control not in info.pairing:
            raise ServiceError("bad_settings", _("Для этого контроля времени быстрого подбора нет."))
        if rated and guest:
            raise ServiceError("guest_rated", _("Рейтинговые партии — для зарегистрированных командиров. Гость "
                                                "может играть без рейтинга."))  # fmt: skip
        now = self.now.wall_ms()
        async with self._serialised(self.POOL_LOCK):
            await self._refuse_if_entered(key)
            await self._db(
                self.lobby_store.put_seek, key=key, game=game, time_control=time_control, rated=rated,
                rating=rating, joined_at=now, seen_at=now, **(marks or {}),
            )  # fmt: skip

    async def seek_of(self, key: str) -> dict[str, object] | None:
        """``key``'s seek in the pool as the lobby shows it (``{game, time_control, rated}``), or ``None``."""
        row = await self._db(self.lobby_store.seek_of, key)
        return None if row is None else {"game": row.game, "time_control": row.time_control, "rated": row.rated}

    async def leave_pool(self, key: str) -> None:
        """Take ``key`` out of the pool (nothing if it is not there)."""
        async with self._serialised(self.POOL_LOCK):
            await self._db(self.lobby_store.drop_seeks, [key])

    async def pair_pool(self) -> tuple[list[tuple[str, str, str]], list[str]]:
        """Pair whom the pool can pair now (:func:`match_seeks`), under the pool's lock across the instances:
        each pair's seeks are deleted and a game made with both seats held (sides at random, the game's default
        setup time), and both commanders' open challenges are withdrawn (:meth:`_enter`). Seeks not renewed for
        :data:`SEEK_GONE_MS` are dropped first.

        :returns: ``([(first key, second key, game id)], [withdrawn challenge ids])``."""
        made: list[tuple[str, str, str]] = []
        withdrawn: list[str] = []
        async with self._serialised(self.POOL_LOCK):
            now = self.now.wall_ms()
            await self._db(self.lobby_store.drop_stale_seeks, now - SEEK_GONE_MS)
            seeks = await self._db(self.lobby_store.seeks)
            for a, b in match_seeks(seeks, now):
                if await self._db(self.lobby_store.drop_seeks, [a.key, b.key]) != 2:
                    continue
                info = GAMES[a.game].info
                settings = GameSettings.from_form(
                    a.time_control, setup_minutes=info.setup_minutes, game=a.game, rated=a.rated
                )
                marks = tuple({"browser_key": x.browser_key, "address_key": x.address_key} for x in (a, b))
                made.append((a.key, b.key, await self.create_paired(a.key, b.key, settings, marks)))  # type: ignore[arg-type]
                withdrawn += await self._shielded(self._enter([a.key, b.key], keep=None))
        return made, withdrawn

    async def leave_lobby_identity(self, key: str) -> list[str]:
        """The browser left the identity ``key`` (a guest who logged in to an account): its seek leaves the pool
        and its open challenges are withdrawn — nobody could take their seat in that browser any more. Returns
        the withdrawn ids."""
        async with self._serialised(self.POOL_LOCK):
            return await self._shielded(self._enter([key], keep=None))
