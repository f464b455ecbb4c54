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

import gc
import itertools
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:  # the live game's type, without an import cycle at run time
    from .session import LiveGame

__all__ = [
    "EncodedView", "HeldView", "audience", "bot_view", "encoded_view", "message", "seat_private", "setup_state", "view",
]  # fmt: skip


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


@dataclass(frozen=True, slots=True)
class EncodedView:
    """One audience's view of one version of a game, encoded once (:func:`encoded_view`).

    ``key``: ``(game serial, audience, version, views epoch)``. ``whole``: the view's JSON, and ``fragment`` the same
    bytes ready to splice into a message. ``parts``: for a view that is a dict, each top-level key → ``(start, end,
    is_list, mark)``: where its value's JSON lies in ``whole``, whether it is a list, and the hash of that JSON (of a
    list's without its closing bracket: the prefix a longer list that only grew starts with). A socket that takes
    deltas keeps the ``parts`` of the view it was sent last (:class:`HeldView`) and gets the next view as a change."""

    key: tuple[int, str, int, int]
    fragment: orjson.Fragment
    whole: bytes
    parts: dict[str, tuple[int, int, bool, int]]


class HeldView:
    """The view a socket that takes deltas holds: the last one it was sent (docs/protocol.md ``?delta=1``). One per
    such socket; :func:`message` reads it and moves it on. ``game``: ``(serial, audience)``; ``version``: the game's
    version then; ``parts``: that view's :attr:`EncodedView.parts` (shared with the audience's other sockets, not
    copied: a socket keeps a reference, no bytes)."""

    __slots__ = ("game", "parts", "version")

    def __init__(self) -> None:
        self.game: tuple[int, str] | None = None
        self.version = -1
        self.parts: dict[str, tuple[int, int, bool, int]] = {}


_encoded: OrderedDict[tuple[int, str], EncodedView] = OrderedDict()
_serials = itertools.count()


def encoded_view(g: LiveGame, side: str | None) -> EncodedView | None:
    """:func:`view` encoded (:class:`EncodedView`: its JSON ready to splice into a message), or ``None`` before play.

    Built and encoded once per version and audience: every socket of an audience gets the same bytes while they
    are among the :data:`VIEW_CACHE_ENTRIES` most recently used of the process. An entry holds only bytes (a
    view's dicts take several times their JSON's memory) and is valid for the game's version and
    ``views_epoch`` (:meth:`LiveGame.drop_views` moves it on when the same version shows otherwise)."""
    if g.game is None:
        return None
    who = audience(g, side)
    key = (g.serial, who)
    now = (g.serial, who, g.rules.ply(g.game), g.views_epoch)
    found = _encoded.get(key)
    if found is not None and found.key == now:
        _encoded.move_to_end(key)
        return found
    with _unswept():
        entry = _encode(now, view(g, side))
    _encoded[key] = entry
    _encoded.move_to_end(key)
    while len(_encoded) > VIEW_CACHE_ENTRIES:
        _encoded.popitem(last=False)
    return entry


