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
