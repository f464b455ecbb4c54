"""Play: the first shooter, answers and turns under each rule set, salvos, refusals, ends (rules A4–A7, B2, B3,
D2, D3)."""

from __future__ import annotations

import pytest

from admiral.games.battleship.rules import (
    Answer,
    Game,
    GameOver,
    IllegalAction,
    Reason,
    Side,
    TurnPassed,
    cell_name,
    first_shooter,
    setup_from_text,
)

from .helpers import (
    CLASSIC,
    CLASSIC_FLEET,
    CLASSIC_FLEET_2,
    HASBRO,
    HASBRO_FLEET,
    HASBRO_FLEET_2,
    SALVO,
    UNNAMED_SALVO,
    new_game,
    rejected,
    shoot,
)

S, N = Side.SOUTH, Side.NORTH
#: Every cell of North's classic fleet 2 (CLASSIC_FLEET_2), ship by ship.
NORTH_CLASSIC_SHIPS = ["j7 j8 j9 j10", "a8 a9 a10", "c8 c9 c10", "e9 e10", "g9 g10", "h1 i1", "a1", "e1", "e5", "c5"]


def classic(first=S):
    return new_game(CLASSIC, CLASSIC_FLEET, CLASSIC_FLEET_2, first)


class TestFirstShooter:
    def test_drawn_from_the_seed(self):  # rules A4, D2
        setups = {"south": setup_from_text(CLASSIC_FLEET), "north": setup_from_text(CLASSIC_FLEET_2)}
        firsts = {Game(setups, {"seed": seed}).state.to_act for seed in range(40)}
        assert firsts == {S, N}

    def test_the_same_seed_the_same_first_shooter(self):  # rules A4
        for seed in (0, 1, 2**70, -5):
            assert first_shooter(seed) is first_shooter(seed)
        g = new_game(HASBRO, HASBRO_FLEET, HASBRO_FLEET_2, N)
        assert g.state.first is N and g.state.to_act is N

    @pytest.mark.parametrize("settings", [{}, {"seed": None}, {"seed": "7"}, {"seed": True}, {"seed": 1.0}])
    def test_a_game_needs_an_int_seed(self, settings):  # rules A4: never a fixed first shooter
        setups = {"south": setup_from_text(CLASSIC_FLEET), "north": setup_from_text(CLASSIC_FLEET_2)}
        with pytest.raises(IllegalAction) as e:
            Game(setups, settings)
        assert e.value.code == "bad_settings"


class TestClassicTurns:
    def test_a_hit_shoots_again(self):  # rules A5
        g = classic()
        assert shoot(g, "j7") == ["hit"] and g.state.to_act is S and g.state.shots_left == 1

    def test_a_sinking_shoots_again(self):  # rules A5
        g = classic()
        assert shoot(g, "a1") == ["sunk"] and g.state.to_act is S

    def test_a_miss_passes_the_turn(self):  # rules A5
        g = classic()
        events = g.apply("b5")
        assert [type(e).__name__ for e in events] == ["ShotFired", "TurnPassed"]
        assert events[1] == TurnPassed(0, N, 1) and g.state.to_act is N

    def test_wounded_until_the_last_deck(self):  # rules A5: «ранен» while a whole deck is left, then «убит»
        g = classic()
        assert shoot(g, "j10", "j8", "j7", "j9") == ["hit", "hit", "hit", "sunk"]
        sunk = g.state.history[-1]
        assert sunk.code == "4" and [cell_name(c) for c in sunk.sunk] == ["j7", "j8", "j9", "j10"]

    def test_a_turn_is_a_run_of_shots_until_a_miss(self):  # rules A5
        g = classic()
        shoot(g, "j7", "j8", "a1", "b2")
        assert g.state.to_act is N and [e.turn_start for e in g.state.history] == [True, False, False, False]
        shoot(g, "j1")
        assert g.state.history[-1].turn_start and g.state.to_act is S

    def test_the_grids_are_separate(self):  # rules A5: each side shoots the other's grid
        g = classic()
        shoot(g, "b5")
        assert shoot(g, "b5") == ["miss"] and g.state.to_act is S

    def test_sinking_the_whole_fleet_wins_at_once(self):  # rules A7
        g = classic()
        cells = " ".join(NORTH_CLASSIC_SHIPS).split()
        answers = shoot(g, *cells)
        assert answers.count("sunk") == 10 and answers.count("hit") == 10
        assert g.state.result is not None and (g.state.result.winner, g.state.result.reason) == (S, Reason.FLEET_SUNK)
        assert isinstance(g.log[-1], GameOver) and g.state.to_act is None and g.legal_actions() == []


