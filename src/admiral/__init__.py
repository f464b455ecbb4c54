"""«Адмирал» online: the rules engine (:mod:`admiral.engine`) and the services built on it."""

__version__ = "0.1.0"
