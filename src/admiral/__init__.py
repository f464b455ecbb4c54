"""«Адмирал» online: the rules engine (:mod:`admiral.games.admiral.rules`) and the services built on it."""

__version__ = "0.1.0"
