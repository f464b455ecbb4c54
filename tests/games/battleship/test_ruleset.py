"""BattleshipRuleset: the house protocol (``admiral.games.protocol``) over the rules."""

from __future__ import annotations

import inspect
import json

import pytest

from admiral.games import protocol
from admiral.games.battleship import INFO, LEVELS, BattleshipRuleset, BotLevel
from admiral.games.battleship.rules import PlayerView, Side, setup_from_text
from admiral.games.protocol import Applied, RuleError, Ruleset
from admiral.i18n import use

from .helpers import CLASSIC_FLEET, CLASSIC_FLEET_2, HASBRO_FLEET, HASBRO_FLEET_2, seed_for

RS = BattleshipRuleset()
CLASSIC = {"rules": "classic", "salvo": False, "named": True}
HASBRO = {"rules": "hasbro", "salvo": False, "named": True}
SALVO = {"rules": "hasbro", "salvo": True, "named": True}
UNNAMED = {"rules": "hasbro", "salvo": False, "named": False}


def game(options=CLASSIC, south=CLASSIC_FLEET, north=CLASSIC_FLEET_2, first=Side.SOUTH):
    setups = {"south": setup_from_text(south), "north": setup_from_text(north)}
    return RS.new_game(setups, {"options": options, "seed": seed_for(first)})


def hasbro(options=HASBRO):
    return game(options, HASBRO_FLEET, HASBRO_FLEET_2)


def code_of(call) -> str:
    with pytest.raises(RuleError) as e:
        call()
    return e.value.code


class TestProtocol:
    def test_implements_the_protocol(self):
        assert isinstance(RS, Ruleset)

    @pytest.mark.parametrize(
        "name", [n for n, v in vars(protocol.Ruleset).items() if inspect.isfunction(v) and not n.startswith("_")]
    )
    def test_signatures_match(self, name):
        want = inspect.signature(getattr(protocol.Ruleset, name))
        got = inspect.signature(getattr(BattleshipRuleset, name))
        assert list(got.parameters) == list(want.parameters), name
        assert [p.kind for p in got.parameters.values()] == [p.kind for p in want.parameters.values()], name

    def test_info(self):
        assert (INFO.key, INFO.name, INFO.sides, INFO.setup_minutes) == (
            "battleship",
            "Морской бой",
            ("south", "north"),
            3,
        )
        assert INFO.levels == {1: "Юнга", 2: "Матрос", 3: "Мичман", 4: "Капитан", 5: "Адмиральский"}
        assert INFO.capabilities == frozenset({"progression"}) and RS.info is INFO
        assert [o.name for o in INFO.options] == ["rules", "salvo", "named"]
        assert [o.default for o in INFO.options] == ["classic", False, True]
        assert INFO.options[1].applies == {"rules": ("hasbro",)} == INFO.options[2].applies
        assert [s for s, _ in INFO.setup_styles] == ["plain", "hard"]
        assert INFO.board == {"width": 10, "height": 10, "rows": "abcdefghij", "rows_ru": "АБВГДЕЖЗИК"}


class TestOptions:
    @pytest.mark.parametrize(
        ("raw", "want"),
        [
            ({}, CLASSIC),
            ({"rules": "hasbro"}, HASBRO),
            ({"rules": "hasbro", "salvo": True}, SALVO),
            ({"rules": "hasbro", "salvo": True, "named": False}, {**SALVO, "named": False}),
            ({"rules": "classic", "salvo": False, "named": True}, CLASSIC),  # defaults of options that do not apply
        ],
    )
    def test_normalised(self, raw, want):
        assert RS.options(raw) == want

    @pytest.mark.parametrize(
        "raw",
        [{"rules": "classic", "salvo": True}, {"salvo": True}, {"named": False}, {"rules": "x"}, {"salvo": "maybe"},
         {"mines": 2}],
    )  # fmt: skip
    def test_refused(self, raw):  # rules D3, D4: salvo and «hits not named» are Hasbro options
        assert code_of(lambda: RS.options(raw)) == "bad_options"

    @pytest.mark.parametrize("value", ["yes", "on", "true", "1", "", 1, 0, None, [True]])
    @pytest.mark.parametrize("name", ["salvo", "named"])
    def test_a_flag_is_a_json_boolean(self, name, value):  # the option schema: choices False/True, nothing else
        with pytest.raises(RuleError) as e:
            RS.options({"rules": "hasbro", name: value})
        assert e.value.code == "bad_options" and repr(value) in e.value.reason


