"""What each side may know: the view function (rules §11)."""

from __future__ import annotations

import json
import random

import pytest

from admiral.games.admiral.rules import (
    Action,
    Attack,
    BattleReport,
    Game,
    GameState,
    IllegalAction,
    Kind,
    MoveView,
    PlayerView,
    Reason,
    Resign,
    Side,
    UnitView,
    apply,
    legal_actions,
    parse_cell,
    view,
)

SOUTH, NORTH = Side.SOUTH, Side.NORTH


def c(name: str) -> int:
    return parse_cell(name)


def dumps(v: PlayerView) -> str:
    return json.dumps(v.to_dict(), sort_keys=True, ensure_ascii=False)


class Play:
    """A position with its event log, as Game keeps it."""

    def __init__(self, text: str, to_move: Side = SOUTH) -> None:
        self.state = GameState.from_text(text, to_move)
        self.log: list = []

    def __call__(self, *actions: str) -> Play:
        for a in actions:
            self.log.extend(apply(self.state, Action.parse(a)))
        return self

    def view(self, audience, **kw) -> PlayerView:
        return view(self.state, audience, self.log, **kw)


# South's two battleships attack a star of three cruisers (rules §7.1): the defender must choose.
BATTLE = "Le5 Ld5 VMBa1 VMBb1 / KRe6 KRe7 KRf6 PLn15 VMBa15 VMBb15"


class TestOwnAndEnemyUnits:
    def test_own_units_with_kinds_enemy_as_markers(self):  # rules §11.1, §11.2
        v = Play(BATTLE).view(SOUTH)
        assert [u.to_dict() for u in v.units] == [
            {"cell": "a1", "side": "south", "kind": "VMB"},
            {"cell": "a15", "side": "north", "kind": None},
            {"cell": "b1", "side": "south", "kind": "VMB"},
            {"cell": "b15", "side": "north", "kind": None},
            {"cell": "d5", "side": "south", "kind": "L"},
            {"cell": "e5", "side": "south", "kind": "L"},
            {"cell": "e6", "side": "north", "kind": None},
            {"cell": "e7", "side": "north", "kind": None},
            {"cell": "f6", "side": "north", "kind": None},
            {"cell": "n15", "side": "north", "kind": None},
        ]
        assert v.own() == {c("a1"): Kind.VMB, c("b1"): Kind.VMB, c("d5"): Kind.L, c("e5"): Kind.L}
        assert v.markers() == tuple(c(x) for x in ("a15", "b15", "e6", "e7", "f6", "n15"))
        assert v.side is SOUTH and v.audience == "south"

    def test_a_marker_has_no_field_but_cell_and_side(self):  # rules §11.2: no identifier
        v = Play(BATTLE).view(NORTH)
        for u in v.units:
            assert set(u.to_dict()) == {"cell", "side", "kind"}
            assert UnitView.__slots__ == ("cell", "side", "kind")
            if u.side is SOUTH:
                assert u.kind is None and u.to_dict()["kind"] is None

    def test_markers_ordered_by_cell_only(self):  # rules §11.2: nothing correlates with kind
        # The same cells, North's kinds shuffled: South's view is byte for byte the same.
        a = Play("Le5 VMBa1 / KRe6 PLn15 ABa15 VMBb15").view(SOUTH)
        b = Play("Le5 VMBa1 / VMBe6 ABn15 PLa15 KRb15").view(SOUTH)
        assert dumps(a) == dumps(b)
        assert [u.cell for u in a.units] == sorted(u.cell for u in a.units)

    def test_audience_by_name_or_side(self):
        p = Play(BATTLE)
        assert p.view("north") == p.view(NORTH)
        assert p.view("south") == p.view(SOUTH)

    @pytest.mark.parametrize("audience", ["east", "South", "", None, 2])
    def test_bad_audience(self, audience):
        with pytest.raises(IllegalAction) as info:
            Play(BATTLE).view(audience)
        assert info.value.code == "bad_audience"


