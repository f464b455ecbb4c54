""":class:`NavalRuleset`: the house's :class:`~admiral.games.protocol.Ruleset` of «Военно-морская игра» over the pure
rules in :mod:`.rules`.

The session deals only in strings and JSON-ready dicts: sides ``"south"``/``"north"``, setups ``{point: code}``
(the fixed start, §2: ``{"e1": "Bn", …}``), actions as notation (``"d2-d3"``, ``"d2>"``, ``"d2xd3"``, ``"+a1"``),
views from the one view function. The game has no room options and no setup phase (capability ``fixed_start``:
the start is fixed, :meth:`auto_setup` gives it); the die's seed is fixed when play starts (``start_settings``).

>>> rs = NavalRuleset()
>>> setups = {s: rs.auto_setup(s, 0, {}, {}) for s in ("south", "north")}
>>> game = rs.new_game(setups, {"options": {}, "seed": 1})
>>> rs.apply(game, rs.parse_player_action("D2-D3")) == Applied("south", True, "south")
True
>>> rs.to_act(game), rs.view(game, "spectator")["legal"], rs.view(game, "north")["chance"]["seed"]
('north', [], None)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from admiral.games.common import RecordedRuleset
from admiral.games.protocol import Applied, Credit, GameInfo, RuleError, info_manifest
from admiral.i18n import N_, _, pgettext

from . import INFO, progression, rulebook
from .rules import (
    FLEET,
    MAP,
    MINES,
    QUIET_PLIES,
    Abandon,
    Action,
    AgreeDraw,
    FlagFall,
    Game,
    GameOver,
    IllegalAction,
    Kind,
    MineLaid,
    Order,
    PlayerView,
    Reason,
    Resign,
    Side,
    Strike,
    commitment,
    name,
    parse_point,
    seed_bytes,
    setup_problems,
    start_setup,
)
from .tutorial import SCENARIOS, Lesson, scenario

__all__ = ["NavalRuleset"]

#: The ships' Russian names by code (§2).
SHIP_RU = {
    "B": N_("Броненосец"),
    "C": N_("Крейсер"),
    "G": N_("Канонерка"),
    "T": N_("Миноносец"),
    "M": N_("Тральщик"),
    "S": N_("Подлодка"),
}

_PROBLEM_RU = {
    "bad_point": N_("Нет точки «{cell}»."),
    "not_a_start": N_("{cell} — не точка начальной расстановки."),
    "wrong_ship": N_("{cell}: в начале здесь стоит другой корабль."),
    "missing": N_("{cell}: не хватает корабля."),
}


def _err(e: IllegalAction) -> RuleError:
    return RuleError(e.code, e.reason)


def _side(label: str) -> Side:
    try:
        return Side.parse(label)
    except IllegalAction as e:
        raise _err(e) from None


def _no_options(options: Mapping[str, Any] | None) -> None:
    if options:
        raise RuleError("bad_options", f"«Военно-морская игра» has no room options, not {dict(options)!r}")


def _actor(action: Action, to_act: Side | None) -> Side | None:
    if isinstance(action, Resign | FlagFall | Abandon):
        return action.side
    if isinstance(action, AgreeDraw):
        return None
    return to_act


#: The rules page's pictures' titles (their accessible names).
_PICTURES = {
    "start": N_("Карта в начале партии"),
    "steps": N_("Шаг и повороты крейсера"),
    "strikes": N_("Удары в борт, в корму и в нос"),
    "senior": N_("Старшие бьют в нос"),
    "guns": N_("Батарея и мина"),
}


class NavalRuleset(RecordedRuleset):
    """:class:`~admiral.games.protocol.Ruleset` of «Военно-морская игра» (NAVAL_GAME.md) over :mod:`.rules`.

    The game handle is a :class:`~.rules.Game`. Every :class:`~.rules.IllegalAction` of the rules reaches the
    session as a :class:`~admiral.games.protocol.RuleError` with the same code and reason.
    """

    info: GameInfo = INFO

    # -- «Правила» (capability "rules_page") -------------------------------------------------------------------

    def rules_page(self) -> tuple[str, dict[str, Any]]:
        """«Правила» of «Военно-морская игра» (``templates/rules_naval.html``, NAVAL_GAME.md): its pictures and the
        strike table computed by the engine (:mod:`.rulebook`), the ships' letters in the reader's language."""
        manifest = self.manifest()
        letters = {code: pgettext("naval", ru) for code, ru in rulebook.LETTERS.items()}
        ships = [{**s, "name": _(s["name"])} for s in manifest["ships"]]
        title = {key: _(text) for key, text in _PICTURES.items()}
        return "rules_naval.html", {
            "ships": ships,
            "names": {s["code"]: s["name"] for s in ships},
            "letters": letters,
            "land": manifest["map"]["land"],
            "guns": manifest["map"]["guns"],
            "mines": manifest["mines"],
            "quiet_turns": manifest["quiet_plies"] // 2,
            "strike_table": rulebook.strike_table(),
            "pictures": {key: rulebook.svg(d, letters, title[key]) for key, d in rulebook.diagrams().items()},
        }

    # -- «Обучение» (capability "tutorial") -------------------------------------------------------------------

    def lessons(self) -> tuple[Any, ...]:
        """The lessons of :mod:`.tutorial`, in order (slugs ``naval-…``)."""
        return SCENARIOS

    def lesson(self, slug: str, step: int) -> Lesson:
        """Lesson ``slug`` at ``step``. :raises KeyError: for a slug of no lesson of this game."""
        sc = scenario(slug)
        if sc is None:
            raise KeyError(slug)
        return Lesson(sc, step)

    def manifest(self) -> dict[str, Any]:
        """What a browser client draws from, beyond :func:`~admiral.games.protocol.info_manifest`: ``map``
        (:meth:`~.rules.Map.to_dict`: width, height, columns, rows, land, each side's gun points), ``ships``
        (``[{code, rank, count, name}]`` in rank order, ``name`` Russian), ``mines`` (the start reserve),
        ``quiet_plies`` (§6), ``die`` (``{"faces": 6, "explosion": 0}``).

        >>> m = NavalRuleset().manifest()
        >>> m["map"]["land"], [s["code"] for s in m["ships"]], m["map"]["guns"]["south"]
        (['c6', 'c7', 'e7', 'g7', 'g8'], ['B', 'C', 'G', 'T', 'M', 'S'], ['b3', 'e3', 'h3'])
        """
        return {
            **info_manifest(INFO),
            "map": MAP.to_dict(),
            "ships": [{"code": k.code, "rank": k.rank, "count": k.count, "name": SHIP_RU[k.code]} for k in Kind],
            "mines": MINES,
            "quiet_plies": QUIET_PLIES,
            "die": {"faces": 6, "explosion": 0},
        }

    # -- options and setup: the start is fixed (§2) -----------------------------------------------------------

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """``{}``: the game has no room options. :raises RuleError: ``bad_options`` for any."""
        _no_options(raw)
        return {}

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        """``""``: one fleet, one start."""
        _no_options(options)
        return ""

    def setup_problems(
        self, side: str, setup: Mapping[str, str], *, complete: bool, options: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Every way ``setup`` differs from ``side``'s start (§2): ``[{code, message, cell, kind}]``, ``message``
        in the current language."""
        _no_options(options)
        out = []
        for p in setup_problems(_side(side), setup, complete=complete):
            message = _(_PROBLEM_RU[p.code]).format(cell=p.cell)
            out.append({"code": p.code, "message": message[:1].upper() + message[1:], "cell": p.cell, "kind": p.kind})
        return out

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
        """The start (§2) whatever ``seed``, ``partial`` and ``style``: there is one. With ``fixed`` a ``partial``
        that is not part of the start is refused.

        :raises RuleError: with ``fixed``: ``invalid_setup``."""
        _no_options(options)
        start = {name(p): code for p, code in start_setup(_side(side)).items()}
        if fixed and setup_problems(_side(side), partial, complete=False):
            raise RuleError("invalid_setup", "the start is fixed (§2): nothing else may be placed")
        return start

    def canonical_setup(self, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """The start as it is written, if ``setup`` is one side's start. :raises RuleError: ``invalid_setup``."""
        _no_options(options)
        for side in Side:
            if not setup_problems(side, setup):
                return {name(p): code for p, code in start_setup(side).items()}
        raise RuleError("invalid_setup", "a setup is one side's start (§2)")

    def draft_setup(self, side: str, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """``setup`` with point names as the map writes them, in point order (problems kept).

        :raises RuleError: ``invalid_setup`` for a point off the map."""
        _no_options(options)
        _side(side)
        out = {}
        for key, code in setup.items():
            try:
                out[parse_point(key)] = str(code).strip()
            except IllegalAction as e:
                raise RuleError("invalid_setup", e.reason) from None
        return {name(p): code for p, code in sorted(out.items())}

    # -- play ---------------------------------------------------------------------------------------------------

    def new_game(self, setups: Mapping[str, Mapping[str, str]], settings: Mapping[str, Any]) -> Game:
        """A game from both setups (the start) and ``settings`` (``{"options": {}, "seed": int}``: the die's
        seed, §7.5). :raises RuleError: ``invalid_setup``, ``bad_options``, ``bad_settings``."""
        try:
            return Game(setups, settings)
        except IllegalAction as e:
            raise _err(e) from None

    def parse_player_action(self, text: str) -> str:
        """The canonical notation of an order: ``" D2-D3 "`` → ``"d2-d3"``, ``"a1> +a1"`` → ``"+a1 a1>"``.

        :raises RuleError: ``bad_notation`` (the server's end actions included), ``bad_point``, ``off_map``,
            ``one_ship_a_turn``, ``one_mine_a_turn``."""
        try:
            action = Action.parse(text)
        except IllegalAction as e:
            raise _err(e) from None
        if not isinstance(action, Order):
            raise RuleError("bad_notation", f"{text!r} is not an order: a step, a turn, a strike or a mine")
        return str(action)

    def apply(self, game: Game, action: str) -> Applied:
        """Apply ``action``: an order is one whole turn (``turn`` and ``completed`` by its side); an end action has
        the named side as actor (``None`` for a draw). :raises RuleError: the rules' code; the game is unchanged."""
        before = game.state.to_act
        try:
            parsed = Action.parse(action)
            game.apply(parsed)
        except IllegalAction as e:
            raise _err(e) from None
        actor = _actor(parsed, before)
        label = None if actor is None else actor.label
        if isinstance(parsed, Order):
            return Applied(label, True, label)
        return Applied(label, False, None)

    def end_action(self, kind: str, side: str | None) -> str:
        """``resign south``, ``flag north``, ``abandon south`` (the side that loses) or ``draw``.

        :raises RuleError: ``bad_notation`` for another kind or a missing side."""
        if kind == "draw":
            return str(AgreeDraw())
        cls = {"resign": Resign, "flag": FlagFall, "abandon": Abandon}.get(kind)
        if cls is None or side is None:
            raise RuleError("bad_notation", f"no end action {kind!r} for {side!r}")
        return str(cls(_side(side)))

    def view(self, game: Game, audience: str) -> dict[str, Any]:
        """The wire view (:meth:`~.rules.PlayerView.to_dict`) for ``south``/``north``/``spectator``/``full``.

        :raises RuleError: ``bad_audience``; ``game_not_over`` for ``full`` during the game."""
        try:
            return game.view(audience).to_dict()
        except IllegalAction as e:
            raise _err(e) from None

    def chance(self, game: Game) -> dict[str, str | None]:
        """``{"commitment": SHA-256 hex of the die's seed, "seed": hex once the game is over, else None}`` (§7.5)."""
        seed = seed_bytes(game.record.settings["seed"])
        return {"commitment": commitment(seed), "seed": seed.hex() if game.state.result is not None else None}

    def revealed_chance(self, game: Game) -> dict[str, str]:
        """:meth:`chance` with the seed shown whatever the state (a game the house ended outside the rules, §7.5:
        the seed at every end)."""
        seed = seed_bytes(game.record.settings["seed"])
        return {"commitment": commitment(seed), "seed": seed.hex()}

    def draws(self, game: Game) -> list[dict[str, Any]]:
        """Every roll so far (:meth:`~.rules.Roll.to_dict`: ``k``, ``n`` = 6, ``value``, ``what`` and the ship it
        concerned), in order: the house's draw list, which the replay page re-checks against the seed."""
        return [r.to_dict() for r in game.state.rolls]

    def replay(self, game: Game) -> dict[str, Any]:
        """The setups and per ply ``{ply, action, side, events: [text]}`` (``side`` the side that acted, ``None``
        for a draw), plus ``result`` and ``chance`` (:meth:`chance` with ``draws``)."""
        record = game.record
        g = record.start()
        plies = []
        for action in record.actions:
            ply, side = g.ply, _actor(action, g.state.to_act)
            events = g.apply(action)
            plies.append(
                {
                    "ply": ply,
                    "action": str(action),
                    "side": None if side is None else side.label,
                    "events": [str(e) for e in events],
                }
            )
        data = record.to_dict()
        return {
            "setups": data["setups"],
            "plies": plies,
            "result": self.result(game),
            "chance": {**self.chance(game), "draws": self.draws(game)},
        }

    def game_stats(self, game: Game) -> dict[str, Any]:
        """Per side: ``turns`` (orders given), ``strikes`` (enemy ships it sank by striking), ``sunk`` (enemy ships
        lost by any cause), ``ships_lost``, ``ships`` (a fleet: 12), ``mines_laid``, ``rolls`` (rolls for its
        ships), ``won``, ``outcome`` (``"win"``/``"draw"``/``"loss"``, ``None`` during the game), ``reason``,
        ``plies`` (its orders and its own end action), ``counts`` (each side gave at least
        :data:`.progression.MIN_TURNS` orders: else the game is aborted, nothing is credited)."""
        state = game.state
        result = state.result
        winner = None if result is None else result.winner
        out: dict[str, Any] = {}
        turns = dict.fromkeys(Side, 0)
        for side in record_sides(game):
            turns[side] += 1
        for side in Side:
            lost = [x for x in state.sunk if x.side is side]
            ended = sum(1 for e in game.log if isinstance(e, GameOver) and _ends_by(e, side))
            out[side.label] = {
                "turns": turns[side],
                "strikes": sum(1 for e in game.log if isinstance(e, Strike) and e.side is side),
                "sunk": sum(1 for x in state.sunk if x.side is side.opponent),
                "ships_lost": len(lost),
                "ships": len(FLEET),
                "mines_laid": sum(1 for e in game.log if isinstance(e, MineLaid) and e.side is side),
                "rolls": sum(1 for r in state.rolls if r.side is side),
                "won": winner is side,
                "outcome": None
                if result is None
                else "draw"
                if winner is None
                else "win"
                if winner is side
                else "loss",
                "reason": None if result is None else result.reason.value,
                "plies": turns[side] + ended,
            }
        counts = all(t >= progression.MIN_TURNS for t in turns.values())
        for stats in out.values():
            stats["counts"] = counts
        return out

    # -- progression (docs/points.md) ----------------------------------------------------------------------------

    def credit(self, stats: Mapping[str, Any], career: Mapping[str, Any], ai_level: int | None) -> Credit:
        """One seat's points (:func:`.progression.points`) and its «Военно-морская игра» totals
        (:func:`.progression.fold`) after the game; an aborted game (``stats["counts"]`` false) credits nothing.

        :raises ValueError: for a career it cannot read or an AI level outside 1…5."""
        outcome = progression.outcome(stats)
        if outcome is None:
            return Credit(False, None, 0, dict(career))
        return Credit(True, outcome, progression.points(stats, ai_level), progression.fold(career, stats))

    def career_stats(self, career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """:func:`.progression.career_stats`: orders, strikes, ships sunk, the fastest win."""
        return progression.career_stats(career)

    def start_settings(
        self, careers: Mapping[str, Mapping[str, Any] | None], ai: Mapping[str, int | None]
    ) -> dict[str, Any]:
        """What the record keeps from the start of play: ``{"seed": int}``, a fresh 32-byte seed (below 2²⁵⁶) every
        roll of the die comes from (§7.5: the house's own game seed is shorter). Careers and levels play no part.

        >>> 0 <= NavalRuleset().start_settings({}, {})["seed"] < 2**256
        True
        """
        return {"seed": secrets.randbits(256)}

    # -- bots: the five levels of :mod:`.bots` (issue 21) ------------------------------------------------------

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any]) -> Any:
        """A bot of ``level`` from :data:`.bots.LEVELS` (1–5), drawing from ``seed``.

        :raises ValueError: for a level that does not exist; ``bad_options`` (:class:`RuleError`) for any option."""
        from .bots import LEVELS  # the bots import the rules only; kept out of the module's import time

        _no_options(options)
        lv = LEVELS.get(level)
        if lv is None:
            raise ValueError(f"«Военно-морская игра» has no AI level {level!r} (levels: {sorted(LEVELS)})")
        return lv.make(seed)

    def bot_setup(self, bot: Any, side: str) -> dict[str, str]:
        """The start (§2): a bot has no setup to choose."""
        return {name(p): code for p, code in start_setup(_side(side)).items()}

    def bot_view(self, game: Game, side: str, since: int) -> PlayerView:
        """The pure :class:`~.rules.PlayerView` of ``side``, ``news`` from ply ``since`` — with the die's seed
        blanked in its state copy: a view's state holds the seed (only ``to_dict`` hides it), and a bot, which may
        run in another process, must never hold what would foretell the die (§7.5)."""
        view = game.view(_side(side), since=since)
        view.state.seed = bytes(32)  # the view's own copy; the game's state keeps its seed
        return view

    def bot_act(self, bot: Any, view: PlayerView, deadline_s: float) -> str:
        """``bot.act(view, deadline_s)`` in canonical notation. :raises RuleError: ``bad_notation``."""
        return self.parse_player_action(str(bot.act(view, deadline_s)))


def record_sides(game: Game) -> list[Side]:
    """The side that gave each order of ``game``'s record, in order (end actions left out)."""
    g = game.record.start()
    out = []
    for action in game.record.actions:
        if isinstance(action, Order):
            out.append(g.state.to_move)
        g.apply(action)
    return out


def _ends_by(event: GameOver, side: Side) -> bool:
    """Whether ``event`` was an end action naming ``side`` (a resignation, flag fall or abandonment)."""
    return event.result.reason in (Reason.RESIGN, Reason.FLAG, Reason.ABANDON) and event.result.winner is side.opponent
