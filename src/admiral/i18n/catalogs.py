"""Maintaining the catalogs (``admiral i18n …``): extract the messages from the sources with Babel, merge
them into each language's ``.po`` and report what is missing.

- :func:`extract` reads ``babel.cfg`` (Python, Jinja2 templates, JavaScript) with the project's keywords;
- :func:`update` writes ``locale/messages.pot`` and merges it into every ``{lang}/LC_MESSAGES/messages.po``
  (new messages empty, changed ones guessed and marked fuzzy, vanished ones dropped);
- :func:`problems` lists, per language, the messages without a usable translation and the translations whose
  placeholders differ from the source's: the test ``tests/test_i18n_catalog.py`` fails on any of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from . import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR

__all__ = [
    "KEYWORDS", "POT", "ROOT", "Problem", "check_message", "extract", "init", "po_path", "problems", "update",
    "write_catalog",
]  # fmt: skip

#: The repository root: ``babel.cfg``, ``templates/``, ``static/js/``, ``src/``.
ROOT = LOCALE_DIR.parents[2]
#: gettext's defaults plus ``lazy_gettext`` and ``NC_`` (Python: a message id in a context marked, not translated,
#: as the engine marks its texts) and ``t``/``tn``/``pt`` (static/js/t.js).
KEYWORDS = {
    **DEFAULT_KEYWORDS, "lazy_gettext": None, "NC_": ((1, "c"), 2), "t": None, "tn": (1, 2), "pt": ((1, "c"), 2)
}  # fmt: skip
COMMENT_TAGS = ("TRANSLATORS:",)
POT = LOCALE_DIR / f"{DOMAIN}.pot"
WIDTH = 120
_HEADER = {
    "domain": DOMAIN, "project": "admiral", "version": "0.1", "copyright_holder": "the authors of «Адмирал» online",
    "msgid_bugs_address": "/feedback", "last_translator": "the authors of «Адмирал» online",
    "language_team": "the authors of «Адмирал» online",
}  # fmt: skip

_PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|\{(\w+)\}")


def po_path(lang: str) -> Path:
    """``locale/{lang}/LC_MESSAGES/messages.po``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the sources under ``root`` as a template catalog (ids are the Russian texts)."""
    with (root / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    template = Catalog(**_HEADER, charset="utf-8", creation_date=_EPOCH, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


#: A fixed creation date, so that an update that changes no message changes no file.
_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def _read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write_catalog(path: Path, cat: Catalog) -> None:
    """Write ``cat`` to ``path`` (atomically; file names without line numbers, so edits elsewhere in a file
    do not churn the catalogs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as f:
        write_po(f, cat, width=WIDTH, include_lineno=False, ignore_obsolete=True, sort_by_file=False)
    tmp.replace(path)


def init(lang: str, template: Catalog | None = None) -> Path:
    """Start the catalog of a new language from the sources (its entries empty). :returns: its path."""
    template = template if template is not None else extract()
    cat = Catalog(locale=lang, **_HEADER, creation_date=_EPOCH, revision_date=_EPOCH, fuzzy=False)
    cat.update(template)
    path = po_path(lang)
    write_catalog(path, cat)
    return path


def update(languages: tuple[str, ...] = LANGUAGES, root: Path = ROOT) -> Catalog:
    """Extract, write ``messages.pot`` and merge it into each language's ``.po`` (creating a missing one).

    :returns: the template, for reporting.
    """
    template = extract(root)
    write_catalog(POT, template)
    for lang in languages:
        path = po_path(lang)
        if not path.exists():
            init(lang, template)
            continue
        cat = _read(path, lang)
        cat.update(template, update_creation_date=False)
        cat.revision_date, cat.fuzzy = _EPOCH, False
        write_catalog(path, cat)
    return template


@dataclass(frozen=True)
class Problem:
    """A message ``lang`` cannot show properly: ``kind`` is ``missing`` (no translation, or fuzzy),
    ``plural`` (a plural form empty), ``placeholders`` (``%(name)s``/``{name}`` differ from the source) or
    ``spacing`` (the source's leading or trailing white space not kept)."""

    lang: str
    kind: str
    msgid: str
    where: str
    detail: str = ""

    def __str__(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"[{self.lang}] {self.kind}: {self.msgid!r} at {self.where}{extra}"


def _placeholders(text: str) -> set[str]:
    return {a or b for a, b in _PLACEHOLDER.findall(text or "")}


def _where(m: Message) -> str:
    return ", ".join(f"{f}:{n}" if n else f for f, n in m.locations[:3]) or "?"


def check_message(lang: str, src: Message, tr: Message | None) -> list[Problem]:
    """What is wrong with ``tr``, the ``lang`` translation of the source message ``src`` (``None``: absent)."""
    ids = src.id if isinstance(src.id, tuple | list) else (src.id,)
    plural = len(ids) > 1
    first = ids[0]
    if lang == DEFAULT and not plural:
        return []  # the Russian source is its own translation
    strings = () if tr is None else (tr.string if isinstance(tr.string, tuple | list) else (tr.string,))
    if tr is None or tr.fuzzy or not any(strings):
        return [Problem(lang, "missing", first, _where(src), "fuzzy" if tr is not None and tr.fuzzy else "")]
    out = []
    if not all(strings):
        out.append(Problem(lang, "plural", first, _where(src), "a plural form is empty"))
    expected = set().union(*(_placeholders(i) for i in ids))
    for s in strings:
        got = _placeholders(s)
        if s and got != expected:
            out.append(Problem(lang, "placeholders", first, _where(src), f"{sorted(got)} ≠ {sorted(expected)}: {s!r}"))
        if s and _edges(s) != _edges(first):
            out.append(Problem(lang, "spacing", first, _where(src), f"leading/trailing spaces differ: {s!r}"))
    return out


def _edges(text: str) -> tuple[bool, bool, bool]:
    """Whether ``text`` starts or ends with white space, or ends with a new line: a translation keeps them,
    since the text around it counts on them."""
    return text[:1].isspace(), text[-1:].isspace(), text.endswith("\n")


def problems(template: Catalog | None = None, languages: tuple[str, ...] = LANGUAGES) -> list[Problem]:
    """What keeps each language's catalog from covering the sources (freshly extracted unless given)."""
    template = template if template is not None else extract()
    out: list[Problem] = []
    for lang in languages:
        path = po_path(lang)
        cat = _read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        for src in template:
            if src.id:
                out.extend(check_message(lang, src, cat.get(src.id, context=src.context)))
    return out
