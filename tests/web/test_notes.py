"""Notes on enemy markers (issue 7): a player's own guesses, following their markers, private, stored.

The server keeps a seat's notes as the cells of the noted markers at one version and follows them to the
present through that seat's own view (``AdmiralRuleset.follow_notes``); snapshots carry them as ``notes``.
"""

from __future__ import annotations

import random
import time

from admiral.games.admiral import AdmiralRuleset
from admiral.games.admiral.rules import Game, Side, auto_arrange, cell_name

from .conftest import Browser, error, live_game, observe, running, snapshot, start_game, until


def _setups(seed: int) -> dict[str, dict[str, str]]:
    return {
        side.label: {cell_name(c): k.code for c, k in auto_arrange(side, random.Random(seed + i)).items()}
        for i, side in enumerate(Side)
    }


def _note(ws, ply: int, cell: str, note: str | None) -> None:
    ws.send_json({"type": "note", "ply": ply, "cell": cell, "note": note})


def _notes_snapshot(ws, notes: dict | None = None) -> dict:
    """The next snapshot (after a note was set, the seat's sockets get one with the new notes); with ``notes``, the
    next one showing them (a snapshot of the same version may come first: a presence change, a resync)."""
    return until(ws, lambda m: m["type"] == "snapshot" and (notes is None or m["notes"] == notes))


def _north_step(live) -> tuple[str, str, str]:
    """A plain step North may make now (its mover is a marker South sees): its notation, source and destination."""
    move = next(a for a in live.snaps["north"]["view"]["legal"] if a["type"] == "move")
    return move["notation"], move["src"], move["dst"]


def test_a_note_follows_its_marker_and_only_its_owner_sees_it(browsers) -> None:
    with live_game(browsers, setups=_setups(3)) as live:
        assert live.snaps["south"]["notes"] == {} and live.snaps["north"]["notes"] == {}
        live.act("south")
        move, src, dst = _north_step(live)
        _note(live.sws, 1, src, "KR")
        # a snapshot of the same version may come first (a presence change): wait for the one carrying the note
        snap = _notes_snapshot(live.sws, {src: "KR"})
        assert snap["notes"] == {src: "KR"} and snap["game"]["version"] == 1
        # the opponent's socket gets nothing for it: its next message is the answer to its own ping
        live.nws.send_json({"type": "ping"})
        assert live.nws.receive_json() == {"type": "pong"}

        live.act("north", move)
        assert live.snaps["south"]["notes"] == {dst: "KR"}  # the note went along with the marker
        assert live.snaps["north"]["notes"] == {}  # North's own (empty) notes, never South's

        spectator = browsers()
        watched = observe(spectator, live.id)
        assert watched["game"]["seat"] is None and watched["notes"] is None

        # a new tab (a reload) of South gets the notes where the marker is now
        assert observe(live.south, live.id)["notes"] == {dst: "KR"}
        # a note made on what the player saw one version ago lands on that marker where it is now
        _note(live.sws, 1, src, "L")
        assert _notes_snapshot(live.sws, {dst: "L"})["notes"] == {dst: "L"}
        _note(live.sws, 2, dst, "KR")
        assert _notes_snapshot(live.sws, {dst: "KR"})["notes"] == {dst: "KR"}

        # one more note, then the first one removed
        other = next(c for c in live.snaps["south"]["view"]["units"] if c["kind"] is None and c["cell"] != dst)
        version = live.snaps["south"]["game"]["version"]
        _note(live.sws, version, other["cell"], "strong")
        both = {dst: "KR", other["cell"]: "strong"}
        assert _notes_snapshot(live.sws, both)["notes"] == both
        _note(live.sws, version, dst, None)
        assert _notes_snapshot(live.sws, {other["cell"]: "strong"})["notes"] == {other["cell"]: "strong"}


