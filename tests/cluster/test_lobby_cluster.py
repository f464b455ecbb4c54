"""The lobby across two app instances sharing PostgreSQL and Redis (issue 19; docs/protocol.md "Lobby"): a challenge
created on instance 1 appears on instance 2's lobby sockets; two accepts at once, one on each instance, and exactly
one wins; two players waiting on different instances are paired.

Needs ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; skips with the reason otherwise.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import NEEDS_SERVICES, REDIS_URL
from .topology import Instance, Player

SECRET = "cluster-lobby-secret-" + secrets.token_hex(8)

pytestmark = NEEDS_SERVICES


@pytest.fixture
def cluster(tmp_path: Path, shared_db: str) -> Iterator[tuple[Instance, Instance]]:
    one = two = None
    try:
        env = {"RATE_CHALLENGES": "1000/minute"}
        one = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "one", **env)
        two = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "two", **env)
        yield one, two
    finally:
        for inst in (one, two):
            if inst is not None:
                inst.stop()


class Visitor(Player):
    """A browser with a lobby socket."""

    def lobby(self, server: Instance) -> dict:
        """Open this browser's lobby socket on ``server``; returns its first message (the whole lobby)."""
        from websockets.sync.client import connect

        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/lobby", additional_headers={"cookie": self.cookie},
                          open_timeout=10)  # fmt: skip
        return self.until(lambda m: m["type"] == "lobby")

    def challenge(self, server: Instance, **body: Any) -> str:
        r = self.post(server.url, "/games", json={"listing": "open", "time_control": "5+3", **body})
        assert r.status_code == 201, r.text
        return r.json()["game_id"]


def added(v: Visitor, game_id: str) -> dict:
    msg = v.until(lambda m: m["type"] == "challenges" and any(e["id"] == game_id for e in m["add"]))
    return next(e for e in msg["add"] if e["id"] == game_id)


def test_a_challenge_made_on_one_instance_is_listed_and_taken_on_the_other(cluster) -> None:
    one, two = cluster
    creator, taker, other = Visitor(), Visitor(), Visitor()
    try:
        creator.lobby(one)
        taker.lobby(two)
        game_id = creator.challenge(one, time_control="10+5")
        entry = added(taker, game_id)
        assert entry["time_control"] == "10+5" and entry["player"] == {"guest": True}
        # a socket opened later gets it in the whole list (instance 2's copy: no database read)
        assert [e["id"] for e in other.lobby(two)["challenges"]] == [game_id]
        taker.send({"type": "accept", "id": game_id})
        assert taker.until(lambda m: m["type"] == "go")["url"] == f"/g/{game_id}"
        assert creator.until(lambda m: m["type"] == "accepted")["url"] == f"/g/{game_id}"
        other.until(lambda m: m["type"] == "challenges" and game_id in m["remove"])
    finally:
        for v in (creator, taker, other):
            v.close()


