"""Commanders over the real app (issue 5, PROGRESSION.md §1): registration keeping a guest's things,
login on a second device, sessions, CSRF, rate limits, recovery links, nicknames, crediting games."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from admiral.web import Settings
from admiral.web.deps import SESSION_COOKIE

from .conftest import Browser, make_settings, running, snapshot, until

PASSWORD = "Броненосец-1905"


@pytest.fixture
def mail_dir(tmp_path: Path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def settings(db_url: str, mail_dir: Path) -> Settings:
    """Shared settings, mail into files, bots answering at once."""
    return make_settings(
        db_url, mail_backend="file", mail_dir=mail_dir, public_url="http://admiral.test", bot_delay_ms=0
    )


class Person(Browser):
    """A browser that keeps the session cookie the server sets."""

    session: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        cookie = f"admiral_browser={self.token}"
        if self.session:
            cookie += f"; {SESSION_COOKIE}={self.session}"
        return {"cookie": cookie}

    def submit(self, url: str, **data: str):
        r = self.post(url, data=data)
        got = re.search(rf"{SESSION_COOKIE}=([^;]*);", r.headers.get("set-cookie", ""))
        if got:
            self.session = got.group(1).strip('"') or None
        return r

    def me(self) -> dict:
        return self.get("/api/me").json()


def register(p: Person, nickname: str = "Капитан Немо", email: str = "nemo@example.org", password: str = PASSWORD):
    return p.submit("/register", email=email, nickname=nickname, password=password, password2=password)


def mails(mail_dir: Path) -> list[str]:
    return [f.read_text() for f in sorted(mail_dir.glob("*.eml"))] if mail_dir.exists() else []


def wait_mail(mail_dir: Path, count: int) -> list[str]:
    import time

    for _ in range(100):
        got = mails(mail_dir)
        if len(got) >= count:
            return got
        time.sleep(0.05)
    raise AssertionError(f"expected {count} mails, got {len(mails(mail_dir))}")


def reset_link(text: str) -> str:
    import email

    body = email.message_from_string(text).get_payload(decode=True).decode()
    return re.search(r"http://admiral\.test(/reset/\S+)", body).group(1)


def test_register_from_a_guest_keeps_its_games_and_setups_and_logs_in(client) -> None:
    p = Person(client)
    setup = {"a1": "VMB"}
    assert p.post("/api/setups", json={"name": "Первая", "setup": setup}).status_code == 201
    game_id, _ = p.create(side="south")
    r = register(p)
    assert r.status_code == 303 and r.headers["location"] == "/profile"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert p.me()["registered"] and p.me()["nickname"] == "Капитан Немо"
    assert [s["name"] for s in p.get("/api/setups").json()] == ["Первая"]
    assert 'data-role="south"' in p.get(f"/g/{game_id}").text  # the seat followed the commander
    # the browser without its session is a fresh guest: the commander's things are out of its reach
    bare = Browser(client, p.token)
    assert bare.get("/api/setups").json() == [] and 'data-role="spectator"' in bare.get(f"/g/{game_id}").text


def test_login_on_a_second_device_continues_the_same_profile(client) -> None:
    first = Person(client)
    register(first)
    first.post("/api/setups", json={"name": "Общая", "setup": {"a1": "VMB"}})
    second = Person(client)
    r = second.submit("/login", login="nemo@example.org", password=PASSWORD)
    assert r.status_code == 303
    assert second.me()["nickname"] == "Капитан Немо"
    assert [s["name"] for s in second.get("/api/setups").json()] == ["Общая"]
    third = Person(client)
    assert third.submit("/login", login="КАПИТАН немо", password=PASSWORD).status_code == 303  # nickname, any case


def test_every_login_gets_a_new_session_and_logout_kills_it_on_the_server(client) -> None:
    p = Person(client)
    register(p)
    first = p.session
    p.submit("/login", login="nemo@example.org", password=PASSWORD)
    second = p.session
    assert first and second and first != second
    old = Person(client, p.token)
    old.session = second
    assert p.submit("/logout").status_code == 303 and p.session is None
    assert not old.me()["registered"]  # the stolen cookie is worth nothing after logout
    fixed = Person(client)
    fixed.session = "attacker-chosen-session-id-000000000000000"
    fixed.submit("/login", login="nemo@example.org", password=PASSWORD)
    assert fixed.session != "attacker-chosen-session-id-000000000000000" and fixed.me()["registered"]


def test_wrong_password_and_unknown_login_look_the_same(client) -> None:
    p = Person(client)
    register(p)
    a = Person(client).submit("/login", login="nemo@example.org", password="not-the-password")
    b = Person(client).submit("/login", login="nobody@example.org", password="not-the-password")
    assert a.status_code == b.status_code == 400
    assert "Неверный логин или пароль." in a.text and "Неверный логин или пароль." in b.text


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1", "не короче 8"),
        ("x" * 129, "не длиннее 128"),
        ("password1", "распространён"),
        ("qwertyuiop", "распространён"),
        ("капитан немо", "не должен совпадать"),
    ],
)
def test_weak_passwords_are_refused(client, password: str, reason: str) -> None:
    p = Person(client)
    r = register(p, password=password)
    assert r.status_code == 400 and reason in r.text and not p.me()["registered"]


def test_a_128_character_password_is_not_truncated(client) -> None:
    long = "Ц" * 100 + "к" * 28
    register(Person(client), password=long)
    assert Person(client).submit("/login", login="nemo@example.org", password=long).status_code == 303
    near = long[:-1] + "ж"
    assert Person(client).submit("/login", login="nemo@example.org", password=near).status_code == 400


@pytest.mark.parametrize(
    "lookalike",
    ["капитан немо", "Капитан  Немо", " Капитан Немо ", "Капитан\u200bНемо".replace("\u200bН", " \u200bН"),
     "КАПИТАН НЕМО"],
)  # fmt: skip
def test_nickname_lookalikes_are_taken(client, lookalike: str) -> None:
    register(Person(client))
    r = register(Person(client), nickname=lookalike, email="other@example.org")
    assert r.status_code == 400 and "занят" in r.text


@pytest.mark.parametrize(
    ("nickname", "reason"),
    [("Кaпитан", "похожие буквы"), ("ab", "от 3 до 24"), ("<script>", "только буквы"), ("x" * 25, "от 3 до 24")],
)
def test_bad_nicknames_are_refused(client, nickname: str, reason: str) -> None:
    r = register(Person(client), nickname=nickname)
    assert r.status_code == 400 and reason in r.text


def test_fullwidth_nickname_is_stored_normalised(client) -> None:
    p = Person(client)
    register(p, nickname="Ｎｅｍｏ", email="n@example.org")
    assert p.me()["nickname"] == "Nemo"
    assert register(Person(client), nickname="nemo", email="m@example.org").status_code == 400


def test_forms_without_the_csrf_token_change_nothing(client) -> None:
    p = Person(client)
    data = {"email": "nemo@example.org", "nickname": "Капитан Немо", "password": PASSWORD, "password2": PASSWORD}
    r = p.post("/register", data=data, csrf=False)
    assert r.status_code == 403 and not p.me()["registered"]
    register(p)
    assert p.post("/logout", csrf=False).status_code == 403 and p.me()["registered"]
    assert Person(client).post("/login", data={"login": "nemo@example.org", "password": PASSWORD},
                               csrf=False).status_code == 403  # fmt: skip


def test_login_is_rate_limited(client) -> None:
    register(Person(client))
    p = Person(client)
    codes = [p.submit("/login", login="nemo@example.org", password="wrong-password").status_code for _ in range(6)]
    assert codes[:5] == [400] * 5 and codes[5] == 429  # 5 a minute per account
    # even the right password waits now
    assert p.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 429
    client.app.state.limits.clear()
    assert p.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 303


def test_recovery_link_single_use_and_replaced_by_a_newer_one(client, mail_dir: Path) -> None:
    p = Person(client)
    register(p)
    stranger = Person(client)
    a = stranger.submit("/recover", email="nobody@example.org")
    b = stranger.submit("/recover", email="nemo@example.org")
    assert a.status_code == b.status_code == 200 and a.text.replace("nobody", "") == b.text.replace("nemo", "")
    first = reset_link(wait_mail(mail_dir, 1)[0])
    client.app.state.limits.clear()
    stranger.submit("/recover", email="NEMO@example.org")
    second = reset_link(wait_mail(mail_dir, 2)[1])
    assert first != second
    assert "недействительна" in stranger.get(first).text  # replaced by the newer link
    new = "Новый-пароль-2026"
    r = stranger.submit(second, password=new, password2=new)
    assert r.status_code == 200 and "Пароль изменён" in r.text
    r = stranger.submit(second, password="Ещё-один-2026", password2="Ещё-один-2026")
    assert r.status_code == 400 and "недействительна" in r.text  # single use
    assert not p.me()["registered"]  # every session ended with the password change
    assert Person(client).submit("/login", login="nemo@example.org", password=new).status_code == 303
    assert Person(client).submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 400


def test_recovery_link_expires_and_dies_with_a_password_change(client, mail_dir: Path) -> None:
    from sqlalchemy import update

    from admiral.store.models import PasswordResetRow

    p = Person(client)
    register(p)
    p.submit("/recover", email="nemo@example.org")
    link = reset_link(wait_mail(mail_dir, 1)[0])
    store = client.app.state.accounts.store
    with store.sessions.begin() as s:
        s.execute(update(PasswordResetRow).values(expires_at=PasswordResetRow.created_at))
    assert "недействительна" in p.get(link).text
    client.app.state.limits.clear()
    p.submit("/recover", email="nemo@example.org")
    link = reset_link(wait_mail(mail_dir, 2)[1])
    new = "Сменённый-2026"
    r = p.submit("/profile/password", old=PASSWORD, password=new, password2=new)
    assert r.status_code == 303 and p.me()["registered"]  # this browser got a new session
    assert "недействительна" in p.get(link).text


def test_feedback_is_stored_with_the_commander(client) -> None:
    p = Person(client)
    register(p)
    r = p.submit("/feedback", message="Спасибо за игру! <b>жирно</b>", contact="")
    assert r.status_code == 200 and "Спасибо" in r.text
    rows = client.app.state.accounts.store.feedback()
    assert rows[0].message == "Спасибо за игру! <b>жирно</b>" and rows[0].commander_id is not None
    assert Person(client).submit("/feedback", message="   ").status_code == 400


def test_profile_leaderboard_and_public_page(client) -> None:
    p = Person(client)
    guest = p.get("/profile")
    assert guest.status_code == 200 and "Зарегистрируйтесь" in guest.text and "Матрос" in guest.text
    register(p)
    own = p.get("/profile").text
    assert "Капитан Немо" in own and "Медали и ордена" in own and "Квалификационные знаки" in own
    assert own.count('class="award ') == 12
    public = Person(client).get("/c/капитан немо")
    assert public.status_code == 200 and "Капитан Немо" in public.text and "nemo@example.org" not in public.text
    board = Person(client).get("/leaders").text
    assert "Капитан Немо" in board and "Страница 1 из 1" in board
    for beyond in ("99999", str(10**22)):  # QA (issue 19): past the last page, not «nobody in the rating yet»
        far = Person(client).get(f"/leaders?page={beyond}").text
        assert "На этой странице никого нет." in far and "Пока в рейтинге никого нет" not in far
    assert Person(client).get("/c/nobody").status_code == 404
    # A mistyped page number is a page with the site's frame, not a JSON body; a script asking for JSON gets JSON.
    bad = Person(client).get("/leaders?page=x")
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("text/html")
    assert "Неверный адрес страницы." in bad.text and 'href="/leaders"' in bad.text
    bad = Person(client).get("/leaders?page=x", headers={"accept": "application/json"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"


def test_a_finished_game_is_credited_exactly_once(client) -> None:
    """PROGRESSION.md §2: a win over AI level 1 by resignation after two turns each: the AI resigns? No —
    the human resigns after two turns: 0 points, a lost game counted once, however often the end repeats."""
    p = Person(client)
    register(p)
    r = p.post("/games", json={"opponent": "ai", "ai_level": 1, "side": "south"})
    game_id = r.json()["game_id"]
    from .conftest import pick_action

    with p.ws(game_id) as ws:
        ws.send_json({"type": "setup.auto", "setup": {}})
        state = until(ws, lambda m: m["type"] == "setup.state")
        ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        snap = snapshot(ws, status="play")
        for _ in range(2):
            ws.send_json({"type": "action", "ply": snap["game"]["version"],
                          "action": pick_action(snap["view"]["legal"], "south")})  # fmt: skip
            snap = until(ws, lambda m: m["type"] == "snapshot" and m["view"]["to_act"] == "south")
        ws.send_json({"type": "resign"})
        # credited just after the end
        over = until(ws, lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None)
        ws.send_json({"type": "resign"})  # a second end changes nothing
        until(ws, lambda m: m["type"] == "error")
    credit = over["game"]["credit"]
    assert credit["counted"] and credit["points"] == 0 and credit["rank"]["name"] == "Матрос"
    me = p.me()
    assert me["games_played"] == 1 and me["points"] == 0
    service = client.app.state.service
    g = service.get(game_id)
    service._credit(g)  # crediting again (another end trigger, a reload) adds nothing
    assert p.me()["games_played"] == 1
    assert len(client.app.state.accounts.store.results(game_id)) == 1  # the AI's seat earns nothing


def test_account_limits_count_the_account_not_its_spelling(client) -> None:
    """QA finding: zero-width and fullwidth spellings of a login were separate rate-limit counters."""
    register(Person(client))
    p = Person(client)
    spellings = ["Капитан Немо", "Капитан\u200b Немо", "КАПИТАН НЕМО", "капитан\u2060 немо", "Капитан Немо\ufeff"]
    codes = [p.submit("/login", login=s, password="wrong-password").status_code for s in spellings]
    assert codes == [400] * 5
    assert p.submit("/login", login="Капитан\u200b\u200b Немо", password=PASSWORD).status_code == 429


def test_an_oversized_old_password_is_a_clear_error_not_a_500(client) -> None:
    """QA finding: 4097 characters in «текущий пароль» raised passlib's PasswordSizeError (500)."""
    p = Person(client)
    register(p)
    r = p.submit("/profile/password", old="x" * 5000, password="Новый-пароль-2026", password2="Новый-пароль-2026")
    assert r.status_code == 400 and "Неверный текущий пароль" in r.text
    assert p.me()["registered"]


