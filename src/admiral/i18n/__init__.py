"""Translations of «Адмирал» (issue 7): gettext catalogs read through Babel, one language per request.

Message ids are the Russian source text; ``src/admiral/locale/{lang}/LC_MESSAGES/messages.po`` holds a
language's translations (``ru``'s only the plural forms Russian needs, since its msgids are already
Russian). Russian is the default; a browser chooses English with the ``admiral_lang`` cookie.

The catalogs are compiled from the ``.po`` files in memory the first time a language is used (Babel's
``read_po`` → ``write_mo`` into a buffer → :class:`babel.support.Translations`): no binary ``.mo`` files are
committed or built, the ``.po`` under review is exactly what runs, and compiling a catalog takes a few
milliseconds once per process.

The language of the current request (or socket) lives in a context variable set by the web layer
(:func:`use`); the service layer's messages call :func:`gettext` (``_``) and so follow the player's language
without passing it around. Outside a request the language is Russian.

>>> _("Партия окончена.")
'Партия окончена.'
>>> with use("en"):
...     _("Партия окончена."), ngettext("%(num)s очко", "%(num)s очков", 5)
('The game is over.', '5 points')
>>> ngettext("%(num)s очко", "%(num)s очков", 3)
'3 очка'
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog
    from babel.support import Translations

__all__ = [
    "COOKIE", "DEFAULT", "LANGUAGES", "LOCALE_DIR", "N_", "_", "catalog", "client_catalog", "current", "gettext",
    "lazy_gettext", "ngettext", "normalize", "pgettext", "set_language", "translations", "use",
]  # fmt: skip

#: The languages of the UI, the default first.
LANGUAGES = ("ru", "en")
DEFAULT = "ru"
#: The cookie that remembers a browser's choice.
COOKIE = "admiral_lang"
#: ``{lang}/LC_MESSAGES/messages.po`` and the template ``messages.pot``.
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"

_current: ContextVar[str] = ContextVar("admiral_lang", default=DEFAULT)


def normalize(lang: str | None) -> str:
    """A supported language code for ``lang`` (``"EN"``, ``"en-GB"`` → ``"en"``), else the default.

    >>> normalize("en-GB"), normalize("de"), normalize(None)
    ('en', 'ru', 'ru')
    """
    code = (lang or "").strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT


def current() -> str:
    """The language of the current request or socket (Russian outside one)."""
    return _current.get()


@contextmanager
def use(lang: str | None) -> Iterator[str]:
    """Translate into ``lang`` inside the ``with`` block (and in tasks started from it)."""
    token = _current.set(normalize(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_language(lang: str | None) -> None:
    """Translate into ``lang`` for the rest of the current context (a socket's task)."""
    _current.set(normalize(lang))


@cache
def catalog(lang: str) -> Catalog:
    """The parsed ``.po`` catalog of ``lang`` (an empty one when the file is missing)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def translations(lang: str) -> Translations:
    """The gettext translations of ``lang``, compiled in memory from its ``.po`` (fuzzy entries left out, as
    ``msgfmt`` does)."""
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    buf = io.BytesIO()
    write_mo(buf, catalog(normalize(lang)), use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def _format(text: str, params: dict[str, Any]) -> str:
    return text % params if params else text


def gettext(msgid: str, **params: Any) -> str:
    """``msgid`` in the current language, ``%(name)s`` placeholders filled from ``params``."""
    return _format(translations(current()).gettext(msgid), params)


_ = gettext


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """The form for ``num`` in the current language; ``%(num)s`` and ``params`` filled in."""
    return _format(translations(current()).ngettext(singular, plural, num), {"num": num, **params})


def pgettext(context: str, msgid: str, **params: Any) -> str:
    """``msgid`` in ``context`` (the same Russian word meaning different things)."""
    return _format(translations(current()).pgettext(context, msgid), params)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it now (constants translated where they are used)."""
    return msgid


def lazy_gettext(msgid: str, **params: Any) -> Any:
    """A string translated each time it is used, in the language of that moment (module-level texts)."""
    from babel.support import LazyProxy

    return LazyProxy(gettext, msgid, enable_cache=False, **params)


@cache
def client_catalog(lang: str) -> dict[str, Any]:
    """What the browser's ``t()``/``tn()``/``pt()`` (``static/js/t.js``) need for ``lang``:
    ``{"lang", "plural" (the gettext plural expression of ``n``), "messages"}``, where ``messages`` maps a
    msgid (``context\\x04msgid`` with a context) to its translation, or to the list of plural forms keyed
    by the singular msgid. Untranslated and fuzzy entries are left out (the Russian text shows)."""
    cat = catalog(normalize(lang))
    messages: dict[str, Any] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        key = m.id[0] if isinstance(m.id, tuple | list) else m.id
        if m.context:
            key = f"{m.context}\x04{key}"
        if isinstance(m.string, tuple | list):
            if all(m.string):
                messages[key] = list(m.string)
        elif m.string:
            messages[key] = m.string
    return {"lang": normalize(lang), "plural": cat.plural_expr, "messages": messages}
