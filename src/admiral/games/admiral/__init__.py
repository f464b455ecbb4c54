"""«Адмирал» as a game of the house: its facts (:data:`INFO`) and its ruleset (:class:`AdmiralRuleset`). Its rules
live in :mod:`.rules`, its bots in :mod:`.bots`, its lessons in :mod:`.tutorial`."""

from .ruleset import INFO, AdmiralRuleset

__all__ = ["INFO", "AdmiralRuleset"]
