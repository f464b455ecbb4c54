"""The one place that decides what each audience of a game receives (issue 17): a seat, a spectator or a bot.

Hidden information reaches nobody but through a game's own view function (:meth:`Ruleset.view`,
:meth:`Ruleset.bot_view`); this module decides which view an audience gets and which per-seat data (the seat's
setup draft and its problems, its notes on enemy markers, its preferences, its credit, its invite link) go to
whom. The session code builds the public facts (players, clocks, offers) and calls :func:`message`; nothing else
in the server picks an audience.

Audiences: ``"south"`` / ``"north"`` (a seat), ``None`` (a spectator; ``"spectator"`` to the rules), and after the
end ``"full"`` for everyone (both setups open, rules §11.6, BATTLESHIP.md D12).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:  # the live game's type, without an import cycle at run time
    from .session import LiveGame

__all__ = ["audience", "bot_view", "encoded_view", "message", "seat_private", "setup_state", "view"]


def audience(g: LiveGame, side: str | None) -> str:
    """The view a seat (``side``) or a spectator (``None``) gets: everyone's is ``"full"`` once the game is over."""
    if g.status == "over":
        return "full"
    return side or "spectator"


def view(g: LiveGame, side: str | None) -> dict[str, Any] | None:
    """The wire view for ``side`` (``None``: a spectator) at the game's version, or ``None`` before play: the
    game's own view function for the audience. A game with fair chance that was aborted after its start shows its
    seed (``chance.seed``, the ruleset's optional ``revealed_chance``), as every other end does (BATTLESHIP.md
    D13)."""
    if g.game is None:
        return None
    who = audience(g, side)
    found = g.rules.view(g.game, who)
    reveal = getattr(g.rules, "revealed_chance", None)
    if g.status == "aborted" and reveal is not None and isinstance(found.get("chance"), dict):
        # an abort ends the game outside its rules: the seed is shown at every end all the same (D13)
        found = {**found, "chance": reveal(g.game)}
    return found


#: How many encoded views the process keeps, across all games (:func:`encoded_view`). A view is shared by the
#: sockets of one audience of one version, which ask for it within moments of each other; a bounded cache serves
#: them and forgets idle games' views (their bytes were ~13 KiB of every open game's memory: issue 23).
VIEW_CACHE_ENTRIES = 256
_encoded: OrderedDict[tuple[int, str], tuple[int, int, orjson.Fragment]] = OrderedDict()
_serials = itertools.count()


def encoded_view(g: LiveGame, side: str | None) -> orjson.Fragment | None:
    """:func:`view` as JSON ready to splice into a message (``orjson.Fragment``), or ``None`` before play.

    Built and encoded once per version and audience: every socket of an audience gets the same bytes while they
    are among the :data:`VIEW_CACHE_ENTRIES` most recently used of the process. An entry holds only the bytes (a
    view's dicts take several times their JSON's memory) and is valid for the game's version and
    ``views_epoch`` (:meth:`LiveGame.drop_views` moves it on when the same version shows otherwise)."""
    if g.game is None:
        return None
    who = audience(g, side)
    version = g.rules.ply(g.game)
    key = (g.serial, who)
    found = _encoded.get(key)
    if found is not None and found[0] == version and found[1] == g.views_epoch:
        _encoded.move_to_end(key)
        return found[2]
    # orjson's output keeps its growth buffer (~4x the JSON): the cached copy holds only the bytes themselves.
    fragment = orjson.Fragment(bytes(memoryview(orjson.dumps(view(g, side)))))
    _encoded[key] = (version, g.views_epoch, fragment)
    _encoded.move_to_end(key)
    while len(_encoded) > VIEW_CACHE_ENTRIES:
        _encoded.popitem(last=False)
    return fragment


def next_serial() -> int:
    """A number no other live game of this process has had (the key of its views in :func:`encoded_view`)."""
    return next(_serials)


def bot_view(g: LiveGame, side: str, since: int) -> Any:
    """What the bot holding ``side`` may read: its side's view with the events from ply ``since`` on (the rules'
    own value, immutable, safe to hand to a worker)."""
    return g.rules.bot_view(g.game, side, since)


def setup_state(g: LiveGame, side: str) -> dict[str, Any]:
    """A seat's own setup: ``{"draft", "problems", "ready"}`` — never sent to anyone but that seat."""
    seat = g.seats[side]
    problems = g.rules.setup_problems(side, seat.draft, complete=seat.ready, options=g.settings.options)
    return {"draft": seat.draft, "problems": problems, "ready": seat.ready}


def seat_private(g: LiveGame, side: str | None) -> dict[str, Any]:
    """The per-seat fields of a snapshot's ``game`` for ``side``: its credit and its own preference; a spectator's
    are ``None``."""
    return {
        "credit": g.credited.get(side) if side is not None else None,
        "auto_declare": g.seats[side].auto_declare if side is not None else None,
    }


def message(
    g: LiveGame,
    side: str | None,
    public: dict[str, Any],
    *,
    invite_url: str | None,
    notes: dict[str, str] | None,
    chat: dict[str, Any] | None = None,
    wire: bool = False,
) -> dict[str, Any]:
    """The ``snapshot`` message for ``side`` (docs/protocol.md): the ``public`` facts of the game (status, version,
    settings, players, clocks, offers, result), the seat's private ones, the audience's view and, before play, the
    seat's own setup. ``invite_url``, ``notes`` and ``chat`` (the seats' chat, issue 19) are the seat's (dropped for a
    spectator: a spectator never receives the chat). ``wire``: the view as the cached encoded fragment
    (:func:`encoded_view`, for ``orjson.dumps`` on its way to a socket) instead of a fresh dict."""
    private = seat_private(g, side)
    players = {
        s: {**p, "auto_declare": private["auto_declare"] if s == side else None} for s, p in public["players"].items()
    }
    game = {
        **public,
        "seat": side,
        "players": players,
        "invite_url": invite_url if side is not None else None,
        "credit": private["credit"],
    }
    setup = None
    if g.game is None and side is not None and g.status in ("waiting", "setup"):
        setup = setup_state(g, side)
    return {
        "type": "snapshot",
        "game": game,
        "view": encoded_view(g, side) if wire else view(g, side),
        "setup": setup,
        "notes": notes if side is not None else None,
        "chat": chat if side is not None else None,
    }
