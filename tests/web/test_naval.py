"""«Военно-морская игра» through the whole house (issue 21): a friend game starts as soon as the invite is taken
(the start is fixed, NAVAL_GAME.md §2), plays over the socket to its end with the die's seed committed at the start
and revealed at the end (§7.5), refuses bad input with the rules' reasons and changes nothing, shows spectators the
open board (§7.6); each AI level answers and a game against it ends (the rematch, which starts at once: test_offers.py);
counted games are credited and listed; the rules page draws from the engine."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from typing import Any

import pytest

from admiral.games import GAMES
from admiral.games.common import draw
from admiral.i18n import _
from admiral.web.config import Settings

from .conftest import error, make_settings, observe, snapshot, until


@pytest.fixture
def settings(db_url: str) -> Settings:
    """Scripted players act as fast as the server answers; bots answer without the human-like pause."""
    return make_settings(db_url, ws_max_rate=1000, bot_delay_ms=0)


def _act(wss: dict[str, Any], snaps: dict[str, dict], side: str, notation: str) -> dict[str, dict]:
    """``side`` sends ``notation``; both sides' next snapshots past that version."""
    version = snaps[side]["game"]["version"]
    wss[side].send_json({"type": "action", "ply": version, "action": notation})
    for s, ws in wss.items():
        msg = until(ws, lambda m: m["type"] == "error" or (m["type"] == "snapshot" and m["game"]["version"] > version))
        assert msg["type"] == "snapshot", (side, notation, msg)
        snaps[s] = msg
    return snaps


def test_a_friend_game_starts_when_the_invite_is_taken(browsers) -> None:
    # rules §2: the start is fixed, nothing to arrange: the game is in play as soon as both seats are held
    south, north = browsers(), browsers()
    game_id, invite = south.create(side="south", game="naval", time_control="10+5")
    assert observe(south, game_id)["game"]["status"] == "waiting"
    north.join(invite)
    snap = observe(north, game_id)
    assert snap["game"]["status"] == "play"
    view = snap["view"]
    assert view["to_act"] == "south" and view["ply"] == 0
    assert {s["point"]: s["kind"] for s in view["sides"]["south"]["ships"]}["e1"] == "B"
    assert {s["point"]: s["kind"] for s in view["sides"]["north"]["ships"]}["e13"] == "B"
    assert view["legal"] == []  # north is not to act
    assert len(view["chance"]["commitment"]) == 64 and view["chance"]["seed"] is None


def _forward(point: str, side: str) -> int:
    """How far ``point`` lies toward ``side``'s enemy coast (rows)."""
    row = int(point[1:])
    return row if side == "south" else 14 - row


def pick(view: dict, side: str) -> str:
    """A scripted commander that seeks the enemy: a strike if one is legal, else the step that gains most ground
    (no mine play), else the first turn. Reads the view's structured ``legal``."""
    legal = [a for a in view["legal"] if "mine" not in a and a["type"] not in ("lay", "lift")]
    strikes = [a for a in legal if a["type"] == "strike"]
    if strikes:
        return strikes[0]["notation"]
    steps = [a for a in legal if a["type"] == "step" and _forward(a["to"], side) > _forward(a["ship"], side)]
    if steps:
        return max(steps, key=lambda a: (_forward(a["to"], side), a["notation"]))["notation"]
    return next(a for a in legal if a["type"] == "turn")["notation"]


def _back_to(msg: dict, side: str, version: int) -> bool:
    """Whether ``msg`` is a snapshot past ``version`` with ``side`` to act again (the bot has answered)."""
    return msg["type"] == "snapshot" and msg["view"]["to_act"] == side and msg["game"]["version"] > version


def _code(err: dict) -> str:
    """The refusal's code: the rules' own (``detail.code`` of ``illegal_action``) or the house's."""
    return err["detail"]["code"] if err["code"] == "illegal_action" else err["code"]


def _fingerprint(snap: dict) -> tuple:
    view = snap["view"]
    return snap["game"]["version"], snap["game"]["status"], str(view["sides"]), str(view["mines"]), view["to_act"]


@contextlib.contextmanager
def _friend_game(browsers, **settings: Any) -> Iterator[tuple[str, dict[str, Any], dict[str, dict], Any]]:
    """A friend game in play: ``(game_id, side → socket, side → latest snapshot, (south, north) browsers)``."""
    south, north = browsers(), browsers()
    game_id, invite = south.create(side="south", game="naval", **settings)
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = {side: snapshot(ws, status="play") for side, ws in wss.items()}
        yield game_id, wss, snaps, (south, north)


