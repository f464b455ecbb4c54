"""A rated game is credited and rated exactly once across instances (issue 19, PROGRESSION.md §4): two registered
commanders on two instances sharing PostgreSQL and Redis end the same game at the same moment (both resign); then
several threads over two engines race to rate one game, under real row locks.

Needs ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; skips with the reason otherwise.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import NEEDS_SERVICES, REDIS_URL
from .topology import Instance, Player

SECRET = "cluster-test-secret-" + secrets.token_hex(8)
PASSWORD = "correct horse battery staple 19"

pytestmark = NEEDS_SERVICES


class Commander(Player):
    """A browser that keeps its login session (the ``admiral_session`` cookie) on every instance."""

    session: str | None = None

    @property
    def cookie(self) -> str:
        return super().cookie + (f"; admiral_session={self.session}" if self.session else "")

    def register(self, server: Instance, nickname: str, email: str) -> None:
        from admiral.web.deps import csrf_token

        r = self.post(server.url, "/register", data={
            "csrf_token": csrf_token(SECRET, self.token), "email": email, "nickname": nickname,
            "password": PASSWORD, "password2": PASSWORD,
        })  # fmt: skip
        assert r.status_code == 303, r.text
        self.session = re.search(r"admiral_session=([^;]*);", r.headers["set-cookie"]).group(1).strip('"')


@pytest.fixture
def cluster(tmp_path: Path, shared_db: str) -> Iterator[tuple[Instance, Instance, str]]:
    one = two = None
    try:
        one = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "one")
        two = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "two")
        yield one, two, shared_db
    finally:
        for inst in (one, two):
            if inst is not None:
                inst.stop()


def _counts(db_url: str, game_id: str) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return {
                table: conn.execute(text(f"SELECT count(*) FROM {table} WHERE game_id = :g"), {"g": game_id}).scalar()
                for table in ("game_results", "rated_games", "rating_history")
            } | {"rated": conn.execute(text("SELECT coalesce(sum(games), 0) FROM commander_ratings")).scalar()}
    finally:
        engine.dispose()


# PROGRESSION.md §4: both players resign at once, each on its own instance: one end, one credit, one rating update
def test_two_instances_ending_one_game_rate_it_once(cluster) -> None:
    from admiral.web.deps import csrf_token

    one, two, db_url = cluster
    a, b = Commander(), Commander("127.0.0.2")
    a.register(one, "Нахимов", "nakhimov@example.org")
    b.register(two, "Ушаков", "ushakov@example.org")
    r = a.post(one.url, "/games", json={"side": "south", "rated": True})
    assert r.status_code == 201, r.text
    game_id, invite = r.json()["game_id"], r.json()["invite_url"]
    assert b.post(two.url, invite, data={"csrf_token": csrf_token(SECRET, b.token)}).status_code == 303
    a.connect(one, game_id)
    b.connect(two, game_id)
    try:
        for p in (a, b):
            p.send({"type": "setup.auto", "setup": {}})
            state = p.until(lambda m: m["type"] == "setup.state")
            p.send({"type": "setup.ready", "setup": state["draft"]})
        players = {"south": a, "north": b}
        snaps = {s: p.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play")
                 for s, p in players.items()}  # fmt: skip
        version = 0
        for _ in range(4):  # two quiet moves each: the game counts (PROGRESSION.md §2)
            side = snaps["south"]["view"]["to_act"]
            move = next(x["notation"] for x in snaps[side]["view"]["legal"] if x["type"] == "move")
            players[side].send({"type": "action", "ply": version, "action": move})
            version += 1
            snaps = {s: p.at(version) for s, p in players.items()}
        a.send({"type": "resign"})
        b.send({"type": "resign"})
        credit = {
            s: p.until(lambda m: m["type"] == "snapshot" and (m["game"]["credit"] or {}).get("rating"), timeout=20)
            for s, p in players.items()
        }
    finally:
        a.close()
        b.close()
    result = credit["south"]["game"]["result"]
    winner = result["winner"]
    loser = "north" if winner == "south" else "south"
    assert result["reason"] == "resignation"
    got = {s: c["game"]["credit"]["rating"] for s, c in credit.items()}
    assert got[winner]["after"] == 1662 and got[winner]["delta"] == 162
    assert got[loser]["after"] == 1338 and got[loser]["delta"] == -162
    assert credit[winner]["game"]["players"][winner]["rating"]["rating"] == 1662  # the bars, after the game
    assert _counts(db_url, game_id) == {"game_results": 2, "rated_games": 1, "rating_history": 2, "rated": 2}


# PROGRESSION.md §4: eight threads over two engines (two instances' pools) rate one game at once: one update
def test_racing_rating_updates_apply_once(cluster) -> None:
    from sqlalchemy import create_engine, text

    from admiral.progression.rating import Rating, rate
    from admiral.store import AccountStore

    _one, _two, db_url = cluster
    engines = [create_engine(db_url), create_engine(db_url)]
    stores = [AccountStore(e) for e in engines]
    try:
        with engines[0].begin() as conn:
            conn.execute(text(
                "INSERT INTO games (id, invite_hash, creator_hash, status, settings, seed, ply, revision, created_at) "
                "VALUES ('racegame', 'x', 'x', 'over', '{}', 1, 0, 0, now())"
            ))  # fmt: skip
            for n in (1, 2):
                conn.execute(text(
                    "INSERT INTO commanders (key, email, nickname, points, created_at) "
                    "VALUES (:k, :e, :n, 0, now())"
                ), {"k": f"key{n}", "e": f"c{n}@example.org", "n": f"Командир {n}"})  # fmt: skip
        calls = []
        barrier = threading.Barrier(8)

        def both(before: dict[str, Rating]) -> dict[str, Rating]:
            calls.append(before)
            s, n = rate(before["south"], before["north"], 1.0)
            return {"south": s, "north": n}

        answers: list = []

        def one_try(i: int) -> None:
            barrier.wait()
            answers.append(stores[i % 2].apply_rating("racegame", "admiral", {"south": "key1", "north": "key2"}, both))

        threads = [threading.Thread(target=one_try, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        done = [x for x in answers if x is not None]
        assert len(answers) == 8 and len(done) == 1
        assert done[0]["south"]["after"] == 1662 and done[0]["north"]["after"] == 1338
        ratings = stores[0].ratings_for(["key1", "key2"], "admiral")
        assert (round(ratings["key1"].rating), ratings["key1"].games, ratings["key2"].games) == (1662, 1, 1)
        assert _counts(db_url, "racegame") == {"game_results": 0, "rated_games": 1, "rating_history": 2, "rated": 2}
    finally:
        for e in engines:
            e.dispose()