def test_the_opponent_gets_no_snapshot_for_notes_even_beside_a_resync_tick(browsers, monkeypatch) -> None:
    """CI (two instances on Redis): North's socket answered a tick batched with South's notes event by a snapshot.
    Ticks every 20 ms make that batch likely; North must still get nothing for fifteen notes, made ten a second (the
    socket's flood limit is 20), while it ticks about seventy times (the in-process bus has no ticks: there the check
    is the one above)."""
    from admiral.web.routes import ws

    monkeypatch.setattr(ws, "RESYNC_S", 0.02)
    with live_game(browsers, setups=_setups(3)) as live:
        live.act("south")
        _move, src, _dst = _north_step(live)
        for i in range(15):
            note = "KR" if i % 2 == 0 else None
            _note(live.sws, 1, src, note)
            _notes_snapshot(live.sws, {src: "KR"} if note else {})
            time.sleep(0.1)
        live.nws.send_json({"type": "ping"})
        assert live.nws.receive_json() == {"type": "pong"}


def test_a_seats_notes_are_read_once_and_off_the_event_loop(client, browsers, monkeypatch) -> None:
    """Issue 23: the first read of a seat's notes ran on the event loop inside the snapshot. They are read once
    per seat before its first snapshot, in a database thread where the store has them (PostgreSQL: SQLite's
    calls run inline), and not again for a move or a note."""
    import threading

    store = client.app.state.service.store
    real = store.load_notes
    reads: list[tuple[str, str]] = []

    def spy(game_id: str, side: str):
        reads.append((side, threading.current_thread().name))
        return real(game_id, side)

    monkeypatch.setattr(store, "load_notes", spy)
    with live_game(browsers, setups=_setups(3)) as live:
        live.act("south")
        _move, src, _dst = _north_step(live)
        _note(live.sws, 1, src, "KR")
        _notes_snapshot(live.sws, {src: "KR"})
        live.act("north")
    assert sorted(side for side, _ in reads) == ["north", "south"]
    if client.app.state.service.db_threads:
        assert all(name.startswith("admiral-db") for _, name in reads), reads


def test_notes_survive_a_restart_and_follow_moves_made_meanwhile(settings) -> None:
    with running(settings) as client:
        with live_game(lambda: Browser(client), setups=_setups(5)) as live:
            live.act("south")
            move, src, dst = _north_step(live)
            _note(live.sws, 1, src, "?")
            assert _notes_snapshot(live.sws, {src: "?"})["notes"] == {src: "?"}
            game_id, south_token, north_token = live.id, live.south.token, live.north.token
    with running(settings) as client:
        south, north = Browser(client, south_token), Browser(client, north_token)
        with north.ws(game_id) as nws:
            snap = snapshot(nws, status="play")
            nws.send_json({"type": "action", "ply": snap["game"]["version"], "action": move})
            snapshot(nws, version=2)
        assert observe(south, game_id)["notes"] == {dst: "?"}


def test_a_note_disappears_with_its_destroyed_marker(browsers) -> None:
    with live_game(browsers, setups=_setups(21)) as live:

        def attack() -> dict | None:
            view = live.snaps["south"]["view"]
            legal = view["legal"] if view["to_act"] == "south" and view["pending"] is None else []
            return next((a for a in legal if a["type"] == "attack" and a["via"] is None), None)

        kept = destroyed = 0
        for _ in range(200):
            action = attack()
            if action is None:
                live.act(live.snaps["south"]["view"]["to_act"])
                if live.snaps["south"]["game"]["status"] != "play":
                    break
                continue
            # South notes the marker it is about to attack, then attacks it
            target = action["target"]
            version = live.snaps["south"]["game"]["version"]
            _note(live.sws, version, target, "weak")
            noted = until(live.sws, lambda m, t=target: m["type"] == "snapshot" and (m["notes"] or {}).get(t) == "weak")
            assert noted["notes"][target] == "weak" and noted["game"]["version"] == version
            live.act("south", action["notation"])
            while live.snaps["south"]["view"]["pending"] is not None:  # North declares its defence
                live.act("north")
            if live.snaps["south"]["game"]["status"] != "play":
                break
            report = live.snaps["south"]["view"]["reports"][-1]
            notes = live.snaps["south"]["notes"]
            markers = {u["cell"] for u in live.snaps["south"]["view"]["units"] if u["kind"] is None}
            assert set(notes) <= markers
            if any(s["side"] == "north" and s["cell"] == target for s in report["removed"]):
                assert target not in notes
                destroyed += 1
                break
            assert notes[target] == "weak"  # the attack was beaten off: the marker and its note stay
            kept += 1
        assert destroyed == 1, f"no noted marker was destroyed ({kept} survived)"


