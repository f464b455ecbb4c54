"""Commanders (PROGRESSION.md §1, issue 5): guests, registration, login sessions, password recovery.

Identity: every browser holds a random token (cookie ``admiral_browser``); a guest commander's identity
key is the token's hash. Registering (from a guest browser) gives the commander a fresh random key and
moves the guest's games, seats and saved setups to it, so a logged-out browser no longer reaches them;
a login session (cookie ``admiral_session``, a new random id at every login, deleted at logout) maps any
browser to its commander's key. So "logging in on a second device continues the same profile".

Passwords are hashed with argon2id through passlib (the ``libpass`` distribution) and never stored,
logged or shown in clear: 8–128 characters, never truncated, the 10 000 most common passwords (zxcvbn's
list) and the commander's own nickname or e-mail refused. Nicknames: NFKC, invisible characters removed,
spaces trimmed and collapsed; 3–24 letters (any script), digits, ``_``, ``-`` and inner spaces; words of
different scripts are welcome («Капитан Nemo»), a word mixing scripts with look-alike letters (Latin "a" among
Cyrillic ones) is refused; unique case-insensitively and by confusable skeleton, diacritics and small capitals
aside (:mod:`.nicknames`: Cyrillic «ВОРАХК», «BOPAXḰ» and «ʙᴏᴘᴀxᴋ» are taken once Latin «BOPAXK» is).
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from confusable_homoglyphs import confusables
from email_validator import EmailNotValidError, validate_email
from passlib.context import CryptContext

from admiral.i18n import _
from admiral.progression.rating import Rating
from admiral.store import AccountStore, Taken
from admiral.store.models import CommanderGameRow, CommanderRow

from .errors import ServiceError
from .lobby import hash_token
from .mail import Mailer
from .nicknames import nickname_keys

__all__ = ["AccountService", "CareerTotals", "Commander", "account_key", "normalize_nickname"]

#: Login sessions last this long.
SESSION_TTL = timedelta(days=30)
#: Recovery links expire after this.
RESET_TTL = timedelta(hours=1)
PASSWORD_MIN, PASSWORD_MAX = 8, 128
COMMON_PASSWORDS_COUNT = 10_000

_NICK_CHARS = re.compile(r"^[\w\- ]+$")
#: What separates the words of a nickname (each word is checked for mixed scripts on its own).
_WORD_BREAKS = re.compile(r"[ _\-]+")


def _now() -> datetime:
    return datetime.now(UTC)


@cache
def _common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"][:COMMON_PASSWORDS_COUNT])


def normalize_nickname(raw: str) -> str:
    """The nickname as stored and shown (PROGRESSION.md §1): NFKC, invisible characters removed, spaces trimmed
    and collapsed; 3–24 letters of any script, digits, ``_``, ``-`` and inner spaces. Words (split on spaces,
    ``_`` and ``-``) may be of different scripts, but a word that mixes scripts with look-alike letters (a
    Latin «a» among Cyrillic letters) is refused: it only imitates a word of one script.

    >>> normalize_nickname("  Капитан\\u200b  Немо ")
    'Капитан Немо'
    >>> normalize_nickname("Ｎｅｍｏ_1")
    'Nemo_1'
    >>> normalize_nickname("Капитан Nemo"), normalize_nickname("Иван_John"), normalize_nickname("Pasha Паша")
    ('Капитан Nemo', 'Иван_John', 'Pasha Паша')
    >>> normalize_nickname("Капитан-Nemo Кaпитан")  # a Latin "a" among Cyrillic letters
    Traceback (most recent call last):
    ...
    admiral.service.errors.ServiceError: Слово «Кaпитан» смешивает похожие буквы разных алфавитов.

    :returns: the nickname, e.g. ``'Капитан Немо'``.
    :raises ServiceError: ``bad_nickname`` with the reason (in the current language): the length, a character
        other than those above, or a word mixing look-alike letters of different scripts (named in the reason).
    """
    text = unicodedata.normalize("NFKC", raw or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc", "Co", "Cs", "Cn"))
    text = " ".join(text.split())
    if not 3 <= len(text) <= 24:
        raise ServiceError("bad_nickname", _("Псевдоним: от 3 до 24 символов."))
    if not _NICK_CHARS.match(text) or any(c.isdigit() and not c.isascii() for c in text):
        raise ServiceError("bad_nickname", _("Псевдоним: только буквы, цифры, «_», «-» и пробелы между словами."))
    for word in _WORD_BREAKS.split(text):
        if confusables.is_dangerous(word):
            raise ServiceError(
                "bad_nickname", _("Слово «%(word)s» смешивает похожие буквы разных алфавитов.", word=word)
            )
    return text


def nickname_key(nickname: str) -> str:
    """The key that finds an account by a normalised nickname (``commanders.nickname_key``): its look in lower
    case by TR39 skeleton, so any case of a nickname, and spellings that look like it in lower case, name the
    same account (:func:`.nicknames.nickname_keys`, ``folded``).

    >>> nickname_key("NEMO") == nickname_key("nemo") == nickname_key("nemо") == "nerno"  # the last "о" Cyrillic
    True
    """
    return nickname_keys(nickname).folded


def normalize_email(raw: str) -> str:
    """The e-mail as stored: validated syntax, normalised, lower case. :raises ServiceError: ``bad_email``."""
    try:
        return validate_email((raw or "").strip(), check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise ServiceError("bad_email", _("Неверный адрес электронной почты.")) from None


def account_key(login: str) -> str:
    """The account a login text names, for per-account rate limits: the normalised e-mail or the nickname's
    :func:`nickname_key` — the key login looks the nickname up by (so "Yu\u200bri", "ＹＵＲＩ" and
    "yuri" count as one account); the text itself, case-folded, when it is neither."""
    login = (login or "").strip()[:254]
    try:
        return normalize_email(login) if "@" in login else nickname_key(normalize_nickname(login))
    except ServiceError:
        return login.casefold()


def check_password(password: str, *, nickname: str = "", email: str = "") -> None:
    """Refuse a weak password. :raises ServiceError: ``bad_password`` with the reason (in the current language)."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise ServiceError("bad_password", _("Пароль: не короче %(n)s символов.", n=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise ServiceError("bad_password", _("Пароль: не длиннее %(n)s символов.", n=PASSWORD_MAX))
    low = password.casefold()
    if low in _common_passwords():
        raise ServiceError("bad_password", _("Этот пароль слишком распространён: придумайте другой."))
    if low in {nickname.casefold(), email.casefold(), email.split("@")[0].casefold()} - {""}:
        raise ServiceError("bad_password", _("Пароль не должен совпадать с псевдонимом или адресом почты."))


