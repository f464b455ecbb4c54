"""GameStats from played positions: every counter of PROGRESSION.md §2, §4, §5 on a hand-made example.

Each position is small: the two home fleets of ``helpers`` plus the units of the test. Four filler moves give
both sides two turns, then South acts, then North resigns (unless the test ends the game otherwise).
"""

import pytest

from admiral.games.admiral.rules import IllegalAction, Reason
from admiral.progression import Outcome, stats_of_play

from .helpers import FILLER, NORTH, SOUTH, position, stats


class TestTorpedo:
    # progression §5 «Торпедная атака»: enemy units destroyed by own torpedo shots; the torpedo itself is spent
    def test_torpedo_shot_kills_a_cruiser(self):
        s, n = stats(position("TKd7 Te8", "KRe10"), "e8xe10")
        assert (s.torpedo_kills, s.units_sunk, s.sunk_tonnes) == (1, 1, 12_000)
        assert (n.torpedo_kills, n.units_sunk, n.sunk_tonnes) == (0, 0, 0)  # the spent torpedo is nobody's kill
        assert s.award_increments()["torpedo"] == 1

    # progression §5 + rules §7.2: a carrier hit by a torpedo takes its aircraft with it: two kills
    def test_torpedo_on_a_carrier_takes_the_aircraft(self):
        s, _ = stats(position("TKd7 Te8", "Ae10 Sn10"), "e8xe10")
        assert (s.torpedo_kills, s.units_sunk, s.sunk_tonnes) == (2, 2, 40_000)

    # progression §5: an armed torpedo that goes off when rammed is not a torpedo *shot*; it counts for «Охотник»
    def test_rammed_armed_torpedo_is_no_torpedo_kill(self):
        s, n = stats(position("KRe8", "Te9 TKf10"), "e8xe9")
        assert (n.torpedo_kills, n.units_sunk, n.sunk_tonnes) == (0, 1, 12_000)
        assert (s.torpedo_kills, s.units_sunk) == (0, 1)


class TestAviation:
    # progression §5 «Морская авиация»: enemy units destroyed by own air strikes
    def test_air_strike_kills_a_destroyer(self):
        s, n = stats(position("Ad7 Se8", "ESe11"), "e8xe11")
        assert (s.air_kills, s.units_sunk, s.sunk_tonnes) == (1, 1, 2_500)
        assert (n.air_kills, n.units_sunk) == (0, 0)

    # progression §5: an aircraft shot down by a battleship's AA fire is the battleship side's unit sunk, no medal
    def test_aa_fire_counts_for_the_hunter_only(self):
        s, n = stats(position("Ad7 Se8", "Le11"), "e8xe11")
        assert (s.air_kills, s.units_sunk) == (0, 0)
        assert (n.air_kills, n.units_sunk, n.sunk_tonnes) == (0, 1, 0)

    # progression §5: aircraft on aircraft: both destroyed, the striker's side has one air kill
    def test_aircraft_on_aircraft(self):
        s, n = stats(position("Ad7 Se8", "Se11"), "e8xe11")
        assert (s.air_kills, s.units_sunk) == (1, 1)
        assert (n.air_kills, n.units_sunk) == (0, 1)

    # progression §5 + rules §7.2: an air strike on a carrier takes its aircraft too
    def test_air_strike_on_a_carrier(self):
        s, _ = stats(position("Ad7 Se8", "Ae11 Sn10"), "e8xe11")
        assert (s.air_kills, s.units_sunk, s.sunk_tonnes) == (2, 2, 40_000)

    # progression §5: a strike on a mine only reveals it: nothing counts
    def test_air_strike_on_a_mine_counts_nothing(self):
        s, n = stats(position("Ad7 Se8", "Me11"), "e8xe11")
        assert (s.air_kills, s.units_sunk, s.mines_cleared, n.mine_kills) == (0, 0, 0, 0)


class TestMineWar:
    # progression §5 «Минная война»: an enemy ship that rams own mine is a mine kill of the mine's owner
    def test_ship_on_a_mine(self):
        s, n = stats(position("KRe8", "Me9"), "e8xe9")
        assert (n.mine_kills, n.mines_cleared, n.units_sunk, n.sunk_tonnes) == (1, 0, 1, 12_000)
        assert (s.mine_kills, s.mines_cleared, s.units_sunk) == (0, 0, 1)
        assert n.award_increments()["mines"] == 1

    # progression §5: a minesweeper clears an enemy mine and stays
    def test_sweeper_clears_a_mine(self):
        s, n = stats(position("TRe8", "Me9"), "e8xe9")
        assert (s.mines_cleared, s.mine_kills, s.units_sunk) == (1, 0, 1)
        assert (n.mine_kills, n.units_sunk) == (0, 0)
        assert s.award_increments()["mines"] == 1

    # progression §5: a sweeper on a stationary mine: both go; one cleared mine and one mine kill
    def test_sweeper_on_a_stationary_mine(self):
        s, n = stats(position("TRe8", "SMe9"), "e8xe9")
        assert (s.mines_cleared, s.units_sunk) == (1, 1)
        assert (n.mine_kills, n.units_sunk, n.sunk_tonnes) == (1, 1, 700)

    # progression §5: any ship on a stationary mine is a mine kill
    def test_battleship_on_a_stationary_mine(self):
        _, n = stats(position("Le8", "SMe9"), "e8xe9")
        assert (n.mine_kills, n.sunk_tonnes) == (1, 45_000)

    # progression §5 + rules §7.2: a fireship goes with what it rams (spent): the mine is its kill, no mine counter
    def test_fireship_on_a_mine(self):
        s, n = stats(position("BRe8", "Me9"), "e8xe9")
        assert (s.units_sunk, s.mines_cleared, s.mine_kills) == (1, 0, 0)
        assert (n.units_sunk, n.mine_kills) == (0, 0)

    # progression §5: a torpedo that hits a mine is a torpedo kill, not mine war
    def test_torpedo_on_a_mine(self):
        s, _ = stats(position("TKd7 Te8", "Me10"), "e8xe10")
        assert (s.torpedo_kills, s.mines_cleared) == (1, 0)


