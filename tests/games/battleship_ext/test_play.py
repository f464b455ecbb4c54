"""Play of the extended variant: shots, mines, minesweepers, energy, abilities, ultimates, levels' perks, refusals
and the fair-chance draws (BATTLESHIP.md C3–C6, D5–D10, D13). Every expected draw is recomputed here from the seed
with :func:`~admiral.games.battleship.rules.chance.draw`, as anyone may re-check it from the record (D13)."""

from __future__ import annotations

import pytest

from admiral.games.battleship.rules import cell_name, draw, parse_cell
from admiral.games.battleship_ext.rules import ExtGame, Side, setup_from_text

from .helpers import NORTH, SOUTH, answers, new_game, rejected

S, N = Side.SOUTH, Side.NORTH
#: North's ship cells (for the tests that sink the fleet), reading order.
NORTH_DECKS = sorted(c for c, code in setup_from_text(NORTH).items() if code.isdigit())
SOUTH_DECKS = sorted((c for c, code in setup_from_text(SOUTH).items() if code.isdigit()), key=parse_cell)


def cells(*names: str) -> list[int]:
    return [parse_cell(n) for n in names]


def drawn(game: ExtGame, k: int, n: int) -> int:
    """Draw ``k`` among ``n`` from the game's seed (D13)."""
    return draw(game.state.seed, k, n)


class TestShots:
    def test_a_hit_shoots_again_a_miss_passes(self):  # rules C3, A5
        g = new_game()
        assert answers(g, "a1") == ["sunk"] and g.state.to_act is S
        assert answers(g, "a2") == ["miss"] and g.state.to_act is N
        assert answers(g, "a1") == ["hit"] and g.state.to_act is N

    def test_victory_by_ships_only(self):  # rules C3, D5: mines and the minesweeper need not be hit
        g = new_game()
        answers(g, *sorted(NORTH_DECKS, key=parse_cell))
        assert g.state.result is not None and g.state.result.winner is S
        assert g.state.x.figure_state[N] == {parse_cell("g5"): "active", parse_cell("j3"): "active"}

    def test_repeated_cell_is_refused(self):  # rules A5
        g = new_game()
        answers(g, "a1")
        assert rejected(g, "a1") == "already_shot"


class TestMines:
    def test_a_mine_ends_the_turn_and_hands_its_owner_a_deck(self):  # rules C3, D6, D13
        g = new_game()
        assert answers(g, "a1", "g5") == ["sunk", "mine"]
        assert g.state.to_act is N  # rules C3: the turn ends
        pool = sorted(cells(*SOUTH_DECKS))  # every south deck is whole and unrevealed
        k1 = drawn(g, 1, len(pool))
        assert g.state.crosshairs[N] == {pool[k1]: 1}
        assert [d.to_dict() for d in g.state.draws] == [
            {"k": 0, "n": 2, "value": 0, "what": "first shooter: south"},
            {"k": 1, "n": 20, "value": k1, "what": "mine: which deck of south north sees"},
        ]
        assert g.state.x.figure_state[N][parse_cell("g5")] == "exploded"
        # a later shot at the crosshair is a sure hit and shoots again (C3)
        assert answers(g, cell_name(pool[k1]))[0] in ("hit", "sunk") and g.state.to_act is N

    def test_the_exploded_mine_is_a_miss_dot_and_its_ring_known_empty(self):  # rules C3, C2
        g = new_game()
        answers(g, "g5")
        shot = g.view("spectator").to_dict()["sides"]["south"]["shots"][0]
        assert (shot["cell"], shot["answer"], shot["ship"]) == ("g5", "mine", None)
        marks = g.view("south").to_dict()["sides"]["south"]["marks"]
        assert marks == ["f4", "f5", "f6", "g4", "g6", "h4", "h5", "h6"]

    def test_the_reveal_skips_decks_hit_or_already_revealed(self):  # rules D6
        g = new_game(first=N)
        answers(g, "a1", "a2", "a3")  # north hits three decks of south's 4-decker (and shoots again)
        answers(g, "b5")  # a miss
        answers(g, "g5")  # south hits north's mine: north sees one south deck
        pool = sorted(cells(*SOUTH_DECKS))
        pool = [c for c in pool if c not in cells("a1", "a2", "a3")]
        first = pool[drawn(g, 1, len(pool))]
        assert g.state.crosshairs[N] == {first: g.state.ply - 1}

    def test_nothing_to_reveal_nothing_drawn(self):  # rules D6
        g = new_game(first=N)
        answers(g, *SOUTH_DECKS[:-1], "b5")  # every deck but i6 hit, then a miss
        state = g.state
        state.crosshairs[N][parse_cell("i6")] = 0  # the last whole deck is known already
        answers(g, "g5")
        assert [d.k for d in state.draws] == [0] and list(state.crosshairs[N]) == [parse_cell("i6")]


