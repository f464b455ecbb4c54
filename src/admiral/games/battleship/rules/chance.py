"""Draws from a game's seed that anyone can re-check from the record (D13).

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

import hashlib
import hmac

__all__ = ["commitment", "draw", "seed_bytes"]


def seed_bytes(seed: int) -> bytes:
    """The 32 bytes of an ``int`` seed (big-endian, modulo 2²⁵⁶)."""
    return (seed % (1 << 256)).to_bytes(32, "big")


def commitment(seed: bytes) -> str:
    """The SHA-256 (hex) both players see at the start (D13)."""
    return hashlib.sha256(seed).hexdigest()


def draw(seed: bytes, k: int, n: int) -> int:
    """Draw ``k`` among ``n`` choices (0 ≤ result < ``n``), as the module docstring says."""
    if not 1 <= n <= 252:
        raise ValueError("a draw has 1–252 choices")
    counter = 0
    while True:
        message = f"{k}" if counter == 0 else f"{k}.{counter}"
        for byte in hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                return byte % n
        counter += 1