class TestAtomic:
    # progression §5 «Ядерный удар»: units destroyed by own bomb, enemy units only; own losses count for the enemy
    def test_own_detonation(self):
        # square of g8: e6–i10. North's L i6, PL e10, KR g9 inside, R j8 outside; South's KR e6 inside.
        s, n = stats(position("ABg8 KRe6", "Li6 PLe10 KRg9 Rj8"), "АБ!")
        assert (s.atomic_kills, s.units_sunk, s.sunk_tonnes) == (3, 3, 45_000 + 1_000 + 12_000)
        # the enemy's own bomb counts for its opponent's tonnage and units sunk (§2 "their own bomb included"),
        # but the detonated bomb itself is spent
        assert (n.atomic_kills, n.units_sunk, n.sunk_tonnes) == (0, 1, 12_000)

    # progression §5: credited to the bomb's owner whoever set it off (here North's torpedo)
    def test_enemy_torpedo_sets_off_the_bomb(self):
        # South's bomb g8; North's torpedo g10 (its TK h11 outside the square) fires down the column.
        state = position("ABg8 ESf7", "Tg10 TKh11 KRh9")
        s, n = stats(state, "b3-b4", "g10xg8")
        assert (s.atomic_kills, s.units_sunk, s.sunk_tonnes) == (1, 1, 12_000)  # the KR h9; the torpedo is spent
        assert (n.torpedo_kills, n.atomic_kills) == (0, 0)
        assert (n.units_sunk, n.sunk_tonnes) == (2, 2_500)  # the bomb it set off and the ES f7

    # progression §5: a ship that rams the enemy bomb dies in it: an atomic kill of the bomb's owner
    def test_ship_rams_the_enemy_bomb(self):
        s, n = stats(position("KRg7", "ABg8 ESh9"), "g7xg8")
        assert (n.atomic_kills, n.units_sunk) == (1, 1)
        assert (s.atomic_kills, s.units_sunk, s.sunk_tonnes) == (0, 2, 2_500)  # the bomb and the ES h9

    # progression §5: an aircraft striking the bomb from outside the square survives; nothing of it is credited
    def test_air_strike_on_the_bomb_from_outside(self):
        s, n = stats(position("Ad4 Se5", "ABe8 KRf9"), "e5xe8")
        assert (n.atomic_kills, s.air_kills, s.atomic_kills) == (0, 0, 0)
        assert (s.units_sunk, s.sunk_tonnes) == (2, 12_000)


class TestBases:
    # progression §5 «Штурм базы»: an enemy base destroyed by a contact attack; not a battle won
    def test_contact_on_a_base(self):
        s, n = stats(position("ESe8", "VMBe9"), "e8xe9")
        assert (s.bases_destroyed, s.units_sunk, s.battles_won) == (1, 1, 0)
        assert (n.bases_intact, s.bases_intact) == (False, True)  # a lost base, even a third one here
        assert s.award_increments()["base_assault"] == 1

    # progression §2, §5 «Оборона базы»: winning by destroying the enemy's last base, both own bases intact
    def test_win_by_bases(self):
        state = position("ESe8 VMBa1 VMBc1 TRb1", "VMBe9 TRm15", homes=False)
        s, n = stats(state, "e8xe9", end=None)
        assert (s.outcome, n.outcome, s.reason) == (Outcome.WIN, Outcome.LOSS, Reason.BASES)
        assert (s.bases_destroyed, s.bases_intact, n.bases_intact) == (1, True, False)
        assert s.award_increments()["base_defence"] == 1
        assert n.award_increments()["base_defence"] == 0

    # progression §5: an enemy base blown up by the enemy's own bomb is credited to nobody; own bomb credits it
    def test_bases_and_bombs(self):
        # South's bomb h3 takes South's base h2, North's ES i4 and a North base standing on i4's neighbour j4.
        state = position("ABh3 VMBh2 VMBa1 TRb1", "ESi4 VMBj4 VMBn15 TRm15", homes=False)
        s, n = stats(state, "АБ!")
        assert (s.bases_destroyed, s.atomic_kills, s.bases_intact) == (1, 2, False)
        assert (n.bases_destroyed, n.units_sunk, n.bases_intact) == (0, 1, False)


