"""What each audience may know in the extended variant (BATTLESHIP.md C3–C6, D6, D10, D12, D13): the classic view
(:func:`admiral.games.battleship.rules.view`) extended with figures, energy, abilities, marks handed over, scans,
ability uses, levels and the fair-chance commitment.

Who sees what (D12):

- every shot and its answer (``mine``, ``sweeper`` too), the marks, ability uses (name and cell; a manoeuvre's
  cell never), levels, repaired cells and where each scan looked: everyone;
- a side's fleet and figures (mines, minesweepers with their state): that side, and everyone once the game is over;
- crosshairs (enemy decks a side was handed), gold circles (enemy mines it was handed), ``handed`` (own decks and
  mines handed to the opponent), scan answers, energy and abilities: that side only (and everyone at the end for
  the marks and answers); energy never to a spectator;
- the chance commitment always, the seed only once the game is over (D13).

``ExtPlayerView.to_dict()`` is the wire form of ``docs/battleship_ext.md`` (JSON-ready, deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from admiral.games.battleship.rules import (
    Answer,
    Cell,
    PlayerView,
    ShotView,
    Side,
    SideView,
    cell_name,
    fleet_view,
    shot_told,
)
from admiral.games.battleship.rules import view as classic_view

from .fleet import ABILITIES, AIR, CARPET, options_of, reveal_chance
from .state import AreaAbility, ExtState, Manoeuvre, Repair, Scan, Use, _key_of

__all__ = ["AbilityView", "EnergyView", "ExtPlayerView", "ExtShotView", "ExtSideView", "FigureView", "view"]

#: A refusal code → the ``why`` of an ability that is not ready (docs/battleship_ext.md).
_WHY = {
    "no_energy": "energy",
    "no_ship": "no_ship",
    "used": "used",
    "one_ability": "one_ability",
    "not_your_turn": "not_your_turn",
    "game_over": "not_your_turn",
    "no_ultimate": "used",
}


@dataclass(frozen=True, slots=True)
class ExtShotView(ShotView):
    """A shot (classic :class:`ShotView`) with ``via``: ``"air"``/``"carpet"`` when an area attack fired it
    (C5, C6), else ``None``; ``repaired``: its hit was repaired (the mark «отремонтирована», D10)."""

    via: str | None = None
    repaired: bool = False

    def to_dict(self) -> dict:
        """Classic's keys plus ``via`` and ``repaired``."""
        return {**ShotView.to_dict(self), "via": self.via, "repaired": self.repaired}


@dataclass(frozen=True, slots=True)
class FigureView:
    """An open figure: ``code`` (``"M"``, ``"T"``), ``cell``, ``state`` (``"active"``, ``"exploded"``,
    ``"sunk"``)."""

    code: str
    cell: Cell
    state: str

    def to_dict(self) -> dict:
        """``{"code", "cell", "state"}``."""
        return {"code": self.code, "cell": cell_name(self.cell), "state": self.state}


@dataclass(frozen=True, slots=True)
class ExtSideView(SideView):
    """One side (classic :class:`SideView`) plus ``figures`` (open like ``ships``, else ``None``),
    ``crosshairs``, ``gold``, ``handed`` (empty unless the audience may see them), ``scans`` (each
    :class:`~.state.Scan` with ``answer`` and ``mines`` ``None`` for an audience that may not know them), ``uses``
    and ``repaired`` (public)."""

    figures: tuple[FigureView, ...] | None = None
    crosshairs: tuple[Cell, ...] = ()
    gold: tuple[Cell, ...] = ()
    handed: tuple[Cell, ...] = ()
    scans: tuple[Scan, ...] = ()
    uses: tuple[Use, ...] = ()
    repaired: tuple[Cell, ...] = ()

    def to_dict(self) -> dict:
        """Classic's keys plus ``figures``, ``crosshairs``, ``gold``, ``handed``, ``scans`` (``{"ply", "ability",
        "center", "cells", "answer", "mines"}``), ``uses`` (``{"ply", "ability", "cell"}``), ``repaired``."""
        names = lambda cells: [cell_name(c) for c in cells]  # noqa: E731
        return {
            **SideView.to_dict(self),
            "figures": None if self.figures is None else [f.to_dict() for f in self.figures],
            "crosshairs": names(self.crosshairs),
            "gold": names(self.gold),
            "handed": names(self.handed),
            "scans": [
                {
                    "ply": s.ply,
                    "ability": s.ability,
                    "center": cell_name(s.center),
                    "cells": names(s.cells),
                    "answer": s.answer,
                    "mines": s.mines,
                }
                for s in self.scans
            ],
            "uses": [
                {"ply": u.ply, "ability": u.ability, "cell": None if u.cell is None else cell_name(u.cell)}
                for u in self.uses
            ],
            "repaired": names(self.repaired),
        }