class TestMoves:
    def test_enemy_move_is_a_marker_that_went_from_to(self):  # rules §11.2
        p = Play(BATTLE, NORTH)("n15-n14")
        south = p.view(SOUTH)
        assert south.events == (MoveView(0, NORTH, c("n15"), c("n14"), None),)
        assert south.events[0].to_dict() == {
            "type": "move", "ply": 0, "side": "north", "src": "n15", "dst": "n14", "kind": None,
        }  # fmt: skip
        assert p.view(NORTH).events == (MoveView(0, NORTH, c("n15"), c("n14"), Kind.PL),)
        assert p.view("spectator").events == (MoveView(0, NORTH, c("n15"), c("n14"), None),)

    def test_since_selects_the_events(self):
        p = Play(BATTLE, NORTH)("n15-n14", "e5-e4", "n14-m14", "e4-e5")
        assert [e.ply for e in p.view(SOUTH).events] == [3]
        assert [e.ply for e in p.view(SOUTH, since=1).events] == [1, 2, 3]
        assert [(e.ply, e.kind) for e in p.view(SOUTH, since=0).events] == [
            (0, None), (1, Kind.L), (2, None), (3, Kind.L),
        ]  # fmt: skip
        assert p.view(SOUTH, since=4).events == ()

    def test_move_then_attack_shows_the_step_then_the_report(self):  # rules §4.2, §11.3
        p = Play("Ld4 VMBa1 VMBb1 / VMBe5 VMBa15 PLn15")("d4-d5xe5")
        north = p.view(NORTH)
        assert north.events[0] == MoveView(0, SOUTH, c("d4"), c("d5"), None)
        (report,) = north.events[1:]
        assert isinstance(report, BattleReport)
        assert report.attacker.kind is Kind.L and report.attacker.cell == c("d5")
        assert [(s.side, s.kind, s.cell) for s in report.removed] == [(NORTH, Kind.VMB, c("e5"))]


