"""«Ваш ход» mails with two instances sharing PostgreSQL and Redis (issue 19): both instances hold the
correspondence game and both sweepers look for due mails, yet exactly one mail goes out per turn (the conditional
UPDATE of turn_mails); none while the commander's socket is open on the other instance (Redis presence).

Needs ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; skips with the reason otherwise.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import NEEDS_SERVICES, REDIS_URL
from .topology import Instance, Player

SECRET = "cluster-mail-secret-" + secrets.token_hex(8)

pytestmark = NEEDS_SERVICES


class Commander(Player):
    """A browser that logs in: its session cookie goes with the browser's token."""

    session: str | None = None

    @property
    def cookie(self) -> str:
        return super().cookie + (f"; admiral_session={self.session}" if self.session else "")

    def csrf(self) -> str:
        from admiral.web.deps import csrf_token

        return csrf_token(SECRET, self.token)

    def register(self, base: str, nickname: str, email: str) -> None:
        password = "Броненосец-1905"
        r = self.post(base, "/register", data={"csrf_token": self.csrf(), "email": email, "nickname": nickname,
                                               "password": password, "password2": password})  # fmt: skip
        assert r.status_code == 303, r.text
        self.session = re.search(r"admiral_session=([^;]*);", r.headers["set-cookie"]).group(1).strip('"')


@pytest.fixture
def mail_dir(tmp_path: Path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def cluster(tmp_path: Path, shared_db: str, mail_dir: Path) -> Iterator[tuple[Instance, Instance]]:
    env = {"MAIL_BACKEND": "file", "MAIL_DIR": str(mail_dir), "PUBLIC_URL": "http://admiral.test",
           "TURN_MAIL_INTERVAL_S": "0.3"}  # fmt: skip
    one = two = None
    try:
        one = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "one", **env)
        two = Instance(shared_db, REDIS_URL, SECRET, tmp_path, "two", **env)
        yield one, two
    finally:
        for inst in (one, two):
            if inst is not None:
                inst.stop()


def _mails(mail_dir: Path) -> list[str]:
    return sorted(p.read_text() for p in mail_dir.glob("*.eml")) if mail_dir.exists() else []


def _move(p: Player, server: Instance, game_id: str) -> None:
    snap = p.connect(server, game_id)
    while snap["game"]["status"] != "play" or snap["view"]["to_act"] is None:
        snap = p.until(lambda m: m["type"] == "snapshot")
    version = snap["game"]["version"]
    action = next(a["notation"] for a in snap["view"]["legal"] if a["type"] == "move")
    p.send({"type": "action", "ply": version, "action": action})
    p.until(lambda m: m["type"] == "snapshot" and m["game"]["version"] > version)
    p.ws.close()


def test_two_instances_send_one_mail_and_none_while_present(cluster, mail_dir: Path) -> None:
    one, two = cluster
    south, north = Commander(), Commander()
    south.register(one.url, "Нахимов", "nakhimov@example.org")
    north.register(two.url, "Ушаков", "ushakov@example.org")
    r = north.post(two.url, "/profile/turn-mail", data={"csrf_token": north.csrf(), "turn_mail": "on"})
    assert r.status_code == 303
    r = south.post(one.url, "/games", json={"side": "south", "time_control": "correspondence", "days_per_move": 1})
    assert r.status_code == 201, r.text
    game_id, invite = r.json()["game_id"], r.json()["invite_url"]
    assert north.post(two.url, invite, data={"csrf_token": north.csrf()}).status_code == 303
    south.connect(one, game_id)
    north.connect(two, game_id)
    for p in (south, north):
        p.send({"type": "setup.auto", "setup": {}})
        state = p.until(lambda m: m["type"] == "setup.state")
        p.send({"type": "setup.ready", "setup": state["draft"]})
    snap = south.until(lambda m: m["type"] == "snapshot" and m["game"]["status"] == "play")
    version = snap["game"]["version"]
    action = next(a["notation"] for a in snap["view"]["legal"] if a["type"] == "move")
    south.send({"type": "action", "ply": version, "action": action})
    north.until(lambda m: m["type"] == "snapshot" and m["game"]["version"] > version)
    south.ws.close()
    # North's move; North's socket is open on instance two: instance one sees it through Redis, two locally
    time.sleep(2.5)
    assert _mails(mail_dir) == []
    north.ws.close()
    deadline = time.monotonic() + 10
    while not _mails(mail_dir) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2.0)  # both sweepers pass several more times
    got = _mails(mail_dir)
    assert len(got) == 1, got
    assert "To: ushakov@example.org" in got[0]
    sent = [inst.log.read_text().count(f"turn mail game={game_id} side=north") for inst in (one, two)]
    assert sorted(sent) == [0, 1]  # one instance claimed it; the other's claim found the turn already mailed
