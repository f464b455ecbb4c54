"""Engine creation and Alembic upgrades."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event

__all__ = ["MIGRATIONS_DIR", "make_engine", "upgrade_database"]

#: ``migrations/`` beside ``pyproject.toml``.
MIGRATIONS_DIR = Path(__file__).resolve().parents[3] / "migrations"


def _ensure_sqlite_dir(url: str) -> None:
    prefix = "sqlite:///"
    if url.startswith(prefix) and ":memory:" not in url:
        path = Path(url[len(prefix) :])
        path.parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``. For an SQLite file the folder is created and the connection is
    tuned (WAL, ``synchronous=NORMAL``, 5 s busy timeout, foreign keys on)."""
    if url.startswith("sqlite"):
        _ensure_sqlite_dir(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def upgrade_database(url: str, revision: str = "head") -> None:
    """Apply Alembic migrations to ``url`` up to ``revision`` (creates an SQLite file's folder)."""
    from alembic import command
    from alembic.config import Config

    _ensure_sqlite_dir(url)
    cfg = Config(str(MIGRATIONS_DIR.parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["database_url"] = url
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, revision)
