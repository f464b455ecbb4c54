"""Chat in a game between its two players (issue 19 «Chat»; docs/protocol.md "Chat"): quick phrases for every seat,
free text between registered commanders only, a length limit counted as the user sees it, control characters
stripped, a per-seat rate limit, per-commander blocks, nothing for spectators or bots, stored with the game and
shown in the replay to its two players only; every bad input refused with nothing stored or sent."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from admiral.web import Settings

from .conftest import Browser, error, make_settings, snapshot, start_game, until
from .test_accounts import Person, register


@pytest.fixture
def settings(db_url: str) -> Settings:
    """Shared settings with the chat's default rate limit (5 per 10 s, 30 per 10 min per seat)."""
    return make_settings(db_url, bot_delay_ms=0)


def rows(client: Any, game_id: str) -> list[tuple[str, str, str]]:
    """The game's stored chat rows ``(side, kind, body)`` in order."""
    engine = sa.create_engine(client.app.state.settings.database_url)
    try:
        with engine.connect() as conn:
            return [
                tuple(r)
                for r in conn.execute(
                    sa.text("SELECT side, kind, body FROM chat_messages WHERE game_id = :g ORDER BY id"), {"g": game_id}
                )
            ]
    finally:
        engine.dispose()


def chat(ws: Any) -> dict:
    """The next ``chat`` message's ``message``."""
    return until(ws, lambda m: m["type"] == "chat")["message"]


def registered_game(client: Any) -> tuple[str, Person, Person]:
    """A game between two registered commanders: ``(game_id, south, north)``."""
    south, north = Person(client), Person(client)
    register(south, "Нахимов", "nakhimov@example.org")
    register(north, "Ушаков", "ushakov@example.org")
    game_id, invite = south.create(side="south")
    north.join(invite)
    return game_id, south, north


def test_a_phrase_reaches_both_seats_is_stored_and_is_in_the_snapshot(client, browsers) -> None:
    """Issue 19 «Chat» 1, 5: a quick phrase is stored as its key and delivered to both seats."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        first = snapshot(s, status="setup")
        assert first["chat"] == {
            "phrases": ["gl", "gg", "thanks", "rematch"], "free_text": False, "text_max": 200, "blocked": False,
            "messages": [],
        }  # fmt: skip
        snapshot(n, status="setup")
        s.send_json({"type": "chat", "phrase": "gl"})
        got = chat(n)
        assert (got["side"], got["kind"], got["body"]) == ("south", "phrase", "gl") and got["at"] > 0
        assert chat(s)["id"] == got["id"]  # the writer sees its own, once
    assert rows(client, game_id) == [("south", "phrase", "gl")]
    with north.ws(game_id) as n:  # on reconnect the snapshot carries the history
        assert [m["body"] for m in snapshot(n)["chat"]["messages"]] == ["gl"]


def test_a_spectator_neither_sends_nor_receives_nor_sees_chat(client, browsers) -> None:
    """Issue 19 «Chat» 4, 7: a spectator's chat is refused; its socket and snapshots never carry one."""
    game_id, south, _north = start_game(browsers)
    spectator = browsers()
    with south.ws(game_id) as s, spectator.ws(game_id) as w:
        snapshot(s)
        assert snapshot(w)["chat"] is None
        w.send_json({"type": "chat", "phrase": "gl"})
        assert error(w)["code"] == "chat_not_allowed"
        w.send_json({"type": "chat.block", "blocked": True})
        assert error(w)["code"] == "chat_not_allowed"
        s.send_json({"type": "chat", "phrase": "gg"})
        chat(s)
        s.send_json({"type": "abort"})  # a change after the chat: the spectator hears of it, and of nothing else
        heard = [w.receive_json()]
        while not (heard[-1]["type"] == "snapshot" and heard[-1]["game"]["status"] == "aborted"):
            heard.append(w.receive_json())
        assert [m["type"] for m in heard if m["type"] != "snapshot"] == []  # no chat message among them
        assert all(m["chat"] is None for m in heard if m["type"] == "snapshot")
    assert rows(client, game_id) == [("south", "phrase", "gg")]


