"""Fixtures of the tests with several app instances sharing PostgreSQL and Redis (issue 6).

They need ``ADMIRAL_TEST_DATABASE_URL`` (PostgreSQL) and ``ADMIRAL_TEST_REDIS_URL``; each test module skips with
the reason otherwise (:data:`NEEDS_SERVICES`).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

PG_URL = os.environ.get("ADMIRAL_TEST_DATABASE_URL", "")
REDIS_URL = os.environ.get("ADMIRAL_TEST_REDIS_URL", "")

#: ``pytestmark`` of the modules here: skip without PostgreSQL and Redis.
NEEDS_SERVICES = pytest.mark.skipif(
    not (PG_URL.startswith("postgresql") and REDIS_URL),
    reason="two-instance tests need ADMIRAL_TEST_DATABASE_URL (PostgreSQL) and ADMIRAL_TEST_REDIS_URL (Redis)",
)


@pytest.fixture
def shared_db() -> Iterator[str]:
    """A fresh PostgreSQL database, migrated to head, dropped afterwards (its URL)."""
    from sqlalchemy import create_engine, make_url, text

    from admiral.store import upgrade_database

    name = f"admiral_cluster_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    db_url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade_database(db_url)
        yield db_url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
