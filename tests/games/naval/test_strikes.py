"""Strikes (§4): onto the enemy ship ahead, by its facing and the ranks; the striker takes the point; never the
stern, never compulsory; the submarine's special place."""

from __future__ import annotations

import pytest

from admiral.games.naval.rules import Strike, Struck, Sunk, parse_point

from .helpers import game, notations, refused


def at(g, point):
    return g.state.ships.get(parse_point(point))


class TestStrike:
    def test_the_striker_takes_the_point_and_the_target_sinks(self):  # rules §4
        g = game("Ce5n / Ge6s Sa13s")
        assert "e5xe6" in notations(g)
        events = g.apply("e5xe6")
        assert events[0] == Strike(0, at(g, "e6").side, "C1", parse_point("e5"), parse_point("e6"), "G1", Struck.BOW)
        assert isinstance(events[1], Sunk) and events[1].cause == "strike" and events[1].by == "C1"
        assert at(g, "e6").id == "C1" and at(g, "e5") is None and g.state.afloat(g.state.to_move) == 1
        assert g.state.sunk[0].ship == "G1" and g.state.quiet == 0

    @pytest.mark.parametrize(
        ("position", "strike", "code"),
        [
            ("Ge5n / Ce6s Sa13s", "e5xe6", "bow_not_senior"),  # a junior: broadside only
            ("Te5n / Te6s Sa13s", "e5xe6", "bow_not_senior"),  # equal ranks: broadside only
            ("Be5n / Te6n Sa13s", "e5xe6", "stern"),  # never the stern, even the senior
            ("Se5n / Te6n Sa13s", "e5xe6", "stern"),
            ("Se5n / Ge6s Sa13s", "e5xe6", "bow_not_senior"),  # the submarine is junior to a gunboat
            ("Be5n / Se6s Ta13s", "e5xe6", "bow_not_senior"),  # … and senior to the battleship
            ("Ce5n / Se6s Ta13s", "e5xe6", "bow_not_senior"),  # … and the cruisers
        ],
    )
    def test_refused(self, position, strike, code):  # rules §4
        g = game(position)
        assert strike not in notations(g)
        refused(g, strike, code)

    @pytest.mark.parametrize(
        "position",
        [
            "Ge5n / Ce6e Sa13s",  # a junior on the broadside
            "Ge5n / Ce6w Sa13s",
            "Te5n / Te6e Sa13s",  # equal ranks on the broadside
            "Ce5n / Ge6s Sa13s",  # a senior on the bow
            "Se5n / Be6s Ta13s",  # the submarine strikes the battleship on the bow
            "Se5n / Ce6s Ta13s",
            "Ge5n / Se6s Ta13s",  # a gunboat is senior to the submarine
            "Me5n / Se6s Ta13s",
            "Be5n / Se6e Ta13s",  # the battleship strikes the submarine on the broadside only
        ],
    )
    def test_allowed(self, position):  # rules §4
        g = game(position)
        assert "e5xe6" in notations(g)
        g.apply("e5xe6")
        assert at(g, "e6").side.label == "south"

    def test_only_the_point_ahead(self):  # rules §3, §4: a strike is a step forward
        refused(game("Ce5n / Gf5s Sa13s"), "e5xf5", "sideways")
        refused(game("Ce5n / Ge4n Sa13s"), "e5xe4", "stern_first")
        refused(game("Cd5n / Gd7s Sa13s"), "d5xd7", "not_adjacent")

    def test_no_target(self):  # rules §4
        refused(game("Ce5n / Sa13s"), "e5xe6", "no_target")
        refused(game("Ce5n Ge6s / Sa13s"), "e5xe6", "own_ship")

    def test_never_compulsory(self):  # rules §4
        g = game("Ce5n / Ge6s Sa13s")
        assert set(notations(g)) == {"e5xe6", "e5<", "e5>"}
        g.apply("e5>")
        assert at(g, "e6") is not None

    def test_the_seniority_follows_the_target_not_the_board(self):  # rules §4: North strikes too
        g = game("Ge5n / Ce6s Sa13s", to_move="north")
        g.apply("e6xe5")
        assert at(g, "e5").side.label == "north" and g.state.result is not None  # South's last ship