class TestRefusals:
    def test_a_repeated_cell_is_refused_and_is_not_a_shot(self):  # rules A5
        g = classic()
        shoot(g, "j7")
        assert rejected(g, "j7") == "already_shot"
        assert rejected(g, "J7") == "already_shot" and rejected(g, "К7") == "already_shot"
        assert g.state.to_act is S and g.state.shots_left == 1

    def test_out_of_turn_shots_are_refused(self):
        g = classic()
        assert rejected(g, "b5", by=N) == "not_your_turn"
        shoot(g, "b5")
        assert rejected(g, "a1", by=S) == "not_your_turn"

    def test_cells_off_the_board_are_refused(self):
        g = classic()
        assert rejected(g, "k1") == "bad_cell" and rejected(g, "a11") == "bad_cell"

    def test_bad_notation_is_refused(self):
        with pytest.raises(IllegalAction) as e:
            classic().apply("b5 c6")
        assert e.value.code == "bad_notation"

    def test_shots_after_the_end_are_refused(self):  # rules A7
        g = classic()
        shoot(g, *" ".join(NORTH_CLASSIC_SHIPS).split())
        assert rejected(g, "b5") == "game_over" and rejected(g, "resign north") == "game_over"

    def test_the_ring_of_a_sunk_ship_stays_legal(self):  # rules A6: known empty is a record aid, not a shot
        g = classic()
        shoot(g, "e5")
        assert "d5" in [str(a) for a in g.legal_actions()] and shoot(g, "d5") == ["miss"]


class TestHasbroTurns:
    def test_one_shot_then_the_turn_passes_after_a_hit(self):  # rules B2
        g = new_game(HASBRO, HASBRO_FLEET, HASBRO_FLEET_2)
        assert shoot(g, "a10") == ["hit"] and g.state.to_act is N

    def test_and_after_a_miss(self):  # rules B2
        g = new_game(HASBRO, HASBRO_FLEET, HASBRO_FLEET_2)
        assert shoot(g, "j10") == ["miss"] and g.state.to_act is N

    def test_hits_name_the_ship_and_the_last_deck_sinks_it(self):  # rules B2
        g = new_game(HASBRO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "i1", "f1", "j1")
        a, b = g.state.history[0], g.state.history[-1]
        assert (a.answer, a.code) == (Answer.HIT, "P") and (b.answer, b.code) == (Answer.SUNK, "P")

    def test_sinking_all_five_wins(self):  # rules B2
        g = new_game(HASBRO, HASBRO_FLEET, HASBRO_FLEET_2)
        north = "a10 b10 c10 d10 e10 f10 g10 h10 i10 a8 b8 c8 h7 i7 j7 i1 j1".split()
        south_misses = [f"j{c}" for c in range(1, 11)] + [f"i{c}" for c in range(1, 11)]
        for mine, theirs in zip(north, south_misses, strict=False):
            shoot(g, mine)
            if g.state.result is None:
                shoot(g, theirs)
        assert g.state.result.winner is S and g.state.result.reason is Reason.FLEET_SUNK


def drive(game: Game, targets: dict[Side, list[str]], stop) -> None:
    """Let each side fire its next target in turn until ``stop(game)``."""
    queues = {s: iter(t) for s, t in targets.items()}
    while not stop(game):
        game.apply(next(queues[game.state.to_act]))


#: South's grid (HASBRO_FLEET) has its ships in rows a–e; rows f–j are empty.
SOUTH_EMPTY = [f"{r}{c}" for r in "fghij" for c in range(1, 11)]
NORTH_D = ["a8", "b8", "c8"]
NORTH_OTHERS = "a10 b10 c10 d10 e10 f10 g10 h10 i10 h7 i7 j7 i1 j1".split()


def north_cells_but(*keep: str) -> list[str]:
    """Every cell of North's grid but ``keep``: North's ships but its destroyer first."""
    rest = [f"{r}{c}" for r in "abcdefghij" for c in range(1, 11)]
    return NORTH_OTHERS + [c for c in rest if c not in NORTH_OTHERS and c not in keep]


