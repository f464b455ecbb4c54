"""The registry of the house's games: each game is one package under :mod:`admiral.games` that declares its facts
once (:class:`~admiral.games.protocol.GameInfo`) and implements :class:`~admiral.games.protocol.Ruleset`.

>>> list(GAMES)
['admiral', 'battleship', 'battleship_ext', 'naval']
>>> ruleset("admiral").info.name
'Адмирал'
>>> ruleset("chess")
Traceback (most recent call last):
...
admiral.games.UnknownGame: chess

A third game plugs in by adding its package and its ruleset to :data:`GAMES` (README "How a game plugs in").
"""

from __future__ import annotations

from .admiral import AdmiralRuleset
from .battleship import BattleshipRuleset
from .battleship_ext import ExtendedRuleset
from .naval import NavalRuleset
from .protocol import (
    OUTCOMES,
    SIDES,
    Applied,
    AutoReply,
    Credit,
    GameInfo,
    LessonPlan,
    LessonRun,
    Lessons,
    MarkerNotes,
    Option,
    Progression,
    RuleError,
    Ruleset,
    RulesPage,
    StartSettings,
)

__all__ = [
    "DEFAULT_GAME", "GAMES", "OUTCOMES", "SIDES", "Applied", "AutoReply", "Credit", "GameInfo", "LessonPlan",
    "LessonRun", "Lessons", "MarkerNotes", "Option", "Progression", "RuleError", "Ruleset", "RulesPage",
    "StartSettings", "UnknownGame", "progression_games", "ruleset", "tutorial_games",
]  # fmt: skip


#: Every game of the house by key, in the order the home page offers them.
GAMES: dict[str, Ruleset] = {
    r.info.key: r for r in (AdmiralRuleset(), BattleshipRuleset(), ExtendedRuleset(), NavalRuleset())
}

#: The game a request that names none means (every game stored before the registry is «Адмирал»).
DEFAULT_GAME = "admiral"


class UnknownGame(KeyError):
    """No game of the house has this key."""

    def __str__(self) -> str:
        return str(self.args[0])


def ruleset(key: str) -> Ruleset:
    """The ruleset of the game ``key``. :raises UnknownGame: for a key no game has."""
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGame(key) from None


def progression_games() -> dict[str, Ruleset]:
    """The games whose finished games count on the commanders' profiles (capability ``"progression"``: their
    rulesets are :class:`Progression`s too), by key, in the registry's order."""
    return {key: r for key, r in GAMES.items() if "progression" in r.info.capabilities and isinstance(r, Progression)}


def tutorial_games() -> dict[str, Lessons]:
    """The games that bring lessons of «Обучение» (capability ``"tutorial"``: their rulesets are :class:`Lessons`
    too), by key, in the registry's order."""
    return {key: r for key, r in GAMES.items() if "tutorial" in r.info.capabilities and isinstance(r, Lessons)}
