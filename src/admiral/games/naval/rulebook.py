"""What the rules page of «Военно-морская игра» (``GET /rules/naval``) draws, computed by the engine itself
(issue 21: "the rules page explains the game with diagrams computed from the engine").

The page's prose lives in ``templates/rules_naval.html``; every picture and table whose content is a fact of the
rules comes from :mod:`.rules`, so it cannot disagree with the game:

- :func:`diagrams`: cut-outs of the map on constructed positions, each mark the engine's answer — a green dot where
  a legal step goes, a red ring on a legal strike, a grey cross where a step or a strike is refused (with the
  rules' code), the turns a ship may make;
- :func:`strike_table`: for each striker and target kind, the sides it may strike (§4, from
  :func:`~.rules.may_strike`);
- :func:`svg`: one diagram as an SVG picture (the map's intersections, land, coastal guns, mines, oriented ships).

Everything is computed once (the engine is deterministic) and cached.

>>> d = diagrams()["steps"]
>>> sorted(d.steps), sorted(d.refused), d.turns
(['e6'], ['d5', 'e4', 'f5'], ('left', 'right'))
>>> s = diagrams()["strikes"]
>>> sorted(s.strikes), s.blocked
(['e6'], (('d6', 'e6', 'stern'), ('f6', 'e6', 'bow_not_senior')))
>>> [row[0] for row in strike_table()][:3], strike_table()[0][1][-1]  # the battleship on a submarine
(['B', 'C', 'G'], 'broadside')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from html import escape

from .rules import (
    GUNS,
    HEIGHT,
    LAND,
    WIDTH,
    GameState,
    IllegalAction,
    Kind,
    Order,
    Side,
    Struck,
    may_strike,
    name,
    parse_point,
)

__all__ = ["LETTERS", "Diagram", "diagrams", "strike_table", "svg"]

#: The letter each kind's ship carries on the map (Russian; translated in the context ``"naval"``, as the client's
#: ``pt("naval", …)`` in ``static/js/games/naval/manifest.js``).
LETTERS = {"B": "Б", "C": "К", "G": "Кн", "T": "Мн", "M": "Тр", "S": "П"}


@dataclass(frozen=True)
class Diagram:
    """A cut-out of the map: ``id``; ``cols``/``rows`` the 0-based column and row ranges shown (inclusive);
    ``ships`` ``[(point, side label, kind code, facing letter)]``; ``mines`` points; ``selected`` the point of the
    ship (or ships) the marks are about; ``steps`` points a legal step reaches; ``strikes`` points a legal strike
    hits; ``refused`` point → the rules' refusal code for a step there; ``blocked`` the strikes the rules refuse,
    ``(striker's point, target's point, refusal code)``; ``turns`` the turns the selected ship may make (``"left"``,
    ``"right"``)."""

    id: str
    cols: tuple[int, int]
    rows: tuple[int, int]
    ships: tuple[tuple[str, str, str, str], ...]
    mines: tuple[str, ...] = ()
    selected: tuple[str, ...] = ()
    steps: frozenset[str] = frozenset()
    strikes: frozenset[str] = frozenset()
    refused: dict[str, str] = field(default_factory=dict)
    turns: tuple[str, ...] = ()
    blocked: tuple[tuple[str, str, str], ...] = ()


def _ships(state: GameState) -> tuple[tuple[str, str, str, str], ...]:
    out = []
    for side in Side:
        for p, ship in sorted(state.fleet(side).items()):
            out.append((name(p), side.label, ship.kind.code, ship.facing.letter))
    return tuple(out)


def _answer(state: GameState, text: str) -> str | None:
    """``None`` if the order is legal now, else the rules' refusal code."""
    try:
        state.check(Order.parse(text))
    except IllegalAction as e:
        return e.code
    return None


def _about(state: GameState, src: str, targets: list[str]) -> tuple[set[str], set[str], dict[str, str]]:
    """The engine's answers for the ship at ``src`` moving onto each of ``targets``: (steps, strikes, refused)."""
    steps, strikes, refused = set(), set(), {}
    occupied = {name(p) for side in Side for p in state.fleet(side)}
    for t in targets:
        strike = t in occupied
        code = _answer(state, f"{src}{'x' if strike else '-'}{t}")
        if code is None:
            (strikes if strike else steps).add(t)
        else:
            refused[t] = code
    return steps, strikes, refused


def _turns(state: GameState, src: str) -> tuple[str, ...]:
    return tuple(t for t, mark in (("left", "<"), ("right", ">")) if _answer(state, f"{src}{mark}") is None)