def test_logging_in_as_another_ends_the_browsers_previous_session(client) -> None:
    """QA finding: the previous commander's session stayed valid after another login in the same browser."""
    carol = Person(client)
    register(carol, nickname="Carol", email="carol@example.org")
    carols = carol.session
    register(Person(client), nickname="Bobby", email="bob@example.org")
    carol.submit("/login", login="Bobby", password=PASSWORD)
    assert carol.me()["nickname"] == "Bobby"
    old = Person(client, carol.token)
    old.session = carols
    assert not old.me()["registered"]


def test_pages_refuse_framing_and_referrers(client) -> None:
    r = Person(client).get("/login")
    assert r.headers["x-frame-options"] == "DENY" and r.headers["referrer-policy"] == "same-origin"
    assert r.headers["x-content-type-options"] == "nosniff"


# -- issue 16, finding 6: nicknames unique by confusable skeleton -----------------------------------------


@pytest.mark.parametrize(
    ("first", "twin"),
    [("BOPAXK", "ВОРАХК"), ("ВОРАХК", "BOPAXK"), ("bopaxk", "ВоРАхк"), ("ВоРАхк", "bopaxk"), ("Ilya", "llya"),
     ("mike", "RNIKE"), ("Nemo", "ΝΕΜΟ")],
)  # fmt: skip
def test_a_confusable_twin_of_a_nickname_is_taken(client, first: str, twin: str) -> None:
    """QA finding: Cyrillic «ВОРАХК» registered beside Latin «BOPAXK», a second commander with the same page."""
    assert register(Person(client), nickname=first, email="first@example.org").status_code == 303
    r = register(Person(client), nickname=twin, email="twin@example.org")
    assert r.status_code == 400 and "Этот псевдоним уже занят." in r.text
    assert client.app.state.accounts.store.by_email("twin@example.org") is None