class TestBattles:
    # progression §5 "battle won": a scale battle after which own declared members stand and the other's do not
    def test_single_ship_wins(self):
        s, n = stats(position("ESe8", "TRe9"), "e8xe9")
        assert (s.battles_won, s.formation_battles_won, s.submarine_battles_won) == (1, 0, 0)
        assert n.battles_won == 0

    # progression §5 «Подводный удар», «Соединение»: a pack of two submarines wins: both counters
    def test_submarine_pack_wins(self):
        s, _ = stats(position("PLe8 PLd8", "KRe9"), "e8xe9 [d8+e8]")
        assert (s.battles_won, s.submarine_battles_won, s.formation_battles_won) == (1, 1, 1)
        assert (s.units_sunk, s.sunk_tonnes) == (1, 12_000)

    # progression §5 «Подводный удар»: a single submarine (КРПЛ) counts; one ship is no formation
    def test_single_cruiser_submarine_wins(self):
        s, _ = stats(position("KRPLe8", "STe9"), "e8xe9")
        assert (s.submarine_battles_won, s.formation_battles_won) == (1, 0)

    # progression §5: the defender wins with a declared formation; the declaration is not a turn
    def test_defender_wins_with_a_formation(self):
        s, n = stats(position("KRe8", "ESe9 ESf9"), "e8xe9", "[e9+f9]")
        assert (n.battles_won, n.formation_battles_won, n.submarine_battles_won) == (1, 1, 0)
        assert (s.battles_won, s.units_sunk, n.units_sunk, n.sunk_tonnes) == (0, 0, 1, 12_000)
        assert (s.turns, n.turns) == (3, 2)

    # progression §5: a defending submarine that beats a weaker attacker wins a submarine battle
    def test_defending_submarine_wins(self):
        s, n = stats(position("TRe8", "PLe9"), "e8xe9")
        assert (n.battles_won, n.submarine_battles_won, s.battles_won) == (1, 1, 0)

    # progression §5: equal rows remove both groups: nobody wins
    def test_equal_rows_win_nothing(self):
        s, n = stats(position("ESe8", "ESe9"), "e8xe9")
        assert (s.battles_won, n.battles_won, s.units_sunk, n.units_sunk) == (0, 0, 1, 1)

    # progression §5: a rated ship on a non-rated unit is a special collision, never a battle won
    def test_special_collision_is_no_battle(self):
        s, _ = stats(position("Le8", "Se9"), "e8xe9")  # AA fire: S destroyed, L stays
        assert (s.battles_won, s.units_sunk) == (0, 1)


class TestOutcomeAndTurns:
    # progression §2: a resignation is its own outcome (0 points), the other side wins
    def test_resignation(self):
        s, n = stats(position(""), end="resign south")
        assert (s.outcome, n.outcome, s.reason) == (Outcome.RESIGNED, Outcome.WIN, Reason.RESIGNATION)

    # progression §2: a flag fall is an ordinary loss
    def test_flag_fall_is_a_loss(self):
        s, n = stats(position(""), end="flag south")
        assert (s.outcome, n.outcome) == (Outcome.LOSS, Outcome.WIN)

    # progression §2: draw by agreement
    def test_draw(self):
        s, n = stats(position(""), end="draw")
        assert (s.outcome, n.outcome) == (Outcome.DRAW, Outcome.DRAW)

    # progression §2: aborted = ends before each side made 2 turns; exactly 2 each counts
    @pytest.mark.parametrize(("moves", "counts"), [(0, False), (2, False), (3, False), (4, True)])
    def test_aborted(self, moves, counts):
        result = stats_of_play(position(""), [*FILLER[:moves], "resign north"])
        assert result[SOUTH].counts is counts and result[NORTH].counts is counts
        assert result[SOUTH].turns == (moves + 1) // 2
        if not counts:
            assert set(result[SOUTH].award_increments().values()) == {0}

    # progression §2: a move-then-attack is one turn
    def test_move_then_attack_is_one_turn(self):
        s, _ = stats(position("ESe7", "TRe9"), "e7-e8xe9")
        assert (s.turns, s.battles_won) == (3, 1)

    # progression §2: preserved = single strengths of own rated ships on the board at the end (А is out of scale)
    def test_preserved(self):
        s, n = stats(position("Le7 KRPLf7 Ag7 Sh7", "ESe9"))
        assert s.preserved == 15 + 6 + 1  # L, KRPL and the home TR (on b3 after the filler); A and S count 0
        assert n.preserved == 5 + 1

    # progression §2: statistics are taken from finished games only
    def test_unfinished_game_is_refused(self):
        with pytest.raises(ValueError, match="not over"):
            stats_of_play(position(""), FILLER)

    # progression §2: a bad record names the ply
    def test_illegal_action_names_the_ply(self):
        with pytest.raises(IllegalAction, match="ply 1"):
            stats_of_play(position(""), ["b1-b2", "b2-b3"])
