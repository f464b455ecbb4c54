"""E-mail «ваш ход» in correspondence games (issue 19): opt-in on the profile, one mail per turn, never within 6 h,
none while the commander has the game open, none when opted out; the signed one-click unsubscribe link."""

from __future__ import annotations

import email
import re
import time
from pathlib import Path

import pytest

from admiral.web import Settings

from .conftest import make_settings, pick_action, ready_both, snapshot, until
from .test_accounts import PASSWORD, Person, mails, register
from .test_correspondence import Shifted


@pytest.fixture
def mail_dir(tmp_path: Path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def settings(db_url: str, mail_dir: Path) -> Settings:
    """Mail into files; the sweeper looks at turn mails on each pass (every 0.2 s)."""
    return make_settings(
        db_url, mail_backend="file", mail_dir=mail_dir, public_url="http://admiral.test", turn_mail_interval_s=0
    )


def _body(text: str) -> tuple[str, str, str]:
    msg = email.message_from_string(text)
    subject = str(email.header.make_header(email.header.decode_header(msg["Subject"])))
    return msg["To"], subject, msg.get_payload(decode=True).decode()


def _settle(mail_dir: Path, count: int, wait_s: float = 1.5) -> list[tuple[str, str, str]]:
    """The mails after the sweeper had ``wait_s`` to send more: waits for ``count`` and then a while longer."""
    deadline = time.monotonic() + 8
    while len(mails(mail_dir)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(wait_s)
    return [_body(m) for m in mails(mail_dir)]


def _move(p: Person, game_id: str) -> int:
    """``p`` opens the game, makes the scripted move, closes it; returns the new version."""
    with p.ws(game_id) as ws:
        snap = snapshot(ws)
        version = snap["game"]["version"]
        side = snap["view"]["to_act"]
        ws.send_json({"type": "action", "ply": version, "action": pick_action(snap["view"]["legal"], side)})
        return until(ws, lambda m: m["type"] == "snapshot" and m["game"]["version"] > version)["game"]["version"]


def _commanders(client) -> tuple[Person, Person]:
    south, north = Person(client), Person(client)
    register(south, nickname="Нахимов", email="nakhimov@example.org")
    register(north, nickname="Ушаков", email="ushakov@example.org")
    return south, north


def _opt_in(p: Person) -> None:
    r = p.post("/profile/turn-mail", data={"turn_mail": "on"})
    assert r.status_code == 303 and r.headers["location"].startswith("/profile")


def _game(south: Person, north: Person, days: int = 1) -> str:
    """A correspondence game, both fleets ready; South moved once: North's move, nobody connected."""
    game_id, invite = south.create(side="south", time_control="correspondence", days_per_move=days)
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        snapshot(sws)
        snapshot(nws)
        ready_both(sws, nws)
    _move(south, game_id)
    return game_id


def test_profile_switch_is_off_by_default_and_opt_in(client) -> None:
    """Issue 19: opt-in on the profile, registered commanders with an e-mail only, off by default."""
    guest = Person(client)
    page = guest.get("/profile").text
    assert "data-notify-toggle" in page  # the browser notifications' switch: for everyone
    assert 'action="/profile/turn-mail"' not in page
    r = guest.post("/profile/turn-mail", data={"turn_mail": "on"})
    assert r.status_code == 303 and r.headers["location"] == "/register"
    p = Person(client)
    register(p)
    page = p.get("/profile").text
    assert 'name="turn_mail" value="on">' in page  # not checked
    assert p.post("/profile/turn-mail", data={"turn_mail": "on"}, csrf=False).status_code == 403
    _opt_in(p)
    assert 'name="turn_mail" value="on" checked>' in p.get("/profile").text
    assert p.post("/profile/turn-mail", data={}).status_code == 303
    assert 'name="turn_mail" value="on">' in p.get("/profile").text


def test_one_mail_per_turn_not_within_6_hours_and_the_unsubscribe_link(client, mail_dir: Path) -> None:
    south, north = _commanders(client)
    _opt_in(north)  # South does not ask for mails
    game_id = _game(south, north)
    got = _settle(mail_dir, 1)
    assert len(got) == 1  # one mail for the turn, however many sweeps pass
    to, subject, body = got[0]
    assert to == "ushakov@example.org"
    assert subject == "Ваш ход — «Адмирал», партия по переписке"  # the game's name once (QA)
    assert subject.count("Адмирал") == 1
    assert "Здравствуйте, Ушаков!" in body and "На ход осталось 23 ч 59 мин" in body
    assert f"http://admiral.test/g/{game_id}\n" in body
    off = re.search(r"http://admiral\.test(/mail/off/\S+)", body).group(1)

    _move(north, game_id)  # South's move: South did not opt in, no mail
    assert len(_settle(mail_dir, 1, 1.0)) == 1
    _move(south, game_id)  # North's move again, but the last mail is not 6 h old
    assert len(_settle(mail_dir, 1, 1.0)) == 1
    now = Shifted()
    client.app.state.service.now = now
    now.advance(6.1)
    got = _settle(mail_dir, 2)
    assert len(got) == 2 and got[1][0] == "ushakov@example.org"  # 6 h later: the second turn's mail

    # a forged token changes nothing; the signed one switches the mails off in one click
    forged = off[:-4] + ("0000" if not off.endswith("0000") else "1111")
    assert north.get(forged).status_code == 400
    assert 'name="turn_mail" value="on" checked>' in north.get("/profile").text
    r = Person(client).get(off)  # opening the link (a mail scanner does) only asks
    assert r.status_code == 200 and "Отключить письма о ходе?" in r.text and f'action="{off}"' in r.text
    assert 'name="turn_mail" value="on" checked>' in north.get("/profile").text
    # the button, or the mail client's one-click POST (RFC 8058) with no cookie and no login
    client.cookies.clear()
    r = client.post(off, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200 and "Письма о ходе отключены" in r.text
    assert 'name="turn_mail" value="on">' in north.get("/profile").text
    assert Person(client).get("/mail/off/1.zz").status_code == 400
    assert Person(client).get("/mail/off/%E2%98%83.x").status_code == 400
    client.cookies.clear()
    assert client.post(forged, data={"List-Unsubscribe": "One-Click"}).status_code == 400


def test_no_mail_while_the_game_is_open(client, mail_dir: Path) -> None:
    """Issue 19: none while the commander has the game open (presence); once it is closed, the mail goes."""
    south, north = _commanders(client)
    _opt_in(north)
    game_id, invite = south.create(side="south", time_control="correspondence", days_per_move=3)
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        snapshot(sws)
        snapshot(nws)
        s, _n = ready_both(sws, nws)
        version = s["game"]["version"]
        sws.send_json({"type": "action", "ply": version, "action": pick_action(s["view"]["legal"], "south")})
        until(nws, lambda m: m["type"] == "snapshot" and m["game"]["version"] > version)
        time.sleep(1.5)  # North's move, North looking at the game: several sweeps pass
        assert mails(mail_dir) == []
    got = _settle(mail_dir, 1, 0.5)
    assert [m[0] for m in got] == ["ushakov@example.org"]
    assert "На ход осталось 2 дн 23 ч" in got[0][2]


def test_no_mail_for_a_game_that_is_not_correspondence(client, mail_dir: Path) -> None:
    south, north = _commanders(client)
    _opt_in(north)
    game_id, invite = south.create(side="south", time_control="30+0")
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        snapshot(sws)
        snapshot(nws)
        ready_both(sws, nws)
    _move(south, game_id)
    time.sleep(1.5)
    assert mails(mail_dir) == []


def test_english_mail_for_a_commander_who_chose_english(client, mail_dir: Path) -> None:
    """The mail is in the commander's language (the site's language when they switched the mails on)."""
    south, north = _commanders(client)
    r = north.post(
        "/profile/turn-mail",
        data={"turn_mail": "on"},
        headers={"cookie": north.headers["cookie"] + "; admiral_lang=en"},
    )
    assert r.status_code == 303
    _game(south, north)
    ((_to, subject, body),) = _settle(mail_dir, 1, 0.3)
    assert subject == "Your move — «Admiral», a correspondence game"
    assert subject.count("Admiral") == 1
    assert "your move" in body
    assert PASSWORD not in body