@cache
def diagrams() -> dict[str, Diagram]:
    """The page's diagrams by id (module docstring), each computed by the engine on its position:

    - ``start``: the whole map at the start (§1, §2);
    - ``steps``: a cruiser alone: one step bow first, a 90° turn either way; sideways and stern first refused (§3);
    - ``strikes``: an enemy gunboat facing east, struck from three sides: the cruiser from the south hits its
      broadside; a torpedo boat behind it would hit the stern, one ahead of it the bow, which only a senior ship may
      strike (§4);
    - ``senior``: the same bow, struck by the battleship (senior) and by a submarine, senior only to the battleship
      and the cruisers (§4);
    - ``guns``: North gunboats one step from a South coastal gun and from a mined point: each step is legal, and
      entering rolls the die (§5)."""
    out: dict[str, Diagram] = {}
    start = GameState.start(0)
    out["start"] = Diagram("start", (0, WIDTH - 1), (0, HEIGHT - 1), _ships(start))

    state = GameState.from_text("Ce5n / Bi13s")
    steps, strikes, refused = _about(state, "e5", ["e6", "d5", "f5", "e4"])
    out["steps"] = Diagram(
        "steps", (2, 6), (2, 7), _ships(state), selected=("e5",), steps=frozenset(steps),
        strikes=frozenset(strikes), refused=refused, turns=_turns(state, "e5"),
    )  # fmt: skip

    state = GameState.from_text("Ce5n Td6e Tf6w / Ge6e")
    answers = {src: _answer(state, f"{src}xe6") for src in ("e5", "d6", "f6")}
    out["strikes"] = Diagram(
        "strikes", (2, 6), (3, 7), _ships(state), selected=tuple(answers),
        strikes=frozenset("e6" for code in answers.values() if code is None),
        blocked=tuple((src, "e6", code) for src, code in answers.items() if code is not None),
    )  # fmt: skip

    state = GameState.from_text("Bf6w Sf4w / Ge6e Ce4e")
    answers = {(src, target): _answer(state, f"{src}x{target}") for src, target in (("f6", "e6"), ("f4", "e4"))}
    out["senior"] = Diagram(
        "senior", (2, 6), (2, 7), _ships(state), selected=("f6", "f4"),
        strikes=frozenset(target for (_src, target), code in answers.items() if code is None),
        blocked=tuple((src, target, code) for (src, target), code in answers.items() if code is not None),
    )  # fmt: skip

    state = GameState.from_text("Bi1n / Gb4s Ge5s / mines e4", to_move=Side.NORTH)
    entered = {src: _answer(state, f"{src}-{dst}") for src, dst in (("b4", "b3"), ("e5", "e4"))}
    out["guns"] = Diagram(
        "guns", (0, 5), (1, 5), _ships(state), mines=("e4",), selected=("b4", "e5"),
        steps=frozenset(dst for (src, code), dst in zip(entered.items(), ("b3", "e4"), strict=True) if code is None),
    )  # fmt: skip
    return out


def strike_table() -> list[tuple[str, list[str]]]:
    """§4 as a table: per striker kind (rank order), per target kind (rank order), what it may strike — ``"both"``
    (the bow and the broadside), ``"broadside"`` (the broadside only); the stern is never struck.

    >>> dict(strike_table())["S"]
    ['both', 'both', 'broadside', 'broadside', 'broadside', 'broadside']
    """
    out = []
    for striker in Kind:
        row = []
        for target in Kind:
            bow = may_strike(striker, target, Struck.BOW)
            assert may_strike(striker, target, Struck.BROADSIDE) and not may_strike(striker, target, Struck.STERN)
            row.append("both" if bow else "broadside")
        out.append((striker.code, row))
    return out


#: Pixels between two intersections, and the margin for the labels.
STEP, MARGIN = 40, 26
_SHIP_R = 14


