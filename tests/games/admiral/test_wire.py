"""«Адмирал» on the wire (issue 17): the view's legal actions as structured values and the game's manifest, both
computed from the engine (rules §1–§3, §5–§8, §10).

The view's ``legal`` is what the client draws and chooses from; each entry's ``notation`` is the exact string the
server takes back. The manifest's tables are the engine's constants and behaviour, never a copy that could drift.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from admiral.games import GAMES
from admiral.games.admiral.manifest import ROLES, tables
from admiral.games.admiral.rules import (
    CARRIER,
    COLUMNS_RU,
    FLEET_SIZE,
    FRONT_ROW,
    QUIET_LIMIT,
    SCALE,
    ZONE,
    Action,
    Attack,
    Declare,
    Detonate,
    Game,
    GameState,
    Kind,
    Move,
    Side,
    apply,
    cell_name,
    legal_actions,
    parse_cell,
    scale_row,
    view,
)
from admiral.games.admiral.rules.view import action_to_dict

SOUTH, NORTH = Side.SOUTH, Side.NORTH
TYPES = {Move: "move", Attack: "attack", Declare: "declare", Detonate: "detonate"}


def legal_of(state: GameState, side: Side) -> list[dict]:
    return view(state, side).to_dict()["legal"]


class TestLegalShapes:
    """Each kind of action with every field, on small positions (rules §5–§8)."""

    def test_a_move(self) -> None:
        # rules §5.1: one step onto an empty cell along a row or column
        state = GameState.from_text("KRe4 / STa15", SOUTH)
        assert legal_of(state, SOUTH) == [
            {"type": "move", "src": "e4", "dst": d, "notation": f"e4-{d}"} for d in ("e5", "f4", "e3", "d4")
        ]

    def test_attacks_alone_in_formation_and_after_a_step(self) -> None:
        # rules §6, §7.1.3: two cruisers side by side; the enemy destroyer above e5
        state = GameState.from_text("KRe4 KRd5 / ESe6", SOUTH)
        attacks = {a["notation"]: a for a in legal_of(state, SOUTH) if a["type"] == "attack"}
        assert attacks["e4-e5xe6"] == {
            "type": "attack", "src": "e4", "via": "e5", "target": "e6", "formation": ["e5"], "kinds": ["KR"],
            "row": 7, "notation": "e4-e5xe6",
        }  # fmt: skip
        # after the step e4-e5 the cruiser stands beside d5: a formation of two cruisers, row 18
        assert attacks["e4-e5xe6 [d5+e5]"] == {
            "type": "attack", "src": "e4", "via": "e5", "target": "e6", "formation": ["d5", "e5"],
            "kinds": ["KR", "KR"], "row": 18, "notation": "e4-e5xe6 [d5+e5]",
        }  # fmt: skip
        # d5 reaches e6 from d6 (alone: nobody beside it there) or from e5 (beside e4)
        assert set(attacks) == {"e4-e5xe6", "e4-e5xe6 [d5+e5]", "d5-d6xe6", "d5-e5xe6", "d5-e5xe6 [e4+e5]"}
        assert attacks["d5-d6xe6"]["formation"] == ["d6"] and attacks["d5-d6xe6"]["via"] == "d6"
        assert attacks["d5-e5xe6 [e4+e5]"]["formation"] == ["e4", "e5"] and attacks["d5-e5xe6 [e4+e5]"]["row"] == 18

    def test_an_air_strike_is_out_of_scale(self) -> None:
        # rules §6: the aircraft strikes 1–4 cells along a row or column with its carrier 8-adjacent
        state = GameState.from_text("Sg8 Af7 / STg11", SOUTH)
        strike = next(a for a in legal_of(state, SOUTH) if a["type"] == "attack" and a["via"] is None)
        assert strike == {
            "type": "attack", "src": "g8", "via": None, "target": "g11", "formation": ["g8"], "kinds": ["S"],
            "row": None, "notation": "g8xg11",
        }  # fmt: skip

    def test_the_defenders_declarations(self) -> None:
        # rules §7.1.2: a cruiser attacked beside another declares alone or with it
        state = GameState.from_text("KRe5 / KRe6 KRf6", SOUTH)
        apply(state, Action.parse("e5xe6"))
        assert state.pending is not None
        assert legal_of(state, NORTH) == [
            {"type": "declare", "target": "e6", "formation": ["e6"], "kinds": ["KR"], "row": 7, "notation": "[e6]"},
            {
                "type": "declare", "target": "e6", "formation": ["e6", "f6"], "kinds": ["KR", "KR"], "row": 18,
                "notation": "[e6+f6]",
            },
        ]  # fmt: skip
        assert legal_of(state, SOUTH) == [] and view(state, "spectator").to_dict()["legal"] == []

    def test_the_detonation_names_the_bomb_and_its_square(self) -> None:
        # rules §8: the 5×5 square around the bomb, cut at the board's edge
        state = GameState.from_text("ABb2 / STa15", SOUTH)
        boom = next(a for a in legal_of(state, SOUTH) if a["type"] == "detonate")
        square = [f"{col}{row}" for col in "abcd" for row in range(1, 5)]
        assert boom == {"type": "detonate", "cell": "b2", "blast": square, "notation": "АБ!"}

    def test_an_action_no_view_lists_is_refused(self) -> None:
        with pytest.raises(TypeError):
            action_to_dict(Action.parse("resign south"), {})
        with pytest.raises(KeyError):
            action_to_dict(Detonate(), {parse_cell("a1"): Kind.L})


def _check(state: GameState) -> int:
    """Every listed action of the side to act against the engine's own list: same order, its notation parses to
    the very action and applies, its fields are the action's cells and the acting side's own kinds."""
    side = state.to_act
    own = state.units(side)
    engine = legal_actions(state)
    wire = legal_of(state, side)
    assert [a["notation"] for a in wire] == [str(a) for a in engine]
    for entry, action in zip(wire, engine, strict=True):
        assert Action.parse(entry["notation"]) == action
        assert entry["type"] == TYPES[type(action)]
        if isinstance(action, Move):
            assert (entry["src"], entry["dst"]) == (cell_name(action.src), cell_name(action.dst))
        if isinstance(action, Attack):
            members = action.formation or (action.origin,)
            kinds = [own[action.src] if c == action.via else own[c] for c in members]
            assert entry["formation"] == [cell_name(c) for c in members]
            assert entry["kinds"] == [k.code for k in kinds] and entry["row"] == scale_row(kinds)
            assert entry["target"] == cell_name(action.target)
        if isinstance(action, Declare):
            assert entry["target"] == cell_name(state.pending.target)
            assert entry["row"] == scale_row(own[c] for c in action.formation)
        twin = state.copy()
        apply(twin, Action.parse(entry["notation"]))
        assert twin.ply == state.ply + 1
    return len(wire)


@pytest.mark.parametrize("seed", range(4))
def test_every_listed_action_of_random_games_parses_and_applies(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new_random(rng)
    checked = 0
    while game.state.to_act is not None and game.ply < 160:
        if game.ply % 5 == 0 or game.state.pending is not None:
            checked += _check(game.state)
        game.apply(rng.choice(legal_actions(game.state)))
    assert checked > 100


class TestManifest:
    """The manifest's tables are the engine's (rules §1–§3, §5–§8, §10)."""

    manifest = GAMES["admiral"].manifest()

    def test_json_ready_and_deterministic(self) -> None:
        text = json.dumps(self.manifest, sort_keys=True, ensure_ascii=False)
        assert json.loads(text) == self.manifest
        assert json.dumps(GAMES["admiral"].manifest(), sort_keys=True, ensure_ascii=False) == text

    def test_board(self) -> None:
        board = self.manifest["board"]
        assert (board["width"], board["height"], board["columns"]) == (14, 15, "abcdefghijklmn")
        assert board["columns_ru"] == "АБВГДЕЖЗИКЛМНО" == "".join(COLUMNS_RU)
        for side in Side:
            assert board["zones"][side.label] == [cell_name(c) for c in sorted(ZONE[side])]
            assert board["front_rows"][side.label] == [cell_name(c) for c in sorted(FRONT_ROW[side])]
        # rules §1: rows 1–5 and 11–15, front rows 5 and 11
        assert len(board["zones"]["south"]) == 70 and board["zones"]["north"][0] == "a11"
        assert board["front_rows"]["south"] == [f"{col}5" for col in "abcdefghijklmn"]

    def test_units_are_the_engines_kinds(self) -> None:
        units = self.manifest["units"]
        assert [u["code"] for u in units] == [k.code for k in Kind]
        for u, k in zip(units, Kind, strict=True):
            assert (u["ru"], u["name"], u["count"], u["strength"], u["tonnage"]) == (
                k.ru, k.ru_name, k.count, k.strength, k.tonnage,
            )  # fmt: skip
            assert u["moves"] is k.is_mobile and u["rated"] is k.is_rated and u["ship"] is k.is_ship
            assert u["carrier"] == (CARRIER[k].code if k in CARRIER else None)
            assert set(u["roles"]) <= set(ROLES)
        assert sum(u["count"] for u in units) == self.manifest["fleet_size"] == FLEET_SIZE == 58

    def test_units_as_the_rules_describe_them(self) -> None:
        by = {u["code"]: u for u in self.manifest["units"]}
        # rules §2: counts and single strengths
        assert (by["L"]["count"], by["L"]["strength"], by["KR"]["count"], by["VMB"]["count"]) == (2, 15, 6, 2)
        assert by["A"]["strength"] is None and by["A"]["name"] == "Авианосец" and by["KRPL"]["ru"] == "КРПЛ"
        # rules §5: SM and VMB never move; S, T, M are tethered to A, TK, ES
        assert [c for c, u in by.items() if not u["moves"]] == ["SM", "VMB"]
        assert {c: u["carrier"] for c, u in by.items() if u["carrier"]} == {"S": "A", "T": "TK", "M": "ES"}
        # rules §6: contact at 1, the aircraft at 1–4, the torpedo at 1–2; A, M, SM, AB, VMB never attack
        assert (by["L"]["attack"], by["L"]["reach"], by["BR"]["attack"]) == ("contact", 1, "contact")
        assert (by["S"]["attack"], by["S"]["reach"], by["T"]["attack"], by["T"]["reach"]) == ("air", 4, "torpedo", 2)
        assert sorted(c for c, u in by.items() if u["attack"] is None) == ["A", "AB", "M", "SM", "VMB"]
        # rules §7.1.3: formations of L, KR, R, ES, KRPL, PL only
        assert sorted(c for c, u in by.items() if u["formable"]) == ["ES", "KR", "KRPL", "L", "PL", "R"]
        # rules §5.2, §7.2, §8, §9: the special roles
        roles = {c: u["roles"] for c, u in by.items() if u["roles"]}
        assert roles == {
            "A": ["carrier"], "L": ["anti_air"], "R": ["anti_air"], "ES": ["carrier"], "TK": ["carrier"],
            "TR": ["sweeper"], "AB": ["bomb"], "VMB": ["base"],
        }  # fmt: skip

    def test_the_scale(self) -> None:
        scale = self.manifest["scale"]
        assert [r["row"] for r in scale] == list(range(21, 0, -1))
        assert {tuple(sorted(Kind[c] for c in r["kinds"])): r["row"] for r in scale} == SCALE
        assert scale[0] == {"row": 21, "kinds": ["L", "L"]} and scale[2] == {"row": 19, "kinds": ["R", "R", "ES"]}

    def test_rule_facts(self) -> None:
        assert self.manifest["rules"] == {
            "tether": 1, "blast": 5, "quiet_limit": QUIET_LIMIT, "formation": {"min": 2, "max": 3},
        }  # fmt: skip
        assert QUIET_LIMIT == 200

    def test_a_copy_each_time(self) -> None:
        mine = tables()
        mine["units"][0]["count"] = 99
        assert tables()["units"][0]["count"] == 1


def test_the_client_keeps_no_copy_of_the_tables() -> None:
    """The «Адмирал» client (static/js/games/admiral/) takes its tables from the manifest and its actions from the
    view: none of the engine's names, letters, scale compositions or numbers is written into it, and it parses no
    notation."""
    root = Path(__file__).resolve().parents[3] / "static" / "js" / "games" / "admiral"
    # the code without its comments (they may name a unit as an example)
    strip = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)
    sources = {p.name: strip.sub("", p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.js"))}
    assert {"manifest.js", "units.js", "board.js", "play.js", "setup.js"} <= set(sources)
    copies = [k.ru_name for k in Kind] + ["abcdefghijklmn", "".join(COLUMNS_RU), "5×5", "200 полуход"]
    copies += ['["KR", "KR", "KR"]', '"KRPL", "PL"', "MOVE_RE", "ATTACK_RE", "parseAction", "count: 6"]
    found = {(name, c) for name, text in sources.items() for c in copies if c in text}
    assert found == set()
