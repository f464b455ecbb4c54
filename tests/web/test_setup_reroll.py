"""Auto-arrangement as a re-roll around what the player placed by hand (issue 18, item 12c; rules §3.4, A3):
``setup.auto`` keeps every unit it is sent on its cell, or refuses with the reason and changes nothing."""

from __future__ import annotations

from .conftest import error, snapshot, start_game, until

#: South's back rows (1–4) and front row (5) of «Адмирал».
BACK = [f"{c}{r}" for r in range(1, 5) for c in "abcdefghijklmn"]
#: 56 units that are not bases, in fleet order (rules §2).
NOT_BASES = (
    ["A"] + ["L"] * 2 + ["KR"] * 6 + ["R"] * 2 + ["ES"] * 6 + ["ST"] * 6 + ["TK"] * 6 + ["KRPL"] + ["TR"] * 6
    + ["PL"] * 6 + ["S"] + ["T"] * 4 + ["M"] * 6 + ["SM"] + ["BR"] + ["AB"]
)  # fmt: skip


def _state(ws) -> dict:
    return until(ws, lambda m: m["type"] == "setup.state")


def test_admiral_re_roll_keeps_the_hand_placed_units(browsers) -> None:  # rules §3.4
    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        hand = {"c2": "A", "d2": "S", "h4": "VMB", "m1": "KR"}
        seen = []
        for _ in range(3):  # re-rolled as often as the player likes
            ws.send_json({"type": "setup.auto", "setup": hand})
            state = _state(ws)
            assert state["problems"] == [] and len(state["draft"]) == 58
            assert {c: state["draft"][c] for c in hand} == hand
            seen.append(state["draft"])
        assert seen[0] != seen[1] != seen[2]  # the rest is fresh each time
        ws.send_json({"type": "setup.ready", "setup": seen[-1]})
        assert _state(ws)["ready"] is True


def test_admiral_no_room_for_the_bases_is_refused_and_nothing_changes(browsers) -> None:  # rules §3.2
    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        ws.send_json({"type": "setup.update", "setup": {"a1": "L"}})
        assert _state(ws)["draft"] == {"a1": "L"}
        full_back = dict(zip(BACK, NOT_BASES, strict=True))
        ws.send_json({"type": "setup.auto", "setup": full_back})
        err = error(ws)
        assert err["code"] == "invalid_setup" and err["detail"]["code"] == "no_arrangement"
        assert "вне переднего ряда" in err["message"]
        ws.send_json({"type": "setup.update", "setup": {"a1": "L", "b1": "L"}})
        assert _state(ws)["draft"] == {"a1": "L", "b1": "L"}  # the refused arrangement was never stored
    with south.ws(game_id) as ws:
        assert snapshot(ws)["setup"]["draft"] == {"a1": "L", "b1": "L"}


def test_battleship_re_roll_keeps_the_hand_placed_ships(browsers) -> None:  # BATTLESHIP.md A3
    game_id, south, _north = start_game(browsers, game="battleship", options={"rules": "classic"})
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        hand = {"a1": "4", "a2": "4", "a3": "4", "a4": "4", "j10": "1"}
        drafts = []
        for style in ("plain", "hard", "plain"):
            ws.send_json({"type": "setup.auto", "setup": hand, "style": style})
            state = _state(ws)
            assert state["problems"] == [] and len(state["draft"]) == 20
            assert {c: state["draft"][c] for c in hand} == hand
            drafts.append(state["draft"])
        assert drafts[0] != drafts[2]


def test_battleship_no_room_is_refused_and_touching_ships_are_named(browsers) -> None:  # BATTLESHIP.md A2, A3
    game_id, south, _north = start_game(browsers, game="battleship", options={"rules": "classic"})
    with south.ws(game_id) as ws:
        snapshot(ws, status="setup")
        # every ship but the four-decker, spread so that no four cells in a line stay clear of them
        crowded = {
            "b5": "3", "b6": "3", "b7": "3", "a2": "3", "b2": "3", "c2": "3", "e2": "2", "e3": "2", "e9": "2",
            "f9": "2", "h8": "2", "i8": "2", "e5": "1", "i1": "1", "i5": "1", "h3": "1",
        }  # fmt: skip
        ws.send_json({"type": "setup.auto", "setup": crowded})
        err = error(ws)
        assert err["code"] == "invalid_setup" and err["detail"]["code"] == "no_arrangement"
        assert "не помещаются" in err["message"]
        ws.send_json({"type": "setup.auto", "setup": {"a1": "4", "a2": "4", "a3": "4", "a4": "4", "b5": "1"}})
        err = error(ws)
        assert [p["code"] for p in err["detail"]["problems"]] == ["touching"]
    with south.ws(game_id) as ws:
        assert snapshot(ws)["setup"]["draft"] == {}  # nothing was stored
