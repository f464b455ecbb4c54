"""Suite-wide collection order.

The browser tests hold one Playwright session for the whole run (`tests/e2e/conftest.py`), and Playwright's sync
API keeps an asyncio loop marked as running in the main thread while it lives. Any anyio test collected after it
(`tests/session/`) would then fail with "Cannot run the event loop while another loop is running". The browser
tests therefore run last, after every other test, whatever order the paths were given in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_E2E = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the browser tests (tests/e2e) behind all others, keeping each group's own order."""
    in_browser = [item for item in items if _E2E in Path(str(item.path)).parents]
    if in_browser:
        rest = [item for item in items if _E2E not in Path(str(item.path)).parents]
        items[:] = rest + in_browser