@dataclass(frozen=True, slots=True)
class EnergyView:
    """A seat's own energy (C4): ``value``, ``max``, ``gain`` (what its next turn's start adds as things stand)."""

    value: int
    max: int
    gain: int

    def to_dict(self) -> dict:
        """``{"value", "max", "gain"}``."""
        return {"value": self.value, "max": self.max, "gain": self.gain}


@dataclass(frozen=True, slots=True)
class AbilityView:
    """One of the seat's abilities (C5, C6): ``key``, ``cost`` (penalty included, D8), ``ultimate``, ``ready``,
    ``why`` (``None`` when ready; ``"energy"``, ``"no_ship"``, ``"used"``, ``"one_ability"``,
    ``"not_your_turn"``, ``"no_target"``), ``ends_turn``, ``reveal`` (percent chance of a self-reveal), ``area``
    (side of its square: 1, 3, 5)."""

    key: str
    cost: int
    ultimate: bool
    ready: bool
    why: str | None
    ends_turn: bool
    reveal: int
    area: int

    def to_dict(self) -> dict:
        """``{"key", "cost", "ultimate", "ready", "why", "ends_turn", "reveal", "area"}``."""
        return {
            "key": self.key,
            "cost": self.cost,
            "ultimate": self.ultimate,
            "ready": self.ready,
            "why": self.why,
            "ends_turn": self.ends_turn,
            "reveal": self.reveal,
            "area": self.area,
        }


@dataclass(frozen=True, slots=True)
class ExtPlayerView(PlayerView):
    """Classic's :class:`PlayerView` plus ``levels`` (South's, North's: public, D12), ``commitment`` (SHA-256 of
    the seed, D13), ``seed`` (its hex, only once the game is over), ``energy`` (the seat's own, else ``None``) and
    ``abilities`` (the seat's own, else ``None``). ``legal`` holds every concrete action (shots, abilities)."""

    levels: tuple[int, int] = (1, 1)
    commitment: str = ""
    seed: str | None = None
    energy: EnergyView | None = None
    abilities: tuple[AbilityView, ...] | None = None

    def to_dict(self) -> dict:
        """The wire form (docs/battleship_ext.md): classic's keys, ``game`` ``"battleship_ext"``, ``options``,
        ``figures``, ``levels``, ``chance``, ``energy``, ``abilities``, and ``legal`` with one compact ``area`` entry
        per area ability (``{"type": "area", "ability", "cells", "prefix"}``: the client sends
        ``f"{prefix} {cell}"``)."""
        rules = self.rules
        out = PlayerView.to_dict(self)
        out.update(
            game="battleship_ext",
            options=options_of(rules),  # type: ignore[arg-type]
            figures=[{"code": f.code, "count": f.count} for f in rules.figures],
            levels={"south": self.levels[0], "north": self.levels[1]},
            chance={"commitment": self.commitment, "seed": self.seed},
            energy=None if self.energy is None else self.energy.to_dict(),
            abilities=None if self.abilities is None else [a.to_dict() for a in self.abilities],
            legal=_legal(self.legal),
        )
        return out


def _legal(actions: tuple) -> list[dict]:
    """The wire's ``legal``: shots one by one, area abilities compacted, moves and repairs one by one."""
    out: list[dict] = []
    areas: dict[str, dict] = {}
    for a in actions:
        if isinstance(a, AreaAbility):
            entry = areas.get(a.ability)
            if entry is None:
                entry = areas[a.ability] = {"type": "area", "ability": a.ability, "cells": [], "prefix": a.ability}
                out.append(entry)
            entry["cells"].append(cell_name(a.cell))
        elif isinstance(a, Manoeuvre):
            out.append({"type": "move", "src": cell_name(a.src), "dst": cell_name(a.dst), "notation": str(a)})
        elif isinstance(a, Repair):
            out.append({"type": "repair", "cell": cell_name(a.cell), "notation": str(a)})
        else:
            out.append({"type": "shot", "cell": str(a), "notation": str(a)})
    return out