def test_forged_and_malformed_chats_are_refused(client, browsers) -> None:
    """Issue 19 «Chat» 7: a forged seat (another side named, a forged token), an unknown phrase, both or neither of
    phrase and text — each a clear error, nothing stored."""
    game_id, south, _north = start_game(browsers)
    forged = Browser(client, "x" * 43)  # a token that holds no seat: a spectator
    with south.ws(game_id) as s, forged.ws(game_id) as f:
        snapshot(s)
        snapshot(f)
        f.send_json({"type": "chat", "phrase": "gl"})
        assert error(f)["code"] == "chat_not_allowed"
        s.send_json({"type": "chat", "phrase": "gl", "side": "north"})
        assert error(s)["code"] == "bad_message"
        s.send_json({"type": "chat", "phrase": "ez"})
        e = error(s)
        assert e["code"] == "chat_unknown_phrase" and e["detail"]["phrases"] == ["gl", "gg", "thanks", "rematch"]
        s.send_json({"type": "chat"})
        assert error(s)["code"] == "bad_message"
        s.send_json({"type": "chat", "phrase": "gl", "text": "привет"})
        assert error(s)["code"] == "bad_message"
        s.send_json({"type": "chat", "phrase": 5})
        assert error(s)["code"] == "bad_message"
    assert rows(client, game_id) == []


def test_free_text_only_between_registered_commanders(client, browsers) -> None:
    """Issue 19 «Chat» 1, 7: a guest game has phrases only; the snapshot says so (the client shows why)."""
    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as s:
        assert snapshot(s)["chat"]["free_text"] is False
        s.send_json({"type": "chat", "text": "привет"})
        assert error(s)["code"] == "chat_not_allowed"
    one = Person(client)
    register(one, "Колчак", "kolchak@example.org")
    game_id, invite = one.create(side="south")
    guest = browsers()
    guest.join(invite)
    with one.ws(game_id) as s:
        assert snapshot(s)["chat"]["free_text"] is False
        s.send_json({"type": "chat", "text": "привет"})
        assert error(s)["code"] == "chat_not_allowed"
    assert rows(client, game_id) == []


def test_free_text_is_cleaned_counted_as_seen_and_limited(client) -> None:
    """Issue 19 «Chat» 1, 7: control characters and direction overrides go, white space folds; 200 characters as
    the user sees them (an emoji of several code points is one); 201 is ``chat_too_long``; blank is ``chat_empty``."""
    game_id, south, north = registered_game(client)
    emoji = "👍🏽" * 200  # 400 code points, 200 characters on screen
    with south.ws(game_id) as s, north.ws(game_id) as n:
        assert snapshot(s)["chat"]["free_text"] is True
        snapshot(n)
        s.send_json({"type": "chat", "text": "  Привет,\n\tкапитан\x00\x07!\u202e <b>x</b> "})
        assert chat(n)["body"] == "Привет, капитан! <b>x</b>"  # stored as text; the client shows it as text
        s.send_json({"type": "chat", "text": emoji})
        assert chat(n)["body"] == emoji
        s.send_json({"type": "chat", "text": emoji + "!"})
        e = error(s)
        assert e["code"] == "chat_too_long" and e["detail"] == {"max": 200}
        s.send_json({"type": "chat", "text": "я" * 5000})
        assert error(s)["code"] == "chat_too_long"
        s.send_json({"type": "chat", "text": " \x00\u202e\n "})
        assert error(s)["code"] == "chat_empty"
        # QA: a text far over the limit is «too long», not «malformed»; invisible padding goes; one character
        # carries at most three combining marks
        s.send_json({"type": "chat", "text": "я" * 20_000})  # 40 KB: within a frame
        assert error(s)["code"] == "chat_too_long"
        s.send_json({"type": "chat", "text": "\u200b" * 150})
        assert error(s)["code"] == "chat_empty"
        s.send_json({"type": "chat", "text": "e" + "\u0301" * 3000})
        assert chat(n)["body"] == "e\u0301\u0301\u0301"
    assert rows(client, game_id) == [
        ("south", "text", "Привет, капитан! <b>x</b>"), ("south", "text", emoji),
        ("south", "text", "e\u0301\u0301\u0301"),
    ]  # fmt: skip


