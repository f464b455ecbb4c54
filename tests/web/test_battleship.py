"""«Морской бой» through the whole house (issue 17): created by ``POST /games``, set up and played over the socket
with the same messages as «Адмирал», refused input changing nothing, the end, the record and the replay."""

from __future__ import annotations

from typing import Any

import pytest

from admiral.web.config import Settings

from .conftest import error, make_settings, snapshot, start_game, until


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The test settings, with a socket allowed more than 20 messages a second: these scripted players shoot as
    fast as the server answers (a hit shoots again), and the bots answer without their human-like pause."""
    return make_settings(db_url, ws_max_rate=1000, bot_delay_ms=0)


OPTIONS = {
    "classic": {"rules": "classic"},
    "hasbro": {"rules": "hasbro"},
    "salvo": {"rules": "hasbro", "salvo": True},
    "unnamed": {"rules": "hasbro", "named": False},
}


def _ready(wss: dict[str, Any], style: str = "") -> dict[str, dict]:
    """Auto-arrange and ready both fleets; each side's first snapshot in play."""
    for ws in wss.values():
        ws.send_json({"type": "setup.auto", "setup": {}, "style": style})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert state["problems"] == [] and len(state["draft"]) in (17, 20)
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
    return {side: snapshot(ws, status="play") for side, ws in wss.items()}


def _decks(snap: dict, side: str) -> set[str]:
    """The cells of ``side``'s own ships in its own snapshot."""
    return {cell for ship in snap["view"]["sides"][side]["ships"] for cell in ship["cells"]}


def _shoot(wss: dict[str, Any], snaps: dict[str, dict], side: str, cell: str) -> dict[str, dict]:
    """``side`` fires at ``cell``; both sides' next snapshots past that version."""
    version = snaps[side]["game"]["version"]
    wss[side].send_json({"type": "action", "ply": version, "action": cell})
    out = {}
    for s, ws in wss.items():
        msg = until(ws, lambda m: m["type"] == "error" or (m["type"] == "snapshot" and m["game"]["version"] > version))
        assert msg["type"] == "snapshot", (side, cell, msg)
        out[s] = msg
    return out


@pytest.mark.parametrize("rules", sorted(OPTIONS))
def test_a_friend_game_is_played_to_the_end(browsers, rules: str) -> None:  # BATTLESHIP.md A5, A7, B2, B3
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS[rules])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        assert snaps["south"]["game"]["settings"]["game"] == "battleship"
        fleets = {side: _decks(snaps[side], side) for side in wss}
        shots = 0
        while snaps["south"]["game"]["status"] == "play":
            side = snaps["south"]["view"]["to_act"]
            other = "north" if side == "south" else "south"
            legal = [a["cell"] for a in snaps[side]["view"]["legal"]]
            # the shooter aims at the other fleet first (a fast game), never at a cell it shot
            cell = next((c for c in legal if c in fleets[other]), legal[0])
            snaps = _shoot(wss, snaps, side, cell)
            shots += 1
            assert shots <= 200
        result = snaps["south"]["game"]["result"]
        assert result["reason"] == "fleet_sunk" and result["winner"] in ("south", "north")
        # the end opens both fleets to both seats
        assert snaps["north"]["view"]["sides"]["south"]["ships"]
    record = south.get(f"/api/games/{game_id}/record.json").json()
    assert record["settings"]["options"]["rules"] == OPTIONS[rules]["rules"] and len(record["actions"]) == shots
    replay = south.get(f"/api/games/{game_id}/replay").json()
    assert len(replay["plies"]) == shots


