"""Ranks (PROGRESSION.md §3): the table, thresholds and progress."""

import pytest

from admiral.progression import RANKS, rank_for

#: PROGRESSION.md §3, written out by hand.
TABLE = [
    (1, "Матрос", 0), (2, "Старший матрос", 200), (3, "Старшина 2 статьи", 500), (4, "Старшина 1 статьи", 900),
    (5, "Главный старшина", 1400), (6, "Главный корабельный старшина", 2000), (7, "Мичман", 2800),
    (8, "Старший мичман", 3800), (9, "Младший лейтенант", 5000), (10, "Лейтенант", 6500),
    (11, "Старший лейтенант", 8500), (12, "Капитан-лейтенант", 11000), (13, "Капитан 3 ранга", 14000),
    (14, "Капитан 2 ранга", 18000), (15, "Капитан 1 ранга", 23000), (16, "Контр-адмирал", 29000),
    (17, "Вице-адмирал", 36000), (18, "Адмирал", 45000), (19, "Адмирал флота", 56000),
]  # fmt: skip


# progression §3: the table in code is the table of the rules
def test_table():
    assert [(r.number, r.name, r.from_points) for r in RANKS] == TABLE


# progression §3: each rank from its threshold, the previous one just below it
@pytest.mark.parametrize(("number", "name", "start"), TABLE)
def test_thresholds(number, name, start):
    assert (rank_for(start).number, rank_for(start).name) == (number, name)
    if start:
        assert rank_for(start - 1).number == number - 1


# progression §3: progress 0…1 from this rank's threshold to the next one's
def test_progress():
    r = rank_for(350)
    assert (r.name, r.next.name, r.next.from_points, r.progress) == ("Старший матрос", "Старшина 2 статьи", 500, 0.5)
    assert rank_for(0).progress == 0.0
    assert rank_for(199).progress == 199 / 200


# progression §3: the top rank has no next one
def test_top_rank():
    r = rank_for(100_000)
    assert (r.number, r.name, r.next, r.progress) == (19, "Адмирал флота", None, 1.0)
    assert r.to_dict() == {"number": 19, "name": "Адмирал флота", "from_points": 56000, "points": 100_000,
                           "next": None, "progress": 1.0}  # fmt: skip


# progression §3: points are never negative
def test_negative_points():
    with pytest.raises(ValueError):
        rank_for(-1)