class TestMinesweepers:
    def test_a_sweeper_hands_the_opponent_one_of_the_shooters_mines(self):  # rules C3
        g = new_game()
        assert answers(g, "j3") == ["sweeper"] and g.state.to_act is N
        assert g.state.gold[N] == {parse_cell("j10"): 0}  # one active mine: one choice, no draw (D13)
        assert [d.k for d in g.state.draws] == [0]
        assert g.state.x.figure_state[N][parse_cell("j3")] == "sunk"
        view = g.view("north").to_dict()
        assert view["sides"]["north"]["gold"] == ["j10"] and view["sides"]["south"]["handed"] == []
        assert g.view("south").to_dict()["sides"]["south"]["handed"] == ["j10"]
        assert g.view("spectator").to_dict()["sides"]["north"]["gold"] == []

    def test_the_mine_is_drawn_among_those_the_opponent_does_not_know(self):  # rules D6, D13
        from .helpers import PERELMAN

        opts = {"board": "perelman", "mines": 3, "sweepers": 1}
        g = new_game(PERELMAN, PERELMAN, opts)
        answers(g, "i7")  # north's minesweeper
        mines = cells("i1", "i3", "i5")
        got = mines[drawn(g, 1, 3)]
        assert g.state.gold[N] == {got: 0}

    def test_no_active_mine_nothing_handed(self):  # rules C3 decision
        south, north = SOUTH.replace(" M:j10", ""), NORTH.replace(" M:g5", "")
        g = new_game(south, north, {"board": "classic", "mines": 0, "sweepers": 1})
        assert answers(g, "j3") == ["sweeper"] and g.state.gold[N] == {} and g.state.to_act is N


class TestEnergy:
    def test_start_and_gain_at_each_own_turn(self):  # rules C4 (gained at the start of every own turn)
        g = new_game()
        assert g.state.energy == [15, 10]  # South's turn began: 10 + 2 + 2 (a 4-decker) + 1 (a 3-decker)
        answers(g, "b2")
        assert g.state.energy == [15, 15]  # capped at 15 (C4)

    def test_fewer_than_three_ships_gain_five_instead(self):  # rules C4
        g = new_game(first=N)
        keep = cells("a6", "a7", "c6")  # a 2-decker and a boat stay afloat
        answers(g, *[c for c in SOUTH_DECKS if parse_cell(c) not in keep])
        assert g.state.afloat[S] == 2 and g.state.gain(S) == 5  # +5, no ship of 4 or 3
        g2 = new_game(first=N)
        keep = cells("a1", "a2", "a3", "a4", "c1", "c2", "c3")
        answers(g2, *[c for c in SOUTH_DECKS if parse_cell(c) not in keep])
        assert g2.state.gain(S) == 5 + 2 + 1

    @pytest.mark.parametrize(("level", "start", "top"), [(1, 10, 15), (5, 12, 17), (10, 15, 20)])
    def test_level_perks_start_and_max(self, level, start, top):  # rules C6: L5, L10
        g = new_game(first=N, levels=(level, 1))
        assert g.state.energy[S] == start
        answers(g, "b5")
        assert g.state.energy[S] == min(top, start + 5)
        assert g.view("south").to_dict()["energy"] == {"value": min(top, start + 5), "max": top, "gain": 5}


