"""The players' chat across two instances sharing PostgreSQL and Redis (issue 19 «Chat» 5): a message sent on
instance 1 reaches the opponent's socket on instance 2 (and a second tab of the writer there), never a spectator's;
a block made on instance 2 hides what the blocked one then writes on instance 1; the per-seat rate limit counts the
seat's sockets on both instances together (the limits' storage in Redis).

Needs ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; skips with the reason otherwise.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import NEEDS_SERVICES, REDIS_URL
from .topology import Instance, Player

SECRET = "cluster-chat-secret-" + secrets.token_hex(8)

pytestmark = NEEDS_SERVICES


@pytest.fixture
def cluster(tmp_path: Path, shared_db: str) -> Iterator[tuple[Instance, Instance]]:
    one = two = None
    try:
        # the rate limits in Redis, as docker-compose.yml runs the replicas (a fresh key space per test: game ids)
        one = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "one", RATE_LIMIT_STORAGE=REDIS_URL)
        two = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "two", RATE_LIMIT_STORAGE=REDIS_URL)
        yield one, two
    finally:
        for inst in (one, two):
            if inst is not None:
                inst.stop()


def chat(p: Player) -> dict:
    return p.until(lambda m: m["type"] == "chat")["message"]


def reaches(p: Player, body: str) -> dict:
    """The message ``body`` reaching ``p``: as a ``chat`` message, or — when the event was lost because this
    instance's subscription to the game reached Redis after it was published — in the chat's messages of the
    snapshot the resync then sends."""

    def has(m: dict) -> bool:
        if m["type"] == "chat":
            return m["message"]["body"] == body
        messages = (m.get("chat") or {}).get("messages") if m["type"] == "snapshot" else None
        return bool(messages) and messages[-1]["body"] == body

    m = p.until(has)
    return m["message"] if m["type"] == "chat" else m["chat"]["messages"][-1]


def new_game(one: Instance, two: Instance, a: Player, b: Player) -> str:
    """A creates a game on instance 1 (South), B joins on instance 2; returns its id."""
    from admiral.web.deps import csrf_token

    r = a.post(one.url, "/games", json={"side": "south"})
    assert r.status_code == 201, r.text
    assert b.post(two.url, r.json()["invite_url"], data={"csrf_token": csrf_token(SECRET, b.token)}).status_code == 303
    return r.json()["game_id"]


def test_chat_crosses_instances_and_blocks_hold_there(cluster) -> None:
    one, two = cluster
    a, b, w = Player(), Player(), Player()
    game_id = new_game(one, two, a, b)
    try:
        assert a.connect(one, game_id)["chat"]["messages"] == []
        assert b.connect(two, game_id)["game"]["status"] == "setup"
        assert w.connect(two, game_id)["chat"] is None  # a spectator on instance 2

        a.send({"type": "chat", "phrase": "gl"})  # instance 1 → the opponent's socket on instance 2
        got = reaches(b, "gl")
        assert (got["side"], got["kind"], got["body"]) == ("south", "phrase", "gl")
        assert chat(a)["id"] == got["id"]

        b.send({"type": "chat.block", "blocked": True})  # on instance 2
        resnap = b.until(
            lambda m: m["type"] == "snapshot" and m["chat"]["blocked"] and m["chat"]["messages"] is not None
        )
        assert resnap["chat"]["messages"] == []
        a.send({"type": "chat", "phrase": "gg"})  # on instance 1, after the block
        assert chat(a)["body"] == "gg"
        b.send({"type": "chat", "phrase": "thanks"})
        assert chat(b)["body"] == "thanks"  # «gg» was published first and never reached the blocker
        assert reaches(a, "thanks")["side"] == "north"  # across instances: the event, or the recheck's snapshot

        # the spectator heard none of it: what it got until the abort's snapshot are snapshots without chat
        a.send({"type": "abort"})
        heard = [w.until(lambda m: m["type"] != "pong")]
        while not (heard[-1]["type"] == "snapshot" and heard[-1]["game"]["status"] == "aborted"):
            heard.append(w.until(lambda m: m["type"] != "pong"))
        assert {m["type"] for m in heard} == {"snapshot"} and all(m["chat"] is None for m in heard)
        b.close()
        snap = b.connect(one, game_id)  # the blocker's history on the other instance: without south's lines
        assert [(m["side"], m["body"]) for m in snap["chat"]["messages"]] == [("north", "thanks")]
        assert snap["chat"]["blocked"] is True
    finally:
        for p in (a, b, w):
            p.close()


def test_a_block_whose_event_was_lost_holds_in_the_next_sockets_first_snapshot(cluster, shared_db) -> None:
    """CI finding: a blocker's new socket on the other instance showed the blocked one's lines — that instance kept
    the block list it had read before the block, and the ``chat.blocks`` event that would have cleared it never
    came. Here the block is written straight into the database (no event at all): a seat's socket opening reads
    the block lists afresh."""
    from sqlalchemy import create_engine, text

    from admiral.store.chat import ChatStore

    one, two = cluster
    a, b = Player(), Player()
    game_id = new_game(one, two, a, b)
    engine = create_engine(shared_db)
    try:
        a.connect(one, game_id)  # instance 1 reads both seats' block lists (none)
        b.connect(two, game_id)
        a.send({"type": "chat", "phrase": "gl"})
        assert reaches(b, "gl")["side"] == "south"
        with engine.connect() as conn:
            keys = dict(conn.execute(text("SELECT side, browser_hash FROM game_seats WHERE game_id = :g"),
                                     {"g": game_id}).all())  # fmt: skip
        ChatStore(engine).set_block(keys["north"], keys["south"], True)  # North blocks South; no event published
        b.close()
        snap = b.connect(one, game_id)
        assert snap["chat"]["blocked"] is True and snap["chat"]["messages"] == []
        assert [m["body"] for m in a.connect(one, game_id)["chat"]["messages"]] == ["gl"]  # South still sees its own
    finally:
        engine.dispose()
        for p in (a, b):
            p.close()


def test_the_flood_limit_counts_a_seats_sockets_on_both_instances(cluster) -> None:
    """RATE_CHAT (5 per 10 s per seat) spans the seat's sockets on both instances (the limits' storage in Redis)."""
    one, two = cluster
    a, b = Player(), Player()
    a2 = Player()
    a2.token = a.token  # the writer's second tab, on instance 2
    game_id = new_game(one, two, a, b)
    try:
        a.connect(one, game_id)
        a2.connect(two, game_id)
        for _ in range(3):
            a.send({"type": "chat", "phrase": "gl"})
            chat(a)
        for _ in range(2):
            a2.send({"type": "chat", "phrase": "gl"})
            chat(a2)
        a2.send({"type": "chat", "phrase": "rematch"})
        e = a2.until(lambda m: m["type"] == "error")
        assert e["code"] == "chat_flood" and 0 < e["detail"]["retry_after_s"] <= 10
        a.send({"type": "chat", "phrase": "rematch"})
        assert a.until(lambda m: m["type"] == "error")["code"] == "chat_flood"
        assert [m["body"] for m in b.connect(two, game_id)["chat"]["messages"]] == ["gl"] * 5  # none refused stored
    finally:
        for p in (a, b, a2):
            p.close()
