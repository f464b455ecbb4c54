"""«Обучение» over the real app (issue 7): the pages, the lesson endpoints, refusals that change nothing, progress
remembered per commander (and kept through registration), and no game, lobby entry or points made by a lesson."""

from __future__ import annotations

import re

from admiral.games.admiral.tutorial import SCENARIOS, scenario

from .conftest import Browser, RawDb, make_settings, running
from .test_accounts import Person, register


def act(b, slug: str, step: int, **body):
    r = b.post(f"/api/tutorial/{slug}/act", json={"step": step, **body})
    assert r.status_code == 200, r.text
    return r.json()


def finish(b, slug: str) -> None:
    """Play a lesson from where the browser stands to its end, each step's expected action."""
    sc = scenario(slug)
    start = b.get(f"/api/tutorial/{slug}").json()["step"]
    for n in range(start, len(sc.steps)):
        assert act(b, slug, n, action=sc.steps[n].expect)["accepted"]


def marks(b) -> dict[str, str]:
    """The list page's lessons: slug → "done", "step N of M" text, or ""."""
    html = b.get("/tutorial").text
    out = {}
    for done, slug, body in re.findall(r'<li class="lesson-item( done)?" data-slug="([\w-]+)">(.*?)</li>', html, re.S):
        state = re.search(r'class="lesson-state[^"]*">([^<]*)<', body)
        out[slug] = "done" if done else (state.group(1) if state else "")
    return out


def test_the_tutorial_is_linked_from_home_and_the_topbar(browsers):
    b = browsers()
    home = b.get("/").text
    assert 'class="card tutorial-invite"' in home and "Пройти обучение" in home
    assert re.search(r'<nav aria-label="Разделы">.*?<a href="/tutorial">Обучение</a>', home, re.S)
    page = b.get("/tutorial")
    assert page.status_code == 200
    for n, sc in enumerate(SCENARIOS, 1):
        assert f'href="/tutorial/{sc.slug}"' in page.text and f"{n}. {sc.title}" in page.text
    assert "Пройдено уроков: 0 из 10" in page.text


def test_a_lesson_page_carries_every_step_text(browsers):
    b = browsers()
    r = b.get("/tutorial/formation")
    assert r.status_code == 200
    sc = scenario("formation")
    assert r.text.count('<li><p class="say">') == len(sc.steps)
    assert "Урок 4. Строй: атака и защита" in r.text
    assert 'href="/tutorial/aircraft"' in r.text  # the next lesson
    assert "/static/js/games/admiral/tutorial.js" in r.text
    assert 'data-manifest="/games/admiral/manifest.json?v=' in r.text  # the board draws from the game's manifest
    assert b.get("/tutorial/no-such-lesson").status_code == 404


def test_a_wrong_try_is_refused_and_changes_nothing(browsers, settings):
    b = browsers()
    start = b.get("/api/tutorial/moving").json()
    assert start["step"] == 0 and start["kind"] == "play" and start["spot"] == ["e4", "e5"]
    assert {"type": "move", "src": "e3", "dst": "d3", "notation": "e3-d3"} in start["view"]["legal"]
    for action in ("e3-d3", "e4xe5", "nonsense", ""):
        got = act(b, "moving", 0, action=action)
        assert got["accepted"] is False and got["step"] == 0 and got["frames"] == []
    assert b.get("/api/tutorial/moving").json() == start
    db = RawDb(settings.database_url)
    try:
        assert db.execute("SELECT COUNT(*) FROM tutorial_progress").fetchone()[0] == 0
    finally:
        db.close()


