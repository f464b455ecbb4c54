"""Draws from a game's seed that anyone can re-check from the record (D13): the house's one generator,
:func:`admiral.games.common.draw`, shared with every game that draws at random (NAVAL_GAME.md §7.5 rolls its die
with it).

The seed of a game is an ``int`` (``settings["seed"]``); its 32 bytes are the big-endian value modulo 2²⁵⁶. Draw
``k`` among ``n`` choices is the first byte below 252 of HMAC-SHA256(seed bytes, message) taken modulo ``n``, where
the message is ``k`` in ASCII decimal (``b"0"``), then ``b"0.1"``, ``b"0.2"``… while no byte is below 252.
Rule sets A and B draw only once: draw 0 among 2, the first shooter (A4, D2). The extended variant (C) draws its
reveals as draws 1, 2, …

>>> draw(seed_bytes(1), 0, 2) in (0, 1)
True
>>> len(commitment(seed_bytes(1)))
64
"""

from __future__ import annotations

from ...common import commitment, draw, seed_bytes

__all__ = ["commitment", "draw", "seed_bytes"]
