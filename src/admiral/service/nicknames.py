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

Before the skeletons, a nickname is made :func:`plain` (QA, issue 16: «BOPAXḰ», «BOPAXḲ» and «ʙᴏᴘᴀxᴋ»
registered beside «BOPAXK»). A skeleton keeps diacritics (TR39 maps a letter to its look-alike prototype, and
«Ḱ» is K plus a visible acute), and ICU leaves most small capitals as they are: «ʙᴏᴘᴀxᴋ» has the skeleton
«ʙoᴘᴀxĸ» (only «ᴏ» → «o», «ᴋ» → «ĸ»), and upper-casing changes none of them (no small capital has an
upper-case mapping but «ɪ»), so none of its three keys met «BOPAXK»'s. So:

- a diacritic on a letter that has case (Latin, Greek, Cyrillic, Armenian…: alphabets where a mark decorates a
  letter) is dropped, «Ḱ», «Ḳ» → «K», «é» → «e», and in Cyrillic «Ё» → «Е», «й» → «и» too (look-alikes at
  a glance: «Андреи» is taken once «Андрей» is). Caseless scripts keep their marks: there a mark makes
  another letter (kana's dakuten: «が» is not «か»; Arabic's madda);
- a small capital becomes the capital letter it shows, found by its Unicode name («LATIN LETTER SMALL
  CAPITAL K» → «LATIN CAPITAL LETTER K»; Greek and Cyrillic ones too), as does a capital whose lower case is a
  small capital («Ɪ», «Ʀ»). One with no such capital («ᴎ», reversed N) stays as it is.

Then «ʙᴏᴘᴀxᴋ» is «BOPAxK» and collides with «BOPAXK» in lower case and in capitals. The skeletons' own small
capitals are left alone: lower-case Cyrillic «в» looks like «ʙ», not like «b».

The keys depend on ICU's confusables data (ICU 77: Unicode 16) and on :func:`plain`: when either changes,
stored keys must be recomputed (as migrations 0006 and 0008 do), or a twin could slip in beside an old row.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import NamedTuple

__all__ = ["KEY_LENGTH", "NicknameKeys", "nickname_keys", "nicknames_collide", "plain", "skeleton", "skeleton_keys"]

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
    """The uniqueness keys of a (normalised) nickname: the :func:`skeleton_keys` of its :func:`plain` form.

    >>> nickname_keys("Nemo")
    NicknameKeys(folded='nerno', upper='NEMO', typed='Nerno')
    >>> nickname_keys("ВоРАхк").upper == nickname_keys("bopaxk").upper
    True
    >>> nickname_keys("BOPAXḰ") == nickname_keys("BOPAXK"), nickname_keys("ʙᴏᴘᴀxᴋ")
    (True, NicknameKeys(folded='bopaxk', upper='BOPAXK', typed='BOPAxK'))
    """
    return skeleton_keys(plain(nickname))


def skeleton_keys(text: str) -> NicknameKeys:
    """The three keys of ``text`` by TR39 skeleton alone (module docstring), diacritics and small capitals as
    typed: the nickname keys of migrations 0006 and 0007, which migration 0008's downgrade restores.

    >>> skeleton_keys("Nemo") == nickname_keys("Nemo"), skeleton_keys("BOPAXḰ").upper == "BOPAXK" + chr(0x301)
    (True, True)
    """
    text = unicodedata.normalize("NFKC", text)
    folded = unicodedata.normalize("NFKC", text.casefold())
    return NicknameKeys(
        folded=unicodedata.normalize("NFD", skeleton(folded).casefold()),
        upper=skeleton(unicodedata.normalize("NFKC", folded.upper())),
        typed=skeleton(text),
    )


#: The name of a small capital: its script and the letter it shows («LATIN LETTER SMALL CAPITAL K»,
#: «LATIN CAPITAL LETTER SMALL CAPITAL I», «LATIN SMALL CAPITAL LETTER I WITH STROKE»).
_SMALL_CAPITAL = re.compile(r"(LATIN|GREEK|CYRILLIC) (?:CAPITAL )?(?:LETTER )?SMALL CAPITAL (?:LETTER )?(.+)")


@cache
def _capital(char: str) -> str:
    """The capital letter a small capital shows (by Unicode names), else ``char``; a capital whose lower case
    is a small capital («Ɪ», «Ʀ») counts as that small capital."""
    for candidate in {char, char.lower()}:
        if len(candidate) == 1 and (shown := _SMALL_CAPITAL.fullmatch(unicodedata.name(candidate, ""))) is not None:
            try:
                return unicodedata.lookup(f"{shown[1]} CAPITAL LETTER {shown[2]}")
            except KeyError:  # no capital of that letter (REVERSED N, TURNED R…)
                return char
    return char


def plain(text: str) -> str:
    """``text`` as its keys see it (NFC): NFKC, small capitals as the capital letters they show, no diacritics
    on letters that have case (module docstring).

    >>> plain("BOPAXḰ"), plain("ʙᴏᴘᴀxᴋ"), plain("Ёжик Йод"), plain("がく"), plain("Straße")
    ('BOPAXK', 'BOPAxK', 'Ежик Иод', 'がく', 'Straße')
    """
    text = "".join(_capital(c) for c in unicodedata.normalize("NFKC", text))
    out: list[str] = []
    cased = False  # whether the last letter (not mark) has case
    for c in unicodedata.normalize("NFD", text):
        if unicodedata.category(c) == "Mn":
            if cased and c.upper() == c:  # not the Greek iota subscript, a letter (upper case «Ι»)
                continue
        else:
            cased = unicodedata.category(c) in ("Lu", "Ll", "Lt")
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out))


def nicknames_collide(a: str, b: str) -> bool:
    """Whether two nicknames may not both be taken: any of their keys equal (same kind with same kind).

    >>> nicknames_collide("Nemo", "NEMО"), nicknames_collide("Nemo", "Nema")
    (True, False)
    """
    return any(x == y for x, y in zip(nickname_keys(a), nickname_keys(b), strict=True))
