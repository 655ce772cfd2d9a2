"""The integer encoding of the tiers is exactly lexicographic, and the solver keeps it exact."""

from __future__ import annotations

import random

import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from events.pairing import PairingSettings, PlayerState, pair_round
from events.pairing.problem import build_problem
from events.pairing.weights import make_encoder, tier_bounds
from tests.events.pairing_oracle import brute_force_cost


def random_matching_penalties(rng: random.Random, per_edge, pairs: int, bye: bool):
    """Penalty vectors of a hypothetical perfect matching, each within the per-edge bounds.

    Tiers 1, 2 and 6 only exist on the single bye edge, so other edges leave them at 0."""
    bye_only = {1, 2, 6}
    edges = []
    for index in range(pairs):
        is_bye = bye and index == 0
        edges.append(
            tuple(
                0 if (t in bye_only and not is_bye) else rng.randrange(0, bound + 1)
                for t, bound in enumerate(per_edge)
            )
        )
    return edges


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**32))
def test_weight_order_is_lexicographic_order_of_penalty_totals(n, seed):
    rng = random.Random(seed)
    players = [PlayerState(i, rng.choice([0, 3, 9, 30]), i) for i in range(n)]
    problem = build_problem(players, PairingSettings(round_number=2))
    encoder = make_encoder(problem)
    per_edge, _ = tier_bounds(problem)
    pairs = problem.n_vertices // 2
    first = random_matching_penalties(rng, per_edge, pairs, problem.has_bye)
    # A near neighbour of the first (some edges redrawn), so totals are often close or equal.
    fresh = random_matching_penalties(rng, per_edge, pairs, problem.has_bye)
    second = [new if rng.random() < 0.3 else old for old, new in zip(first, fresh, strict=True)]

    def totals(edges):
        return tuple(sum(col) for col in zip(*edges, strict=True))

    def weight(edges):
        return sum(encoder.weight(e) for e in edges)

    assert (weight(first) > weight(second)) == (totals(first) < totals(second))
    assert (weight(first) == weight(second)) == (totals(first) == totals(second))


def test_rustworkx_is_exact_with_weights_near_2_to_the_100():
    # A 4-cycle whose two perfect matchings differ by exactly 1 at a magnitude of 2**100.
    big = 1 << 100
    graph = rx.PyGraph()
    graph.add_nodes_from(range(4))
    graph.add_edges_from([(0, 1, big), (2, 3, big + 1), (1, 2, big), (3, 0, big + 2)])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    assert {tuple(sorted(e)) for e in found} == {(1, 2), (0, 3)}


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32))
def test_huge_scores_stay_exact(n, seed):
    rng = random.Random(seed)
    players = [PlayerState(i, rng.randrange(0, 10**9), i) for i in range(n)]
    config = PairingSettings(round_number=4)
    assert pair_round(players, config).cost == brute_force_cost(players, config)
