"""A seat's notes on enemy markers (the :class:`~admiral.games.MarkerNotes` capability)."""

from __future__ import annotations

from admiral.games import MarkerNotes
from admiral.i18n import _

from ..errors import ServiceError
from .base import SessionBase
from .live import (
    LiveGame,
)

_CAPABLE: dict[type, bool] = {}


def _notes_capable(rules: object) -> bool:
    """Whether ``rules`` has :class:`~admiral.games.MarkerNotes`, answered once per ruleset class (a runtime
    protocol's ``isinstance`` inspects every member each time, and every snapshot asks)."""
    capable = _CAPABLE.get(type(rules))
    if capable is None:
        capable = _CAPABLE[type(rules)] = isinstance(rules, MarkerNotes)
    return capable


class NotesMixin(SessionBase):
    """A seat's notes on enemy markers (a part of
    :class:`~admiral.service.session.GameService`)."""

    def notes_of(self, g: LiveGame, side: str | None) -> dict[str, str] | None:
        """The seat's own notes on enemy markers, at the cells the markers hold now (``None`` for a spectator
        and outside play). Read from the database once per seat and kept in memory, followed along the
        moves the seat saw; a failed read shows no notes rather than failing the snapshot."""
        if side is None or g.status != "play" or g.game is None or not _notes_capable(g.rules):
            return None
        seat = g.seats[side]
        if seat.notes is None:
            try:
                seat.notes = self.store.load_notes(g.id, side)
            except Exception:
                g.log.warning("reading notes failed side=%s", side, exc_info=True)
                return {}
        since, notes = seat.notes
        now = g.rules.ply(g.game)
        if since != now:
            notes = g.rules.follow_notes(g.game, side, notes, since) if notes else {}
            seat.notes = (now, notes)
        return dict(notes)

    async def ensure_notes(self, g: LiveGame, side: str | None) -> None:
        """Read the seat's notes from the database in a worker thread if this copy holds none yet (a socket's first
        snapshot, a copy re-read since), so that :meth:`notes_of` never reads them on the event loop (issue 23: the
        first read of a seat's notes blocked every game's sockets for its round trip). A failed read is left to
        :meth:`notes_of`, which shows no notes then."""
        if side is None or g.status != "play" or g.game is None or not _notes_capable(g.rules):
            return
        seat = g.seats[side]
        if seat.notes is not None:
            return
        try:
            loaded = await self._db(self.store.load_notes, g.id, side)
        except Exception:
            return
        if seat.notes is None and g.seats.get(side) is seat:  # neither written nor re-read meanwhile
            seat.notes = loaded

    #: How many notes-only revisions a live game remembers (a socket further behind gets a snapshot anyway).
    NOTES_BUMPS_KEPT = 64

    def _notes_bump(self, g: LiveGame, revision: int) -> None:
        """Remember that ``revision`` of ``g`` was made by a notes write alone (it changed nothing else)."""
        g.notes_bumps.add(revision)
        if len(g.notes_bumps) > self.NOTES_BUMPS_KEPT:
            g.notes_bumps.discard(min(g.notes_bumps))

    def shows_current(self, g: LiveGame, shown: int | None) -> bool:
        """Whether a socket that last showed revision ``shown`` of ``g`` shows what the copy holds now: the same
        revision, or only newer ones made by notes writes (a seat's private notes: its opponent's sockets must not
        answer them with a snapshot, and its own got one from the write's event)."""
        known = self.store.known.get(g.id)
        if shown is None or known is None or shown > known:
            return shown == known
        return all(r in g.notes_bumps for r in range(shown + 1, known + 1))

    def notes_written(self, g: LiveGame, message: dict) -> None:
        """Take in a ``notes`` event (``{"type": "notes", "side", "revision"}``): a seat's notes were rewritten, and
        that write alone made ``revision``. The revision is remembered as notes-only (:meth:`shows_current`); a copy
        standing at the revision just before it (another instance wrote) moves to it without re-reading the game
        and forgets the seat's cached notes (read again for its next snapshot); a copy further behind is left to
        its next catch-up, which re-reads them with the rest. Idempotent: each socket of the game passes every
        event here. (Left: a tick on another instance that reads the new revision before the event arrives
        re-reads the game and answers it with a snapshot — a window of the event's delivery, milliseconds.)"""
        revision, side = message.get("revision"), message.get("side")
        if not isinstance(revision, int) or side not in g.seats:
            return
        self._notes_bump(g, revision)
        if self.store.known.get(g.id) == revision - 1:
            self.store.known[g.id] = revision
            g.seats[side].notes = None

    async def set_note(self, g: LiveGame, side: str, ply: int, cell: str, note: str | None) -> None:
        """Put ``note`` on the enemy marker on ``cell`` (``None`` or ``""`` removes it), as seen at version ``ply``.

        A ``ply`` older than the game's version is fine: the cell is followed from then to now as the seat saw
        the markers move (a player who reads a battle report while the opponent moves on still notes the
        marker the report showed).

        :raises ServiceError: ``game_over``, ``not_started``, ``stale_ply`` (a version not reached yet),
            ``not_a_marker`` (no enemy marker there now, or it was destroyed since ``ply``), ``bad_note`` (not
            a kind, ``?``, ``weak`` or ``strong``), ``unavailable`` (the database refused the write). Nothing
            changes then.
        """
        note = note or None
        if not _notes_capable(g.rules):
            raise ServiceError("not_a_marker", _("В этой игре заметок на кораблях противника нет."))
        if note is not None and note not in g.rules.note_values():
            raise ServiceError("bad_note", _("Такой заметки нет: тип корабля, «?», «слабый» или «сильный»."))
        await self.ensure_notes(g, side)
        async with self._locked(g):
            self._check_playing(g)
            now = g.rules.ply(g.game)
            if ply > now:
                raise ServiceError("stale_ply", _("Такой позиции ещё не было: заметка не сохранена."), {"ply": now})
            if ply < now:  # the marker as the player saw it then, wherever it went since
                cell = next(iter(g.rules.follow_notes(g.game, side, {cell: "?"}, ply)), "")
            if cell not in g.rules.enemy_markers(g.game, side):
                raise ServiceError("not_a_marker", _("Заметку можно поставить только на корабль противника."))
            notes = dict(self.notes_of(g, side) or {})
            if note is None:
                notes.pop(cell, None)
            else:
                notes[cell] = note
            # the write's revision is the next one (the game is held and its copy current): remembered before the
            # write, since a socket's tick may read the store's revision as soon as the write made it
            before = self.store.known.get(g.id)
            expected = None if before is None else before + 1
            if expected is not None:
                self._notes_bump(g, expected)
            try:
                await self._db(self.store.replace_notes, g.id, side, now, notes)
            except Exception:
                g.notes_bumps.discard(expected)
                g.log.exception("notes write failed side=%s", side)
                raise ServiceError("unavailable", _("Заметку не удалось сохранить. Попробуйте ещё раз.")) from None
            if self.store.known.get(g.id) != expected:
                g.notes_bumps.discard(expected)
            g.seats[side].notes = (now, notes)
        # Only this seat's sockets answer with a snapshot: the opponent must not even learn that notes changed.
        await self.bus.publish(f"game:{g.id}", {"type": "notes", "side": side, "revision": self.store.known.get(g.id)})
