"""A toy game for the session tier: the least a game of the house must be, and nothing of any real game.

«Двадцать»: each side hides one flag on ``a1``–``a3`` (its setup, ``{cell: "F"}``); the sides take turns adding
1 or 2 to a shared total (``"+1"``, ``"+2"``), and whoever brings it to :data:`TARGET` wins. A side's flag is
hidden from the other side and from spectators until the end (the one view function, :meth:`ToyRules.view`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from admiral.games import SIDES, Applied, GameInfo, RuleError

TARGET = 20
CELLS = ("a1", "a2", "a3")
INFO = GameInfo("toy", "Двадцать", levels={1: "Счётчик"}, setup_minutes=0)


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass
class ToyGame:
    """The true state: both flags, the total, the actions so far and the result."""

    setups: dict[str, dict[str, str]]
    settings: dict[str, Any]
    actions: list[str] = field(default_factory=list)
    total: int = 0
    result: dict[str, Any] | None = None

    @property
    def to_act(self) -> str | None:
        return None if self.result is not None else SIDES[len([a for a in self.actions if a[0] == "+"]) % 2]


class ToyRules:
    """The core :class:`~admiral.games.Ruleset` of «Двадцать»: no options, no capabilities, one bot level."""

    info = INFO

    def manifest(self) -> dict[str, Any]:
        return {"key": "toy", "cells": list(CELLS)}

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        if raw:
            raise RuleError("bad_options", "«Двадцать» has no options")
        return {}

    def setup_variant(self, options: Mapping[str, Any]) -> str:
        return "toy"

    def setup_problems(
        self, side: str, setup: Mapping[str, str], *, complete: bool, options: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        bad = [c for c, k in setup.items() if c not in CELLS or k != "F"]
        problems = [{"code": "bad_cell", "message": f"no flag can stand on {c}", "cells": [c]} for c in bad]
        if len(setup) > 1 or (complete and len(setup) != 1):
            problems.append({"code": "one_flag", "message": "exactly one flag", "cells": sorted(setup)})
        return problems

    def auto_setup(
        self,
        side: str,
        seed: int,
        partial: Mapping[str, str],
        options: Mapping[str, Any],
        style: str | None = None,
        *,
        fixed: bool = False,
    ) -> dict[str, str]:
        return dict(partial) if len(partial) == 1 else {CELLS[seed % 3]: "F"}

    def canonical_setup(self, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        return dict(setup)

    def draft_setup(self, side: str, setup: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
        return dict(setup)

    def new_game(self, setups: Mapping[str, Mapping[str, str]], settings: Mapping[str, Any]) -> ToyGame:
        return ToyGame({s: dict(setups[s]) for s in SIDES}, dict(settings))

    def copy(self, game: ToyGame) -> ToyGame:
        return ToyGame(game.setups, game.settings, list(game.actions), game.total, game.result)

    def parse_player_action(self, text: str) -> str:
        if text not in ("+1", "+2"):
            raise RuleError("bad_notation", f"not an action: {text!r}")
        return text

    def apply(self, game: ToyGame, action: str) -> Applied:
        if game.result is not None:
            raise RuleError("game_over", "the game is over")
        side = game.to_act
        kind, _, who = action.partition(":")
        if kind in ("+1", "+2"):
            game.total += int(kind[1])
            game.actions.append(action)
            if game.total >= TARGET:
                game.result = {"winner": side, "reason": "target"}
            return Applied(side, True, side)
        if kind in ("resign", "flag", "abandon") and who in SIDES:
            game.actions.append(action)
            game.result = {"winner": _other(who), "reason": kind}
            return Applied(who, False, None)
        if kind == "draw":
            game.actions.append(action)
            game.result = {"winner": None, "reason": "agreement"}
            return Applied(None, False, None)
        raise RuleError("bad_notation", f"not an action: {action!r}")

    def end_action(self, kind: str, side: str | None) -> str:
        return "draw" if kind == "draw" else f"{kind}:{side}"

    def ply(self, game: ToyGame) -> int:
        return len(game.actions)

    def to_act(self, game: ToyGame) -> str | None:
        return game.to_act

    def view(self, game: ToyGame, audience: str) -> dict[str, Any]:
        flags = {s: game.setups[s] if audience in (s, "full") else None for s in SIDES}
        legal = [{"type": "add", "n": n, "notation": f"+{n}"} for n in (1, 2)] if audience == game.to_act else []
        return {"total": game.total, "flags": flags, "legal": legal, "result": game.result}

    def result(self, game: ToyGame) -> dict[str, Any] | None:
        return game.result

    def record(self, game: ToyGame) -> dict[str, Any]:
        return {"setups": game.setups, "actions": game.actions, "settings": game.settings}

    def record_json(self, game: ToyGame) -> str:
        return json.dumps(self.record(game))

    def replay(self, game: ToyGame) -> dict[str, Any]:
        return self.record(game)

    def game_stats(self, game: ToyGame) -> dict[str, Any]:
        return {"total": game.total}

    def new_bot(self, level: int, seed: int, options: Mapping[str, Any]) -> dict[str, int]:
        return {"level": level, "seen": 0}

    def bot_setup(self, bot: Any, side: str) -> dict[str, str]:
        return {"a2": "F"}

    def bot_view(self, game: ToyGame, side: str, since: int) -> dict[str, Any]:
        return self.view(game, side)

    def bot_act(self, bot: Any, view: Any, deadline_s: float) -> str:
        return f"+{(TARGET - view['total']) % 3 or 1}"  # leave a total ≡ TARGET (mod 3): the winning line

    def bot_catch_up(self, bot: Any, game: ToyGame, side: str) -> int:
        bot["seen"] = len(game.actions)
        return bot["seen"]


TOY = ToyRules()
