"""«Военно-морская игра» through the whole house (issue 21): a friend game starts as soon as the invite is taken
(the start is fixed, NAVAL_GAME.md §2), plays over the socket to its end with the die's seed committed at the start
and revealed at the end (§7.5), refuses bad input with the rules' reasons and changes nothing, shows spectators the
open board (§7.6); each AI level plays to the end; a rematch starts at once; the rules page draws from the engine."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from admiral.web.config import Settings

from .conftest import make_settings, observe, snapshot, until


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
