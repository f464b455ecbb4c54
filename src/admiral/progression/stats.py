"""What one finished game gives each commander (PROGRESSION.md §2, §4, §5), read from the engine's events.

The record is replayed with the engine; every figure below comes from its events (``BattleReport``,
``GameOver``) and the final state. Nothing here guesses hidden information: the engine's events are the
full truth.

Attribution, one battle report at a time (PROGRESSION.md §5; rules §7, §8):

- **Spent weapons** are not "destroyed" by anybody: the torpedo that fired (rules §6: spent by its shot),
  a fireship that attacked (it goes with its target, rules §7.2) and a bomb its owner detonated (§8).
  Every other removed unit of one side counts for the other side's ``units_sunk`` («Охотник»), all
  causes, the side's own atomic bomb included. ``sunk_tonnes`` is all causes too.
- **Bases destroyed** («Штурм базы»): enemy bases removed by own attacks or by the explosion of own bomb
  (whoever set it off); an enemy base blown up by the enemy's own bomb is credited to nobody.
- **Torpedo / air kills**: enemy units in the ``removed`` of a report with ``method`` ``torpedo`` / ``air``
  of the side, when no bomb went off.
- **Mine war**: an enemy unit removed when it attacked own ``M`` or ``SM`` (a fireship is spent, not a
  mine kill), plus enemy ``M``/``SM`` removed by an attack of own ``TR``.
- **Atomic kills**: when a report has ``explosion``, the bomb's owner (the attacker of a detonation, else
  the attacked side) is credited with every removed unit of the other side, whoever set it off.
- **Battle won**: a scale battle (a report with ``attacker_row`` set, rules §7.1) after which the side's
  declared members are all on the board and the other side's are all removed. «Подводный удар» counts
  those whose winning declaration is only ``PL``/``KRPL``; «Соединение» those with two or more members.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import StrEnum

from admiral.games.admiral.rules import (
    Action,
    Attack,
    BattleReport,
    Detonate,
    Game,
    GameRecord,
    GameState,
    IllegalAction,
    Kind,
    Move,
    Reason,
    Result,
    Seen,
    Side,
    apply,
)

__all__ = ["MIN_TURNS", "GameStats", "Outcome", "game_stats", "stats_of_play"]

#: Turns each side must have made for a game to count (PROGRESSION.md §2: fewer = "aborted").
MIN_TURNS = 2

_SUBMARINES = frozenset((Kind.PL, Kind.KRPL))
_MINES = frozenset((Kind.M, Kind.SM))
#: A turn is a move, an attack (with or without a move first) or a detonation (rules §4.2).
_TURN_ACTIONS = (Move, Attack, Detonate)


class Outcome(StrEnum):
    """How a game ended for one side (PROGRESSION.md §2): resigning is a loss that gives 0 points."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class GameStats:
    """One side's figures from one finished game (PROGRESSION.md §2, §4, §5).

    - ``outcome``/``reason``: the result for this side and why the game ended;
    - ``turns``: moves, attacks and detonations this side made; ``counts``: both sides made at least
      :data:`MIN_TURNS` turns (otherwise the game is aborted: no points, no statistics);
    - ``preserved``: sum of the single strengths (rules §2) of own rated ships on the board at the end (0–184);
    - ``sunk_tonnes``: tonnage of enemy ships removed, all causes, in tonnes (``sunk_kt`` in thousands);
    - ``bases_intact``: no own naval base was lost;
    - ``units_sunk``: enemy units destroyed, all causes, spent weapons excepted (module docstring);
    - ``bases_destroyed``: enemy naval bases destroyed by own attacks or own bomb (module docstring);
    - ``battles_won``: scale battles won (§5's definition), as attacker or defender;
    - award counters of §5: ``torpedo_kills``, ``submarine_battles_won``, ``air_kills``, ``mine_kills`` +
      ``mines_cleared`` («Минная война»), ``atomic_kills``, ``formation_battles_won``.
    """

    side: Side
    outcome: Outcome
    reason: Reason
    turns: int
    counts: bool
    preserved: int
    sunk_tonnes: int
    bases_intact: bool
    units_sunk: int
    bases_destroyed: int
    battles_won: int
    torpedo_kills: int
    submarine_battles_won: int
    air_kills: int
    mine_kills: int
    mines_cleared: int
    atomic_kills: int
    formation_battles_won: int

    @property
    def sunk_kt(self) -> float:
        """Sunk enemy tonnage in thousands of tonnes (PROGRESSION.md §2), e.g. ``57.05``."""
        return self.sunk_tonnes / 1000

    @property
    def won(self) -> bool:
        """Whether this side won."""
        return self.outcome is Outcome.WIN

    def award_increments(self) -> dict[str, int]:
        """What this game adds to the counters of the left-hand awards (PROGRESSION.md §5), by award id.

        The right-hand badges («Ветеран», «Победитель», «Охотник», «Тоннаж») are counted from the career's
        totals (:meth:`admiral.progression.Career.award_counters`). Zero for every award if the game does
        not count.
        """
        if not self.counts:
            return dict.fromkeys(_EVENT_AWARDS, 0)
        return {
            "torpedo": self.torpedo_kills,
            "submarine": self.submarine_battles_won,
            "aviation": self.air_kills,
            "mines": self.mine_kills + self.mines_cleared,
            "nuclear": self.atomic_kills,
            "base_assault": self.bases_destroyed,
            "base_defence": int(self.won and self.bases_intact),
            "formation": self.formation_battles_won,
        }

    def to_dict(self) -> dict:
        """JSON-ready form: every field by name, ``side`` as ``south``/``north``, plus ``sunk_kt``."""
        d = asdict(self)
        d["side"] = self.side.label
        d["outcome"] = self.outcome.value
        d["reason"] = self.reason.value
        d["sunk_kt"] = self.sunk_kt
        return d


