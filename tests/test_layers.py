"""The house plan's import rules (DESIGN.md "Layers"), checked on the source with :mod:`ast`.

- «Адмирал»'s rules (``admiral.games.admiral.rules``, the engine) import nothing of the project but the house's
  shared rule types (``admiral.games.common``, standard library only); its lessons
  (``admiral.games.admiral.tutorial``, data) import only those rules;
- nothing but ``admiral.web`` imports FastAPI or Starlette;
- imports point down: ``store``/``bus`` never import ``service``/``web``; ``service`` never imports ``web``;
- a game's rules (``admiral.games.<key>.rules``) import nothing of the project but themselves,
  ``admiral.games.common`` (which imports nothing of the project) and, for a variant, its base game's rules (the
  extended «Морской бой» extends the classic one, :data:`VARIANT_BASES`), and no game
  imports the session, web, store or bus layers;
- generic code (``service``, ``store``, ``bus``, ``web``) imports no game's own modules: it knows games only through the
  registry (``admiral.games``) and the protocol; of ``admiral.progression`` it takes only the ranks (issue 17).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "admiral"


def _imports(path: Path) -> set[str]:
    """Absolute module names imported by ``path`` (relative imports resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["admiral", *path.relative_to(SRC).parent.parts]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.add(mod)
    return found


def _files(sub: str) -> list[Path]:
    return sorted((SRC / sub).rglob("*.py"))


#: What every game's rules share (:mod:`admiral.games.common`): standard library only.
COMMON = "admiral.games.common"


def test_the_shared_rule_types_import_nothing_of_the_project() -> None:
    bad = {m for m in _imports(SRC / "games" / "common.py") if m.startswith("admiral")}
    assert bad == set()


def _layer(mod: str) -> str | None:
    parts = mod.split(".")
    return parts[1] if parts[0] == "admiral" and len(parts) > 1 else None


@pytest.mark.parametrize("path", _files("games/admiral/rules"), ids=lambda p: p.name)
def test_engine_imports_nothing_of_the_project(path: Path) -> None:
    own = ("admiral.games.admiral.rules", COMMON)
    bad = {m for m in _imports(path) if m.startswith("admiral") and not m.startswith(own)}
    assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize("path", _files("games/admiral/tutorial"), ids=lambda p: p.name)
def test_tutorial_imports_only_the_engine(path: Path) -> None:
    own = ("admiral.games.admiral.rules", "admiral.games.admiral.tutorial", COMMON)
    bad = {m for m in _imports(path) if m.startswith("admiral") and not m.startswith(own)}
    assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize("path", _files("games/naval/tutorial"), ids=lambda p: p.name)
def test_naval_lessons_import_only_the_naval_engine(path: Path) -> None:
    """Issue 21: «Военно-морская игра»'s lessons are data over its rules, like «Адмирал»'s."""
    own = ("admiral.games.naval.rules", "admiral.games.naval.tutorial", COMMON)
    bad = {m for m in _imports(path) if m.startswith("admiral") and not m.startswith(own)}
    assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize(
    "path", [p for p in SRC.rglob("*.py") if "web" not in p.relative_to(SRC).parts], ids=lambda p: str(p)
)
def test_only_web_imports_fastapi_or_starlette(path: Path) -> None:
    bad = {m for m in _imports(path) if m.split(".")[0] in ("fastapi", "starlette")}
    assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("store", {"service", "web", "bus"}),
        ("bus", {"service", "web", "store"}),
        ("service", {"web"}),
    ],
)
def test_imports_point_down(layer: str, forbidden: set[str]) -> None:
    for path in _files(layer):
        bad = {m for m in _imports(path) if _layer(m) in forbidden}
        assert bad == set(), f"{path} imports {bad}"


def test_the_check_sees_imports() -> None:
    """Guard against a vacuous pass: the web layer does import FastAPI and the service."""
    web = set().union(*(_imports(p) for p in _files("web")))
    assert "fastapi" in web
    assert "admiral.service" in web


#: A variant's game key → the game whose rules it extends (DESIGN.md: a variant extends its base game).
VARIANT_BASES = {"battleship_ext": "battleship"}


def _game_packages() -> list[Path]:
    return sorted(p for p in (SRC / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists())


@pytest.mark.parametrize(
    "path", [p for g in _game_packages() for p in sorted((g / "rules").rglob("*.py"))], ids=lambda p: str(p)
)
def test_a_games_rules_import_nothing_of_the_project(path: Path) -> None:
    key = path.relative_to(SRC).parts[1]
    allowed = [f"admiral.games.{key}.rules", COMMON]
    if key in VARIANT_BASES:
        allowed.append(f"admiral.games.{VARIANT_BASES[key]}.rules")
    bad = {m for m in _imports(path) if m.startswith("admiral") and not m.startswith(tuple(allowed))}
    assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize(
    "path", [p for g in _game_packages() for p in sorted((g / "rules").rglob("*.py"))], ids=lambda p: str(p)
)
def test_a_games_rules_import_only_the_standard_library_and_the_project(path: Path) -> None:
    """DESIGN.md: the rules are pure — no third-party package (no pydantic, no i18n catalogs, nothing to install)."""
    import sys

    bad = {m for m in _imports(path) if m.split(".")[0] not in (*sys.stdlib_module_names, "admiral")}
    assert bad == set(), f"{path} imports {bad}"


def test_every_games_rules_are_checked() -> None:
    """Guard against a vacuous pass: each game's rules package is found, «Военно-морская игра»'s included."""
    keys = {p.name for p in _game_packages() if (p / "rules").is_dir()}
    assert {"admiral", "battleship", "battleship_ext", "naval"} <= keys


def test_games_do_not_import_the_layers_above() -> None:
    for path in _files("games"):
        bad = {m for m in _imports(path) if _layer(m) in {"service", "web", "store", "bus"}}
        assert bad == set(), f"{path} imports {bad}"


@pytest.mark.parametrize("layer", ["service", "store", "bus", "web"])  # web: since the rules pages are a capability
def test_generic_code_knows_games_only_through_the_registry(layer: str) -> None:
    own = "admiral.games."  # any game's own package; the registry and the protocol are admiral.games(.protocol)
    for path in _files(layer):
        bad = {m for m in _imports(path) if m.startswith(own)}
        assert bad == set(), f"{path} imports {bad}"


def test_only_the_snapshot_module_picks_what_an_audience_sees() -> None:
    """Issue 17: one module decides what a seat, a spectator or a bot receives; the rest of the session and the
    web layer never call a game's view functions themselves."""
    callers = set()
    for layer in ("service", "web"):
        for path in _files(layer):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    if node.func.attr in ("view", "bot_view") and "rules" in ast.unparse(node.func.value):
                        callers.add(path.name)
    assert callers == {"snapshot.py"}


@pytest.mark.parametrize("layer", ["service", "store", "bus"])
def test_generic_code_takes_only_the_ranks_from_progression(layer: str) -> None:
    """Issue 17: points, statistics and careers are each game's (its ``Progression`` capability); the one table of
    ranks, decided by the points total over every game, is the house's; so is the Glicko-2 rating (issue 19,
    PROGRESSION.md §4: one per game, the same rules for every game)."""
    house = {"admiral.progression.ranks", "admiral.progression.rating"}
    for path in _files(layer):
        bad = {m for m in _imports(path) if m.startswith("admiral.progression") and m not in house}
        assert bad == set(), f"{path} imports {bad}"
