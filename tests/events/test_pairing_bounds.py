"""The natural-float lower bound that lets the engine prove a pruned solve optimal."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.pairing.bounds import gap_lower_bound, odd_thresholds, score_groups
from tests.events.pairing_oracle import all_pairings

score_lists = st.lists(st.sampled_from([0, 1, 2, 3, 4, 6, 9, 10]), min_size=2, max_size=10).filter(
    lambda xs: len(xs) % 2 == 0
)


def gap_cost(pairing, scores):
    return sum((scores[a] - scores[b]) ** 2 for a, b in pairing)


@settings(max_examples=150, deadline=None)
@given(score_lists)
def test_bound_is_the_unconstrained_minimum(scores):
    best = min(gap_cost(m, scores) for m in all_pairings(list(range(len(scores)))))
    assert best == gap_lower_bound(scores)


@settings(max_examples=150, deadline=None)
@given(score_lists)
def test_pairings_on_the_bound_only_use_neighbouring_scores(scores):
    distinct = sorted(set(scores), reverse=True)
    bound = gap_lower_bound(scores)
    for pairing in all_pairings(list(range(len(scores)))):
        if gap_cost(pairing, scores) != bound:
            continue
        for a, b in pairing:
            steps = abs(distinct.index(scores[a]) - distinct.index(scores[b]))
            assert steps <= 1


def test_bound_by_hand():
    # Scores 9, 6, 6, 0: groups {9}, {6, 6}, {0}; odd prefixes after 9 (1) and after 6 (3):
    # (9-6)^2 + (6-0)^2 = 45, e.g. 9-6 and 6-0.
    assert gap_lower_bound([9, 6, 6, 0]) == 45
    assert gap_lower_bound([3, 3, 0, 0]) == 0


def test_groups_and_thresholds():
    groups = score_groups([(0, 3), (1, 0), (2, 3), (3, 1)])
    assert groups == [[0, 2], [3], [1]]
    assert odd_thresholds([len(g) for g in groups]) == [1]