def test_a_nickname_one_letter_apart_is_free_and_login_by_nickname_finds_its_owner(client) -> None:
    register(Person(client), nickname="BOPAXK", email="first@example.org")
    assert register(Person(client), nickname="Nemo", email="nemo@example.org").status_code == 303
    assert register(Person(client), nickname="Nema", email="nema@example.org").status_code == 303
    p = Person(client)
    assert p.submit("/login", login="bopaxk", password=PASSWORD).status_code == 303
    assert p.me()["nickname"] == "BOPAXK"
    assert Person(client).submit("/login", login="NEMA", password=PASSWORD).status_code == 303
    page = Person(client).get("/c/Bopaxk")
    assert page.status_code == 200 and "BOPAXK" in page.text


def _at_0005_with_commanders(db_url: str) -> sa.Table:
    """A database at migration 0005 (before the skeleton keys) holding commanders registered then; the
    ``commanders`` table as it was."""
    from admiral.store import upgrade_database

    upgrade_database(db_url, "0005")
    table = sa.table(
        "commanders", sa.column("id", sa.Integer()), sa.column("key", sa.String()), sa.column("email", sa.String()),
        sa.column("nickname", sa.String()), sa.column("nickname_key", sa.String()),
        sa.column("career", sa.JSON()), sa.column("points", sa.Integer()),
        sa.column("created_at", sa.DateTime(timezone=True)), sa.column("registered_at", sa.DateTime(timezone=True)),
    )  # fmt: skip
    engine = sa.create_engine(db_url)
    day = lambda d: datetime(2026, 1, d, tzinfo=UTC)  # noqa: E731
    rows = [  # id, nickname, registered on day …; the Cyrillic twin has the lower id but registered later
        (1, "ВОРАХК", 20), (2, "BOPAXK", 10), (3, "Nemo", 11), (4, None, None), (5, "mike", 12), (6, "Rnike", 13),
    ]  # fmt: skip
    with engine.begin() as conn:
        conn.execute(
            sa.insert(table),
            [{"id": i, "key": f"k{i}", "email": nick and f"c{i}@example.org", "nickname": nick,
              "nickname_key": nick and nick.casefold(), "career": {}, "points": 0, "created_at": day(1),
              "registered_at": reg and day(reg)} for i, nick, reg in rows],
        )  # fmt: skip
        if engine.dialect.name == "postgresql":  # explicit ids leave the sequence behind
            conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('commanders', 'id'), 6)"))
    engine.dispose()
    return table