@dataclass(frozen=True)
class Commander:
    """A commander as the web layer sees it: ``key`` (identity of its seats and setups), ``registered``,
    ``nickname`` (``None`` for a guest), ``points`` (the total over every game; each game's career:
    :meth:`AccountService.careers`)."""

    id: int | None
    key: str
    registered: bool
    nickname: str | None
    email: str | None
    points: int

    @classmethod
    def of(cls, row: CommanderRow) -> Commander:
        """From a database row."""
        return cls(row.id, row.key, row.email is not None, row.nickname, row.email, row.points)


@dataclass(frozen=True)
class CareerTotals:
    """A commander's career in one game: ``games`` counted, ``wins``, ``draws``, ``losses``, ``points`` earned
    in it, and ``career``, the game's own totals (its :class:`~admiral.games.Progression` reads them)."""

    game: str
    games: int
    wins: int
    draws: int
    losses: int
    points: int
    career: dict

    @classmethod
    def of(cls, row: CommanderGameRow) -> CareerTotals:
        """From a database row."""
        return cls(row.game, row.games, row.wins, row.draws, row.losses, row.points, dict(row.career or {}))


class AccountService:
    """Registration, login, logout, recovery and the commander behind a request.

    ``store``: the accounts repository; ``mailer``: where recovery mail goes; ``public_url``: the site's
    base URL for links in mail; ``on_rekey(old, new)``: called after a guest registered, so cached games
    follow the move of its seats. Methods are synchronous (argon2 takes ~50 ms: call them off the loop).
    """

    def __init__(
        self, store: AccountStore, mailer: Mailer, public_url: str, on_rekey: Callable[[str, str], None] | None = None
    ) -> None:
        self.store = store
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")
        self.on_rekey = on_rekey
        self.crypt = CryptContext(schemes=["argon2"], deprecated="auto")
        self._dummy_hash = self.crypt.hash(secrets.token_urlsafe(16))

    # -- who is this --------------------------------------------------------------------------------

    def resolve(self, browser_hash: str | None, session_token: str | None) -> tuple[str | None, Commander | None]:
        """The identity key of a request and, if logged in, its commander: a live session wins; else the
        browser's own key (a guest). ``(None, None)`` without a valid browser token or session."""
        if session_token:
            row = self.store.session_commander(hash_token(session_token), _now())
            if row is not None:
                return row.key, Commander.of(row)
        return browser_hash, None

    def commander(self, key: str) -> Commander:
        """The commander of identity ``key`` (a guest record is created on first need)."""
        return Commander.of(self.store.guest(key))

    def careers(self, commander: Commander) -> dict[str, CareerTotals]:
        """The commander's career in each game it has a counted game of: game key → :class:`CareerTotals`."""
        if commander.id is None:
            return {}
        return {game: CareerTotals.of(row) for game, row in self.store.careers(commander.id).items()}

    def ratings(self, commander: Commander) -> dict[str, tuple[Rating, list[tuple[datetime, float]]]]:
        """The commander's Glicko-2 rating in each game it has a rated game of (PROGRESSION.md §4), with its history
        for the chart: game key → ``(rating, [(when, rating after), …] oldest first)``. A guest has none."""
        if commander.id is None or not commander.registered:
            return {}
        out = {}
        for game, rating in self.store.ratings_of(commander.id).items():
            history = [(r.created_at, r.rating) for r in self.store.rating_history(commander.id, game)]
            out[game] = (rating, history)
        return out

    def public(self, nickname: str) -> Commander | None:
        """A registered commander by nickname (any case), for the public profile page."""
        try:
            key = nickname_key(normalize_nickname(nickname))
        except ServiceError:
            return None
        row = self.store.by_nickname_key(key)
        return None if row is None else Commander.of(row)

    def account_of(self, login: str) -> str:
        """The key per-account rate limits count a login text under: ``commander:<id>`` when it names a
        registered commander by e-mail or nickname (so both count as one account), else :func:`account_key`
        of the text (an unknown login is limited like a known one)."""
        login = (login or "").strip()[:254]
        try:
            if "@" in login:
                row = self.store.by_email(normalize_email(login))
            else:
                row = self.store.by_nickname_key(nickname_key(normalize_nickname(login)))
        except ServiceError:
            row = None
        return f"commander:{row.id}" if row is not None else account_key(login)

    # -- registration, login, logout -----------------------------------------------------------------

    def register(self, key: str, email: str, nickname: str, password: str) -> tuple[Commander, str]:
        """Register the guest of identity ``key`` (keeping its points, awards, games and setups) and log it in.

        :returns: ``(commander, session token)``.
        :raises ServiceError: ``bad_email``, ``bad_nickname``, ``bad_password``, ``email_taken``,
            ``nickname_taken``, ``already_registered`` (this identity is a registered commander).
        """
        email = normalize_email(email)
        nick = normalize_nickname(nickname)
        check_password(password, nickname=nick, email=email)
        current = self.store.by_key(key)
        if current is not None and current.email is not None:
            raise ServiceError("already_registered", _("Вы уже зарегистрированы."))
        new_key = secrets.token_hex(32)
        try:
            row = self.store.register(
                key, new_key, email=email, nickname=nick, nickname_keys=nickname_keys(nick),
                password_hash=self.crypt.hash(password),
            )  # fmt: skip
        except Taken as e:
            if e.field == "email":
                raise ServiceError(
                    "email_taken", _("Этот адрес уже зарегистрирован. Войдите или восстановите пароль.")
                ) from None
            raise ServiceError("nickname_taken", _("Этот псевдоним уже занят.")) from None
        if self.on_rekey is not None:
            self.on_rekey(key, new_key)
        return Commander.of(row), self._new_session(row.id)

    def login(self, login: str, password: str) -> tuple[Commander, str]:
        """Log in by e-mail or nickname. A new session id every time (no fixation).

        :returns: ``(commander, session token)``.
        :raises ServiceError: ``bad_login`` (the same for an unknown login and a wrong password).
        """
        login = (login or "").strip()
        row = None
        if "@" in login:
            try:
                row = self.store.by_email(normalize_email(login))
            except ServiceError:
                row = None
        else:
            try:
                row = self.store.by_nickname_key(nickname_key(normalize_nickname(login)))
            except ServiceError:
                row = None
        password = password if isinstance(password, str) and len(password) <= PASSWORD_MAX else ""
        if row is None or row.password_hash is None or not password:
            self.crypt.verify(password or "x", self._dummy_hash)  # the same time as a real check
            raise ServiceError("bad_login", _("Неверный логин или пароль."))
        if not self.crypt.verify(password, row.password_hash):
            raise ServiceError("bad_login", _("Неверный логин или пароль."))
        return Commander.of(row), self._new_session(row.id)

    def logout(self, session_token: str | None) -> None:
        """Delete the session on the server (the cookie alone is worth nothing afterwards)."""
        if session_token:
            self.store.delete_session(hash_token(session_token))

    def _new_session(self, commander_id: int) -> str:
        token = secrets.token_urlsafe(32)
        self.store.add_session(hash_token(token), commander_id, _now() + SESSION_TTL)
        return token

    # -- password recovery ------------------------------------------------------------------------------

    def request_reset(self, email: str) -> None:
        """Mail a recovery link if ``email`` is registered; the caller cannot tell either way (no error, the
        mail leaves from a background thread). A newer link invalidates the older ones."""
        try:
            email = normalize_email(email)
        except ServiceError:
            return
        row = self.store.by_email(email)
        if row is None:
            return
        token = secrets.token_urlsafe(32)
        self.store.add_reset(hash_token(token), row.id, _now() + RESET_TTL)
        link = f"{self.public_url}/reset/{token}"
        body = _(
            "Здравствуйте, %(nickname)s!\n\nКто-то (надеемся, вы) попросил восстановить доступ к «Адмиралу».\n"
            "Чтобы задать новый пароль, откройте ссылку в течение часа:\n\n%(link)s\n\n"
            "Ссылка сработает один раз. Если это были не вы, просто удалите письмо.\n",
            nickname=row.nickname,
            link=link,
        )  # in the language of the request that asked for it
        self.mailer.send_later(row.email, _("«Адмирал»: восстановление пароля"), body)

    def reset_valid(self, token: str) -> bool:
        """Whether a recovery link is live (unused, unexpired, not replaced)."""
        return bool(token) and len(token) <= 64 and self.store.live_reset(hash_token(token), _now()) is not None

    def reset(self, token: str, password: str) -> None:
        """Set a new password through a recovery link; the link is spent, every session of the commander ends.

        :raises ServiceError: ``bad_link`` (unknown, used, expired or replaced), ``bad_password``.
        """
        if not token or len(token) > 64:
            raise ServiceError("bad_link", _("Ссылка недействительна или устарела. Запросите новую."))
        row = self.store.live_reset(hash_token(token), _now())
        if row is None:
            raise ServiceError("bad_link", _("Ссылка недействительна или устарела. Запросите новую."))
        commander = self.store.by_id(row.commander_id)
        check_password(password, nickname=commander.nickname or "", email=commander.email or "")
        if not self.store.use_reset(hash_token(token), _now(), self.crypt.hash(password)):
            raise ServiceError("bad_link", _("Ссылка недействительна или устарела. Запросите новую."))

    def change_password(self, commander: Commander, old: str, new: str) -> str:
        """Change the password (the old one required); every other session ends. :returns: a new session token.

        :raises ServiceError: ``bad_login`` (wrong old password), ``bad_password``.
        """
        row = self.store.by_id(commander.id) if commander.id is not None else None
        old = old if isinstance(old, str) and len(old) <= PASSWORD_MAX else ""
        if row is None or row.password_hash is None or not old or not self.crypt.verify(old, row.password_hash):
            raise ServiceError("bad_login", _("Неверный текущий пароль."))
        check_password(new, nickname=row.nickname or "", email=row.email or "")
        self.store.set_password(row.id, self.crypt.hash(new))
        return self._new_session(row.id)

    # -- feedback -------------------------------------------------------------------------------------

    def feedback(self, commander: Commander | None, contact: str, message: str) -> int:
        """Store a message for the site's author. :raises ServiceError: ``bad_feedback`` (empty or > 4000)."""
        message = (message or "").strip()
        if not 1 <= len(message) <= 4000:
            raise ServiceError("bad_feedback", _("Сообщение: от 1 до 4000 символов."))
        contact = (contact or "").strip()[:254] or None
        cid = commander.id if commander is not None and commander.registered else None
        return self.store.add_feedback(cid, contact, message)