def test_a_chat_flood_is_refused_per_seat_and_not_stored(client, browsers) -> None:
    """Issue 19 «Chat» 2: 5 messages per 10 s per seat; the 6th is ``chat_flood``, not stored and not sent; the
    other seat's budget is its own."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        snapshot(s)
        snapshot(n)
        for _ in range(5):
            s.send_json({"type": "chat", "phrase": "gl"})
            chat(n)
        s.send_json({"type": "chat", "phrase": "gg"})
        e = error(s)
        assert e["code"] == "chat_flood" and 0 < e["detail"]["retry_after_s"] <= 10
        n.send_json({"type": "chat", "phrase": "thanks"})
        assert chat(n)["body"] == "thanks"  # not south's refused «gg»: nothing of it was sent
    assert [r[2] for r in rows(client, game_id)] == ["gl"] * 5 + ["thanks"]


def test_refused_chats_do_not_use_up_the_rate_limit(client, browsers) -> None:
    """QA (issue 19): an unknown phrase or an empty text is refused for what it is and leaves the seat's budget of
    5 messages per 10 s whole."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        snapshot(s)
        snapshot(n)
        for _ in range(4):
            s.send_json({"type": "chat", "phrase": "nope"})
            assert error(s)["code"] == "chat_unknown_phrase"
        for _ in range(5):
            s.send_json({"type": "chat", "phrase": "gl"})
            chat(n)
        s.send_json({"type": "chat", "phrase": "gg"})
        assert error(s)["code"] == "chat_flood"
    assert [r[2] for r in rows(client, game_id)] == ["gl"] * 5


def test_a_block_hides_the_opponent_in_this_game_and_later_ones_and_can_be_undone(client, browsers) -> None:
    """Issue 19 «Chat» 3: the blocker no longer sees the blocked one's messages (live, in the snapshot, in the
    next game between them); the blocked one is not told; an unblock shows them again."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        snapshot(s)
        snapshot(n)
        s.send_json({"type": "chat", "phrase": "gl"})
        chat(n)
        chat(s)
        n.send_json({"type": "chat.block", "blocked": True})
        got = until(
            n, lambda m: m["type"] == "snapshot" and m["chat"]["blocked"] and m["chat"]["messages"] is not None
        )["chat"]
        assert got["messages"] == []  # «gl» is hidden from the blocker
        s.send_json({"type": "chat", "phrase": "gg"})
        assert chat(s)["body"] == "gg"  # the blocked one sees its own message: it is not told
        n.send_json({"type": "chat", "phrase": "thanks"})
        assert chat(n)["body"] == "thanks"  # published after «gg»: «gg» never reached the blocker
        assert chat(s)["body"] == "thanks"  # the blocker's messages still reach the blocked one
    with north.ws(game_id) as n:
        got = snapshot(n)["chat"]
        assert got["blocked"] is True and [m["body"] for m in got["messages"]] == ["thanks"]
    assert [r[2] for r in rows(client, game_id)] == ["gl", "gg", "thanks"]  # stored all the same
    # a later game between the same two: still blocked (the list is per commander)
    second, invite = south.create(side="south")
    north.join(invite)
    with south.ws(second) as s, north.ws(second) as n:
        snapshot(s)
        assert snapshot(n)["chat"]["blocked"] is True
        s.send_json({"type": "chat", "phrase": "gl"})
        chat(s)
        n.send_json({"type": "chat.block", "blocked": False})
        got = until(
            n, lambda m: m["type"] == "snapshot" and m["chat"]["blocked"] is False and m["chat"]["messages"] is not None
        )["chat"]
        assert [m["body"] for m in got["messages"]] == ["gl"]
        s.send_json({"type": "chat", "phrase": "gg"})
        assert chat(n)["body"] == "gg"


def test_the_replay_shows_the_chat_to_the_two_players_only(client, browsers) -> None:
    """Issue 19 «Chat» 5: the finished game's chat stays with it; the replay API gives it to its two players, not
    to a spectator; the seats' snapshots after the end keep it, a spectator's has none."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        snapshot(s)
        snapshot(n)
        s.send_json({"type": "chat", "phrase": "gl"})
        chat(n)
        for ws in (s, n):
            ws.send_json({"type": "setup.auto", "setup": {}})
            state = until(ws, lambda m: m["type"] == "setup.state")
            ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        snapshot(s, status="play")
        s.send_json({"type": "resign"})
        snapshot(s, status="over")
        n.send_json({"type": "chat", "phrase": "gg"})  # after the end too
        assert chat(s)["body"] == "gg"
    for player in (south, north):
        replay = player.get(f"/api/games/{game_id}/replay").json()
        assert [(m["side"], m["body"]) for m in replay["chat"]] == [("south", "gl"), ("north", "gg")]
    stranger = browsers()
    assert "chat" not in stranger.get(f"/api/games/{game_id}/replay").json()
    with stranger.ws(game_id) as w:
        assert snapshot(w)["chat"] is None


