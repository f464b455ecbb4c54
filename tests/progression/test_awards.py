"""Awards (PROGRESSION.md §5): the table, degrees and progress."""

import pytest

from admiral.progression import AWARDS, award_degrees, award_progress, award_standings

#: PROGRESSION.md §5, written out by hand: id, side, Russian name, III, II, I.
TABLE = [
    ("torpedo", "left", "Медаль «Торпедная атака»", 3, 15, 50),
    ("submarine", "left", "Медаль «Подводный удар»", 5, 25, 100),
    ("aviation", "left", "Медаль «Морская авиация»", 5, 25, 100),
    ("mines", "left", "Медаль «Минная война»", 5, 25, 100),
    ("nuclear", "left", "Орден «Ядерный удар»", 5, 20, 60),
    ("base_assault", "left", "Орден «Штурм базы»", 1, 10, 40),
    ("base_defence", "left", "Орден «Оборона базы»", 1, 10, 40),
    ("formation", "left", "Орден «Соединение»", 5, 30, 120),
    ("veteran", "right", "Знак «Ветеран»", 10, 100, 500),
    ("winner", "right", "Знак «Победитель»", 5, 50, 250),
    ("hunter", "right", "Знак «Охотник»", 100, 1000, 5000),
    ("tonnage", "right", "Знак «Тоннаж»", 500, 5000, 25000),
]


# progression §5: the table in code is the table of the rules
def test_table():
    assert [(a.id, a.side, a.name, *a.thresholds) for a in AWARDS] == TABLE


# progression §5: three degrees, III then II then I; a higher one replaces the lower (one number per award)
@pytest.mark.parametrize(("award_id", "side", "name", "iii", "ii", "i"), TABLE)
def test_degrees_at_every_threshold(award_id, side, name, iii, ii, i):
    def degree(n):
        return award_degrees({award_id: n})[award_id]

    assert [degree(0), degree(iii - 1), degree(iii), degree(ii - 1), degree(ii), degree(i - 1), degree(i)] == [
        0, 0, 1, 1, 2, 2, 3,
    ]  # fmt: skip
    assert degree(10 * i) == 3


# progression §5: missing counters are 0; every award is listed
def test_all_awards_listed():
    assert award_degrees({}) == dict.fromkeys([row[0] for row in TABLE], 0)
    assert [s.award.id for s in award_standings({"hunter": 150})] == [row[0] for row in TABLE]


# progression §5: progress to the next degree, from the current degree's threshold
def test_progress():
    s = award_progress("hunter", 550)
    assert (s.degree, s.degree_name, s.next_threshold, s.progress) == (1, "III", 1000, 0.5)
    s = award_progress("nuclear", 2)
    assert (s.degree, s.degree_name, s.next_threshold, s.progress) == (0, "", 5, 0.4)
    s = award_progress("base_assault", 40)
    assert (s.degree, s.degree_name, s.next_threshold, s.progress) == (3, "I", None, 1.0)
    assert s.to_dict() == {"id": "base_assault", "count": 40, "degree": 3, "degree_name": "I",
                           "next_threshold": None, "progress": 1.0}  # fmt: skip


# progression §5: an unknown award is an error, not a silent zero
def test_unknown_award():
    with pytest.raises(KeyError):
        award_progress("bravery", 1)


# issue 18 item 14: «не получен» agrees with the award's noun — медаль (f.) не получена, орден / знак (m.) не получен
@pytest.mark.parametrize(("award_id", "side", "name", "iii", "ii", "i"), TABLE)
def test_not_earned_agrees_with_the_awards_noun(award_id, side, name, iii, ii, i):
    award = next(a for a in AWARDS if a.id == award_id)
    assert award.not_earned == ("не получена" if name.startswith("Медаль ") else "не получен")