class TestSalvo:
    def test_a_salvo_is_five_shots_at_first(self):  # rules B3
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        assert g.state.shots_left == 5
        for left in (4, 3, 2, 1):
            shoot(g, f"j{left}")
            assert g.state.to_act is S and g.state.shots_left == left
        events = g.apply("j5")
        assert events[-1] == TurnPassed(4, N, 5) and g.state.shots_left == 5

    def test_each_shot_is_answered_before_the_next(self):  # rules B3
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        assert shoot(g, "i1") == ["hit"] and g.state.shots_left == 4
        assert g.view("south").sides[S].shots[-1].ship == "P"

    def test_a_sinking_reduces_the_next_salvo_only(self):  # rules B3, D3
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "j2", "j3", "j4", "j5", "j6")  # South misses five
        assert shoot(g, "e1", "e2") == ["hit", "sunk"]  # North sinks South's patrol boat mid-salvo
        assert g.state.to_act is N and g.state.shots_left == 3  # North's own salvo goes on
        shoot(g, "j1", "j2", "j3")
        assert g.state.to_act is S and g.state.shots_left == 4  # South's next salvo: four ships afloat

    def test_the_sinking_shooter_keeps_its_salvo(self):  # rules D3
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        assert shoot(g, "i1", "j1") == ["hit", "sunk"] and g.state.shots_left == 3
        shoot(g, "f1", "f2", "f3")
        assert g.state.to_act is N and g.state.shots_left == 4  # North lost a ship: its first salvo is four

    def test_a_repeated_cell_keeps_the_salvo_its_shots(self):  # rules D3
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        shoot(g, "b5", "b6")
        assert rejected(g, "b5") == "already_shot" and g.state.shots_left == 3 and g.state.turn_shots == 2

    @pytest.mark.parametrize("options", [SALVO, UNNAMED_SALVO], ids=["named", "unnamed"])
    def test_the_salvo_is_capped_by_the_unshot_cells(self, options):  # rules D3
        g = new_game(options, HASBRO_FLEET, HASBRO_FLEET_2)
        targets = {S: north_cells_but(*NORTH_D), N: ["e1", "e2", *SOUTH_EMPTY]}
        drive(g, targets, lambda g: len(g.state.shots[S]) == 97 and g.state.to_act is S)
        assert g.state.afloat == [4, 1] and g.state.unshot(S) == 3
        assert g.state.shots_left == 3 and g.view("south").shots_left == 3

    def test_the_last_sinking_wins_at_once_and_the_rest_is_not_fired(self):  # rules D3, A7
        g = new_game(SALVO, HASBRO_FLEET, HASBRO_FLEET_2)
        targets = {S: north_cells_but(*NORTH_D, "j9", "j10", "g1", "g2"), N: ["e1", "e2", *SOUTH_EMPTY]}
        drive(g, targets, lambda g: len(g.state.shots[S]) == 93 and g.state.to_act is S)
        assert g.state.shots_left == 4
        assert shoot(g, *NORTH_D) == ["hit", "hit", "sunk"]
        assert (g.state.result.winner, g.state.result.reason) == (S, Reason.FLEET_SUNK)
        assert g.state.to_act is None and g.state.shots_left == 0 and g.legal_actions() == []
        assert rejected(g, "j9") == "game_over"


class TestEnds:
    @pytest.mark.parametrize(
        ("action", "winner", "reason"),
        [
            ("resign south", N, Reason.RESIGN),
            ("resign north", S, Reason.RESIGN),
            ("flag north", S, Reason.FLAG),
            ("abandon south", N, Reason.ABANDON),
            ("draw", None, Reason.DRAW),
        ],
    )
    def test_end_actions(self, action, winner, reason):
        g = classic()
        shoot(g, "j7")
        events = g.apply(action)
        assert events == [GameOver(1, g.state.result)] and g.state.result.winner is winner
        assert g.state.result.reason is reason and g.state.to_act is None and g.ply == 2
        assert g.state.result.to_dict() == {"winner": None if winner is None else winner.label, "reason": reason}

    def test_a_side_may_resign_out_of_turn_but_only_for_itself(self):
        g = classic()
        assert rejected(g, "resign south", by=N) == "not_your_side"
        g.apply("resign north", by=N)
        assert g.state.result.winner is S