def test_a_chat_after_the_game_is_deleted_is_refused(client, browsers) -> None:
    """Issue 19 «Chat» 7: the game's row is gone (while its copy is still cached): ``not_found``, nothing stored."""
    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as s:
        snapshot(s)
        engine = sa.create_engine(client.app.state.settings.database_url)
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM game_seats WHERE game_id = :g"), {"g": game_id})
            conn.execute(sa.text("DELETE FROM games WHERE id = :g"), {"g": game_id})
        engine.dispose()
        s.send_json({"type": "chat", "phrase": "gl"})
        assert error(s)["code"] == "not_found"
    assert rows(client, game_id) == []


def test_no_chat_in_a_game_against_the_ai(client, browsers) -> None:
    """Issue 19 «Chat» 4: a bot neither chats nor is chatted to; the seat's snapshot has no chat."""
    player = browsers()
    r = player.post("/games", json={"side": "south", "opponent": "ai", "ai_level": 1})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    with player.ws(game_id) as s:
        assert snapshot(s)["chat"] is None
        s.send_json({"type": "chat", "phrase": "gl"})
        assert error(s)["code"] == "chat_not_allowed"
    assert rows(client, game_id) == []


def test_waiting_for_the_friend_there_is_no_one_to_chat_with(client, browsers) -> None:
    """Issue 19 «Chat» 7: before the second seat is taken a chat is refused."""
    creator = browsers()
    game_id, _invite = creator.create(side="south")
    with creator.ws(game_id) as s:
        assert snapshot(s)["chat"] is None
        s.send_json({"type": "chat", "phrase": "gl"})
        assert error(s)["code"] == "chat_not_allowed"


def test_a_guests_blocks_follow_it_when_it_registers(client, browsers) -> None:
    """Issue 19 «Chat» 3 (a per-commander list): blocks made as a guest move with the guest's things to the new
    account (PROGRESSION.md §1), both the guest's own and those against it."""
    guest, other = Person(client), browsers()
    game_id, invite = guest.create(side="south")
    other.join(invite)
    with guest.ws(game_id) as s:
        snapshot(s)
        s.send_json({"type": "chat.block", "blocked": True})
        until(s, lambda m: m["type"] == "snapshot" and m["chat"]["blocked"])
    register(guest, "Лазарев", "lazarev@example.org")
    second, invite = guest.create(side="south")
    other.join(invite)
    with guest.ws(second) as s:
        assert snapshot(s)["chat"]["blocked"] is True


def test_a_move_snapshot_carries_the_chat_state_not_its_messages(client, browsers) -> None:
    """Issue 19 «Chat» 5: the history comes in a socket's first snapshot (the last 100); the snapshots of moves
    carry the chat's state with ``messages: null``, so a move does not resend the chat."""
    game_id, south, north = start_game(browsers)
    with south.ws(game_id) as s, north.ws(game_id) as n:
        assert snapshot(s)["chat"]["messages"] == []
        snapshot(n)
        s.send_json({"type": "chat", "phrase": "gl"})
        chat(n)
        for ws in (s, n):
            ws.send_json({"type": "setup.auto", "setup": {}})
            state = until(ws, lambda m: m["type"] == "setup.state")
            ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        play = snapshot(n, status="play")["chat"]
        assert play["messages"] is None and play["blocked"] is False and play["phrases"][0] == "gl"
    with north.ws(game_id) as n:
        assert [m["body"] for m in snapshot(n)["chat"]["messages"]] == ["gl"]


def test_the_history_is_the_last_hundred(client, browsers) -> None:
    """Issue 19 «Chat» 5: a seat's snapshot holds the last 100 messages, oldest first."""
    game_id, south, _north = start_game(browsers)
    store = client.app.state.service.chat_store
    for i in range(105):
        store.add(game_id, "south" if i % 2 else "north", "phrase", "gl")
    with south.ws(game_id) as s:
        messages = snapshot(s)["chat"]["messages"]
    ids = [m["id"] for m in messages]
    assert len(ids) == 100 and ids == sorted(ids) and messages[0]["side"] == "south"
