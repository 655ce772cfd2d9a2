"""Escalation: each unit (by name) of a player's list for week n−1 is in the list for week n at
least as many times. Names match whatever their case and spacing ("Tactical  squad" is
"Tactical Squad"); the problem names the unit as the earlier list wrote it."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class UnitRemoved:
    """``escalation_unit_removed``: ``unit`` of week ``week``'s list is missing (or fewer)."""

    unit: str
    week: int
    code: str = "escalation_unit_removed"


def unit_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def removed_units(previous: Iterable[str], current: Iterable[str], previous_week: int) -> list[UnitRemoved]:
    """One problem per unit name that the new list holds fewer times than week
    ``previous_week``'s, in the order the old list names them."""
    previous = list(previous)
    before, now = Counter(map(unit_key, previous)), Counter(map(unit_key, current))
    written = {}
    for name in previous:
        written.setdefault(unit_key(name), name)
    return [UnitRemoved(written[key], previous_week) for key in before if now[key] < before[key]]
