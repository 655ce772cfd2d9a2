"""Placement points: an event's value, a place's share of it, decay and multiplier, best N
with optional weights, provisional below ``min_events`` (contract §1, "Placement method")."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta

from circuits.engine.inputs import EventInput, PlacementSettings, StartRating
from circuits.engine.ranking import (
    DIGITS,
    Outcome,
    ResultLine,
    Row,
    later_event,
    ranked,
    rows_in_order,
)


def event_value(settings: PlacementSettings, rounds: int, players: int) -> float:
    """``base_by_rounds[r]`` + min(players, size_cap), r the largest key ≤ rounds (the smallest
    key when none is)."""
    base = settings.base_by_rounds[0][1]
    for key, points in settings.base_by_rounds:
        if key <= rounds:
            base = points
    return base + min(players, settings.size_cap)


def place_points(curve: str, value: float, place: int, players: int) -> float:
    if curve == "t3":
        # One player alone keeps the whole value (N − 1 would be zero).
        return value if players == 1 else value * (players - place) / (players - 1)
    return value * (players + 1 - place) / players


def decay(settings: PlacementSettings, day: date, as_of: date) -> float:
    if settings.decay_days is None:
        return 1.0
    steps = (as_of - day).days // settings.decay_days
    return max(0.0, 1.0 - settings.decay_step * steps)


def next_step(settings: PlacementSettings, day: date, as_of: date) -> date | None:
    """The day this event's decay next changes (None: never again)."""
    if settings.decay_days is None or decay(settings, day, as_of) == 0.0:
        return None
    steps = (as_of - day).days // settings.decay_days
    return day + timedelta(days=settings.decay_days * (steps + 1))


def total(settings: PlacementSettings, points: Sequence[float]) -> tuple[float, list[float | None]]:
    """The best ``best_n`` of ``points`` (sorted best first) and the weight of each counted one."""
    counted = points[: settings.best_n]
    if not settings.weights:
        return sum(counted), [None] * len(counted)
    weights = [settings.weights[k] if k < len(settings.weights) else 100.0 for k in range(len(counted))]
    return sum(p * w / 100 for p, w in zip(counted, weights, strict=True)), weights


def compute(settings: PlacementSettings, events: Iterable[EventInput], people: Iterable[int],
            start: Mapping[int, StartRating], as_of: date) -> Outcome:
    events = sorted(events, key=lambda e: e.order)
    # Per person: (event index, place, raw points, points) in event order; lines built once.
    mine_of: dict[int, list[tuple[int, int, float, float]]] = defaultdict(list)
    games: dict[int, int] = defaultdict(int)
    until = [later_event((e.day for e in events), as_of)]
    facts = []  # per event index: (value, decay, factor)
    for index, event in enumerate(events):
        value = event_value(settings, event.rounds, event.players)
        kept = decay(settings, event.day, as_of)
        factor = event.multiplier * kept
        facts.append((value, kept, factor))
        if event.day > as_of:
            continue
        until.append(next_step(settings, event.day, as_of))
        n, curve = event.players, settings.curve
        for person, place in event.placings:
            raw = place_points(curve, value, place, n)
            mine_of[person].append((index, place, raw, raw * factor))
        for _round, _table, a, b, _winner, forfeit in event.games:
            if b is not None and not forfeit:
                games[a] += 1
                games[b] += 1
    rows, breakdown = [], {}
    for person in set(people) | set(mine_of):
        mine = mine_of.get(person, [])
        # Best first; equal points: the more recent result counts (then the event order).
        order = sorted(range(len(mine)), key=lambda i: (-mine[i][3], -events[mine[i][0]].day.toordinal(), i))
        eligible = [i for i in order if facts[mine[i][0]][2] > 0]
        points, weights = total(settings, [mine[i][3] for i in eligible])
        counted = dict(zip(eligible, weights, strict=False))
        lines = []
        for i, (index, place, raw, scored) in enumerate(mine):
            event, (value, kept, factor) = events[index], facts[index]
            lines.append(ResultLine(event.name, event.day, place, event.players, value, raw, kept,
                                    event.multiplier, factor, scored, i in counted, counted.get(i)))
        breakdown[person] = tuple(lines)
        provisional = len(eligible) < settings.min_events
        rows.append(Row(person, None, round(points, DIGITS), len(counted), games.get(person, 0),
                        provisional))
    ranks = ranked((r.person, r.value, r.provisional) for r in rows)
    rows = [Row(r.person, ranks[r.person], r.value, r.events_counted, r.games, r.provisional)
            for r in rows]
    days = [d for d in until if d is not None]
    return Outcome(rows_in_order(rows), breakdown, {}, min(days) if days else None)