@contextmanager
def _unswept() -> Iterator[None]:
    """No garbage collection inside: a view's objects (hundreds for a seat to act: its legal actions, each shot)
    live only until it is encoded, and reference counting frees them all. A collection in the middle would only
    move them, alive, into an older generation, whose growth sets off full collections (issue 23: the extended
    «Морской бой» made 352 of them in three minutes at 2,000 games)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _encode(key: tuple[int, str, int, int], found: Any) -> EncodedView:
    """``found`` (a view in wire form) encoded as the :class:`EncodedView` of ``key``."""
    if not isinstance(found, dict):
        # orjson's output keeps its growth buffer (~4x the JSON): the cached copy holds only the bytes themselves.
        whole = bytes(memoryview(orjson.dumps(found)))
        return EncodedView(key, orjson.Fragment(whole), whole, {})
    # Each top-level value encoded on its own: the whole view is their join (the very bytes orjson gives for the
    # dict), and a delta compares them key by key. Only the joined bytes are kept, and a hash of each part.
    pieces, parts, at = [b"{"], {}, 1
    for k, v in found.items():
        name = orjson.dumps(k) + b":"
        if at > 1:
            name = b"," + name
        value = orjson.dumps(v)
        is_list = value[:1] == b"["
        pieces += (name, value)
        at += len(name)
        parts[k] = (at, at + len(value), is_list, hash(value[:-1] if is_list else value))
        at += len(value)
    pieces.append(b"}")
    whole = b"".join(pieces)
    return EncodedView(key, orjson.Fragment(whole), whole, parts)


def _delta(entry: EncodedView, held: HeldView) -> orjson.Fragment | None:
    """``entry``'s view as a change of the view ``held`` (JSON ``{"base": held's version, "set": {key: value},
    "append": {key: [items]}}``: the top-level keys whose value changed, and of the lists that only grew, the items
    added at their end); ``None`` when it cannot say it: another game or audience, another set of keys, a view that
    is not a dict. Equal lengths and hashes count as equal JSON (Python's keyed hash of bytes: a collision between
    two views a game can show is not a practical concern)."""
    if held.game != entry.key[:2] or not entry.parts or held.parts.keys() != entry.parts.keys():
        return None
    whole = entry.whole
    changed: list[bytes] = []
    grown: list[bytes] = []
    for k, (start, end, is_list, mark) in entry.parts.items():
        was_start, was_end, was_list, was_mark = held.parts[k]
        was_size = was_end - was_start
        if end - start == was_size and mark == was_mark and is_list == was_list:
            continue
        name = orjson.dumps(k) + b":"
        # A list that only grew: the held JSON without its closing bracket starts the new one, and the new one goes
        # on with a comma (or the held list was empty). Its tail is then the new items.
        if is_list and was_list and end - start > was_size:
            cut = start + was_size - 1
            if hash(whole[start:cut]) == was_mark:
                if was_size == 2:  # the held list was empty
                    grown.append(name + whole[start:end])
                    continue
                if whole[cut : cut + 1] == b",":
                    grown.append(name + b"[" + whole[cut + 1 : end])
                    continue
        changed.append(name + whole[start:end])
    body = b'{"base":%d,"set":{%s},"append":{%s}}' % (held.version, b",".join(changed), b",".join(grown))
    return orjson.Fragment(body)


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
    held: HeldView | None = None,
) -> dict[str, Any]:
    """The ``snapshot`` message for ``side`` (docs/protocol.md): the ``public`` facts of the game (status, version,
    settings, players, clocks, offers, result), the seat's private ones, the audience's view and, before play, the
    seat's own setup. ``invite_url``, ``notes`` and ``chat`` (the seats' chat, issue 19) are the seat's (dropped for a
    spectator: a spectator never receives the chat). ``wire``: the view as the cached encoded fragment
    (:func:`encoded_view`, for ``orjson.dumps`` on its way to a socket) instead of a fresh dict. ``held`` (with
    ``wire``): what a socket that takes deltas holds; when the view can be said as a change of it, ``view`` is
    ``None`` and ``view_delta`` says the change (:func:`_delta`; docs/protocol.md). ``held`` then holds this view."""
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
    found: Any = view(g, side) if not wire else None
    delta = None
    if wire:
        entry = encoded_view(g, side)
        if entry is not None:
            if held is not None:
                delta = _delta(entry, held)
                held.game, held.version, held.parts = entry.key[:2], entry.key[2], entry.parts
            if delta is None:
                found = entry.fragment
        elif held is not None:
            held.game, held.version, held.parts = None, -1, {}
    out = {
        "type": "snapshot",
        "game": game,
        "view": found,
        "setup": setup,
        "notes": notes if side is not None else None,
        "chat": chat if side is not None else None,
    }
    if delta is not None:
        out["view_delta"] = delta
    return out
