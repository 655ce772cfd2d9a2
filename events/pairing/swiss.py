"""Swiss pairing of a later round: one exact optimum of the tiered objective.

The solve climbs a ladder of candidate graphs and stops at the first pairing *proven* globally
optimal. The proofs compare the pairing's cost, tier by tier, with lower bounds that hold for
every pairing: the natural-float bound (``bounds``), sharpened where the pairing exceeds it by
windows around a few thresholds (``windows`` for the score gap, ``affinities`` for the
club/faction tiers). The first graphs are sparse and mostly fall apart into small brackets that
``matching`` solves one by one.

1. ``bracket`` (score groups one by one, floaters chosen first, a small group that cannot pair
   itself carried down whole, see ``brackets``), then ``sparse``: seeded clean pairs inside each
   score group and across each odd threshold, every allowed pair of small groups; ``floats``:
   the same plus candidates that take a small group's players past even thresholds or whole
   groups (``floats``); ``sparse_wide``: more seeded pairs and those candidates. Proven when the
   pairing reaches the (sharpened) bound of every cost tier: no pairing anywhere does better.
2. ``adjacent``: every rematch-free pair inside a score group or across an odd threshold.
   Proven when it reaches the bound of the tiers down to the score gap: every pairing that
   does as well lies in this graph, so its lower tiers are optimal too.
3. ``slack``: once some step found a rematch-free pairing on the bound of the tiers above the
   score gap, every rematch-free pair whose excess over the natural bound does not exceed that
   pairing's (``floats.slack_edges``). Every optimum lies in this graph, so it is always proven.
4. ``full``: every rematch-free pair. Proven as soon as it is perfect (a rematch loses tier 1).
5. ``complete``: every pair; rematches are allowed and minimised first.

The seeded tie-break only chooses among pairings of equal cost; it is not part of the cost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from events.pairing.affinities import affinity_bound
from events.pairing.bounds import counted_gap_lower_bound, gap_lower_bound
from events.pairing.brackets import bracket_pairs
from events.pairing.floats import float_edges, slack_edges
from events.pairing.graphs import Edge, adjacent_edges, all_edges, core_and_fixed, sparse_edges
from events.pairing.matching import perfect_matching
from events.pairing.problem import (
    BYE_SOFT,
    GAP,
    N_COST_TIERS,
    REMATCH,
    REPEAT_BYE,
    STRONG,
    TIEBREAK_RANGE,
    WEAK,
    Problem,
    pair_penalty,
)
from events.pairing.results import build_result
from events.pairing.types import PairingResult
from events.pairing.vectors import pair_terms
from events.pairing.weights import VECTOR_MIN, Encoder, edge_weights, make_encoder
from events.pairing.windows import window_gap_bound

SPARSE_TURNS = 2
WIDE_TURNS = 12

Cost = tuple[int, ...]
Step = tuple[str, Callable[[], list[Edge] | None], Callable[[list[Edge], Cost], bool]]


def solve(problem: Problem, tables: int | None = None) -> PairingResult:
    """Proven-optimal pairing of ``problem``, then tables and deviations."""
    pairs, cost, method = optimal_pairs(problem)
    return build_result(problem, pairs, cost, method, tables)


def optimal_pairs(problem: Problem) -> tuple[list[Edge], Cost, str]:
    """Vertex pairs of a proven optimum, its cost and the ladder step that proved it."""
    problem = fit_tiebreak(problem)
    ladder = Ladder(problem, make_encoder(problem))
    for method, attempt, proven in ladder.steps():
        pairs = attempt()
        if pairs is None:
            continue
        cost = matching_cost(problem, pairs)
        if proven(pairs, cost):
            return pairs, cost, method
        ladder.record(cost)
    raise AssertionError("the complete graph always has a perfect matching")


def matching_cost(problem: Problem, pairs: Sequence[Edge]) -> Cost:
    """Sum of the cost tiers (the tie-break excluded) over a matching."""
    totals = [0] * N_COST_TIERS
    if problem.arrays.exact and len(pairs) >= VECTOR_MIN:
        us, vs = np.asarray(pairs, dtype=np.int64).T
        real = vs != problem.n
        terms = pair_terms(problem, us[real], vs[real])
        for tier, values in ((REMATCH, terms.rematch), (GAP, terms.gap)):
            totals[tier] = int(values.sum())
        totals[STRONG], totals[WEAK] = int(terms.strong.sum()), int(terms.weak.sum())
        pairs = [(u, problem.n) for u in us[~real].tolist()]  # the bye: plain below
    for u, v in pairs:
        for tier, value in enumerate(pair_penalty(problem, u, v)[:N_COST_TIERS]):
            totals[tier] += value
    return tuple(totals)


def lower_bound(problem: Problem, core: list[int]) -> Cost:
    """Cost no pairing can beat on any tier (reached by most real rounds)."""
    bound = [0] * N_COST_TIERS
    if problem.has_bye and all(p.had_bye for p in problem.players):
        bound[REPEAT_BYE] = 1
    if problem.arrays.exact:
        values, counts = np.unique(problem.arrays.score[core], return_counts=True)
        bound[GAP] = counted_gap_lower_bound(
            dict(zip(values.tolist(), counts.tolist(), strict=True))
        )
    else:
        bound[GAP] = gap_lower_bound(problem.score(v) for v in core)
    return tuple(bound)


def weighted(
    problem: Problem, encoder: Encoder, edges: Sequence[Edge]
) -> list[tuple[int, int, int]]:
    """Edges with their encoded integer weights."""
    weights = edge_weights(problem, encoder, edges)
    return [(u, v, w) for (u, v), w in zip(edges, weights, strict=True)]


class Ladder:
    """The steps of the module docstring, with what the failed ones taught."""

    def __init__(self, problem: Problem, encoder: Encoder) -> None:
        self.problem, self.encoder = problem, encoder
        self.core, self.fixed = core_and_fixed(problem)
        self.bound = lower_bound(problem, self.core)
        # Least score gap of a rematch-free pairing found so far on the bound of the tiers
        # above the score gap (an upper bound on the optimum's, for the ``slack`` step).
        self.best_gap: int | None = None

    def record(self, cost: Cost) -> None:
        if cost[:GAP] == self.bound[:GAP]:  # so no rematch either
            self.best_gap = cost[GAP] if self.best_gap is None else min(self.best_gap, cost[GAP])

    def reaches_all(self, pairs: list[Edge], cost: Cost) -> bool:
        """On the bound of every tier, sharpened where needed: the score gap's by windows
        (``windows``), or, on the natural gap bound, the club/faction tiers' (``affinities``)."""
        bound = self.bound
        if cost[:GAP] != bound[:GAP] or cost[BYE_SOFT] != bound[BYE_SOFT]:
            return False
        affinities = (cost[STRONG], cost[WEAK])
        if cost[GAP] == bound[GAP]:
            if affinities == (0, 0):
                return True
            return affinity_bound(self.problem, self.core, pairs, affinities) >= affinities
        if affinities != (0, 0):
            return False
        return window_gap_bound(self.problem, self.core, pairs, cost[GAP]) >= cost[GAP]

    def reaches_gap(self, pairs: list[Edge], cost: Cost) -> bool:
        return cost[: GAP + 1] == self.bound[: GAP + 1] or self.reaches_all(pairs, cost)

    def within_slack(self, pairs: list[Edge], cost: Cost) -> bool:
        """See ``floats``: any pairing as good holds only pairs of the slack graph."""
        best = self.best_gap
        return best is not None and cost[:GAP] == self.bound[:GAP] and cost[GAP] <= best

    def matched(self, edges: Sequence[Edge]) -> list[Edge] | None:
        problem = self.problem
        return perfect_matching(problem.n_vertices, weighted(problem, self.encoder, edges))

    def pruned(self, turns: int, floats: bool) -> list[Edge] | None:
        problem, core = self.problem, self.core
        edges = sparse_edges(problem, core, self.fixed, turns)
        if floats:
            edges |= float_edges(problem, core, SPARSE_TURNS)
        return self.matched(sorted(edges))

    def adjacent(self) -> list[Edge] | None:
        return self.matched(sorted(adjacent_edges(self.problem, self.core, self.fixed)))

    def slack(self) -> list[Edge] | None:
        if self.best_gap is None:
            return None
        excess = self.best_gap - self.bound[GAP]
        return self.matched(slack_edges(self.problem, self.core, self.fixed, excess))

    def steps(self) -> Iterator[Step]:
        problem, encoder, core, fixed = self.problem, self.encoder, self.core, self.fixed
        yield (
            "bracket",
            lambda: bracket_pairs(problem, encoder, core, fixed, SPARSE_TURNS),
            self.reaches_all,
        )
        yield "sparse", lambda: self.pruned(SPARSE_TURNS, floats=False), self.reaches_all
        yield "floats", lambda: self.pruned(SPARSE_TURNS, floats=True), self.reaches_all
        yield "sparse_wide", lambda: self.pruned(WIDE_TURNS, floats=True), self.reaches_all
        yield "adjacent", self.adjacent, self.reaches_gap
        yield "slack", self.slack, self.within_slack
        yield "full", lambda: self.matched(all_edges(problem, rematches=False)), _anything
        yield "complete", lambda: self.matched(all_edges(problem, rematches=True)), _anything


def _anything(pairs: list[Edge], cost: Cost) -> bool:
    return True


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
