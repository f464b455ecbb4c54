"""«Обучение» of «Военно-морская игра» over the real app (issue 21): each lesson played through the API to its end, a
wrong try refused with the rules' reason and nothing changed, progress per commander, and the list page showing both
games' lessons under their names."""

from __future__ import annotations

import re

from admiral.games.naval.tutorial import SCENARIOS, scenario

from .conftest import RawDb
from .test_tutorial import act, marks


def finish(b, slug: str) -> list[dict]:
    """Play a lesson from where the browser stands to its end, each step's first expected try; the replies."""
    sc = scenario(slug)
    start = b.get(f"/api/tutorial/{slug}").json()["step"]
    out = []
    for n in range(start, len(sc.steps)):
        got = act(b, slug, n, action=sc.steps[n].expect[0])
        assert got["accepted"] and got["step"] == n + 1, (slug, n, got)
        out.append(got)
    return out


def test_the_list_shows_both_games_lessons_under_their_names(browsers):
    b = browsers()
    html = b.get("/tutorial").text
    sections = re.findall(r'<section class="tutorial-game" id="(\w+)" data-game="\w+">\s*<h2>([^<]+)</h2>', html)
    assert sections == [("admiral", "Адмирал"), ("naval", "Военно-морская игра")]
    naval = html[html.index('id="naval"') :]
    for n, sc in enumerate(SCENARIOS, 1):
        assert f'href="/tutorial/{sc.slug}"' in naval and f"{n}. {sc.title}" in naval
    assert "Пройдено уроков: 0 из 10" in html and "Пройдено уроков: 0 из 3" in naval
    home = b.get("/").text  # the home page's invite for the game points at its lessons
    assert re.search(r'data-for-game="naval"[^>]*>.*?href="/tutorial#naval"', home, re.S)


def test_a_naval_lesson_page_loads_its_games_script_and_manifest(browsers):
    b = browsers()
    r = b.get("/tutorial/naval-strikes")
    assert r.status_code == 200
    assert r.text.count('<li><p class="say">') == len(scenario("naval-strikes").steps)
    assert "Урок 2. Удар по курсу" in r.text and "Военно-морская игра." in r.text
    assert "/static/js/games/naval/tutorial.js" in r.text and "games/admiral" not in r.text
    assert 'data-manifest="/games/naval/manifest.json?v=' in r.text
    assert 'href="/tutorial/naval-mines"' in r.text  # the next lesson of the same game
    assert 'id="next-lesson"' not in b.get("/tutorial/naval-mines").text  # the last: no other game's lesson next
    assert 'id="next-lesson"' not in b.get("/tutorial/base").text  # «Адмирал»'s last does not lead to naval's
    assert b.get("/static/js/games/naval/tutorial.js").status_code == 200


def test_each_lesson_plays_through_to_its_end(browsers, settings):
    b = browsers()
    start = b.get("/api/tutorial/naval-moves").json()
    assert start["kind"] == "play" and start["step"] == 0 and start["view"]["game"] == "naval"
    assert start["spot"] == ["d3", "d4"]
    assert {"type": "step", "ship": "d3", "to": "e3", "notation": "d3-e3"} in start["tries"]
    replies = {sc.slug: finish(b, sc.slug) for sc in SCENARIOS}
    moves = replies["naval-moves"]
    assert [len(r["frames"]) for r in moves] == [2, 1, 2, 2, 1]  # the opponent answers each real move
    assert moves[1]["reason"] == "Боком корабль не ходит: сначала поверните нос."  # a refusal step: the rules' words
    assert moves[4]["reason"] == "Кормой вперёд корабль не ходит." and moves[4]["done"]
    assert moves[0]["reason"] is None and moves[4]["tries"] == []
    strikes = replies["naval-strikes"]
    assert [r["reason"] for r in strikes[1:3]] == [
        "В корму бить нельзя.", "В нос бьёт только старший корабль; равный или младший — только в борт.",
    ]  # fmt: skip
    last = strikes[-1]["frames"][-1]
    assert [s["ship"] for s in last["sides"]["north"]["sunk"]] == ["G1", "T1", "B"]
    mines = replies["naval-mines"]
    first = mines[0]["frames"][-1]
    assert first["rolls"][0] | {"what": None} == {
        "k": 0, "n": 6, "value": 0, "explosion": True, "what": None, "ply": 1, "side": "north", "ship": "G1",
        "kind": "G", "point": "f6", "cause": "mine",
    }  # fmt: skip
    assert first["mines"] == ["f6"] and first["sides"]["south"]["reserve"] == 2
    gun = mines[1]["frames"][0]["rolls"][-1]
    assert (gun["k"], gun["value"], gun["explosion"], gun["cause"], gun["point"]) == (1, 5, False, "gun", "e11")
    assert len(mines[2]["frames"][0]["rolls"]) == 2  # the submarine passes the mine without a roll
    assert all(v == "done" for k, v in marks(b).items() if k.startswith("naval-"))
    db = RawDb(settings.database_url)
    try:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0  # a lesson makes no game
        rows = db.execute("SELECT slug, step FROM tutorial_progress WHERE done_at IS NOT NULL ORDER BY slug").fetchall()
        assert [(r["slug"], r["step"]) for r in rows] == [("naval-mines", 3), ("naval-moves", 5), ("naval-strikes", 5)]
    finally:
        db.close()