def _keys_by_id(db_url: str, table: sa.Table) -> dict[int, tuple]:
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        columns = [sa.column(name) for name in ("id", "nickname_key", "nickname_key_upper", "nickname_key_typed")]
        got = {r[0]: tuple(r[1:]) for r in conn.execute(sa.select(*columns).select_from(table))}
    engine.dispose()
    return got


def test_migration_0006_recomputes_the_keys_and_suffixes_later_twins(db_url: str) -> None:
    from admiral.service.nicknames import nickname_keys
    from admiral.store import AccountStore, Taken, make_engine, upgrade_database

    table = _at_0005_with_commanders(db_url)
    upgrade_database(db_url)
    assert _keys_by_id(db_url, table) == {
        2: ("bopaxk", "BOPAXK", "BOPAXK"),  # registered first: keeps its keys
        1: ("ʙopaxĸ", "BOPAXK#1", "BOPAXK#1"),  # the twin registered later: the taken keys suffixed
        3: ("nerno", "NEMO", "Nerno"),
        4: (None, None, None),  # a guest
        5: ("rnike", "MlKE", "rnike"),
        6: ("rnike#6", "RNlKE", "Rnike"),  # «Rnike» looks like «mike» in lower case only
    }
    engine = make_engine(db_url)
    store = AccountStore(engine)
    assert store.by_nickname_key("bopaxk").id == 2 and store.by_nickname_key("rnike").id == 5
    with pytest.raises(Taken):  # a new twin is refused
        twin = "вораХК"
        store.register("guest", "new", email="new@example.org", nickname=twin, nickname_keys=nickname_keys(twin),
                       password_hash="x")  # fmt: skip
    engine.dispose()