def _shots(state: ExtState, side: Side, truth: bool) -> tuple[ExtShotView, ...]:
    """``side``'s shots in ply order, repaired ones included (D10), each with the attack that fired it."""
    rules, now = state.rules, state.shots[side]
    via = {u.ply: u.ability for u in state.x.uses[side] if u.ability in (AIR, CARPET)}
    return tuple(
        ExtShotView(s.ply, s.cell, s.answer, *shot_told(rules, s, truth), via.get(s.ply), now.get(s.cell) is not s)
        for s in state.history
        if s.side is side
    )


def _marks(state: ExtState, side: Side, shots: tuple[ExtShotView, ...]) -> tuple[Cell, ...]:
    """Cells of the other grid known empty (A6; C2: the ring of an exploded mine or a destroyed minesweeper too),
    not shot now."""
    ring = state.rules.board.ring
    known = {n for s in shots for c in s.sunk_cells for n in ring[c]}
    known |= {n for s in shots if s.answer in (Answer.MINE, Answer.SWEEPER) for n in ring[s.cell]}
    return tuple(sorted(known - state.shots[side].keys()))


def _side(state: ExtState, side: Side, own: bool, truth: bool) -> ExtSideView:
    """One side's view (the classic view's ``side_view``): ``own``: its fleet and figures are open to the
    audience (its own, or anyone's once the game is over)."""
    x, opp = state.x, side.opponent
    shots = _shots(state, side, truth)
    figures = None
    if own:
        figures = tuple(
            FigureView(code, c, x.figure_state[side][c])
            for code in (f.code for f in state.rules.figures)
            for c in sorted(x.figures[side])
            if x.figures[side][c] == code
        )
    return ExtSideView(
        side,
        *fleet_view(state, side, own),
        shots,
        _marks(state, side, shots),
        figures=figures,
        crosshairs=tuple(sorted(x.crosshairs[side])) if own else (),
        gold=tuple(sorted(x.gold[side])) if own else (),
        handed=tuple(sorted({*x.crosshairs[opp], *x.gold[opp]})) if own else (),
        scans=tuple(s if own else replace(s, answer=None, mines=None) for s in x.scans[side]),
        uses=tuple(x.uses[side]),
        repaired=tuple(x.repaired[side]),
    )


def _abilities(state: ExtState, me: Side, legal: tuple) -> tuple[AbilityView, ...]:
    """The seat's abilities; ``legal``: the view's legal actions (the seat's own when it is to act), which hold
    every target of every ability it may use now (:meth:`~.state.ExtState.legal_actions`)."""
    level = state.levels[me]
    aimed = {_key_of(a) for a in legal if isinstance(a, AreaAbility | Manoeuvre | Repair)}
    out = []
    for key in state.abilities_of(me):
        ability = ABILITIES[key]
        problem = state.ability_refusal(key, me)
        why = None if problem is None else _WHY.get(problem.code, problem.code)
        if why is None and key not in aimed:
            why = "no_target"
        out.append(
            AbilityView(
                key,
                state.ability_cost(me, key),
                ability.ultimate,
                why is None,
                why,
                ability.ends_turn,
                reveal_chance(key, level),
                ability.area,
            )
        )
    return tuple(out)


def view(state: ExtState, audience: Side | str, *, since: int | None = None) -> ExtPlayerView:
    """The view of ``state`` for ``audience`` (module docstring): ``"south"``/``"north"`` (or a
    :class:`~admiral.games.battleship.rules.Side`), ``"spectator"``, or ``"full"`` (only once the game is over).

    :raises IllegalAction: ``game_not_over`` for a full view of a game in progress; ``bad_audience``.
    """
    base = classic_view(state, audience, since=since, side_view=_side)
    me, over = base.side, state.result is not None
    values = {f.name: getattr(base, f.name) for f in fields(PlayerView)}
    energy = abilities = None
    if me is not None:
        energy = EnergyView(state.energy[me], state.max_energy(me), state.gain(me))
        abilities = _abilities(state, me, base.legal)
    return ExtPlayerView(
        **values,
        levels=state.levels,
        commitment=state.commitment,
        seed=state.seed.hex() if over else None,
        energy=energy,
        abilities=abilities,
    )
