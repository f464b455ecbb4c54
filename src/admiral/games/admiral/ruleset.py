"""«Адмирал» (``../shared/rules/ADMIRAL.md``) as a game of the house: :class:`AdmiralRuleset` implements the core
:class:`~admiral.games.protocol.Ruleset` over :mod:`.rules` and :mod:`.bots`, with the capabilities
``notes`` (:class:`~admiral.games.protocol.MarkerNotes`), ``auto_reply`` (the defender's declaration, rules
§7.1.2), ``progression`` (:class:`~admiral.games.protocol.Progression` over :mod:`admiral.progression`:
PROGRESSION.md's points, career and awards) and ``tutorial`` (:class:`~admiral.games.protocol.Lessons`: the lessons
of :mod:`.tutorial`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from admiral.games.admiral import rulebook
from admiral.games.admiral.bots import LEVELS, Bot, make_bot
from admiral.games.admiral.manifest import tables
from admiral.games.admiral.rules import (
    FLEET_SIZE,
    QUIET_LIMIT,
    Abandon,
    Action,
    AgreeDraw,
    Attack,
    BattleReport,
    Declare,
    Detonate,
    FlagFall,
    Game,
    IllegalAction,
    Kind,
    Move,
    Moved,
    MoveView,
    Resign,
    Side,
    auto_arrange,
    cell_name,
    normalize_setup,
    strongest_declaration,
    validate_setup,
)
from admiral.games.admiral.rules.board import COLUMNS_RU, HEIGHT, WIDTH
from admiral.games.admiral.rules.setup import SetupProblem
from admiral.games.admiral.tutorial import SCENARIOS, Lesson, scenario
from admiral.i18n import N_, _, pgettext
from admiral.progression import Career, GameStats, Outcome, game_stats, opponent_factor, points

from ..common import RecordedRuleset
from ..protocol import Applied, Credit, GameInfo, RuleError, info_manifest

__all__ = ["INFO", "AdmiralRuleset"]

#: The board's column letters as one message (the client's ``pt("columns", …)``).
_COLUMNS = "".join(COLUMNS_RU)

#: The facts of «Адмирал» (rules §1–§3, §12).
INFO = GameInfo(
    key="admiral",
    name=N_("Адмирал"),
    levels={n: lv.ru for n, lv in LEVELS.items()},
    setup_minutes=5,
    pairing=("5+3", "10+5", "15+10"),  # quick pairing (issue 19)
    capabilities=frozenset({"notes", "auto_reply", "progression", "tutorial", "rules_page"}),
    board={"width": WIDTH, "height": HEIGHT},
    blurb=N_("14×15, по 58 единиц, скрытые силы и бои по шкале силы"),
    brief=N_(
        "Поле 14×15, у каждого флот из 58 единиц, расставленных втайне в своей зоне 5×14. Корабли противника видны "
        "только как закрытые фишки — кто есть кто, открывает лишь бой. Корабли сильнее вместе: строи сравниваются по "
        "шкале силы. Уничтожьте обе военно-морские базы противника."
    ),
    invite=N_("Морской бой со скрытыми силами на поле 14×15. Примите приглашение, расставьте флот — и в бой."),
    level_notes={
        1: N_("ходит почти наугад, но атаку не упустит"),
        2: N_("жадный: бьёт то, что выгодно прямо сейчас"),
        3: N_("помнит раскрытые корабли и оценивает позицию"),
        4: N_("просчитывает варианты, угадывая ваши фишки, и помнит раскрытые корабли, куда бы они ни ушли"),
        5: N_("вычисляет ваш авианосец по ударам, собирает строи, охотится за базами"),
    },
    messages={
        "declaration_pending": N_("Идёт бой: ждём объявления защитника."),
        "no_declaration_pending": N_("Сейчас объявлять нечего."),
        "bad_declaration": N_("Такое объявление невозможно."),
        "no_unit": N_("На этой клетке нет вашего объекта."),
        "not_your_unit": N_("Это не ваш объект."),
        "immobile": N_("Этот объект не двигается."),
        "not_adjacent": N_("Ход — только на соседнюю клетку по горизонтали или вертикали."),
        "occupied": N_("Клетка занята."),
        "tethered": N_("Оружие не может уйти от своего носителя."),
        "cannot_attack": N_("Этот объект не атакует."),
        "bad_target": N_("Эту цель атаковать нельзя."),
        "bad_formation": N_("Такое соединение невозможно."),
        "no_bomb": N_("У вас нет атомной бомбы."),
        "no_arrangement": N_(
            "Авторасстановка невозможна: военно-морским базам не осталось свободных клеток вне переднего ряда. "
            "Освободите клетку в задних рядах своей зоны."
        ),
    },
    tutorial="/tutorial",
    rules_page="/rules",
    tutorial_note=N_(
        "Короткие уроки на настоящем поле: расстановка, ходы, атака, строи, самолёт, торпеды, мины, брандер, "
        "атомная бомба и базы."
    ),
    side_choice=True,
    end_reasons={  # rules §10, §13 (Reason of .rules.events)
        "bases": N_("обе базы уничтожены"),
        "no_actions": N_("не осталось ходов"),
        "quiet_sea": N_("тихое море"),
        "agreement": N_("по соглашению"),
        "resignation": N_("сдача"),
        "flag": N_("время вышло"),
        "abandonment": N_("уход из партии"),
    },
)


def _side(label: str) -> Side:
    return Side.parse(label)


def _actor(action: Action, to_act: Side | None) -> str | None:
    """Who made ``action``: the side named by an end action, nobody for an agreed draw, else the side that was
    to act (the defender for a declaration)."""
    if isinstance(action, Resign | FlagFall | Abandon):
        return action.side.label
    if isinstance(action, AgreeDraw) or to_act is None:
        return None
    return to_act.label


_PROBLEM_RU = {
    "bad_cell": N_("Нет клетки «{cell}»."),
    "outside_zone": N_("{cell} — вне вашей зоны (правила §3.1)."),
    "occupied_twice": N_("На {cell} поставлено два объекта (правила §3.1)."),
    "unknown_kind": N_("{cell}: неизвестный тип объекта."),
    "too_many": N_("Слишком много: {kind} (правила §2)."),
    "too_few": N_("Не хватает: {kind} (правила §2)."),
    "base_in_front_row": N_("ВМБ на {cell} стоит в первой линии (правила §3.2)."),
}


def _problem(p: SetupProblem) -> dict[str, Any]:
    kind = p.kind
    try:
        ru = _(Kind.parse(kind).ru_name) if kind else ""
    except IllegalAction:
        ru = kind or ""
    template = _(_PROBLEM_RU.get(p.code, N_("Ошибка расстановки.")))
    return {"code": p.code, "message": template.format(cell=p.cell or "", kind=ru), "cell": p.cell, "kind": kind}


class AdmiralRuleset(RecordedRuleset):
    """:class:`~admiral.games.protocol.Ruleset` of «Адмирал» over :mod:`.rules`. It has no room options."""

    info = INFO
    sides = INFO.sides
    _PLAYER_ACTIONS = (Move, Attack, Declare, Detonate)

    def manifest(self) -> dict[str, Any]:
        """What the client (``static/js/games/admiral/``) draws from, JSON-ready and deterministic:
        :func:`~admiral.games.protocol.info_manifest` plus the game's own tables, computed from the engine
        (:func:`admiral.games.admiral.manifest.tables`: ``board`` with its columns, zones and front rows, ``units``,
        ``fleet_size``, ``scale``, ``rules``). The client keeps no copy of them.

        >>> m = AdmiralRuleset().manifest()
        >>> m["key"], m["board"]["width"], m["board"]["columns_ru"][:3], m["fleet_size"]
        ('admiral', 14, 'АБВ', 58)
        >>> {k: m["units"][1][k] for k in ("code", "ru", "name", "count", "strength")}
        {'code': 'L', 'ru': 'Л', 'name': 'Линкор', 'count': 2, 'strength': 15}
        """
        base = info_manifest(INFO)
        own = tables()
        return {**base, **own, "board": {**base["board"], **own["board"]}}

    # -- «Правила» (capability "rules_page") -------------------------------------------------------------------

    def rules_page(self) -> tuple[str, dict[str, Any]]:
        """The rules for players (``templates/rules.html``): its pictures and tables computed by the engine
        (:mod:`.rulebook`). Each unit kind has its section ``#unit-{code}``. Unit codes and column letters are the
        reader's language's (the board's own: ``pgettext("unit", …)``, ``pgettext("columns", …)``)."""
        code = {k: pgettext("unit", k.ru) for k in Kind}
        columns = pgettext("columns", _COLUMNS)
        return "rules.html", {
            "kinds": list(Kind),
            "ru": {k.code: code[k] for k in Kind},
            "names": {k.code: _(k.ru_name) for k in Kind},
            "fleet_size": FLEET_SIZE,
            "quiet_limit": QUIET_LIMIT,
            "diagrams": rulebook.diagrams(),
            "zones": rulebook.board_picture(),
            "columns_ru": tuple(columns) if len(columns) == len(COLUMNS_RU) else COLUMNS_RU,
            "scale": [
                replace(r, text=rulebook.composition_text([Kind[c] for c in r.kinds], code.__getitem__))
                for r in rulebook.scale_rows()
            ],
            "collisions": rulebook.collisions(),
        }

    # -- «Обучение» (capability "tutorial") -------------------------------------------------------------------

    def lessons(self) -> tuple[Any, ...]:
        """The lessons of :mod:`admiral.games.admiral.tutorial`, in order (their slugs carry no prefix: they were
        the house's first, and their URLs stay)."""
        return SCENARIOS

    def lesson(self, slug: str, step: int) -> Lesson:
        """Lesson ``slug`` at ``step``. :raises KeyError: for a slug of no lesson of «Адмирал»."""
        sc = scenario(slug)
        if sc is None:
            raise KeyError(slug)
        return Lesson(sc, step)

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """No room options: always ``{}`` (whatever ``raw`` holds is ignored)."""
        return {}

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        """One fleet, one variant: ``""``."""
        return ""

    def setup_problems(
        self, side: str, setup: Mapping[str, str], *, complete: bool, options: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every problem of ``setup`` for ``side`` (rules §3)."""
        return [_problem(p) for p in validate_setup(_side(side), setup, complete=complete)]

    def clean_partial(self, side: str, setup: dict[str, str]) -> dict[str, str]:
        """The largest prefix-greedy valid part of a partial setup: entries are kept one by one while the
        setup stays valid (bad cells, foreign cells, surplus units and front-row bases are dropped)."""
        kept: dict[str, str] = {}
        s = _side(side)
        for cell, kind in setup.items():
            trial = {**kept, cell: kind}
            if not validate_setup(s, trial, complete=False):
                kept = trial
        return kept

    def canonical_setup(self, setup: Mapping[str, str], options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """``setup`` (already validated) in canonical form: notation order, ASCII kind codes."""
        return {cell_name(c): k.code for c, k in normalize_setup(setup).items()}

    def draft_setup(
        self, side: str, setup: Mapping[str, str], options: Mapping[str, Any] | None = None
    ) -> dict[str, str]:
        """The draft as it was sent: a cell has one spelling in «Адмирал»'s notation (``e4``), a kind is read in
        either alphabet wherever it is used, and an entry that is no cell or kind stays in the draft, listed by
        :meth:`setup_problems` and marked for the player (rules §3); it is never refused."""
        _side(side)
        return dict(setup)

    def auto_setup(
        self,
        side: str,
        seed: int,
        partial: Mapping[str, str],
        options: Mapping[str, Any] | None = None,
        style: str = "",
        *,
        fixed: bool = False,
    ) -> dict[str, str]:
        """A complete setup from ``seed`` keeping the valid part of ``partial`` (rules §3.4, §3.6); one style.

        With ``fixed`` every unit of ``partial`` stays on its cell: nothing is dropped or moved.

        :raises RuleError: with ``fixed``: ``invalid_setup`` (``partial`` is not a valid partial setup),
            ``no_arrangement`` (the bases left cannot stand off the front row, rules §3.2)."""
        s = _side(side)
        try:
            board = auto_arrange(s, random.Random(seed), partial if fixed else self.clean_partial(side, partial),
                                 fixed=fixed)  # fmt: skip
        except IllegalAction as e:
            raise RuleError(e.code, e.reason) from None
        return {cell_name(c): k.code for c, k in board.items()}

    def new_game(self, setups: Mapping[str, Mapping[str, str]], settings: Mapping[str, Any]) -> Game:
        """A :class:`Game` from both setups. :raises RuleError: ``invalid_setup``."""
        try:
            return Game(setups["south"], setups["north"], settings)
        except IllegalAction as e:
            raise RuleError(e.code, e.reason) from None

    def parse_player_action(self, text: str) -> str:
        """Canonical notation of a move, attack, declaration or detonation.

        :raises RuleError: ``bad_notation`` for anything else (the server's own end actions included).
        """
        try:
            action = Action.parse(text)
        except IllegalAction as e:
            raise RuleError(e.code, e.reason) from None
        if not isinstance(action, self._PLAYER_ACTIONS):
            raise RuleError("bad_notation", f"{text!r} is not a move, attack, declaration or detonation")
        return str(action)

    def apply(self, game: Game, action: str) -> Applied:
        """Apply ``action`` to ``game``. :raises RuleError: with the engine's code; the game is unchanged."""
        state = game.state
        try:
            parsed = Action.parse(action)
        except IllegalAction as e:
            raise RuleError(e.code, e.reason) from None
        before_move, before_act = state.to_move, state.to_act
        try:
            game.apply(parsed)
        except IllegalAction as e:
            raise RuleError(e.code, e.reason) from None
        actor = _actor(parsed, before_act)
        turn = isinstance(parsed, Move | Attack | Detonate)
        completed = before_move.label if state.to_move is not before_move else None
        return Applied(actor, turn, completed)

    def end_action(self, kind: str, side: str | None) -> str:
        """``resign south``, ``flag north``, ``abandon south`` or ``draw``."""
        if kind == "draw":
            return str(AgreeDraw())
        cls = {"resign": Resign, "flag": FlagFall, "abandon": Abandon}[kind]
        return str(cls(_side(side)))

    def auto_reply(self, game: Game) -> str | None:
        """The strongest declaration when a battle waits for one (rules §7.1.2 [addition])."""
        if game.state.pending is None or game.state.result is not None:
            return None
        return str(strongest_declaration(game.state))

    def view(self, game: Game, audience: str) -> dict[str, Any]:
        """The engine's view (rules §11) in wire form."""
        return game.view(audience, moves=True).to_dict()

    # -- notes on enemy markers (issue 7) ---------------------------------------------------------

    #: A kind code (rules §2), unknown, weak or strong.
    NOTE_VALUES = frozenset({k.code for k in Kind} | {"?", "weak", "strong"})

    def note_values(self) -> frozenset[str]:
        """Every kind code, ``?``, ``weak`` and ``strong``."""
        return self.NOTE_VALUES

    def enemy_markers(self, game: Game, side: str) -> set[str]:
        """Cells of the closed markers in ``side``'s view (rules §11: the enemy's units)."""
        return {cell_name(c) for c in game.view(_side(side), since=game.ply).markers()}

    def follow_notes(self, game: Game, side: str, notes: dict[str, str], since: int) -> dict[str, str]:
        """Follow ``notes`` from version ``since`` through ``side``'s own view only (the one door of hidden
        information): a marker seen to step from ``src`` to ``dst`` takes its note along, a marker a battle
        report removed loses it (as does a cell any unit stepped onto: it was empty then), and only cells
        that hold an enemy marker now keep a note."""
        me = _side(side)
        v = game.view(me, since=since)
        enemy = me.opponent
        cur = dict(notes)
        if v.ply > since:
            for e in v.events:
                if e.ply < since:
                    continue
                if isinstance(e, MoveView):
                    src, dst = cell_name(e.src), cell_name(e.dst)
                    cur.pop(dst, None)  # whatever stepped there found the cell empty: a note on it was stale
                    if e.side is enemy and src in cur:
                        cur[dst] = cur.pop(src)
                elif isinstance(e, BattleReport):
                    for s in e.removed:
                        if s.side is enemy:
                            cur.pop(cell_name(s.cell), None)
        markers = {cell_name(c) for c in v.markers()}
        return {c: n for c, n in cur.items() if c in markers}

    def game_stats(self, game: Game) -> dict[str, Any]:
        """Each side's :class:`admiral.progression.GameStats` of a finished game (PROGRESSION.md §2–§5)."""
        return {side.label: stats for side, stats in game_stats(game.record).items()}

    # -- progression (PROGRESSION.md §2–§5) -------------------------------------------------------

    def credit(self, stats: GameStats, career: Mapping[str, Any], ai_level: int | None) -> Credit:
        """One seat's points (:func:`admiral.progression.points`) folded into its «Адмирал» career
        (:meth:`admiral.progression.Career.add`, ``career`` in :meth:`~admiral.progression.Career.to_dict`'s
        form); the awards that rose go to the result screen (``shown["awards"]``). A resignation is a loss.

        :raises ValueError: for a career it cannot read or an AI level outside 1…5.
        """
        gained = points(stats, opponent_factor(ai_level))
        change = Career.from_dict(career).add(stats, gained, ai_level)
        if not change.counted:
            return Credit(False, None, 0, dict(career))
        outcome = "loss" if stats.outcome is Outcome.RESIGNED else stats.outcome.value
        awards = [a.to_dict() for a in change.awards]
        return Credit(True, outcome, change.points, change.after.to_dict(), {"awards": awards})

    def career_stats(self, career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """The «Адмирал» lines of the profile (PROGRESSION.md §4): units sunk, sunk tonnage, bases destroyed,
        the best win streak and the wins over each AI level, in the current language."""
        c = Career.from_dict(career)
        tonnes = f"{c.sunk_tonnes:,}".replace(",", "\u00a0")
        lines = [
            ("units_sunk", _("Потоплено единиц"), str(c.units_sunk)),
            ("sunk_tonnes", _("Потопленный тоннаж"), _("%(tonnes)s т", tonnes=tonnes)),
            ("bases_destroyed", _("Уничтожено баз"), str(c.bases_destroyed)),
            ("best_streak", _("Лучшая серия побед"), str(c.best_streak)),
        ]
        for level, wins in c.wins_vs_ai.items():
            lines.append((f"wins_vs_ai_{level}", _("Побед над ИИ уровня %(level)s", level=level), str(wins)))
        return lines

    # -- bots (rules §12) ----------------------------------------------------------------------

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any] | None = None) -> Bot:
        """:func:`admiral.games.admiral.bots.make_bot`. :raises ValueError: for a level outside 1–5."""
        return make_bot(level, seed)

    def bot_setup(self, bot: Bot, side: str) -> dict[str, str]:
        """The bot's own setup in canonical wire form ``{cell: kind code}``."""
        return {cell_name(c): k.code for c, k in sorted(bot.setup(_side(side)).items())}

    def bot_view(self, game: Game, side: str, since: int) -> Any:
        """The engine's :class:`.rules.PlayerView` of ``side`` (the one view function, rules §11)."""
        return game.view(_side(side), since=since)

    def bot_act(self, bot: Bot, view: Any, deadline_s: float) -> str:
        """``bot.act(view, deadline_s)`` as notation."""
        return str(bot.act(view, deadline_s))

    def replay(self, game: Game) -> dict[str, Any]:
        """Both setups and, per ply, the action, the side that made it, moves, removals and the report."""
        record = game.record.to_dict()
        g = Game(game.record.setups[Side.SOUTH], game.record.setups[Side.NORTH], game.record.settings)
        plies = []
        for action in game.record.actions:
            side = _actor(action, g.state.to_act)
            ply = g.ply
            events = g.apply(action)
            moves = [[cell_name(e.src), cell_name(e.dst)] for e in events if isinstance(e, Moved)]
            reports = [e for e in events if isinstance(e, BattleReport)]
            removed = [s.to_dict() for r in reports for s in r.removed]
            plies.append(
                {
                    "ply": ply,
                    "action": str(action),
                    "side": side,
                    "moves": moves,
                    "removed": removed,
                    "report": reports[0].to_dict() if reports else None,
                }
            )
        return {"setups": record["setups"], "plies": plies, "result": self.result(game)}