#: The left-hand awards whose counters come from a game's events (ids of :data:`admiral.progression.AWARDS`).
_EVENT_AWARDS = ("torpedo", "submarine", "aviation", "mines", "nuclear", "base_assault", "base_defence", "formation")


class _Tally:
    """Per-side counters filled from battle reports."""

    def __init__(self) -> None:
        self.turns = [0, 0]
        self.units_sunk = [0, 0]
        self.bases = [0, 0]
        self.battles_won = [0, 0]
        self.torpedo = [0, 0]
        self.submarine = [0, 0]
        self.air = [0, 0]
        self.mine_kills = [0, 0]
        self.mines_cleared = [0, 0]
        self.atomic = [0, 0]
        self.formation = [0, 0]

    def report(self, r: BattleReport) -> None:
        side, enemy = r.side, r.side.opponent
        spent: Seen | None = None
        if r.method in ("torpedo", "detonation") or (r.attacker.kind is Kind.BR and r.explosion is None):
            spent = r.attacker
        for s in r.removed:
            if s != spent:
                self.units_sunk[s.side.opponent] += 1
        if (owner := r.bomb_owner) is not None:
            credited = [s for s in r.removed if s.side is not owner and s != spent]
            self.atomic[owner] += len(credited)
            self.bases[owner] += sum(1 for s in credited if s.kind is Kind.VMB)
            return
        self.bases[side] += sum(1 for s in r.removed if s.side is enemy and s.kind is Kind.VMB)
        enemy_removed = [s for s in r.removed if s.side is enemy]
        if r.method == "torpedo":
            self.torpedo[side] += len(enemy_removed)
        elif r.method == "air":
            self.air[side] += len(enemy_removed)
        elif r.attacker_row is not None:
            self._battle(r)
        elif r.target is not None and r.target.kind in _MINES:
            if r.attacker.kind is not Kind.BR and r.attacker in r.removed:
                self.mine_kills[enemy] += 1
            if r.attacker.kind is Kind.TR and r.target in r.removed:
                self.mines_cleared[side] += 1

    def _battle(self, r: BattleReport) -> None:
        gone = set(r.removed)
        for winner, mine, theirs in (
            (r.side, r.attacker_formation, r.defender_formation),
            (r.side.opponent, r.defender_formation, r.attacker_formation),
        ):
            if gone.isdisjoint(mine) and gone.issuperset(theirs):
                self.battles_won[winner] += 1
                if all(s.kind in _SUBMARINES for s in mine):
                    self.submarine[winner] += 1
                if len(mine) >= 2:
                    self.formation[winner] += 1


