"""Storage: SQLAlchemy 2.0 models and the repository the service uses (no web imports).

Schema changes go through Alembic only (``migrations/`` beside ``pyproject.toml``).
"""

from .accounts import AccountStore, Folded, Leader, RatingLeader, SeatMark, Taken
from .db import make_engine, upgrade_database
from .lobby import LiveRow, LobbyStore
from .models import Base, GameActionRow, GameRow, GameSeatRow, SavedSetupRow
from .repo import Store
from .tutorial import TutorialStore

__all__ = [
    "AccountStore", "Base", "Folded", "GameActionRow", "GameRow", "GameSeatRow", "Leader", "LiveRow", "LobbyStore",
    "RatingLeader", "SavedSetupRow", "SeatMark", "Store", "Taken", "TutorialStore", "make_engine", "upgrade_database",
]  # fmt: skip
