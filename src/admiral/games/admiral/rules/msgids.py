"""Marks for the engine's Russian texts that the site shows, so the catalogs extract them (README "Translations").

The engine stays standard library only: these markers return their text unchanged, and the server translates it
where it is shown (``_(kind.ru_name)``, ``pgettext("unit", kind.ru)``, the browser's ``t()``/``pt()`` on the
manifest's texts). ``admiral i18n update`` extracts ``N_(msgid)`` and ``NC_(context, msgid)`` calls.

>>> N_("Линкор"), NC_("unit", "Л")
('Линкор', 'Л')
"""

from __future__ import annotations

__all__ = ["NC_", "N_"]


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message id of the catalogs; returns it unchanged."""
    return msgid


def NC_(context: str, msgid: str) -> str:
    """Mark ``msgid`` in ``context`` (one Russian word meaning two things) as a message id; returns ``msgid``."""
    return msgid
