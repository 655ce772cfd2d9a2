"""Stable seeded pseudo-random keys (never Python's salted ``hash()``)."""

from __future__ import annotations

from hashlib import blake2b


def stable_key(*parts: int | str, bits: int = 32) -> int:
    """Return a key in ``[0, 2**bits)`` that depends only on ``parts``, on every platform."""
    text = ":".join(str(part) for part in parts).encode()
    digest = blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - bits)
