""":class:`BattleshipRuleset`: the house's :class:`~admiral.games.protocol.Ruleset` of «Морской бой» over the pure
rules in :mod:`.rules`.

The session deals only in strings and JSON-ready dicts: sides ``"south"``/``"north"``, setups ``{cell: code}``,
actions as notation (a shot is its cell, ``"b5"``), views from the one view function. Russian texts (setup
problems, answers) go through the catalogs; the rules' own reasons are English.

>>> rs = BattleshipRuleset()
>>> opts = rs.options({"rules": "hasbro", "salvo": True})
>>> opts
{'rules': 'hasbro', 'salvo': True, 'named': True}
>>> setups = {s: rs.auto_setup(s, n, {}, opts) for n, s in enumerate(("south", "north"))}
>>> game = rs.new_game(setups, {"options": opts, "seed": 1})
>>> side = rs.to_act(game)
>>> rs.apply(game, rs.parse_player_action("Б5")) == Applied(side, True, None)
True
>>> rs.view(game, side)["shots_left"]
4
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from admiral.games.common import RecordedRuleset
from admiral.games.protocol import Applied, Credit, GameInfo, RuleError, info_manifest
from admiral.i18n import N_, _, current

from . import INFO, progression
from .botapi import LEVELS, Bot
from .progression import MIN_TURNS
from .rules import (
    BASE_ANSWERS,
    BOARD,
    RULES,
    STYLES,
    Abandon,
    Action,
    AgreeDraw,
    Answer,
    FlagFall,
    Game,
    GameOver,
    IllegalAction,
    PlayerView,
    Reason,
    Resign,
    Rules,
    SetupProblem,
    Shot,
    ShotFired,
    Side,
    Touching,
    auto_arrange,
    canonical_setup,
    cell_name,
    cell_name_ru,
    commitment,
    normalize_setup,
    parse_cell,
    rules_from_options,
    seed_bytes,
    shot_view,
    validate_setup,
)

__all__ = ["BattleshipRuleset"]

_PROBLEM_RU = {
    "bad_cell": N_("Нет клетки «{cell}»."),
    "unknown_code": N_("{cell}: «{kind}» — не код корабля в этих правилах."),
    "overlap": N_("Клетка {cell} занята дважды: корабли не могут перекрываться."),
    "bent": N_("{kind} на {cell} — не прямая линия клеток."),
    "wrong_length": N_("{kind} на {cell}: не та длина."),
    "too_many": N_("Слишком много: {kind}."),
    "too_few": N_("Не хватает: {kind}."),
    "touching": N_("{kind} касается корабля «{other}» в клетках {cells} — даже углом нельзя (правила A2)."),
}

#: Ship names by rule set and code (the classic ones by size).
_SHIP_RU = {
    ("classic", "4"): N_("Четырёхпалубный"),
    ("classic", "3"): N_("Трёхпалубный"),
    ("classic", "2"): N_("Двухпалубный"),
    ("classic", "1"): N_("Однопалубный"),
    ("hasbro", "C"): N_("Авианосец"),
    ("hasbro", "B"): N_("Линкор"),
    ("hasbro", "D"): N_("Эсминец"),
    ("hasbro", "S"): N_("Подводная лодка"),
    ("hasbro", "P"): N_("Патрульный катер"),
}

#: The answers as players say them (A5; B2, D4).
_ANSWER_RU = {
    ("classic", Answer.MISS): N_("Мимо"),
    ("classic", Answer.HIT): N_("Ранен"),
    ("classic", Answer.SUNK): N_("Убит"),
    ("hasbro", Answer.MISS): N_("Мимо"),
    ("hasbro", Answer.HIT): N_("Попал"),
    ("hasbro", Answer.SUNK): N_("Потоплен"),
}


#: Problems of a setup's entries, each on its own (:func:`~.rules.validate_setup`): a draft with one is refused.
_ENTRY_PROBLEMS = frozenset({"bad_cell", "unknown_code", "overlap"})


def _err(e: IllegalAction) -> RuleError:
    return RuleError(e.code, e.reason, e.detail)


def _rules(options: Mapping[str, Any] | None) -> Rules:
    try:
        return rules_from_options(options)
    except IllegalAction as e:
        raise _err(e) from None


def _side(label: str) -> Side:
    try:
        return Side.parse(label)
    except IllegalAction as e:
        raise _err(e) from None


def _cell_text(cell: str | None) -> str:
    """A cell as the current language writes it, whichever way it was sent (A1): Russian rows without Й in
    Russian (``Б5``, ``К10``), Latin capitals otherwise (``B5``, ``J10``), as the client shows them; text that is
    no cell at all is left as it was sent.

    >>> from admiral.i18n import use
    >>> _cell_text("b5"), _cell_text("j10"), _cell_text("z9")
    ('Б5', 'К10', 'z9')
    >>> with use("en"):
    ...     _cell_text("b5"), _cell_text("Б5"), _cell_text("к10")
    ('B5', 'B5', 'J10')
    """
    if not cell:
        return cell or ""
    try:
        c = parse_cell(cell)
    except IllegalAction:
        return cell
    return cell_name_ru(c) if current() == "ru" else cell_name(c).upper()


def ship_name(rules_key: str, code: str) -> str:
    """The translated name of ship class ``code`` under ``rules_key`` (``code`` itself when unknown)."""
    name = _SHIP_RU.get((rules_key, code))
    return _(name) if name else code


def _problem(
    rules: Rules,
    p: SetupProblem,
    name: Callable[[str, str], str] = ship_name,
    texts: Mapping[str, str] = _PROBLEM_RU,
) -> dict[str, Any]:
    """A problem as the session sends it: ``{code, message, cell, kind}``, and for ``touching`` (:class:`Touching`)
    ``other`` (the other ship's code) and ``cells`` (where the two ships meet, wire names); ``message`` in the
    current language, naming the ships (``name(rules_key, code)``: a variant names its own figures) and writing the
    cells as it writes them; ``texts``: the message templates by problem code."""
    kind = p.kind
    shown = kind if p.code == "unknown_code" else name(rules.key, kind or "")
    template = _(texts.get(p.code, N_("Ошибка расстановки.")))
    extra: dict[str, Any] = {}
    fields = {"cell": _cell_text(p.cell), "kind": shown}
    if isinstance(p, Touching):
        extra = {"other": p.other, "cells": list(p.cells)}
        fields |= {"other": name(rules.key, p.other), "cells": ", ".join(_cell_text(c) for c in p.cells)}
    message = template.format(**fields)
    return {"code": p.code, "message": message[:1].upper() + message[1:], "cell": p.cell, "kind": kind, **extra}


def _actor(action: Action, to_act: Side | None) -> Side | None:
    if isinstance(action, Resign | FlagFall | Abandon):
        return action.side
    if isinstance(action, AgreeDraw):
        return None
    return to_act


class BattleshipRuleset(RecordedRuleset):
    """:class:`~admiral.games.protocol.Ruleset` of «Морской бой» (rules A, B, D) over :mod:`.rules`.

    The game handle is a :class:`~.rules.Game`. Every :class:`~.rules.IllegalAction` of the rules reaches the
    session as a :class:`~admiral.games.protocol.RuleError` with the same code and reason.
    """

    info: GameInfo = INFO
    #: The engine's game class (a variant's ruleset sets its own: BATTLESHIP.md C extends this one).
    game_class: type[Game] = Game

    def rules_of(self, options: Mapping[str, Any] | None) -> Rules:
        """The rules value of room ``options`` (a variant's ruleset reads its own). :raises RuleError:
        ``bad_options``."""
        return _rules(options)

    def problem(self, rules: Rules, p: SetupProblem) -> dict[str, Any]:
        """A setup problem as the session sends it (:func:`_problem`; a variant names its own figures)."""
        return _problem(rules, p)

    def manifest(self) -> dict[str, Any]:
        """What the browser client draws from (``GET /games/battleship/manifest.json``), beyond
        :func:`~admiral.games.protocol.info_manifest`:

        - ``board``: ``width``, ``height``, ``rows`` (Latin, the wire's, top to bottom), ``rows_ru`` (the screen's,
          no Й: A1, D1), ``columns`` (``"1"``…``"10"``, left to right);
        - ``fleets``: per rule set, the ship classes biggest first: ``{code, size, count, name}`` (``name`` Russian);
        - ``rule_sets``: per rule set, ``touching`` (ships may touch: B1) and ``again_on_hit`` (a hit shoots again:
          A5);
        - ``answers``: per rule set, the words of ``miss``/``hit``/``sunk`` (A5; B2, D4).

        Texts are Russian message ids (the client's ``t()`` translates them).

        >>> m = BattleshipRuleset().manifest()
        >>> m["board"]["rows_ru"], [s["code"] for s in m["fleets"]["hasbro"]], m["answers"]["classic"]["sunk"]
        ('АБВГДЕЖЗИК', ['C', 'B', 'D', 'S', 'P'], 'Убит')
        """
        board = {**BOARD.to_dict(), "columns": [str(c + 1) for c in range(BOARD.width)]}
        return {
            **info_manifest(INFO),
            "board": board,
            "fleets": {
                key: [
                    {"code": s.code, "size": s.size, "count": s.count, "name": _SHIP_RU.get((key, s.code), s.code)}
                    for s in rules.fleet
                ]
                for key, rules in RULES.items()
            },
            "rule_sets": {
                key: {"touching": rules.touching, "again_on_hit": rules.again_on_hit} for key, rules in RULES.items()
            },
            "answers": {key: {a.value: _ANSWER_RU[(key, a)] for a in BASE_ANSWERS} for key in RULES},
        }

    # -- options and setup ----------------------------------------------------------------------------------

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The room options from ``raw``: ``rules`` (``"classic"``, ``"hasbro"``), ``salvo`` and ``named``
        (JSON booleans only, as :attr:`GameInfo.options` gives their choices: ``"yes"``, ``"true"``, ``1`` or
        ``null`` are refused; a form's words are the web layer's to read). Missing ones take their defaults; the
        stored dict always has all three.

        An option that does not apply is refused when set to anything but its default (``salvo`` true or ``named``
        false under classic, D3, D4): the room would promise a game the rules do not have. Its default value is
        accepted (a form may send every field) and stored as the default.

        :raises RuleError: ``bad_options`` naming an unknown option, a bad value or an option that does not apply.
        """
        rules = self.rules_of(raw)
        return {"rules": rules.key, "salvo": rules.salvo, "named": rules.named}

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        """The fleet the options choose: ``"classic"`` or ``"hasbro"`` (salvo and naming leave the fleet as it is).

        :raises RuleError: ``bad_options``."""
        return self.rules_of(options).key

    def setup_problems(
        self, side: str, setup: Mapping[str, str], *, complete: bool, options: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Every problem of ``setup`` (A2, A3, B1): ``[{code, message, cell, kind}]``, ``message`` in the current
        language. ``side`` does not matter: each player has a grid of its own."""
        _side(side)
        rules = self.rules_of(options)
        return [self.problem(rules, p) for p in validate_setup(rules, setup, complete=complete)]

    def auto_setup(
        self,
        side: str,
        seed: int,
        partial: Mapping[str, str],
        options: Mapping[str, Any],
        style: str = "",
        *,
        fixed: bool = False,
    ) -> dict[str, str]:
        """A complete setup from ``seed`` keeping the valid part of ``partial`` (A3); ``style`` ``"plain"``
        (default) or ``"hard"`` (:func:`~.rules.auto_arrange`). With ``fixed`` every ship of ``partial`` stays
        where it is: nothing is dropped or given up.

        :raises RuleError: ``bad_style``; with ``fixed``: ``invalid_setup`` (``partial`` is not a valid partial
            setup), ``no_arrangement`` (the rest of the fleet does not fit around it).
        """
        _side(side)
        rules = self.rules_of(options)
        try:
            setup = auto_arrange(rules, random.Random(seed), partial, style or STYLES[0], fixed=fixed)
        except IllegalAction as e:
            raise _err(e) from None
        return {cell_name(c): code for c, code in setup.items()}

    def canonical_setup(self, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """``setup`` with wire cell names in reading order and upper-case codes.

        :raises RuleError: ``invalid_setup`` if it is not a valid complete setup.
        """
        try:
            return canonical_setup(self.rules_of(options), setup)
        except IllegalAction as e:
            raise _err(e) from None

    def draft_setup(self, side: str, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """A partial setup as a draft is kept: wire cell names (``"А1"``, ``" A1 "`` → ``"a1"``) and upper-case
        codes, reading order; bent, short or touching ships and missing ones are kept (:meth:`setup_problems`).

        :raises RuleError: ``invalid_setup`` for a cell that is not one of the grid's, a code that is not one of
            the rule set's, or one cell given twice (``"a1"`` and ``"А1"``): the entry problems of
            :func:`~.rules.validate_setup`.
        """
        _side(side)
        rules = self.rules_of(options)
        refused = [p for p in validate_setup(rules, setup, complete=False) if p.code in _ENTRY_PROBLEMS]
        if refused:
            raise RuleError("invalid_setup", "; ".join(p.message for p in refused))
        return {cell_name(c): code for c, code in normalize_setup(rules, setup).items()}

    # -- play ---------------------------------------------------------------------------------------------------

    def new_game(self, setups: Mapping[str, Mapping[str, str]], settings: Mapping[str, Any]) -> Game:
        """A game from both setups; ``settings["options"]`` (as :meth:`options` stores them) and
        ``settings["seed"]`` (an ``int``: the first shooter is drawn from it, A4, D2).

        :raises RuleError: ``invalid_setup``, ``bad_options``, ``bad_settings``.
        """
        try:
            return self.game_class(setups, settings)
        except IllegalAction as e:
            raise _err(e) from None

    def parse_player_action(self, text: str) -> str:
        """The canonical notation of a shot: ``"B5"``, ``"Б5"``, ``" b5 "`` → ``"b5"``. The grid is not known here:
        a cell off the game's grid (``"k1"``, a 16×16 name, D1) parses and :meth:`apply` refuses it (``bad_cell``).

        :raises RuleError: ``bad_notation`` for anything else (the server's end actions included).
        """
        try:
            action = self.game_class.record_class.parse_action(text)
        except IllegalAction as e:
            raise _err(e) from None
        if not isinstance(action, Shot):
            raise RuleError("bad_notation", f"{text!r} is not a shot: a player sends a cell such as 'b5'")
        return str(action)

    def apply(self, game: Game, action: str) -> Applied:
        """Apply ``action``. ``actor``: the shooter (the named side for an end, ``None`` for a draw); ``turn``: the
        shot began its side's turn; ``completed``: the shooter when the shot ended its turn (a miss under classic
        rules, every shot under Hasbro, the last of a salvo, or the winning shot).

        :raises RuleError: with the rules' code (``already_shot``, ``game_over``, ``bad_cell``, ``bad_notation``…);
            the game is unchanged.
        """
        state = game.state
        before, first_of_turn = state.to_act, state.turn_shots == 0
        try:
            parsed = self.game_class.record_class.parse_action(action)
            game.apply(parsed)
        except IllegalAction as e:
            raise _err(e) from None
        actor = _actor(parsed, before)
        if not isinstance(parsed, Shot):
            return Applied(None if actor is None else actor.label, False, None)
        completed = state.to_act is not before
        return Applied(actor.label, first_of_turn, actor.label if completed else None)  # type: ignore[union-attr]

    def end_action(self, kind: str, side: str | None) -> str:
        """``resign south``, ``flag north``, ``abandon south`` (the side that loses) or ``draw``.

        :raises RuleError: ``bad_notation`` for another kind or a missing side.
        """
        if kind == "draw":
            return str(AgreeDraw())
        cls = {"resign": Resign, "flag": FlagFall, "abandon": Abandon}.get(kind)
        if cls is None or side is None:
            raise RuleError("bad_notation", f"no end action {kind!r} for {side!r}")
        return str(cls(_side(side)))

    def view(self, game: Game, audience: str) -> dict[str, Any]:
        """The wire view (:meth:`~.rules.PlayerView.to_dict`) for ``south``/``north``/``spectator``/``full``.

        :raises RuleError: ``bad_audience``; ``game_not_over`` for ``full`` during the game.
        """
        try:
            out = game.view(audience).to_dict()
        except IllegalAction as e:
            raise _err(e) from None
        out.setdefault("chance", self.chance(game))
        return out

    def chance(self, game: Game) -> dict[str, str | None]:
        """The fair chance of ``game`` as every audience sees it (D13): ``{"commitment": SHA-256 hex of the seed's
        32 bytes, "seed": those bytes in hex once the game is over, else None}``.

        >>> rs = BattleshipRuleset()
        >>> setups = {s: rs.auto_setup(s, n, {}, {}) for n, s in enumerate(("south", "north"))}
        >>> game = rs.new_game(setups, {"options": {}, "seed": 1})
        >>> c = rs.chance(game)
        >>> len(c["commitment"]), c["seed"]
        (64, None)
        """
        seed = seed_bytes(game.record.settings["seed"])
        return {"commitment": commitment(seed), "seed": seed.hex() if game.state.result is not None else None}

    def revealed_chance(self, game: Game) -> dict[str, str]:
        """:meth:`chance` with the seed shown whatever the state: what a game the house ended without the rules (an
        abort after the start) shows, since D13 shows the seed at every end.

        >>> rs = BattleshipRuleset()
        >>> setups = {s: rs.auto_setup(s, n, {}, {}) for n, s in enumerate(("south", "north"))}
        >>> rs.revealed_chance(rs.new_game(setups, {"options": {}, "seed": 1}))["seed"][-2:]
        '01'
        """
        seed = seed_bytes(game.record.settings["seed"])
        return {"commitment": commitment(seed), "seed": seed.hex()}

    def draws(self, game: Game) -> list[dict[str, Any]]:
        """Every draw ``game`` made from its seed so far, in order (D13): ``[{"k", "n", "value", "what"}]`` — the
        draw's number, its number of choices, the value drawn (0 ≤ value < n) and what it decided (``"first"``:
        the first shooter, 0 South, 1 North; A4, D2). Rule sets A and B draw once."""
        return [{"k": 0, "n": 2, "value": int(game.state.first), "what": "first"}]

    def replay(self, game: Game) -> dict[str, Any]:
        """Both setups, the options, the first shooter and per ply ``{ply, action, side, answer, ship,
        sunk_cells}``: ``side`` the side that acted (``None`` for a draw), ``answer`` ``miss``/``hit``/``sunk``
        (``None`` for an end action), ``ship`` and ``sunk_cells`` as the answer told them (the ship's code only
        when the rules name it: Hasbro named, or a classic sinking by its size; never under hits not named),
        plus ``result`` and ``chance`` (:meth:`chance` with ``draws``: :meth:`draws`, each re-checkable against the
        revealed seed, D13)."""
        record = game.record
        g = type(game)(record.setups, record.settings)
        plies = []
        for action in record.actions:
            ply, side = g.ply, _actor(action, g.state.to_act)
            events = g.apply(action)
            fired = next((e for e in events if isinstance(e, ShotFired)), None)
            told = None if fired is None else shot_view(g.rules, fired)
            plies.append(
                {
                    "ply": ply,
                    "action": str(action),
                    "side": None if side is None else side.label,
                    "answer": None if told is None else told.answer.value,
                    "ship": None if told is None else told.ship,
                    "sunk_cells": [] if told is None else [cell_name(c) for c in told.sunk_cells],
                }
            )
        data = record.to_dict()
        return {
            "options": data["settings"]["options"],
            "first": g.state.first.label,
            "setups": data["setups"],
            "plies": plies,
            "result": self.result(game),
            "chance": {**self.chance(game), "draws": self.draws(game)},
        }

    def game_stats(self, game: Game) -> dict[str, Any]:
        """Per side (``"south"``, ``"north"``), the figures of the game so far (what :mod:`.progression` credits):

        - ``shots``: shots it fired; ``hits``: of them, hits and sinkings (enemy decks destroyed); ``accuracy``:
          ``hits / shots`` (0.0 with no shot);
        - ``sunk``: enemy ships it sank; ``ships_lost``: own ships sunk;
        - ``decks``: decks of a fleet (both fleets follow the same rules: 20 classic, 17 Hasbro); ``decks_lost``:
          own decks hit;
        - ``won``: it won (``False`` for both in a draw or a game in progress); ``outcome``: ``"win"``,
          ``"draw"``, ``"loss"`` (``None`` during the game); ``reason``: why the game ended (``"fleet_sunk"``,
          ``"resign"``, ``"flag"``, ``"abandon"``, ``"draw"``; ``None`` during the game);
        - ``plies``: the record's plies it made (its shots and its own resignation, flag or abandonment);
        - ``turns``: turns it began (a turn is a run of shots, see :mod:`.rules.state`); ``counts``: both sides
          began at least :data:`.progression.MIN_TURNS` turns (else the game is "aborted": nothing is credited).
        """
        state = game.state
        out: dict[str, Any] = {}
        result = state.result
        winner = None if result is None else result.winner
        turns = {side: sum(1 for s in state.shots[side].values() if s.turn_start) for side in Side}
        counts = min(turns.values()) >= MIN_TURNS
        for side in Side:
            shots = list(state.shots[side].values())
            hits = sum(1 for s in shots if s.answer is not Answer.MISS)
            ended = sum(1 for e in game.log if isinstance(e, GameOver) and _ends_by(e, side))
            if result is None:
                outcome = None
            else:
                outcome = "draw" if winner is None else "win" if winner is side else "loss"
            out[side.label] = {
                "shots": len(shots),
                "hits": hits,
                "sunk": len(state.fleets[side.opponent]) - state.afloat[side.opponent],
                "ships_lost": len(state.fleets[side]) - state.afloat[side],
                "accuracy": hits / len(shots) if shots else 0.0,
                "decks": sum(ship.size for ship in state.fleets[side]),
                "decks_lost": sum(state.damage[side]),
                "won": winner is side,
                "outcome": outcome,
                "reason": None if result is None else result.reason.value,
                "plies": len(shots) + ended,
                "turns": turns[side],
                "counts": counts,
            }
        return out

    # -- progression (docs/points.md) ------------------------------------------------------------------------

    def credit(self, stats: Mapping[str, Any], career: Mapping[str, Any], ai_level: int | None) -> Credit:
        """One seat's points (:func:`.progression.points`) and its «Морской бой» totals (:func:`.progression.fold`)
        after the game; an aborted game (``stats["counts"]`` false) credits nothing.

        :raises ValueError: for a career it cannot read or an AI level outside 1…5.
        """
        outcome = progression.outcome(stats)
        if outcome is None:
            return Credit(False, None, 0, dict(career))
        gained = progression.points(stats, ai_level)
        return Credit(True, outcome, gained, progression.fold(career, stats))

    def career_stats(self, career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """:func:`.progression.career_stats`: shots, hits, accuracy, ships sunk, the fastest win."""
        return progression.career_stats(career)

    # -- bots (see .botapi) -----------------------------------------------------------------------------------

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any]) -> Bot:
        """A bot of ``level`` from :data:`.botapi.LEVELS`, drawing from ``seed``.

        :raises ValueError: for a level that does not exist (every level, until bots exist).
        """
        lv = LEVELS.get(level)
        if lv is None:
            raise ValueError(f"«Морской бой» has no AI level {level!r} (levels: {sorted(LEVELS) or 'none yet'})")
        return lv.make(seed, self.rules_of(options))

    def bot_setup(self, bot: Bot, side: str) -> dict[str, str]:
        """The bot's setup for ``side`` in wire form (cell names, reading order), as the bot gave it; the session
        checks it like a player's (:meth:`setup_problems`)."""
        raw = bot.setup(side)
        out: dict[int, str] = {}
        for cell, code in raw.items():
            try:
                out[parse_cell(cell)] = str(code).strip().upper()
            except IllegalAction as e:
                raise _err(e) from None
        return {cell_name(c): code for c, code in sorted(out.items())}

    def bot_view(self, game: Game, side: str, since: int) -> PlayerView:
        """The pure :class:`~.rules.PlayerView` of ``side`` (the one view function), ``news`` from ply ``since``."""
        return game.view(_side(side), since=since)

    def bot_act(self, bot: Bot, view: PlayerView, deadline_s: float) -> str:
        """``bot.act(view, deadline_s)`` in canonical notation. :raises RuleError: ``bad_notation``."""
        return self.parse_player_action(str(bot.act(view, deadline_s)))

    # -- texts --------------------------------------------------------------------------------------------------

    def answer_text(self, options: Mapping[str, Any], answer: str, ship: str | None = None) -> str:
        """An answer as a player says it, in the current language: «Мимо», «Ранен», «Убит» (classic);
        «Попал»/«Потоплен» with the ship's name when the view gave one (Hasbro), e.g. «Попал: Авианосец»."""
        rules = self.rules_of(options)
        text = _(_ANSWER_RU[(rules.key, Answer(answer))])
        if ship and rules.key == "hasbro":
            text = f"{text}: {ship_name(rules.key, ship)}"
        return text


def _ends_by(event: GameOver, side: Side) -> bool:
    """Whether ``event`` was an end action naming ``side`` (a resignation, flag fall or abandonment)."""
    return event.result.reason in (Reason.RESIGN, Reason.FLAG, Reason.ABANDON) and event.result.winner is side.opponent