def svg(d: Diagram, labels: dict[str, str] | None = None, title: str = "") -> str:
    """``d`` as an SVG picture (a string of markup, trusted: every text in it is a point name, a kind code or
    ``title``, escaped). North is up; ``labels``: kind code → the letter drawn on its ships (the reader's language;
    default the codes). Classes: ``land``, ``gun-south``/``gun-north``, ``mine``, ``ship side-…``, ``selected``,
    ``mark step``/``strike``/``refused``, ``turn``."""
    labels = labels or {}
    c0, c1 = d.cols
    r0, r1 = d.rows
    w = (c1 - c0) * STEP + 2 * MARGIN
    h = (r1 - r0) * STEP + 2 * MARGIN

    def xy(point: str) -> tuple[int, int]:
        p = parse_point(point)
        col, row = p % WIDTH, p // WIDTH
        return MARGIN + (col - c0) * STEP, MARGIN + (r1 - row) * STEP

    def inside(point: str) -> bool:
        p = parse_point(point)
        return c0 <= p % WIDTH <= c1 and r0 <= p // WIDTH <= r1

    parts = [
        f'<svg class="naval-diagram" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        f'aria-label="{escape(title)}" data-diagram="{d.id}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect class="sea" x="0" y="0" width="{w}" height="{h}"/>')
    for col in range(c0, c1 + 1):
        x = MARGIN + (col - c0) * STEP
        parts.append(f'<line class="grid" x1="{x}" y1="{MARGIN}" x2="{x}" y2="{h - MARGIN}"/>')
        parts.append(f'<text class="label" x="{x}" y="{h - 6}" text-anchor="middle">{"abcdefghi"[col]}</text>')
    for row in range(r0, r1 + 1):
        y = MARGIN + (r1 - row) * STEP
        parts.append(f'<line class="grid" x1="{MARGIN}" y1="{y}" x2="{w - MARGIN}" y2="{y}"/>')
        parts.append(f'<text class="label" x="8" y="{y + 4}" text-anchor="middle">{row + 1}</text>')
    for p in sorted(LAND):
        if inside(name(p)):
            x, y = xy(name(p))
            parts.append(f'<rect class="land" x="{x - 16}" y="{y - 16}" width="32" height="32" rx="10"/>')
    for side, guns in zip(("south", "north"), GUNS, strict=True):
        for p in sorted(guns):
            if inside(name(p)):
                x, y = xy(name(p))
                parts.append(
                    f'<path class="gun gun-{side}" d="M{x} {y - 17} L{x + 5} {y - 5} L{x + 17} {y} L{x + 5} {y + 5} '
                    f'L{x} {y + 17} L{x - 5} {y + 5} L{x - 17} {y} L{x - 5} {y - 5} Z"/>'
                )
    for m in d.mines:
        x, y = xy(m)
        parts.append(f'<circle class="mine" cx="{x}" cy="{y}" r="17"/>')
    for point in sorted(d.steps):
        x, y = xy(point)
        parts.append(f'<circle class="mark step" cx="{x}" cy="{y}" r="7" data-point="{point}"/>')
    for point, code in sorted(d.refused.items()):
        x, y = xy(point)
        parts.append(
            f'<path class="mark refused" data-point="{point}" data-code="{code}" '
            f'd="M{x - 8} {y - 8} L{x + 8} {y + 8} M{x + 8} {y - 8} L{x - 8} {y + 8}"/>'
        )
    for point, side, code, facing in d.ships:
        if not inside(point):
            continue
        x, y = xy(point)
        angle = {"n": 0, "e": 90, "s": 180, "w": 270}[facing]
        sel = " selected" if point in d.selected else ""
        parts.append(
            f'<g class="ship side-{side}{sel}" data-point="{point}" data-kind="{code}" data-facing="{facing}" '
            f'transform="translate({x} {y})"><path class="hull" transform="rotate({angle})" '
            f'd="M0 -{_SHIP_R + 4} L{_SHIP_R - 3} -2 L{_SHIP_R - 3} {_SHIP_R} L-{_SHIP_R - 3} {_SHIP_R} '
            f'L-{_SHIP_R - 3} -2 Z"/><text class="code" y="5" text-anchor="middle">'
            f"{escape(labels.get(code, code))}</text></g>"
        )
    for point in sorted(d.strikes):
        x, y = xy(point)
        parts.append(f'<circle class="mark strike" cx="{x}" cy="{y}" r="19" data-point="{point}"/>')
    for src, dst, code in d.blocked:  # on the way from the striker to its target, over both
        (x1, y1), (x2, y2) = xy(src), xy(dst)
        x, y = (x1 + x2) // 2, (y1 + y2) // 2
        parts.append(
            f'<path class="mark blocked" data-point="{src}" data-target="{dst}" data-code="{code}" '
            f'd="M{x - 7} {y - 7} L{x + 7} {y + 7} M{x + 7} {y - 7} L{x - 7} {y + 7}"/>'
        )
    for sel in d.selected[:1]:
        if d.turns:
            x, y = xy(sel)
            for turn in d.turns:
                sx = -1 if turn == "left" else 1
                parts.append(
                    f'<path class="turn" data-turn="{turn}" d="M{x} {y - 24} A 24 24 0 0 {1 if sx > 0 else 0} '
                    f'{x + 24 * sx} {y}"/>'
                )
    parts.append("</svg>")
    return "".join(parts)