class TestSetup:
    def test_problems_in_russian_with_russian_cells(self):
        got = RS.setup_problems("south", setup_from_text("3:a1-a3 1:b4"), complete=False, options=CLASSIC)
        message = "Трёхпалубный касается корабля «Однопалубный» в клетках А3, Б4 — даже углом нельзя (правила A2)."
        assert got == [
            {"code": "touching", "message": message, "cell": "a3", "kind": "3", "other": "1", "cells": ["a3", "b4"]}
        ]
        with use("en"):
            got = RS.setup_problems("south", setup_from_text("3:a1-a3 1:b1"), complete=False, options=CLASSIC)
        message = (
            "Three-decker touches another ship, One-decker, at A1, A2, B1 — not even a corner may touch (rules A2)."
        )
        assert [p["message"] for p in got] == [message] and got[0]["cells"] == ["a1", "a2", "b1"]

    def test_problems_in_english(self):
        with use("en"):
            got = RS.setup_problems("north", {"a1": "C", "b1": "C", "b2": "C"}, complete=False, options=HASBRO)
        assert got[0]["message"] == "Carrier on A1 is not one straight line of squares."

    # A cell in a message is written as the language writes it: Russian rows (no Й) in Russian, Latin capitals in
    # English, whichever way it was sent; ``cell`` stays the wire name. A name that is no cell at all is quoted as
    # it was sent.
    BAD = (("Б5", "1"), ("b5", "1"), ("k1", "1"), ("z9", "1"), (" c1 ", "9"))

    def test_cells_in_russian_messages_are_russian(self):
        got = RS.setup_problems("south", self.BAD, complete=False, options=CLASSIC)
        assert [(p["code"], p["cell"], p["message"]) for p in got] == [
            ("overlap", "b5", "Клетка Б5 занята дважды: корабли не могут перекрываться."),
            ("bad_cell", "k1", "Нет клетки «Л1»."),
            ("bad_cell", "z9", "Нет клетки «z9»."),
            ("unknown_code", "c1", "В1: «9» — не код корабля в этих правилах."),
        ]

    def test_cells_in_english_messages_are_latin_capitals(self):
        with use("en"):
            got = RS.setup_problems("south", self.BAD, complete=False, options=CLASSIC)
        assert [(p["code"], p["cell"], p["message"]) for p in got] == [
            ("overlap", "b5", "Square B5 is taken twice: ships may not overlap."),
            ("bad_cell", "k1", "There is no square “K1”."),
            ("bad_cell", "z9", "There is no square “z9”."),
            ("unknown_code", "c1", "C1: “9” is not a ship code of these rules."),
        ]

    def test_every_problem_code_has_a_message(self):
        bad = [("a1", "4"), ("a2", "4"), ("b2", "4"), ("j10", "X"), ("k3", "1"), ("e5", "1"), ("e6", "2"), ("e5", "1")]
        got = RS.setup_problems("south", bad, complete=True, options=CLASSIC)
        got += RS.setup_problems("south", setup_from_text("4:a1-a4 4:c1-c4"), complete=False, options=CLASSIC)
        assert {p["code"] for p in got} == {
            "bad_cell", "unknown_code", "overlap", "bent", "wrong_length", "too_few", "too_many", "touching",
        }  # fmt: skip
        assert all(p["message"] and p["message"] != "Ошибка расстановки." for p in got)

    def test_a_draft_is_kept_in_wire_form(self):
        got = RS.draft_setup("south", {"б5": " 1 ", " a1 ": "4", "А2": "4", "A3": "4", "a4": "4", "J10": "1"}, CLASSIC)
        assert got == {"a1": "4", "a2": "4", "a3": "4", "a4": "4", "b5": "1", "j10": "1"}
        assert list(got) == ["a1", "a2", "a3", "a4", "b5", "j10"]  # reading order
        # what only a whole fleet may lack, or a ship being moved may be, is no reason to refuse a draft
        touching = setup_from_text("4:a1-a4 1:b5")
        assert RS.draft_setup("north", touching, CLASSIC) == touching

    @pytest.mark.parametrize(
        "draft", [{"z9": "1"}, {"k1": "1"}, {"a11": "1"}, {"a1": "C"}, {"a1": "1", "А1": "1"}, {"a1": "", "b1": "1"}]
    )
    def test_a_draft_with_an_entry_that_cannot_be_read_is_refused(self, draft):
        assert code_of(lambda: RS.draft_setup("south", draft, CLASSIC)) == "invalid_setup"

    @pytest.mark.parametrize("options", [CLASSIC, HASBRO])
    @pytest.mark.parametrize("style", ["", "plain", "hard"])
    def test_auto_setup(self, options, style):
        s = RS.auto_setup("south", 11, {}, options, style)
        assert RS.setup_problems("south", s, complete=True, options=options) == []
        assert s == RS.auto_setup("south", 11, {}, options, style) == RS.canonical_setup(s, options)

    def test_auto_setup_keeps_the_valid_partial(self):
        s = RS.auto_setup("north", 3, {"A1": "4", "a2": "4", "a3": "4", "a4": "4", "z1": "1"}, CLASSIC)
        assert [s[c] for c in ("a1", "a2", "a3", "a4")] == ["4"] * 4

    def test_auto_setup_bad_style(self):
        assert code_of(lambda: RS.auto_setup("south", 1, {}, CLASSIC, "sneaky")) == "bad_style"

    def test_canonical_setup(self):
        raw = {k.upper(): v.lower() for k, v in setup_from_text(HASBRO_FLEET_2).items()}
        got = RS.canonical_setup(raw, HASBRO)
        assert got == {
            k: v for k, v in sorted(setup_from_text(HASBRO_FLEET_2).items(), key=lambda kv: (kv[0][0], int(kv[0][1:])))
        }
        assert code_of(lambda: RS.canonical_setup({"a1": "C"}, HASBRO)) == "invalid_setup"

    def test_new_game_refuses_bad_setups_and_settings(self):
        assert code_of(lambda: RS.new_game({"south": {}, "north": {}}, {"seed": 1})) == "invalid_setup"
        assert code_of(lambda: game({"rules": "classic", "salvo": True})) == "bad_options"
        setups = {"south": setup_from_text(CLASSIC_FLEET), "north": setup_from_text(CLASSIC_FLEET_2)}
        assert code_of(lambda: RS.new_game(setups, {"options": CLASSIC})) == "bad_settings"


