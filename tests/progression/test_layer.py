"""DESIGN.md "Layers": ``progression`` imports only ``engine`` and the standard library."""

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "admiral" / "progression"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module or "")
    return found


#: Pure computation libraries progression may use: Glicko-2 (PROGRESSION.md §4, ``rating.py``).
ALLOWED = {"glicko2"}


# progression (DESIGN.md): pure functions over the engine only (and a pure computation library)
@pytest.mark.parametrize("path", sorted(SRC.glob("*.py")), ids=lambda p: p.name)
def test_progression_imports_only_engine_and_stdlib(path):
    bad = {
        m
        for m in _imports(path)
        if m != "__future__"
        and not m.startswith(("admiral.games.admiral.rules", "admiral.games.common"))
        and m.split(".")[0] not in sys.stdlib_module_names
        and m not in ALLOWED
    }
    assert bad == set(), f"{path.name} imports {bad}"


def test_the_check_sees_imports():
    assert "admiral.games.admiral.rules" in _imports(SRC / "stats.py")
