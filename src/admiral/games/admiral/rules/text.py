"""Human-readable text for battle reports and results (terminal demo, logs). Russian unit codes.

>>> from admiral.games.admiral.rules import BattleReport, Kind, Seen, Side
>>> r = BattleReport(4, Side.SOUTH, "contact", Seen(Side.SOUTH, Kind.L, 64), Seen(Side.NORTH, Kind.KR, 65),
...                  (Seen(Side.SOUTH, Kind.L, 64),), (Seen(Side.NORTH, Kind.KR, 65),), 15, 7,
...                  (Seen(Side.NORTH, Kind.KR, 65),), None)
>>> describe_report(r)
'ply 4, Юг: Л e5 атакует КР e6 · Л (15) против КР (7) · потери: Север КР e6'
"""

from __future__ import annotations

from .board import cell_name
from .events import BattleReport, Reason, Result, Seen

__all__ = ["describe_report", "describe_result"]

_METHOD = {"contact": "атакует", "air": "наносит авиаудар по", "torpedo": "торпедирует"}
_REASON = {
    Reason.BASES: "уничтожены обе ВМБ",
    Reason.NO_ACTIONS: "нет разрешённого хода",
    Reason.QUIET_SEA: "200 полуходов без потерь",
    Reason.AGREEMENT: "ничья по соглашению",
    Reason.RESIGNATION: "сдача",
    Reason.FLAG: "истекло время",
    Reason.ABANDONMENT: "соперник покинул игру",
}


def _unit(s: Seen) -> str:
    return f"{s.kind.ru} {cell_name(s.cell)}"


def _group(members: tuple[Seen, ...], row: int | None) -> str:
    return "+".join(m.kind.ru for m in members) + f" ({row})"


def describe_report(r: BattleReport) -> str:
    """One line describing a battle report (rules §11.3), in Russian."""
    head = f"ply {r.ply}, {r.side.ru}: "
    if r.method == "detonation":
        head += f"подрыв АБ {cell_name(r.attacker.cell)}"
    else:
        head += f"{_unit(r.attacker)} {_METHOD[r.method]} {_unit(r.target)}"
    parts = [head]
    if r.attacker_row is not None:
        parts.append(
            f"{_group(r.attacker_formation, r.attacker_row)} против {_group(r.defender_formation, r.defender_row)}"
        )
    if r.explosion is not None and r.method != "detonation":
        parts.append(f"взрыв АБ {cell_name(r.explosion)}")
    if r.removed:
        parts.append("потери: " + ", ".join(f"{s.side.ru} {_unit(s)}" for s in r.removed))
    else:
        parts.append("без потерь")
    return " · ".join(parts)


def describe_result(result: Result) -> str:
    """The result in Russian, e.g. «Победа: Юг (уничтожены обе ВМБ)»."""
    why = _REASON[result.reason]
    if result.winner is None:
        return f"Ничья ({why})"
    return f"Победа: {result.winner.ru} ({why})"