class TestPlay:
    @pytest.mark.parametrize(("text", "want"), [("b5", "b5"), ("B5", "b5"), ("Б5", "b5"), (" к10 ", "j10")])
    def test_parse_player_action(self, text, want):
        assert RS.parse_player_action(text) == want

    @pytest.mark.parametrize("text", ["resign south", "draw", "flag north", "b", "b5 b6", "", "Й1"])
    def test_players_send_only_shots(self, text):
        assert code_of(lambda: RS.parse_player_action(text)) == "bad_notation"

    def test_applied_classic(self):  # rules A5
        g = game()
        assert RS.apply(g, "j7") == Applied("south", True, None)
        assert RS.apply(g, "j8") == Applied("south", False, None)
        assert RS.apply(g, "b5") == Applied("south", False, "south")
        assert RS.apply(g, "a5") == Applied("north", True, "north")
        assert (RS.ply(g), RS.to_act(g)) == (4, "south")

    def test_applied_hasbro_and_salvo(self):  # rules B2, B3
        g = hasbro()
        assert RS.apply(g, "a10") == Applied("south", True, "south")
        g = hasbro(SALVO)
        got = [RS.apply(g, c) for c in ("f1", "f2", "f3", "f4", "f5")]
        assert got[0] == Applied("south", True, None) and got[1:4] == [Applied("south", False, None)] * 3
        assert got[4] == Applied("south", False, "south") and RS.to_act(g) == "north"

    def test_applied_ends(self):
        g = game()
        assert RS.apply(g, RS.end_action("draw", None)) == Applied(None, False, None)
        g = game()
        assert RS.apply(g, RS.end_action("resign", "north")) == Applied("north", False, None)
        assert RS.result(g) == {"winner": "south", "reason": "resign"} and RS.to_act(g) is None

    def test_the_winning_shot_completes_the_turn(self):  # rules A7
        g = game()
        cells = "j7 j8 j9 j10 a8 a9 a10 c8 c9 c10 e9 e10 g9 g10 h1 i1 a1 e1 e5 c5".split()
        got = [RS.apply(g, c) for c in cells]
        assert got[-1] == Applied("south", False, "south") and RS.result(g) == {
            "winner": "south",
            "reason": "fleet_sunk",
        }

    def test_refusals_leave_the_game_unchanged(self):
        g = game()
        RS.apply(g, "j7")
        before = RS.record_json(g), json.dumps(RS.view(g, "spectator"))
        assert code_of(lambda: RS.apply(g, "j7")) == "already_shot"
        assert code_of(lambda: RS.apply(g, "k7")) == "bad_cell"
        assert code_of(lambda: RS.apply(g, "nonsense")) == "bad_notation"
        assert (RS.record_json(g), json.dumps(RS.view(g, "spectator"))) == before

    @pytest.mark.parametrize(
        ("kind", "side", "want"),
        [("resign", "south", "resign south"), ("flag", "north", "flag north"), ("abandon", "south", "abandon south"),
         ("draw", None, "draw")],
    )  # fmt: skip
    def test_end_action(self, kind, side, want):
        assert RS.end_action(kind, side) == want

    def test_end_action_errors(self):
        assert code_of(lambda: RS.end_action("surrender", "south")) == "bad_notation"
        assert code_of(lambda: RS.end_action("resign", None)) == "bad_notation"
        assert code_of(lambda: RS.end_action("resign", "east")) == "bad_side"

    def test_view(self):
        g = game()
        assert RS.view(g, "north")["audience"] == "north"
        assert code_of(lambda: RS.view(g, "full")) == "game_not_over"
        assert code_of(lambda: RS.view(g, "admin")) == "bad_audience"


