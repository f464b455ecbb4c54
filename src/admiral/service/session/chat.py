"""Chat in a game between its two seats (issue 19; docs/protocol.md "Chat").

Who may write: a seat's holder (never a spectator, never a bot; a game against the AI has no chat), once both seats
are held. Quick phrases (:data:`PHRASES`, stored as keys and shown in each reader's language) for everyone; free
text only when both seats are held by registered commanders. A text loses its control characters (and the
direction overrides that could disguise it), its runs of white space become one space, and it may hold at most
:data:`TEXT_MAX` characters as the user sees them (grapheme clusters, counted by ICU). The per-seat rate limit is
the socket's (``rate_chat`` in the web layer).

Where it goes: one row of ``chat_messages`` a message (stored only if the game still exists), then ``{"type":
"chat", "message"}`` on the game's bus channel; each socket's writer hands it to its seat unless that seat's
commander blocks the writer (:meth:`ChatMixin.chat_event`); a spectator's socket drops it. A seat's snapshot holds
the last :data:`HISTORY` messages (:meth:`ChatMixin.chat_of`), which stay with the finished game: the replay
shows them to its two players only.

Blocks are per commander (``chat_blocks``, by identity key, kept across games): the blocker no longer sees the
blocked one's messages, in this game and later ones, and can unblock; the blocked one is never told.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from admiral.i18n import _
from admiral.store.chat import ChatStore

from ..errors import ServiceError
from .base import SessionBase
from .live import LiveGame, _other

__all__ = ["HISTORY", "PHRASES", "TEXT_MAX", "ChatMixin", "clean_text", "text_length"]

#: The quick phrases by key (docs/protocol.md "Chat"): «Удачи!», «Хорошая партия», «Спасибо», «Реванш?».
PHRASES = ("gl", "gg", "thanks", "rematch")
#: Most characters of a free text, as the user sees them (grapheme clusters).
TEXT_MAX = 200
#: Messages a seat's snapshot carries (the last ones).
HISTORY = 100
#: Statuses in which the seats may chat: from the setup (both seats held) to after the end.
CHAT_STATUSES = ("setup", "play", "over", "aborted")
#: Invisible characters that reorder or hide text (Unicode bidi embeddings, overrides and isolates).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: Invisible characters that only pad or hide text: zero width space, word joiner, byte order mark, Mongolian vowel
#: separator (QA: «hi» after 150 zero width spaces was accepted). The zero width (non-)joiners stay: emoji sequences
#: and some scripts need them.
_INVISIBLE = frozenset("\u200b\u2060\ufeff\u180e")
#: Combining marks kept on one base character (QA: one «character» carrying 3,000 marks drew over its neighbours).
MARKS_MAX = 3


def clean_text(text: str) -> str:
    """A free text as it is stored: control characters (Unicode category Cc, lone surrogates Cs), direction
    overrides and invisible padding removed (a line break or tab becomes a space), at most :data:`MARKS_MAX`
    combining marks on one character, runs of white space one space, no space at either end.

    >>> clean_text("  Привет,\\n\\tкапитан\\x00!\\u202e ")
    'Привет, капитан!'
    >>> clean_text("\\u200b" * 150 + "hi"), len(clean_text("e" + "\\u0301" * 3000))
    ('hi', 4)
    """
    kept = []
    marks = 0
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\v\f\x85\u2028\u2029":
            kept.append(" ")
        elif cat in ("Cc", "Cs") or ch in _BIDI or ch in _INVISIBLE:
            continue
        elif cat in ("Mn", "Me"):
            marks += 1
            if marks <= MARKS_MAX:
                kept.append(ch)
            continue
        else:
            kept.append(ch)
        marks = 0
    return " ".join("".join(kept).split())


def text_length(text: str) -> int:
    """The number of characters of ``text`` as the user sees them: extended grapheme clusters (Unicode UAX #29,
    through ICU), so an emoji made of several code points counts as one.

    >>> text_length("👍🏽 ок"), len("👍🏽 ок")
    (4, 5)
    """
    import icu  # PyICU (the distribution ``pyicu-wheels``), as admiral.service.nicknames

    it = icu.BreakIterator.createCharacterInstance(icu.Locale.getRoot())
    it.setText(text)
    return sum(1 for _ in it)


def _not_allowed(message: str) -> ServiceError:
    return ServiceError("chat_not_allowed", message)


class ChatMixin(SessionBase):
    """Chat between a game's two seats (a part of :class:`~admiral.service.session.GameService`; see the module
    docstring)."""

    _chat_store: ChatStore | None = None

    @property
    def chat_store(self) -> ChatStore:
        """The chat tables' store, over the game store's engine."""
        if self._chat_store is None:
            self._chat_store = ChatStore(self.store.engine)
        return self._chat_store

    # -- who may chat ----------------------------------------------------------------------------

    @staticmethod
    def chat_open(g: LiveGame) -> bool:
        """Whether the game has a chat at all: two people hold its seats (no bot, no free seat)."""
        return all(s.browser_hash is not None and s.bot_level is None for s in g.seats.values())

    @staticmethod
    def free_text(g: LiveGame) -> bool:
        """Whether free text is allowed: both seats held by registered commanders (their public profiles read)."""
        return all(s.public_profile is not None for s in g.seats.values())

    def _check_chat(self, g: LiveGame, side: str | None) -> str:
        """The writer's side if ``side`` may chat in ``g`` now.

        :raises ServiceError: ``chat_not_allowed`` (a spectator, a game with a bot or a free seat, before the
            setup)."""
        if side is None or side not in g.seats:
            raise _not_allowed(_("Зрители не участвуют в чате: писать могут только игроки."))
        if not self.chat_open(g):
            raise _not_allowed(_("Чат есть только в партии двух игроков."))
        if g.status not in CHAT_STATUSES:
            raise _not_allowed(_("Чат откроется, когда соперник займёт место."))
        return side

    # -- writing ---------------------------------------------------------------------------------

    async def prepare_chat(
        self, g: LiveGame, side: str | None, *, phrase: str | None, text: str | None
    ) -> tuple[str, str, str]:
        """Check a chat message of ``side`` as :meth:`send_chat` would store it, storing nothing (the web layer asks
        first, so that a refused message does not use up the seat's rate limit).

        :returns: ``(side, kind, body)``: ``kind`` ``phrase`` or ``text``, ``body`` the phrase's key or the
            cleaned text (:func:`clean_text`).
        :raises ServiceError: as :meth:`send_chat`, but ``not_found`` and ``unavailable``."""
        side = self._check_chat(g, side)
        if (phrase is None) == (text is None):
            raise ServiceError("bad_message", _("Сообщение неверной формы."), {"fields": ["phrase", "text"]})
        if phrase is not None:
            if phrase not in PHRASES:
                raise ServiceError("chat_unknown_phrase", _("Такой фразы нет."), {"phrases": list(PHRASES)})
            kind, body = "phrase", phrase
        else:
            await self._ensure_profiles(g)
            if not self.free_text(g):
                raise _not_allowed(
                    _("Свой текст можно писать, только когда оба игрока — зарегистрированные командиры.")
                )
            # a bound on the work before counting: no text of TEXT_MAX clusters is this long in code points
            body = "" if len(text) > TEXT_MAX * 16 else clean_text(text)
            if len(text) > TEXT_MAX * 16 or text_length(body) > TEXT_MAX:
                raise ServiceError(
                    "chat_too_long", _("Сообщение длиннее %(n)s символов.", n=TEXT_MAX), {"max": TEXT_MAX}
                )
            if not body:
                raise ServiceError("chat_empty", _("Пустое сообщение."))
            kind = "text"
        return side, kind, body

    async def send_chat(self, g: LiveGame, side: str | None, *, phrase: str | None, text: str | None) -> dict:
        """A chat message of ``side``: a quick ``phrase`` (a key of :data:`PHRASES`) or a free ``text`` (exactly
        one). Stored, then published to the game's sockets (the two seats' on every instance).

        :returns: the stored message ``{"id", "side", "kind", "body", "at"}`` (``at``: epoch ms).
        :raises ServiceError: ``chat_not_allowed`` (see :meth:`_check_chat`; free text unless both seats are
            registered commanders), ``chat_unknown_phrase``, ``chat_empty``, ``chat_too_long`` (over
            :data:`TEXT_MAX` characters as seen), ``not_found`` (the game was deleted), ``unavailable`` (the
            write failed). Nothing is stored or sent then."""
        side, kind, body = await self.prepare_chat(g, side, phrase=phrase, text=text)
        try:
            message = await self._db(self.chat_store.add, g.id, side, kind, body, self.now.utc())
        except Exception:
            g.log.exception("chat write failed side=%s", side)
            raise ServiceError("unavailable", _("Сообщение не удалось сохранить. Попробуйте ещё раз.")) from None
        if message is None:
            raise ServiceError("not_found", _("Партия не найдена."))
        self._chat_add(g, message)
        await self.bus.publish(f"game:{g.id}", {"type": "chat", "message": message})
        return message

    async def block_chat(self, g: LiveGame, side: str | None, blocked: bool) -> None:
        """``side``'s commander blocks (``blocked``) or unblocks the opponent's: its messages are no longer (again)
        shown to the blocker, in every game. Only the blocker's sockets learn of it (a new snapshot).

        :raises ServiceError: ``chat_not_allowed`` (see :meth:`_check_chat`), ``unavailable``."""
        side = self._check_chat(g, side)
        me, them = g.seats[side].browser_hash, g.seats[_other(side)].browser_hash
        assert me is not None and them is not None  # chat_open
        try:
            await self._db(self.chat_store.set_block, me, them, blocked)
        except Exception:
            g.log.exception("chat block write failed side=%s", side)
            raise ServiceError("unavailable", _("Не удалось сохранить. Попробуйте ещё раз.")) from None
        g.seats[side].chat_blocks = None
        await self.bus.publish(f"game:{g.id}", {"type": "chat.blocks", "side": side})

    # -- reading ---------------------------------------------------------------------------------

    def _chat_add(self, g: LiveGame, message: dict[str, Any]) -> None:
        """Put a stored message into the game's cached history (once, in id order; the last :data:`HISTORY`)."""
        if g.chat is None or any(m["id"] == message["id"] for m in g.chat[-HISTORY:]):
            return  # not read yet (the next read has it), or had already
        g.chat.append(message)
        g.chat.sort(key=lambda m: m["id"])
        del g.chat[:-HISTORY]

    def _chat_history(self, g: LiveGame) -> list[dict[str, Any]]:
        """The game's last :data:`HISTORY` messages (read once, then kept up by the events); a failed read shows
        none rather than failing the snapshot."""
        if g.chat is None:
            try:
                g.chat = self.chat_store.recent(g.id, HISTORY)
            except Exception:
                g.log.warning("reading the chat failed", exc_info=True)
                return []
        return g.chat

    def chat_blocks(self, g: LiveGame, side: str) -> bool:
        """Whether ``side``'s commander blocks the commander holding the other seat (read once per holder and
        block change; a failed read blocks nothing)."""
        seat, other = g.seats[side], g.seats[_other(side)]
        if seat.browser_hash is None or other.browser_hash is None:
            return False
        if seat.chat_blocks is None or seat.chat_blocks[0] != seat.browser_hash:
            try:
                seat.chat_blocks = (seat.browser_hash, frozenset(self.chat_store.blocked_by(seat.browser_hash)))
            except Exception:
                g.log.warning("reading the chat blocks failed side=%s", side, exc_info=True)
                return False
        return other.browser_hash in seat.chat_blocks[1]

    def chat_of(self, g: LiveGame, side: str | None, *, history: bool = True) -> dict[str, Any] | None:
        """A seat's ``chat`` of its snapshot (docs/protocol.md): ``{"phrases", "free_text", "text_max", "blocked",
        "messages"}``, the messages without the opponent's when the seat blocks them (``None`` without
        ``history``: the client keeps those it has); ``None`` for a spectator and in a game without chat (a bot or
        a free seat)."""
        if side is None or not self.chat_open(g):
            return None
        blocked = self.chat_blocks(g, side)
        messages = None
        if history:
            messages = [m for m in self._chat_history(g) if not (blocked and m["side"] != side)]
        return {
            "phrases": list(PHRASES), "free_text": self.free_text(g), "text_max": TEXT_MAX, "blocked": blocked,
            "messages": messages,
        }  # fmt: skip

    def chat_event(self, g: LiveGame, side: str | None, event: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """What a socket of ``side`` (``None``: a spectator) makes of a chat event from the bus: the messages to
        send it, and whether it needs a new snapshot. ``{"type": "chat", "message"}`` → ``{"type": "chat",
        "message"}`` to each seat that does not block its writer, nothing to a spectator; ``{"type": "chat.blocks",
        "side"}`` → that seat's block list is read again, and its sockets get a snapshot."""
        if event.get("type") == "chat.blocks":
            who = event.get("side")
            if who in g.seats:
                g.seats[who].chat_blocks = None
            return [], side is not None and side == who
        message = event.get("message")
        if not isinstance(message, dict) or message.get("side") not in g.seats:
            return [], False
        self._chat_add(g, message)
        if side is None or not self.chat_open(g):
            return [], False
        if message["side"] != side and self.chat_blocks(g, side):
            return [], False
        return [{"type": "chat", "message": message}], False

    #: Seconds between checks of one game's stored chat against this instance's copy (its sockets share one).
    CHAT_RECHECK_S = 1.0

    async def chat_recheck(self, g: LiveGame, *, blocks: bool = False, force: bool = False) -> None:
        """Bring this instance's copy of ``g``'s chat up to the database if it is behind (one indexed read of the
        count and newest id, the messages only when they differ, then ``g.chat_version`` goes up; at most once per
        :data:`CHAT_RECHECK_S` per game): a chat
        event may have been lost — this instance's subscription to the game reached Redis after a message was
        published, or Redis reconnected. Called on a seat's socket opening (``force``: whenever it was last
        checked; ``blocks``), its resync and its periodic tick (instances sharing the games). ``blocks``: read the
        seats' block lists again too (a ``chat.blocks`` event may have been lost). A failed read changes nothing."""
        if blocks:
            for seat in g.seats.values():
                seat.chat_blocks = None
        await self._prime_chat_blocks(g)
        mono = self.now.mono()
        if not self.chat_open(g) or (not force and mono - g.chat_checked_at < self.CHAT_RECHECK_S):
            return
        g.chat_checked_at = mono
        try:
            if g.chat is None:
                g.chat = await self._db(self.chat_store.recent, g.id, HISTORY)
                return
            count, newest = await self._db(self.chat_store.tip, g.id)
            if (min(count, HISTORY), newest) == (len(g.chat), g.chat[-1]["id"] if g.chat else 0):
                return
            g.chat = await self._db(self.chat_store.recent, g.id, HISTORY)
            g.chat_version += 1
        except Exception:
            g.log.warning("reading the chat failed", exc_info=True)

    async def _prime_chat_blocks(self, g: LiveGame) -> None:
        """Read the block lists of ``g``'s seat holders that are not cached yet, in the database threads (so that
        :meth:`chat_blocks`, called while a snapshot is built, finds them and never reads on the event loop)."""
        if not self.chat_open(g):
            return
        for seat in g.seats.values():
            key = seat.browser_hash
            if key is None or (seat.chat_blocks is not None and seat.chat_blocks[0] == key):
                continue
            try:
                seat.chat_blocks = (key, frozenset(await self._db(self.chat_store.blocked_by, key)))
            except Exception:
                g.log.warning("reading the chat blocks failed side=%s", seat.side, exc_info=True)

    def chat_replay(self, g: LiveGame, key: str | None) -> list[dict[str, Any]] | None:
        """The chat of a finished game for its replay, to its two players only (``key``: who asks, an identity
        key): the messages of :meth:`chat_of`, ``None`` for anyone else."""
        side = g.seat_of(key)
        chat = self.chat_of(g, side) if side is not None else None
        return None if chat is None else chat["messages"] or []
