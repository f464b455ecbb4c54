"""A finished «Морской бой» counts on the commander's profile (issue 17, docs/points.md): its points on the result,
per-game totals over several games, credited once, the leaderboard by game and the profile's block per game; and
migration 0010, which moved «Адмирал»'s careers into ``commander_games``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from admiral.games.battleship.rules import setup_from_text
from admiral.web.config import Settings

from .conftest import make_settings, snapshot, until
from .test_accounts import Person, register

#: Both seats set up this classic fleet (A2), so the script below depends only on who shoots first.
FLEET = setup_from_text("4:a1-a4 3:c1-c3 3:e1-e3 2:g1-g2 2:i1-i2 2:a6-a7 1:c6 1:e6 1:g6 1:i6")
#: The first shooter: two hits, a miss; the second: a miss; the first: two hits (the 4-decker sunk), a miss; the
#: second: two hits, a miss. Each side has begun two turns: the game counts.
OPENING = [("first", c) for c in ("a1", "a2", "j10")] + [("second", "j9")] + [
    ("first", c) for c in ("a3", "a4", "j8")
] + [("second", c) for c in ("a1", "a2", "j7")]  # fmt: skip
#: The first shooter's last turn: the 16 decks left.
FINISH = [("first", c) for c in "c1 c2 c3 e1 e2 e3 g1 g2 i1 i2 a6 a7 c6 e6 g6 i6".split()]
#: docs/points.md by hand. Sunk: the first, 22 shots, 20 hits, 2 decks lost: (50 + 30 + 20 × 18/20) × min(1, 1/2 +
#: 20/22) × min(1, 22/20) = 98; the second, 4 shots, 2 hits, 20 lost: (30 × 2/20) × min(1, 1/2 + 2/4) × 4/20 = 0.6 → 1.
SUNK_POINTS = {"first": 98, "second": 1}
#: The second resigns after the opening: the first, 6 shots, 4 hits, 2 lost: (50 + 30 × 4/20 + 20 × 18/20) ×
#: min(1, 1/2 + 4/6) × 6/20 = 22.2 → 22; the one who resigned: 0.
RESIGN_POINTS = {"first": 22, "second": 0}


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The test settings, a socket allowed more than 20 messages a second (a hit shoots again, as fast as the
    server answers)."""
    return make_settings(db_url, ws_max_rate=1000)


def commanders(client) -> tuple[Person, Person]:
    """Two registered commanders."""
    nemo, sinbad = Person(client), Person(client)
    register(nemo)
    register(sinbad, nickname="Синдбад", email="sinbad@example.org")
    return nemo, sinbad


def play(south: Person, north: Person, script: list[tuple[str, str]], *, resign: str | None = None) -> dict[str, Any]:
    """A classic «Морской бой» between ``south`` (creator) and ``north`` over the socket, both with :data:`FLEET`,
    shot by ``script`` (``(role, cell)``, role ``"first"``/``"second"`` shooter), then, if ``resign`` names a role,
    that side resigns. :returns: ``{"id", "roles": role → side, "credit": side → the last snapshot's game.credit}``."""
    game_id, invite = south.create(side="south", game="battleship", options={"rules": "classic"})
    north.join(invite)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        for ws in wss.values():
            snapshot(ws)
            ws.send_json({"type": "setup.ready", "setup": FLEET})
        snaps = {side: snapshot(ws, status="play") for side, ws in wss.items()}
        first = snaps["south"]["view"]["to_act"]
        roles = {"first": first, "second": "north" if first == "south" else "south"}
        for role, cell in script:
            side = roles[role]
            assert snaps[side]["view"]["to_act"] == side, (role, cell)
            version = snaps[side]["game"]["version"]
            wss[side].send_json({"type": "action", "ply": version, "action": cell})
            for s, ws in wss.items():
                snaps[s] = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)
        if resign is not None:
            wss[roles[resign]].send_json({"type": "resign"})
        credit = {
            side: until(ws, lambda m: m["type"] == "snapshot" and m["game"]["credit"] is not None)["game"]["credit"]
            for side, ws in wss.items()
        }
    return {"id": game_id, "roles": roles, "credit": credit}


