"""«Мои партии» (issue 19, PROGRESSION.md §4 "the commander's finished games, newest first, each with its opponent,
result, reason, length and a link to its replay"): the list on «Личное дело», on the public profile and on its own
pages ``/games`` and ``/c/{nickname}/games``: order, pagination bounds, the game filter, every kind of opponent, a
guest's own list, privacy, and a guest who registers keeps its history.

Most tests store finished games straight in the database (:func:`stored_game`: what the service writes at the end),
so the order and the bounds are exact; two play real games over the socket (a resignation, a game against the AI).
"""

from __future__ import annotations

import html
import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from admiral.games import GAMES
from admiral.games.admiral.rules.events import Reason as AdmiralReason
from admiral.games.battleship.rules.state import Reason as BattleshipReason
from admiral.service.history import PAGE_SIZE
from admiral.service.lobby import hash_token
from admiral.store.models import CommanderRow, GameResultRow, GameRow, GameSeatRow, RatedGameRow
from admiral.web.config import Settings

from .conftest import make_settings, snapshot, until
from .test_accounts import Person, register
from .test_progress import OPENING, play

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The test settings, a socket allowed many messages a second, bots answering at once."""
    return make_settings(db_url, ws_max_rate=1000, bot_delay_ms=0)


def key_of(client, p: Person) -> str:
    """The identity key of ``p``'s commander (a guest's: its browser's hash; a registered one's: its own)."""
    me = p.me()
    if not me["registered"]:
        return hash_token(p.token)
    with Session(client.app.state.engine) as s:
        return s.scalar(select(CommanderRow.key).where(CommanderRow.nickname == me["nickname"]))


_counter = iter(range(1, 10**6))


def stored_game(
    client, south: str | None, north: str | None, *, game: str = "admiral", status: str = "over",
    winner: str | None = "south", reason: str = "resignation", minutes: int = 0, ply: int = 12, rated: bool = False,
    points: dict[str, int] | None = None, changes: dict | None = None,
) -> str:  # fmt: skip
    """A game stored as the service leaves it at the end: seats held by ``south``/``north`` (keys, ``bot:N``),
    ``finished_at`` ``T0 + minutes``, the result, and ``game_results`` rows for the sides in ``points`` (the
    commander of that side's key; ``changes`` what the result screen showed). :returns: the game id."""
    game_id = f"h{next(_counter):07d}"
    with Session(client.app.state.engine) as s, s.begin():
        s.add(GameRow(
            id=game_id, invite_hash=hash_token(game_id), creator_hash=south or "x", game=game, status=status,
            settings={"game": game, "rated": rated}, finished_at=T0 + timedelta(minutes=minutes), ply=ply,
            result_winner=winner if status == "over" else None, result_reason=reason if status == "over" else None,
        ))  # fmt: skip
        s.flush()
        s.add_all([GameSeatRow(game_id=game_id, side="south", browser_hash=south),
                   GameSeatRow(game_id=game_id, side="north", browser_hash=north)])  # fmt: skip
        if rated:  # the rating moved (PROGRESSION.md §4): the exactly-once row the credit writes
            s.add(
                RatedGameRow(
                    game_id=game_id,
                    changes={
                        "south": {"before": 1500, "after": 1512, "delta": 12},
                        "north": {"before": 1500, "after": 1488, "delta": -12},
                    },
                )
            )
        for side, n in (points or {}).items():
            holder = south if side == "south" else north
            cid = s.scalar(select(CommanderRow.id).where(CommanderRow.key == holder))
            s.add(GameResultRow(game_id=game_id, side=side, commander_id=cid, points=n, changes=changes or {}))
    return game_id


def listed(page: str) -> list[str]:
    """The game ids of a page's history lines, in order."""
    return re.findall(r'class="history-item [a-z]+" data-game-id="([^"]+)"', page)


def item(page: str, game_id: str) -> str:
    """The text of one history line (tags removed, spaces collapsed)."""
    m = re.search(rf'data-game-id="{game_id}"[^>]*>(.*?)</li>', page, re.S)
    assert m, game_id
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(1))).split())


