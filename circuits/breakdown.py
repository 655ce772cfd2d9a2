"""The engine's input as the services gather it, and each person's breakdown shaped as the API
shows it (plain Python: the benchmark and the services share it)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from circuits.engine import EventInput, Outcome, Row, StartRating

DIGITS = 6


@dataclass(frozen=True)
class Inputs:
    events: tuple[EventInput, ...]
    start: dict[int, StartRating]
    people: dict[int, tuple[str, str, str]]  # number -> (key, norm, name)
    numbers: dict[int, int]  # number -> person id


RESULT_FIELDS = ("event", "date", "place", "players", "value", "raw_points", "decay", "multiplier",
                 "factor", "points", "counted", "weight")
GAME_FIELDS = ("event", "round", "table", "opponent", "opponent_name", "before", "after", "delta")


def lines(inputs: Inputs, outcome: Outcome) -> Iterable[tuple[Row, dict[str, Any]]]:
    """Each row best first with its breakdown, compact (lists in the order of ``RESULT_FIELDS``
    and ``GAME_FIELDS``: two million rated lines are stored and built without a dict each);
    ``expand`` gives the API's shape."""
    people = inputs.people
    results_of, games_of = outcome.results, outcome.games
    for row in outcome.rows:
        results = [
            [line.event, line.day.isoformat(), line.place, line.players, line.value, line.raw_points,
             line.decay, line.multiplier, line.factor, line.points, line.counted, line.weight]
            for line in results_of.get(row.person, ())
        ]
        # Full floats here, rounded when read (expand): a million round() calls saved.
        games = [[g[0], g[1], g[2], people[g[3]][0], people[g[3]][2], g[4], g[5], g[6]]
                 for g in games_of.get(row.person, ())]
        yield row, {"r": results, "g": games}


def _rounded(line: list[Any]) -> list[Any]:
    return [round(v, DIGITS) if type(v) is float else v for v in line]


def expand(compact: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {"results": [dict(zip(RESULT_FIELDS, _rounded(line), strict=True)) for line in compact.get("r", ())],
            "games": [dict(zip(GAME_FIELDS, _rounded(line), strict=True)) for line in compact.get("g", ())]}