class TestReports:
    def battle(self) -> Play:
        return Play(BATTLE)("e5xe6 [d5+e5]", "[e6+e7+f6]")

    def test_report_is_public_and_complete(self):  # rules §11.3
        p = self.battle()
        expected = {
            "ply": 1,
            "side": "south",
            "method": "contact",
            "attacker": {"side": "south", "kind": "L", "cell": "e5"},
            "target": {"side": "north", "kind": "KR", "cell": "e6"},
            "attacker_formation": [
                {"side": "south", "kind": "L", "cell": "d5"},
                {"side": "south", "kind": "L", "cell": "e5"},
            ],
            "defender_formation": [
                {"side": "north", "kind": "KR", "cell": "e6"},
                {"side": "north", "kind": "KR", "cell": "e7"},
                {"side": "north", "kind": "KR", "cell": "f6"},
            ],
            "attacker_row": 21,
            "defender_row": 20,
            "removed": [
                {"side": "north", "kind": "KR", "cell": "e6"},
                {"side": "north", "kind": "KR", "cell": "e7"},
                {"side": "north", "kind": "KR", "cell": "f6"},
            ],
            "revealed_only": [
                {"side": "south", "kind": "L", "cell": "e5"},
                {"side": "south", "kind": "L", "cell": "d5"},
            ],
            "explosion": None,
        }
        for audience in (SOUTH, NORTH, "spectator"):
            d = p.view(audience).to_dict()
            assert d["reports"] == [expected]
            assert d["events"] == [{"type": "report", "report": expected}]

    def test_losses_are_public(self):  # rules §11.4
        p = self.battle()
        for audience in (SOUTH, NORTH, "spectator"):
            v = p.view(audience)
            assert v.lost == ({}, {Kind.KR: 3})
            assert v.to_dict()["lost"] == {"south": {}, "north": {"KR": 3}}

    def test_survivors_close_again(self):  # rules §7.1.6
        p = self.battle()
        north = p.view(NORTH)
        assert {u.cell: u.kind for u in north.units if u.side is SOUTH} == dict.fromkeys(
            (c("a1"), c("b1"), c("d5"), c("e5"))
        )

    def test_void_declaration_reveals_only_the_attacker(self):  # rules §7.1.1
        p = Play("Le5 Ld5 VMBa1 VMBb1 / VMBe6 VMBa15 PLn15")("e5xe6 [d5+e5]")
        (report,) = p.view(NORTH).reports
        d = report.to_dict()
        assert d["attacker_formation"] == [] and d["attacker_row"] is None
        assert d["revealed_only"] == [{"side": "south", "kind": "L", "cell": "e5"}]
        assert "d5" not in json.dumps(d)

    def test_revealed_enemy_stays_a_marker_on_the_board(self):  # rules §7.2, §7.1.6
        # An air strike on a mine reveals it and removes nothing.
        p = Play("Se2 Ae1 VMBa1 VMBb1 / Me6 VMBa15 VMBb15")("e2xe6")
        south = p.view(SOUTH)
        (report,) = south.reports
        assert report.to_dict()["revealed_only"] == [
            {"side": "south", "kind": "S", "cell": "e2"},
            {"side": "north", "kind": "M", "cell": "e6"},
        ]
        assert report.removed == ()
        assert UnitView(c("e6"), NORTH, None) in south.units

    def test_detonation_report(self):  # rules §8, §11.3
        p = Play("ABe7 VMBa1 VMBb1 / KRe9 Lg7 PLh7 VMBa15 VMBb15")("АБ!")
        d = p.view(NORTH).to_dict()["reports"][0]
        assert d["method"] == "detonation" and d["explosion"] == "e7" and d["target"] is None
        assert d["removed"] == [
            {"side": "south", "kind": "AB", "cell": "e7"},
            {"side": "north", "kind": "KR", "cell": "e9"},
            {"side": "north", "kind": "L", "cell": "g7"},
        ]
        assert p.view(SOUTH).lost == ({Kind.AB: 1}, {Kind.KR: 1, Kind.L: 1})


class TestPendingBattle:
    def test_defender_sees_its_options_not_the_attackers_formation(self):  # rules §7.1.2
        p = Play(BATTLE)("e5xe6 [d5+e5]")
        north = p.view(NORTH)
        assert north.to_act is NORTH and north.to_move is SOUTH
        assert north.pending.to_dict() == {
            "src": "e5",
            "target": "e6",
            "defender": "north",
            "formation": None,
            "options": [["e6"], ["e6", "e7"], ["e6", "e7", "f6"], ["e6", "f6"]],
        }
        assert [str(a) for a in north.legal] == ["[e6]", "[e6+e7]", "[e6+e7+f6]", "[e6+f6]"]
        # the same view, byte for byte, as if South had attacked alone
        assert dumps(north) == dumps(Play(BATTLE)("e5xe6").view(NORTH))

    def test_attacker_sees_its_formation_not_the_defenders_options(self):  # rules §7.1.2
        p = Play(BATTLE)("e5xe6 [d5+e5]")
        south = p.view(SOUTH)
        assert south.pending.to_dict() == {
            "src": "e5", "target": "e6", "defender": "north", "formation": ["d5", "e5"], "options": None,
        }  # fmt: skip
        assert south.legal == ()
        # the same view, byte for byte, as if North had other options (f6 a submarine: two options)
        other = Play(BATTLE.replace("KRf6", "PLf6"))("e5xe6 [d5+e5]")
        assert len(other.state.pending.options) == 2
        assert dumps(south) == dumps(other.view(SOUTH))

    def test_spectator_sees_neither(self):  # rules §11.7
        p = Play(BATTLE)("e5xe6 [d5+e5]")
        assert p.view("spectator").pending.to_dict() == {
            "src": "e5", "target": "e6", "defender": "north", "formation": None, "options": None,
        }  # fmt: skip

    def test_full_view_would_show_both_but_only_after_the_game(self):  # rules §11.6
        p = Play(BATTLE)("e5xe6 [d5+e5]")
        with pytest.raises(IllegalAction) as info:
            p.view("full")
        assert info.value.code == "game_not_over"


