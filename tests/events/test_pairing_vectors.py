"""The vectorised paths (numpy) give exactly what the plain per-pair definitions give."""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.pairing.bounds import score_groups
from events.pairing.graphs import groups_of, is_clean, shuffled
from events.pairing.hashing import item_key, stable_key
from events.pairing.problem import N_COST_TIERS, build_problem, pair_penalty
from events.pairing.swiss import fit_tiebreak, matching_cost
from events.pairing.vectors import clean_mask, rematches
from events.pairing.weights import edge_weights, make_encoder
from tests.events.pairing_oracle import random_event, random_settings

CASES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
events = st.tuples(
    st.integers(2, 40),
    st.integers(0, 2**32),
    st.sampled_from(["small", "negative", "huge"]),  # ids; "huge" ones do not fit int64
)


def build(case):
    n, seed, ids = case
    rng = random.Random(seed)
    players, config = random_event(rng, n), random_settings(rng)
    if ids != "small":
        shift = -(10**6) if ids == "negative" else 1 << 70
        moved = {p.id: p.id + shift for p in players}
        players = [
            dataclasses.replace(
                p, id=moved[p.id], opponents=frozenset(moved[o] for o in p.opponents)
            )
            for p in players
        ]
    ids_ = [p.id for p in players]
    preferred = [tuple(rng.sample(ids_, 2)) for _ in range(rng.randrange(0, 4))]
    preferred = list({frozenset(pair): pair for pair in preferred}.values())  # distinct pairs
    return fit_tiebreak(build_problem(players, config, preferred)), rng


def every_edge(problem):
    edges = list(combinations(range(problem.n), 2))
    if problem.has_bye:
        edges.extend((u, problem.dummy) for u in range(problem.n))
    return edges


@CASES
@given(events)
def test_edge_weights_equal_the_plain_encoding(case):
    problem, rng = build(case)
    encoder = make_encoder(problem)
    edges = every_edge(problem)
    # The bracket step may list a pair larger vertex first (carried players of any rank).
    edges = [(v, u) if v != problem.n and rng.random() < 0.3 else (u, v) for u, v in edges]
    plain = [encoder.weight(pair_penalty(problem, u, v)) for u, v in edges]
    assert edge_weights(problem, encoder, edges) == plain


@CASES
@given(events)
def test_matching_cost_equals_the_plain_sum(case):
    problem, rng = build(case)
    vertices = list(range(problem.n_vertices))
    rng.shuffle(vertices)
    pairs = [tuple(sorted(pair)) for pair in zip(vertices[::2], vertices[1::2], strict=True)]
    plain = tuple(
        sum(pair_penalty(problem, u, v)[tier] for u, v in pairs) for tier in range(N_COST_TIERS)
    )
    assert matching_cost(problem, pairs) == plain


@CASES
@given(events)
def test_rematches_and_clean_pairs_equal_the_plain_checks(case):
    problem, _ = build(case)
    edges = every_edge(problem)
    us, vs = (np.asarray(side, dtype=np.int64) for side in zip(*edges, strict=True))
    real = [k for k, (_, v) in enumerate(edges) if v != problem.n]
    met = [problem.met(*edges[k]) for k in real]
    assert rematches(problem, us[real], vs[real]).tolist() == met
    assert rematches(problem, vs[real], us[real]).tolist() == met
    assert met == [v in problem.opponents[u] for u, v in (edges[k] for k in real)]
    assert clean_mask(problem, us, vs).tolist() == [is_clean(problem, u, v) for u, v in edges]


@CASES
@given(events)
def test_groups_and_shuffles_equal_the_plain_sorts(case):
    problem, rng = build(case)
    core = rng.sample(range(problem.n_vertices), rng.randrange(0, problem.n_vertices + 1))
    assert groups_of(problem, core) == score_groups((v, problem.score(v)) for v in core)
    base = stable_key(problem.settings.seed, problem.settings.round_number, "cycle", 1)
    hashes = problem.id_hashes
    expected = sorted(core, key=lambda v: (item_key(base, hashes[v]), v))
    assert shuffled(problem, core, "cycle", 1) == expected