def test_bad_shots_are_refused_and_change_nothing(browsers) -> None:  # BATTLESHIP.md A5
    game_id, south, north = start_game(browsers, game="battleship", options={"rules": "classic"})
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        other = "north" if side == "south" else "south"
        version = snaps[side]["game"]["version"]
        # out of turn
        wss[other].send_json({"type": "action", "ply": version, "action": "a1"})
        refusal = until(wss[other], lambda m: m["type"] == "error")
        assert refusal["code"] == "not_your_turn"
        for bad, code in (("zz", "illegal_action"), ("k1", "illegal_action"), ("a1-a2", "illegal_action")):
            wss[side].send_json({"type": "action", "ply": version, "action": bad})
            refusal = until(wss[side], lambda m: m["type"] == "error")
            assert refusal["code"] == code and refusal["message"], bad
        # a miss passes the turn under classic rules; the same cell again is refused
        cells = _decks(snaps[other], other)
        empty = next(a["cell"] for a in snaps[side]["view"]["legal"] if a["cell"] not in cells)
        snaps = _shoot(wss, snaps, side, empty)
        assert snaps[side]["view"]["to_act"] == other
        hit = next(a["cell"] for a in snaps[other]["view"]["legal"] if a["cell"] in _decks(snaps[side], side))
        snaps = _shoot(wss, snaps, other, hit)
        assert snaps[other]["view"]["to_act"] == other  # a hit shoots again (A5)
        version = snaps[other]["game"]["version"]
        wss[other].send_json({"type": "action", "ply": version, "action": hit})
        refusal = until(wss[other], lambda m: m["type"] == "error")
        assert refusal["detail"]["code"] == "already_shot"
    with south.ws(game_id) as ws:
        assert snapshot(ws)["game"]["version"] == version  # nothing changed


def test_a_setup_with_touching_ships_is_refused_with_its_reason(browsers) -> None:  # BATTLESHIP.md A2, A3
    game_id, south, _north = start_game(browsers, game="battleship", options={"rules": "classic"})
    with south.ws(game_id) as ws:
        ws.send_json({"type": "setup.auto", "setup": {}})
        draft = until(ws, lambda m: m["type"] == "setup.state")["draft"]
        singles = [c for c, code in draft.items() if code == "1"]
        bad = {c: k for c, k in draft.items() if c != singles[0]}

        def near(cell: str) -> list[str]:
            r, n = cell[0], int(cell[1:])
            return [f"{chr(ord(r) + dr)}{n + dc}" for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]

        # a one-decker beside a bigger ship (beside another one-decker it would read as one bent ship instead)
        free = next(
            f"{r}{n}" for r in "abcdefghij" for n in range(1, 11)
            if f"{r}{n}" not in bad and any(c in bad for c in near(f"{r}{n}"))
            and all(bad.get(c) != "1" for c in near(f"{r}{n}"))
        )  # fmt: skip
        bad[free] = "1"
        ws.send_json({"type": "setup.ready", "setup": bad})
        refusal = until(ws, lambda m: m["type"] == "error")
        assert refusal["code"] == "invalid_setup"
        assert any(p["code"] == "touching" for p in refusal["detail"]["problems"])
        ws.send_json({"type": "setup.update", "setup": bad})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert any(p["code"] == "touching" for p in state["problems"]) and not state["ready"]


