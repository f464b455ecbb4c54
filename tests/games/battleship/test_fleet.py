"""Rule sets as data and the room options (rules A2, B1, B3, D3, D4)."""

from __future__ import annotations

import pytest

from admiral.games.battleship.rules import CLASSIC, HASBRO, IllegalAction, options_of, rules_from_options


class TestFleets:
    def test_classic_fleet(self):  # rules A2
        assert [(s.code, s.size, s.count) for s in CLASSIC.fleet] == [
            ("4", 4, 1),
            ("3", 3, 2),
            ("2", 2, 3),
            ("1", 1, 4),
        ]
        assert (CLASSIC.ships, CLASSIC.decks, CLASSIC.touching, CLASSIC.again_on_hit) == (10, 20, False, True)

    def test_hasbro_fleet(self):  # rules B1
        assert [(s.code, s.size, s.count) for s in HASBRO.fleet] == [
            ("C", 5, 1), ("B", 4, 1), ("D", 3, 1), ("S", 3, 1), ("P", 2, 1),
        ]  # fmt: skip
        assert (HASBRO.ships, HASBRO.decks, HASBRO.touching, HASBRO.again_on_hit) == (5, 17, True, False)

    def test_what_answers_tell(self):  # rules A6, B2, D4
        unnamed = rules_from_options({"rules": "hasbro", "named": False})
        assert (CLASSIC.names_hits, CLASSIC.names_sinkings, CLASSIC.shows_sunk_cells) == (False, True, True)
        assert (HASBRO.names_hits, HASBRO.names_sinkings, HASBRO.shows_sunk_cells) == (True, True, True)
        assert (unnamed.names_hits, unnamed.names_sinkings, unnamed.shows_sunk_cells) == (False, False, False)


class TestOptions:
    def test_defaults_are_classic(self):
        assert rules_from_options({}) is CLASSIC and rules_from_options(None) is CLASSIC
        assert options_of(rules_from_options({})) == {"rules": "classic", "salvo": False, "named": True}

    @pytest.mark.parametrize(
        ("raw", "salvo", "named"),
        [
            ({"rules": "hasbro"}, False, True),
            ({"rules": "hasbro", "salvo": True}, True, True),
            ({"rules": "hasbro", "named": False}, False, False),
            ({"rules": "hasbro", "salvo": True, "named": False}, True, False),
        ],
    )
    def test_hasbro_options(self, raw, salvo, named):  # rules B3, D3, D4
        r = rules_from_options(raw)
        assert (r.key, r.salvo, r.named) == ("hasbro", salvo, named)
        assert rules_from_options(options_of(r)) == r

    @pytest.mark.parametrize(
        "raw", [{"rules": "classic", "salvo": True}, {"rules": "classic", "named": False}, {"salvo": True}]
    )
    def test_options_that_do_not_apply_to_classic_are_refused(self, raw):  # rules D3, D4: salvo and naming are B's
        with pytest.raises(IllegalAction) as e:
            rules_from_options(raw)
        assert e.value.code == "bad_options" and "applies only under" in e.value.reason
        assert e.value.detail["why"] == "not_applicable" and e.value.detail["rules"] == ["hasbro"]

    def test_their_defaults_are_accepted_under_classic(self):
        assert rules_from_options({"rules": "classic", "salvo": False, "named": True}) is CLASSIC

    @pytest.mark.parametrize(
        "raw", [{"rules": "russian"}, {"salvo": "yes"}, {"named": 1}, {"mines": 1}, {"rules": None}]
    )
    def test_bad_options_are_refused(self, raw):
        with pytest.raises(IllegalAction) as e:
            rules_from_options(raw)
        assert e.value.code == "bad_options"
