"""What one seat's view tells a bot of the extended variant (rules C3–C6, D6–D12): :class:`Sight`.

A bot reads only its seat's wire view (``PlayerView.to_dict()``, the shared contract), never the true state. From
it :class:`Sight` draws what the classic bots (:mod:`admiral.games.battleship.bots`) understand — a
:class:`~admiral.games.battleship.bots.Knowledge` of shots answered «мимо» / «ранен» / «убит» — plus what they
do not:

- a ``mine`` or ``sweeper`` answer is a figure, not a ship: the cell is no ship, and by the no-touch rule for
  every figure (C2) neither are its 8 neighbours, which the knowledge carries as *known-empty* cells (written as
  misses the seat never fired, so no level shoots them);
- a gold circle (an enemy mine handed over, C3) is likewise a figure: known empty, ring included, never shot;
- a crosshair (an enemy deck handed over, C3, C5) or a deck the opponent repaired after it was hit (D10) is a
  *sure* hit: :meth:`Sight.sure` lists them, and every level from 2 shoots them first (a hit shoots again);
- a sonar «нет» (C5) clears its 3×3 of whole decks: known empty; a sonar «да» and a satellite count (C6) are
  constraints the level-5 sampler keeps (:meth:`Sight.accept`); scans older than the opponent's last boat
  manoeuvre (C5, D9) are dropped, since the boat may have moved into their area.

Cells are the classic bots' ``(row, col)``; names are the wire's (``"b5"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from admiral.games.battleship.bots import Cell, Knowledge, cell_name, parse_cell
from admiral.games.battleship.bots.model import Facts

__all__ = ["Scan", "Sight", "wire_of"]


def wire_of(view: Any) -> Mapping[str, Any]:
    """The wire form of a view: ``view.to_dict()`` for the engine's ``PlayerView``, a mapping as it is."""
    return view if isinstance(view, Mapping) else view.to_dict()


@dataclass(frozen=True)
class Scan:
    """One of the seat's own scans (C5, C6): ``ply``, ``ability`` (``"sonar"``/``"satellite"``), ``cells`` (the
    area on the board), ``answer`` (sonar: whether a whole deck lies there; satellite: how many), ``before``:
    the cells the seat had shot before it (their decks were not whole then)."""

    ply: int
    ability: str
    cells: tuple[Cell, ...]
    answer: bool | int
    before: frozenset[Cell]


