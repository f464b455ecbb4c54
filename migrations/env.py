"""Alembic environment: the URL comes from the settings (``DATABASE_URL``) or from the caller
(``upgrade_database`` passes it in ``config.attributes``). Batch mode for SQLite so ALTERs work there."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool

from admiral.store.db import make_engine
from admiral.store.models import Base

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)

target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("database_url")
    if url:
        return url
    from admiral.web.config import Settings

    return Settings().database_url


def run_migrations_offline() -> None:
    """Emit SQL without a database connection (``alembic upgrade head --sql``)."""
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Apply migrations on a live connection."""
    url = _url()
    engine = make_engine(url)
    if not url.startswith("sqlite"):
        engine.pool = pool.NullPool(engine.pool._creator)
    sqlite = url.startswith("sqlite")
    with engine.connect() as connection:
        if sqlite:
            # Batch mode copies a table and drops the old one: with foreign keys on (the app's connections turn
            # them on), the drop cascaded to every row referring to it (0006 emptied sessions and game results).
            # The pragma only takes effect outside a transaction, so before the migrations' transaction begins.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=sqlite)
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"the migrations left rows whose references are gone: {broken[:5]}")
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