def test_a_wrong_try_is_refused_with_the_rules_reason_and_changes_nothing(browsers, settings):
    b = browsers()
    start = b.get("/api/tutorial/naval-moves").json()
    for action, reason in [
        ("d3-e3", "Боком корабль не ходит: сначала поверните нос."),  # sideways before it is asked for
        ("d3-d2", "Кормой вперёд корабль не ходит."),
        ("d3-d5", "Корабль идёт только на соседнюю точку."),
        ("d3>", None),  # legal, but not this step's: the hint alone
        ("nonsense", "Ход — шаг «d2-d3», поворот «d2>» или «d2<», удар «d2xd3», мина «+a1» или «-a1»."),
        ("resign south", None),
        ("", "Ход — шаг «d2-d3», поворот «d2>» или «d2<», удар «d2xd3», мина «+a1» или «-a1»."),
    ]:
        got = act(b, "naval-moves", 0, action=action)
        assert got["accepted"] is False and got["step"] == 0 and got["frames"] == [], action
        assert got["reason"] == reason, action
        assert got["tries"] == start["tries"] and got["spot"] == start["spot"]
    # a refusal step wants its own refusal: another one does not pass it
    assert act(b, "naval-moves", 0, action="d3-d4")["accepted"]
    got = act(b, "naval-moves", 1, action="d4-d3")
    assert not got["accepted"] and got["reason"] == "Кормой вперёд корабль не ходит." and got["step"] == 1
    got = act(b, "naval-moves", 1, op="auto", setup={})
    assert not got["accepted"] and got["reason"] is None
    assert b.get("/api/tutorial/naval-moves").json()["step"] == 1
    assert b.get("/api/tutorial/naval-moves?step=0").json() == start
    assert b.get("/api/tutorial/naval-moves?step=2").status_code == 409
    db = RawDb(settings.database_url)
    try:
        assert db.execute("SELECT step FROM tutorial_progress WHERE slug = 'naval-moves'").fetchone()["step"] == 1
    finally:
        db.close()


def test_progress_belongs_to_the_commander(browsers):
    a, b = browsers(), browsers()
    finish(a, "naval-strikes")
    act(a, "naval-mines", 0, action="+f6 f6-e6")
    assert marks(a)["naval-strikes"] == "done" and marks(a)["naval-mines"] == "шаг 2 из 3"
    assert marks(b)["naval-strikes"] == "" and marks(b)["naval-mines"] == ""
    assert b.get("/api/tutorial/naval-mines").json()["step"] == 0
    assert b.post("/api/tutorial/naval-mines/act", json={"step": 1, "action": "e10-e11"}).status_code == 409
    # «Адмирал»'s lessons are untouched by naval's
    assert all(v == "" for k, v in marks(a).items() if not k.startswith("naval-"))
    assert a.get("/api/tutorial/naval-mines").json()["step"] == 1