class TestAirStrike:
    def test_the_cross_is_shot_in_reading_order_and_ends_the_turn(self):  # rules C5, D7
        g = new_game()
        events = g.apply("air a1")
        assert [str(e) for e in events][:4] == [
            "south air a1 (10)",
            "south a1: sunk",
            "south a2: miss",
            "south b1: miss",
        ]
        assert g.state.to_act is N and g.state.energy[S] == 5
        shots = g.view("north").to_dict()["sides"]["south"]["shots"]
        assert [(s["cell"], s["ply"], s["via"]) for s in shots] == [
            ("a1", 0, "air"),
            ("a2", 0, "air"),
            ("b1", 0, "air"),
        ]

    def test_self_reveal_of_a_big_ship_deck(self):  # rules C5 decision: 100 % below level 9
        g = new_game()
        g.apply("air a1")
        pool = cells("a1", "a2", "a3", "a4")
        assert g.state.crosshairs[N] == {pool[drawn(g, 1, 4)]: 0}

    def test_level_9_reveals_with_75_percent(self):  # rules C6: L9
        g = new_game(levels=(9, 1))
        g.apply("air a1")
        chance = drawn(g, 1, 100)
        assert g.state.draws[1].n == 100 and g.state.draws[1].value == chance
        assert bool(g.state.crosshairs[N]) == (chance < 75)

    def test_area_is_cut_at_the_edge_and_skips_shot_cells(self):  # rules D7
        g = new_game()
        answers(g, "a2", "b5", "b1", "b6")  # South and North miss in turn, twice
        events = g.apply("air a1")
        assert [str(e) for e in events if hasattr(e, "answer")] == ["south a1: sunk"]

    def test_refused_with_no_unshot_cell(self):  # rules D7
        g = new_game()
        answers(g, "a1", "a2", "b5", "b1", "b6")  # a1 sunk, a2 missed, North misses, b1 missed, North misses
        assert rejected(g, "air a1") == "nothing_to_shoot"

    def test_mines_in_the_area_take_effect_and_the_strike_goes_on(self):  # rules D7
        g = new_game()
        events = g.apply("air g5")
        assert [str(e) for e in events if hasattr(e, "answer")] == [
            "south f5: miss", "south g4: miss", "south g5: mine", "south g6: miss", "south h5: miss",
        ]  # fmt: skip
        handed = [e for e in events if type(e).__name__ == "Handed"]
        assert [(e.side, e.cause) for e in handed] == [(N, "mine"), (N, "air")]
        assert [d.k for d in g.state.draws] == [0, 1, 2]

    def test_the_win_counts_at_once(self):  # rules D7
        g = new_game()
        rest = [c for c in sorted(NORTH_DECKS, key=parse_cell) if c not in ("e5",)]
        answers(g, *rest)  # every north deck but e5 (hits: South keeps shooting)
        assert g.state.to_act is S and g.state.energy[S] == 15
        events = g.apply("air e5")
        assert [str(e) for e in events if hasattr(e, "answer")] == [
            "south d5: miss",
            "south e4: miss",
            "south e5: sunk",
        ]
        assert g.state.result.winner is S and g.state.to_act is None

    def test_needs_a_big_ship_afloat(self):  # rules C5
        g = new_game(first=N)
        answers(g, "a1", "a2", "a3", "a4", "b5")  # north sinks south's 4-decker, then misses
        assert rejected(g, "air b5") == "no_ship"

    def test_cost_penalty_per_hit_ship_afloat(self):  # rules C6 decision, D8
        g = new_game()
        g.apply("air b5")  # 15 - 10 = 5
        answers(g, "c1", "b5")  # North hits south's 3-decker, misses
        assert g.state.energy[S] == 10 and g.state.ability_cost(S, "air") == 11
        assert rejected(g, "air d5") == "no_energy"
        abilities = {a["key"]: a for a in g.view("south").to_dict()["abilities"]}
        assert abilities["air"]["cost"] == 11 and abilities["air"]["why"] == "energy"


