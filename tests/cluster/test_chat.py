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


def test_chat_crosses_instances_blocks_hold_and_the_flood_limit_is_shared(cluster) -> None:
    from admiral.web.deps import csrf_token

    one, two = cluster
    a, b, w, a2 = Player(), Player(), Player(), None
    r = a.post(one.url, "/games", json={"side": "south"})
    assert r.status_code == 201, r.text
    game_id, invite = r.json()["game_id"], r.json()["invite_url"]
    assert b.post(two.url, invite, data={"csrf_token": csrf_token(SECRET, b.token)}).status_code == 303
    try:
        assert a.connect(one, game_id)["chat"]["messages"] == []
        assert b.connect(two, game_id)["game"]["status"] == "setup"
        assert w.connect(two, game_id)["chat"] is None  # a spectator on instance 2
        a2 = Player()
        a2.token = a.token  # the writer's second tab, on instance 2
        a2.connect(two, game_id)

        a.send({"type": "chat", "phrase": "gl"})  # instance 1 → the opponent's socket on instance 2
        got = chat(b)
        assert (got["side"], got["kind"], got["body"]) == ("south", "phrase", "gl")
        assert chat(a)["id"] == chat(a2)["id"] == got["id"]

        b.send({"type": "chat.block", "blocked": True})  # on instance 2
        assert b.until(lambda m: m["type"] == "snapshot" and m["chat"]["blocked"])["chat"]["messages"] == []
        a.send({"type": "chat", "phrase": "gg"})  # on instance 1, after the block
        assert chat(a)["body"] == "gg"
        b.send({"type": "chat", "phrase": "thanks"})
        assert chat(b)["body"] == "thanks"  # «gg» was published first and never reached the blocker
        assert chat(a)["body"] == "thanks"

        # the seat's budget (5 per 10 s) spans its sockets on both instances: 2 sent, 3 more, then refused
        a.send({"type": "chat", "phrase": "gl"})
        a2.send({"type": "chat", "phrase": "gl"})
        a.send({"type": "chat", "phrase": "gl"})
        a2.send({"type": "chat", "phrase": "rematch"})
        assert a2.until(lambda m: m["type"] == "error")["code"] == "chat_flood"

        # the spectator heard none of it: its next message after all this is the abort's snapshot
        a.send({"type": "abort"})
        seen = w.until(lambda m: m["type"] != "pong")
        while seen["type"] == "snapshot" and seen["game"]["status"] != "aborted":
            assert seen["chat"] is None
            seen = w.until(lambda m: m["type"] != "pong")
        assert seen["type"] == "snapshot" and seen["chat"] is None
        b.close()
        snap = b.connect(one, game_id)  # the blocker's history on the other instance: without south's lines
        assert [(m["side"], m["body"]) for m in snap["chat"]["messages"]] == [("north", "thanks")]
        assert snap["chat"]["blocked"] is True
    finally:
        for p in (a, b, w, a2):
            if p is not None:
                p.close()