class TestLegal:
    def test_only_the_side_to_act_gets_legal_actions(self):  # rules §4.1
        p = Play(BATTLE)
        assert p.view(SOUTH).legal == tuple(legal_actions(p.state))
        assert len(p.view(SOUTH).legal) > 0
        assert p.view(NORTH).legal == ()
        p("d5-d4")
        assert p.view(SOUTH).legal == ()
        assert p.view(NORTH).legal == tuple(legal_actions(p.state))

    def test_spectator_has_no_legal_actions(self):  # rules §11.7
        assert Play(BATTLE).view("spectator").legal == ()


class TestSpectatorAndFull:
    def test_spectator_sees_closed_markers_and_reports(self):  # rules §11.7
        p = Play(BATTLE)("e5xe6 [d5+e5]", "[e6+e7+f6]")
        v = p.view("spectator")
        assert v.audience == "spectator" and v.side is None
        assert all(u.kind is None for u in v.units)
        assert [u.cell for u in v.units] == [c(x) for x in ("a1", "a15", "b1", "b15", "d5", "e5", "n15")]
        assert [u.side for u in v.units] == [SOUTH, NORTH, SOUTH, NORTH, SOUTH, SOUTH, NORTH]
        assert v.reports == p.view(SOUTH).reports == p.view(NORTH).reports
        assert v.own() == {}

    def test_full_view_after_the_game_shows_every_kind(self):  # rules §11.6
        p = Play(BATTLE, NORTH)("n15-n14", "e5-e4", "resign north")
        assert p.state.result.reason is Reason.RESIGNATION
        v = p.view("full", since=0)
        assert v.audience == "full" and v.legal == ()
        assert {u.cell: u.kind for u in v.units} == {
            c("a1"): Kind.VMB, c("b1"): Kind.VMB, c("d5"): Kind.L, c("e4"): Kind.L,
            c("a15"): Kind.VMB, c("b15"): Kind.VMB, c("e6"): Kind.KR, c("e7"): Kind.KR,
            c("f6"): Kind.KR, c("n14"): Kind.PL,
        }  # fmt: skip
        assert [(e.side, e.kind) for e in v.events] == [(NORTH, Kind.PL), (SOUTH, Kind.L)]
        assert v.result.to_dict() == {"winner": "south", "reason": "resignation"}
        # the players' own views stay as they were
        assert all(u.kind is None for u in p.view(SOUTH).units if u.side is NORTH)

    def test_full_view_refused_during_the_game(self):  # rules §11.6
        with pytest.raises(IllegalAction) as info:
            Play(BATTLE).view("full")
        assert info.value.code == "game_not_over"


class TestWireForm:
    def test_to_dict_is_json_and_deterministic(self):
        rng = random.Random(21)
        game = Game.new_random(rng)
        for _ in range(120):
            game.apply(rng.choice(game.legal_actions()))
        for audience in (SOUTH, NORTH, "spectator"):
            a = game.view(audience, since=0)
            text = json.dumps(a.to_dict())
            assert json.loads(text) == a.to_dict()
            b = game.record.replay().view(audience, since=0)
            assert json.dumps(b.to_dict()) == text
            assert a == b

    def test_top_level_fields(self):
        d = Play(BATTLE).view(SOUTH).to_dict()
        assert list(d) == [
            "audience", "ply", "to_move", "to_act", "quiet", "units", "lost", "reports", "events", "pending",
            "legal", "result", "history",
        ]  # fmt: skip
        assert (d["ply"], d["to_move"], d["to_act"], d["quiet"], d["result"]) == (0, "south", "south", 0, None)
        assert d["history"] == []

    def test_game_view_is_the_free_function(self):
        rng = random.Random(5)
        game = Game.new_random(rng)
        for _ in range(30):
            game.apply(rng.choice(game.legal_actions()))
        for audience in (SOUTH, NORTH, "spectator"):
            assert game.view(audience, since=3) == view(game.state, audience, game.log, since=3)


