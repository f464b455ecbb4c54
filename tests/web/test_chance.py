"""Fair chance made visible (BATTLESHIP.md D13), for every game of the registry whose rules draw at random: both
seats see the seed's SHA-256 commitment from the start, no message a client gets before the end (snapshots of the
seats and of a spectator, the record, the replay) carries the seed, every end reveals it, and the replay's draws
check out against it — in Python and with the browser's own code (``static/js/core/chance.js`` under Node)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from admiral.games import GAMES

from .conftest import RawDb, observe, snapshot, start_game, until

CHANCE_GAMES = sorted(key for key, r in GAMES.items() if r.info.chance)
CHANCE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "core" / "chance.js"


def _draw(seed: bytes, k: int, n: int) -> int:
    """D13's draw, written out again here so that the test does not trust the engine's own function."""
    import hmac

    counter = 0
    while True:
        message = f"{k}" if counter == 0 else f"{k}.{counter}"
        for byte in hmac.new(seed, message.encode(), hashlib.sha256).digest():
            if byte < 252:
                return byte % n
        counter += 1


class Recorder:
    """Every message one socket received, as text."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.texts = ws, []

    def receive_json(self) -> dict:
        msg = self.ws.receive_json()
        self.texts.append(json.dumps(msg))
        return msg

    def send_json(self, msg: dict) -> None:
        self.ws.send_json(msg)


