"""What the consistency suite (:mod:`tests.games.test_consistency`) needs to know of each game beyond its ruleset:
the room options to play under, how many random games, and how to make a world the other side cannot tell apart.

Every game of the registry must have an entry here: the suite fails for a game without one. A game not yet in the
public registry (no client, no bots: it would be offered on the home page half-built) enters the suite through
its hook's ``ruleset``: «Военно-морская игра» (issue 21) does so until the house registers it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from admiral.games import Ruleset
from admiral.games.admiral.rules import BattleReport, Moved, Side


@dataclass(frozen=True)
class Hooks:
    """``option_sets``: the room options the suite plays under (each gets its own games); ``games``: random games
    per option set; ``max_plies``: where a random game is cut if it has not ended; ``alternatives(rules, game,
    side, rng)``: setups for ``side`` that differ from its own only in facts the other side never learned (the
    suite replays the record with each, skips those where an action turns illegal or the ``outcome`` differs, and
    checks the other side's and the spectators' views byte for byte); ``outcome(rules, game)``: the public
    outcome two indistinguishable worlds must share. ``ruleset``: for a game outside the registry
    (:data:`admiral.games.GAMES`), its ruleset, so that the suite plays it all the same. ``open_information``: the
    game hides nothing from the other seat (an open board; only the die's seed until the end): instead of worlds
    the other seat cannot tell apart, the suite checks that both seats and the spectators see the same board."""

    option_sets: tuple[dict[str, Any], ...] = ({},)
    games: int = 20
    max_plies: int = 400
    alternatives: Callable[[Ruleset, Any, str, random.Random], Iterator[dict[str, str]]] = lambda *a: iter(())
    outcome: Callable[[Ruleset, Any], Any] = field(default=lambda rules, game: rules.result(game))
    ruleset: Ruleset | None = None
    open_information: bool = False


def _admiral_hidden(game: Any, side: Side) -> list[int]:
    """Setup cells of ``side``'s units no battle report ever showed (rules §11.2): their kinds are hidden."""
    where = {c: c for c in game.record.setups[side]}
    revealed: set[int] = set()
    for e in game.log:
        if isinstance(e, Moved) and e.side is side:
            where[e.dst] = where.pop(e.src)
        elif isinstance(e, BattleReport):
            for s in (*e.participants, *e.removed):
                if s.side is side and s.cell in where:
                    revealed.add(where[s.cell])
            for s in e.removed:
                if s.side is side:
                    where.pop(s.cell, None)
    return sorted(set(where.values()) - revealed)


def _admiral_alternatives(rules: Ruleset, game: Any, side: str, rng: random.Random) -> Iterator[dict[str, str]]:
    """«Адмирал»: two hidden units of ``side`` swap kinds (rules §11.2, §11.7)."""
    me = Side.parse(side)
    setup = rules.record(game)["setups"][side]
    kinds = game.record.setups[me]
    pairs = [(a, b) for a, b in combinations(_admiral_hidden(game, me), 2) if kinds[a] is not kinds[b]]
    rng.shuffle(pairs)
    from admiral.games.admiral.rules import cell_name

    for a, b in pairs[:12]:
        swapped = dict(setup)
        swapped[cell_name(a)], swapped[cell_name(b)] = setup[cell_name(b)], setup[cell_name(a)]
        yield swapped


def _admiral_outcome(rules: Ruleset, game: Any) -> Any:
    """«Адмирал»: every battle report in full (the engine's log: the full view opens only after the end) and the
    result."""
    return [e for e in game.log if isinstance(e, BattleReport)], rules.result(game)


def _battleship_alternatives(rules: Ruleset, game: Any, side: str, rng: random.Random) -> Iterator[dict[str, str]]:
    """«Морской бой»: ``side``'s ships the opponent never hit stand elsewhere, off every cell it shot (BATTLESHIP.md
    A5, B2: a seat learns only the answers to its shots)."""
    from admiral.games.battleship.rules import auto_arrange, cell_name, parse_cell, rules_from_options, ships_of

    record = rules.record(game)
    fleet_rules = rules_from_options(record["settings"]["options"])
    setup = {parse_cell(c): code for c, code in record["setups"][side].items()}
    shot = {parse_cell(c) for c in _shots_at(rules, record, side)}
    kept = {c: s.code for s in ships_of(fleet_rules, setup) if set(s.cells) & shot for c in s.cells}
    for _ in range(6):
        other = auto_arrange(fleet_rules, rng, kept, avoid=shot)
        if other != setup:
            yield {cell_name(c): code for c, code in other.items()}


def _shots_at(rules: Ruleset, record: dict[str, Any], side: str) -> set[str]:
    """The cells the other seat shot at ``side``'s grid in a «Морской бой» record (its end actions left out)."""
    game = rules.new_game(record["setups"], record["settings"])
    cells = set()
    for action in record["actions"]:
        if rules.apply(game, action).actor not in (side, None) and action[:1].isalpha() and " " not in action:
            cells.add(action)
    return cells


def _ext_fixed_cells(game: Any, me: Any) -> set[int]:
    """«Морской бой: расширенный»: cells of ``me``'s grid the other side learned something about (BATTLESHIP.md
    C3, C5, C6, D12): every cell it shot or scanned, and the decks and mines it was handed."""
    state = game.state
    opp = me.opponent
    shot = {s.cell for s in state.history if s.side is opp}
    scanned = {c for scan in state.x.scans[opp] for c in scan.cells}
    return shot | scanned | set(state.crosshairs[opp]) | set(state.gold[opp])


def _battleship_ext_alternatives(rules: Ruleset, game: Any, side: str, rng: random.Random) -> Iterator[dict[str, str]]:
    """«Морской бой: расширенный»: ``side``'s ships, mines and minesweeper that the opponent never shot, scanned or
    was handed stand elsewhere, off every such cell (D12: a seat learns only its answers, scans and marks); a boat
    that manoeuvred stays where it started (the record moves it). Worlds whose draws hand over other cells are
    told apart by :func:`_battleship_ext_outcome`."""
    from admiral.games.battleship_ext.rules import (
        IllegalAction,
        Manoeuvre,
        Side,
        auto_arrange,
        cell_name,
        figures_of,
        ships_of,
    )

    me = Side.parse(side)
    ext_rules = game.state.rules
    setup = game.record.setups[me]
    fixed = _ext_fixed_cells(game, me)
    moved = any(isinstance(a, Manoeuvre) for a in game.record.actions)
    pieces = list(ships_of(ext_rules, setup)) + list(figures_of(ext_rules, setup))
    kept = {
        c: p.code for p in pieces if set(p.cells) & fixed or (moved and p.code == "1") for c in p.cells
    }  # fmt: skip
    for _ in range(6):
        try:
            other = auto_arrange(ext_rules, rng, kept, avoid=fixed - set(kept))
        except IllegalAction:  # no room around what must stay: no alternative
            return
        if other != setup and all(other.get(c) == code for c, code in kept.items()):
            yield {cell_name(c): code for c, code in other.items()}


def _battleship_ext_outcome(rules: Ruleset, game: Any) -> Any:
    """«Морской бой: расширенный»: every answer, every cell handed over (mine crosshairs, gold circles,
    self-reveals: D6, D13), every scan's answer and the result."""
    from admiral.games.battleship_ext.rules import Handed

    state = game.state
    return (
        [(s.side, s.cell, s.answer) for s in state.history],
        [(e.side, e.cell, e.kind) for e in game.log if isinstance(e, Handed)],
        [(s.ply, s.answer, s.mines) for side in state.x.scans for s in side],
        rules.result(game),
    )


#: Each game of the registry by key (and the games the suite plays before they are registered).
HOOKS: dict[str, Hooks] = {
    "admiral": Hooks(games=12, max_plies=500, alternatives=_admiral_alternatives, outcome=_admiral_outcome),
    "battleship": Hooks(
        option_sets=(
            {"rules": "classic"},
            {"rules": "hasbro"},
            {"rules": "hasbro", "salvo": True},
            {"rules": "hasbro", "named": False},
            {"rules": "hasbro", "salvo": True, "named": False},
        ),
        games=40,
        max_plies=400,
        alternatives=_battleship_alternatives,
    ),
    "battleship_ext": Hooks(
        option_sets=(
            {"board": "classic", "mines": 1, "sweepers": 1},
            {"board": "classic", "mines": 0, "sweepers": 0},
            {"board": "perelman", "mines": 3, "sweepers": 1},
            {"board": "giant", "mines": 2, "sweepers": 0},
        ),
        games=16,
        max_plies=1500,
        alternatives=_battleship_ext_alternatives,
        outcome=_battleship_ext_outcome,
    ),
    "naval": Hooks(games=12, max_plies=400, open_information=True),
}


def rulesets() -> dict[str, Ruleset]:
    """Every game the suite plays by key: the registry's, then those only the hooks name."""
    from admiral.games import GAMES

    return {**GAMES, **{key: h.ruleset for key, h in HOOKS.items() if h.ruleset is not None and key not in GAMES}}
