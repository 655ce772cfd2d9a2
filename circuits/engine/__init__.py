"""Circuits: the pure ranking engine (no Django), contract ``../shared/api-v1-seasons-teams.md`` §1.

People are plain ints (the services number them in key order, so ties broken by the smaller
int are broken by key); events are ``EventInput`` values; games are plain tuples
``(round, table, a, b, winner, forfeit)`` so a million of them cost no objects:

- ``inputs.py``: the settings of the three methods, an event, a starting rating, the checks;
- ``placement.py``: placement points (event value, linear or T³ curve, decay, best N, weights);
- ``elo.py``: Elo, game by game; ``glicko2.py``: Glicko-2, an event per rating period;
- ``ranking.py``: the outcome every method returns (rows best first, each person's lines).

Every method is deterministic: events are ordered by their ``order`` key (date, name, a
content tiebreak), never by the order they were given.
"""
from circuits.engine.inputs import (  # noqa: F401
    EloSettings,
    EventInput,
    Glicko2Settings,
    PlacementSettings,
    StartRating,
    check_event,
    settings_from,
)
from circuits.engine.ranking import GameLine, Outcome, ResultLine, Row  # noqa: F401


def compute(settings, events, people, start=None, *, as_of) -> Outcome:
    """The standings of ``people`` (ints) over ``events`` as of the day ``as_of`` with
    ``settings``; ``start`` maps people to their ``StartRating``."""
    from circuits.engine import elo, glicko2, placement

    module = {PlacementSettings: placement, EloSettings: elo, Glicko2Settings: glicko2}[type(settings)]
    return module.compute(settings, events, people, start or {}, as_of)
