"""Trying to break a «Морской бой» game over the socket (issue 17): every refusal is a clear ``error`` (a code and a
message) and changes nothing — shots out of turn or during the opponent's salvo, stale versions, shots after the
end, crooked Hasbro setups, a forged side, garbage actions, a spectator shooting, two tabs of one seat at once."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from admiral.web.config import Settings

from .conftest import make_settings, snapshot, start_game, until
from .test_battleship import OPTIONS, _decks, _ready, _shoot


@pytest.fixture
def settings(db_url: str) -> Settings:
    return make_settings(db_url, ws_max_rate=1000)


def _state(snap: dict) -> tuple:
    """What a refusal must leave alone: the version, the status, whose turn, every shot of both sides."""
    view = snap["view"] or {}
    sides = view.get("sides") or {}
    return (
        snap["game"]["version"], snap["game"]["status"], view.get("to_act"), view.get("shots_left"),
        [[(s["cell"], s["answer"]) for s in (sides.get(side) or {}).get("shots") or []] for side in ("south", "north")],
    )  # fmt: skip


def _refused(ws: Any, msg: dict, code: str | tuple[str, ...]) -> dict:
    """Send ``msg``; the next error answers it with ``code`` and a message."""
    ws.send_json(msg)
    seen = {"v": None}

    def answer(m: dict) -> bool:  # the error, or a snapshot that moved past the first one seen: the game changed
        if m["type"] == "snapshot":
            if seen["v"] is None:
                seen["v"] = m["game"]["version"]
            return m["game"]["version"] > seen["v"]
        return m["type"] == "error"

    err = until(ws, answer)
    assert err["type"] == "error", ("accepted", msg, err["game"])
    codes = (code,) if isinstance(code, str) else code
    assert err["code"] in codes and err["message"], (msg, err)
    return err


def _fresh(browser, game_id: str) -> dict:
    with browser.ws(game_id) as ws:
        return snapshot(ws)


def _other(side: str) -> str:
    return "north" if side == "south" else "south"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("a11", "illegal_action"),
        ("Й1", "illegal_action"),
        ("k0", "illegal_action"),
        ("a1;a2", "illegal_action"),
        ("resign", "illegal_action"),
        ("\u0000", "illegal_action"),
        ("a" * 80, "illegal_action"),
        ("a" * 81, "bad_message"),  # longer than the protocol allows
        ("", "bad_message"),
        (5, "bad_message"),
        (None, "bad_message"),
        (["a1"], "bad_message"),
        ({"cell": "a1"}, "bad_message"),
    ],
    ids=lambda v: repr(v)[:20],
)
def test_garbage_actions_are_refused_and_change_nothing(browsers, action, code) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["classic"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        before = _state(snaps[side])
        _refused(wss[side], {"type": "action", "ply": snaps[side]["game"]["version"], "action": action}, code)
    after = _fresh(south, game_id)
    assert _state(after)[:3] == before[:3] and _state(after)[4] == before[4]


def test_lenient_spellings_fire_one_canonical_shot(browsers) -> None:
    """Upper case, Cyrillic row letters and spaces around are one shot at the canonical cell (the parser's own
    documented leniency), and a second spelling of the same cell is refused as already shot."""
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        other = _other(side)
        snaps = _shoot(wss, snaps, side, " Б5 ")
        assert snaps[side]["view"]["sides"][side]["shots"][-1]["cell"] == "b5"
        snaps = _shoot(wss, snaps, other, snaps[other]["view"]["legal"][0]["cell"])
        before = _state(snaps[side])
        for spelling in ("B5", "б5", "b5"):
            err = _refused(wss[side], {"type": "action", "ply": snaps[side]["game"]["version"], "action": spelling},
                           "illegal_action")  # fmt: skip
            assert err["detail"]["code"] == "already_shot"
            assert err["message"] == "По этой клетке уже стреляли."  # the game's own text for its code (QA)
    assert _state(_fresh(south, game_id)) == before


@pytest.mark.parametrize("ply", [-1, "0", 1.5, True, 1_000_001])
def test_a_ply_of_the_wrong_type_is_a_bad_message(browsers, ply) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        before = _state(snaps[side])
        err = _refused(wss[side], {"type": "action", "ply": ply, "action": "a1"}, "bad_message")
        assert err["detail"]["fields"] == ["ply"]
    assert _state(_fresh(south, game_id))[::2] == before[::2]


def test_stale_and_future_plies_are_refused(browsers) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        other = _other(side)
        empty = next(a["cell"] for a in snaps[side]["view"]["legal"] if a["cell"] not in _decks(snaps[other], other))
        old = snaps[side]["game"]["version"]
        snaps = _shoot(wss, snaps, side, empty)  # Hasbro: the turn passes
        snaps = _shoot(wss, snaps, other, snaps[other]["view"]["legal"][0]["cell"])
        assert snaps["south"]["view"]["to_act"] == side
        before = _state(snaps[side])
        now = snaps[side]["game"]["version"]
        cell = next(a["cell"] for a in snaps[side]["view"]["legal"])
        for ply in (old, now - 1, now + 1, now + 500):
            err = _refused(wss[side], {"type": "action", "ply": ply, "action": cell}, "stale_ply")
            assert err["detail"]["ply"] == now
            # a ply behind: the position moved on; a ply ahead (a forged or confused client): never was
            assert err["message"].startswith("Позиция уже изменилась" if ply < now else "Такой позиции ещё не было")
    assert _state(_fresh(south, game_id)) == before


def test_shots_during_the_opponents_salvo_are_refused(browsers) -> None:
    """Salvo (B3): while one side fires its salvo, the other may not shoot — not at the salvo's start, not in its
    middle, not with the version it saw last."""
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["salvo"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        other = _other(side)
        assert snaps[side]["view"]["shots_left"] == 5
        v0 = snaps[side]["game"]["version"]
        _refused(wss[other], {"type": "action", "ply": v0, "action": "a1"}, "not_your_turn")
        snaps = _shoot(wss, snaps, side, snaps[side]["view"]["legal"][0]["cell"])
        snaps = _shoot(wss, snaps, side, snaps[side]["view"]["legal"][0]["cell"])
        assert snaps[side]["view"]["to_act"] == side and snaps[side]["view"]["shots_left"] == 3
        before = _state(snaps[side])
        now = snaps[other]["game"]["version"]
        _refused(wss[other], {"type": "action", "ply": now, "action": "a1"}, "not_your_turn")
        _refused(wss[other], {"type": "action", "ply": v0, "action": "a1"}, "stale_ply")
        # the salvo goes on where it was: three shots left, then the turn passes
        assert _state(_fresh(south, game_id)) == before
        for _ in range(3):
            snaps = _shoot(wss, snaps, side, snaps[side]["view"]["legal"][0]["cell"])
        assert snaps[side]["view"]["to_act"] == other


def _play_out(wss: dict[str, Any], snaps: dict[str, dict]) -> dict[str, dict]:
    fleets = {side: _decks(snaps[side], side) for side in wss}
    for _ in range(250):
        if snaps["south"]["game"]["status"] != "play":
            return snaps
        side = snaps["south"]["view"]["to_act"]
        legal = [a["cell"] for a in snaps[side]["view"]["legal"]]
        snaps = _shoot(wss, snaps, side, next((c for c in legal if c in fleets[_other(side)]), legal[0]))
    raise AssertionError("the game did not end")


def test_shots_after_the_end_are_refused(browsers) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["classic"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _play_out(wss, _ready(wss))
        assert snaps["south"]["game"]["status"] == "over"
        before = _state(snaps["south"])
        now = snaps["south"]["game"]["version"]
        free = {
            side: next(f"{r}{c}" for r in "abcdefghij" for c in range(1, 11)
                       if f"{r}{c}" not in {s["cell"] for s in snaps[side]["view"]["sides"][side]["shots"]})
            for side in wss
        }  # fmt: skip
        for side, ws in wss.items():  # winner and loser alike, at the last version and the one before
            for ply in (now, now - 1):
                _refused(ws, {"type": "action", "ply": ply, "action": free[side]}, ("game_over", "stale_ply"))
            _refused(ws, {"type": "action", "ply": now, "action": free[side]}, "game_over")
            _refused(ws, {"type": "setup.ready", "setup": {}}, ("game_over", "not_in_setup", "invalid_setup"))
    after = _fresh(south, game_id)
    assert _state(after)[:2] == before[:2] and after["game"]["result"] == snaps["south"]["game"]["result"]


def _ships(draft: dict[str, str]) -> dict[str, list[str]]:
    """The draft's cells per ship code, in reading order (Hasbro: one ship per code)."""
    order = [f"{r}{c}" for r in "abcdefghij" for c in range(1, 11)]
    out: dict[str, list[str]] = {}
    for cell in order:
        if cell in draft:
            out.setdefault(draft[cell], []).append(cell)
    return out