def by_role(game: dict, points: dict[str, int]) -> dict[str, int]:
    """Side → points, from role → points."""
    return {game["roles"][role]: n for role, n in points.items()}


def test_a_finished_battleship_game_counts_on_both_profiles(client) -> None:
    nemo, sinbad = commanders(client)
    game = play(nemo, sinbad, OPENING + FINISH)
    want = by_role(game, SUNK_POINTS)
    winner = game["roles"]["first"]
    for side, credit in game["credit"].items():
        assert credit["game"] == "battleship" and credit["counted"] and credit["points"] == want[side]
        assert credit["total_points"] == want[side] and credit["rank"]["name"] == "Матрос" and credit["awards"] == []
    me = {"south": nemo.me(), "north": sinbad.me()}
    for side, got in me.items():
        won = side == winner
        assert got["points"] == want[side] and got["games_played"] == 1
        assert got["games"] == {
            "battleship": {"games": 1, "wins": int(won), "draws": 0, "losses": int(not won), "points": want[side]}
        }
    page = (nemo if winner == "south" else sinbad).get("/profile").text
    assert 'data-game="battleship"' in page and 'data-game="admiral"' not in page
    assert '<dd data-stat="battleship.points">98</dd>' in page
    assert '<dd data-stat="battleship.shots">22</dd>' in page and '<dd data-stat="battleship.hits">20</dd>' in page
    assert '<dd data-stat="battleship.accuracy">91 %</dd>' in page
    assert '<dd data-stat="battleship.sunk">10</dd>' in page
    assert '<dd data-stat="battleship.fastest_win">22 выстрела</dd>' in page
    assert '<dd data-stat="games_played">1</dd>' in page and "Морской бой" in page


def test_totals_accumulate_over_two_games(client) -> None:
    nemo, sinbad = commanders(client)
    games = [play(nemo, sinbad, OPENING + FINISH), play(nemo, sinbad, OPENING, resign="second")]
    points = [by_role(games[0], SUNK_POINTS), by_role(games[1], RESIGN_POINTS)]
    for person, side in ((nemo, "south"), (sinbad, "north")):
        wins = sum(g["roles"]["first"] == side for g in games)
        total = points[0][side] + points[1][side]
        assert games[1]["credit"][side]["total_points"] == total
        got = person.me()
        assert got["points"] == total and got["games_played"] == 2
        assert got["games"]["battleship"] == {"games": 2, "wins": wins, "draws": 0, "losses": 2 - wins, "points": total}
    # the first shooter of the first game: 22 shots, then 6 (first again) or 4 (second) in the second game
    first = games[0]["roles"]["first"]
    page = (nemo if first == "south" else sinbad).get("/profile").text
    shots = 22 + (6 if games[1]["roles"]["first"] == first else 4)
    assert f'<dd data-stat="battleship.shots">{shots}</dd>' in page
    assert '<dd data-stat="battleship.games">2</dd>' in page
    assert '<dd data-stat="battleship.fastest_win">22 выстрела</dd>' in page  # a win by resignation is no faster


def test_a_battleship_game_is_credited_exactly_once(client) -> None:
    nemo, sinbad = commanders(client)
    game = play(nemo, sinbad, OPENING + FINISH)
    service, store = client.app.state.service, client.app.state.accounts.store
    before = (nemo.me(), sinbad.me())
    g = service.get(game["id"])
    service._credit(g)  # crediting again (another end trigger, a reload) adds nothing
    key = store.by_email("nemo@example.org").key
    service.progress.credit(game["id"], g.rules, g.rules.game_stats(g.game), {"south": key, "north": None}, {})
    assert (nemo.me(), sinbad.me()) == before
    assert sorted(store.results(game["id"])) == ["north", "south"]


