""":class:`ExtendedRuleset`: the house's ruleset of «Морской бой: расширенный» over the pure engine in :mod:`.rules`
(BATTLESHIP.md C, D) — a subclass of classic «Морской бой»'s :class:`~admiral.games.battleship.BattleshipRuleset`
that reads its own room options, names its own ships and figures, takes the abilities' notation, counts XP and
fixes the commanders' levels when play starts (capability ``start_settings``, D11).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from admiral.games.battleship.rules import Answer, IllegalAction, SetupProblem, Shot, ShotFired, Side, cell_name
from admiral.games.battleship.ruleset import _PROBLEM_RU, BattleshipRuleset, _actor, _err, _problem
from admiral.games.protocol import Applied, Credit, GameInfo, RuleError, info_manifest
from admiral.i18n import N_, _

from . import INFO, LEVELS, icons, progression
from .rules import (
    ABILITIES,
    BOARDS,
    FIGURE_NAMES,
    AbilityUsed,
    AreaAbility,
    ExtGame,
    ExtRules,
    Handed,
    Manoeuvre,
    Manoeuvred,
    Repair,
    Repaired,
    Scanned,
    cost,
    max_energy,
    options_of,
    reveal_chance,
    rules_from_options,
    setup_variant,
    start_energy,
    ultimate_of,
)
from .rules import LEVELS as LEVEL_RANGE

__all__ = ["ExtendedRuleset"]

#: Ship names by size (C1 decision) and figure names (C3), as the UI shows them (Russian message ids).
_SHIP_RU = {
    "5": N_("Супер-линкор"),
    "4": N_("Линкор"),
    "3": N_("Крейсер"),
    "2": N_("Эсминец"),
    "1": N_("Катер"),
    "M": N_("Мина"),
    "T": N_("Тральщик"),
}
#: Setup problems in words: the classic ones, with «figure» where a mine or a minesweeper may be meant (C2).
_PROBLEM_EXT = {
    **_PROBLEM_RU,
    "unknown_code": N_("{cell}: «{kind}» — не код корабля, мины или тральщика."),
    "overlap": N_("Клетка {cell} занята дважды: фигуры не могут перекрываться."),
    "touching": N_("{kind} касается фигуры «{other}» в клетках {cells} — даже углом нельзя (правила C2)."),
}
#: The answers to a shot (A5, C3): the classic words plus a mine's and a minesweeper's.
_ANSWER_RU = {
    "miss": N_("Мимо"),
    "hit": N_("Ранен"),
    "sunk": N_("Убит"),
    "mine": N_("Мина!"),
    "sweeper": N_("Тральщик!"),
}
#: The abilities' names (C5, C6).
_ABILITY_RU = {key: name for key, (_glyph, name) in icons.ICON_ABILITIES.items()}
#: The marks the attack maps draw (C3, C5, D10): their words for the legend.
_MARKS_RU = {
    "crosshair": N_("Прицел: палуба соперника, выданная вам"),
    "gold": N_("Золотой круг: мина соперника, выданная вам"),
    "mine": N_("Мина"),
    "mine_exploded": N_("Взорванная мина"),
    "sweeper": N_("Тральщик"),
    "sweeper_hit": N_("Подбитый тральщик"),
    "repaired": N_("Отремонтирована"),
    "handed": N_("Ваша фигура выдана сопернику"),
}


def _name(_rules_key: str, code: str) -> str:
    """A ship's (by its size code) or a figure's name in the current language; ``code`` itself when unknown."""
    name = _SHIP_RU.get(code)
    return _(name) if name else code


class ExtendedRuleset(BattleshipRuleset):
    """:class:`~admiral.games.protocol.Ruleset` of «Морской бой: расширенный» (C, D) over :mod:`.rules`, with the
    capabilities ``progression`` (:mod:`.progression`) and ``start_settings`` (D11).

    The game handle is the engine's game (:attr:`game_class`). Every refusal of the engine reaches the session as a
    :class:`~admiral.games.protocol.RuleError` with the same code (its Russian text in :attr:`INFO.messages`).
    """

    info: GameInfo = INFO
    game_class = ExtGame

    def rules_of(self, options: Mapping[str, Any] | None) -> ExtRules:
        """:func:`.rules.rules_from_options`. :raises RuleError: ``bad_options``."""
        try:
            return rules_from_options(options)
        except IllegalAction as e:
            raise _err(e) from None

    def problem(self, rules: Any, p: SetupProblem) -> dict[str, Any]:
        """A setup problem naming ships by size and the mines and minesweepers (C1, C2)."""
        return _problem(rules, p, _name, _PROBLEM_EXT)

    def manifest(self) -> dict[str, Any]:
        """What the browser client draws from (``GET /games/battleship_ext/manifest.json``), beyond
        :func:`~admiral.games.protocol.info_manifest`:

        - ``boards``: per board option, ``{width, height, rows, rows_ru, columns, fleet: [{code, size, count,
          name}], mines_max, sweepers_max}`` (C1, D1);
        - ``figures``: ``[{code, name}]`` of the mine (``M``) and the minesweeper (``T``) (C2, C3);
        - ``abilities``: ``[{key, name, ultimate, ends_turn, area, shape, attack, costs, reveal, levels}]`` —
          ``costs``/``reveal`` per level 1…10 (``costs[0]`` is level 1's cost before the penalty for hit ships,
          ``null`` where the level does not have it: C5, C6), ``levels`` the levels that have it;
        - ``energy``: per level, ``{start, max}`` (C4, C6); ``thresholds``: XP of levels 1…10;
        - ``answers``: the words of ``miss``/``hit``/``sunk``/``mine``/``sweeper``; ``marks``: the attack maps'
          marks in words.

        >>> m = ExtendedRuleset().manifest()
        >>> m["boards"]["giant"]["width"], m["boards"]["giant"]["fleet"][0]["name"], m["answers"]["mine"]
        (18, 'Супер-линкор', 'Мина!')
        >>> next(a for a in m["abilities"] if a["key"] == "carpet")["costs"][:5]
        [None, None, None, 14, 14]
        """
        boards = {}
        for key, (rules, most_mines) in BOARDS.items():
            board = rules.board
            boards[key] = {
                **board.to_dict(),
                "columns": [str(c + 1) for c in range(board.width)],
                "fleet": [
                    {"code": s.code, "size": s.size, "count": s.count, "name": _SHIP_RU.get(s.code, s.code)}
                    for s in rules.fleet
                ],
                "mines_max": most_mines,
                "sweepers_max": 1,
            }
        abilities = []
        for key, ab in ABILITIES.items():
            levels = [n for n in LEVEL_RANGE if not ab.ultimate or ultimate_of(n) == key]
            abilities.append({
                "key": key, "name": _ABILITY_RU.get(key, key), "ultimate": ab.ultimate, "ends_turn": ab.ends_turn,
                "area": ab.area, "shape": ab.shape, "attack": ab.attack,
                "costs": [cost(key, n) if n in levels else None for n in LEVEL_RANGE],
                "reveal": [reveal_chance(key, n) if n in levels else None for n in LEVEL_RANGE],
                "levels": levels,
            })  # fmt: skip
        return {
            **info_manifest(INFO),
            "boards": boards,
            "figures": [{"code": code, "name": _SHIP_RU[code]} for code in FIGURE_NAMES],
            "abilities": abilities,
            "energy": {str(n): {"start": start_energy(n), "max": max_energy(n)} for n in LEVEL_RANGE},
            "thresholds": list(progression.THRESHOLDS),
            "answers": dict(_ANSWER_RU),
            "marks": dict(_MARKS_RU),
        }

    # -- options and setup ----------------------------------------------------------------------------------

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The room options from ``raw``: ``board`` (``"classic"``, ``"perelman"``, ``"giant"``), ``mines`` and
        ``sweepers`` (JSON integers within the board's range, C1); missing ones take their defaults.

        :raises RuleError: ``bad_options`` naming an unknown option, a bad value or a count out of range."""
        return options_of(self.rules_of(raw))

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        """``"<board>-<mines>-<sweepers>"``: a saved setup fits only its own board and counts.

        :raises RuleError: ``bad_options``."""
        try:
            return setup_variant(options)
        except IllegalAction as e:
            raise _err(e) from None

    # -- play -------------------------------------------------------------------------------------------------

    def parse_player_action(self, text: str) -> str:
        """The canonical notation of what a player may send (a shot ``b5``, ``air b5``, ``sonar b5``,
        ``move a1-a2``, ``carpet b5``, ``satellite b5``, ``repair b5``). The grid is not known here: :meth:`apply`
        refuses a cell off it (``bad_cell``).

        :raises RuleError: ``bad_notation`` for anything else (the server's end actions included)."""
        try:
            action = self.game_class.record_class.parse_action(text)
        except IllegalAction as e:
            raise _err(e) from None
        if not _is_players(action):
            raise RuleError("bad_notation", f"{text!r} is not a shot or an ability")
        return str(action)

    def apply(self, game: Any, action: str) -> Applied:
        """Apply ``action`` (a shot, an ability, an end action). ``actor``: the side that acted (the named side
        for an end, ``None`` for a draw); ``turn``: the action was the first of its side's turn (no shot fired and
        no ability used in it yet); ``completed``: the actor when the turn passed (a miss, a mine, a minesweeper,
        an ability that ends the turn, C3, C5) or the game ended.

        :raises RuleError: with the engine's code (``no_energy``, ``one_ability``, ``already_shot``…); the game is
            unchanged and no energy is spent."""
        state = game.state
        before = state.to_act
        first_of_turn = state.turn_shots == 0 and not state.x.ability_used
        try:
            parsed = self.game_class.record_class.parse_action(action)
            game.apply(parsed)
        except IllegalAction as e:
            raise _err(e) from None
        if not _is_players(parsed):
            return super_end_applied(parsed, before)
        completed = state.to_act is not before
        return Applied(before.label, first_of_turn, before.label if completed else None)

    def draws(self, game: Any) -> list[dict[str, Any]]:
        """Every draw ``game`` made from its seed so far, in order (D13): ``[{"k", "n", "value", "what"}]`` — draw
        0 the first shooter, then the decks a mine or a self-reveal handed over and the self-reveal rolls."""
        return [d.to_dict() for d in game.state.draws]

    def replay(self, game: Any) -> dict[str, Any]:
        """Both setups (mines and minesweepers included), the options, the levels, the first shooter and per ply
        ``{ply, action, side, ability, shots, handed, scan, moved, repaired}``: ``side`` the side that acted
        (``None`` for a draw); ``ability`` the ability used (``None`` for a shot or an end); ``shots`` every shot
        the action fired, ``[{cell, answer, sunk_cells}]`` (an area attack fires several, D7); ``handed``
        ``[{side, cell, kind, cause}]``: what a mine, a minesweeper or a self-reveal handed to ``side`` (a deck or
        a mine of the other side); ``scan`` ``{center, cells, answer, mines}``; ``moved`` ``{src, dst}``;
        ``repaired`` the repaired cell. For the classic panel: ``answer``/``ship``/``sunk_cells`` of the action's
        last shot. Plus ``result`` and ``chance`` (the seed, its commitment and every draw, D13)."""
        record = game.record
        g = type(game)(record.setups, record.settings)
        plies = []
        for action in record.actions:
            ply, before = g.ply, g.state.to_act
            events = g.apply(action)
            shots = [e for e in events if isinstance(e, ShotFired)]
            entry: dict[str, Any] = {
                "ply": ply,
                "action": str(action),
                "side": _acting(action, before),
                "ability": next((e.ability for e in events if isinstance(e, AbilityUsed)), None),
                "shots": [
                    {"cell": cell_name(e.cell), "answer": e.answer.value, "sunk_cells": [cell_name(c) for c in e.sunk]}
                    for e in shots
                ],
                "handed": [
                    {"side": e.side.label, "cell": cell_name(e.cell), "kind": e.kind, "cause": e.cause}
                    for e in events
                    if isinstance(e, Handed)
                ],
                "scan": None,
                "moved": None,
                "repaired": None,
                "answer": shots[-1].answer.value if shots else None,
                "ship": None,
                "sunk_cells": [cell_name(c) for c in shots[-1].sunk] if shots else [],
            }
            for e in events:
                if isinstance(e, Scanned):
                    sc = e.scan
                    entry["scan"] = {
                        "center": cell_name(sc.center), "cells": [cell_name(c) for c in sc.cells],
                        "answer": sc.answer, "mines": sc.mines,
                    }  # fmt: skip
                elif isinstance(e, Manoeuvred):
                    entry["moved"] = {"src": cell_name(e.src), "dst": cell_name(e.dst)}
                elif isinstance(e, Repaired):
                    entry["repaired"] = cell_name(e.cell)
            plies.append(entry)
        data = record.to_dict()
        return {
            "options": data["settings"]["options"],
            "levels": _levels(game),
            "first": g.state.first.label,
            "setups": data["setups"],
            "plies": plies,
            "result": self.result(game),
            "chance": {**self.chance(game), "draws": self.draws(game)},
        }

    # -- statistics and progression (docs/points.md) --------------------------------------------------------

    def game_stats(self, game: Any) -> dict[str, Any]:
        """Per side, the classic figures (:meth:`BattleshipRuleset.game_stats`; ``hits``: enemy decks hit, a mine or
        a minesweeper struck is no hit, D5) plus ``xp``, the experience of this game (C6: 1 per hit, 3 × size per
        ship sunk) and ``level``, the level it played at (D11)."""
        out = super().game_stats(game)
        state = game.state
        levels = _levels(game)
        for side in _sides():
            shots = [s for s in state.history if s.side is side]  # a repaired deck's shot leaves state.shots (D10)
            hits = sum(1 for s in shots if s.answer in (Answer.HIT, Answer.SUNK))
            enemy = side.opponent
            sunk = [ship.size for i, ship in enumerate(state.fleets[enemy]) if state.ship_sunk(enemy, i)]
            stats = out[side.label]
            stats["shots"], stats["hits"] = len(shots), hits
            stats["accuracy"] = hits / len(shots) if shots else 0.0
            stats["xp"] = progression.xp_of(hits, sunk)
            stats["level"] = levels[side.label]
        return out

    def credit(self, stats: Mapping[str, Any], career: Mapping[str, Any], ai_level: int | None) -> Credit:
        """One seat's points (classic's formula) and its career with this game's XP (:func:`.progression.fold`); an
        aborted game credits nothing. ``shown`` tells the result screen the XP earned and the level reached.

        :raises ValueError: for a career it cannot read or an AI level outside 1…5."""
        outcome = progression.outcome(stats)
        if outcome is None:
            return Credit(False, None, 0, dict(career))
        gained = progression.points(stats, ai_level)
        after = progression.fold(career, stats)
        before_level = progression.career_level(career)
        level = progression.level_of(after["xp"])
        shown = {"xp": int(stats["xp"]), "level": level, "new_level": level if level > before_level else None}
        return Credit(True, outcome, gained, after, shown)

    def career_stats(self, career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """:func:`.progression.career_stats`: level, XP, XP to the next level, shots, hits, accuracy, ships sunk."""
        return progression.career_stats(career)

    def career_badge(self, career: Mapping[str, Any]) -> str:
        """The profile's picture of ``career``: the ability icons of its level's tier (C7, :mod:`.icons`)."""
        return icons.ability_icons(progression.career_level(career))

    def start_settings(self, careers: Mapping[str, Mapping[str, Any] | None], ai: Mapping[str, int | None]) -> dict:
        """What is fixed when play starts, stored with the game (D11, D13): ``levels``, a commander's level from its
        career (a guest's too; 1 before its first counted game), the AI's seat at level 1 whatever its AI level;
        and ``seed``, a fresh 32-byte seed (an ``int`` below 2²⁵⁶) every draw of the game comes from — the house's
        own game seed is shorter, and D13 commits to 32 random bytes.

        >>> s = ExtendedRuleset().start_settings({"south": {"xp": 80}, "north": None}, {"south": None, "north": 5})
        >>> s["levels"], 0 <= s["seed"] < 2**256
        ({'south': 3, 'north': 1}, True)

        :raises ValueError: for a career it cannot read."""
        level = progression.career_level
        return {
            "levels": {side: 1 if career is None else level(career) for side, career in careers.items()},
            "seed": secrets.randbits(256),
        }

    # -- bots -------------------------------------------------------------------------------------------------

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any]) -> Any:
        """A bot of ``level`` from :data:`.bots.LEVELS`, drawing from ``seed``.

        :raises ValueError: for a level that does not exist."""
        lv = LEVELS.get(level)
        if lv is None:
            raise ValueError(f"«Морской бой: расширенный» has no AI level {level!r} (levels: {sorted(LEVELS)})")
        return lv.make(seed, self.rules_of(options))

    # -- texts ------------------------------------------------------------------------------------------------

    def answer_text(self, options: Mapping[str, Any], answer: str, ship: str | None = None) -> str:
        """An answer as a player says it, in the current language: «Мимо», «Ранен», «Убит», «Мина!», «Тральщик!».

        :raises KeyError: for an unknown answer."""
        return _(_ANSWER_RU[answer])


def _is_players(action: Any) -> bool:
    """Whether ``action`` is one a player sends: a shot or an ability (not an end action)."""
    return isinstance(action, Shot | AreaAbility | Manoeuvre | Repair)


def _acting(action: Any, before: Side | None) -> str | None:
    """The side that took ``action`` (the named side of an end action, ``None`` for an agreed draw)."""
    side = _actor(action, before)
    return None if side is None else side.label


def super_end_applied(action: Any, before: Side | None) -> Applied:
    """:class:`Applied` of an end action: its side (``None`` for a draw), no turn begun or completed."""
    return Applied(_acting(action, before), False, None)


def _levels(game: Any) -> dict[str, int]:
    """The levels the sides play at (D11), as the game was built with them."""
    south, north = game.state.levels
    return {"south": south, "north": north}


def _sides() -> tuple[Side, Side]:
    return (Side.SOUTH, Side.NORTH)
