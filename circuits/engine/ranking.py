"""The outcome of every method: rows best first, and each person's lines (the breakdown)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

DIGITS = 6  # figures are rounded here once: equal figures share a rank, whatever float noise


@dataclass(frozen=True)
class Row:
    person: int
    rank: int | None  # None while provisional
    value: float  # points (placement) or rating
    events_counted: int
    games: int
    provisional: bool
    deviation: float | None = None
    volatility: float | None = None


class ResultLine(NamedTuple):
    """One placing of a person: ``points`` = ``raw_points`` × ``factor`` (decay × multiplier);
    ``weight`` (percent) applies when counted with weights."""

    event: str
    day: date
    place: int
    players: int
    value: float
    raw_points: float
    decay: float
    multiplier: float
    factor: float
    points: float
    counted: bool
    weight: float | None


class GameLine(NamedTuple):
    """One rated game seen from one side. The methods return plain tuples in this order (no
    object per game); ``GameLine._make(line)`` names the fields."""

    event: str
    round: int
    table: int
    opponent: int
    before: float
    after: float
    delta: float


@dataclass(frozen=True)
class Outcome:
    rows: tuple[Row, ...]
    results: Mapping[int, tuple[ResultLine, ...]] = field(default_factory=dict)
    games: Mapping[int, tuple[GameLine, ...]] = field(default_factory=dict)
    # The first day on which these figures may change with no new input (decay, an event
    # dated later); None: never.
    valid_until: date | None = None


def ranked(entries: Iterable[tuple[int, float, bool]]) -> dict[int, int | None]:
    """Competition ranks (1, 1, 3) of (person, value, provisional), best value first; provisional
    people get None and take no place."""
    ranks: dict[int, int | None] = {}
    ordered = sorted(entries, key=lambda e: (e[2], -e[1], e[0]))
    place, last = 0, None
    for position, (person, value, provisional) in enumerate(ordered, start=1):
        if provisional:
            ranks[person] = None
            continue
        if value != last:
            place, last = position, value
        ranks[person] = place
    return ranks


def rows_in_order(rows: Iterable[Row]) -> tuple[Row, ...]:
    """Ranked rows best first (ties by person), then provisional ones by value."""
    return tuple(sorted(rows, key=lambda r: (r.provisional, -r.value, r.person)))


def later_event(days: Iterable[date], as_of: date) -> date | None:
    later = [d for d in days if d > as_of]
    return min(later) if later else None
