"""«Морской бой» on the site (issue 17): the game's manifest route, the home page's game picker and room options,
the game page loading the game's own client, the invite page, and a game set up and started through the socket."""

from __future__ import annotations

import json
import re

from .conftest import snapshot, until


def manifest_of(r) -> dict:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    return json.loads(r.text)


def test_manifest_route(browsers) -> None:
    b = browsers()
    r = b.get("/games/battleship/manifest.json")
    m = manifest_of(r)
    assert m["key"] == "battleship" and m["name"] == "Морской бой"
    assert m["board"] == {
        "width": 10, "height": 10, "rows": "abcdefghij", "rows_ru": "АБВГДЕЖЗИК",
        "columns": [str(c) for c in range(1, 11)],
    }  # fmt: skip
    classic = m["fleets"]["classic"]
    assert [(s["code"], s["size"], s["count"]) for s in classic] == [("4", 4, 1), ("3", 3, 2), ("2", 2, 3), ("1", 1, 4)]
    assert classic[0]["name"] == "Четырёхпалубный"
    hasbro = m["fleets"]["hasbro"]
    assert [(s["code"], s["size"]) for s in hasbro] == [("C", 5), ("B", 4), ("D", 3), ("S", 3), ("P", 2)]
    assert [s["name"] for s in hasbro][:2] == ["Авианосец", "Линкор"]
    assert m["answers"]["classic"] == {"miss": "Мимо", "hit": "Ранен", "sunk": "Убит"}
    assert m["answers"]["hasbro"] == {"miss": "Мимо", "hit": "Попал", "sunk": "Потоплен"}
    assert m["rule_sets"] == {
        "classic": {"touching": False, "again_on_hit": True},
        "hasbro": {"touching": True, "again_on_hit": False},
    }
    assert [o["name"] for o in m["options"]] == ["rules", "salvo", "named"]
    assert m["options"][1]["applies"] == {"rules": ["hasbro"]}
    assert [s[0] for s in m["setup_styles"]] == ["plain", "hard"]
    # the same for every language: texts are the Russian message ids the client translates
    assert (
        b.get("/games/battleship/manifest.json", headers={"cookie": f"{b.headers['cookie']}; admiral_lang=en"}).text
        == r.text
    )
    # cacheable: a page asks for it with its version, which is kept for a year; without it, revalidated by ETag
    assert r.headers["cache-control"] == "no-cache"
    etag = r.headers["etag"]
    version = etag.strip('"')
    fresh = b.get(f"/games/battleship/manifest.json?v={version}")
    assert fresh.headers["cache-control"] == "public, max-age=31536000, immutable"
    again = b.get("/games/battleship/manifest.json", headers={"if-none-match": etag})
    assert again.status_code == 304 and not again.content
    admiral = manifest_of(b.get("/games/admiral/manifest.json"))
    assert admiral["board"]["width"] == 14 and admiral["board"]["height"] == 15
    assert len(admiral["units"]) == 17 and sum(u["count"] for u in admiral["units"]) == 58
    r = b.get("/games/chess/manifest.json")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_home_offers_both_games_and_the_room_options(browsers) -> None:
    b = browsers()
    html = b.get("/").text
    assert re.search(r'name="pick_game" value="admiral"[^>]*checked', html, re.S)
    assert 'value="battleship"' in html and "Морской бой" in html
    # the battleship options are there, hidden and disabled while «Адмирал» is chosen
    assert re.search(r'<fieldset class="room-options" data-for-game="battleship" hidden disabled>', html)
    html = b.get("/?game=battleship").text
    assert re.search(r'name="pick_game" value="battleship"[^>]*checked', html, re.S)
    assert '<fieldset class="room-options" data-for-game="battleship">' in html
    assert 'name="opt_rules" value="classic" checked' in html and 'name="opt_rules" value="hasbro"' in html
    assert 'name="opt_salvo" value="true"' in html and "Залп" in html
    assert 'name="opt_named" value="false"' in html and "Попадания без названия" in html
    assert 'data-applies="{&#34;rules&#34;: [&#34;hasbro&#34;]}"' in html  # greyed out under «Классика»
    # «Морской бой» has its AI levels: the AI form is offered with them
    assert not re.search(r'<form [^>]*id="new-ai-game" hidden>', html)
    assert "Адмиральский" in html
    assert '<input type="hidden" name="game" value="battleship" data-game-field>' in html
    # the setup time defaults to the game's own (3 minutes)
    assert re.search(r'name="setup_minutes" value="3" checked', html)


def test_home_says_what_each_game_declares_of_itself(browsers) -> None:
    """The home page's texts come from each game's GameInfo (blurb, brief, level notes, tutorial, side choice):
    the template names no game (issue 17)."""
    from admiral.games import GAMES

    b = browsers()
    html = b.get("/?game=battleship").text
    sea, admiral = GAMES["battleship"].info, GAMES["admiral"].info
    assert sea.blurb in html and admiral.blurb in html
    assert sea.level_notes[5] in html and admiral.level_notes[5] in html
    assert re.search(r'<section class="card narrow rules-brief" data-for-game="battleship">\s*<h2>', html)
    assert re.search(r'<section class="card narrow rules-brief" data-for-game="admiral" hidden>', html)
    # «Адмирал» has lessons; it and «Военно-морская игра» have a side to choose; «Морской бой»'s sides are alike
    assert re.search(r'<section class="card tutorial-invite" data-for-game="admiral" hidden>', html)
    assert 'class="card tutorial-invite" data-for-game="battleship"' not in html
    sided = [key for key, r in GAMES.items() if r.info.side_choice]
    assert sided == ["admiral", "naval"]
    assert html.count("<legend>Ваша сторона</legend>") == 2 * len(sided)  # in the friend and the AI forms
    assert 'data-for-game="battleship" hidden disabled>\n      <legend>Ваша сторона' not in html
    # English through the catalogs
    html = b.get("/?game=battleship", headers={"cookie": f"{b.headers['cookie']}; admiral_lang=en"}).text
    assert "fires at random" in html and "New to “Admiral”?" in html