class TestAfterTheGame:
    def test_replay_classic(self):
        g = game()
        for c in ("j7", "j8", "j9", "j10", "b5", "a1", "a2", "z"):
            if c == "z":
                RS.apply(g, RS.end_action("resign", "south"))
            else:
                RS.apply(g, c)
        r = RS.replay(g)
        assert (
            r["options"] == CLASSIC and r["first"] == "south" and r["result"] == {"winner": "north", "reason": "resign"}
        )
        assert r["setups"]["south"]["a1"] == "4"
        assert r["plies"][0] == {
            "ply": 0,
            "action": "j7",
            "side": "south",
            "answer": "hit",
            "ship": None,
            "sunk_cells": [],
        }
        assert r["plies"][3] == {
            "ply": 3, "action": "j10", "side": "south", "answer": "sunk", "ship": "4",
            "sunk_cells": ["j7", "j8", "j9", "j10"],
        }  # fmt: skip
        assert r["plies"][5]["side"] == "north"
        assert r["plies"][-1] == {
            "ply": 7, "action": "resign south", "side": "south", "answer": None, "ship": None, "sunk_cells": [],
        }  # fmt: skip

    @pytest.mark.parametrize(("options", "ship"), [(HASBRO, "P"), (UNNAMED, None)])
    def test_replay_names_the_ship_only_if_named(self, options, ship):  # rules B2, D4
        g = hasbro(options)
        for c in ("i1", "a1", "j1", "a2"):
            RS.apply(g, c)
        plies = RS.replay(g)["plies"]
        assert [p["ship"] for p in plies if p["side"] == "south"] == [ship, ship]
        assert plies[2]["answer"] == "sunk" and plies[2]["sunk_cells"] == ([] if ship is None else ["i1", "j1"])

    def test_game_stats(self):
        g = game()
        for c in ("j7", "j8", "b5", "a1", "b5", "c1"):  # South: hit, hit, miss; North: hit, miss; South: miss
            RS.apply(g, c)
        RS.apply(g, RS.end_action("resign", "north"))
        s = RS.game_stats(g)
        assert s["south"] == {
            "shots": 4, "hits": 2, "sunk": 0, "ships_lost": 0, "accuracy": 0.5, "won": True, "plies": 4, "turns": 2,
            "decks": 20, "decks_lost": 1, "outcome": "win", "reason": "resign", "counts": False,
        }  # fmt: skip
        assert s["north"] == {
            "shots": 2, "hits": 1, "sunk": 0, "ships_lost": 0, "accuracy": 0.5, "won": False, "plies": 3, "turns": 1,
            "decks": 20, "decks_lost": 2, "outcome": "loss", "reason": "resign", "counts": False,
        }  # fmt: skip

    def test_game_stats_of_a_won_game(self):
        g = hasbro()
        north = "a10 b10 c10 d10 e10 f10 g10 h10 i10 a8 b8 c8 h7 i7 j7 i1 j1".split()
        south = iter(f"{r}{c}" for r in "ji" for c in range(1, 11))
        for c in north:
            RS.apply(g, c)
            if RS.to_act(g):
                RS.apply(g, next(south))
        s = RS.game_stats(g)
        assert (s["south"]["sunk"], s["south"]["accuracy"], s["south"]["won"]) == (5, 1.0, True)
        assert (s["north"]["ships_lost"], s["north"]["hits"], s["north"]["won"]) == (5, 0, False)

    def test_answer_text(self):
        assert RS.answer_text(CLASSIC, "hit") == "Ранен" and RS.answer_text(CLASSIC, "sunk", "4") == "Убит"
        assert (
            RS.answer_text(HASBRO, "hit", "C") == "Попал: Авианосец" and RS.answer_text(UNNAMED, "sunk") == "Потоплен"
        )
        with use("en"):
            assert (
                RS.answer_text(HASBRO, "sunk", "P") == "Sunk: Patrol boat" and RS.answer_text(CLASSIC, "miss") == "Miss"
            )


