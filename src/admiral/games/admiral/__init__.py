"""«Адмирал» as a game of the house: its facts (:data:`INFO`) and its ruleset (:class:`AdmiralRuleset`). Its rules
live in :mod:`admiral.engine`, its bots in :mod:`admiral.ai`, its lessons in :mod:`admiral.tutorial`."""

from .ruleset import INFO, AdmiralRuleset

__all__ = ["INFO", "AdmiralRuleset"]