class TestSonar:
    def test_answers_yes_or_no_and_keeps_the_turn(self):  # rules C5
        g = new_game()
        events = g.apply("sonar b2")  # a1 (a boat of North) is in the 3×3
        scan = g.state.x.scans[S][0]
        assert scan.answer is True and scan.mines is None and len(scan.cells) == 9
        assert g.state.to_act is S and g.state.energy[S] == 9
        assert str(events[1]) == "south sonar b2: True"

    def test_one_ability_per_turn(self):  # rules C5 decision, D8
        g = new_game()
        g.apply("sonar e3")
        assert rejected(g, "sonar f6") == "one_ability"
        assert rejected(g, "air f6") == "one_ability"
        answers(g, "j1", "j2")  # misses: North's turn, then South's again
        assert g.state.to_act is S and g.apply("sonar f6")

    def test_no_hit_deck_no(self):  # rules C5: whole decks only
        g = new_game()
        answers(g, "a1")  # the boat at a1 is sunk: no whole deck left near
        g.apply("sonar b2")
        assert g.state.x.scans[S][0].answer is False

    def test_self_reveal_with_50_percent(self):  # rules C5 decision
        g = new_game()
        g.apply("sonar b2")
        chance = drawn(g, 1, 100)
        pool = cells("a6", "a7", "g1", "g2", "i1", "i2")
        expect = {pool[drawn(g, 2, 6)]: 0} if chance < 50 else {}
        assert g.state.crosshairs[N] == expect

    def test_level_6_reports_mines(self):  # rules C6: L6, D11
        g = new_game(levels=(6, 1))
        g.apply("sonar g6")
        assert g.state.x.scans[S][0].mines is True
        g2 = new_game(levels=(6, 1))
        g2.apply("sonar b2")
        assert g2.state.x.scans[S][0].mines is False

    def test_level_2_costs_5(self):  # rules C6: L2
        g = new_game(levels=(2, 1))
        g.apply("sonar b2")
        assert g.state.energy[S] == 10

    def test_the_answer_goes_to_the_scanner_only(self):  # rules D12
        g = new_game()
        g.apply("sonar b2")
        mine = g.view("south").to_dict()["sides"]["south"]["scans"][0]
        other = g.view("north").to_dict()["sides"]["south"]["scans"][0]
        assert (mine["answer"], other["answer"], other["center"], len(other["cells"])) == (True, None, "b2", 9)
        uses = g.view("spectator").to_dict()["sides"]["south"]["uses"]
        assert uses == [{"ply": 0, "ability": "sonar", "cell": "b2"}]

    def test_a_scan_out_of_the_board(self):  # docs/battleship_ext.md: bad_cell
        assert rejected(new_game(), "sonar k1") == "bad_cell"


class TestManoeuvre:
    def test_moves_the_boat_and_ends_the_turn(self):  # rules C5
        g = new_game()
        events = g.apply("move c6-c5")
        assert [str(e) for e in events][:2] == ["south move (4)", "south boat c6-c5"]
        assert g.state.to_act is N and g.state.energy[S] == 11
        assert answers(g, "c6") == ["miss"] and g.state.to_act is S  # the boat is gone from c6
        assert answers(g, "b1") == ["miss"]
        assert answers(g, "c5") == ["sunk"]

    def test_a_spent_manoeuvre_says_so_in_the_opponents_turn(self):  # rules C5: once per game (QA: «не ваш ход»)
        g = new_game()
        g.apply("move c6-c5")
        assert g.state.to_act is N
        move = next(a for a in g.view("south").to_dict()["abilities"] if a["key"] == "move")
        assert (move["ready"], move["why"]) == (False, "used")
        sonar = next(a for a in g.view("south").to_dict()["abilities"] if a["key"] == "sonar")
        assert (sonar["ready"], sonar["why"]) == (False, "not_your_turn")  # not spent: only not its turn

    @pytest.mark.parametrize(
        ("move", "code"),
        [
            ("move c6-d6", "touching"),  # rules C5, D9: e6 is a boat
            ("move c6-b6", "touching"),  # a6 is a 2-decker
            ("move c6-c8", "not_adjacent"),
            ("move a1-b1", "not_a_boat"),
            ("move b9-b10", "not_a_boat"),
            ("move c6-c16", "bad_cell"),
        ],
    )
    def test_refusals(self, move, code):  # rules C5, D9
        assert rejected(new_game(), move) == code

    def test_not_onto_a_cell_the_opponent_shot(self):  # rules D9
        g = new_game(first=N)
        answers(g, "c7")
        assert rejected(g, "move c6-c7") == "shot_cell"

    def test_figures_count_for_no_touch(self):  # rules D9: the minesweeper at c10 too
        g = new_game(south=SOUTH.replace("1:i6", "1:c8").replace("T:c10", "T:d10"))
        assert rejected(g, "move c8-c9") == "touching"

    def test_a_sunk_boat_cannot_move(self):  # rules C5
        g = new_game(first=N)
        answers(g, "c6", "b5")
        assert rejected(g, "move c6-c5") == "boat_hit"

    def test_once_per_game(self):  # rules C5
        g = new_game()
        g.apply("move c6-c5")
        answers(g, "b5")
        assert rejected(g, "move e6-e5") == "used"

    def test_a_crosshair_on_the_boat_is_removed(self):  # rules D9
        g = new_game()
        g.state.crosshairs[N][parse_cell("c6")] = 0
        g.apply("move c6-c5")
        assert g.state.crosshairs[N] == {}

    def test_where_it_went_is_secret(self):  # rules D12
        g = new_game()
        g.apply("move c6-c5")
        assert g.view("north").to_dict()["sides"]["south"]["uses"] == [{"ply": 0, "ability": "move", "cell": None}]

    def test_level_3_costs_3(self):  # rules C6: L3
        g = new_game(levels=(3, 1))
        g.apply("move c6-c5")
        assert g.state.energy[S] == 12

    def test_level_7_boat_hides_from_scans_for_two_opponent_turns(self):  # rules C6: L7, D11
        g = new_game(levels=(7, 1))
        g.apply("move e6-e5")  # the boat at e5 now, alone in the 3×3 around e5
        results = []
        for _ in range(3):  # North's next three turns
            g.apply("sonar e5")
            results.append(g.state.x.scans[N][-1].answer)
            answers(g, next(c for c in ("j1", "j2", "j3", "j4", "j5", "j6") if parse_cell(c) not in g.state.shots[N]))
            answers(g, next(c for c in ("b5", "b6", "b7", "b8") if parse_cell(c) not in g.state.shots[S]))
        assert results == [False, False, True]

    def test_level_6_boat_does_not_hide(self):  # rules C6: the perk comes at L7
        g = new_game(levels=(6, 1))
        g.apply("move e6-e5")
        g.apply("sonar e5")
        assert g.state.x.scans[N][-1].answer is True


