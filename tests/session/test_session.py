"""The session tier (issue 17): the one action path — lock → check → apply to a copy → store → swap in →
publish — and the timers, driven without the web app over the toy game (:mod:`.toy`)."""

from __future__ import annotations

import asyncio
import gc
import json
import threading

import orjson
import pytest

from admiral.i18n import use
from admiral.service import GameService, GameSettings, ServiceError, snapshot

from .conftest import NORTH, SOUTH, FakeTime
from .toy import TARGET

pytestmark = pytest.mark.anyio


async def _ready(session: GameService, g, *sides: str) -> None:
    from admiral.service.messages import parse_client_message

    for side in sides or ("south", "north"):
        await session.handle(g, side, parse_client_message('{"type": "setup.ready", "setup": {"a1": "F"}}'))


def _state(g) -> tuple:
    """What a change must leave alone when it fails: the game handle, its ply and total, turns, the offer,
    the clocks."""
    clock = None if g.clock is None else (dict(g.clock.remaining), g.clock.running, g.clock.started_mono)
    return (g.game, g.rules.ply(g.game), g.game.total, dict(g.turns), g.draw_offer, g.status, clock)


async def test_a_game_is_played_to_its_end_and_reads_back_from_the_store(session, friend_game, store) -> None:
    g = await friend_game()
    assert g.status == "setup"
    await _ready(session, g)
    assert g.status == "play" and g.rules.to_act(g.game) == "south"
    side = "south"
    while g.status == "play":
        await session.submit(g, side, g.rules.ply(g.game), "+2" if g.game.total + 2 <= TARGET else "+1")
        side = "north" if side == "south" else "south"
    assert g.game.total == TARGET and g.result == {"winner": "north", "reason": "target"}  # 10 plies of +2
    fresh = GameService(store, session.bus, session.rulesets, session.options, now=session.now)
    again = fresh.get(g.id)
    assert (again.status, again.game.total, again.result, again.turns) == ("over", TARGET, g.result, g.turns)


async def test_a_failed_write_changes_nothing_and_the_move_can_be_sent_again(session, friend_game, store) -> None:
    g = await friend_game(base_ms=60_000)
    await _ready(session, g)
    before = _state(g)
    store.fail("append_actions")
    with pytest.raises(ServiceError) as refused:
        await session.submit(g, "south", 0, "+2")
    assert refused.value.code == "unavailable"
    assert _state(g) == before  # the same game object: nothing was applied in place, nothing replayed
    assert store.calls.count("load_game") == 0
    await session.submit(g, "south", 0, "+2")
    assert (g.rules.ply(g.game), g.game.total, g.clock.running) == (1, 2, "north")


@pytest.mark.parametrize(
    ("side", "ply", "action", "code"),
    [
        ("north", 0, "+1", "not_your_turn"),
        ("south", 1, "+1", "stale_ply"),
        ("south", 0, "+3", "illegal_action"),
        ("south", 0, "", "illegal_action"),
    ],
)
async def test_a_refused_action_writes_nothing(session, friend_game, store, side, ply, action, code) -> None:
    g = await friend_game()
    await _ready(session, g)
    before, writes = _state(g), store.calls.count("append_actions")
    with pytest.raises(ServiceError) as refused:
        await session.submit(g, side, ply, action)
    assert refused.value.code == code
    assert _state(g) == before and store.calls.count("append_actions") == writes


async def test_nobody_sees_a_move_before_it_is_stored(session, friend_game, store, monkeypatch) -> None:
    g = await friend_game()
    await _ready(session, g)
    session.db_threads = True  # the write runs in a thread, as on PostgreSQL: the event loop serves meanwhile
    entered, release = threading.Event(), threading.Event()
    write = store.append_actions

    def slow_write(*args, **kwargs):
        entered.set()
        release.wait(5)
        return write(*args, **kwargs)

    monkeypatch.setattr(store, "append_actions", slow_write)
    move = asyncio.create_task(session.submit(g, "south", 0, "+2"))
    while not entered.is_set():
        await asyncio.sleep(0.001)
    shown = session.snapshot(g, "north")
    assert shown["game"]["version"] == 0 and shown["view"]["total"] == 0
    release.set()
    await move
    assert session.snapshot(g, "north")["view"]["total"] == 2


