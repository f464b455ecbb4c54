"""The repository's ``tests`` package is the one Python imports from the repository root.

``glicko2`` installs a top-level ``tests`` package into site-packages; the repository's ``tests/`` must be a regular
package (``tests/__init__.py``) so it wins, or README's ``python -m tests.cluster.topology`` fails.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_tests_package_is_the_repository_one():
    out = subprocess.run(
        [sys.executable, "-c", "import tests; print(tests.__file__)"],
        cwd=ROOT,
        env=_clean_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(out.stdout.strip()) == ROOT / "tests" / "__init__.py"


def test_topology_command_runs_from_the_repository_root():
    """README's two-instance command, as written there, up to its ``--help``."""
    out = subprocess.run(
        [sys.executable, "-m", "tests.cluster.topology", "--help"],
        cwd=ROOT,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "--database-url" in out.stdout and "--redis-url" in out.stdout
