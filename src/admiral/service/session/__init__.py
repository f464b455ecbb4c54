"""The game session: create, invite, set up, play, end; clocks, timers, presence and bots of every game of the
house (it knows a game only through the registry and :class:`~admiral.games.Ruleset`).

One move, end to end (DESIGN.md): a message → :meth:`GameService.handle` → the game's lock → the op's checks →
the ruleset applies the action to a *copy* of the game (with its clock, turns and draw offer) → the action rows
are appended (unique ``(game_id, ply)``) and the game row updated in one transaction → only then is the copy
swapped in → ``{"type": "changed", "version"}`` is published on ``game:{id}`` → every socket of the game builds
ITS audience's snapshot (:mod:`admiral.service.snapshot`). A refused action or a failed write leaves the live
game exactly as it was: nothing to undo or replay, and nobody ever sees a move that is not stored. Changes that
are not actions (a draft, a draw offer, an abort) follow the same order: store, then set in memory; a step whose
second write failed (a join, the start of play) is finished by the sweeper.

Every mutation of a game happens under its lock, so actions of one game run one at a time; games do
not wait for each other. A game in progress is cached in memory (:class:`LiveGame`) and rebuilt after a
restart by replaying its action rows. Clocks (rules §13) are :class:`GameClock` values checkpointed to
the database with every action and by the sweeper every ``sweep_interval_s`` seconds.

Start-up stays light however many games are stored: only games that need a timer (a clock in play, a
setup deadline) are loaded at start; any other game is loaded on first access (:meth:`GameService.get`).
Invites nobody accepted expire after ``waiting_ttl_s`` (one bulk ``UPDATE`` by the sweeper).

Games against the AI (rules §12): the bot's seat is held by the pseudo browser ``bot:<level>`` (never a
real browser's hash, which is 64 hex digits). The bot sets up at once. Whenever the bot's side must act,
a bot turn runs: under the lock it takes the engine's view of its side (the one view function — it never
gets the true state), thinks in a worker process at a lower OS priority (``bot_workers``, :mod:`.botpool`), so
the event loop and other games stay responsive however many bots think, then commits its action like a
player's, under the lock, if the game is still at that ply.
Its clock runs while it thinks, as a human's does. After a restart a bot's memory is rebuilt by
showing it its views again along the record (:meth:`Ruleset.bot_catch_up`).

The session is small modules with one job each, composed into :class:`GameService`: :mod:`.play` (the
socket messages and the action path), :mod:`.setup`, :mod:`.finish` (ends, credit, rematch), :mod:`.invites`,
:mod:`.challenges` (open challenges, quick pairing), :mod:`.presence`, :mod:`.show` (what a snapshot holds),
:mod:`.notes`, :mod:`.chat`, :mod:`.timers` (and the sweeper),
:mod:`.bots` (the bots runner), :mod:`.cache` (the instance cache and catch-up) over :mod:`.base` (locks,
database calls, publishing); :mod:`admiral.service.snapshot` decides what each audience sees.
"""

from __future__ import annotations

from .base import SessionBase
from .bots import BotsMixin
from .cache import CacheMixin
from .challenges import ChallengeMixin
from .chat import ChatMixin
from .finish import FinishMixin
from .invites import InviteMixin
from .live import LiveGame, Seat, ServiceOptions
from .notes import NotesMixin
from .play import PlayMixin
from .presence import PresenceMixin
from .setup import SetupMixin
from .show import ShowMixin
from .timers import TimerMixin

__all__ = ["GameService", "LiveGame", "Seat", "ServiceOptions"]


class GameService(
    PlayMixin,
    SetupMixin,
    FinishMixin,
    NotesMixin,
    InviteMixin,
    ChallengeMixin,
    PresenceMixin,
    ShowMixin,
    ChatMixin,
    BotsMixin,
    TimerMixin,
    CacheMixin,
    SessionBase,
):
    """Friend games: create, join, set up, play, end; clocks and timers; presence. See the module docstring.

    ``store``: the repository; ``bus``: where "game changed" is published; ``rulesets``: the games of the house
    by key (:data:`admiral.games.GAMES`); each game is played by the ruleset of its ``games.game``.
    Call :meth:`start` inside the running event loop before use and :meth:`stop` at shutdown."""