def _bend(draft: dict[str, str]) -> dict[str, str]:
    """A ship's end cell moved one step aside, beside its neighbour: an L. The biggest ship first; where ships
    touch (Hasbro) both cells aside may be taken, so the other end and then the other ships are tried."""
    rows = "abcdefghij"
    for code, cells in sorted(_ships(draft).items(), key=lambda kv: -len(kv[1])):
        horizontal = cells[0][0] == cells[-1][0]
        for end, beside in ((cells[-1], cells[-2]), (cells[0], cells[1])):
            bad = {c: k for c, k in draft.items() if c != end}
            r, c = beside[0], int(beside[1:])
            candidates = (
                [f"{rows[i]}{c}" for i in (rows.index(r) - 1, rows.index(r) + 1) if 0 <= i < 10]
                if horizontal
                else [f"{r}{j}" for j in (c - 1, c + 1) if 1 <= j <= 10]
            )
            aside = next((x for x in candidates if x not in bad), None)
            if aside is not None:
                bad[aside] = code
                return bad
    raise AssertionError(f"no ship of {draft} can be bent")


def _short(draft: dict[str, str]) -> dict[str, str]:
    cells = max(_ships(draft).values(), key=len)
    return {c: k for c, k in draft.items() if c != cells[-1]}


def _relabelled(draft: dict[str, str]) -> dict[str, str]:
    """One cell of the biggest ship given the code of the smallest: two ships claim the same hull."""
    ships = _ships(draft)
    big = max(ships.values(), key=len)
    small = min(ships, key=lambda k: len(ships[k]))
    return {**draft, big[0]: small}