async def test_a_socket_gets_each_audiences_view_encoded_once_per_version(session, friend_game) -> None:
    g = await friend_game()
    await _ready(session, g)
    wire = session.snapshot(g, "south", wire=True)
    assert session.snapshot(g, "south", wire=True)["view"] is wire["view"]  # the same bytes for every socket
    assert session.snapshot(g, "north", wire=True)["view"] is not wire["view"]
    assert orjson.loads(orjson.dumps(wire))["view"] == session.snapshot(g, "south")["view"]
    assert sorted(who for serial, who in snapshot._encoded if serial == g.serial) == ["north", "south"]
    await session.submit(g, "south", 0, "+2")
    again = session.snapshot(g, "south", wire=True)
    moved = orjson.loads(orjson.dumps(again))
    assert moved["view"]["total"] == 2 and moved["game"]["version"] == 1 and again["view"] is not wire["view"]
    # the same version shown otherwise (an abort, a reload): the views are built again
    g.drop_views()
    assert session.snapshot(g, "south", wire=True)["view"] is not again["view"]


async def test_the_encoded_views_are_bounded_across_games(session, friend_game, monkeypatch) -> None:
    """Issue 23: the process keeps the newest :data:`snapshot.VIEW_CACHE_ENTRIES` encoded views, not every open
    game's: an idle game's bytes are forgotten, and built again when it is shown."""
    monkeypatch.setattr(snapshot, "VIEW_CACHE_ENTRIES", 3)
    snapshot._encoded.clear()  # what earlier tests of this process left
    games = [await friend_game() for _ in range(3)]
    for g in games:
        await _ready(session, g)
    first = session.snapshot(games[0], "south", wire=True)["view"]
    for g in games[1:]:
        session.snapshot(g, "south", wire=True)
        session.snapshot(g, "north", wire=True)
    assert len(snapshot._encoded) == 3 and (games[0].serial, "south") not in snapshot._encoded
    rebuilt = session.snapshot(games[0], "south", wire=True)["view"]
    assert rebuilt is not first and bytes(orjson.dumps(rebuilt)) == bytes(orjson.dumps(first))


async def test_a_view_is_built_without_a_garbage_collection(session, friend_game, monkeypatch) -> None:
    """Issue 23: a view's objects live only until it is encoded; a collection in the middle moved them, alive, into
    older generations (the extended «Морской бой»: 352 full collections in three minutes at 2,000 games). None runs
    while one is built, and the collector is as it was after: on, or off when it was off."""
    g = await friend_game()
    await _ready(session, g)
    starts: list[int] = []
    during: list[int] = []
    build = snapshot.view

    def counted(game, side):  # the game's view function, counting the collections that start while it runs
        before = len(starts)
        found = build(game, side)
        during.append(len(starts) - before)
        return found

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            starts.append(info["generation"])

    monkeypatch.setattr(snapshot, "view", counted)
    threshold = gc.get_threshold()
    gc.callbacks.append(count)
    gc.set_threshold(1)  # every allocation of a tracked object would start one
    try:
        for side in ("south", "north", None):
            g.drop_views()
            assert snapshot.encoded_view(g, side) is not None
        on = gc.isenabled()
        gc.disable()
        g.drop_views()
        snapshot.encoded_view(g, "south")
        off = not gc.isenabled()
    finally:
        gc.enable()
        gc.set_threshold(*threshold)
        gc.callbacks.remove(count)
    assert during == [0, 0, 0, 0] and on and off


async def test_a_seat_sees_its_own_flag_only(session, friend_game) -> None:
    g = await friend_game()
    await _ready(session, g)
    assert session.snapshot(g, "south")["view"]["flags"] == {"south": {"a1": "F"}, "north": None}
    assert session.snapshot(g, None)["view"]["flags"] == {"south": None, "north": None}


async def test_the_flag_falls_on_the_fake_clock(session, friend_game, now: FakeTime) -> None:
    g = await friend_game(base_ms=60_000, increment_ms=2_000)
    await _ready(session, g)
    now.advance(10)
    await session.submit(g, "south", 0, "+1")
    assert g.clock.remaining == {"south": 52_000, "north": 60_000}  # 60 − 10 + 2 s increment
    now.advance(59.9)
    await session.sweep()
    assert g.status == "play"
    now.advance(0.2)
    await session.sweep()
    assert (g.status, g.result) == ("over", {"winner": "south", "reason": "flag"})


