"""Exact lexicographic encoding of the tiered penalties into one integer weight per edge.

Every perfect matching of the same vertex set has ``E = n_vertices / 2`` edges, and the total of
tier ``t`` over such a matching lies in ``[0, B_t]``. With mixed-radix multipliers
``M_last = 1`` and ``M_t = M_{t+1} * (B_{t+1} + 1)``, the largest possible sum of all lower tiers
is ``M_t - 1`` (the sum telescopes), so it can never make up one unit of tier ``t``. The edge
weight ``C - sum_t p_t * M_t`` (``C`` keeps it positive) therefore orders perfect matchings
exactly as the penalty totals compare lexicographically. Everything stays in Python ints; rustworkx
reads them as i128 and its blossom arithmetic stays in integers (slacks are ``y_u + y_v - 2w``).
Weights are kept below ``2**(I128_HEADROOM - bits(n_vertices))`` so that even duals growing to
``4 * n_vertices`` times the largest weight (a conservative margin) cannot overflow i128.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from events.pairing.problem import (
    BYE_SOFT,
    BYE_STRICT,
    GAP,
    N_TIERS,
    REMATCH,
    REPEAT_BYE,
    STRONG,
    TIEBREAK,
    WEAK,
    Problem,
    bye_penalty,
    pair_penalty,
)
from events.pairing.vectors import pair_terms, tiebreaks

I128_HEADROOM = 124  # 127 value bits minus the factor 4 of the margin above
VECTOR_MIN = 32  # fewer edges than this are weighted one by one (numpy's overhead)


@dataclass(frozen=True)
class Encoder:
    """Multipliers and the positive offset for one problem."""

    multipliers: tuple[int, ...]
    offset: int

    def weight(self, penalty: tuple[int, ...]) -> int:
        """Integer weight of an edge, larger is better."""
        return self.offset - sum(p * m for p, m in zip(penalty, self.multipliers, strict=True))


def tier_bounds(problem: Problem) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(largest value of one edge, largest total over a perfect matching) for every tier."""
    pairs = problem.n_vertices // 2
    last = max(problem.n - 1, 0)
    gap = (problem.max_score - problem.min_score) ** 2
    per_edge = [0] * N_TIERS
    per_edge[REMATCH], per_edge[REPEAT_BYE], per_edge[BYE_STRICT] = 1, 1, last
    per_edge[GAP], per_edge[STRONG], per_edge[WEAK] = gap, 2, 2
    per_edge[BYE_SOFT], per_edge[TIEBREAK] = last, max(problem.tiebreak_range - 1, 0)
    totals = [pairs * value for value in per_edge]
    # Only one edge of a matching touches the bye vertex.
    for tier in (REPEAT_BYE, BYE_STRICT, BYE_SOFT):
        totals[tier] = per_edge[tier]
    return tuple(per_edge), tuple(totals)


def make_encoder(problem: Problem) -> Encoder:
    """Build the mixed-radix encoder; raises if the weights would not fit the solver."""
    per_edge, totals = tier_bounds(problem)
    multipliers = [1] * N_TIERS
    for tier in range(N_TIERS - 2, -1, -1):
        multipliers[tier] = multipliers[tier + 1] * (totals[tier + 1] + 1)
    offset = 1 + sum(p * m for p, m in zip(per_edge, multipliers, strict=True))
    if offset.bit_length() > I128_HEADROOM - problem.n_vertices.bit_length():
        raise OverflowError("pairing weights exceed the exact integer range of the solver")
    return Encoder(tuple(multipliers), offset)


def edge_weights(problem: Problem, encoder: Encoder, edges: Sequence[tuple[int, int]]) -> list[int]:
    """``encoder.weight(pair_penalty(problem, u, v))`` for every edge, vectorised when the
    scores allow it (``vectors``); the tie-break's multiplier is 1, the lowest tier's."""
    if not problem.arrays.exact or len(edges) < VECTOR_MIN:
        return [encoder.weight(pair_penalty(problem, u, v)) for u, v in edges]
    us, vs = np.asarray(edges, dtype=np.int64).reshape(-1, 2).T
    real = vs != problem.n
    ru, rv = us[real], vs[real]
    terms = pair_terms(problem, ru, rv)
    offset, multipliers = encoder.offset, encoder.multipliers
    found = [offset - t for t in tiebreaks(problem, ru, rv).tolist()]
    penalised = terms.rematch | (terms.gap != 0) | (terms.strong != 0) | (terms.weak != 0)
    for k in np.flatnonzero(penalised).tolist():
        found[k] -= (
            int(terms.rematch[k]) * multipliers[REMATCH]
            + int(terms.gap[k]) * multipliers[GAP]
            + int(terms.strong[k]) * multipliers[STRONG]
            + int(terms.weak[k]) * multipliers[WEAK]
        )
    if real.all():
        return found
    weights = [0] * len(edges)
    for k, weight in zip(np.flatnonzero(real).tolist(), found, strict=True):
        weights[k] = weight
    for k in np.flatnonzero(~real).tolist():
        weights[k] = encoder.weight(bye_penalty(problem, int(us[k])))
    return weights
