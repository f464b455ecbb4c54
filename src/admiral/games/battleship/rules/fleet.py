"""Rule sets as data: the grid, the fleet, placement and turn rules, and what answers tell (rules A, B, D).

A :class:`Rules` value is everything the engine needs to know about a variant; the engine has no ``if classic``.
The extended variant (C) extends this: another grid and fleet, mines as more figure classes, and per-shot effects
in a :class:`~.state.GameState` subclass.

>>> r = rules_from_options({"rules": "hasbro", "salvo": True})
>>> r.key, r.salvo, r.named, r.touching, [s.code for s in r.fleet], r.decks
('hasbro', True, True, True, ['C', 'B', 'D', 'S', 'P'], 17)
>>> CLASSIC.ships, CLASSIC.decks, CLASSIC.ship_class("3").count
(10, 20, 2)
>>> options_of(CLASSIC)
{'rules': 'classic', 'salvo': False, 'named': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .board import BOARD, Board
from .errors import IllegalAction

__all__ = ["CLASSIC", "HASBRO", "RULES", "Rules", "ShipClass", "options_of", "rules_from_options"]


@dataclass(frozen=True, slots=True)
class ShipClass:
    """One class of ship: ``code`` (the setup code, upper case), ``size`` (decks), ``count`` (ships of this class
    in a fleet) and ``name`` (English)."""

    code: str
    size: int
    count: int
    name: str


@dataclass(frozen=True)
class Rules:
    """A variant of «Морской бой».

    - ``key``: ``"classic"`` (A) or ``"hasbro"`` (B); ``board``: the grid of each player;
    - ``fleet``: the ship classes, biggest first (the order of views and setup texts);
    - ``touching``: ships may touch by side or corner (B1); ``False`` is the no-touch rule (A2), which also
      makes the ring around a sunk ship known empty (A6);
    - ``again_on_hit``: a hit or a sinking gives the shooter another shot (A5); otherwise the turn passes after
      every shot (B2) or at the end of a salvo (B3);
    - ``salvo``: a turn is as many shots as the shooter's ships afloat, capped by the unshot cells (B3, D3);
    - ``named``: answers name the ship hit and sunk (B2); ``False`` is «hits not named» (D4);
    - ``names_hits`` / ``names_sinkings``: what the answers tell the shooter about the ship: its code on every hit
      (Hasbro, named), or on the last deck only (classic: «убит» shows the sunk ship's cells, so its size, A6).
      Neither for hits not named (D4), where a sinking shows no cells either.
    """

    key: str
    board: Board
    fleet: tuple[ShipClass, ...]
    touching: bool
    again_on_hit: bool
    salvo: bool = False
    named: bool = True
    _by_code: dict[str, ShipClass] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {s.code: s for s in self.fleet + self.figures})

    def ship_class(self, code: str) -> ShipClass:
        """The class with setup code ``code`` (exact, upper case), a figure's too (:attr:`figures`).

        :raises KeyError: for another code."""
        return self._by_code[code]

    @property
    def figures(self) -> tuple[ShipClass, ...]:
        """One-cell figures that are not ships (C1, C2, D5: the extended variant's mines and minesweepers), each a
        :class:`ShipClass` of size 1 with its ``count``: placed in a setup under the same no-touch rule, never
        part of the fleet. None in A and B; a variant's subclass overrides this."""
        return ()

    @property
    def codes(self) -> tuple[str, ...]:
        """The ship codes, fleet order."""
        return tuple(s.code for s in self.fleet)

    @property
    def setup_codes(self) -> tuple[str, ...]:
        """Every code a setup may hold: the ships' (fleet order), then the figures' (:attr:`figures`)."""
        return self.codes + tuple(f.code for f in self.figures)

    def is_figure(self, code: str) -> bool:
        """Whether ``code`` is a figure's (:attr:`figures`), not a ship's."""
        return any(f.code == code for f in self.figures)

    @property
    def ships(self) -> int:
        """Ships in a fleet (A2: 10; B1: 5)."""
        return sum(s.count for s in self.fleet)

    @property
    def decks(self) -> int:
        """Decks in a fleet (A2: 20; B1: 17)."""
        return sum(s.count * s.size for s in self.fleet)

    @property
    def names_hits(self) -> bool:
        """Whether a hit's answer names the ship (B2)."""
        return self.key == "hasbro" and self.named

    @property
    def names_sinkings(self) -> bool:
        """Whether a sinking's answer identifies the ship: by name (B2) or by its cells, so its size (A6)."""
        return self.named

    @property
    def shows_sunk_cells(self) -> bool:
        """Whether the shooter is shown the cells of a ship it sank (A6; B2 named: they are its named hits)."""
        return self.named


#: Rule set A (classic paper rules): 1×4, 2×3, 3×2, 4×1 on 10×10, no touching, a hit shoots again.
CLASSIC = Rules(
    "classic",
    BOARD,
    (
        ShipClass("4", 4, 1, "four-decker"),
        ShipClass("3", 3, 2, "three-decker"),
        ShipClass("2", 2, 3, "two-decker"),
        ShipClass("1", 1, 4, "one-decker"),
    ),
    touching=False,
    again_on_hit=True,
)
#: Rule set B (Hasbro A3264): carrier 5, battleship 4, destroyer 3, submarine 3, patrol boat 2; touching allowed.
HASBRO = Rules(
    "hasbro",
    BOARD,
    (
        ShipClass("C", 5, 1, "carrier"),
        ShipClass("B", 4, 1, "battleship"),
        ShipClass("D", 3, 1, "destroyer"),
        ShipClass("S", 3, 1, "submarine"),
        ShipClass("P", 2, 1, "patrol boat"),
    ),
    touching=True,
    again_on_hit=False,
)
#: The base rule sets by key.
RULES: dict[str, Rules] = {"classic": CLASSIC, "hasbro": HASBRO}

#: The room options and their defaults (the first value of each is the default).
_OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "rules": ("classic", "hasbro"),
    "salvo": (False, True),
    "named": (True, False),
}
#: Options that matter only under some rule sets (D3, D4): name → rule-set keys.
_APPLIES = {"salvo": ("hasbro",), "named": ("hasbro",)}


def rules_from_options(options: Mapping[str, Any] | None) -> Rules:
    """The :class:`Rules` of room options ``{"rules": "classic"|"hasbro", "salvo": bool, "named": bool}``
    (missing keys take their defaults: classic, no salvo, named).

    An option that does not apply to the rule set (``salvo``, ``named`` under classic) is refused when it is set to
    anything but its default: a room «Классика, залп» would promise a game the rules do not have (D3, D4).

    :raises IllegalAction: ``bad_options`` naming the unknown key, the bad value or the option that does not apply.
    """
    options = dict(options or {})
    for name, value in options.items():
        allowed = _OPTION_VALUES.get(name)
        if allowed is None:
            reason = f"unknown option {name!r} (options: {', '.join(_OPTION_VALUES)})"
            raise IllegalAction("bad_options", reason, {"why": "unknown", "option": name})
        if not any(type(value) is type(a) and value == a for a in allowed):
            reason = f"option {name!r} must be one of {list(allowed)}, not {value!r}"
            raise IllegalAction("bad_options", reason, {"why": "choice", "option": name, "value": value})
    key = options.get("rules", "classic")
    for name, keys in _APPLIES.items():
        if name in options and key not in keys and options[name] != _OPTION_VALUES[name][0]:
            reason = f"option {name!r} applies only under the rules {', '.join(keys)}, not {key!r}"
            detail = {"why": "not_applicable", "option": name, "rules": list(keys)}
            raise IllegalAction("bad_options", reason, detail)
    base = RULES[key]
    if key != "hasbro":
        return base
    return replace(base, salvo=options.get("salvo", False), named=options.get("named", True))


def options_of(rules: Rules) -> dict[str, Any]:
    """The normalised room options of ``rules`` (every key, JSON-ready): what is stored with a game."""
    return {"rules": rules.key, "salvo": rules.salvo, "named": rules.named}