def _twice(draft: dict[str, str]) -> dict[str, str]:
    """A cell given twice under two spellings (``a1`` and ``A1``): an overlap, or a bad cell — never accepted."""
    cell, code = next(iter(draft.items()))
    return {**draft, cell.upper(): code}


@pytest.mark.parametrize(
    ("make", "problems"),
    [
        (_bend, {"bent"}),
        (_short, {"wrong_length"}),
        (_relabelled, {"wrong_length", "too_many", "bent", "overlap"}),
        (_twice, {"overlap", "bad_cell"}),
        (lambda d: {**d, "k11": "1"}, {"bad_cell", "unknown_code"}),
        (lambda d: {**d, "й1": next(iter(d.values()))}, {"bad_cell"}),
        (lambda d: {c: "Z" for c in d}, {"unknown_code"}),
        (lambda d: {}, {"too_few"}),
    ],
    ids=["bent", "short", "two-ships-one-hull", "a-cell-twice", "off-board", "cyrillic-cell", "unknown-code", "empty"],
)
def test_crooked_hasbro_setups_are_refused_with_their_reason(browsers, make, problems) -> None:
    game_id, south, _north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as ws:
        ws.send_json({"type": "setup.auto", "setup": {}})
        draft = until(ws, lambda m: m["type"] == "setup.state")["draft"]
        assert len(draft) == 17
        bad = make(draft)
        err = _refused(ws, {"type": "setup.ready", "setup": bad}, "invalid_setup")
        found = {p["code"] for p in err["detail"]["problems"]}
        assert found & problems, (found, bad)
        assert all(p["message"] for p in err["detail"]["problems"])
    snap = _fresh(south, game_id)
    assert snap["game"]["status"] in ("waiting", "setup") and not (snap.get("setup") or {}).get("ready")
    # the good draft is still accepted afterwards
    with south.ws(game_id) as ws:
        ws.send_json({"type": "setup.ready", "setup": draft})
        state = until(ws, lambda m: m["type"] == "setup.state" or m["type"] == "error")
        assert state["type"] == "setup.state" and state["ready"], state


@pytest.mark.parametrize(
    "msg",
    [
        {"type": "action", "ply": 0, "action": "a1", "side": "north"},
        {"type": "action", "ply": 0, "action": "a1", "seat": "north"},
        {"type": "action", "ply": 0, "action": "a1", "player": {"side": "north"}},
    ],
    ids=["side", "seat", "player"],
)
def test_a_forged_side_is_a_bad_message(browsers, msg) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        before = _state(snaps["south"])
        # the side not to act claims to be the one to act, and the one to act claims to be the other
        for s in (side, _other(side)):
            forged = {**msg, "ply": snaps[s]["game"]["version"]}
            err = _refused(wss[s], forged, "bad_message")
            assert err["detail"]["fields"]
    assert _state(_fresh(south, game_id)) == before


