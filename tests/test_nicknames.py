"""Uniqueness keys of nicknames by confusable skeleton (issue 16, finding 6: «ВОРАХК» beside «BOPAXK»)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from admiral.service import ServiceError
from admiral.service.accounts import account_key, nickname_key, normalize_nickname
from admiral.service.nicknames import (
    KEY_LENGTH,
    NicknameKeys,
    nickname_keys,
    nicknames_collide,
    plain,
    skeleton,
    skeleton_keys,
)


def test_the_skeleton_is_tr39s() -> None:
    assert skeleton("ВОРАХК") == "BOPAXK"  # Cyrillic capitals → their Latin prototypes
    assert skeleton("mike") == "rnike"
    assert skeleton("Ilya") == skeleton("llya") == "llya"
    assert skeleton("ворахк") == "ʙopaxĸ"  # lower-case Cyrillic «в», «к» look like small capitals, not b, k


def test_the_three_keys_of_a_nickname() -> None:
    assert nickname_keys("BOPAXK") == NicknameKeys(folded="bopaxk", upper="BOPAXK", typed="BOPAXK")
    assert nickname_keys("ВоРАхк") == NicknameKeys(folded="ʙopaxĸ", upper="BOPAXK", typed="BoPAxĸ")
    assert nickname_keys("Nemo") == NicknameKeys(folded="nerno", upper="NEMO", typed="Nerno")
    assert nickname_keys("Straße") == NicknameKeys(folded="strasse", upper="STRASSE", typed="Straße")


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ("ВОРАХК", "BOPAXK", {"upper", "typed"}),  # Cyrillic capitals, Latin capitals
        ("BOPAXK", "bopaxk", {"folded", "upper"}),
        ("ВОРАХК", "bopaxk", {"upper"}),
        ("ВоРАхк", "BOPAXK", {"upper"}),
        ("ВоРАхк", "bopaxk", {"upper"}),
        ("ВоРАхк", "ВОРАХК", {"folded", "upper"}),
        ("Nemo", "Nemо", {"folded", "upper", "typed"}),  # a Cyrillic «о»
        ("Nemo", "NEMO", {"folded", "upper"}),
        ("mike", "rnike", {"folded", "typed"}),
        ("Mike", "RNIKE", {"folded"}),
        ("Ilya", "llya", {"typed"}),
        ("ΝΕΜΟ", "nemo", {"upper"}),  # Greek capitals
        ("Oleg", "0leg", {"folded", "upper", "typed"}),
        ("Капитан Немо", "КАПИТАН НЕМО", {"folded", "upper"}),
    ],
)
def test_lookalikes_collide_on_the_keys_that_see_them(a: str, b: str, equal: set[str]) -> None:
    ka, kb = nickname_keys(a), nickname_keys(b)
    assert {name for name in NicknameKeys._fields if getattr(ka, name) == getattr(kb, name)} == equal
    assert nicknames_collide(a, b) and nicknames_collide(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Nemo", "Nema"), ("Nemo", "Vemo"), ("Ali", "All"), ("Yuri", "Yura"), ("Капитан Немо", "Капитан Нема"),
     ("Адмирал", "Admiral"), ("bopaxk", "bopaxa"), ("Ivan", "Иван"), ("Капитан Nemo", "Капитан Немо"),
     ("がく", "かく"), ("Pasha Паша", "Pasha")],
)  # fmt: skip
def test_different_nicknames_do_not_collide(a: str, b: str) -> None:
    assert not nicknames_collide(a, b)
    assert nickname_key(a) != nickname_key(b)


def test_login_and_rate_limits_name_the_account_by_the_folded_key() -> None:
    assert nickname_key("BOPAXK") == nickname_key("Bopaxk") == "bopaxk"
    assert account_key("BOPAXK") == account_key(" bopaxk ") == account_key("ＢＯＰＡＸＫ") == "bopaxk"
    assert account_key("Nemo") == account_key("NEMO") == "nerno"
    assert account_key("Nemo") != account_key("Nema")


def test_the_longest_keys_fit_the_columns() -> None:
    # HANGUL SYLLABLE GGWAEGG: 7 code points of skeleton, the most of any character a nickname may have
    keys = nickname_keys("\uaf66" * 24)
    assert [len(k) for k in keys] == [168, 168, 168]
    assert all(len(k) + len("#2147483647") <= KEY_LENGTH for k in keys)


_NICK = st.text(st.characters(categories=("L", "Nd", "Mn", "Mc")) | st.sampled_from("_- "), min_size=3, max_size=24)


@settings(max_examples=300, deadline=None)
@given(_NICK, _NICK)
def test_keys_are_short_case_insensitive_and_never_hold_a_hash(a: str, b: str) -> None:
    keys = nickname_keys(a)
    assert all(len(k) <= 7 * len(unicodedata.normalize("NFKC", a)) and "#" not in k for k in keys)
    assert nicknames_collide(a, a.upper()) and nicknames_collide(a, a.lower())
    assert nicknames_collide(a, b) == nicknames_collide(b, a)


# -- issue 16, QA finding 11: diacritics and small capitals; words of different scripts ----------------------


@pytest.mark.parametrize("twin", ["BOPAXḰ", "BOPAXḲ", "ʙᴏᴘᴀxᴋ", "ʙᴏᴘᴀxᴋ".upper(), "BÖPÁXK", "ВОРАХЌ"])
def test_diacritics_and_small_capitals_do_not_make_another_nickname(twin: str) -> None:
    """QA finding: «BOPAXḰ», «BOPAXḲ» (a diacritic) and «ʙᴏᴘᴀxᴋ» (small capitals) registered beside «BOPAXK»:
    ICU's skeleton keeps the diacritic (NFD K + U+0301) and most small capitals, so no key met."""
    assert skeleton_keys(twin).upper != "BOPAXK" and skeleton_keys(twin).folded != "bopaxk"  # the gap
    assert nicknames_collide("BOPAXK", twin) and nicknames_collide(twin, "bopaxk")
    assert nickname_keys(twin).upper == "BOPAXK"