def test_a_friend_game_plays_to_a_sinking_and_the_die_is_proven(browsers) -> None:
    # rules §3–§6, §7.5: orders over the socket until ships are sunk; resigning ends it; the seed is revealed and
    # every roll re-checks against it; the result, the record and the replay agree
    with _friend_game(browsers) as (game_id, wss, snaps, (south, _north)):
        commitment = snaps["south"]["view"]["chance"]["commitment"]
        assert snaps["north"]["view"]["chance"] == {"commitment": commitment, "seed": None}
        sunk = 0
        for _ in range(160):
            side = snaps["south"]["view"]["to_act"]
            _act(wss, snaps, side, pick(snaps[side]["view"], side))
            view = snaps["south"]["view"]
            sunk = sum(len(view["sides"][s]["sunk"]) for s in ("south", "north"))
            if any(x["cause"] == "strike" for s in ("south", "north") for x in view["sides"][s]["sunk"]):
                break
        assert sunk >= 1, "the scripted fleets met and struck"
        # rules §5 [decision], §7.6: an open board: both seats see the same sides, mines and rolls
        assert {k: v for k, v in snaps["north"]["view"].items() if k not in ("audience", "legal")} == {
            k: v for k, v in snaps["south"]["view"].items() if k not in ("audience", "legal")
        }
        strikes = [x for s in ("south", "north") for x in snaps["south"]["view"]["sides"][s]["sunk"]]
        assert {x["cause"] for x in strikes} <= {"strike", "gun", "mine"} and "strike" in {x["cause"] for x in strikes}
        loser = snaps["south"]["view"]["to_act"]
        wss[loser].send_json({"type": "resign"})
        end = {s: snapshot(ws, status="over") for s, ws in wss.items()}
        result = end["south"]["game"]["result"]
        assert result["winner"] != loser and result["reason"] == "resign"
        seed = end["south"]["view"]["chance"]["seed"]
        assert seed is not None and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        replay = south.get(f"/api/games/{game_id}/replay").json()
        assert replay["chance"]["seed"] == seed
        for roll in replay["chance"]["draws"]:  # §7.5: roll k is HMAC-SHA256(seed, k)'s first byte below 252 mod 6
            assert roll["value"] == draw(bytes.fromhex(seed), roll["k"], 6)
        assert len(replay["plies"]) == end["south"]["view"]["ply"]


def test_bad_orders_are_refused_with_the_rules_reason_and_change_nothing(browsers) -> None:
    # issue 21's bad input: a sideways or stern-first step, a turn of more than 90°, a strike on a stern, a fourth
    # mine, crossing land, acting out of turn, garbage — a clear reason, nothing changed
    with _friend_game(browsers) as (game_id, wss, snaps, (south, _north)):
        before = _fingerprint(snaps["south"])
        cases = [
            ("south", "e2-d2", "sideways"),  # rules §3: sideways
            ("south", "e2-e1", "stern_first"),  # rules §3: stern first (and e1 is taken)
            ("south", "e2>>", "turn_too_far"),  # rules §3: a half-turn takes two turns
            ("north", "e12-e11", "not_your_turn"),  # out of turn
            ("south", "e12-e11", "not_your_ship"),
            ("south", "+a2", "no_ship"),  # rules §3: the minesweeper lays on its own point, and none is at a2
            ("south", "+e2", "not_minesweeper"),  # rules §3: only the minesweeper lays mines
            ("south", "zz9", "bad_notation"),
        ]
        for side, action, code in cases:
            wss[side].send_json({"type": "action", "ply": snaps[side]["game"]["version"], "action": action})
            err = error(wss[side])
            assert _code(err) == code, (action, err)
            assert err["message"] and "Traceback" not in err["message"]
        assert _fingerprint(observe(south, game_id)) == before
        # a fourth mine (rules §2: three in reserve) and land (rules §1), on positions reached by play; North turns
        # a ship back and forth meanwhile
        north_turns = iter(["a13>", "a13<"] * 10)
        for action in ("+a1 a1-a2", "a2-a3 +a3", "a3-a4 +a4", "c1-c2", "c2-c3", "c3-c4", "c4-c5"):
            _act(wss, snaps, "south", action)
            _act(wss, snaps, "north", next(north_turns))
        assert snaps["south"]["view"]["sides"]["south"]["reserve"] == 0
        assert snaps["north"]["view"]["mines"] == ["a1", "a3", "a4"]  # rules §5 [decision]: mines are visible
        before = _fingerprint(snaps["south"])
        for action, code in (("a4-a5 +a5", "no_mines"), ("c5-c6", "land")):
            wss["south"].send_json({"type": "action", "ply": snaps["south"]["game"]["version"], "action": action})
            err = error(wss["south"])
            assert _code(err) == code and err["message"] == _(GAMES["naval"].info.messages[code]), (action, err)
        assert _fingerprint(observe(south, game_id)) == before


