"""What the consistency suite (:mod:`tests.games.test_consistency`) needs to know of each game beyond its ruleset:
the room options to play under, how many random games, and how to make a world the other side cannot tell apart.

Every game of the registry must have an entry here: the suite fails for a game without one.
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
    outcome two indistinguishable worlds must share."""

    option_sets: tuple[dict[str, Any], ...] = ({},)
    games: int = 20
    max_plies: int = 400
    alternatives: Callable[[Ruleset, Any, str, random.Random], Iterator[dict[str, str]]] = lambda *a: iter(())
    outcome: Callable[[Ruleset, Any], Any] = field(default=lambda rules, game: rules.result(game))


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


def _ext_known(game: Any, side: str) -> set[int]:
    """Cells of ``side``'s grid the other seat learned something of in a «Морской бой: расширенный» game: those it
    shot, those it was handed (a deck for a mine or a self-reveal, a mine for a minesweeper: C3, C5) and those its
    scans covered (C5, C6)."""
    from admiral.games.battleship.rules import ShotFired, Side
    from admiral.games.battleship_ext.rules import Handed, Scanned

    them = Side.parse(side).opponent
    known: set[int] = set()
    for e in game.log:
        if isinstance(e, ShotFired | Handed) and e.side is them:
            known.add(e.cell)
        elif isinstance(e, Scanned) and e.side is them:
            known.update(e.scan.cells)
    return known


def _ext_causes(game: Any, side: str) -> set[str]:
    """Why the other seat was handed decks of ``side`` (``"mine"``, or the ability that revealed them)."""
    from admiral.games.battleship.rules import Side
    from admiral.games.battleship_ext.rules import Handed

    them = Side.parse(side).opponent
    return {e.cause for e in game.log if isinstance(e, Handed) and e.side is them and e.kind == "deck"}


def _ext_alternatives(rules: Ruleset, game: Any, side: str, rng: random.Random) -> Iterator[dict[str, str]]:
    """«Морской бой: расширенный»: ``side``'s mines and minesweepers, then its ships too, that the other seat never
    shot, scanned or was handed stand elsewhere, off every such cell (C3, C5, D12)."""
    from admiral.games.battleship.rules import (
        IllegalAction,
        auto_arrange,
        cell_name,
        figures_of,
        parse_cell,
        ships_of,
    )
    from admiral.games.battleship_ext.rules import rules_from_options

    record = rules.record(game)
    ext_rules = rules_from_options(record["settings"]["options"])
    setup = {parse_cell(c): code for c, code in record["setups"][side].items()}
    known = _ext_known(game, side)
    # a deck handed at random is drawn among the whole decks of some ships (D6): those ships stay, or the draw
    # would name another cell
    pools = {"mine": lambda size: True, "air": lambda size: size >= 4, "carpet": lambda size: size >= 4,
             "sonar": lambda size: size == 2, "satellite": lambda size: size == 2}  # fmt: skip
    causes = _ext_causes(game, side)
    pieces = [*ships_of(ext_rules, setup), *figures_of(ext_rules, setup)]
    kept = {
        c: p.code
        for p in pieces
        if set(p.cells) & known or (p.code not in ("M", "T") and any(pools[k](p.size) for k in causes if k in pools))
        for c in p.cells
    }
    ships = {c: code for c, code in setup.items() if code not in ("M", "T")}
    for partial in ({**ships, **kept}, kept):  # the figures alone first: moving ships changes the decks drawn from
        for _ in range(8):
            try:
                other = auto_arrange(ext_rules, rng, partial, avoid=known)
            except IllegalAction:  # no room around what is kept
                break
            if other != setup:
                yield {cell_name(c): code for c, code in other.items()}


def _ext_outcome(rules: Ruleset, game: Any) -> Any:
    """«Морской бой: расширенный»: what either seat learned — every shot's answer, every mark handed over, every scan
    answer, every draw (D13) — and the result."""
    from admiral.games.battleship.rules import ShotFired
    from admiral.games.battleship_ext.rules import Handed, Scanned

    told = [
        (type(e).__name__, e.side, getattr(e, "cell", None), getattr(e, "answer", None), getattr(e, "kind", None))
        if not isinstance(e, Scanned)
        else ("Scanned", e.side, e.scan.center, e.scan.answer, e.scan.mines)
        for e in game.log
        if isinstance(e, ShotFired | Handed | Scanned)
    ]
    return told, [d.to_dict() for d in game.state.draws], rules.result(game)


#: Each game of the registry by key.
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
    # «Морской бой: расширенный» (issue 20): each board with its most figures, and classic with none
    "battleship_ext": Hooks(
        option_sets=(
            {"board": "classic"},
            {"board": "classic", "mines": 0, "sweepers": 0},
            {"board": "perelman", "mines": 3},
            {"board": "giant", "mines": 3},
        ),
        games=12,
        max_plies=900,
        alternatives=_ext_alternatives,
        outcome=_ext_outcome,
    ),
}