def test_migration_0006_downgrades_to_case_folded_keys(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from admiral.store import upgrade_database
    from admiral.store.db import MIGRATIONS_DIR

    table = _at_0005_with_commanders(db_url)
    upgrade_database(db_url)
    assert _keys_by_id(db_url, table)[1] == ("ʙopaxĸ", "BOPAXK#1", "BOPAXK#1")
    cfg = Config(str(MIGRATIONS_DIR.parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes.update(database_url=db_url, configure_logger=False)
    command.downgrade(cfg, "0005")
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        got = dict(conn.execute(sa.select(sa.column("id"), sa.column("nickname_key")).select_from(table)).all())
        assert "nickname_key_upper" not in {c["name"] for c in sa.inspect(conn).get_columns("commanders")}
    engine.dispose()
    assert got == {1: "ворахк", 2: "bopaxk", 3: "nemo", 4: None, 5: "mike", 6: "rnike"}


# -- issue 16, finding 7: failed logins throttled per (account, address), with a backstop per account -----------


def at(client: TestClient, address: str) -> Person:
    """A person at client address ``address``: the same app through a TestClient that gives that address."""
    return Person(TestClient(client.app, base_url="http://testserver", client=(address, 50000)))


def test_failures_from_five_addresses_do_not_lock_the_owner_out(client) -> None:
    """QA finding: five wrong passwords from five addresses locked the real owner out (429 per e-mail)."""
    register(Person(client))
    for i in range(1, 6):
        guesser = at(client, f"127.0.0.{i}")
        codes = [guesser.submit("/login", login="nemo@example.org", password=f"wrong{n}").status_code for n in range(5)]
        assert codes == [400] * 5
        # that address is done with this account for now, even with the right password
        assert guesser.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 429
        assert guesser.submit("/login", login="Капитан Немо", password=PASSWORD).status_code == 429
    owner = at(client, "127.0.0.6")
    assert owner.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 303
    assert owner.me()["nickname"] == "Капитан Немо"


def test_a_successful_login_does_not_count_against_the_account(client) -> None:
    register(Person(client))
    p = Person(client)
    codes = [p.submit("/login", login="nemo@example.org", password="wrong-password").status_code for _ in range(4)]
    assert codes == [400] * 4
    assert p.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 303
    assert p.submit("/login", login="nemo@example.org", password="wrong-password").status_code == 400  # the 5th failure
    assert p.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 429


def test_past_the_backstop_every_address_is_refused(db_url: str) -> None:
    with running(make_settings(db_url, rate_login_account="12/hour")) as client:
        register(Person(client))
        for i in (1, 2):
            codes = [at(client, f"127.0.0.{i}").submit("/login", login="Капитан Немо", password="wrong-password")
                     .status_code for _ in range(5)]  # fmt: skip
            assert codes == [400] * 5
        owner = at(client, "127.0.0.9")
        assert owner.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 303  # 10 < 12
        third = at(client, "127.0.0.3")
        codes = [third.submit("/login", login="nemo@example.org", password="x-wrong-x").status_code for _ in range(3)]
        assert codes == [400, 400, 429]  # 12 failures: the account's backstop is full
        for person in (third, at(client, "127.0.0.4"), owner, Person(client)):
            assert person.submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 429
        assert at(client, "127.0.0.4").submit("/login", login="other@example.org", password="x").status_code == 400


def test_recovery_requests_from_one_address_do_not_block_the_owners(client, mail_dir: Path) -> None:
    register(Person(client))
    stranger = at(client, "127.0.0.1")
    codes = [stranger.submit("/recover", email="nemo@example.org").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert len(wait_mail(mail_dir, 3)) == 3
    assert at(client, "127.0.0.2").submit("/recover", email="NEMO@example.org").status_code == 200
    assert len(wait_mail(mail_dir, 4)) == 4


# -- issue 16, QA finding 11: diacritics and small capitals; words of different scripts ------------------------


@pytest.mark.parametrize("twin", ["BOPAXḰ", "BOPAXḲ", "ʙᴏᴘᴀxᴋ", "Bopaxḱ"])
def test_a_twin_with_a_diacritic_or_in_small_capitals_is_taken(client, twin: str) -> None:
    """QA finding: «BOPAXḰ», «BOPAXḲ» and small-capital «ʙᴏᴘᴀxᴋ» registered beside «BOPAXK»."""
    assert register(Person(client), nickname="BOPAXK", email="first@example.org").status_code == 303
    r = register(Person(client), nickname=twin, email="twin@example.org")
    assert r.status_code == 400 and "Этот псевдоним уже занят." in r.text
    assert client.app.state.accounts.store.by_email("twin@example.org") is None


def test_unrelated_nicknames_stay_free_beside_their_near_spellings(client) -> None:
    for i, nickname in enumerate(["Nemo", "Nema", "Yuri", "Yura", "Ivan", "Иван", "がくせい", "かくせい"]):
        person = at(client, f"127.0.1.{i}")  # registrations are limited per address
        assert register(person, nickname=nickname, email=f"c{i}@example.org").status_code == 303, nickname


@pytest.mark.parametrize("nickname", ["Капитан Nemo", "Вася Pupkin", "Иван_John", "Pasha Паша"])
def test_words_of_different_scripts_make_a_nickname(client, nickname: str) -> None:
    """QA finding: unrelated bilingual names were refused as «смешивает похожие буквы разных алфавитов»."""
    p = Person(client)
    assert register(p, nickname=nickname).status_code == 303
    assert p.me()["nickname"] == nickname
    assert Person(client).get(f"/c/{nickname}").status_code == 200


@pytest.mark.parametrize(("nickname", "word"), [("Кaпитан", "Кaпитан"), ("Капитан Nemо", "Nemо"), ("Iван-1", "Iван")])
def test_a_word_mixing_look_alike_letters_is_refused_and_named(client, nickname: str, word: str) -> None:
    """«Кaпитан» (a Latin «a»), «Nemо» (a Cyrillic «о»), «Iван» (a Latin «I»): one word imitating another script."""
    p = Person(client)
    r = register(p, nickname=nickname)
    assert r.status_code == 400 and f"Слово «{word}» смешивает похожие буквы разных алфавитов." in r.text
    assert not p.me()["registered"]


def _at_0007_with_commanders(db_url: str) -> sa.Table:
    """A database at migration 0007 holding commanders whose keys 0007 computed (by skeleton alone): twins of
    «BOPAXK» with a diacritic and in small capitals, «Андреи» registered before «Андрей», a guest."""
    from admiral.service.nicknames import skeleton_keys
    from admiral.store import upgrade_database

    upgrade_database(db_url, "0007")
    table = sa.table(
        "commanders", sa.column("id", sa.Integer()), sa.column("key", sa.String()), sa.column("email", sa.String()),
        sa.column("nickname", sa.String()), sa.column("nickname_key", sa.String()),
        sa.column("nickname_key_upper", sa.String()), sa.column("nickname_key_typed", sa.String()),
        sa.column("career", sa.JSON()), sa.column("points", sa.Integer()),
        sa.column("created_at", sa.DateTime(timezone=True)), sa.column("registered_at", sa.DateTime(timezone=True)),
    )  # fmt: skip
    engine = sa.create_engine(db_url)
    day = lambda d: datetime(2026, 1, d, tzinfo=UTC)  # noqa: E731
    rows = [(1, "BOPAXK", 10), (2, "ʙᴏᴘᴀxᴋ", 11), (3, "BOPAXḰ", 12), (4, "Андрей", 13), (5, "Андреи", 9),
            (6, None, None)]  # fmt: skip
    with engine.begin() as conn:
        for i, nick, reg in rows:
            keys = skeleton_keys(nick) if nick else (None, None, None)
            conn.execute(sa.insert(table).values(
                id=i, key=f"k{i}", email=nick and f"c{i}@example.org", nickname=nick, nickname_key=keys[0],
                nickname_key_upper=keys[1], nickname_key_typed=keys[2], career={}, points=0, created_at=day(1),
                registered_at=reg and day(reg),
            ))  # fmt: skip
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('commanders', 'id'), 6)"))
    engine.dispose()
    return table


def test_migration_0008_recomputes_the_keys_suffixing_twins_and_downgrades_to_0007s(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from admiral.service.nicknames import nickname_keys, skeleton_keys
    from admiral.store import upgrade_database
    from admiral.store.db import MIGRATIONS_DIR

    table = _at_0007_with_commanders(db_url)
    upgrade_database(db_url)
    andrei = nickname_keys("Андреи")
    assert nickname_keys("Андрей") == andrei
    assert _keys_by_id(db_url, table) == {
        1: ("bopaxk", "BOPAXK", "BOPAXK"),
        2: ("bopaxk#2", "BOPAXK#2", "BOPAxK"),  # small capitals: taken in lower case and in capitals, not as typed
        3: ("bopaxk#3", "BOPAXK#3", "BOPAXK#3"),
        5: andrei,  # registered before «Андрей»
        4: tuple(f"{key}#4" for key in andrei),
        6: (None, None, None),
    }
    cfg = Config(str(MIGRATIONS_DIR.parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes.update(database_url=db_url, configure_logger=False)
    command.downgrade(cfg, "0007")
    got = _keys_by_id(db_url, table)
    assert got == {i: skeleton_keys(nick) for i, nick in enumerate(
        ["BOPAXK", "ʙᴏᴘᴀxᴋ", "BOPAXḰ", "Андрей", "Андреи"], start=1)} | {6: (None, None, None)}  # fmt: skip
    assert got[2] == ("ʙoᴘᴀxĸ", "ʙoᴘᴀXĸ", "ʙoᴘᴀxĸ")


# -- issue 16, QA finding 7: refusals say how long to wait; an IPv6 /64 is one address ---------------------------


class English(Person):
    """A person whose browser asked for English (``admiral_lang=en``)."""

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": super().headers["cookie"] + "; admiral_lang=en"}


def refused_for(r) -> tuple[int, int]:
    """A ``429``'s ``Retry-After`` seconds and the minutes its message names (Russian or English)."""
    assert r.status_code == 429
    minutes = re.search(r"(?:Подождите|Wait) (\d+) (?:минут|minute)", r.text)
    assert minutes, r.text
    return int(r.headers["retry-after"]), int(minutes.group(1))


def test_the_backstops_refusal_says_it_lasts_an_hour(db_url: str) -> None:
    """QA finding: past ``RATE_LOGIN_ACCOUNT`` the owner read «Подождите минуту» with ``Retry-After: 60``,
    though the account stays locked until its oldest failure leaves the hour."""
    with running(make_settings(db_url, rate_login_account="12/hour")) as client:
        register(Person(client))
        for i, tries in ((1, 5), (2, 5), (3, 2)):
            guesser = at(client, f"127.0.0.{i}")
            codes = [guesser.submit("/login", login="nemo@example.org", password="wrong").status_code
                     for _ in range(tries)]  # fmt: skip
            assert codes == [400] * tries
        r = at(client, "127.0.0.9").submit("/login", login="nemo@example.org", password=PASSWORD)
        seconds, minutes = refused_for(r)
        assert 3540 < seconds <= 3600 and minutes == 60
        assert "Слишком много попыток. Подождите 60 минут и попробуйте снова." in r.text
        english = English(TestClient(client.app, base_url="http://testserver", client=("127.0.0.10", 50000)))
        r = english.submit("/login", login="nemo@example.org", password=PASSWORD)
        assert "Too many attempts. Wait 60 minutes and try again." in r.text and refused_for(r)[0] > 3540


def test_recovery_past_the_mailboxs_limit_says_the_real_wait(client, mail_dir: Path) -> None:
    """QA finding: 4 addresses × 3 requests sent the victim 10 mails; then the owner's own request got 429
    «Подождите минуту», though ``RATE_RECOVER_ACCOUNT`` (10/hour) holds it for the hour."""
    register(Person(client))
    codes = [[at(client, f"127.0.0.{i}").submit("/recover", email="nemo@example.org").status_code for _ in range(3)]
             for i in range(1, 5)]  # fmt: skip
    assert codes == [[200] * 3, [200] * 3, [200] * 3, [200, 429, 429]]
    assert len(wait_mail(mail_dir, 10)) == 10
    r = at(client, "127.0.0.5").submit("/recover", email="NEMO@example.org")
    seconds, minutes = refused_for(r)
    assert 3540 < seconds <= 3600 and minutes == 60 and "Подождите 60 минут" in r.text
    assert len(mails(mail_dir)) == 10


def test_every_refusal_of_the_account_forms_names_its_wait(db_url: str) -> None:
    """Registration, login, password change, recovery, a reset link and feedback: each 429 names the wait of
    the window that refused, in minutes (Russian plurals; English) and in ``Retry-After`` seconds."""
    settings = make_settings(
        db_url, rate_register="1/minute", rate_login="2/hour", rate_recover="1/2 minutes", rate_feedback="1/3 minutes"
    )
    with running(settings) as client:
        owner = Person(client)
        register(owner)
        seconds, minutes = refused_for(register(Person(client), nickname="Другой", email="other@example.org"))
        assert 50 < seconds <= 60 and minutes == 1
        assert "Подождите 1 минуту и попробуйте снова." in register(Person(client), nickname="Другой").text

        codes = [Person(client).submit("/login", login="x@example.org", password="wrong").status_code for _ in range(2)]
        assert codes == [400, 400]
        seconds, minutes = refused_for(Person(client).submit("/login", login="x@example.org", password="wrong"))
        assert 3540 < seconds <= 3600 and minutes == 60
        new = "Новый-пароль-2026"
        r = owner.submit("/profile/password", old=PASSWORD, password=new, password2=new)
        assert refused_for(r)[1] == 60 and "Подождите 60 минут" in r.text  # the error page

        assert Person(client).submit("/recover", email="nemo@example.org").status_code == 200
        r = Person(client).submit("/recover", email="nobody@example.org")
        seconds, minutes = refused_for(r)
        assert 110 < seconds <= 120 and minutes == 2 and "Подождите 2 минуты и попробуйте снова." in r.text
        r = Person(client).submit("/reset/" + "x" * 43, password=new, password2=new)
        assert refused_for(r)[1] == 2

        assert Person(client).submit("/feedback", message="Спасибо!").status_code == 200
        r = English(client).submit("/feedback", message="Thanks again!")
        seconds, minutes = refused_for(r)
        assert 170 < seconds <= 180 and minutes == 3 and "Wait 3 minutes and try again." in r.text


def test_retry_after_is_the_wait_of_the_longest_full_window(monkeypatch) -> None:
    import time

    from admiral.web.deps import RateLimits

    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    limits = RateLimits("memory://", {"try": "2/minute;3/hour"})
    assert limits.retry_after("try", "a") == 0
    for at_second in (0, 10):
        now[0] = 1_000_000.0 + at_second
        assert limits.hit("try", "a")
    assert limits.retry_after("try", "a") == 50  # the minute is full until the first try leaves it
    now[0] = 1_000_000.0 + 100
    assert limits.hit("try", "a")  # the minute has room again; now the hour is full
    assert limits.retry_after("try", "a") == 3500 and limits.retry_after("try", "b") == 0


def test_an_ipv6_64_is_one_address_to_the_limits(client) -> None:
    """QA finding: every limit keyed the full address, and one IPv6 subscriber holds a /64 of them."""
    register(Person(client))
    net, other = "2001:db8:1:2", "2001:db8:1:3"
    codes = [at(client, f"{net}::{i}").submit("/login", login="nemo@example.org", password="wrong").status_code
             for i in range(1, 6)]  # fmt: skip
    assert codes == [400] * 5  # RATE_LOGIN_ACCOUNT_ADDRESS: 5 a minute for this account from one address…
    r = at(client, f"{net}:ffff:ffff:ffff:ffff").submit("/login", login="nemo@example.org", password=PASSWORD)
    assert r.status_code == 429  # …and the whole /64 is that address
    assert at(client, f"{other}::1").submit("/login", login="nemo@example.org", password=PASSWORD).status_code == 303
    codes = [at(client, f"{net}::{i}").submit("/login", login=f"n{i}@example.org", password="x").status_code
             for i in range(7, 12)]  # fmt: skip
    assert codes == [400] * 4 + [429]  # RATE_LOGIN: 10 a minute from the /64 (the refused one above counted)
    assert at(client, f"{other}::2").submit("/login", login="n@example.org", password="x").status_code == 400
    assert at(client, "127.0.0.1").submit("/login", login="n@example.org", password="x").status_code == 400