def test_two_accepts_at_once_on_two_instances_exactly_one_wins(cluster) -> None:
    """Issue 19: the claim of the seat is one conditional UPDATE under the game's Redis lock: of two accepts sent at
    the same moment through different instances, exactly one takes the seat; the other is told."""
    one, two = cluster
    for _ in range(4):
        creator, left, right = Visitor(), Visitor(), Visitor()
        try:
            game_id = creator.challenge(one)
            for v, server in ((left, one), (right, two)):
                if game_id not in [e["id"] for e in v.lobby(server)["challenges"]]:
                    added(v, game_id)  # the bus's add reached this instance after the socket's first message
            go = threading.Barrier(2)
            answers: dict[str, dict] = {}

            def accept(
                v: Visitor, name: str, g: str = game_id, barrier: threading.Barrier = go, out: dict = answers
            ) -> None:
                barrier.wait()
                v.send({"type": "accept", "id": g})
                out[name] = v.until(lambda m: m["type"] in ("go", "error"))

            threads = [threading.Thread(target=accept, args=(v, n)) for v, n in ((left, "left"), (right, "right"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            kinds = sorted(a["type"] for a in answers.values())
            assert kinds == ["error", "go"], answers
            loser = next(a for a in answers.values() if a["type"] == "error")
            assert loser["code"] in ("challenge_taken", "challenge_gone")
            r = creator.get(one.url, f"/g/{game_id}")
            assert r.status_code == 200
        finally:
            for v in (creator, left, right):
                v.close()


def test_quick_pairing_across_instances(cluster) -> None:
    one, two = cluster
    a, b = Visitor(), Visitor()
    try:
        a.lobby(one)
        b.lobby(two)
        a.send({"type": "pair", "game": "battleship", "time_control": "10+5"})
        a.until(lambda m: m["type"] == "seeking")
        b.send({"type": "pair", "game": "battleship", "time_control": "10+5"})
        url = a.until(lambda m: m["type"] == "paired")["url"]
        assert b.until(lambda m: m["type"] == "paired")["url"] == url
        a.close()
        b.close()
        game_id = url.removeprefix("/g/")
        seats = {a.connect(one, game_id)["game"]["seat"], b.connect(two, game_id)["game"]["seat"]}
        assert seats == {"south", "north"}
    finally:
        a.close()
        b.close()


class Member(Visitor):
    """A visitor who can register (and keeps the session cookie on every instance)."""

    session: str | None = None

    @property
    def cookie(self) -> str:
        return super().cookie + (f"; admiral_session={self.session}" if self.session else "")

    def register(self, server: Instance, nickname: str, email: str) -> None:
        import re

        from admiral.web.deps import csrf_token

        password = "Броненосец-1905"
        r = self.post(server.url, "/register", data={
            "csrf_token": csrf_token(SECRET, self.token), "email": email, "nickname": nickname,
            "password": password, "password2": password,
        })  # fmt: skip
        assert r.status_code == 303, r.text
        self.session = re.search(r"admiral_session=([^;]*);", r.headers["set-cookie"]).group(1).strip('"')


def test_a_guest_registering_on_one_instance_keeps_their_challenge_on_the_other(cluster) -> None:
    """QA issue 19 (u8): a guest's home tab is on instance 2; they register through instance 1: the tab becomes the
    commander's (the whole list again, its new ``me``), the entry shows their nickname on every instance with
    ``by`` their new tag, and the tab can cancel it."""
    one, two = cluster
    guest, other = Member(), Visitor()
    try:
        game_id = guest.challenge(one)
        before = guest.lobby(two)
        other.lobby(two)
        guest.register(one, "Новобранец", "recruit-cluster@example.org")
        again = guest.until(lambda m: m["type"] == "lobby")
        assert again["me"] != before["me"] and again["registered"] is True
        entry = next(e for e in again["challenges"] if e["id"] == game_id)
        assert entry["by"] == again["me"]  # its own at once; the nickname follows with the re-read
        while entry["player"].get("guest"):
            entry = added(guest, game_id)
        assert entry["by"] == again["me"] and entry["player"]["name"] == "Новобранец"
        theirs = added(other, game_id)
        while theirs["player"].get("guest"):
            theirs = added(other, game_id)
        assert theirs["player"]["name"] == "Новобранец"
        guest.send({"type": "cancel", "id": game_id})
        assert guest.until(lambda m: m["type"] in ("cancelled", "error")) == {"type": "cancelled", "id": game_id}
    finally:
        for v in (guest, other):
            v.close()


def test_accepting_on_one_instance_ends_the_seek_of_a_tab_on_the_other(cluster) -> None:
    """QA issue 19 (u16): one browser with a home tab on each instance; the tab on instance 2 seeks 10+5, a tab
    opened later there shows the seek, the tab on instance 1 accepts a challenge: every tab hears the seek gone, and
    a third player's 10+5 on instance 2 pairs nobody into a second game."""
    one, two = cluster
    tab1, tab2, tab3, creator, third = Visitor(), Visitor(), Visitor(), Visitor(), Visitor()
    tab2.token = tab3.token = tab1.token  # one browser
    try:
        game_id = creator.challenge(one)
        if game_id not in [e["id"] for e in tab1.lobby(one)["challenges"]]:
            added(tab1, game_id)
        tab2.lobby(two)
        seek = {"game": "admiral", "time_control": "10+5", "rated": False}
        tab2.send({"type": "pair", **seek})
        tab2.until(lambda m: m["type"] == "seeking" and m["seek"])
        assert tab1.until(lambda m: m["type"] == "seeking")["seek"] == seek  # the other instance's tab hears it
        assert tab3.lobby(one)["seek"] == seek
        tab1.send({"type": "accept", "id": game_id})
        assert tab1.until(lambda m: m["type"] in ("go", "error"))["type"] == "go"
        for tab in (tab2, tab3):
            assert tab.until(lambda m: m["type"] == "seeking")["seek"] is None
        third.lobby(two)
        third.send({"type": "pair", **seek})
        third.until(lambda m: m["type"] == "seeking" and m["seek"])
        tab2.send({"type": "pair", **seek})
        assert tab2.until(lambda m: m["type"] in ("error", "paired"))["code"] == "in_game"
    finally:
        for v in (tab1, tab2, tab3, creator, third):
            v.close()
