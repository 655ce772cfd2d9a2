"""Pure pairing engine: Swiss rounds by exact tiered matching, then tables.

Plain Python, numpy, scipy and rustworkx over the frozen dataclasses of ``types`` (no Django):
``services/rounds.py`` builds a ``PlayerState`` per player from the standings and a
``PairingSettings`` from the event, calls ``pair_round``, and stores the ``PairingResult``'s
pairings as games with their tables and deviation flags (``DEVIATIONS``). The engine rolls no
dice: its only randomness is the tournament's seed, through stable keys (``hashing``), so the
same state and seed always give the same pairing.

- ``rounds.pair_round``: round 1 is a seeded shuffle paired in order, repaired only where clubs
  must be kept apart (``first_round``); later rounds are Swiss (``swiss``).
- The Swiss objective is a tuple of cost tiers (``COST_TIERS``: rematches first, then byes, the
  score gap, club and faction affinities), compared in order; ``problem`` gives each candidate
  pair its penalty vector and ``weights`` packs the tiers exactly into one integer per edge for
  rustworkx's maximum-weight matching (``matching``, one connected component at a time).
- ``swiss`` climbs a ladder of candidate graphs, from sparse to complete, and stops at the
  first pairing proven globally optimal against lower bounds that hold for every pairing
  (``bounds``; sharpened by ``windows`` on the score gap and ``affinities`` on the club and
  faction tiers; small groups whose players have already met get float candidates from
  ``floats``, whose ``slack_edges`` keep every pair within the proven excess, so the optimum
  found there is the global one, tie-break included). ``brackets`` is the fast first attempt.
- ``vectors`` computes weights, costs, shuffles and deviation flags for many pairs at once with
  numpy, equal bit for bit to ``hashing`` and the per-pair code, which remains the fallback.
- ``tables`` seats top pairs on top tables and nobody back at a table they already used;
  ``assignment`` replays scipy's ``linear_sum_assignment`` without building the dense matrix
  (a hypothesis test checks the tables equal scipy's).

Each module explains its own proof or encoding. ``benchmarks/pairing.py`` times the engine on
simulated events of 1,024 to 8,192 players and checks the slowest state against a full solve;
the figures and goals are in ``docs/performance.md``.
"""

from events.pairing.first_round import pair_first_round
from events.pairing.rounds import pair_round
from events.pairing.tables import assign_tables
from events.pairing.types import (
    COST_TIERS,
    DEVIATIONS,
    Pairing,
    PairingResult,
    PairingSettings,
    PlayerState,
)

__all__ = [
    "COST_TIERS",
    "DEVIATIONS",
    "Pairing",
    "PairingResult",
    "PairingSettings",
    "PlayerState",
    "assign_tables",
    "pair_first_round",
    "pair_round",
]