class TestUltimates:
    def test_carpet_at_level_4(self):  # rules C6: L4, D8
        g = new_game(levels=(4, 1))
        events = g.apply("carpet b2")
        assert len([e for e in events if hasattr(e, "answer")]) == 9
        assert g.state.to_act is N and g.state.energy[S] == 1
        assert len(g.state.crosshairs[N]) == 2  # two decks of the 4-decker (C6)
        assert set(g.state.crosshairs[N]) <= set(cells("a1", "a2", "a3", "a4"))

    def test_once_per_battle(self):  # rules C6
        g = new_game(levels=(4, 1))
        g.apply("carpet b2")
        answers(g, "b5")
        assert rejected(g, "carpet h2") == "used"

    def test_level_4_air_costs_9(self):  # rules C6: L4
        g = new_game(levels=(4, 1))
        g.apply("air a1")
        assert g.state.energy[S] == 6

    def test_satellite_counts_whole_decks_and_keeps_the_turn(self):  # rules C6: L6, D8
        g = new_game(levels=(6, 1))
        answers(g, "a9")  # a hit on north's 3-decker a8-a10: its deck a9 no longer whole
        g.apply("satellite c9")  # a7?-e11: a8, a10, c8, c9, c10, e9, e10 whole
        assert g.state.x.scans[S][0].answer == 7 and g.state.to_act is S
        assert g.state.energy[S] == 12 + 5 - 12  # L6 starts with 12 (C6: L5) and gains 5

    def test_satellite_reveals_a_two_decker_deck(self):  # rules C6
        g = new_game(levels=(6, 1))
        g.apply("satellite c3")
        assert len(g.state.crosshairs[N]) == 1
        assert set(g.state.crosshairs[N]) <= set(cells("a6", "a7", "g1", "g2", "i1", "i2"))

    def test_an_ultimate_is_the_turns_one_ability(self):  # rules D8
        g = new_game(levels=(6, 1))
        g.apply("sonar e3")
        assert rejected(g, "satellite e3") == "one_ability"

    def test_each_new_ultimate_replaces_the_last(self):  # rules C6
        assert rejected(new_game(levels=(6, 1)), "carpet b2") == "no_ultimate"
        assert rejected(new_game(levels=(1, 1)), "carpet b2") == "no_ultimate"
        assert rejected(new_game(levels=(8, 1)), "satellite b2") == "no_ultimate"
        keys = [a["key"] for a in new_game(levels=(8, 1)).view("south").to_dict()["abilities"]]
        assert keys == ["air", "sonar", "move", "repair"]

    def test_repair_restores_a_deck(self):  # rules C6: L8, D10
        g = new_game(first=N, levels=(8, 1))
        answers(g, "c1", "b5")  # north hits south's 3-decker, misses
        assert g.state.penalty(S) == 1 and rejected(g, "repair c2") == "not_hit"
        events = g.apply("repair c1")
        assert str(events[-1]) == "south repaired c1" and g.state.to_act is S  # no turn used (D8)
        assert g.state.energy[S] == 17 - 14 and g.state.penalty(S) == 0  # 13 + 1 for the hit ship (D8)
        north = g.view("north").to_dict()
        assert north["sides"]["north"]["shots"][0]["repaired"] is True
        assert north["sides"]["south"]["repaired"] == ["c1"]
        assert g.view("south").to_dict()["sides"]["south"]["ships"][1]["hits"] == []
        answers(g, "j1")
        assert answers(g, "c1") == ["hit"]  # D10: the cell may be shot again

    def test_repair_refusals(self):  # rules C6, D10
        g = new_game(first=N, levels=(8, 1))
        answers(g, "c6", "b5")  # the boat at c6 sunk
        assert rejected(g, "repair c6") == "no_ship"
        g2 = new_game(levels=(8, 1))
        assert rejected(g2, "repair a1") == "no_ship"  # no hit ship at all
        g3 = new_game(first=N, levels=(8, 1))
        answers(g3, "c1", "b5")
        g3.apply("repair c1")
        answers(g3, "j1", "c1", "b6")
        assert rejected(g3, "repair c1") == "used"


