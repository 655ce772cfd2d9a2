"""Elo, one game at a time in the order (event date, round, table, then the order given).

A draw moves both sides by the same amount in opposite directions whichever player is listed
first: each game is rated from the side of the smaller person number, and the other side gets
the opposite change. Byes, forfeits and games without a second player change nothing."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from circuits.engine.inputs import EloSettings, EventInput, StartRating
from circuits.engine.ranking import (
    DIGITS,
    Outcome,
    Row,
    later_event,
    ranked,
    rows_in_order,
)


def rated_games(events: Iterable[EventInput], as_of: date) -> list[tuple]:
    """(event index, event, round, table, a, b, score of a) of every rated game up to
    ``as_of``, in rating order; a is the smaller person number. Sorted one day at a time on
    plain ints (round, table, event rank, index): a million games sort in a blink."""
    ordered = sorted((e for e in events if e.day <= as_of), key=lambda e: (e.day, e.order))
    games: list[tuple] = []
    day_games: list[tuple] = []
    current = None
    for rank, event in enumerate(ordered):
        if event.day != current:
            day_games.sort()
            games.extend(g[4:] for g in day_games)
            day_games, current = [], event.day
        name = event.name
        for index, (rnd, table, a, b, winner, forfeit) in enumerate(event.games):
            if b is None or forfeit:
                continue
            if b < a:
                a, b = b, a
            score = 0.5 if winner is None else 1.0 if winner == a else 0.0
            day_games.append((rnd, table, rank, index, rank, name, rnd, table, a, b, score))
    day_games.sort()
    games.extend(g[4:] for g in day_games)
    return games


def compute(settings: EloSettings, events: Iterable[EventInput], people: Iterable[int],
            start: Mapping[int, StartRating], as_of: date) -> Outcome:
    events = list(events)
    ratings: dict[int, float] = {p: s.rating for p, s in start.items()}
    initial, k = settings.initial_rating, settings.k_factor
    lines: dict[int, list[tuple]] = {}  # GameLine's fields, as plain tuples (a million of them)
    counted: dict[int, int] = {}  # events with a rated game
    last: dict[int, int] = {}  # the last such event's rank
    get = ratings.get
    for rank, name, rnd, table, a, b, score in rated_games(events, as_of):
        ra = get(a, initial)
        rb = get(b, initial)
        delta = k * (score - 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0)))
        ratings[a] = ra + delta
        ratings[b] = rb - delta
        mine = lines.get(a)
        if mine is None:
            mine = lines[a] = []
        mine.append((name, rnd, table, b, ra, ra + delta, delta))
        mine = lines.get(b)
        if mine is None:
            mine = lines[b] = []
        mine.append((name, rnd, table, a, rb, rb - delta, -delta))
        if last.get(a) != rank:
            last[a] = rank
            counted[a] = counted.get(a, 0) + 1
        if last.get(b) != rank:
            last[b] = rank
            counted[b] = counted.get(b, 0) + 1
    everyone = set(people) | set(ratings)
    for event in events:
        everyone.update(p for p, _place in event.placings)
    rows = []
    for person in everyone:
        played = len(lines.get(person, ()))
        rows.append(Row(person, None, round(ratings.get(person, initial), DIGITS),
                        counted.get(person, 0), played, played < settings.min_games))
    ranks = ranked((r.person, r.value, r.provisional) for r in rows)
    rows = [Row(r.person, ranks[r.person], r.value, r.events_counted, r.games, r.provisional)
            for r in rows]
    games = {p: tuple(v) for p, v in lines.items()}
    return Outcome(rows_in_order(rows), {}, games, later_event((e.day for e in events), as_of))