class Sight:
    """One seat's view read for a bot (module docstring).

    ``width``, ``height``: the board; ``fleet``: ``(code, size, count)`` per ship class; ``me``/``foe``: the side
    labels; ``my_turn``: whether the seat acts now; ``shots``: cell → ``(answer, ply, code)``, the seat's latest
    shot at each cell; ``crosshairs``, ``gold``: as handed to the seat; ``repaired``: enemy cells repaired since the
    seat last hit them (shootable again, sure decks); ``scans``: its :class:`Scan` values still trusted;
    ``energy``: ``{"value", "max", "gain"}`` or ``None``; ``abilities``: key → its row of the view's ability
    table; ``shot_names``: the legal shots (cell names); ``areas``: ability key → ``(prefix, [centre names])``
    of the ready area abilities; ``moves``, ``repairs``: legal notations; ``own``: the seat's own side view.

    :raises KeyError: for a view without the contract's keys.
    """

    def __init__(self, view: Any) -> None:
        v = wire_of(view)
        self.view = v
        self.width = int(v["board"]["width"])
        self.height = int(v["board"]["height"])
        self.fleet = tuple((f["code"], int(f["size"]), int(f["count"])) for f in v["fleet"])
        self.me = v["audience"]
        self.foe = "north" if self.me == "south" else "south"
        self.my_turn = v.get("to_act") == self.me
        self.ply = int(v.get("ply", 0))
        sides = v["sides"]
        mine, foe = sides[self.me], sides[self.foe]
        self.own = mine
        shots: dict[Cell, tuple[str, int, str | None]] = {}
        self.repaired: set[Cell] = set()
        for s in sorted(mine["shots"], key=lambda s: s["ply"]):
            cell = parse_cell(s["cell"])
            if s.get("repaired"):  # the hit was repaired (D10): a deck there again, shootable
                shots.pop(cell, None)
                self.repaired.add(cell)
            else:
                shots[cell] = (s["answer"], int(s["ply"]), s.get("ship"))
                self.repaired.discard(cell)
        self.shots = shots
        self.crosshairs = {parse_cell(n) for n in mine.get("crosshairs") or ()}
        self.gold = {parse_cell(n) for n in mine.get("gold") or ()}
        moved = max((int(u["ply"]) for u in foe.get("uses") or () if u.get("ability") == "move"), default=-1)
        self.scans: list[Scan] = []
        for s in mine.get("scans") or ():
            if s.get("answer") is None or int(s["ply"]) < moved:
                continue
            before = frozenset(c for c, (_, ply, _) in shots.items() if ply < int(s["ply"]))
            cells = tuple(parse_cell(n) for n in s["cells"])
            self.scans.append(Scan(int(s["ply"]), s["ability"], cells, s["answer"], before))
        self.energy = v.get("energy")
        self.abilities = {a["key"]: a for a in v.get("abilities") or ()}
        self.shot_names: list[str] = []
        self.areas: dict[str, tuple[str, list[str]]] = {}
        self.moves: list[str] = []
        self.repairs: list[str] = []
        for entry in v.get("legal") or ():
            kind = entry.get("type")
            if kind == "shot":
                self.shot_names.append(entry["notation"])
            elif kind == "area" and entry.get("cells"):
                self.areas[entry["ability"]] = (entry.get("prefix", entry["ability"]), list(entry["cells"]))
            elif kind == "move":
                self.moves.append(entry["notation"])
            elif kind == "repair":
                self.repairs.append(entry["notation"])
        self.legal = set(self.shot_names) | set(self.moves) | set(self.repairs)
        self.legal |= {f"{prefix} {c}" for prefix, cells in self.areas.values() for c in cells}

    # -- cells --------------------------------------------------------------------------------------------------

    def on_board(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the board."""
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def ring(self, cell: Cell) -> list[Cell]:
        """The up to 8 neighbours of ``cell`` on the board (the no-touch zone, C2)."""
        r, c = cell
        return [
            (r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc) and self.on_board((r + dr, c + dc))
        ]

    def area(self, ability: str, centre: Cell) -> list[Cell]:
        """The cells an ability centred at ``centre`` covers, cut at the edge (D7): the air strike's cross, the
        3×3 of the sonar and the carpet strike, the satellite's 5×5."""
        r, c = centre
        if ability == "air":
            cells = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        else:
            k = 2 if ability == "satellite" else 1
            cells = [(r + dr, c + dc) for dr in range(-k, k + 1) for dc in range(-k, k + 1)]
        return [x for x in cells if self.on_board(x)]

    def figure_cells(self) -> set[Cell]:
        """Enemy figures the seat knows (C3): mines and minesweepers it hit, and the gold circles."""
        return {c for c, (a, _, _) in self.shots.items() if a in ("mine", "sweeper")} | self.gold

    def known_empty(self, soft: bool = True) -> set[Cell]:
        """Cells not shot that hold no ship (module docstring): the figures' rings and the gold circles (rules),
        and with ``soft`` the areas a sonar answered «нет» for (true unless a boat moved in unseen, C6 L7)."""
        out: set[Cell] = set(self.gold)
        for cell in self.figure_cells():
            out.update(self.ring(cell))
        if soft:
            for scan in self.scans:
                if scan.ability == "sonar" and scan.answer is False:
                    out.update(c for c in scan.cells if c not in scan.before)
        hits = {c for c, (a, _, _) in self.shots.items() if a in ("hit", "sunk")}
        return out - set(self.shots) - hits - self.sure_cells()

    def sure_cells(self) -> set[Cell]:
        """Enemy decks known and not shot (crosshairs, repaired decks): sure hits."""
        return (self.crosshairs - set(self.shots)) | self.repaired

    def sure(self) -> list[str]:
        """The legal shots that are sure hits, reading order (a sure hit shoots again, C3)."""
        names = set(self.shot_names)
        return [cell_name(c) for c in sorted(self.sure_cells()) if cell_name(c) in names]

    # -- what the classic bots understand ---------------------------------------------------------------------

    def template(self) -> Knowledge:
        """The board and fleet before any shot: no touching, sunk ships known by their cells (C1, C2, A6)."""
        return Knowledge.of_fleet(self.width, self.height, self.fleet, touching=False, named=True)

    def knowledge(self, soft: bool = True) -> Knowledge:
        """The seat's shots as classic knowledge: figures' answers as misses, the :meth:`known_empty` cells as
        misses fired first (so no classic level shoots them), a sinking's code kept (its size, A6)."""
        codes = {code for code, _, _ in self.fleet}
        shots: list[tuple[Cell, str, str | None]] = [(c, "miss", None) for c in sorted(self.known_empty(soft))]
        for cell, (answer, _, code) in sorted(self.shots.items(), key=lambda x: x[1][1]):
            if answer in ("hit", "sunk"):
                shots.append((cell, answer, code if answer == "sunk" and code in codes else None))
            else:
                shots.append((cell, "miss", None))
        return replace(self.template(), shots=tuple(shots))

    def accept(self, facts: Facts) -> Callable[[list[tuple[int, int]]], bool] | None:
        """The level-5 sampler's filter for the scans it cannot build in (C5 sonar «да», C6 satellite counts): a
        drawn fleet passes when it has, in each scan's area, as many decks outside the cells shot before the scan
        as the scan answered. ``None`` when there is no such scan."""
        g = facts.g
        checks = []
        for scan in self.scans:
            if scan.ability == "sonar" and scan.answer is not True:
                continue
            mask = 0
            for c in scan.cells:
                if c not in scan.before:
                    mask |= 1 << g.index(c)
            want = scan.answer
            if isinstance(want, bool):
                checks.append((mask, 1, None))
            else:
                checks.append((mask, int(want), int(want)))
        if not checks:
            return None
        types = facts.types

        def accept(chosen: list[tuple[int, int]]) -> bool:
            ships = 0
            for t, p in chosen:
                ships |= g.masks[types[t].size][p]
            for mask, low, high in checks:
                n = (ships & mask).bit_count()
                if n < low or (high is not None and n > high):
                    return False
            return True

        return accept

    # -- the seat's own resources ------------------------------------------------------------------------------

    @property
    def energy_value(self) -> int:
        """The seat's energy now (0 when the view shows none)."""
        return int(self.energy["value"]) if self.energy else 0

    def cost(self, key: str) -> int | None:
        """What ability ``key`` costs the seat now, or ``None`` if its table has no such row."""
        row = self.abilities.get(key)
        return None if row is None else int(row["cost"])

    def possible(self, key: str) -> bool:
        """Whether ability ``key`` could become ready later in this game (its ship afloat, not used up)."""
        row = self.abilities.get(key)
        return row is not None and row.get("why") not in ("no_ship", "used")

    def reveal_risk(self, key: str) -> float:
        """The chance that using ability ``key`` hands the opponent a deck of a ship it does not know yet (C5, C6
        self-reveal, D6): the ability's reveal chance × the share of the candidate decks (whole, not handed: the
        air and carpet strikes reveal a ship of 4 decks or more, the sonar and the satellite one of 2) that lie
        on a ship with no hit and no deck handed. 0 for the other abilities."""
        row = self.abilities.get(key)
        sizes = {"air": (4, 99), "carpet": (4, 99), "sonar": (2, 2), "satellite": (2, 2)}.get(key)
        if row is None or sizes is None or not row.get("reveal"):
            return 0.0
        handed = set(self.own.get("handed") or ())
        known = unknown = 0
        for ship in self.own.get("ships") or ():
            cells = ship["cells"]
            if ship.get("sunk") or not sizes[0] <= len(cells) <= sizes[1]:
                continue
            whole = [c for c in cells if c not in set(ship.get("hits") or ()) and c not in handed]
            if ship.get("hits") or handed & set(cells):
                known += len(whole)
            else:
                unknown += len(whole)
        if not known + unknown:
            return 0.0
        return int(row["reveal"]) / 100 * unknown / (known + unknown)

    def spare(self, cost: int) -> bool:
        """Whether spending ``cost`` now still leaves the air strike ready next turn (or the air strike is out of
        reach anyway, or energy would overflow its maximum otherwise, C4)."""
        if not self.energy:
            return False
        value, top, gain = self.energy_value, int(self.energy["max"]), int(self.energy.get("gain", 0))
        air = self.cost("air")
        if air is None or not self.possible("air"):
            return True
        return value - cost + gain >= air or value + gain > top