class TestHistory:
    """The move list (rules §11.3–§11.4): one public line per ply, the same for every audience, never more than
    both sides saw."""

    @staticmethod
    def _seen(action) -> str:
        """What the move list may show of ``action``: its notation without an attacker's declared formation."""
        text = str(action)
        return text.split(" [")[0] if isinstance(action, Attack) else text

    @pytest.mark.parametrize("seed", range(6))
    def test_random_games_list_every_ply_as_played(self, seed: int) -> None:  # rules §11.3, §11.4
        rng = random.Random(seed)
        game = Game.new_random(rng)
        while game.state.to_act is not None and game.ply < 300:
            game.apply(rng.choice(legal_actions(game.state)))
        lines = game.view(Side.SOUTH, moves=True).history
        assert [p.ply for p in lines] == list(range(game.ply))  # every ply of play has its line
        reports = game.view(Side.SOUTH).reports
        for p in lines:
            action = game.record.actions[p.ply]
            assert p.text == self._seen(action), (p.ply, str(action))
            if p.report is not None:
                assert reports[p.report].ply == p.ply
        assert sorted(p.report for p in lines if p.report is not None) == list(range(len(reports)))
        # the same list for both sides and a spectator: it is public
        wire = [p.to_list() for p in lines]
        for audience in (Side.NORTH, "spectator"):
            assert [p.to_list() for p in game.view(audience, moves=True).history] == wire

    @pytest.mark.parametrize("seed", range(4))
    def test_the_kept_move_list_is_the_whole_logs_at_every_ply(self, seed: int) -> None:  # rules §11.3, §11.4
        """Issue 23: a live game keeps its move list along the log (:class:`MoveList`) instead of reading the
        whole log at every view; at every ply, a declaration pending or fought, it equals :func:`history` of the
        log, and a copy of the game keeps its own."""
        from admiral.games.admiral.rules.view import history

        rng = random.Random(100 + seed)
        game = Game.new_random(rng)
        while game.state.to_act is not None and game.ply < 400:
            kept = game.view(game.state.to_act, moves=True).history
            assert kept == history(game.log), game.ply
            if game.ply % 50 == 25:
                twin = game.copy()  # goes on from the original's kept list; the original's stays as it was
                assert twin._moves is not game._moves and twin._moves.read == len(game.log)
                twin.apply(rng.choice(legal_actions(twin.state)))
                assert twin.view("spectator", moves=True).history == history(twin.log)
                assert game.view("spectator", moves=True).history == history(game.log)
            game.apply(rng.choice(legal_actions(game.state)))
        assert game.view("spectator", moves=True).history == history(game.log)

    def test_a_pending_attack_does_not_tell_the_formation(self) -> None:  # rules §7.1.2, §11.2
        rng = random.Random(3)
        game = Game.new_random(rng)
        while game.state.pending is None or not any(" [" in str(a) for a in game.record.actions[-1:]):
            if game.state.to_act is None:
                game = Game.new_random(rng)
            game.apply(rng.choice(legal_actions(game.state)))
        attack = str(game.record.actions[-1])
        assert "[" in attack
        last = game.view(game.state.pending.defender, moves=True).history[-1]
        assert last.ply == game.ply - 1 and "[" not in last.text and last.report is None
        assert game.view(game.state.pending.defender, moves=True).to_dict()["history"][-1] == [
            last.ply,
            last.side.label,
            attack.split(" [")[0],
            None,
        ]

    def test_a_resignation_adds_no_line(self) -> None:  # rules §10.1
        game = Game.new_random(random.Random(5))
        game.apply(game.legal_actions()[0])
        game.apply(Resign(Side.NORTH))
        assert [p.ply for p in game.view("full", moves=True).history] == [0]
