"""Swiss pairing of a later round: one exact optimum of the tiered objective.

The solve climbs a ladder of candidate graphs and stops at the first pairing *proven* globally
optimal (see ``bounds``). Every graph below except the last two only links score groups across
odd thresholds, so it falls apart into small brackets that ``matching`` solves one by one.

1. ``bracket`` (score groups one by one, floaters chosen first, see ``brackets``), then
   ``sparse`` / ``sparse_wide``: seeded clean pairs inside each score group and across each odd
   threshold. Proven when the pairing reaches the lower bound of every cost tier (no rematch,
   best bye, natural floats only, no club/faction penalty): no pairing anywhere does better.
2. ``adjacent``: every rematch-free pair inside a score group or across an odd threshold.
   Proven when it reaches the bound of the tiers down to the score gap: every pairing that
   does as well lies in this graph, so its lower tiers are optimal too.
3. ``full``: every rematch-free pair. Proven as soon as it is perfect (a rematch loses tier 1).
4. ``complete``: every pair; rematches are allowed and minimised first.

The seeded tie-break only chooses among pairings of equal cost; it is not part of the cost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

from league.pairing.bounds import gap_lower_bound
from league.pairing.brackets import bracket_pairs
from league.pairing.graphs import (
    Edge,
    adjacent_edges,
    all_edges,
    core_and_fixed,
    sparse_edges,
)
from league.pairing.matching import perfect_matching
from league.pairing.problem import (
    GAP,
    N_COST_TIERS,
    REPEAT_BYE,
    TIEBREAK_RANGE,
    Problem,
    pair_penalty,
)
from league.pairing.results import build_result
from league.pairing.types import PairingResult
from league.pairing.weights import Encoder, make_encoder

SPARSE_TURNS = 2
WIDE_TURNS = 12

Cost = tuple[int, ...]
Step = tuple[str, Callable[[], list[Edge] | None], Callable[[Cost], bool]]


def solve(problem: Problem, tables: int | None = None) -> PairingResult:
    """Proven-optimal pairing of ``problem``, then tables and deviations."""
    pairs, cost, method = optimal_pairs(problem)
    return build_result(problem, pairs, cost, method, tables)


def optimal_pairs(problem: Problem) -> tuple[list[Edge], Cost, str]:
    """Vertex pairs of a proven optimum, its cost and the ladder step that proved it."""
    problem = fit_tiebreak(problem)
    encoder = make_encoder(problem)
    for method, attempt, proven in _ladder(problem, encoder):
        pairs = attempt()
        if pairs is None:
            continue
        cost = matching_cost(problem, pairs)
        if proven(cost):
            return pairs, cost, method
    raise AssertionError("the complete graph always has a perfect matching")


def matching_cost(problem: Problem, pairs: Sequence[Edge]) -> Cost:
    """Sum of the cost tiers (the tie-break excluded) over a matching."""
    totals = [0] * N_COST_TIERS
    for u, v in pairs:
        for tier, value in enumerate(pair_penalty(problem, u, v)[:N_COST_TIERS]):
            totals[tier] += value
    return tuple(totals)


def lower_bound(problem: Problem, core: list[int]) -> Cost:
    """Cost no pairing can beat on any tier (reached by most real rounds)."""
    bound = [0] * N_COST_TIERS
    if problem.has_bye and all(p.had_bye for p in problem.players):
        bound[REPEAT_BYE] = 1
    bound[GAP] = gap_lower_bound(problem.score(v) for v in core)
    return tuple(bound)


def weighted(
    problem: Problem, encoder: Encoder, edges: Sequence[Edge]
) -> list[tuple[int, int, int]]:
    """Edges with their encoded integer weights."""
    return [(u, v, encoder.weight(pair_penalty(problem, u, v))) for u, v in edges]


def _ladder(problem: Problem, encoder: Encoder) -> Iterator[Step]:
    core, fixed = core_and_fixed(problem)
    bound = lower_bound(problem, core)

    def reaches_all(cost: Cost) -> bool:
        return cost == bound

    def reaches_gap(cost: Cost) -> bool:
        return cost[: GAP + 1] == bound[: GAP + 1]

    def anything(cost: Cost) -> bool:
        return True

    def matched(edges: Callable[[], Sequence[Edge]]) -> Callable[[], list[Edge] | None]:
        return lambda: perfect_matching(problem.n_vertices, weighted(problem, encoder, edges()))

    yield "bracket", lambda: bracket_pairs(problem, encoder, core, fixed, SPARSE_TURNS), reaches_all
    yield (
        "sparse",
        matched(lambda: sorted(sparse_edges(problem, core, fixed, SPARSE_TURNS))),
        reaches_all,
    )
    yield (
        "sparse_wide",
        matched(lambda: sorted(sparse_edges(problem, core, fixed, WIDE_TURNS))),
        reaches_all,
    )
    yield "adjacent", matched(lambda: sorted(adjacent_edges(problem, core, fixed))), reaches_gap
    yield "full", matched(lambda: all_edges(problem, rematches=False)), anything
    yield "complete", matched(lambda: all_edges(problem, rematches=True)), anything


def fit_tiebreak(problem: Problem) -> Problem:
    """Shrink the tie-break range when huge scores leave too few bits for it."""
    for span in (TIEBREAK_RANGE, 1 << 8, 1):
        candidate = dataclasses.replace(problem, tiebreak_range=span)
        try:
            make_encoder(candidate)
        except OverflowError:
            continue
        return candidate
    raise OverflowError("scores too large for an exact pairing")