def test_the_keys_of_small_capitals_and_of_letters_with_diacritics() -> None:
    assert skeleton("ʙᴏᴘᴀxᴋ") == "ʙoᴘᴀxĸ"  # ICU: «ᴏ» → «o», «ᴋ» → «ĸ», the others as they are
    assert nickname_keys("ʙᴏᴘᴀxᴋ") == NicknameKeys(folded="bopaxk", upper="BOPAXK", typed="BOPAxK")
    assert nickname_keys("BOPAXḰ") == nickname_keys("BOPAXḲ") == nickname_keys("BOPAXK")
    assert account_key("BOPAXḰ") == account_key("ʙᴏᴘᴀxᴋ") == "bopaxk"  # login by nickname finds «BOPAXK»
    assert nickname_keys("Ёжик") == nickname_keys("Ежик") == NicknameKeys(folded="eжᴎĸ", upper="EЖИK", typed="Eжᴎĸ")
    # the Greek iota subscript is a letter (upper case «Ι»), not a diacritic: it stays (ICU: an ogonek)
    assert nickname_keys("ᾀ1") == NicknameKeys(folded="ail", upper="All", typed="a\u0328l")


@pytest.mark.parametrize(
    ("text", "plain_text"),
    [("BOPAXḰ", "BOPAXK"), ("ʙᴏᴘᴀxᴋ", "BOPAxK"), ("Ɪʀ", "IR"), ("Ʀɪ", "RI"), ("ᴦᴫ", "ΓЛ"), ("ᴎ", "ᴎ"),
     ("Ёж Андрей", "Еж Андреи"), ("Ελλάδα", "Ελλαδα"), ("がく", "がく"), ("Straße", "Straße"), ("Ｎｅｍｏ", "Nemo")],
)  # fmt: skip
def test_plain_drops_diacritics_of_cased_letters_and_reads_small_capitals(text: str, plain_text: str) -> None:
    assert plain(text) == plain_text


@pytest.mark.parametrize("nickname", ["Капитан Nemo", "Вася Pupkin", "Иван_John", "Pasha Паша", "Ivan-Иван"])
def test_words_of_different_scripts_make_a_nickname(nickname: str) -> None:
    """QA finding: unrelated bilingual names were refused as «смешивает похожие буквы разных алфавитов»."""
    assert normalize_nickname(nickname) == nickname


@pytest.mark.parametrize(("nickname", "word"), [("Кaпитан", "Кaпитан"), ("Капитан Nemо", "Nemо"), ("Iван_1", "Iван")])
def test_a_word_mixing_look_alike_letters_of_two_scripts_is_refused(nickname: str, word: str) -> None:
    with pytest.raises(ServiceError) as e:
        normalize_nickname(nickname)
    assert e.value.code == "bad_nickname"
    assert e.value.message == f"Слово «{word}» смешивает похожие буквы разных алфавитов."