async def test_the_setup_deadline_completes_the_fleets(session, friend_game, now: FakeTime) -> None:
    g = await friend_game(setup_ms=30_000)
    await _ready(session, g, "south")
    now.advance(31)
    await session.sweep()
    assert g.status == "play" and g.seats["north"].ready and len(g.seats["north"].draft) == 1


async def test_a_start_of_play_whose_write_failed_is_finished_by_the_sweeper(session, friend_game, store) -> None:
    g = await friend_game()
    await _ready(session, g, "south")
    store.fail("update_game")
    with pytest.raises(ServiceError) as refused:
        await _ready(session, g, "north")
    assert refused.value.code == "unavailable"
    assert g.status == "setup" and g.game is None and g.seats["north"].ready  # the seat is stored ready
    await session.sweep()
    assert g.status == "play" and g.game is not None


async def test_a_draw_offer_whose_write_failed_is_not_offered(session, friend_game, store) -> None:
    g = await friend_game()
    await _ready(session, g)
    store.fail("update_game")
    with pytest.raises(ServiceError):
        await session.offer_draw(g, "south")
    assert g.draw_offer is None
    await session.offer_draw(g, "south")
    await session.accept_draw(g, "north")
    assert g.result == {"winner": None, "reason": "agreement"}


async def test_a_bot_answers_through_the_same_path(session) -> None:
    game_id, code = await session.create_game(SOUTH, GameSettings(game="toy", side="south", ai_level=1))
    g = session.games[game_id]
    assert code is None and g.seats["north"].ready and g.seats["north"].draft == {"a2": "F"}
    await _ready(session, g, "south")
    await session.submit(g, "south", 0, "+1")
    for _ in range(200):
        if g.rules.ply(g.game) == 2:
            break
        await asyncio.sleep(0.01)
    assert g.game.actions == ["+1", "+1"]  # (20 − 1) mod 3 = 1: the counter takes one


async def test_a_second_claim_of_the_invite_is_a_spectator(session) -> None:
    game_id, code = await session.create_game(SOUTH, GameSettings(game="toy", side="south"))
    assert await session.claim(code, NORTH) == game_id
    assert await session.claim(code, "c" * 64) == game_id
    g = session.games[game_id]
    assert session.role(g, "c" * 64) == "spectator" and session.role(g, NORTH) == "north"


@pytest.mark.parametrize("ending", ["resign", "abort"])
async def test_prefs_after_the_end_are_refused_and_change_nothing(session, friend_game, store, ending) -> None:
    from admiral.service.messages import parse_client_message

    def prefs(on: bool) -> object:
        return parse_client_message(f'{{"type": "prefs", "auto_declare": {str(on).lower()}}}')

    g = await friend_game()
    await _ready(session, g)
    await session.handle(g, "south", prefs(True))  # in play: taken
    assert g.seats["south"].auto_declare is True
    await session.handle(g, "north", parse_client_message(f'{{"type": "{ending}"}}'))
    assert g.status == ("over" if ending == "resign" else "aborted")
    writes = store.calls.count("update_seat")
    for on in (False, True):
        with pytest.raises(ServiceError) as refused:
            await session.handle(g, "south", prefs(on))
        assert refused.value.code == "game_over"
        assert refused.value.message == "Партия окончена: настройки этой партии больше не меняются."
    with use("en"), pytest.raises(ServiceError) as refused:
        await session.handle(g, "north", prefs(True))
    assert refused.value.message == "The game is over: its settings can no longer be changed."
    assert g.seats["south"].auto_declare is True and g.seats["north"].auto_declare is False
    assert store.calls.count("update_seat") == writes  # nothing stored
    fresh = GameService(store, session.bus, session.rulesets, session.options, now=session.now)
    assert fresh.get(g.id).seats["south"].auto_declare is True


