"""English as a second language (issue 7): the switch and its cookie, pages, errors, socket messages, mail and
the browser's catalog in the chosen language; Russian by default."""

from __future__ import annotations

import email
import email.header
import re
import time
from pathlib import Path

import pytest

from admiral import i18n
from admiral.web import Settings

from .conftest import Browser, error, make_settings, snapshot, until


class Reader(Browser):
    """A browser with a language cookie (``None``: never chose one)."""

    def __init__(self, client, lang: str | None = None) -> None:
        super().__init__(client)
        self.lang = lang

    @property
    def headers(self) -> dict[str, str]:
        cookie = f"admiral_browser={self.token}"
        if self.lang:
            cookie += f"; {i18n.COOKIE}={self.lang}"
        return {"cookie": cookie}


def text_of(html: str) -> str:
    """The visible text of a page, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def mail_dir(tmp_path: Path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def settings(db_url: str, mail_dir: Path) -> Settings:
    return make_settings(db_url, mail_backend="file", mail_dir=mail_dir, public_url="http://admiral.test")


# -- the default and the switch ------------------------------------------------------------------------


def test_russian_is_the_default_whatever_the_browser_prefers(client) -> None:
    r = Reader(client).get("/", headers={"accept-language": "en-US,en;q=0.9"})
    assert r.status_code == 200
    assert '<html lang="ru">' in r.text
    assert "Играть с другом" in r.text and "Play a friend" not in r.text
    assert 'src="/i18n/ru.js?v=' in r.text


def test_the_switch_sets_a_cookie_for_a_year_and_returns_to_the_page(client) -> None:
    b = Reader(client)
    r = b.post("/lang", data={"lang": "en", "next": "/leaders?page=2"})
    assert r.status_code == 303
    assert r.headers["location"] == "/leaders?page=2"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("admiral_lang=en;")
    assert "Max-Age=31536000" in cookie and "Path=/" in cookie and "SameSite=lax" in cookie
    assert "HttpOnly" in cookie


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "leaders", ""])
def test_the_switch_returns_only_to_a_page_of_this_site(client, target: str) -> None:
    r = Reader(client).post("/lang", data={"lang": "en", "next": target})
    assert r.status_code == 303 and r.headers["location"] == "/"


def test_the_switch_refuses_a_form_without_its_token_or_an_unknown_language(client) -> None:
    b = Reader(client)
    r = b.post("/lang", data={"lang": "en", "next": "/"}, csrf=False)
    assert r.status_code == 403 and "set-cookie" not in r.headers
    r = b.post("/lang", data={"lang": "de", "next": "/"})
    assert r.status_code == 400 and "set-cookie" not in r.headers


def test_every_page_has_the_switch_pointing_back_to_it(client) -> None:
    b = Reader(client)
    for url in ("/", "/leaders", "/login", "/register", "/recover", "/feedback", "/profile", "/nowhere"):
        html = b.get(url).text
        assert 'action="/lang"' in html, url
        assert f'name="next" value="{url}"' in html, url
        assert 'value="ru"' in html and 'value="en"' in html, url
        assert f'value="{b.csrf}"' in html, url


def test_after_a_form_the_switch_returns_to_the_forms_page(client) -> None:
    b = Reader(client)
    data = {"email": "a@example.org", "nickname": "Nemo", "password": "x" * 9, "password2": "y" * 9}
    r = b.post("/register", data=data, headers={"referer": "http://testserver/register?from=home"})
    assert r.status_code == 400 and 'name="next" value="/register?from=home"' in r.text
    r = b.post("/register", data=data, headers={"referer": "https://evil.example/register"})
    assert 'name="next" value="/"' in r.text


def test_the_current_language_is_marked_and_disabled_in_the_switch(client) -> None:
    html = Reader(client, "en").get("/").text
    en = re.search(r'<button[^>]*value="en"[^>]*>', html).group(0)
    ru = re.search(r'<button[^>]*value="ru"[^>]*>', html).group(0)
    assert 'aria-current="true"' in en and "disabled" in en
    assert "aria-current" not in ru and "disabled" not in ru


# -- pages and HTTP errors ------------------------------------------------------------------------------


def test_pages_render_in_english(client) -> None:
    b = Reader(client, "en")
    home = b.get("/").text
    assert '<html lang="en">' in home and 'src="/i18n/en.js?v=' in home
    text = text_of(home)
    for phrase in ("Play a friend", "Play the AI", "Time control", "South (moves first)", "1. Cabin Boy",
                   "5. Admiral-Grade", "Start the game", "Feedback", "Log in"):  # fmt: skip
        assert phrase in text, phrase
    assert not re.search(r"[А-Яа-яЁё]", text.replace("Русский", "")), re.findall(r"\S*[А-Яа-яЁё]+\S*", text)[:10]
    profile = text_of(b.get("/profile").text)
    assert "Service record" in profile and "Seaman · 0 points" in profile
    assert "200 points to the rank of Senior Seaman." in profile
    assert "Torpedo Attack Medal" in profile and "Veteran Badge" in profile
    assert "Commanders’ leaderboard" in text_of(b.get("/leaders").text)
    assert "Forgot your password?" in text_of(b.get("/login").text)


def test_profile_counts_points_with_russian_plurals_and_english_ones() -> None:
    # one form for 1, 21; another for 2–4, 22; a third for 5–20, 0 (rules of Russian); English: 1 and the rest
    forms = {n: i18n.ngettext("%(num)s очко", "%(num)s очков", n) for n in (0, 1, 2, 5, 11, 21, 22)}
    assert forms == {0: "0 очков", 1: "1 очко", 2: "2 очка", 5: "5 очков", 11: "11 очков", 21: "21 очко",
                     22: "22 очка"}  # fmt: skip
    with i18n.use("en"):
        assert [i18n.ngettext("%(num)s очко", "%(num)s очков", n) for n in (0, 1, 2)] == ["0 points", "1 point",
                                                                                          "2 points"]  # fmt: skip


def test_errors_of_forms_and_pages_are_in_english(client) -> None:
    b = Reader(client, "en")
    r = b.post("/register", data={"email": "a@example.org", "nickname": "Nemo", "password": "x" * 9,
                                   "password2": "y" * 9})  # fmt: skip
    assert r.status_code == 400 and "The passwords do not match." in r.text
    r = b.post("/register", data={"email": "a@example.org", "nickname": "Nemo", "password": "short",
                                   "password2": "short"})  # fmt: skip
    assert r.status_code == 400 and "Password: at least 8 characters." in r.text
    r = b.get("/no/such/page")
    assert r.status_code == 404 and "Page not found." in r.text and "Not found" in r.text
    r = b.get("/g/nosuchgame")
    assert r.status_code == 404 and "Game not found." in r.text
    r = b.get("/api/games/nosuchgame/replay")
    assert r.status_code == 404 and r.json()["error"]["message"] == "Game not found."
    r = b.post("/lang", data={"lang": "en"}, csrf=False)
    assert "The form has expired or came from another site. Reload the page." in r.text
    r = Reader(client).get("/api/games/nosuchgame/replay")
    assert r.json()["error"]["message"] == "Партия не найдена."


def test_a_refused_cross_site_request_answers_in_the_browsers_language(client) -> None:
    r = Reader(client, "en").post("/games", json={}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["message"] == "A request from another site was refused."


def test_the_recovery_mail_is_in_the_language_of_the_request(client, mail_dir: Path) -> None:
    b = Reader(client, "en")
    data = {"email": "nemo@example.org", "nickname": "Nemo", "password": "Броненосец-1905"}
    assert b.post("/register", data={**data, "password2": data["password"]}).status_code == 303
    b.post("/recover", data={"email": "nemo@example.org"})
    for _ in range(100):
        files = sorted(mail_dir.glob("*.eml")) if mail_dir.exists() else []
        if files:
            break
        time.sleep(0.05)
    msg = email.message_from_bytes(files[0].read_bytes())
    subject = str(email.header.make_header(email.header.decode_header(msg["Subject"])))
    body = msg.get_payload(decode=True).decode()
    assert subject == "“Admiral”: password recovery"
    assert body.startswith("Hello, Nemo!") and "http://admiral.test/reset/" in body


# -- the socket -------------------------------------------------------------------------------------------


def test_socket_errors_follow_each_players_language(client) -> None:
    south, north = Reader(client, "en"), Reader(client)
    game_id, invite = south.create(side="south")
    north.join(invite)
    with south.ws(game_id) as ws_en, north.ws(game_id) as ws_ru:
        snapshot(ws_en)
        snapshot(ws_ru)
        for ws in (ws_en, ws_ru):
            ws.send_text('{"type": "warp"}')
        assert error(ws_en)["message"] == "Unknown message type."
        assert error(ws_ru)["message"] == "Неизвестный тип сообщения."
        # a rejected «Готов»: the reason and the setup problems it lists are in English
        ws_en.send_json({"type": "setup.ready", "setup": {"a1": "VMB"}})
        e = error(ws_en)
        assert e["code"] == "invalid_setup" and e["message"].startswith("The setup is invalid: ")
        assert "Too few: Battleship (rules §2)." in e["message"]
        # an illegal action in play: the engine's reason too
        for ws in (ws_en, ws_ru):
            ws.send_json({"type": "setup.auto", "setup": {}})
            state = until(ws, lambda m: m["type"] == "setup.state" and len(m["draft"]) == 58)
            ws.send_json({"type": "setup.ready", "setup": state["draft"]})
        play = snapshot(ws_en, status="play")
        ws_en.send_json({"type": "action", "ply": play["view"]["ply"], "action": "e4~e5"})
        assert error(ws_en)["message"] == "The move could not be read."
        ws_ru.send_json({"type": "action", "ply": play["view"]["ply"], "action": "e4~e5"})
        assert error(ws_ru)["message"] == "Не удалось прочитать ход."


# -- the browser's catalog --------------------------------------------------------------------------------


def test_the_catalog_script_gives_the_client_its_language(client) -> None:
    b = Reader(client, "en")
    version = re.search(r"/i18n/en\.js\?v=(\w+)", b.get("/").text).group(1)
    r = b.get(f"/i18n/en.js?v={version}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert 'window.ADMIRAL_LANG = "en";' in r.text
    assert '"Остановиться здесь": "Stop here"' in r.text
    assert '"unit\\u0004КР": "CR"' in r.text  # a message with a context: context \x04 msgid
    assert '"Начальная расстановка ({n} полуход)": ["Starting setup ({n} ply)", "Starting setup ({n} plies)"]' in r.text
    assert "window.ADMIRAL_PLURAL = function (n) { return Number((n != 1)); };" in r.text
    assert b.get("/i18n/en.js").headers["cache-control"] == "no-cache"  # no or an old version: ask again
    ru = b.get("/i18n/ru.js").text
    assert '"%(num)s очко": ["%(num)s очко", "%(num)s очка", "%(num)s очков"]' in ru
    assert "Stop here" not in ru
    assert b.get("/i18n/de.js").status_code == 404
