"""A bot sees only what a human in its seat sees (rules §11, §12; issue 4).

- By construction: no bot module imports the view function, the game, the record or the state
  module; :class:`GameState` is named only in ``ai/world.py``, and only to call ``from_board`` on the
  bot's own guesses; the bot API takes views, never states.
- By behaviour: two different hidden truths that give the same views give the same choices.
"""

from __future__ import annotations

import ast
import inspect
import random
import typing
from pathlib import Path

import pytest

from admiral.games.admiral.bots import HeuristicBot, RandomBot, make_bot
from admiral.games.admiral.rules import Game, GameState, Kind, PlayerView, Side, auto_arrange
from admiral.games.admiral.rules.board import FRONT_ROW

AI = Path(__file__).resolve().parents[4] / "src" / "admiral" / "games" / "admiral" / "bots"
BOT_MODULES = sorted(p for p in AI.glob("*.py") if p.name != "tournament.py")
#: What a bot module may never import: the truth and the door it passes through.
FORBIDDEN_NAMES = {"view", "Game", "GameRecord", "Pending", "GameState"}
FORBIDDEN_MODULES = {
    "admiral.games.admiral.rules.state",
    "admiral.games.admiral.rules.view",
    "admiral.games.admiral.rules.record",
    "admiral.games.admiral.bots.tournament",
}


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) pairs imported by ``path``, relative imports resolved; name None for ``import m``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, None) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["admiral", "games", "admiral", "bots"][: 5 - node.level]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.extend((mod, a.name) for a in node.names)
    return out


def test_the_check_sees_the_bot_modules() -> None:
    names = {p.name for p in BOT_MODULES}
    assert {"bots.py", "belief.py", "world.py", "setups.py"} <= names
    assert ("admiral.games.admiral.rules", "GameState") in _imports(AI / "world.py")


@pytest.mark.parametrize("path", BOT_MODULES, ids=lambda p: p.name)
def test_bot_modules_never_import_the_truth(path: Path) -> None:
    bad = []
    for mod, name in _imports(path):
        if mod in FORBIDDEN_MODULES or (
            mod.startswith("admiral.games.admiral.rules.state") or mod == "admiral.games.admiral.rules.view"
        ):
            bad.append((mod, name))
        if mod.startswith("admiral") and not mod.startswith(
            ("admiral.games.admiral.rules", "admiral.games.admiral.bots")
        ):
            bad.append((mod, name))  # DESIGN.md: ai imports only engine
        if name in FORBIDDEN_NAMES and not (path.name == "world.py" and name == "GameState"):
            bad.append((mod, name))
    assert bad == [], f"{path.name} imports {bad}"


def test_world_uses_game_state_only_to_build_guesses() -> None:
    tree = ast.parse((AI / "world.py").read_text(encoding="utf-8"))
    uses = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "GameState"
    ]
    assert [u.attr for u in uses] == ["from_board"]


@pytest.mark.parametrize("cls", [RandomBot, HeuristicBot])
def test_the_bot_api_takes_views_not_states(cls: type) -> None:
    for method in ("observe", "act"):
        hints = typing.get_type_hints(getattr(cls, method))
        assert hints["view"] is PlayerView
        assert GameState not in hints.values()
    assert list(inspect.signature(cls.setup).parameters) == ["self", "side"]


def _two_truths(seed: int) -> tuple[dict, dict, dict]:
    """South's setup, and two North setups that differ only in the kinds of two back-row units."""
    rng = random.Random(seed)
    south = auto_arrange(Side.SOUTH, rng)
    north = auto_arrange(Side.NORTH, rng)
    back = [c for c, k in north.items() if c not in FRONT_ROW[Side.NORTH] and k in (Kind.L, Kind.TR)]
    a = next(c for c in back if north[c] is Kind.L)
    b = next(c for c in back if north[c] is Kind.TR)
    other = dict(north)
    other[a], other[b] = north[b], north[a]
    return south, north, other


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_same_views_same_choices_under_two_hidden_truths(level: int) -> None:
    """North's bot plays game one; the same actions replayed on a second truth (two hidden North units
    swapped) give South identical views, and South's bot (same seed) makes identical choices."""
    south_setup, north_a, north_b = _two_truths(11)
    games = [Game(south_setup, north_a), Game(south_setup, north_b)]
    bots = [make_bot(level, 5), make_bot(level, 5)]
    for bot in bots:
        bot.setup(Side.SOUTH)
    north_bot = make_bot(1, 9)
    choices: list[list[str]] = [[], []]
    while games[0].ply < 40 and games[0].state.result is None:
        state = games[0].state
        if state.to_act is Side.SOUTH:
            views = [g.view(Side.SOUTH, since=max(0, g.ply - 2)) for g in games]
            if views[0].to_dict() != views[1].to_dict():
                break  # a battle revealed one of the swapped units: the truths are no longer hidden
            actions = [bot.act(v, 30.0) for bot, v in zip(bots, views, strict=True)]
            for i, a in enumerate(actions):
                choices[i].append(str(a))
            action = actions[0]
        else:
            action = north_bot.act(games[0].view(Side.NORTH, since=games[0].ply), 30.0)
        for g in games:
            g.apply(action)
    assert len(choices[0]) >= 10
    assert choices[0] == choices[1]
