"""The Alembic migrations build exactly the schema the models describe (no drift between them)."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from admiral.store import upgrade_database
from admiral.store.models import Base


def test_migrations_match_the_models(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'schema.db'}"
    upgrade_database(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []
    tables = {"commanders", "sessions", "password_resets", "game_results", "feedback", "tutorial_progress"}
    assert tables <= set(Base.metadata.tables)


def test_upgrading_an_sqlite_database_keeps_every_row(tmp_path: Path) -> None:
    """A batch migration on SQLite copies a table and drops the old one: with foreign keys on (the app's
    connections turn them on), dropping ``commanders`` in 0006 cascaded to every session and game result. Rows
    written at 0005 must all be there at head."""
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade_database(url, "0005")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("PRAGMA foreign_keys=ON"))
        conn.execute(text(
            "INSERT INTO commanders (id, key, points, career, created_at) VALUES (1, 'k1', 10, '{}', '2026-11-30')"
        ))  # fmt: skip
        conn.execute(text(
            "INSERT INTO sessions (id_hash, commander_id, created_at, expires_at) "
            "VALUES ('t1', 1, '2026-11-30', '2027-11-30')"
        ))  # fmt: skip
    engine.dispose()
    upgrade_database(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        sessions = conn.execute(text("SELECT id_hash, commander_id FROM sessions")).all()
        commanders = conn.execute(text("SELECT key FROM commanders")).all()
    engine.dispose()
    assert [tuple(r) for r in sessions] == [("t1", 1)]
    assert [tuple(r) for r in commanders] == [("k1",)]
