"""Roster category names to slot codes: normalisation and look-up through aliases.

Normalisation: casefold, strip accents, turn every non-alphanumeric character into a space,
collapse spaces ("Élites" -> "elites", "Fast-Attack" -> "fast attack", "40,000" -> "40 000").
A name that is not found is tried again in the singular (a trailing "s" dropped from each word
longer than three letters), against aliases indexed the same way.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

SLOT = "slot"
CONFIGURATION = "configuration"
NO_SLOT = "no_slot"
UNKNOWN = "unknown"
MISSING = "missing"


def normalise(text: str) -> str:
    """Casefold, drop accents and punctuation, collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = (" " if not ch.isalnum() else ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join("".join(kept).split())


def singular(normalised: str) -> str:
    """Crude singular of a normalised name, good enough for category names in FR and EN."""
    words = normalised.split(" ")
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def index_names(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Map normalised names (and their singular) to values; exact forms win over singulars."""
    exact: dict[str, str] = {}
    loose: dict[str, str] = {}
    for name, value in pairs:
        key = normalise(name)
        if key:
            exact.setdefault(key, value)
            loose.setdefault(singular(key), value)
    return {**loose, **exact}


@dataclass(frozen=True)
class CategoryMatch:
    """How a category name resolved: ``kind`` is slot/configuration/no_slot/unknown/missing."""

    kind: str
    slot: str | None = None


class CategoryResolver:
    """Resolves roster category names with slot aliases first, then the ignored categories."""

    def __init__(self, aliases: Mapping[str, str], ignored: Mapping[str, str]) -> None:
        self._slots = index_names(aliases.items())
        self._ignored = index_names(ignored.items())

    def resolve(self, category: str | None) -> CategoryMatch:
        if not category or not category.strip():
            return CategoryMatch(MISSING)
        key = normalise(category)
        for candidate in (key, singular(key)):
            if candidate in self._slots:
                return CategoryMatch(SLOT, self._slots[candidate])
        for candidate in (key, singular(key)):
            if candidate in self._ignored:
                return CategoryMatch(self._ignored[candidate])
        return CategoryMatch(UNKNOWN)

    def resolve_first(self, categories: Iterable[str]) -> tuple[CategoryMatch, str | None]:
        """Best match among several names: a slot wins, then an ignored kind, then unknown."""
        best: tuple[CategoryMatch, str | None] = (CategoryMatch(MISSING), None)
        for name in categories:
            match = self.resolve(name)
            if match.kind == SLOT:
                return match, name
            if _rank(match.kind) > _rank(best[0].kind):
                best = (match, name)
        return best


def _rank(kind: str) -> int:
    return {MISSING: 0, UNKNOWN: 1, NO_SLOT: 2, CONFIGURATION: 3}.get(kind, 0)