def _secret_forms(db_url: str, game_id: str) -> list[str]:
    """The seed a game draws from as a client could see it: the integer and its 32 bytes in hex — the stored game
    seed, or the one fixed when play started (``games.start_settings``, capability ``start_settings``)."""
    db = RawDb(db_url)
    try:
        row = db.execute("SELECT seed, start_settings FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        db.close()
    start = row["start_settings"]
    start = (json.loads(start) if isinstance(start, str) else start) or {}
    seed = int(start.get("seed", row["seed"]))
    return [str(seed), (seed % (1 << 256)).to_bytes(32, "big").hex()]


def _shot(legal: list[dict]) -> str:
    """A plain shot among the legal actions (the first listed)."""
    return next(a["notation"] for a in legal if a.get("type") == "shot")


def _to_play(wss: dict[str, Any], game: str) -> dict[str, dict]:
    """Both seats' first snapshots in play: after auto-arranging and readying both fleets, or at once for a game
    whose start is fixed (nothing to arrange)."""
    if "fixed_start" not in GAMES[game].info.capabilities:
        for ws in wss.values():
            ws.send_json({"type": "setup.auto", "setup": {}})
            state = until(ws, lambda m: m["type"] == "setup.state")
            assert state["problems"] == []
            ws.send_json({"type": "setup.ready", "setup": state["draft"]})
    return {side: snapshot(ws, status="play") for side, ws in wss.items()}


#: Orders that make the die roll in «Военно-морская игра» (NAVAL_GAME.md §5): South lays a mine at a1 and steps
#: off it, its torpedo boat at b1 turns toward it and enters the mined point; North turns a ship meanwhile.
NAVAL_ROLL = (("south", "+a1 a1-a2"), ("north", "a13>"), ("south", "b1<"), ("north", "a13<"), ("south", "b1-a1"))


def _first_draw(wss: dict[str, Any], snaps: dict[str, dict], game: str) -> None:
    """Play until the game has drawn at random once: a shot (the first shooter was drawn at the start), or the
    orders of :data:`NAVAL_ROLL`."""
    plan = NAVAL_ROLL if game == "naval" else ((snaps["south"]["view"]["to_act"], None),)
    for side, action in plan:
        version = snaps[side]["game"]["version"]
        wss[side].send_json({"type": "action", "ply": version, "action": action or _shot(snaps[side]["view"]["legal"])})
        for s, ws in wss.items():
            snaps[s] = until(ws, lambda m, v=version: m["type"] == "snapshot" and m["game"]["version"] > v)


def _node_check(chance: dict) -> dict:
    script = (
        f"import {{ checkDraws }} from {json.dumps(CHANCE_JS.as_uri())};\n"
        f"console.log(JSON.stringify(await checkDraws({json.dumps(chance)})));\n"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_the_seed_is_committed_at_the_start_and_shown_only_at_the_end(browsers, db_url: str, game: str) -> None:
    # rules D13: the commitment from the start, the seed at every end (a resignation here), never before
    game_id, south, north = start_game(browsers, game=game)
    watcher = browsers()
    with south.ws(game_id) as s_raw, north.ws(game_id) as n_raw:
        wss = {"south": Recorder(s_raw), "north": Recorder(n_raw)}
        snaps = _to_play(wss, game)
        secrets_ = _secret_forms(db_url, game_id)
        commitment = snaps["south"]["view"]["chance"]["commitment"]
        assert commitment == hashlib.sha256(bytes.fromhex(secrets_[1])).hexdigest()
        assert snaps["north"]["view"]["chance"] == {"commitment": commitment, "seed": None}
        _first_draw(wss, snaps, game)
        with watcher.ws(game_id) as w_raw:
            spectator = Recorder(w_raw)
            seen = snapshot(spectator)
            assert seen["view"]["chance"] == {"commitment": commitment, "seed": None}
        # the record, the replay and the export of a game in progress are refused: nothing of them reaches anyone
        for url in (f"/api/games/{game_id}/record.json", f"/api/games/{game_id}/replay"):
            r = south.get(url)
            assert r.status_code == 409
            assert not any(s in r.text for s in secrets_)
        before = [*wss["south"].texts, *wss["north"].texts, *spectator.texts]
        assert len(before) >= 6
        assert not [t for t in before if any(s in t for s in secrets_)]
        wss["north"].send_json({"type": "resign"})
        ends = {s: snapshot(ws, status="over") for s, ws in wss.items()}
    for end in ends.values():
        assert end["view"]["chance"] == {"commitment": commitment, "seed": secrets_[1]}
    replay = south.get(f"/api/games/{game_id}/replay").json()
    chance = replay["chance"]
    assert chance["seed"] == secrets_[1] and chance["commitment"] == commitment
    seed = bytes.fromhex(chance["seed"])
    assert chance["draws"][0]["k"] == 0 and chance["draws"]
    if "first" in replay:  # «Морской бой»: the first shooter is draw 0 (D13)
        assert chance["draws"][0]["what"].startswith("first")
        assert chance["draws"][0]["value"] == ("south", "north").index(replay["first"])
    else:  # «Военно-морская игра»: the torpedo boat entering the mined point (§5)
        assert chance["draws"][0]["n"] == 6 and chance["draws"][0]["point"] == "a1"
    assert [d["k"] for d in chance["draws"]] == list(range(len(chance["draws"])))
    for d in chance["draws"]:
        assert 0 <= d["value"] < d["n"] and _draw(seed, d["k"], d["n"]) == d["value"]
    record = south.get(f"/api/games/{game_id}/record.json").json()
    assert record["settings"]["seed"] == int(secrets_[0])


@pytest.mark.skipif(shutil.which("node") is None, reason="Node runs the browser's check")
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_the_browser_checks_every_draw_against_the_seed(browsers, game: str) -> None:
    # rules D13: the replay page's check (WebCrypto HMAC-SHA256) agrees with the server's draws and finds a forgery
    game_id, south, north = start_game(browsers, game=game)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        _first_draw(wss, _to_play(wss, game), game)
        sws.send_json({"type": "resign"})
        snapshot(sws, status="over")
    chance = south.get(f"/api/games/{game_id}/replay").json()["chance"]
    assert _node_check(chance) == {"ok": True, "count": len(chance["draws"]), "bad": None}
    forged = {**chance, "draws": [{**d, "value": (d["value"] + 1) % d["n"]} for d in chance["draws"]]}
    got = _node_check(forged)
    assert got["ok"] is False and got["bad"]["k"] == 0
    # a draw left out between two others (k 0, then k 2): the order is checked too (QA)
    last = chance["draws"][-1]
    skipped = {**chance, "draws": [*chance["draws"], {**last, "k": last["k"] + 2}]}
    assert _node_check(skipped)["bad"]["k"] == last["k"] + 2
    other = {**chance, "seed": "00" * 32}
    assert _node_check(other) == {"ok": False, "count": len(chance["draws"]), "bad": "commitment"}


@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_an_abort_after_the_start_shows_the_seed_too(browsers, db_url: str, game: str) -> None:
    # rules D13: the seed is shown at every end — an abort in the first moves (QA F6) as well as a resignation
    game_id, south, north = start_game(browsers, game=game)
    with south.ws(game_id) as sws, north.ws(game_id) as nws:
        wss = {"south": sws, "north": nws}
        snaps = _to_play(wss, game)
        seed = _secret_forms(db_url, game_id)[1]
        commitment = snaps["south"]["view"]["chance"]["commitment"]
        assert snaps["south"]["view"]["chance"]["seed"] is None
        sws.send_json({"type": "abort"})
        ends = {side: snapshot(ws, status="aborted") for side, ws in wss.items()}
    for end in ends.values():
        assert end["view"]["chance"] == {"commitment": commitment, "seed": seed}
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    assert observe(browsers(), game_id)["view"]["chance"]["seed"] == seed  # a spectator opening it afterwards too
