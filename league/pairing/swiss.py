"""Swiss pairing of a later round: one exact maximum-weight matching of the tiered objective.

The solve climbs a ladder of candidate graphs and stops at the first one whose matching is
*proven* globally optimal (see ``bounds``):

1. ``sparse`` / ``sparse_wide``: seeded clean pairs only. Proven when the matching reaches the
   lower bound of every cost tier (no rematch, best bye, natural floats only, no club/faction
   penalty), since no pairing anywhere can do better on any tier.
2. ``adjacent``: every rematch-free pair inside a score group or across an odd threshold.
   Proven when the matching reaches the bound of the tiers down to the score gap: every pairing
   that does as well lies in this graph, so the lower tiers are optimal too.
3. ``full``: every rematch-free pair. Proven when it is perfect (any rematch loses tier 1).
4. ``complete``: every pair; rematches are allowed and minimised first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

from league.pairing.bounds import gap_lower_bound
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

SPARSE_TURNS = 3
WIDE_TURNS = 12

Certificate = Callable[[tuple[int, ...]], bool]


def solve(problem: Problem, tables: int | None = None) -> PairingResult:
    """Proven-optimal matching of ``problem``, then tables and deviations."""
    problem = _fit_tiebreak(problem)
    encoder = make_encoder(problem)
    for method, edges, certified in _ladder(problem):
        pairs = perfect_matching(problem.n_vertices, _weighted(problem, encoder, edges))
        if pairs is None:
            continue
        cost = matching_cost(problem, pairs)
        if certified(cost):
            return build_result(problem, pairs, cost, method, tables)
    raise AssertionError("the complete graph always has a perfect matching")


def matching_cost(problem: Problem, pairs: Sequence[Edge]) -> tuple[int, ...]:
    """Sum of the cost tiers (the tie-break excluded) over a matching."""
    totals = [0] * N_COST_TIERS
    for u, v in pairs:
        for tier, value in enumerate(pair_penalty(problem, u, v)[:N_COST_TIERS]):
            totals[tier] += value
    return tuple(totals)


def lower_bound(problem: Problem, core: list[int]) -> tuple[int, ...]:
    """Cost no pairing can beat on any tier (reached by most real rounds)."""
    bound = [0] * N_COST_TIERS
    if problem.has_bye and all(p.had_bye for p in problem.players):
        bound[REPEAT_BYE] = 1
    bound[GAP] = gap_lower_bound(problem.score(v) for v in core)
    return tuple(bound)


def _ladder(problem: Problem) -> Iterator[tuple[str, Sequence[Edge], Certificate]]:
    core, fixed = core_and_fixed(problem)
    bound = lower_bound(problem, core)

    def reaches_all(cost: tuple[int, ...]) -> bool:
        return cost == bound

    def reaches_gap(cost: tuple[int, ...]) -> bool:
        return cost[: GAP + 1] == bound[: GAP + 1]

    yield "sparse", sorted(sparse_edges(problem, core, fixed, SPARSE_TURNS)), reaches_all
    yield "sparse_wide", sorted(sparse_edges(problem, core, fixed, WIDE_TURNS)), reaches_all
    yield "adjacent", sorted(adjacent_edges(problem, core, fixed)), reaches_gap
    yield "full", all_edges(problem, rematches=False), lambda cost: True
    yield "complete", all_edges(problem, rematches=True), lambda cost: True


def _weighted(
    problem: Problem, encoder: Encoder, edges: Sequence[Edge]
) -> list[tuple[int, int, int]]:
    return [(u, v, encoder.weight(pair_penalty(problem, u, v))) for u, v in edges]


def _fit_tiebreak(problem: Problem) -> Problem:
    """Shrink the tie-break range when huge scores leave too few bits for it."""
    for span in (TIEBREAK_RANGE, 1 << 8, 1):
        candidate = dataclasses.replace(problem, tiebreak_range=span)
        try:
            make_encoder(candidate)
        except OverflowError:
            continue
        return candidate
    raise OverflowError("scores too large for an exact pairing")