def test_a_spectator_cannot_shoot_or_set_up(browsers) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["classic"])
    third = browsers()
    with south.ws(game_id) as sws, north.ws(game_id) as nws, third.ws(game_id) as tws:
        snapshot(tws)
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        before = _state(snaps["south"])
        now = snaps["south"]["game"]["version"]
        cell = snaps["south"]["view"]["legal"][0]["cell"] if snaps["south"]["view"]["legal"] else "a1"
        for m in (
            {"type": "action", "ply": now, "action": cell},
            {"type": "setup.ready", "setup": {"a1": "1"}},
            {"type": "setup.auto", "setup": {}},
            {"type": "resign"},
            {"type": "draw.offer"},
        ):
            _refused(tws, m, "not_a_player")
    assert _state(_fresh(south, game_id)) == before


def test_two_tabs_of_one_seat_shooting_at_once_fire_one_shot(browsers) -> None:
    """Two sockets of the same seat send a shot at the same version at the same moment (two different cells, then
    the same cell): exactly one is taken, the other is refused as stale, each tab learns the new version."""
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["hasbro"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _ready(wss)
        side = snaps["south"]["view"]["to_act"]
        shooter = south if side == "south" else north
        with shooter.ws(game_id) as tab2:
            snapshot(tab2)
            tabs = [wss[side], tab2]
            for same in (False, True):
                now = snaps[side]["game"]["version"]
                legal = [a["cell"] for a in snaps[side]["view"]["legal"]]
                cells = [legal[0], legal[0] if same else legal[1]]
                barrier = threading.Barrier(2)

                def send(ws, cell, now=now, barrier=barrier):
                    barrier.wait()
                    ws.send_json({"type": "action", "ply": now, "action": cell})

                threads = [threading.Thread(target=send, args=(t, c)) for t, c in zip(tabs, cells, strict=True)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                answers = [
                    until(
                        t,
                        lambda m, v=now: m["type"] == "error" or (m["type"] == "snapshot" and m["game"]["version"] > v),
                    )
                    for t in tabs
                ]
                errors = [a for a in answers if a["type"] == "error"]
                assert len(errors) <= 1, answers
                for err in errors:
                    assert err["code"] in ("stale_ply", "not_your_turn") and err["message"]
                after = _fresh(shooter, game_id)
                assert after["game"]["version"] == now + 1, "two shots were taken for one turn"
                shots = after["view"]["sides"][side]["shots"]
                assert len(shots) == (1 if not same else 2) and shots[-1]["cell"] in cells
                # the other side answers so the shooter has the turn again (Hasbro passes it after every shot)
                other = _other(side)
                snap_o = until(wss[other], lambda m, v=now: m["type"] == "snapshot" and m["game"]["version"] > v)
                o_now = snap_o["game"]["version"]
                wss[other].send_json({"type": "action", "ply": o_now, "action": snap_o["view"]["legal"][0]["cell"]})
                snaps = {
                    side: until(wss[side], lambda m, v=o_now: m["type"] == "snapshot" and m["game"]["version"] > v)
                }
                until(tab2, lambda m, v=o_now: m["type"] == "snapshot" and m["game"]["version"] > v, limit=200)
                until(wss[other], lambda m, v=o_now: m["type"] == "snapshot" and m["game"]["version"] > v)


@pytest.mark.parametrize("game", ["battleship", "admiral"])
def test_an_unknown_arrangement_style_is_refused_by_name(browsers, game) -> None:
    """QA: ``setup.auto`` with a style the game does not have was an ``internal`` error with a traceback in the log
    («Морской бой») or silently the default («Адмирал»); it is ``bad_style`` naming the game's styles, and the draft
    is unchanged. A style the game has arranges the fleet."""
    from admiral.games import GAMES

    options = OPTIONS["classic"] if game == "battleship" else {}
    game_id, south, _north = start_game(browsers, game=game, options=options)
    with south.ws(game_id) as ws:
        err = _refused(ws, {"type": "setup.auto", "setup": {}, "style": "evil"}, "bad_style")
        assert err["detail"]["styles"] == [v for v, _ in GAMES[game].info.setup_styles]
        assert "evil" in err["message"]
        ws.send_json({"type": "setup.auto", "setup": {}, "style": err["detail"]["styles"][-1]})
        state = until(ws, lambda m: m["type"] == "setup.state")
        assert state["draft"] and state["problems"] == []


def test_the_record_file_is_named_after_its_game(browsers) -> None:
    game_id, south, north = start_game(browsers, game="battleship", options=OPTIONS["classic"])
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        _ready(wss)
        sws.send_json({"type": "resign"})
        until(sws, lambda m: m["type"] == "snapshot" and m["game"]["status"] == "over")
    r = south.get(f"/api/games/{game_id}/record.json")
    assert r.status_code == 200 and r.json()["format"] == "battleship-record/1"
    assert r.headers["content-disposition"] == f'attachment; filename="battleship-{game_id}.json"'
