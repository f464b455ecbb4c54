"""What the house needs from one game: its facts (:class:`GameInfo`), a small core :class:`Ruleset` and opt-in
capabilities (:class:`MarkerNotes`, :class:`AutoReply`, :class:`Progression`, :class:`StartSettings`).

The session code never touches a game's own types. It deals in:

- **sides**: the two seat labels every two-seat game of the house uses, ``"south"`` and ``"north"`` (the seat that
  sits at the bottom of an open board; a game without a geography just has two seats by these names);
- **options**: the room options a game declares (:class:`Option`), validated by :meth:`Ruleset.options` into a
  JSON-ready dict stored with the game;
- **setups**: ``{cell: code}`` strings (a unit kind, a ship's code), checked by the game;
- **actions**: notation strings (``"e5-e6"``, ``"b5"``); the server's own end actions come from
  :meth:`Ruleset.end_action`;
- **views**: JSON-ready dicts, one per audience (``"south"``, ``"north"``, ``"spectator"``, ``"full"``), made by
  the game's one view function. A view lists the actions its seat may take now under ``"legal"``, each a structured
  value ``{"type": …, <the cells it names and what the client draws>, "notation": …}`` whose ``notation`` is what the
  client sends back (the client never parses notation).

A game handle (whatever :meth:`Ruleset.new_game` returns) is opaque; it changes only through :meth:`Ruleset.apply`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "OUTCOMES", "SIDES", "Applied", "AutoReply", "Credit", "GameInfo", "LessonPlan", "LessonReply", "LessonRun",
    "LessonStep", "Lessons", "MarkerNotes", "Option", "Progression", "RuleError", "Ruleset", "RulesPage",
    "StartSettings", "info_manifest",
]  # fmt: skip

#: The seat labels of every two-seat game of the house.
SIDES: tuple[str, str] = ("south", "north")


class RuleError(Exception):
    """Illegal input to a game's rules: ``code`` is the game's stable code (``bad_notation``, ``not_your_turn``,
    ``already_shot``…), ``reason`` a sentence a person can read (English in the engine; the session layer shows
    the catalog's text for ``code`` where it has one); ``detail``: the facts behind it as data
    (:attr:`IllegalAction.detail <admiral.games.common.IllegalAction>`), ``{}`` when there are none."""

    def __init__(self, code: str, reason: str, detail: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.detail: dict[str, Any] = dict(detail or {})


@dataclass(frozen=True)
class Applied:
    """What applying one action did, for clocks and bookkeeping.

    ``actor``: the side that acted (``None`` for an agreed draw); ``turn``: the action started a turn (so the
    turn's clock accounting applies); ``completed``: the side whose turn this action completed (which earns the
    clock's increment), else ``None``.
    """

    actor: str | None
    turn: bool
    completed: str | None


@dataclass(frozen=True)
class Option:
    """A room option a game offers when it is created.

    ``name``: the key in the options dict; ``label``: Russian label (``N_``-marked, English through the catalogs);
    ``choices``: ``(value, Russian label)`` pairs, the first one the default; a ``bool`` option has the choices
    ``((False, …), (True, …))`` or the reverse, and its ``label`` names the state that is not the default (the
    home page's checkbox: «Залп», «Попадания без названия»). ``applies``: ``{option: values}`` that must hold for
    this option to matter (the form greys it out otherwise), e.g. salvo only under the Hasbro rules.
    ``choice_applies``: ``{value: {option: values}}``, the same for one choice: that value of this option is allowed
    only while each named option holds one of its values (the form disables the choice otherwise and moves a
    selection it made invalid back to the default), e.g. 2 or 3 mines only on the larger boards. A choice not
    named here is always allowed; the rules stay the judge (``bad_options``).
    """

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    applies: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    choice_applies: Mapping[Any, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)

    @property
    def default(self) -> Any:
        """The first choice's value."""
        return self.choices[0][0]


@dataclass(frozen=True)
class GameInfo:
    """The facts of one game, declared once (the registry, the home page's form, the manifest, the pages).

    ``key``: the stable id (URL, database, wire: ``"admiral"``, ``"battleship"``); ``name``: Russian name
    (``N_``-marked); ``sides``: :data:`SIDES`; ``levels``: AI level → Russian name (``N_``-marked), empty when the
    game has no bots yet; ``options``: the room options; ``setup_styles``: auto-arrangement styles
    ``(value, Russian label)``, the first one the default; ``setup_minutes``: the default setup time (minutes,
    0 = none); ``capabilities``: the opt-in protocols this game's ruleset implements (``"notes"`` →
    :class:`MarkerNotes`, ``"auto_reply"`` → :class:`AutoReply`, ``"progression"`` → :class:`Progression`: its
    finished games are credited to the commanders from :meth:`Ruleset.game_stats`; ``"start_settings"`` →
    :class:`StartSettings`; ``"tutorial"`` → :class:`Lessons`: the game brings lessons of «Обучение»;
    ``"rules_page"`` → :class:`RulesPage`: the game brings its full rules page (at ``rules_page``);
    ``"fixed_start"``: the rules fix the start, nothing is arranged — every seat is ready with
    :meth:`Ruleset.auto_setup` from the creation and play begins once both seats are held); ``board``: the
    geometry the client draws (JSON-ready: ``{"width", "height", …}``, the game's manifest holds the rest);
    ``chance``: the rules draw at random (a first shooter, a die), so :meth:`Ruleset.new_game` gets the game's
    ``"seed"`` in its settings.

    What the pages say of the game (Russian, ``N_``-marked): ``blurb``, one line under its name in the home page's
    picker; ``brief``, the home page's short rules; ``invite``, the invite page's line (``%(room)s``: the room options
    chosen); ``level_notes``: a line per AI level; ``tutorial``: the URL of its lessons (``None``: none yet) and
    ``tutorial_note`` what they teach; ``rules_page``: the URL of its full rules page (``None``: the home page's brief
    is all; the house serves ``/rules/<key>``, and ``/rules`` for the default game); ``side_choice``: whether the
    creator chooses a side (the sides differ: who moves first, which shore); ``messages``: the text a player is shown
    for each of the rules' refusal codes (:attr:`RuleError.code`; codes every game shares have the house's text);
    ``end_reasons``: each reason code :meth:`Ruleset.result` may give (``games.result_reason``) → a short neutral phrase
    for lists such as the history of finished games (PROGRESSION.md §4: «сдача», «время вышло»; it names no side, the
    list shows whose result it is); a code missing here is shown as it is.

    ``pairing``: the time controls (names of ``admiral.service.lobby.TIME_CONTROLS``) the home page offers a
    quick-pairing button for (issue 19), the most popular ones for this game; empty: no quick pairing.
    """

    key: str
    name: str
    sides: tuple[str, str] = SIDES
    levels: Mapping[int, str] = field(default_factory=dict)
    options: tuple[Option, ...] = ()
    setup_styles: tuple[tuple[str, str], ...] = (("plain", "Обычная"),)
    setup_minutes: int = 0
    capabilities: frozenset[str] = frozenset()
    board: Mapping[str, Any] = field(default_factory=dict)
    chance: bool = False
    blurb: str = ""
    brief: str = ""
    invite: str = ""
    level_notes: Mapping[int, str] = field(default_factory=dict)
    tutorial: str | None = None
    tutorial_note: str = ""
    rules_page: str | None = None
    side_choice: bool = False
    messages: Mapping[str, str] = field(default_factory=dict)
    end_reasons: Mapping[str, str] = field(default_factory=dict)
    pairing: tuple[str, ...] = ()


def info_manifest(info: GameInfo) -> dict[str, Any]:
    """The part of a game's manifest its :class:`GameInfo` declares, JSON-ready: ``key``, ``name``, ``sides``,
    ``board``, ``levels`` (``{"1": name}``), ``options`` (``[{name, label, choices: [[value, label]], default,
    applies, choice_applies}]``: ``choice_applies`` as ``[[value, {option: [values]}]]``, a value need not be a
    string), ``setup_styles`` (``[[value, label]]``), ``setup_minutes``, ``capabilities`` (sorted).

    Texts are the Russian message ids (the browser's ``t()`` translates them from the page's catalog), so one
    manifest serves every language.

    >>> info_manifest(GameInfo("x", "Икс", board={"width": 3}))["board"]
    {'width': 3}
    """
    return {
        "key": info.key,
        "name": info.name,
        "sides": list(info.sides),
        "board": dict(info.board),
        "levels": {str(n): name for n, name in sorted(info.levels.items())},
        "options": [
            {
                "name": o.name,
                "label": o.label,
                "choices": [[v, label] for v, label in o.choices],
                "default": o.default,
                "applies": {k: list(v) for k, v in o.applies.items()},
                "choice_applies": [
                    [value, {k: list(v) for k, v in when.items()}] for value, when in o.choice_applies.items()
                ],
            }
            for o in info.options
        ],
        "setup_styles": [[v, label] for v, label in info.setup_styles],
        "setup_minutes": info.setup_minutes,
        "capabilities": sorted(info.capabilities),
    }


@runtime_checkable
class Ruleset(Protocol):
    """The core every game implements. ``game`` is the opaque handle :meth:`new_game` makes."""

    info: GameInfo

    def manifest(self) -> dict[str, Any]:
        """What a browser client draws from, JSON-ready and the same for every language and every game of this
        kind (``GET /games/{key}/manifest.json``): :func:`info_manifest` plus the game's own tables (its board's
        cell names, its pieces or fleets with their Russian names, the words of its answers…). The client keeps
        no copy of these tables."""

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The room options from ``raw`` (form or JSON values; missing ones take their defaults), as stored with
        the game. :raises RuleError: ``bad_options`` naming what is wrong."""

    # -- setup ------------------------------------------------------------------------------------------------

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        """Which saved setups fit a game with these room options: setups are saved and listed per game and
        variant (``""`` for a game whose options never change the fleet)."""

    def setup_problems(
        self, side: str, setup: Mapping[str, str], *, complete: bool, options: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Every problem of a (partial when not ``complete``) setup: ``[{code, message, cell, kind}]`` with a
        Russian ``message`` (through the catalogs); empty when it is valid."""

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
        """A complete valid setup for ``side`` from ``seed`` keeping the valid part of ``partial``; ``style`` one
        of :attr:`GameInfo.setup_styles` (``""``: the default). With ``fixed`` (a re-roll around what the player
        placed by hand: ``setup.auto``) every entry of ``partial`` stays as it is, nothing dropped or moved.

        :raises RuleError: with ``fixed``: ``invalid_setup`` (``partial`` has a problem), ``no_arrangement`` (no
            legal completion keeps it; the game's :attr:`GameInfo.messages` says why in words)."""

    def canonical_setup(self, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """A valid setup in canonical form (canonical cell names and codes, notation order)."""

    def draft_setup(self, side: str, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        """A partial setup as the seat's draft is kept (``setup.update``, a saved setup): each entry as the game
        writes it (e.g. «Морской бой»'s ``"А1"``, ``" a1 "`` → ``"a1"``), notation order. What is wrong with the
        draft as a whole (units missing, a ship being moved) is kept: :meth:`setup_problems` lists it.

        :raises RuleError: ``invalid_setup`` when an entry cannot be made one of the game's (a cell off its board,
            an unknown code, one cell sent twice); :meth:`setup_problems` says which."""

    # -- play -------------------------------------------------------------------------------------------------

    def new_game(self, setups: Mapping[str, Mapping[str, str]], settings: Mapping[str, Any]) -> Any:
        """A game from both complete setups; ``settings`` holds ``"options"`` and, for games with chance,
        ``"seed"``. :raises RuleError: ``invalid_setup``."""

    def copy(self, game: Any) -> Any:
        """An independent copy of ``game``: applying an action to it leaves ``game`` as it was."""

    def parse_player_action(self, text: str) -> str:
        """The canonical notation of an action a player may send. :raises RuleError: ``bad_notation`` otherwise
        (the server's own end actions included)."""

    def apply(self, game: Any, action: str) -> Applied:
        """Apply ``action`` (notation). :raises RuleError: the game is unchanged then."""

    def end_action(self, kind: str, side: str | None) -> str:
        """Notation of an end action: ``resign``, ``flag``, ``abandon`` (with the losing side) or ``draw``."""

    def ply(self, game: Any) -> int:
        """Actions applied so far (the game's version)."""

    def to_act(self, game: Any) -> str | None:
        """The side that must act now; ``None`` when the game is over."""

    def view(self, game: Any, audience: str) -> dict[str, Any]:
        """The wire view for ``south``/``north``/``spectator``/``full`` (the game's one view function)."""

    def result(self, game: Any) -> dict[str, Any] | None:
        """``{"winner": side | None, "reason": str}`` once over, else ``None``."""

    def record(self, game: Any) -> dict[str, Any]:
        """The game record, JSON-ready: ``{"settings", "setups": {side: {cell: code}}, "actions": [notation…]}``
        (and whatever else the game keeps, e.g. ``"format"``). :meth:`new_game` with these setups and settings,
        then :meth:`apply` of these actions, reproduces every state."""

    def record_json(self, game: Any) -> str:
        """:meth:`record` as JSON text (the export a player downloads)."""

    def replay(self, game: Any) -> dict[str, Any]:
        """Setups and per-ply deltas of a finished game (docs/protocol.md ``/replay``)."""

    def game_stats(self, game: Any) -> dict[str, Any]:
        """Per side, the statistics of a finished game that progression credits (opaque to the session)."""

    # -- bots: a bot is an opaque handle that sees only the views :meth:`bot_view` makes -------------------------

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any]) -> Any:
        """A bot of ``level`` (one of :attr:`GameInfo.levels`) drawing from ``seed``. :raises ValueError: for an
        unknown level."""

    def bot_setup(self, bot: Any, side: str) -> dict[str, str]:
        """The bot's complete setup for ``side`` (called once, before play)."""

    def bot_view(self, game: Any, side: str, since: int) -> Any:
        """What a player of ``side`` sees now, with the events at plies ≥ ``since``: an immutable value a worker
        may read while the game goes on."""

    def bot_act(self, bot: Any, view: Any, deadline_s: float) -> str:
        """The bot's action (notation) for ``view``, chosen within about ``deadline_s`` seconds."""

    def bot_catch_up(self, bot: Any, game: Any, side: str) -> int:
        """Feed a new bot its side's views along the record so far (after a restart). :returns: the ply seen."""


@runtime_checkable
class MarkerNotes(Protocol):
    """Capability ``"notes"``: a player's own notes on the enemy markers, followed through the player's view."""

    def note_values(self) -> frozenset[str]:
        """The notes a player may put on an enemy marker."""

    def enemy_markers(self, game: Any, side: str) -> set[str]:
        """Cells of the closed enemy markers ``side`` sees now."""

    def follow_notes(self, game: Any, side: str, notes: dict[str, str], since: int) -> dict[str, str]:
        """``notes`` (cells at version ``since``) moved along with their markers to now, as ``side`` saw them."""


@runtime_checkable
class AutoReply(Protocol):
    """Capability ``"auto_reply"``: a reply the side to act may delegate to the server (a defender's
    declaration), made for it when its clock runs out or it asked for it."""

    def auto_reply(self, game: Any) -> str | None:
        """The reply's notation when one is due, else ``None``."""


#: A finished game's outcome for one seat, as the house counts it (a resignation is a loss).
OUTCOMES: tuple[str, str, str] = ("win", "draw", "loss")


@dataclass(frozen=True)
class Credit:
    """What one finished game gives one seat's commander in the game's own career (:class:`Progression`).

    ``counted``: the game counts (an "aborted" game does not: no points, no statistics, nothing stored);
    ``outcome``: one of :data:`OUTCOMES` when counted, else ``None``; ``points``: earned (≥ 0), added to the
    commander's one total, which decides the rank across games; ``career``: the game's own totals of this
    commander after the game (JSON-ready, the form :meth:`Progression.credit` reads back next time; unchanged when
    not counted); ``shown``: the game's own news for the result screen (JSON-ready, e.g. ``{"awards": [...]}``),
    merged into the seat's ``game.credit``.
    """

    counted: bool
    outcome: str | None
    points: int
    career: dict[str, Any]
    shown: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.points < 0:
            raise ValueError(f"points cannot be negative: {self.points}")
        if (self.outcome in OUTCOMES) is not self.counted:
            raise ValueError(f"a counted game has an outcome of {OUTCOMES}, an aborted one none: {self.outcome!r}")


@runtime_checkable
class Progression(Protocol):
    """Capability ``"progression"``: a finished game counts on its commanders' profiles (``docs/points.md``). The
    house keeps, per commander and game, games, wins, draws, losses and points; the game keeps the rest in a
    JSON-ready ``career`` of its own form, which only it reads."""

    def credit(self, stats: Any, career: Mapping[str, Any], ai_level: int | None) -> Credit:
        """Credit one seat: ``stats`` is its side's value of :meth:`Ruleset.game_stats`, ``career`` this
        commander's career in this game (``{}`` before its first counted game), ``ai_level`` the opponent's AI
        level (``None``: a human). :raises ValueError: for a career or an AI level it cannot read."""

    def career_stats(self, career: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """The game's own lines of the profile's block for ``career``: ``(key, label, value)`` in the current
        language, e.g. ``("accuracy", "Точность", "27 %")``."""


@runtime_checkable
class StartSettings(Protocol):
    """Capability ``"start_settings"``: what each seat brings to a game (a level earned in the game's career) is
    fixed when play starts. The session merges the answer into the settings :meth:`Ruleset.new_game` gets (and the
    record keeps) and stores it with the game, so that a reload or another instance rebuilds the very same game
    even after a commander's career changed."""

    def start_settings(self, careers: Mapping[str, Mapping[str, Any] | None], ai: Mapping[str, int | None]) -> dict:
        """The settings to merge when play starts, JSON-ready (e.g. ``{"levels": {"south": 3, "north": 1}}``).

        ``careers``: side → the seat's commander's career in this game (:class:`Progression`'s form; ``{}`` before
        its first counted game; a guest's like a registered commander's), ``None`` for a seat the AI holds;
        ``ai``: side → the AI level holding the seat, ``None`` for a human. :raises ValueError: for a career it
        cannot read."""


class LessonStep(Protocol):
    """One step of a lesson as the house shows it: the coach's Russian texts (``N_``-marked, translated by the page):
    ``say`` what to do, ``hint`` the friendly refusal of a wrong try, ``explain`` what happened."""

    say: str
    hint: str
    explain: str


class LessonPlan(Protocol):
    """A lesson of «Обучение» as the house lists it: ``slug`` (its URL ``/tutorial/{slug}``, unique over every game:
    a game other than «Адмирал» prefixes its key, ``naval-moves``), ``title`` and ``summary`` (Russian,
    ``N_``-marked), ``kind`` (``"play"``, or ``"setup"`` for a lesson on the setup screen), ``steps``."""

    slug: str
    title: str
    summary: str
    kind: str
    steps: tuple[LessonStep, ...]


class LessonReply(Protocol):
    """The answer to one try: ``accepted`` (else nothing changed); ``frames``: the player's views after its action and
    after each scripted reply, to be shown in turn (wire form); ``refusal``: the rules' refusal code when the engine
    refused the try (its text is the game's :attr:`GameInfo.messages`), ``None`` when it was legal but not the step's
    or the game words no reason."""

    accepted: bool
    frames: tuple[dict[str, Any], ...]
    refusal: str | None


class LessonRun(Protocol):
    """A lesson played up to ``step`` by the game's real engine (rebuilt from the step number at every request: the
    steps are fixed). ``done``: every step made."""

    step: int

    @property
    def done(self) -> bool: ...

    def snapshot(self) -> dict[str, Any]:
        """The lesson now, as the player may see it, JSON-ready: at least ``{"slug", "kind", "step", "steps", "done",
        "view", "spot"}`` (``view``: the player's view from the game's one view function, ``None`` in a setup
        lesson; ``spot``: the cells or points the step is about); the rest is the game's client's own (the setup
        lesson's ``setup``, «Военно-морская игра»'s ``tries``), passed through as it is."""

    def attempt(
        self, *, action: str | None = None, op: str | None = None, setup: Mapping[str, str] | None = None
    ) -> LessonReply:
        """Try the player's ``action`` (notation), or a setup change (``op`` with the ``setup`` draft). Anything but
        what the step expects is refused and changes nothing."""


@runtime_checkable
class Lessons(Protocol):
    """Capability ``"tutorial"``: the game's lessons of «Обучение» (``/tutorial``), played on its real engine against a
    scripted opponent. The house lists them under the game's name, keeps each commander's progress per slug and
    serves each lesson's page with the game's manifest and its script ``static/js/games/<key>/tutorial.js``."""

    def lessons(self) -> tuple[LessonPlan, ...]:
        """Every lesson of the game, in order."""

    def lesson(self, slug: str, step: int) -> LessonRun:
        """Lesson ``slug`` played up to ``step`` (0 ≤ step ≤ its steps). :raises KeyError: for a slug it has not."""


@runtime_checkable
class RulesPage(Protocol):
    """Capability ``"rules_page"``: the game's full rules page for players, served by the house at ``/rules/<key>``
    (or at the game's ``GameInfo.rules_page`` where that differs: the default game's ``/rules``, where ``/rules/<key>``
    sends) from a template of ``web/templates``. The game computes what the page
    shows (its diagrams and tables from the engine); the house adds the site's facts (``grace_s``: seconds a seat may
    be away before the other may claim the game; ``ai_levels``: :attr:`GameInfo.levels`) and renders it."""

    def rules_page(self) -> tuple[str, dict[str, Any]]:
        """``(template, context)``: the template's file name and its variables, texts already in the request's
        language (``_``/``pgettext`` of :mod:`admiral.i18n`)."""