def create_by_form(b, **fields) -> str:
    r = b.post("/games", data={"opponent": "friend", "time_control": "10+5", "setup_minutes": "3", **fields})
    assert r.status_code == 303, r.text
    return r.headers["location"].removeprefix("/g/")


def test_home_form_posts_the_room_options(browsers) -> None:
    b = browsers()
    game_id = create_by_form(b, game="battleship", opt_rules="hasbro", opt_salvo="true", opt_named="false")
    with b.ws(game_id) as ws:
        settings = snapshot(ws)["game"]["settings"]
    assert settings["game"] == "battleship"
    assert settings["options"] == {"rules": "hasbro", "salvo": True, "named": False}
    assert settings["setup_ms"] == 180_000
    # unchecked boxes send nothing: the defaults
    game_id = create_by_form(b, game="battleship", opt_rules="classic")
    with b.ws(game_id) as ws:
        assert snapshot(ws)["game"]["settings"]["options"] == {"rules": "classic", "salvo": False, "named": True}
    # a form carries the fields of every game: another game's are not the chosen game's
    game_id = create_by_form(b, game="admiral", opt_rules="hasbro", side="south")
    with b.ws(game_id) as ws:
        settings = snapshot(ws)["game"]["settings"]
    assert settings["game"] == "admiral" and settings["options"] == {}
    # a box sends the value the form gave it, "true" or "false": any other word is refused
    for word in ("yes", "on", "1", "True"):
        form = {"opponent": "friend", "game": "battleship", "opt_rules": "hasbro", "opt_salvo": word}
        r = b.post("/games", data=form)
        assert r.status_code == 400 and "Таких правил партии нет" in r.text, word
    # a room the rules do not have is refused, with the reason
    r = b.post("/games", data={"opponent": "friend", "game": "battleship", "opt_rules": "classic", "opt_salvo": "true"})
    assert r.status_code == 400
    # against the AI: one of «Морской бой»'s levels, a level it does not have refused
    r = b.post("/games", data={"opponent": "ai", "ai_level": "1", "game": "battleship", "opt_rules": "classic"})
    assert r.status_code == 303
    r = b.post("/games", data={"opponent": "ai", "ai_level": "6", "game": "battleship", "opt_rules": "classic"})
    assert r.status_code == 400 and "ИИ" in r.text


def test_game_page_loads_the_games_own_client(browsers) -> None:
    b = browsers()
    game_id = create_by_form(b, game="battleship", opt_rules="hasbro", opt_salvo="true")
    html = b.get(f"/g/{game_id}").text
    assert '<script type="module" src="/static/js/games/battleship/main.js"></script>' in html
    assert 'data-game="battleship"' in html and 'data-game-name="Морской бой"' in html
    manifest = re.search(r'data-manifest="(/games/battleship/manifest\.json\?v=\w+)"', html)
    assert manifest, html
    assert b.get(manifest.group(1)).headers["cache-control"].endswith("immutable")
    assert re.search(r"<title>[^<]*Морской бой</title>", html)
    assert "/static/js/games/admiral/main.js" not in html
    assert b.get("/static/js/games/battleship/main.js").status_code == 200
    # «Адмирал» keeps its client
    admiral = create_by_form(b, game="admiral", side="south")
    html = b.get(f"/g/{admiral}").text
    assert '<script type="module" src="/static/js/games/admiral/main.js"></script>' in html
    assert 'data-game="admiral"' in html and re.search(r"<title>[^<]*Адмирал</title>", html)


def test_invite_page_names_the_game_and_its_rules(browsers) -> None:
    b = browsers()
    r = b.post("/games", json={"game": "battleship", "options": {"rules": "hasbro", "salvo": True}})
    invite = r.json()["invite_url"]
    html = browsers().get(invite).text
    assert "Вас пригласили сыграть в «Морской бой»" in html
    assert "Правила: Hasbro · Залп." in html  # the game's own invite line, with the room filled in


def test_battleship_game_starts_and_takes_a_shot(browsers) -> None:
    """Both fleets auto-arranged and ready: play starts (the first shooter drawn from the game's seed) and a shot
    goes through the socket as its cell."""
    south, north = browsers(), browsers()
    game_id, invite = south.create(game="battleship", side="south", options={"rules": "classic"})
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        for ws in (sws, nws):
            snapshot(ws, status="setup")
            ws.send_json({"type": "setup.auto", "setup": {"a1": "4", "a2": "4", "a3": "4", "a4": "4"}, "style": "hard"})
            state = until(ws, lambda m: m["type"] == "setup.state")
            assert len(state["draft"]) == 20 and state["problems"] == []
            ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        s, n = snapshot(sws, status="play"), snapshot(nws, status="play")
        assert s["view"]["game"] == "battleship" and s["game"]["settings"]["options"]["rules"] == "classic"
        assert s["view"]["sides"]["south"]["ships"][0]["cells"] == ["a1", "a2", "a3", "a4"]  # the partial was kept
        assert n["view"]["sides"]["south"]["ships"] is None  # North never sees South's fleet
        first = s["view"]["to_act"]
        ws = sws if first == "south" else nws
        snap = s if first == "south" else n
        cell = snap["view"]["legal"][0]["cell"]
        ws.send_json({"type": "action", "ply": 0, "action": cell})
        after = snapshot(ws, version=1)
        assert after["view"]["sides"][first]["shots"][0]["cell"] == cell
