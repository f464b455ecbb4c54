"""The FastAPI app: pages, JSON API and the game WebSocket (docs/protocol.md). The only layer that imports
FastAPI/Starlette."""

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]
