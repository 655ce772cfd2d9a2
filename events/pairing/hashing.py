"""Stable seeded pseudo-random keys (never Python's salted ``hash()``)."""

from __future__ import annotations

from hashlib import blake2b

_MASK = (1 << 64) - 1


def stable_key(*parts: int | str) -> int:
    """A 64-bit key that depends only on ``parts``, on every platform and Python version."""
    text = ":".join(str(part) for part in parts).encode()
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big")


def mix64(value: int) -> int:
    """SplitMix64 finaliser: a cheap, well-spread 64-bit mix for per-item keys."""
    value = (value + 0x9E3779B97F4A7C15) & _MASK  # negative ids wrap, still deterministic
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK
    return value ^ (value >> 31)


def item_key(base: int, item_hash: int) -> int:
    """Key of one item under a ``stable_key`` base; ``item_hash`` is ``mix64(item id)``."""
    return mix64(base ^ item_hash)


def pair_key(base: int, hash_a: int, hash_b: int) -> int:
    """Order-independent key of an unordered pair of items given their ``mix64`` hashes."""
    return mix64(base ^ ((hash_a + hash_b) & _MASK))
