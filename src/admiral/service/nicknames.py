"""Uniqueness keys of nicknames: case-insensitive and by confusable skeleton (Unicode TR39, issue 16).

A nickname is shown as typed, so one that *looks* like a taken one must be refused, not only one that
differs in case: Cyrillic «ВОРАХК» beside Latin «BOPAXK», «rnike» beside «mike», «llya» beside «Ilya».
TR39's test of confusability is the equality of skeletons (UTS #39 §4, the data of ``confusables.txt``),
computed here by ICU's spoof checker (the reference implementation, through PyICU). A skeleton alone is
not case-insensitive, and case-folding first loses the look of capitals (lower-case Cyrillic «в» looks
like a small-capital «ʙ», not like Latin «b», though «В» and «B» are twins), so each nickname has three
keys, each compared only with the same key of other nicknames; two nicknames collide when any of the
three is equal:

- ``folded``: how the nickname looks in lower case, ``casefold(skeleton(casefold(nickname)))`` —
  case-insensitive, it catches «Nemo» / «Nemо» (Cyrillic «о») and «Mike» / «RNIKE». It is the key
  that finds an account by nickname (login, public page, per-account rate limits).
- ``upper``: how it looks in capitals, ``skeleton(upper(casefold(nickname)))`` — catches «ВоРАхк» /
  «bopaxk» (both «BOPAXK» in capitals) and Greek «ΝΕΜΟ» / «nemo».
- ``typed``: the skeleton of the nickname as typed, TR39's own definition — catches «Ilya» / «llya».

Every step starts from NFKC. A skeleton is NFD text, up to 7 code points for one character of a
nickname (a Hangul syllable into doubled jamo), so a 24-character nickname has keys of at most 168
(``KEY_LENGTH`` leaves room for migration 0006's ``#<id>`` suffix).

The keys depend on ICU's confusables data (ICU 77: Unicode 16): when an upgrade of ICU changes that
data, stored keys must be recomputed (as migration 0006 does), or a twin could slip in beside an old
row.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import NamedTuple

__all__ = ["KEY_LENGTH", "NicknameKeys", "nickname_keys", "nicknames_collide", "skeleton"]

#: The length of the key columns (``commanders.nickname_key``, ``_upper``, ``_typed``).
KEY_LENGTH = 192


@cache
def _checker():  # type: ignore[no-untyped-def]
    """One spoof checker for the process: ICU documents its checking functions, ``getSkeleton`` among them,
    as safe to call from several threads at once (registration runs in the thread pool)."""
    import icu  # PyICU: the distribution ``pyicu-wheels`` (ICU bundled), or ``pyicu`` built on a system ICU

    return icu.SpoofChecker()


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text`` (NFD, ``confusables.txt`` prototypes): equal skeletons mean confusable.

    >>> skeleton("ВОРАХК") == skeleton("BOPAXK") == "BOPAXK"
    True
    >>> skeleton("mike")
    'rnike'
    """
    return _checker().getSkeleton(0, text)  # 0: the one table of TR39 since Unicode 8 (ICU ignores the type)


class NicknameKeys(NamedTuple):
    """The three uniqueness keys of a nickname (module docstring): each at most ``KEY_LENGTH`` characters."""

    folded: str
    upper: str
    typed: str


def nickname_keys(nickname: str) -> NicknameKeys:
    """The uniqueness keys of a (normalised) nickname.

    >>> nickname_keys("Nemo")
    NicknameKeys(folded='nerno', upper='NEMO', typed='Nerno')
    >>> nickname_keys("ВоРАхк").upper == nickname_keys("bopaxk").upper
    True
    """
    text = unicodedata.normalize("NFKC", nickname)
    folded = unicodedata.normalize("NFKC", text.casefold())
    return NicknameKeys(
        folded=unicodedata.normalize("NFD", skeleton(folded).casefold()),
        upper=skeleton(unicodedata.normalize("NFKC", folded.upper())),
        typed=skeleton(text),
    )


def nicknames_collide(a: str, b: str) -> bool:
    """Whether two nicknames may not both be taken: any of their keys equal (same kind with same kind).

    >>> nicknames_collide("Nemo", "NEMО"), nicknames_collide("Nemo", "Nema")
    (True, False)
    """
    return any(x == y for x, y in zip(nickname_keys(a), nickname_keys(b), strict=True))