def test_a_spectator_sees_the_open_board_and_no_seed_until_the_end(browsers) -> None:
    # rules §7.6: spectators see the whole open board, both reserves, the roll log and the hash; the seed at the end
    with _friend_game(browsers) as (game_id, wss, snaps, _b):
        _act(wss, snaps, "south", "+a1 a1-a2")
        third = browsers()
        with third.ws(game_id) as tws:
            seen = snapshot(tws, status="play")
            assert seen["role"] == "spectator" if "role" in seen else True
            view = seen["view"]
            assert view["audience"] == "spectator" and view["legal"] == []
            assert view["sides"] == snaps["south"]["view"]["sides"] and view["mines"] == ["a1"]
            assert view["chance"]["seed"] is None and view["chance"]["commitment"]
            tws.send_json({"type": "action", "ply": seen["game"]["version"], "action": "e12-e11"})
            assert error(tws)["code"] in ("not_a_player", "spectator", "forbidden", "not_seated")
            wss["north"].send_json({"type": "resign"})
            over = snapshot(tws, status="over")
            assert over["view"]["chance"]["seed"] is not None


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_each_ai_level_answers_at_once_and_a_game_against_it_ends(browsers, level: int) -> None:
    # issue 21: AI levels 1–5; the start is fixed, so a game against the AI is in play from its creation
    me = browsers()
    r = me.post("/games", json={"game": "naval", "opponent": "ai", "ai_level": level, "side": "north"})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    with me.ws(game_id) as ws:
        snap = snapshot(ws, status="play")
        assert snap["game"]["players"]["south"]["bot"]["level"] == level
        snap = until(ws, lambda m: m["type"] == "snapshot" and m["view"]["to_act"] == "north")  # the bot moved
        assert snap["view"]["ply"] == 1
        for _ in range(3):
            version = snap["game"]["version"]
            ws.send_json({"type": "action", "ply": version, "action": pick(snap["view"], "north")})
            snap = until(ws, lambda m, v=version: _back_to(m, "north", v))
        assert snap["view"]["ply"] == 7
        ws.send_json({"type": "resign"})
        over = snapshot(ws, status="over")
        assert over["game"]["result"]["winner"] == "south" and over["game"]["result"]["reason"] == "resign"


def test_a_counted_game_is_credited_and_listed_in_the_history(browsers) -> None:
    # docs/points.md «Военно-морская игра»: two orders each count; the winner by resignation earns the engagement
    # share; the loser who resigned 0; the game is in both commanders' history
    with _friend_game(browsers) as (game_id, wss, snaps, (south, north)):
        for side, action in (("south", "d2-d3"), ("north", "e12-e11"), ("south", "f2-f3"), ("north", "d12-d11")):
            _act(wss, snaps, side, action)
        wss["north"].send_json({"type": "resign"})
        credit = {}
        for side, ws in wss.items():
            snap = until(ws, lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None)
            credit[side] = snap["game"]["credit"]
    assert credit["south"]["points"] == 6 and credit["north"]["points"] == 0  # (100 + 20) × 2/40; resigned: 0
    for b in (south, north):
        page = b.get("/games")
        assert page.status_code == 200 and f"/g/{game_id}" in page.text


def test_the_rules_page_draws_the_engines_answers(client) -> None:
    # issue 21: «the rules page explains the game with diagrams computed from the engine»
    page = client.get("/rules/naval")
    assert page.status_code == 200
    text = page.text
    for diagram in ("start", "steps", "strikes", "senior", "guns"):
        assert f'data-diagram="{diagram}"' in text
    # the engine's answers, as marks: the cruiser's one step, the refused sideways and stern-first steps (§3), the
    # refused stern and junior-bow strikes (§4)
    assert 'class="mark step" cx="' in text and 'data-point="e6"' in text
    assert 'data-code="sideways"' in text and 'data-code="stern_first"' in text
    assert 'data-code="stern"' in text and 'data-code="bow_not_senior"' in text
    assert text.count('data-striker="') == 6 and "нос и борт" in text
    assert client.get("/rules/naval", headers={"cookie": "lang=en"}).status_code == 200