def test_the_right_try_advances_and_is_remembered(browsers, settings):
    b = browsers()
    got = act(b, "moving", 0, action="e4-e5")
    assert got["accepted"] and got["step"] == 1 and not got["done"]
    assert [f["ply"] for f in got["frames"]] == [1, 2]
    assert [e["dst"] for e in got["frames"][1]["events"]] == ["e10"]  # the reply: a marker went Д11 → Д10
    assert got["frames"][1]["events"][0]["kind"] is None
    # Reopened: the lesson resumes at step 1 with the same position.
    again = b.get("/api/tutorial/moving").json()
    assert again["step"] == 1 and again["view"]["units"] == got["frames"][-1]["units"]
    assert marks(b)["moving"] == "шаг 2 из 3"
    # Steps reached may be revisited; further ones may not.
    assert b.get("/api/tutorial/moving?step=0").json()["step"] == 0
    r = b.get("/api/tutorial/moving?step=2")
    assert r.status_code == 409 and r.json()["error"]["code"] == "bad_step"
    r = b.post("/api/tutorial/moving/act", json={"step": 2, "action": "e5-f5"})
    assert r.status_code == 409
    # Replaying step 0 does not lower what was reached.
    assert act(b, "moving", 0, action="e4-e5")["accepted"]
    assert b.get("/api/tutorial/moving").json()["step"] == 1
    finish(b, "moving")
    assert marks(b)["moving"] == "done"
    # A try after the last step (a second tab, a double click) says the lesson is over, not "not reached".
    r = b.post("/api/tutorial/moving/act", json={"step": 3, "action": "e5-f5"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "lesson_done"
    assert "Урок уже пройден" in r.json()["error"]["message"]
    assert b.get("/api/tutorial/moving").json()["step"] == 0  # a finished lesson opens at its start
    db = RawDb(settings.database_url)
    try:
        row = db.execute("SELECT step, done_at FROM tutorial_progress WHERE slug = 'moving'").fetchone()
        assert row["step"] == 3 and row["done_at"] is not None
    finally:
        db.close()


def test_progress_belongs_to_the_browser(browsers):
    a, b = browsers(), browsers()
    finish(a, "attack")
    assert marks(a)["attack"] == "done"
    assert marks(b)["attack"] == ""
    assert b.get("/api/tutorial/attack").json()["step"] == 0
    assert b.post("/api/tutorial/attack/act", json={"step": 1, "action": "h6-h7xh8"}).status_code == 409


def test_the_setup_lesson_over_the_api(browsers):
    b = browsers()
    start = b.get("/api/tutorial/setup").json()
    assert start["kind"] == "setup" and start["view"] is None and start["setup"]["draft"] == {}
    wrong = act(b, "setup", 0, op="update", setup={"e4": "L"})
    assert wrong["accepted"] is False and wrong["setup"]["draft"] == {}  # the draft to go back to
    assert act(b, "setup", 0, op="update", setup={"e3": "L"})["accepted"]
    assert act(b, "setup", 1, op="update", setup={"e3": "L", "b1": "VMB"})["accepted"]
    auto = act(b, "setup", 2, op="auto", setup={"e3": "L", "b1": "VMB"})
    assert auto["accepted"] and len(auto["setup"]["draft"]) == 58 and auto["setup"]["problems"] == []
    done = act(b, "setup", 3, op="ready", setup=auto["setup"]["draft"])
    assert done["accepted"] and done["done"] and done["setup"]["ready"]
    assert marks(b)["setup"] == "done"


def test_bad_requests_are_refused(browsers):
    b = browsers()
    assert b.get("/api/tutorial/nope").status_code == 404
    assert b.post("/api/tutorial/nope/act", json={"step": 0, "action": "e4-e5"}).status_code == 404
    for body in ({"step": -1, "action": "e4-e5"}, {"step": "x"}, {"step": "0", "action": "e4-e5"},
                 {"step": 0.0}, {"step": 0, "op": "boom"}, {"step": 0, "x": 1},
                 {"step": 0, "action": "e" * 65}, {"step": 0, "setup": {f"a{i}": "L" for i in range(81)}}):  # fmt: skip
        r = b.post("/api/tutorial/moving/act", json=body)
        assert r.status_code == 422, body
    assert b.get("/api/tutorial/moving?step=-1").status_code == 422
    # A try from another site, or without the browser's cookie, never reaches the lesson.
    r = b.post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"}, headers={"origin": "http://evil.test"})
    assert r.status_code == 403
    assert b.client.post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"}).status_code == 403
    assert b.get("/api/tutorial/moving").json()["step"] == 0


def test_lessons_make_no_games_and_no_points(browsers, settings):
    b = browsers()
    for sc in SCENARIOS:
        if sc.kind == "play":
            finish(b, sc.slug)
    assert "Пройдено уроков: 9 из 10" in b.get("/tutorial").text
    db = RawDb(settings.database_url)
    try:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM game_results").fetchone()[0] == 0
        assert db.execute("SELECT COALESCE(SUM(points), 0) FROM commanders").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM tutorial_progress WHERE done_at IS NOT NULL").fetchone()[0] == 9
    finally:
        db.close()


def test_registration_keeps_the_guests_progress_and_login_brings_it_back(client):
    guest = Person(client)
    finish(guest, "moving")
    act(guest, "attack", 0, action="e7xe8")
    assert register(guest).status_code == 303
    assert marks(guest)["moving"] == "done" and marks(guest)["attack"] == "шаг 2 из 3"
    # Another device, logged in: the same progress; logged out, the browser is a new guest again.
    other = Person(client)
    assert marks(other)["moving"] == ""
    assert other.submit("/login", login="nemo@example.org", password="Броненосец-1905").status_code == 303
    assert marks(other)["moving"] == "done"
    assert other.get("/api/tutorial/attack").json()["step"] == 1
    fresh = Person(client, token=guest.token)  # the old guest browser without its session
    assert marks(fresh)["moving"] == ""


def test_tries_are_rate_limited_per_address(db_url):
    # A script hammering the act endpoint is slowed down like one creating games (RATE_TUTORIAL).
    with running(make_settings(db_url, rate_tutorial="3/minute")) as client:
        b = Browser(client)
        for _ in range(3):
            assert b.post("/api/tutorial/moving/act", json={"step": 0, "action": "a1-a2"}).status_code == 200
        r = b.post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert b.get("/api/tutorial/moving").json()["step"] == 0  # the refused try changed nothing


def test_an_ipv6_64_is_one_address_to_the_tries_limit(db_url):
    """QA finding (issue 16): every address of a /64 had its own RATE_TUTORIAL."""
    from .test_accounts import at

    with running(make_settings(db_url, rate_tutorial="3/minute")) as client:
        for i in range(1, 4):
            r = at(client, f"2001:db8:7:7::{i}").post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"})
            assert r.status_code == 200
        r = at(client, "2001:db8:7:7:1::9").post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        r = at(client, "2001:db8:7:8::1").post("/api/tutorial/moving/act", json={"step": 0, "action": "e4-e5"})
        assert r.status_code == 200