def stats_of_play(start: GameState, actions: Iterable[Action | str]) -> dict[Side, GameStats]:
    """Each side's :class:`GameStats` from playing ``actions`` (objects or notation) on a copy of ``start``.

    ``start`` may be any position (tests build small ones with :meth:`GameState.from_text`); the actions
    must end the game. Bases count as intact when the side lost none.

    :raises IllegalAction: for an illegal action (its code, the ply in the reason).
    :raises ValueError: if the game is not over after the last action.
    """
    state = start.copy()
    tally = _Tally()
    for ply, action in enumerate(actions):
        if isinstance(action, str):
            action = Action.parse(action)
        actor = state.to_act
        try:
            events = apply(state, action)
        except IllegalAction as e:
            raise IllegalAction(e.code, f"ply {ply} ({action}): {e.reason}") from None
        if isinstance(action, _TURN_ACTIONS):
            tally.turns[actor] += 1
        for e in events:
            if isinstance(e, BattleReport):
                tally.report(e)
    if state.result is None:
        raise ValueError("the game is not over: statistics are taken from finished games only (PROGRESSION.md §2)")
    return {side: _side_stats(state, state.result, tally, side) for side in Side}


def game_stats(record: GameRecord) -> dict[Side, GameStats]:
    """Each side's :class:`GameStats` from a finished game record (PROGRESSION.md §2, §4, §5).

    >>> import random
    >>> from admiral.games.admiral.rules import Resign
    >>> game = Game.new_random(random.Random(1))
    >>> for _ in range(4):  # two quiet moves each
    ...     _ = game.apply(next(a for a in game.legal_actions() if isinstance(a, Move)))
    >>> _ = game.apply(Resign(Side.NORTH))
    >>> south, north = game_stats(game.record).values()
    >>> south.outcome, north.outcome, south.counts, south.preserved, north.sunk_tonnes
    (<Outcome.WIN: 'win'>, <Outcome.RESIGNED: 'resigned'>, True, 184, 0)

    :raises IllegalAction: if the record does not replay.
    :raises ValueError: if the game is not over.
    """
    game = Game(record.setups[Side.SOUTH], record.setups[Side.NORTH], record.settings)
    return stats_of_play(game.state, record.actions)


def _side_stats(state: GameState, result: Result, tally: _Tally, side: Side) -> GameStats:
    enemy = side.opponent
    if result.winner is None:
        outcome = Outcome.DRAW
    elif result.winner is side:
        outcome = Outcome.WIN
    elif result.reason is Reason.RESIGNATION:
        outcome = Outcome.RESIGNED
    else:
        outcome = Outcome.LOSS
    board = state.board
    lost = state.lost
    return GameStats(
        side=side,
        outcome=outcome,
        reason=result.reason,
        turns=tally.turns[side],
        counts=min(tally.turns) >= MIN_TURNS,
        preserved=sum(board[c].kind.strength or 0 for c in state.cells[side]),
        sunk_tonnes=sum(n * k.tonnage for k, n in zip(Kind, lost[enemy], strict=True) if k.is_ship),
        bases_intact=lost[side][Kind.VMB] == 0,
        units_sunk=tally.units_sunk[side],
        bases_destroyed=tally.bases[side],
        battles_won=tally.battles_won[side],
        torpedo_kills=tally.torpedo[side],
        submarine_battles_won=tally.submarine[side],
        air_kills=tally.air[side],
        mine_kills=tally.mine_kills[side],
        mines_cleared=tally.mines_cleared[side],
        atomic_kills=tally.atomic[side],
        formation_battles_won=tally.formation[side],
    )