def test_a_draft_is_stored_in_wire_form_and_a_bad_cell_refused(browsers) -> None:  # BATTLESHIP.md A1
    game_id, south, _north = start_game(browsers, game="battleship", options={"rules": "classic"})
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        ws.send_json({"type": "setup.update", "setup": {"А1": "4", " a2 ": "4", "Б5": "1", "J10": "1"}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert state["draft"] == {"a1": "4", "a2": "4", "b5": "1", "j10": "1"}
        assert [p["code"] for p in state["problems"]] == ["wrong_length"]  # a ship being placed: kept, not refused
        # a cell that is none of the grid's, or one cell sent twice in two spellings: refused like a ready setup
        ws.send_json({"type": "setup.update", "setup": {"a1": "1", "z9": "1", "k1": "1"}})
        refusal = error(ws)
        assert refusal["code"] == "invalid_setup"
        assert refusal["message"] == "Расстановка неверна: Нет клетки «z9». Нет клетки «Л1»."
        problems = refusal["detail"]["problems"]
        assert [(p["code"], p["cell"]) for p in problems] == [("bad_cell", "z9"), ("bad_cell", "k1")]
        ws.send_json({"type": "setup.update", "setup": {"a1": "1", "А1": "1"}})
        refusal = error(ws)
        assert refusal["code"] == "invalid_setup" and refusal["detail"]["problems"][0]["code"] == "overlap"
    with south.ws(game_id) as ws:  # the draft refused changed nothing
        assert snapshot(ws)["setup"]["draft"] == {"a1": "4", "a2": "4", "b5": "1", "j10": "1"}
    # saved setups too are kept in wire form
    r = south.post("/api/setups", json={"name": "угол", "setup": {"А1": "1", " c3 ": "1"}, "game": "battleship"})
    assert r.status_code == 201 and r.json()["setup"] == {"a1": "1", "c3": "1"}, r.text
    assert south.get("/api/setups?game=battleship&rules=classic").json()[0]["setup"] == {"a1": "1", "c3": "1"}


@pytest.mark.parametrize(
    "options",
    [
        {"rules": "chess"}, {"rules": "classic", "salvo": True}, {"rules": "hasbro", "colour": "red"},
        # a flag is a JSON boolean, not a word or a number
        {"rules": "hasbro", "salvo": "yes"}, {"rules": "hasbro", "salvo": "true"}, {"rules": "hasbro", "named": 0},
    ],
)  # fmt: skip
def test_bad_room_options_are_refused(browsers, options: dict) -> None:
    b = browsers()
    r = b.post("/games", json={"game": "battleship", "options": options})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options", r.text
    error = r.json()["error"]
    assert error["message"] == "Таких правил партии нет: проверьте выбранные настройки."
    assert error["detail"]["reason"]  # the rules' own reason, for a developer
    english = b.post("/games", json={"game": "battleship", "options": options},
                     headers={"cookie": f"{b.headers['cookie']}; admiral_lang=en"})  # fmt: skip
    assert english.json()["error"]["message"] == "There are no such game rules: check the settings you chose."


def test_an_unknown_game_is_refused(browsers) -> None:
    r = browsers().post("/games", json={"game": "chess"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_game"
    r = browsers().post("/games", data={"game": "chess"})
    assert r.status_code == 400


def test_saved_setups_are_kept_per_game_and_fleet(browsers) -> None:
    b = browsers()
    classic = {"a1": "1"}
    r = b.post("/api/setups", json={"name": "угол", "setup": classic, "game": "battleship", "options": {}})
    assert r.status_code == 201, r.text
    assert [s["name"] for s in b.get("/api/setups?game=battleship&rules=classic").json()] == ["угол"]
    assert b.get("/api/setups?game=battleship&rules=hasbro").json() == []
    assert b.get("/api/setups").json() == []  # «Адмирал»'s own list
    r = b.post("/api/setups", json={"name": "x", "setup": {"a1": "C"}, "game": "battleship", "options": {}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_setup"
    r = b.post("/api/setups", json={"name": "x", "setup": {"a1": "C"}, "game": "battleship",
                                    "options": {"rules": "hasbro", "salvo": "yes"}})  # fmt: skip
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options"


@pytest.mark.parametrize(("level", "rules"), [(1, "classic"), (3, "salvo"), (5, "unnamed")])
def test_a_game_against_each_ai_level_is_played_to_the_end(browsers, level: int, rules: str) -> None:
    """The bot sets up at once, answers every turn through its seat's view only, and the game ends by a fleet
    sunk: the human aims at the bot's fleet once the end reveals it (it never does before)."""
    b = browsers()
    r = b.post("/games", json={"game": "battleship", "options": OPTIONS[rules], "opponent": "ai", "ai_level": level,
                               "side": "south"})  # fmt: skip
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    with b.ws(game_id) as ws:
        ws.send_json({"type": "setup.auto", "setup": {}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        snap = snapshot(ws, status="play")
        assert snap["game"]["players"]["north"]["bot"]["level"] == level
        assert snap["view"]["sides"]["north"]["ships"] is None  # the bot's fleet stays hidden
        bot_shots = 0
        for _ in range(400):
            if snap["game"]["status"] != "play":
                break
            if snap["view"]["to_act"] == "south":
                version = snap["game"]["version"]
                ws.send_json({"type": "action", "ply": version, "action": snap["view"]["legal"][0]["cell"]})
                snap = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v, limit=400)
            else:
                snap = until(ws, lambda m: (m["type"] == "snapshot" and m["view"] and m["view"]["to_act"] != "north")
                             or (m["type"] == "snapshot" and m["game"]["status"] != "play"), limit=400)  # fmt: skip
            bot_shots = len(snap["view"]["sides"]["north"]["shots"])
        assert snap["game"]["status"] == "over", snap["game"]
        assert snap["game"]["result"]["reason"] == "fleet_sunk"
        assert bot_shots > 0
