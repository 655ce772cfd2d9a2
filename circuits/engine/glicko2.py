"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): each event is one rating period.

Everyone rated so far who does not play in a period only sees their deviation grow
(φ² + σ² per period). That growth is applied lazily (φ² + k·σ² after k idle periods, the same
figure) so an idle crowd costs nothing per event. Ratings given as a starting point count from
before the first period; other people enter at their first rated game."""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import date
from math import exp, sqrt

from circuits.engine.inputs import EventInput, Glicko2Settings, StartRating
from circuits.engine.ranking import (
    DIGITS,
    Outcome,
    Row,
    later_event,
    ranked,
    rows_in_order,
)

SCALE = 173.7178
# μ′ and φ′ are kept to four decimals on the Glicko-2 scale at the end of each period, as the
# paper's worked example carries them (μ′ = −0.2069 → 1464.06, the figure the contract fixes;
# carried in full precision the same steps give 1464.0507).
PERIOD_DIGITS = 4
EPSILON = 0.000001
PI2 = math.pi ** 2


def new_volatility(sigma: float, phi2: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)
    tau2 = tau * tau
    d2 = delta * delta
    base = phi2 + v

    def f(x: float) -> float:
        ex = exp(x)
        denom = base + ex
        return ex * (d2 - base - ex) / (2.0 * denom * denom) - (x - a) / tau2

    big_a = a
    if d2 > base:
        big_b = math.log(d2 - base)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return exp(big_a / 2.0)


def compute(settings: Glicko2Settings, events: Iterable[EventInput], people: Iterable[int],
            start: Mapping[int, StartRating], as_of: date) -> Outcome:
    events = list(events)
    periods = sorted((e for e in events if e.day <= as_of), key=lambda e: e.order)
    # person -> [mu, phi², sigma, last period updated (its end)]
    state: dict[int, list[float]] = {}
    for person, s in start.items():
        deviation = settings.initial_deviation if s.deviation is None else s.deviation
        volatility = settings.initial_volatility if s.volatility is None else s.volatility
        state[person] = [(s.rating - 1500.0) / SCALE, (deviation / SCALE) ** 2, volatility, -1]
    mu0 = (settings.initial_rating - 1500.0) / SCALE
    phi0 = (settings.initial_deviation / SCALE) ** 2
    sigma0, tau = settings.initial_volatility, settings.tau
    lines: dict[int, list[tuple]] = {}  # GameLine's fields, as plain tuples
    counted: dict[int, int] = {}
    played: dict[int, int] = {}
    for index, event in enumerate(periods):
        opponents: dict[int, list[tuple[int, float, int, int]]] = {}
        for rnd, table, a, b, winner, forfeit in event.games:
            if b is None or forfeit:
                continue
            score = 0.5 if winner is None else 1.0 if winner == a else 0.0
            opponents.setdefault(a, []).append((b, score, rnd, table))
            opponents.setdefault(b, []).append((a, 1.0 - score, rnd, table))
        # Each player's start-of-period figures, and g(φ) once per player (not once per game).
        before: dict[int, tuple[float, float, float, float]] = {}
        for person in opponents:
            row = state.get(person)
            if row is None:
                row = state[person] = [mu0, phi0, sigma0, index - 1]
            phi2 = row[1] + (index - 1 - row[3]) * row[2] * row[2]
            before[person] = (row[0], phi2, row[2], 1.0 / sqrt(1.0 + 3.0 * phi2 / PI2))
        name = event.name
        for person, games in opponents.items():
            mu, phi2, sigma, _g = before[person]
            inverse_v = 0.0
            impacts = []
            for opponent, score, _rnd, _table in games:
                mu_j, _phi2_j, _sigma_j, g = before[opponent]
                expected = 1.0 / (1.0 + exp(-g * (mu - mu_j)))
                inverse_v += g * g * expected * (1.0 - expected)
                impacts.append(g * (score - expected))
            v = 1.0 / inverse_v
            improvement = sum(impacts)
            sigma_new = new_volatility(sigma, phi2, v, v * improvement, tau)
            phi2_new = 1.0 / (1.0 / (phi2 + sigma_new * sigma_new) + 1.0 / v)
            mu_new = round(mu + phi2_new * improvement, PERIOD_DIGITS)
            phi2_new = round(sqrt(phi2_new), PERIOD_DIGITS) ** 2
            state[person] = [mu_new, phi2_new, sigma_new, index]
            r_before, r_after = 1500.0 + SCALE * mu, 1500.0 + SCALE * mu_new
            mine = lines.get(person)
            if mine is None:
                mine = lines[person] = []
            # Each game's share of the move, so that the shares add up to the (rounded) move.
            share = SCALE * (mu_new - mu) / improvement if improvement else 0.0
            for (opponent, _s, rnd, table), impact in zip(games, impacts, strict=True):
                mine.append((name, rnd, table, opponent, r_before, r_after, share * impact))
            counted[person] = counted.get(person, 0) + 1
            played[person] = played.get(person, 0) + len(games)
    last = len(periods) - 1
    everyone = set(people) | set(state)
    for event in periods:
        everyone.update(p for p, _place in event.placings)
    rows = []
    for person in everyone:
        mu, phi2, sigma, updated = state.get(person, (mu0, phi0, sigma0, last))
        phi2 += (last - updated) * sigma * sigma
        games = played.get(person, 0)
        rows.append(Row(person, None, round(1500.0 + SCALE * mu, DIGITS), counted.get(person, 0),
                        games, games < settings.min_games,
                        round(SCALE * math.sqrt(phi2), DIGITS), round(sigma, DIGITS)))
    ranks = ranked((r.person, r.value, r.provisional) for r in rows)
    rows = [Row(r.person, ranks[r.person], r.value, r.events_counted, r.games, r.provisional,
                r.deviation, r.volatility) for r in rows]
    games_out = {p: tuple(v) for p, v in lines.items()}
    return Outcome(rows_in_order(rows), {}, games_out, later_event((e.day for e in events), as_of))