def test_bad_notes_are_refused_and_change_nothing(browsers) -> None:
    game_id, south, _north = start_game(browsers)
    with south.ws(game_id) as ws:
        snapshot(ws)
        _note(ws, 0, "e11", "KR")
        assert error(ws)["code"] == "not_started"
    with live_game(browsers, setups=_setups(7)) as live:
        own = next(u["cell"] for u in live.snaps["south"]["view"]["units"] if u["side"] == "south")
        marker = next(u["cell"] for u in live.snaps["south"]["view"]["units"] if u["kind"] is None)
        _note(live.sws, 0, marker, "L")
        assert _notes_snapshot(live.sws, {marker: "L"})["notes"] == {marker: "L"}
        cases = [
            ({"ply": 0, "cell": own, "note": "L"}, "not_a_marker"),  # own unit
            ({"ply": 0, "cell": "g8", "note": "L"}, "not_a_marker"),  # open sea
            ({"ply": 0, "cell": "z99", "note": "L"}, "not_a_marker"),
            ({"ply": 0, "cell": marker, "note": "XX"}, "bad_note"),
            ({"ply": 0, "cell": marker, "note": "<b>"}, "bad_note"),
            ({"ply": 3, "cell": marker, "note": "KR"}, "stale_ply"),
            ({"ply": 0, "cell": marker, "note": "x" * 9}, "bad_message"),
            ({"ply": 0, "cell": marker * 10, "note": "L"}, "bad_message"),
            ({"ply": "0", "cell": marker, "note": "L"}, "bad_message"),
            ({"ply": 0, "cell": marker, "note": "L", "extra": 1}, "bad_message"),
        ]
        for body, code in cases:
            live.sws.send_json({"type": "note", **body})
            assert error(live.sws)["code"] == code, body
        assert observe(live.south, live.id)["notes"] == {marker: "L"}

        spectator = browsers()
        with spectator.ws(live.id) as ws:
            snapshot(ws)
            _note(ws, 0, marker, "KR")
            assert error(ws)["code"] == "not_a_player"
        # the opponent cannot touch South's notes: its own notes are its own
        north_marker = next(u["cell"] for u in live.snaps["north"]["view"]["units"] if u["kind"] is None)
        _note(live.nws, 0, north_marker, "?")
        assert _notes_snapshot(live.nws, {north_marker: "?"})["notes"] == {north_marker: "?"}
        assert observe(live.south, live.id)["notes"] == {marker: "L"}

        live.sws.send_json({"type": "resign"})
        over = snapshot(live.sws, status="over")
        assert over["notes"] is None
        _note(live.sws, over["game"]["version"], marker, "KR")
        assert error(live.sws)["code"] == "game_over"


def test_follow_notes_uses_only_the_seat_s_view() -> None:
    rules = AdmiralRuleset()
    setups = _setups(11)
    game = Game(setups["south"], setups["north"], {})
    markers = rules.enemy_markers(game, "south")
    assert markers == set(setups["north"])  # South sees every North unit as a marker, and nothing else
    assert rules.enemy_markers(game, "north") == set(setups["south"])

    def step(side: str) -> tuple[str, str]:
        legal = [str(a) for a in game.view(Side.parse(side)).legal]
        move = next(a for a in legal if "x" not in a and "-" in a)
        rules.apply(game, move)
        src, dst = move.split("-")
        return src, dst

    step("south")
    src, dst = step("north")
    notes = {src: "TK", next(iter(sorted(markers - {src}))): "?"}
    followed = rules.follow_notes(game, "south", notes, 1)
    assert followed[dst] == "TK" and src not in followed and len(followed) == 2
    assert rules.follow_notes(game, "south", notes, 2) == {c: n for c, n in notes.items() if c != src}
    # a note on a cell that holds no enemy marker (an own unit, the open sea) is dropped
    own = next(iter(setups["south"]))
    assert rules.follow_notes(game, "south", {own: "L", "g8": "L"}, 2) == {}
    # a note left on the cell the marker stepped onto (it was empty then) does not stick to the newcomer
    assert rules.follow_notes(game, "south", {dst: "L"}, 1) == {}
    assert "weak" in rules.note_values() and "KRPL" in rules.note_values() and "" not in rules.note_values()
