"""Sides, unit kinds and the scale of strength (rules §1, §2, §7.1).

Every fact about a kind is declared once here, in tables indexed by :class:`Kind`.

>>> Kind.parse("КРПЛ") is Kind.KRPL
True
>>> Kind.L.strength, Kind.L.count, Kind.L.ru
(15, 2, 'Л')
>>> scale_row([Kind.L, Kind.L])
21
>>> scale_row([Kind.L, Kind.KR]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .errors import IllegalAction
from .msgids import N_, NC_

__all__ = [
    "FLEET_SIZE",
    "Kind",
    "SCALE",
    "Side",
    "Unit",
    "scale_row",
    "unit",
]


class Side(IntEnum):
    """One of the two sides (rules §1). South has rows 1–5 and moves first."""

    SOUTH = 0
    NORTH = 1

    @property
    def opponent(self) -> Side:
        """The other side."""
        return _OPPONENT[self]

    @property
    def ru(self) -> str:
        """Russian name for the UI: «Юг» or «Север»."""
        return ("Юг", "Север")[self]

    @property
    def label(self) -> str:
        """Lower-case English name used in notation and JSON: ``south`` / ``north``."""
        return ("south", "north")[self]

    @classmethod
    def parse(cls, text: str) -> Side:
        """Parse ``south``/``north`` (or ``s``/``n``, any case).

        :raises IllegalAction: ``bad_side`` for anything else.
        """
        t = text.strip().lower() if isinstance(text, str) else ""
        if t in ("south", "s"):
            return cls.SOUTH
        if t in ("north", "n"):
            return cls.NORTH
        raise IllegalAction("bad_side", f"unknown side {text!r}: expected 'south' or 'north'")


_OPPONENT = (Side.NORTH, Side.SOUTH)


class Kind(IntEnum):
    """The 17 kinds of unit of rules §2, with their ASCII codes as member names."""

    A = 0
    L = 1
    KR = 2
    R = 3
    ES = 4
    ST = 5
    TK = 6
    KRPL = 7
    TR = 8
    PL = 9
    S = 10
    T = 11
    M = 12
    SM = 13
    BR = 14
    AB = 15
    VMB = 16

    @property
    def code(self) -> str:
        """ASCII code, e.g. ``KRPL``."""
        return self.name

    @property
    def ru(self) -> str:
        """Russian code shown in the UI, e.g. ``КРПЛ``."""
        return _RU[self]

    @property
    def ru_name(self) -> str:
        """Russian name, e.g. «Крейсерская ПЛ»."""
        return _RU_NAME[self]

    @property
    def count(self) -> int:
        """Units of this kind in one fleet (rules §2)."""
        return _COUNT[self]

    @property
    def strength(self) -> int | None:
        """Single strength on the scale (rules §2), ``None`` when out of scale."""
        return _STRENGTH[self]

    @property
    def tonnage(self) -> int:
        """Tonnage in tonnes (rules §2 [decision]); 0 for weapons, the bomb and bases."""
        return _TONNAGE[self]

    @property
    def is_ship(self) -> bool:
        """One of the ten ship classes (rules §2)."""
        return self <= Kind.PL

    @property
    def is_rated(self) -> bool:
        """A ship with a strength: every ship but the carrier ``A`` (rules §2)."""
        return Kind.L <= self <= Kind.PL

    @property
    def is_mobile(self) -> bool:
        """Everything moves except ``SM`` and ``VMB`` (rules §5.1)."""
        return self not in (Kind.SM, Kind.VMB)

    @classmethod
    def parse(cls, text: str) -> Kind:
        """Parse an ASCII code (``KRPL``) or a Russian code (``КРПЛ``), any case.

        :raises IllegalAction: ``unknown_kind`` for anything else.
        """
        if isinstance(text, str):
            key = text.strip().upper()
            found = _BY_CODE.get(key)
            if found is not None:
                return found
        raise IllegalAction("unknown_kind", f"unknown unit kind {text!r}")


# Message ids of the catalogs (the site translates them where it shows them: msgids.py).
_RU = (
    # TRANSLATORS: context "unit": the short code on a unit's marker (1–4 letters, e.g. КР for a cruiser).
    NC_("unit", "А"), NC_("unit", "Л"), NC_("unit", "КР"), NC_("unit", "Р"), NC_("unit", "ЭС"), NC_("unit", "СТ"),
    NC_("unit", "ТК"), NC_("unit", "КРПЛ"), NC_("unit", "ТР"), NC_("unit", "ПЛ"), NC_("unit", "С"),
    NC_("unit", "Т"), NC_("unit", "М"), NC_("unit", "СМ"), NC_("unit", "БР"), NC_("unit", "АБ"),
    NC_("unit", "ВМБ"),
)  # fmt: skip
_RU_NAME = (
    N_("Авианосец"), N_("Линкор"), N_("Крейсер"), N_("Рейдер"), N_("Эсминец"), N_("Сторожевик"),
    N_("Торпедный катер"), N_("Крейсерская ПЛ"), N_("Тральщик"), N_("Подводная лодка"), N_("Самолёт"),
    N_("Торпеда"), N_("Мина"), N_("Стационарная мина"), N_("Брандер"), N_("Атомная бомба"),
    N_("Военно-морская база"),
)  # fmt: skip
_COUNT = (1, 2, 6, 2, 6, 6, 6, 1, 6, 6, 1, 4, 6, 1, 1, 1, 2)
_STRENGTH = (None, 15, 7, 8, 5, 2, 3, 6, 1, 4, None, None, None, None, None, None, None)
_TONNAGE = (40_000, 45_000, 12_000, 15_000, 2_500, 1_000, 50, 3_000, 700, 1_000, 0, 0, 0, 0, 0, 0, 0)
_BY_CODE: dict[str, Kind] = {}
for _k in Kind:
    _BY_CODE[_k.name] = _k
    _BY_CODE[_RU[_k]] = _k

#: Units per fleet (rules §2): 58.
FLEET_SIZE = sum(_COUNT)
assert FLEET_SIZE == 58

_K = Kind
#: The scale of strength (rules §7.1): sorted composition → row (higher wins).
SCALE: dict[tuple[Kind, ...], int] = {
    tuple(sorted(comp)): row
    for comp, row in (
        ((_K.L, _K.L), 21), ((_K.KR,) * 3, 20), ((_K.R, _K.R, _K.ES), 19), ((_K.KR, _K.KR), 18),
        ((_K.KRPL, _K.PL, _K.PL), 17), ((_K.PL,) * 3, 16), ((_K.L,), 15), ((_K.R, _K.R), 14),
        ((_K.ES,) * 3, 13), ((_K.R, _K.ES), 12), ((_K.ES, _K.ES), 11), ((_K.KRPL, _K.PL), 10),
        ((_K.PL, _K.PL), 9), ((_K.R,), 8), ((_K.KR,), 7), ((_K.KRPL,), 6), ((_K.ES,), 5),
        ((_K.PL,), 4), ((_K.TK,), 3), ((_K.ST,), 2), ((_K.TR,), 1),
    )
}  # fmt: skip
assert len(SCALE) == 21 and sorted(SCALE.values()) == list(range(1, 22))


def scale_row(kinds: Iterable[Kind]) -> int | None:
    """Row of a declared composition on the scale (rules §7.1), or ``None`` if it is not a formation."""
    return SCALE.get(tuple(sorted(kinds)))


class Unit:
    """A unit as it stands on the board: its side and kind.

    Units carry no identity of their own: the board cell is the identity. There is exactly one
    ``Unit`` object per (side, kind); get it with :func:`unit`.
    """

    __slots__ = ("side", "kind")

    def __init__(self, side: Side, kind: Kind) -> None:
        self.side = side
        self.kind = kind

    def __repr__(self) -> str:
        return f"unit(Side.{self.side.name}, Kind.{self.kind.name})"

    def __reduce__(self):
        return (unit, (self.side, self.kind))


_UNITS = tuple(tuple(Unit(s, k) for k in Kind) for s in Side)


def unit(side: Side, kind: Kind) -> Unit:
    """The shared :class:`Unit` for ``(side, kind)``."""
    return _UNITS[side][kind]
