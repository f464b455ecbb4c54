"""«Адмирал»'s own tables for its browser client (``GET /games/admiral/manifest.json``, docs/protocol.md), computed
from the engine (:mod:`admiral.games.admiral.rules`) rather than restated, so the client cannot disagree with it.

What the engine holds as constants is read from them (kinds, counts, strengths, the scale, the zones, the tethers);
what it holds only as behaviour is asked of it on small positions, as the rules page does (:mod:`.rulebook`): how far
each kind attacks, and the special roles (who shoots aircraft down, who sweeps mines, the bomb, the bases).

Texts are Russian message ids (the engine marks them for the catalogs, ``rules/msgids.py``); the browser's ``t()``
and ``pt("unit", …)`` translate them, so one manifest serves every language.

>>> t = tables()
>>> t["board"]["zones"]["south"][:3], t["board"]["front_rows"]["north"][:2]
(['a1', 'a2', 'a3'], ['a11', 'b11'])
>>> [u for u in t["units"] if u["code"] == "S"][0]["carrier"], t["scale"][0], t["rules"]["blast"]
('A', {'row': 21, 'kinds': ['L', 'L']}, 5)
>>> sorted(u["code"] for u in t["units"] if "anti_air" in u["roles"])
['L', 'R']
"""

from __future__ import annotations

from copy import deepcopy
from functools import cache
from math import isqrt
from typing import Any

from admiral.games.admiral import rulebook
from admiral.games.admiral.rules import (
    CARRIER,
    CELLS,
    COLUMNS,
    COLUMNS_RU,
    FLEET_SIZE,
    FRONT_ROW,
    HEIGHT,
    QUIET_LIMIT,
    SCALE,
    WIDTH,
    ZONE,
    Attack,
    BattleReport,
    Detonate,
    GameState,
    Kind,
    Side,
    apply,
    cell_name,
    legal_actions,
    parse_cell,
)
from admiral.games.admiral.rules.board import BLAST, RING, cell_at, cell_col, cell_row
from admiral.games.admiral.rules.state import FORMABLE

__all__ = ["ROLES", "tables"]

#: The special roles a unit may have, as the manifest names them (rules §2, §7.2, §8, §9).
ROLES = ("carrier", "anti_air", "sweeper", "bomb", "base")

#: Where the reach of a kind is measured: its unit on g8 (with a carrier beside it when it needs one), an enemy
#: patrol ship straight above it at each distance in turn.
_PROBE = "g8"


def _cells(cells: frozenset[int]) -> list[str]:
    return [cell_name(c) for c in sorted(cells)]


def _board() -> dict[str, Any]:
    """Geometry (rules §1): size, column letters, each side's setup zone and front row (cells in notation order)."""
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "columns": COLUMNS,
        "columns_ru": "".join(COLUMNS_RU),
        "zones": {s.label: _cells(ZONE[s]) for s in Side},
        "front_rows": {s.label: _cells(FRONT_ROW[s]) for s in Side},
    }


def _attack(kind: Kind) -> tuple[str | None, int | None]:
    """How ``kind`` attacks (the battle report's ``method``: ``contact``, ``air``, ``torpedo``) and how far (cells
    along a row or column), from the engine's legal actions and the report of one attack; ``(None, None)`` for a
    kind that never attacks (rules §6)."""
    src = parse_cell(_PROBE)
    col, row = cell_col(src), cell_row(src)
    own = f"{kind.code}{_PROBE}"
    if kind in CARRIER:  # 8-adjacent to its carrier (diagonally below: off the line of fire)
        own += f" {CARRIER[kind].code}{cell_name(cell_at(col - 1, row - 1))}"
    reach, method = None, None
    for distance in range(1, HEIGHT - row):
        target = cell_at(col, row + distance)
        state = GameState.from_text(f"{own} / ST{cell_name(target)}", Side.SOUTH)
        attack = Attack(src, target)
        if attack in legal_actions(state):
            reach = distance
            method = next(e for e in apply(state, attack) if isinstance(e, BattleReport)).method
    return method, reach


