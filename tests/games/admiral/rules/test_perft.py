"""Perft files: fixed positions with their exact legal-action counts, pinned forever (rules §4–§8).

Like python-chess's perft files, the positions are data (``perft/*.json`` beside this file): the position text of
:meth:`GameState.to_text` (South ``/`` North), the side to move, optional actions to play first (a pending
declaration), the number of legal actions, their breakdown by type, and where the count was derived by hand the
whole action list (the ``notes`` say how). ``perft`` holds node counts at depth 2 and 3 (depth 1 is ``legal``);
``branches`` holds hand-checked counts of single depth-2 branches.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from admiral.games.admiral.rules import (
    Action,
    Attack,
    Declare,
    Detonate,
    GameState,
    Move,
    Side,
    apply,
    has_legal_action,
    legal_actions,
    parse_cell,
)

PERFT_DIR = Path(__file__).parent / "perft"
FILES = sorted(PERFT_DIR.glob("*.json"))
POSITIONS = [(f.stem, p) for f in FILES for p in json.loads(f.read_text(encoding="utf-8"))["positions"]]


def breakdown(actions: list[Action]) -> dict[str, int]:
    """Counts by type; ``with_formation`` counts the attacks (either kind) that declare a formation."""
    out = dict.fromkeys(("moves", "attacks", "move_attacks", "with_formation", "detonations", "declarations"), 0)
    for a in actions:
        if type(a) is Move:
            out["moves"] += 1
        elif type(a) is Attack:
            out["attacks" if a.via is None else "move_attacks"] += 1
            out["with_formation"] += bool(a.formation)
        elif type(a) is Detonate:
            out["detonations"] += 1
        elif type(a) is Declare:
            out["declarations"] += 1
        else:  # pragma: no cover - legal_actions lists nothing else
            raise AssertionError(f"unexpected action {a!r}")
    return out


def perft(state: GameState, depth: int) -> int:
    """Leaf nodes of the tree of legal actions ``depth`` plies deep (a finished game is a dead end)."""
    actions = legal_actions(state)
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.copy()
        apply(child, a)
        total += perft(child, depth - 1)
    return total


def build(p: dict) -> GameState:
    state = GameState.from_text(p["position"], Side.parse(p["to_move"]))
    for a in p.get("play", []):
        apply(state, Action.parse(a))
    return state


IDS = [f"{stem}:{p['id']}" for stem, p in POSITIONS]


@pytest.mark.parametrize(("stem", "p"), POSITIONS, ids=IDS)
class TestPerft:
    def test_position_text_is_canonical(self, stem, p):
        assert GameState.from_text(p["position"]).to_text() == p["position"]

    def test_count_and_breakdown(self, stem, p):  # rules §4.2
        state = build(p)
        actions = legal_actions(state)
        assert len(actions) == p["legal"]
        assert len(set(actions)) == len(actions)  # no action listed twice
        assert breakdown(actions) == p["by_type"]
        assert sum(v for k, v in p["by_type"].items() if k != "with_formation") == p["legal"]
        assert has_legal_action(state) is (p["legal"] > 0)

    def test_action_lists_derived_by_hand(self, stem, p):
        actions = [str(a) for a in legal_actions(build(p))]
        if "actions" in p:
            assert sorted(actions) == sorted(p["actions"])
        for cell, expected in p.get("units", {}).items():
            src = parse_cell(cell)
            got = [str(a) for a in legal_actions(build(p)) if getattr(a, "src", None) == src]
            assert sorted(got) == sorted(expected), cell
        assert "actions" in p or "units" in p

    def test_every_listed_action_applies(self, stem, p):
        state = build(p)
        for a in legal_actions(state):
            child = state.copy()
            events = apply(child, a)
            assert events and child.ply == state.ply + 1
        assert state == build(p)  # listing and applying on copies changed nothing

    def test_branches_checked_by_hand(self, stem, p):
        state = build(p)
        for action, n in p.get("branches", {}).items():
            child = state.copy()
            apply(child, Action.parse(action))
            assert len(legal_actions(child)) == n, action

    def test_perft(self, stem, p):
        state = build(p)
        for depth, n in p.get("perft", {}).items():
            assert perft(state, int(depth)) == n, depth


def test_the_files_cover_every_kind_of_action():
    """The pinned positions keep exercising steps, attacks, formations, detonations and declarations."""
    assert [f.name for f in FILES] == ["middlegame.json", "opening.json", "pending.json", "weapons.json"]
    totals = dict.fromkeys(("moves", "attacks", "move_attacks", "with_formation", "detonations", "declarations"), 0)
    for _, p in POSITIONS:
        for k, v in p["by_type"].items():
            totals[k] += v
    assert all(totals.values()), totals