class TestRefusals:
    def test_not_your_turn(self):  # docs/battleship_ext.md
        g = new_game()
        assert rejected(g, "sonar b2", by=N) == "not_your_turn"
        assert rejected(g, "b2", by=N) == "not_your_turn"

    @pytest.mark.parametrize("text", ["air", "air b5 c6", "move a1", "move a1-a2-a3", "jump b5", "sonar"])
    def test_bad_notation(self, text):  # docs/battleship_ext.md
        assert rejected(new_game(), text) == "bad_notation"

    def test_game_over(self):  # docs/battleship_ext.md
        g = new_game()
        g.apply("resign north")
        assert rejected(g, "sonar b2") == "game_over"

    def test_ability_after_a_hit(self):  # rules D8: whenever a shot is due
        g = new_game()
        answers(g, "a1")
        assert g.apply("sonar e5")


class TestMorePerks:
    def test_level_8_sonar_reveals_with_25_percent(self):  # rules C6: L8
        g = new_game(levels=(8, 1))
        g.apply("sonar b2")
        chance = drawn(g, 1, 100)
        assert (g.state.draws[1].n, g.state.draws[1].value) == (100, chance)
        assert bool(g.state.crosshairs[N]) == (chance < 25)

    def test_carpet_needs_a_big_ship_afloat(self):  # rules D8
        g = new_game(first=N, levels=(4, 1))
        answers(g, "a1", "a2", "a3", "a4", "b5")
        assert rejected(g, "carpet e5") == "no_ship"

    def test_satellite_needs_a_two_decker_afloat(self):  # rules D8
        g = new_game(first=N, levels=(6, 1))
        answers(g, "a6", "a7", "g1", "g2", "i1", "i2", "b5")
        assert rejected(g, "satellite e5") == "no_ship"
        assert rejected(g, "sonar e5") == "no_ship"  # rules C5: sonar too

    def test_level_7_boat_hides_from_the_satellite(self):  # rules C6: L7
        g = new_game(levels=(7, 6))
        g.apply("move e6-e5")
        g.apply("satellite e5")  # 5×5 around e5: c3? no; c5, c6, e5 (hidden), g6... whole decks of South
        scan = g.state.x.scans[N][-1]
        decks = {c for c in g.state.whole_decks(S) if c in scan.cells}
        assert parse_cell("e5") in decks and scan.answer == len(decks) - 1

    def test_the_penalty_counts_ships_not_hits(self):  # rules C6 decision
        g = new_game(first=N)
        answers(g, "a1", "a2", "c1")  # two hits on the 4-decker, one on a 3-decker
        assert g.state.penalty(S) == 2
        answers(g, "c2", "c3")  # the 3-decker sinks: no longer afloat
        assert g.state.penalty(S) == 1
