"""The rules of «Морской бой» are pure (DESIGN "layers"): standard library only, nothing else of the project but the
house's shared rule types (``admiral.games.common``), not even the catalogs; only the adapter (``ruleset.py``)
and the package's ``__init__`` speak to the house."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import admiral.games.battleship as package

RULES = Path(package.__file__).parent / "rules"
FILES = sorted(RULES.glob("*.py"))


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_rules_import_only_the_standard_library_and_themselves(path):
    outside = {m for m in imports(path) if not m.startswith(".") and m.split(".")[0] != "__future__"}
    assert {m.split(".")[0] for m in outside} <= set(sys.stdlib_module_names), f"{path.name} imports {outside}"
    # out of the rules package only to the house's shared rule types (admiral.games.common: standard library only)
    assert {m for m in imports(path) if m.startswith("..")} <= {"...common"}, f"{path.name} reaches out"


def test_the_check_sees_imports():
    assert "." + "board" in imports(RULES / "state.py") and "dataclasses" in imports(RULES / "state.py")
    assert len(FILES) >= 8
