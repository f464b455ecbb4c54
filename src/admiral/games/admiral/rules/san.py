"""Readable notation with unit kinds, like chess SAN: ``e4-e5xe6 [Л+Л]`` (rules §7.1 declarations).

The canonical notation (:mod:`admiral.games.admiral.rules.actions`) names formation members by cell and needs no
position. This one names them by Russian kind code, as players say it, and is resolved against a
position: members get their cells only where the kinds alone would be ambiguous (``[Лd5+Лe5]``).

>>> from admiral.games.admiral.rules import GameState, Side, legal_actions
>>> s = GameState.from_text("Le5 Ld5 VMBa1 / KRe6 VMBa15")
>>> a = parse_san(s, "e5xe6 [Л+Л]")
>>> str(a), format_san(s, a)
('e5xe6 [d5+e5]', 'e5xe6 [Л+Л]')
"""

from __future__ import annotations

import re
from collections import Counter

from .actions import Action, Attack, Declare
from .board import Cell, cell_name, parse_cell
from .errors import IllegalAction
from .state import GameState, formations_at, legal_actions
from .units import Kind

__all__ = ["format_san", "parse_san"]

_SPLIT_RE = re.compile(r"(.*?)\s*\[([^\]]*)\]\s*")
_MEMBER_RE = re.compile(r"([A-ZА-ЯЁ]+)?([a-n][0-9]{1,2})?")


def _members(state: GameState, cells: tuple[Cell, ...], with_cells: bool) -> str:
    board = state.board
    return "[" + "+".join(board[c].kind.ru + (cell_name(c) if with_cells else "") for c in cells) + "]"


def _kinds(state: GameState, cells: tuple[Cell, ...]) -> Counter:
    return Counter(state.board[c].kind for c in cells)


def _alternatives(state: GameState, action: Action) -> list[tuple[Cell, ...]]:
    """The declarations open in place of ``action``'s: the attacker's formations where it strikes
    from (``state`` already shows a move-then-attack's step), or the defender's options."""
    if isinstance(action, Attack):
        return formations_at(state.board, action.origin)
    return list(state.pending.options) if state.pending else []


def format_san(state: GameState, action: Action) -> str:
    """``action`` (legal in ``state``) with its declaration written by kinds, e.g. ``e4-e5xe6 [Л+Л]``."""
    formation = getattr(action, "formation", ())
    if not formation:
        return str(action)
    if isinstance(action, Attack) and action.via is not None:
        # Members stand where the attacker will be after its step: describe them on the board after it.
        state = state.copy()
        state.board[action.src], state.board[action.via] = None, state.board[action.src]
    kinds = _kinds(state, formation)
    ambiguous = sum(1 for f in _alternatives(state, action) if _kinds(state, f) == kinds) > 1
    head = "" if isinstance(action, Declare) else str(Attack(action.src, action.target, action.via)) + " "
    return head + _members(state, formation, ambiguous)


def parse_san(state: GameState, text: str) -> Action:
    """Read an action whose declaration may be written by kinds (``e5xe6 [Л+Л]``, ``[КР+КР]``) or by
    kinds and cells (``[Лd5+Лe5]``), resolved against the legal actions of ``state``. Canonical notation
    is accepted too.

    :raises IllegalAction: ``bad_notation``; ``bad_formation`` when no legal declaration matches;
        ``ambiguous`` when several do (add the cells).
    """
    try:
        return Action.parse(text)
    except IllegalAction:
        pass
    m = _SPLIT_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        return Action.parse(text)  # raises the canonical parser's error
    head, inner = m.group(1), m.group(2)
    wanted: list[tuple[Kind | None, Cell | None]] = []
    for token in inner.split("+"):
        t = _MEMBER_RE.fullmatch(token.strip())
        if t is None or not (t.group(1) or t.group(2)):
            raise IllegalAction("bad_notation", f"cannot read the formation member {token!r}")
        wanted.append((Kind.parse(t.group(1)) if t.group(1) else None, parse_cell(t.group(2)) if t.group(2) else None))
    base = Action.parse(head) if head else None
    candidates = []
    for a in legal_actions(state):
        if base is None:
            if not isinstance(a, Declare):
                continue
        elif not isinstance(a, Attack) or (a.src, a.via, a.target) != (base.src, base.via, base.target):
            continue
        origin = a.formation if isinstance(a, Declare) else (a.formation or (a.origin,))
        if len(origin) == len(wanted) and _matches(state, a, origin, wanted):
            candidates.append(a)
    if not candidates:
        raise IllegalAction("bad_formation", f"no legal declaration matches {text!r}")
    if len(candidates) > 1:
        raise IllegalAction("ambiguous", f"{text!r} matches several formations: name the member cells")
    return candidates[0]


def _matches(state: GameState, action: Action, cells: tuple[Cell, ...], wanted: list) -> bool:
    board = state.board
    kinds: dict[Cell, Kind] = {}
    for c in cells:
        if isinstance(action, Attack) and action.via is not None and c == action.via:
            kinds[c] = board[action.src].kind
        else:
            kinds[c] = board[c].kind
    free = dict(kinds)
    for kind, cell in sorted(wanted, key=lambda w: w[1] is None):
        pick = next((c for c in free if (cell is None or c == cell) and (kind is None or free[c] is kind)), None)
        if pick is None:
            return False
        del free[pick]
    return True
