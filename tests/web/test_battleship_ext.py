"""«Морской бой: расширенный» through the whole house (issue 20): a friend game on each board over the socket — setup
with mines and minesweepers, shots, an ability, a mine struck, the end —, the levels fixed at the start and kept by a
reload after the careers moved (D11), the XP credited once at the end to guest commanders (C6, D11)."""

from __future__ import annotations

import html
from typing import Any

import pytest

from admiral import i18n
from admiral.games.battleship_ext import progression
from admiral.web.config import Settings

from .conftest import RawDb, make_settings, snapshot, start_game, until

BOARDS = {
    "classic": ({"board": "classic", "mines": 1, "sweepers": 1}, 20),
    "perelman": ({"board": "perelman", "mines": 3, "sweepers": 1}, 30),
    "giant": ({"board": "giant", "mines": 3, "sweepers": 1}, 50),
}


@pytest.fixture
def settings(db_url: str) -> Settings:
    """A socket may send more than 20 messages a second: these scripted players act as fast as the server answers."""
    return make_settings(db_url, ws_max_rate=1000, bot_delay_ms=0)


def _ready(wss: dict[str, Any], mines: int, sweepers: int) -> dict[str, dict]:
    """Auto-arrange both fleets (ships, mines and minesweepers, C1, C2) and ready them; the first snapshots in play."""
    for ws in wss.values():
        ws.send_json({"type": "setup.auto", "setup": {}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        codes = list(state["draft"].values())
        assert state["problems"] == [] and codes.count("M") == mines and codes.count("T") == sweepers
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
    return {side: snapshot(ws, status="play") for side, ws in wss.items()}


def _act(wss: dict[str, Any], snaps: dict[str, dict], side: str, notation: str) -> dict[str, dict]:
    """``side`` sends ``notation``; both sides' next snapshots past that version."""
    version = snaps[side]["game"]["version"]
    wss[side].send_json({"type": "action", "ply": version, "action": notation})
    out = {}
    for s, ws in wss.items():
        msg = until(ws, lambda m: m["type"] == "error" or (m["type"] == "snapshot" and m["game"]["version"] > version))
        assert msg["type"] == "snapshot", (side, notation, msg)
        out[s] = msg
    return out


def _own(snap: dict, side: str) -> tuple[set[str], dict[str, str]]:
    """``side``'s own deck cells and figures (cell → code) in its own snapshot."""
    me = snap["view"]["sides"][side]
    return {c for ship in me["ships"] for c in ship["cells"]}, {f["cell"]: f["code"] for f in me["figures"]}


def _play_out(wss: dict[str, Any], snaps: dict[str, dict], *, ability: bool = True) -> dict[str, dict]:
    """Play to the end: each side first misses twice (so that the game counts: two turns each, docs/points.md) and
    scans with its sonar once (``ability``), one enemy mine is struck once, then every shot goes at an enemy deck (a
    hit shoots again)."""
    own = {side: _own(snaps[side], side) for side in wss}
    scanned: set[str] = set()
    missed = {side: 0 for side in wss}
    struck_mine = False
    for _ in range(400):
        if snaps["south"]["game"]["status"] != "play":
            return snaps
        side = snaps["south"]["view"]["to_act"]
        other = "north" if side == "south" else "south"
        view = snaps[side]["view"]
        sonar = next((a for a in view["legal"] if a["type"] == "area" and a["ability"] == "sonar"), None)
        if ability and side not in scanned and sonar is not None:  # rules C5: a sonar does not use the turn
            scanned.add(side)
            energy = view["energy"]["value"]
            price = next(a["cost"] for a in view["abilities"] if a["key"] == "sonar")
            snaps = _act(wss, snaps, side, f"{sonar['prefix']} {sonar['cells'][0]}")
            after = snaps[side]["view"]
            assert after["to_act"] == side and after["energy"]["value"] == energy - price
            assert after["sides"][side]["scans"][-1]["answer"] in (True, False)
            assert snaps[other]["view"]["sides"][side]["scans"][-1]["answer"] is None  # D12: only the scanner
            assert snaps[other]["view"]["sides"][side]["uses"][-1]["ability"] == "sonar"  # the use is public
            continue
        shots = [a["cell"] for a in view["legal"] if a["type"] == "shot"]
        if missed[side] < 2:
            missed[side] += 1
            empty = next(c for c in shots if c not in own[other][0] and c not in own[other][1])
            snaps = _act(wss, snaps, side, empty)
            continue
        mines = [c for c in shots if own[other][1].get(c) == "M"]
        if not struck_mine and mines:  # rules C3: a mine ends the turn and hands over a deck of the shooter
            struck_mine = True
            snaps = _act(wss, snaps, side, mines[0])
            answer = snaps[side]["view"]["sides"][side]["shots"][-1]
            assert answer["answer"] == "mine" and snaps[side]["view"]["to_act"] == other
            assert len(snaps[other]["view"]["sides"][other]["crosshairs"]) >= 1
            continue
        target = next((c for c in shots if c in own[other][0]), shots[0])
        snaps = _act(wss, snaps, side, target)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_a_friend_game_is_played_on_each_board(browsers, board: str) -> None:  # rules C1–C5, D13
    options, decks = BOARDS[board]
    game_id, south, north = start_game(browsers, game="battleship_ext", options=options)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss, options["mines"], options["sweepers"])
        view = snaps["south"]["view"]
        assert view["game"] == "battleship_ext" and view["options"] == options
        assert view["board"]["width"] == {"classic": 10, "perelman": 16, "giant": 18}[board]
        assert sum(s["size"] * s["count"] for s in view["fleet"]) == decks
        assert view["levels"] == {"south": 1, "north": 1} and view["chance"]["seed"] is None
        assert snaps["north"]["view"]["sides"]["south"]["figures"] is None  # hidden from the other seat
        snaps = _play_out(wss, snaps)
        result = snaps["south"]["game"]["result"]
        assert result["reason"] == "fleet_sunk" and result["winner"] in ("south", "north")
        assert len(snaps["north"]["view"]["chance"]["seed"]) == 64
        assert snaps["north"]["view"]["sides"]["south"]["figures"]  # the end opens every figure (D12)
    record = south.get(f"/api/games/{game_id}/record.json").json()
    assert record["settings"]["options"] == options and record["settings"]["levels"] == {"south": 1, "north": 1}
    replay = south.get(f"/api/games/{game_id}/replay").json()
    assert [p["ability"] for p in replay["plies"]].count("sonar") == 2
    assert any(s["answer"] == "mine" for p in replay["plies"] for s in p["shots"])
    assert replay["chance"]["draws"][0]["k"] == 0


def _career(client: Any, key: str) -> dict[str, Any]:
    accounts = client.app.state.accounts.store
    row = accounts.by_key(key)
    return {} if row is None else accounts.careers(row.id)["battleship_ext"].career


def test_levels_are_fixed_at_the_start_and_xp_is_credited_once(client, browsers, db_url: str) -> None:
    # rules C6, D11: XP at the end (guests too), the level of the career when play starts, kept by a reload
    service = client.app.state.service
    game_id, south, north = start_game(browsers, game="battleship_ext", options={"board": "classic"})
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _play_out(wss, _ready(wss, 1, 1), ability=False)
        for side, ws in wss.items():  # the credit comes after the end, off the game's lock
            if snaps[side]["game"]["credit"] is None:
                snaps[side] = until(ws, lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None)
    g = service.get(game_id)
    keys = {side: g.seats[side].browser_hash for side in ("south", "north")}
    stats = g.rules.game_stats(g.game)
    winner = g.result["winner"]
    assert stats[winner]["xp"] == 20 + 3 * 20  # every deck hit, every ship sunk: 1 + 3 × size each
    xp = {side: _career(client, keys[side])["xp"] for side in keys}
    assert xp == {side: stats[side]["xp"] for side in keys}
    assert snaps[winner]["game"]["credit"]["xp"] == xp[winner]
    page = {"south": south, "north": north}[winner].get("/profile").text  # rules C7: the level's icons
    assert '<dd data-stat="battleship_ext.level">3</dd>' in page and '<dd data-stat="battleship_ext.xp">80</dd>' in page
    assert 'data-badge="battleship_ext"' in page and '<span class="ability-icons" data-level="3" data-tier="1">' in page
    service._credit(g)  # another end trigger or a reload credits nothing more
    service.games.pop(game_id, None)
    service.get(game_id)
    assert {side: _career(client, keys[side])["xp"] for side in keys} == xp

    same = iter((south, north))  # the same two guests again
    second, _, _ = start_game(lambda: next(same), game="battleship_ext")
    with south.ws(second) as sws, north.ws(second) as nws:
        snaps = _ready({"south": sws, "north": nws}, 1, 1)
    levels = {side: progression.level_of(xp[side]) for side in xp}
    assert snaps["north"]["view"]["levels"] == levels and levels[winner] == 3
    db = RawDb(db_url)
    try:
        with db:
            db.execute("UPDATE commander_games SET career = ? WHERE game = 'battleship_ext'", ('{"xp": 5000}',))
    finally:
        db.close()
    service.games.pop(second, None)  # a reload, or another instance, rebuilds the game after the careers moved
    with south.ws(second) as sws:
        again = snapshot(sws, status="play")
    assert again["view"]["levels"] == levels
    start = service.get(second).start_settings
    assert start["levels"] == levels and start["seed"].bit_length() > 64  # D13: a 32-byte seed, kept for reloads
    assert again["view"]["chance"]["commitment"] == snaps["north"]["view"]["chance"]["commitment"]


def test_the_home_form_posts_the_counts_as_numbers(browsers) -> None:  # rules C1: counts within the board's range
    b = browsers()
    form = {"opponent": "friend", "time_control": "10+5", "game": "battleship_ext"}
    r = b.post("/games", data={**form, "opt_board": "perelman", "opt_mines": "2", "opt_sweepers": "0"})
    assert r.status_code == 303, r.text
    with b.ws(r.headers["location"].removeprefix("/g/")) as ws:
        options = snapshot(ws)["game"]["settings"]["options"]
    assert options == {"board": "perelman", "mines": 2, "sweepers": 0}
    refused = b.post("/games", data={**form, "opt_board": "classic", "opt_mines": "3"})
    assert refused.status_code == 400 and "Таких правил партии нет" in refused.text
    assert "Причина:" in refused.text and "mines" not in refused.text  # which option is wrong (QA), in Russian
    assert "«Мины» на поле 10×10 «Классика» — от 0 до 1." in refused.text
    assert b.post("/games", data={**form, "opt_mines": "２"}).status_code == 400  # a non-ASCII digit is no count


@pytest.mark.parametrize(
    ("lang", "data", "words"),
    [
        ("ru", {"opt_board": "classic", "opt_mines": "3"}, "Причина: «Мины» на поле 10×10 «Классика» — от 0 до 1."),
        ("en", {"opt_board": "classic", "opt_mines": "3"}, "Reason: “Mines” on the 10×10 “Classic” board is 0 to 1."),
        ("ru", {"opt_board": "perelman", "opt_sweepers": "2"}, "«Тральщики» на поле 16×16 «Перельман» — от 0 до 1."),
        ("en", {"opt_board": "giant", "opt_mines": "4"}, "“Mines” on the 18×18 “Giant” board is 0 to 3."),
    ],
)
def test_a_refused_room_says_why_in_the_page_language(client, browsers, lang, data, words) -> None:
    # rules C1: the rules' refusal (bad_options, its detail as data) worded by the house's catalogs, not in English
    # on a Russian page; the JSON API keeps the rules' reason beside the explanation
    b = browsers()
    headers = {"cookie": f"{b.headers['cookie']}; {i18n.COOKIE}={lang}"}
    form = {"opponent": "friend", "time_control": "10+5", "game": "battleship_ext", **data}
    refused = b.post("/games", data=form, headers=headers)
    assert refused.status_code == 400
    text = html.unescape(refused.text)
    assert words in text, text[text.find("<main") :][:800]
    assert ("Таких правил партии нет" in text) == (lang == "ru") and "is an int" not in text
    options = {"board": data["opt_board"], "mines": int(data.get("opt_mines", 1)), "sweepers": 1}
    options["sweepers"] = int(data.get("opt_sweepers", 1))
    api = b.post("/games", json={"opponent": "friend", "game": "battleship_ext", "options": options}, headers=headers)
    detail = api.json()["error"]["detail"]
    assert (
        "is an int 0–" in detail["reason"]
        and words.removeprefix("Причина: ").removeprefix("Reason: ") == (detail["explained"])
    )


def test_a_refused_classic_option_says_why_in_russian(browsers) -> None:  # rules D3: a salvo only under Hasbro
    b = browsers()
    r = b.post(
        "/games", json={"opponent": "friend", "game": "battleship", "options": {"rules": "classic", "salvo": True}}
    )
    assert r.json()["error"]["detail"]["explained"] == "«Залп» бывает только в правилах «Hasbro»."


def test_saved_setups_are_listed_for_the_room_they_were_saved_under(browsers) -> None:  # QA: GET read "3" as text
    # rules C1: the saved setups of a room with 3 mines on «Гигант»; the query's numbers are read as numbers
    from admiral.games import GAMES

    options = {"board": "giant", "mines": 3, "sweepers": 1}
    setup = GAMES["battleship_ext"].auto_setup("south", 7, {}, options)
    me = browsers()
    me.get("/")
    r = me.post("/api/setups", json={"name": "Гигант", "setup": setup, "game": "battleship_ext", "options": options})
    assert r.status_code == 201, r.text
    listed = me.get("/api/setups?game=battleship_ext&board=giant&mines=3&sweepers=1")
    assert listed.status_code == 200, listed.text
    assert [s["name"] for s in listed.json()] == ["Гигант"]
    # another room of the same game lists none of them; a count that is no number is refused with the rules' reason
    assert me.get("/api/setups?game=battleship_ext&board=giant&mines=2&sweepers=1").json() == []
    bad = me.get("/api/setups?game=battleship_ext&board=giant&mines=three&sweepers=1")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_options"


def test_a_timed_game_runs_the_clock_of_the_side_to_act_and_ends_on_its_flag(browsers) -> None:
    # rules C3, C5, D8 with a time control: a shot that misses hands the turn (and the clock, with the increment) over,
    # a hit and a sonar keep it; the side that lets its time run out loses by «flag», and the seed is shown (D13)
    base, inc = 4000, 3000  # an increment well above the thinking time of these scripted moves
    game_id, south, north = start_game(
        browsers, game="battleship_ext", options={"board": "classic"}, base_ms=base, increment_ms=inc
    )
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss, 1, 1)
        first = snaps["south"]["view"]["to_act"]
        other = "north" if first == "south" else "south"
        clocks = snaps["south"]["game"]["clocks"]
        assert clocks["running"] == first and 0 < clocks[f"{first}_ms"] <= base and clocks[f"{other}_ms"] == base
        own = {side: _own(snaps[side], side) for side in wss}
        sonar = next(a for a in snaps[first]["view"]["legal"] if a["type"] == "area" and a["ability"] == "sonar")
        snaps = _act(wss, snaps, first, f"sonar {sonar['cells'][0]}")  # does not use the turn: the clock runs on
        assert snaps[other]["game"]["clocks"]["running"] == first and snaps[first]["view"]["to_act"] == first
        deck = sorted(own[other][0])[0]
        snaps = _act(wss, snaps, first, deck)  # a hit shoots again: the same clock
        assert snaps[first]["view"]["sides"][first]["shots"][-1]["answer"] in ("hit", "sunk")
        assert snaps[other]["game"]["clocks"]["running"] == first
        before = snaps[first]["game"]["clocks"][f"{first}_ms"]
        shots = [a["cell"] for a in snaps[first]["view"]["legal"] if a["type"] == "shot"]
        empty = next(c for c in shots if c not in own[other][0] and c not in own[other][1])
        snaps = _act(wss, snaps, first, empty)  # a miss: the turn passes, with its increment
        clocks = snaps[other]["game"]["clocks"]
        assert clocks["running"] == other and snaps[other]["view"]["to_act"] == other
        assert before < clocks[f"{first}_ms"] <= before + inc
        # the other side thinks for ever: its flag falls on the server
        end = {side: snapshot(ws, status="over") for side, ws in wss.items()}
    game = end["south"]["game"]
    assert game["result"] == {"winner": first, "reason": "flag"} and game["clocks"][f"{other}_ms"] == 0
    assert game["clocks"]["running"] is None and game["clocks"][f"{first}_ms"] > 0
    for side in wss:
        view = end[side]["view"]
        assert view["result"]["winner"] == first and view["chance"]["seed"] is not None  # D13: the seed at the end
    record = south.get(f"/api/games/{game_id}/record.json").json()
    assert record["actions"][-1] == f"flag {other}", record["actions"][-3:]
