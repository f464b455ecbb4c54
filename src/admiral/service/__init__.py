"""Use cases of the server: the lobby, the game service (lock → apply → save → publish), clocks, timers.

Nothing here imports FastAPI or Starlette; the service talks to the rules through :class:`Ruleset`.
"""

from .errors import ServiceError
from .lobby import GameSettings, hash_token, new_browser_token
from .messages import ClientMessage, parse_client_message
from .session import GameService, ServiceOptions
from .snapshot import HeldView

__all__ = [
    "ClientMessage", "GameService", "GameSettings", "HeldView", "ServiceError", "ServiceOptions",
    "hash_token", "new_browser_token", "parse_client_message",
]  # fmt: skip