def guest(client) -> tuple[Person, str]:
    """A guest browser that has been seen (its commander row exists) and its key."""
    p = Person(client)
    assert p.get("/profile").status_code == 200
    return p, hash_token(p.token)


def test_every_end_reason_of_every_game_has_words() -> None:
    # PROGRESSION.md §4 "reason": each game names its own ends (no table in generic code)
    assert set(GAMES["admiral"].info.end_reasons) == {r.value for r in AdmiralReason}
    assert set(GAMES["battleship"].info.end_reasons) == {r.value for r in BattleshipReason}


def test_own_list_newest_first_with_result_reason_plies_points_and_replay(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    me, other = key_of(client, nemo), key_of(client, sinbad)
    won = stored_game(client, me, other, minutes=1, reason="bases", ply=88, rated=True, points={"south": 230})
    lost = stored_game(client, other, me, minutes=3, winner="south", reason="flag", ply=41, points={"north": 12})
    drawn = stored_game(client, me, other, minutes=2, winner=None, reason="agreement", ply=60, points={"south": 30})
    sunk = stored_game(client, other, me, game="battleship", minutes=4, winner="north", reason="fleet_sunk", ply=37)
    page = nemo.get("/games").text
    assert listed(page) == [sunk, lost, drawn, won]  # newest end first
    assert item(page, won) == (
        "Победа соперник: Синдбад Адмирал обе базы уничтожены 88 полуходов 1 нояб. 2026 г. рейтинг +12 +230 очков "
        "Запись партии"
    )
    assert item(page, lost).startswith("Поражение соперник: Синдбад Адмирал время вышло 41 полуход")
    assert "без рейтинга +12 очков" in item(page, lost)
    assert item(page, drawn).startswith("Ничья соперник: Синдбад Адмирал по соглашению 60 полуходов")
    assert item(page, sunk).startswith("Победа соперник: Синдбад Морской бой флот потоплен 37 полуходов")
    assert "без очков" in item(page, sunk)  # no game_results row: nothing credited
    assert f'href="/g/{won}"' in page and 'href="/c/%D0%A1%D0%B8%D0%BD%D0%B4%D0%B1%D0%B0%D0%B4"' in page
    # the other side of the same games, on the other's list
    theirs = sinbad.get("/games").text
    assert listed(theirs) == [sunk, lost, drawn, won]
    assert item(theirs, won).startswith("Поражение соперник: Капитан Немо")
    assert "рейтинг -12" in item(theirs, won)
    assert item(theirs, sunk).startswith("Поражение соперник: Капитан Немо Морской бой флот потоплен")
    short = stored_game(client, me, other, minutes=5, ply=3, points={"south": 0}, changes={"counted": False})
    # PROGRESSION.md §2: ended before each side made two turns, "aborted" for the profile: said so, not «+0»
    assert item(nemo.get("/games").text, short).endswith("без рейтинга не засчитана Запись партии")


def test_the_date_is_in_the_viewers_language(client) -> None:
    p, me = guest(client)
    game_id = stored_game(client, me, None, winner="south", reason="abandonment")
    assert "1 нояб. 2026 г." in item(p.get("/games").text, game_id)
    english = p.get("/games", headers={"cookie": f"admiral_browser={p.token}; admiral_lang=en"}).text
    assert '<time datetime="2026-11-01T12:00:00+00:00">Nov 1, 2026</time>' in english
    assert (
        item(english, game_id)
        == "Win opponent: none Admiral left the game 12 plies Nov 1, 2026 casual no points Game record"
    )


def test_aborted_and_unfinished_games_are_not_listed(client) -> None:
    p, me = guest(client)
    over = stored_game(client, me, "bot:2")
    for status in ("aborted", "waiting", "setup", "play"):
        stored_game(client, me, "bot:2", status=status, minutes=5)
    assert listed(p.get("/games").text) == [over]
    assert listed(p.get("/profile").text) == [over]


def test_opponents_of_each_kind(client) -> None:
    p, me = guest(client)
    _friend, friend_key = guest(client)
    nemo = Person(client)
    register(nemo)
    vs_guest = stored_game(client, me, friend_key, minutes=1)
    vs_ai = stored_game(client, "bot:3", me, game="battleship", minutes=2, winner="north", reason="fleet_sunk")
    vs_admiral_ai = stored_game(client, me, "bot:5", minutes=3, winner="north", reason="bases")
    vs_commander = stored_game(client, me, key_of(client, nemo), minutes=4)
    vs_nobody = stored_game(client, me, None, minutes=5, reason="abandonment")
    page = p.get("/games").text
    assert item(page, vs_guest).startswith("Победа соперник: Гость Адмирал")
    level3 = GAMES["battleship"].info.levels[3]
    assert item(page, vs_ai).startswith(f"Победа соперник: ИИ: 3. {level3} Морской бой флот потоплен")
    level5 = GAMES["admiral"].info.levels[5]
    assert item(page, vs_admiral_ai).startswith(f"Поражение соперник: ИИ: 5. {level5} Адмирал обе базы уничтожены")
    assert item(page, vs_commander).startswith("Победа соперник: Капитан Немо")
    assert item(page, vs_nobody).startswith("Победа соперник: нет")
    assert 'href="/c/%D0%9A%D0%B0%D0%BF%D0%B8%D1%82%D0%B0%D0%BD%20%D0%9D%D0%B5%D0%BC%D0%BE"' in page
    assert "/c/" not in item(page, vs_guest)  # a guest has no public page to link to


def test_pagination_bounds(client) -> None:
    p, me = guest(client)
    ids = [stored_game(client, me, "bot:1", minutes=i) for i in range(PAGE_SIZE + 5)]
    newest_first = ids[::-1]
    first = p.get("/games").text
    assert listed(first) == newest_first[:PAGE_SIZE]
    assert 'rel="next" href="/games?page=2"' in first and 'rel="prev"' not in first
    second = p.get("/games?page=2").text
    assert listed(second) == newest_first[PAGE_SIZE:]
    assert 'rel="prev" href="/games"' in second and 'rel="next"' not in second
    for beyond in ("3", "10000", "10001", str(10**30)):  # out of range: an empty page with the way back, no 500
        r = p.get(f"/games?page={beyond}")
        assert r.status_code == 200 and listed(r.text) == [], beyond
        assert "На этой странице партий нет." in r.text and '<a href="/games">К первой странице</a>' in r.text
        assert "Страница " not in r.text and 'rel="prev"' not in r.text  # QA: no «Страница 10001», no dead link
    for low in ("0", "-3"):
        assert listed(p.get(f"/games?page={low}").text) == newest_first[:PAGE_SIZE]
    r = p.get("/games?page=abc")
    assert r.status_code == 400 and "Неверный адрес страницы." in r.text
    assert listed(p.get("/profile").text) == newest_first[:10]
    assert '<a href="/games">Все партии →</a>' in p.get("/profile").text


def test_filter_by_game_with_tabs(client) -> None:
    p, me = guest(client)
    a = stored_game(client, me, "bot:1", minutes=1)
    b = stored_game(client, me, "bot:1", game="battleship", minutes=2, reason="fleet_sunk")
    assert listed(p.get("/games").text) == [b, a]
    only = p.get("/games?game=battleship").text
    assert listed(only) == [b]
    assert 'href="/games?game=battleship" data-game="battleship" class="current" aria-current="page"' in only
    assert '<span class="history-game">' not in only  # one game: its name is the tab's
    assert listed(p.get("/games?game=admiral").text) == [a]
    r = p.get("/games?game=chess")
    assert r.status_code == 404 and "Такой игры на сайте нет." in r.text
    empty = Person(client).get("/games?game=battleship").text
    assert listed(empty) == [] and "Оконченных партий в «Морской бой» пока нет." in empty


def test_a_guests_own_page_says_its_games_live_in_this_browser(client) -> None:
    p, me = guest(client)
    game_id = stored_game(client, me, "bot:1")
    profile = p.get("/profile").text
    assert listed(profile) == [game_id] and "Партии гостя хранятся только в этом браузере." in profile
    games = p.get("/games").text
    assert listed(games) == [game_id] and "эти партии хранятся только в этом браузере" in games
    assert 'href="/games" class="my-games" aria-current="page">Мои партии</a>' in games  # the top bar
    assert 'href="/games" class="my-games">Мои партии</a>' in profile


def test_privacy(client) -> None:
    p, me = guest(client)
    nemo = Person(client)
    register(nemo)
    nemo_key = key_of(client, nemo)
    with_guest = stored_game(client, me, nemo_key, minutes=1)
    in_play = stored_game(client, nemo_key, "bot:1", status="play", minutes=2)
    stranger = Person(client)
    # a stranger sees a registered commander's finished games, on the public profile and its full list
    public = stranger.get("/c/Капитан Немо").text
    assert listed(public) == [with_guest] and item(public, with_guest).startswith("Поражение соперник: Гость")
    full = stranger.get("/c/капитан немо/games")
    assert full.status_code == 200 and listed(full.text) == [with_guest]
    assert "Партии командира Капитан Немо" in full.text
    assert in_play not in public and in_play not in full.text  # nothing of a game in play
    # nobody but the guest sees the guest's games: the stranger's own list is its own (empty), no public page
    assert listed(stranger.get("/games").text) == []
    assert listed(stranger.get("/profile").text) == []
    assert stranger.get("/c/Гость/games").status_code == 404
    assert listed(p.get("/games").text) == [with_guest]


def test_a_guest_who_registers_keeps_its_history(client) -> None:
    p, me = guest(client)
    game_id = stored_game(client, me, "bot:2", points={"south": 40})
    register(p, nickname="Новичок", email="new@example.org")
    page = p.get("/games").text
    assert listed(page) == [game_id] and "+40 очков" in item(page, game_id)
    assert listed(Person(client).get("/c/Новичок/games").text) == [game_id]


def test_one_query_per_page(client) -> None:
    # no query per game: the opponent, its nickname and the points are joined
    _p, me = guest(client)
    friends = [guest(client)[1] for _ in range(3)]
    for i in range(12):
        stored_game(client, me, friends[i % 3] if i % 2 else f"bot:{1 + i % 5}", minutes=i)
    history = client.app.state.history
    engine = client.app.state.engine
    statements: list[str] = []
    me_thread = threading.get_ident()

    def count(conn, cursor, statement, *args) -> None:
        if threading.get_ident() == me_thread:  # not the sweeper's (CI: its expiry UPDATE fell in the window)
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        page = history.page(me, page=1)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(page.items) == 12 and len(statements) == 1
    assert {i.opponent for i in page.items} == {"guest", "ai"}


def test_real_games_end_up_in_both_histories(client) -> None:
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    game = play(nemo, sinbad, OPENING, resign="second")  # PROGRESSION.md §2: the one who resigned gets 0
    loser = game["roles"]["second"]
    lines = {side: item(p.get("/games").text, game["id"]) for side, p in (("south", nemo), ("north", sinbad))}
    winner = "north" if loser == "south" else "south"
    assert lines[winner].startswith("Победа соперник:") and " сдача 11 полуходов " in lines[winner]
    assert lines[loser].startswith("Поражение соперник:") and "без рейтинга +0 очков" in lines[loser]
    assert "+22 очка" in lines[winner]


def test_a_game_against_the_ai_is_listed(client) -> None:
    p = Person(client)
    r = p.post("/games", json={"side": "south", "game": "battleship", "opponent": "ai", "ai_level": 1})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    with p.ws(game_id) as ws:
        snapshot(ws)
        ws.send_json({"type": "setup.auto", "setup": {}})
        draft = until(ws, lambda m: m["type"] == "setup.state")["draft"]
        ws.send_json({"type": "setup.ready", "setup": draft})
        snapshot(ws, status="play")
        ws.send_json({"type": "resign"})
        snapshot(ws, status="over")
    line = item(p.get("/games").text, game_id)
    assert line.startswith(f"Поражение соперник: ИИ: 1. {GAMES['battleship'].info.levels[1]} Морской бой сдача")


def test_a_game_against_oneself_is_one_line(client) -> None:
    # one browser held both seats (an unrated game, PROGRESSION.md §2): listed once, as South played it
    p, me = guest(client)
    game_id = stored_game(client, me, me, winner="north", reason="resignation")
    page = p.get("/games").text
    assert listed(page) == [game_id] and item(page, game_id).startswith("Поражение соперник: Гость")