def test_an_aborted_battleship_game_gives_nothing(client) -> None:
    nemo, sinbad = commanders(client)
    game = play(nemo, sinbad, OPENING[:4], resign="second")  # the second shooter began one turn only
    for credit in game["credit"].values():
        assert not credit["counted"] and credit["points"] == 0
    assert nemo.me()["games"] == {} and nemo.me()["games_played"] == 0


def test_the_leaderboard_filters_by_game(client) -> None:
    nemo, sinbad = commanders(client)
    game = play(nemo, sinbad, OPENING + FINISH)
    winner = "Капитан Немо" if game["roles"]["first"] == "south" else "Синдбад"
    loser = "Синдбад" if winner == "Капитан Немо" else "Капитан Немо"
    guest = Person(client)
    everyone = guest.get("/leaders").text
    assert everyone.index(winner) < everyone.index(loser)
    assert 'aria-current="page">Все игры</a>' in everyone and 'href="/leaders?game=battleship"' in everyone
    battleship = guest.get("/leaders?game=battleship").text
    assert winner in battleship and loser in battleship and "<td>98</td>" in battleship
    assert 'class="current" aria-current="page">Морской бой</a>' in battleship
    admiral = guest.get("/leaders?game=admiral")
    assert admiral.status_code == 200 and winner not in admiral.text and loser not in admiral.text
    assert "ещё никто из зарегистрированных командиров" in admiral.text
    assert guest.get("/leaders?game=chess").status_code == 404
    assert guest.get("/leaders?game=battleship&page=2").status_code == 200


def test_migration_0010_moves_the_careers_and_downgrades(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from admiral.store import upgrade_database
    from admiral.store.db import MIGRATIONS_DIR

    upgrade_database(db_url, "0009")
    commanders_0009 = sa.table(
        "commanders", sa.column("id", sa.Integer()), sa.column("key", sa.String()), sa.column("career", sa.JSON()),
        sa.column("points", sa.Integer()), sa.column("created_at", sa.DateTime(timezone=True)),
    )  # fmt: skip
    career = {"version": 1, "points": 327, "games_played": 3, "games_won": 2, "games_drawn": 0, "games_lost": 1,
              "units_sunk": 30, "sunk_tonnes": 57_050}  # fmt: skip
    engine = sa.create_engine(db_url)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(sa.insert(commanders_0009), [
            {"id": 1, "key": "k1", "career": career, "points": 327, "created_at": now},
            {"id": 2, "key": "k2", "career": {}, "points": 0, "created_at": now},
        ])  # fmt: skip
        conn.execute(sa.text(  # a login of commander 1: rows that cascade from a commander must survive
            "INSERT INTO sessions (id_hash, commander_id, created_at, expires_at) VALUES ('s1', 1, :now, :now)"
        ), {"now": now})  # fmt: skip
    upgrade_database(db_url)
    with engine.connect() as conn:
        moved = sa.table(
            "commander_games", *(sa.column(c) for c in ("commander_id", "game", "games", "wins", "draws", "losses",
                                                        "points")), sa.column("career", sa.JSON()),
        )  # fmt: skip
        assert [tuple(r) for r in conn.execute(sa.select(moved))] == [(1, "admiral", 3, 2, 0, 1, 327, career)]
        assert "career" not in {c["name"] for c in sa.inspect(conn).get_columns("commanders")}
        assert conn.execute(sa.text("SELECT count(*) FROM sessions")).scalar() == 1
    config = Config(str(MIGRATIONS_DIR.parent / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes.update(database_url=db_url, configure_logger=False)
    command.downgrade(config, "0009")
    with engine.connect() as conn:
        got = dict(conn.execute(sa.select(commanders_0009.c.id, commanders_0009.c.career)).all())
        sessions = conn.execute(sa.text("SELECT count(*) FROM sessions")).scalar()
    engine.dispose()
    assert got == {1: career, 2: {}} and sessions == 1
