"""What each audience may know (rules A6, B2, D4, D12): the one door hidden information passes through.

:func:`view` turns the true state into a :class:`PlayerView` for ``south``, ``north``, a ``spectator`` or, once
the game is over, ``full``. Everything sent to a browser or given to a bot is built here; ``PlayerView.to_dict()``
is the wire form (JSON-ready, deterministic: the same view gives the same bytes).

Every shot and its answer are public: the shooter hears the answer, the target sees the shot, a spectator sees
both. What an answer tells about the ship depends on the rules (:class:`~.fleet.Rules`):

- classic (A5, A6): «ранен» tells nothing about the ship, «убит» shows the sunk ship's cells (so its size) and,
  by the no-touch rule, the ring around it as known empty (``marks``: a record aid, not shots; still legal);
- Hasbro, named (B2): every hit and every sinking names the ship (its code); a sinking shows its cells (the hits
  named so already);
- Hasbro, hits not named (D4): «попал» / «потоплен» only: no code, size, cells or index of the ship anywhere in
  what the opponent or a spectator receives; only how many ships are sunk.

A player sees its own fleet (with the hits on it); the opponent's fleet only after the game (D12), as everyone
does then. A spectator sees no ship before the end: only the shots and what their answers told.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import Cell, cell_name
from .errors import IllegalAction
from .fleet import Rules, options_of
from .state import Answer, GameState, Result, Shot, ShotFired, Side

__all__ = [
    "AUDIENCES", "PlayerView", "ShipView", "ShotView", "SideView", "fleet_view", "shot_told", "shot_view", "view",
]  # fmt: skip

#: Who a view is for.
AUDIENCES = ("south", "north", "spectator", "full")


@dataclass(frozen=True, slots=True)
class ShotView:
    """A shot as an audience sees it: ``ply``, ``cell``, ``answer``; ``ship``: the code the answer told (``None``
    when it told none); ``sunk_cells``: the sunk ship's cells when the answer showed them, else ``()``."""

    ply: int
    cell: Cell
    answer: Answer
    ship: str | None
    sunk_cells: tuple[Cell, ...]

    def to_dict(self) -> dict:
        """``{"ply", "cell", "answer", "ship", "sunk_cells"}``."""
        return {
            "ply": self.ply, "cell": cell_name(self.cell), "answer": self.answer.value, "ship": self.ship,
            "sunk_cells": [cell_name(c) for c in self.sunk_cells],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class ShipView:
    """An open ship: ``code``, ``cells`` (reading order), the ``hits`` on it, whether it is ``sunk``."""

    code: str
    cells: tuple[Cell, ...]
    hits: tuple[Cell, ...]
    sunk: bool

    def to_dict(self) -> dict:
        """``{"code", "cells", "hits", "sunk"}``."""
        return {
            "code": self.code, "cells": [cell_name(c) for c in self.cells], "hits": [cell_name(c) for c in self.hits],
            "sunk": self.sunk,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class SideView:
    """One side as an audience sees it.

    - ``ships``: its fleet (fleet order) when open to the audience (its own, or anyone's after the game), else
      ``None``;
    - ``afloat`` / ``sunk_count``: its ships afloat and sunk (public: every sinking is answered as such);
    - ``sunk``: the codes of its sunk ships (fleet order) as far as the answers told them (classic: sizes;
      Hasbro named: ships), ``None`` when they did not (hits not named, D4);
    - ``shots``: the shots this side fired at the other's grid, ply order;
    - ``marks``: cells of the other's grid known empty from this side's answers (A6), not shot yet.
    """

    side: Side
    ships: tuple[ShipView, ...] | None
    afloat: int
    sunk_count: int
    sunk: tuple[str, ...] | None
    shots: tuple[ShotView, ...]
    marks: tuple[Cell, ...]

    def to_dict(self) -> dict:
        """``{"ships", "afloat", "sunk_count", "sunk", "shots", "marks"}``."""
        return {
            "ships": None if self.ships is None else [s.to_dict() for s in self.ships],
            "afloat": self.afloat,
            "sunk_count": self.sunk_count,
            "sunk": None if self.sunk is None else list(self.sunk),
            "shots": [s.to_dict() for s in self.shots],
            "marks": [cell_name(c) for c in self.marks],
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one audience may know at one moment (an immutable value a bot's worker may keep).

    ``audience``: ``south``/``north``/``spectator``/``full``; ``rules``; ``ply``; ``first``: the side that shot
    first; ``to_act``: the side to shoot (``None`` when over); ``shots_left``: shots it has left in this turn
    (classic: 1, renewed by a hit; salvo: what is left of it); ``turn_shots``: shots it fired in this turn so far;
    ``sides``: the two :class:`SideView` (South's, North's); ``legal``: the shots the audience may fire now (empty
    unless it is a player to act); ``result``; ``since``: the first ply :attr:`news` covers.
    """

    audience: str
    rules: Rules
    ply: int
    first: Side
    to_act: Side | None
    shots_left: int
    turn_shots: int
    sides: tuple[SideView, SideView]
    legal: tuple[Shot, ...]
    result: Result | None
    since: int

    @property
    def side(self) -> Side | None:
        """The viewer's side; ``None`` for a spectator or the full view."""
        return Side.parse(self.audience) if self.audience in ("south", "north") else None

    @property
    def news(self) -> tuple[tuple[Side, ShotView], ...]:
        """The shots at plies ≥ :attr:`since`, ply order, each with the side that fired it."""
        fired = [(sv.side, s) for sv in self.sides for s in sv.shots if s.ply >= self.since]
        return tuple(sorted(fired, key=lambda x: x[1].ply))

    def to_dict(self) -> dict:
        """The wire form (module docstring); deterministic."""
        return {
            "game": "battleship",
            "audience": self.audience,
            "options": options_of(self.rules),
            "board": self.rules.board.to_dict(),
            "fleet": [{"code": s.code, "size": s.size, "count": s.count} for s in self.rules.fleet],
            "ply": self.ply,
            "first": self.first.label,
            "to_act": None if self.to_act is None else self.to_act.label,
            "shots_left": self.shots_left,
            "turn_shots": self.turn_shots,
            "sides": {sv.side.label: sv.to_dict() for sv in self.sides},
            "legal": [{"type": "shot", "cell": str(a), "notation": str(a)} for a in self.legal],
            "result": None if self.result is None else self.result.to_dict(),
        }


def shot_told(rules: Rules, shot: ShotFired, truth: bool = False) -> tuple[str | None, tuple[Cell, ...]]:
    """What ``shot``'s answer told everyone about the ship (``truth``: as the full view shows it, everything):
    ``(code or None, sunk cells or ())`` (A5, A6, B2, D4)."""
    told = truth or (rules.names_sinkings if shot.answer is Answer.SUNK else rules.names_hits)
    return (shot.code if told else None), (shot.sunk if truth or rules.shows_sunk_cells else ())


def shot_view(rules: Rules, shot: ShotFired, truth: bool = False) -> ShotView:
    """``shot`` as its answer told it to everyone (``truth``: as the full view shows it, everything)."""
    return ShotView(shot.ply, shot.cell, shot.answer, *shot_told(rules, shot, truth))


def fleet_view(
    state: GameState, side: Side, open_fleet: bool
) -> tuple[tuple[ShipView, ...] | None, int, int, tuple[str, ...] | None]:
    """``side``'s fleet as :class:`SideView` shows it: ``(ships, afloat, sunk_count, sunk)`` (its fields), the
    ships only when ``open_fleet`` (D12)."""
    fleet = state.fleets[side]
    sunk_flags = [state.ship_sunk(side, i) for i in range(len(fleet))]
    hit = state.shots[side.opponent]
    ships = None
    if open_fleet:
        ships = tuple(
            ShipView(s.code, s.cells, tuple(c for c in s.cells if c in hit), sunk_flags[i]) for i, s in enumerate(fleet)
        )
    known_sunk = open_fleet or state.rules.names_sinkings
    sunk = tuple(s.code for i, s in enumerate(fleet) if sunk_flags[i]) if known_sunk else None
    return ships, state.afloat[side], len(fleet) - state.afloat[side], sunk


def _side_view(state: GameState, side: Side, open_fleet: bool, truth: bool) -> SideView:
    rules = state.rules
    shots = tuple(shot_view(rules, s, truth) for s in state.shots[side].values())
    marks: tuple[Cell, ...] = ()
    if not rules.touching and rules.shows_sunk_cells:
        ring = {n for s in shots for c in s.sunk_cells for n in rules.board.ring[c]}
        marks = tuple(sorted(ring - state.shots[side].keys()))
    return SideView(side, *fleet_view(state, side, open_fleet), shots, marks)


def view(
    state: GameState,
    audience: Side | str,
    *,
    since: int | None = None,
    side_view: Callable[[GameState, Side, bool, bool], SideView] = _side_view,
) -> PlayerView:
    """The view of ``state`` for ``audience`` (module docstring).

    ``audience``: a :class:`~.state.Side` or ``"south"``/``"north"`` (a player), ``"spectator"``, or ``"full"``
    (everything, including what the answers did not tell: only once the game is over). ``since``: the first ply
    :attr:`PlayerView.news` covers (default: the last ply). ``side_view(state, side, open_fleet, truth)`` makes
    each side's :class:`SideView` (``open_fleet``: its ships are open to the audience; ``truth``: the full view);
    the extended variant passes its own (:func:`admiral.games.battleship_ext.rules.view`).

    :raises IllegalAction: ``game_not_over`` for a full view of a game in progress; ``bad_audience``.
    """
    if isinstance(audience, Side):
        audience = audience.label
    if audience not in AUDIENCES:
        raise IllegalAction("bad_audience", f"unknown audience {audience!r} (audiences: {', '.join(AUDIENCES)})")
    truth = audience == "full"
    if truth and state.result is None:
        raise IllegalAction("game_not_over", "the full view opens only after the game (D12)")
    me = Side.parse(audience) if audience in ("south", "north") else None
    over = state.result is not None
    sides = tuple(side_view(state, s, over or s is me, truth) for s in Side)
    legal = tuple(state.legal_actions()) if me is not None and me is state.to_act else ()
    return PlayerView(
        audience, state.rules, state.ply, state.first, state.to_act, state.shots_left, state.turn_shots,
        sides, legal, state.result, max(0, state.ply - 1) if since is None else since,  # type: ignore[arg-type]
    )  # fmt: skip