def _roles(kind: Kind) -> list[str]:
    """The special roles of ``kind`` (:data:`ROLES`), asked of the engine: ``carrier`` (a weapon is tethered to it,
    rules §5.2), ``anti_air`` (an air strike on it loses the aircraft, §7.2), ``sweeper`` (it survives attacking a
    mine, §7.2), ``bomb`` (it can be detonated, §8), ``base`` (the side loses when all of these are gone, §9)."""
    roles = []
    if kind in CARRIER.values():
        roles.append("carrier")
    air = rulebook.collision_outcome(Kind.S, kind)
    if air.attacker_removed and not air.target_removed:
        roles.append("anti_air")
    if _attack(kind)[0] == "contact":
        sweep = rulebook.collision_outcome(kind, Kind.M)
        if sweep.target_removed and not sweep.attacker_removed:
            roles.append("sweeper")
    alone = GameState.from_text(f"{kind.code}{_PROBE} / STa15", Side.SOUTH)
    if Detonate() in legal_actions(alone):
        roles.append("bomb")
    if alone.bases[Side.SOUTH]:
        roles.append("base")
    return roles


def _unit(kind: Kind) -> dict[str, Any]:
    method, reach = _attack(kind)
    return {
        "code": kind.code,
        "ru": kind.ru,
        "name": kind.ru_name,
        "count": kind.count,
        "strength": kind.strength,
        "tonnage": kind.tonnage,
        "ship": kind.is_ship,
        "rated": kind.is_rated,
        "formable": kind in FORMABLE,
        "moves": kind.is_mobile,
        "carrier": CARRIER[kind].code if kind in CARRIER else None,
        "attack": method,
        "reach": reach,
        "roles": _roles(kind),
    }


def _reach_of(table: tuple[tuple[int, ...], ...]) -> int:
    """The farthest cell of any neighbourhood in ``table`` from its centre, counted as a king moves."""
    return max(max(abs(cell_col(n) - cell_col(c)), abs(cell_row(n) - cell_row(c))) for c in CELLS for n in table[c])


def tables() -> dict[str, Any]:
    """The game's own part of the manifest, JSON-ready and deterministic (a fresh copy at each call: the engine is
    asked once):

    - ``board``: ``width``, ``height``, ``columns`` (Latin, the wire's ``"abcdefghijklmn"``), ``columns_ru`` (the
      Russian letters as one message id, context ``columns``), ``zones`` and ``front_rows`` (per side, cells in
      notation order: where a side sets up, rules §3.1, and where its bases may not stand, §3.2);
    - ``units``: one per kind in the fleet's order (rules §2): ``code``, ``ru`` (the marker's code, message id in
      context ``unit``), ``name`` (message id), ``count`` per side, ``strength`` (single, ``None`` out of scale),
      ``tonnage`` (t), ``ship``, ``rated``, ``formable`` (may be a formation's member, §7.1.3), ``moves`` (§5.1),
      ``carrier`` (the kind a weapon is tethered to, §5.2, else ``None``), ``attack`` (``contact``, ``air``,
      ``torpedo`` or ``None``, §6), ``reach`` (cells along a row or column, ``None`` for no attack), ``roles``
      (of :data:`ROLES`);
    - ``fleet_size``: units per side (58);
    - ``scale``: the scale of strength (rules §7.1), the highest row first, ``{row, kinds}`` with the kind codes in
      the fleet's order: the higher row wins, equal rows both go;
    - ``rules``: ``tether`` (a weapon's carrier within this many cells, 8-adjacent: 1, §5.2), ``blast`` (the side of
      the bomb's square, §8), ``quiet_limit`` (plies without a loss that draw, §10.3), ``formation`` (``min`` and
      ``max`` members, §7.1.3).
    """
    return deepcopy(_tables())


@cache
def _tables() -> dict[str, Any]:
    sizes = [len(comp) for comp in SCALE if len(comp) > 1]
    return {
        "board": _board(),
        "units": [_unit(k) for k in Kind],
        "fleet_size": FLEET_SIZE,
        "scale": [{"row": r.row, "kinds": list(r.kinds)} for r in rulebook.scale_rows()],
        "rules": {
            "tether": _reach_of(RING),
            "blast": isqrt(max(len(BLAST[c]) for c in CELLS)),
            "quiet_limit": QUIET_LIMIT,
            "formation": {"min": min(sizes), "max": max(sizes)},
        },
    }