async def test_the_invalid_setup_summary_says_how_many_problems_it_leaves_out(session, friend_game) -> None:
    from admiral.service.messages import parse_client_message

    g = await friend_game()

    async def refusal(setup: dict[str, str]) -> ServiceError:
        msg = parse_client_message(json.dumps({"type": "setup.ready", "setup": setup}))
        with pytest.raises(ServiceError) as refused:
            await session.handle(g, "south", msg)
        assert refused.value.code == "invalid_setup"
        return refused.value

    seven = await refusal({c: "F" for c in ("b1", "b2", "b3", "c1", "c2", "c3")})  # 6 bad cells, and one flag
    assert len(seven.detail["problems"]) == 7
    assert seven.message == (
        "Расстановка неверна: no flag can stand on b1 no flag can stand on b2 no flag can stand on b3 … и ещё 4."
    )
    with use("en"):
        assert (await refusal({c: "F" for c in ("b1", "b2", "b3", "c1")})).message == (
            "The setup is invalid: no flag can stand on b1 no flag can stand on b2 no flag can stand on b3 "
            "… and 2 more."
        )
    three = await refusal({"b1": "F", "b2": "F"})  # 2 bad cells, and one flag: all shown
    assert three.message == "Расстановка неверна: no flag can stand on b1 no flag can stand on b2 exactly one flag"
    assert not g.seats["south"].ready


async def test_moves_of_one_loop_turn_share_one_transaction(session, friend_game, store) -> None:
    # issue 23, group commit: the moves made in one turn of the event loop are stored by one transaction
    games = [await friend_game() for _ in range(3)]
    for g in games:
        await _ready(session, g)
    store.calls.clear()
    await asyncio.gather(*(session.submit(g, "south", 0, "+2") for g in games))
    assert store.calls.count("append_actions_many") == 1 and "append_actions" not in store.calls
    for g in games:
        assert (g.rules.ply(g.game), g.game.total) == (1, 2)
        stored = store.load_game(g.id)
        assert [(a.ply, a.notation, a.side) for a in stored.actions] == [(0, "+2", "south")]
        assert stored.game.ply == 1 and store.known[g.id] == stored.game.revision


async def test_a_duplicate_ply_in_a_group_commit_refuses_only_its_own_move(session, friend_game, store) -> None:
    # Another writer (an instance sharing the database) stored game B's ply 0 first: B's move is refused as stale
    # and B catches up with the stored move; A's move, made in the same turn of the loop, is stored all the same.
    a, b = await friend_game(), await friend_game()
    await _ready(session, a)
    await _ready(session, b)
    store.append_actions(b.id, [(0, "+1", "south")], ply=1)
    store.calls.clear()
    outcomes = await asyncio.gather(
        session.submit(a, "south", 0, "+2"), session.submit(b, "south", 0, "+2"), return_exceptions=True
    )
    assert outcomes[0] is None
    assert isinstance(outcomes[1], ServiceError) and outcomes[1].code == "stale_ply"
    # one shared transaction, rolled back by B's duplicate; then each move in its own
    assert store.calls[:3] == ["append_actions_many", "append_actions", "append_actions"]
    assert [(x.ply, x.notation) for x in store.load_game(a.id).actions] == [(0, "+2")]
    assert [(x.ply, x.notation) for x in store.load_game(b.id).actions] == [(0, "+1")]
    assert (a.game.total, b.game.total, b.rules.ply(b.game)) == (2, 1, 1)
    await session.submit(b, "north", 1, "+2")  # B plays on from the stored game
    assert b.game.total == 3


async def test_a_failed_group_commit_fails_each_move_whole(session, friend_game, store) -> None:
    # The database went away for the whole turn: both moves are refused as unavailable, neither is shown, and
    # both go through when sent again.
    a, b = await friend_game(), await friend_game()
    await _ready(session, a)
    await _ready(session, b)
    before = (_state(a), _state(b))
    store.fail("append_actions_many")
    store.fail("append_actions", times=2)
    outcomes = await asyncio.gather(
        session.submit(a, "south", 0, "+2"), session.submit(b, "south", 0, "+2"), return_exceptions=True
    )
    assert [getattr(o, "code", o) for o in outcomes] == ["unavailable", "unavailable"]
    assert (_state(a), _state(b)) == before
    await asyncio.gather(session.submit(a, "south", 0, "+2"), session.submit(b, "south", 0, "+2"))
    assert (a.game.total, b.game.total) == (2, 2)