class FirstCellBot:
    """A test bot: the first legal shot; a fixed setup; remembers what it observed."""

    def __init__(self, seed, rules):
        self.seed, self.rules, self.seen = seed, rules, []

    def setup(self, side):
        return setup_from_text(CLASSIC_FLEET)

    def act(self, view, deadline_s):
        return str(view.legal[0]).upper()

    def observe(self, view):
        self.seen.append(view.ply)


class TestBots:
    def test_an_unknown_level_is_refused(self):
        with pytest.raises(ValueError):
            RS.new_bot(6, 7, CLASSIC)

    def test_a_registered_bot_plugs_in(self, monkeypatch):
        monkeypatch.setitem(LEVELS, 1, BotLevel("Юнга", FirstCellBot))
        bot = RS.new_bot(1, 7, CLASSIC)
        assert bot.seed == 7 and bot.rules.key == "classic"
        setups = {"south": RS.bot_setup(bot, "south"), "north": setup_from_text(CLASSIC_FLEET_2)}
        assert setups["south"] == RS.canonical_setup(setups["south"], CLASSIC)
        g = RS.new_game(setups, {"options": CLASSIC, "seed": seed_for(Side.SOUTH)})
        view = RS.bot_view(g, "south", 0)
        assert isinstance(view, PlayerView) and view.side is Side.SOUTH
        assert RS.bot_act(bot, view, 0.1) == "a1"
        RS.apply(g, "a1")  # a hit on North's one-decker: South again
        RS.apply(g, "a2")  # a miss: North
        RS.apply(g, "b5")
        fresh = RS.new_bot(1, 8, CLASSIC)
        assert RS.bot_catch_up(fresh, g, "south") == 1 and fresh.seen == [0, 1]
