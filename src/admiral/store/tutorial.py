"""The repository of tutorial progress («Обучение», issue 7): one row per commander and lesson.

Same rules as :mod:`.repo`: synchronous, one short transaction per call, detached rows returned.
"""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from .models import TutorialProgressRow, utcnow

__all__ = ["TutorialStore"]


class TutorialStore:
    """Database access for tutorial progress over one SQLAlchemy ``Engine``."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def progress(self, key: str) -> dict[str, TutorialProgressRow]:
        """Every lesson the commander of identity ``key`` has started: slug → row."""
        with self.sessions() as s:
            rows = s.scalars(select(TutorialProgressRow).where(TutorialProgressRow.key == key))
            return {r.slug: r for r in rows}

    def reached(self, key: str, slug: str) -> int:
        """The furthest step the commander reached in lesson ``slug`` (0 if never started)."""
        with self.sessions() as s:
            row = s.get(TutorialProgressRow, (key, slug))
            return 0 if row is None else row.step

    def advance(self, key: str, slug: str, step: int, done: bool) -> None:
        """Record that the commander reached ``step`` of lesson ``slug`` (never lowering what it had
        reached), and, with ``done``, that it completed the lesson (the first completion's time is kept)."""
        for _ in range(2):  # a concurrent first insert of the same row: then update it
            try:
                with self.sessions.begin() as s:
                    row = s.get(TutorialProgressRow, (key, slug), with_for_update=True)
                    if row is None:
                        row = TutorialProgressRow(key=key, slug=slug, step=step)
                        s.add(row)
                    row.step = max(row.step or 0, step)
                    row.updated_at = utcnow()
                    if done and row.done_at is None:
                        row.done_at = utcnow()
                return
            except IntegrityError:
                continue
