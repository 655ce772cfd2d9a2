"""Fastest first attempt: score groups solved one at a time, top down, floaters chosen first.

It only has to *find* a pairing that reaches every lower bound; the caller checks that it did,
so a floater choice that leads nowhere costs a later, slower step but never correctness.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from events.pairing.floats import FLOAT_GROUP, sample
from events.pairing.graphs import (
    SMALL_GROUP,
    Edge,
    groups_of,
    is_allowed,
    is_clean,
    ordered,
    sparse_across,
    sparse_within,
)
from events.pairing.matching import solve_pairs
from events.pairing.problem import Problem, tiebreak
from events.pairing.vectors import clean_mask, tiebreaks
from events.pairing.weights import Encoder, edge_weights

FLOATER_TRIES = 4


def bracket_pairs(
    problem: Problem, encoder: Encoder, core: list[int], fixed: Sequence[Edge], turns: int
) -> list[Edge] | None:
    """Pair group by group: when a group is left odd, try the few best floater pairs into the
    next group until the rest can be paired inside itself. A small group that cannot pair at
    all (its players already met) is carried down whole into the next group."""
    groups = groups_of(problem, core)
    pairs: list[Edge] = list(fixed)
    incoming: int | None = None  # player floated up into this group by the previous threshold
    carried: list[int] = []  # players of the groups above, still to pair
    for k, group in enumerate(groups):
        members = [*carried, *(v for v in group if v != incoming)]
        below = groups[k + 1] if k + 1 < len(groups) else []
        # The members left unpaired have the parity of the groups so far: odd at odd thresholds.
        options = _floaters(problem, members, below, turns) if len(members) % 2 else [None]
        for option in options:
            rest = [v for v in members if option is None or v != option[0]]
            found = _match(problem, encoder, rest, carried, turns)
            if found is not None:
                break
        else:
            if not below or len(members) > FLOAT_GROUP:
                return None
            incoming, carried = None, members
            continue
        pairs.extend(found)
        incoming, carried = (None if option is None else option[1]), []
        if option is not None:
            pairs.append((min(option), max(option)))
    return sorted(pairs)


def _floaters(
    problem: Problem, upper: list[int], lower: list[int], turns: int
) -> list[tuple[int, int]]:
    """Up to ``FLOATER_TRIES`` allowed (upper, lower) pairs: the smallest score gap first (a
    carried player floats on only if it must), then clean ones, then by the seeded tie-break."""
    above = set(upper)
    oriented = [
        (u, v) if u in above else (v, u) for u, v in sparse_across(problem, upper, lower, turns)
    ]
    if problem.arrays.exact and len(oriented) > FLOATER_TRIES:
        return _best_floaters(problem, oriented)
    oriented.sort(
        key=lambda pair: (
            problem.score(pair[0]) - problem.score(pair[1]),
            not is_clean(problem, min(pair), max(pair)),
            tiebreak(problem, min(pair), max(pair)),
            pair,
        )
    )
    return oriented[:FLOATER_TRIES]


def _best_floaters(problem: Problem, oriented: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The first ``FLOATER_TRIES`` of ``oriented`` in the order of ``_floaters``, vectorised."""
    ups, downs = np.asarray(oriented, dtype=np.int64).T
    lows, highs = np.minimum(ups, downs), np.maximum(ups, downs)
    score = problem.arrays.score
    unclean = ~clean_mask(problem, lows, highs)
    order = np.lexsort(
        (downs, ups, tiebreaks(problem, lows, highs), unclean, score[ups] - score[downs])
    )
    return [oriented[k] for k in order[:FLOATER_TRIES].tolist()]


def _match(
    problem: Problem, encoder: Encoder, rest: list[int], carried: list[int], turns: int
) -> list[Edge] | None:
    if not rest:
        return []
    candidates = sparse_within(problem, rest, turns)
    left = set(rest)
    carried = [v for v in carried if v in left]  # one of them may have floated on
    if carried or len(rest) <= SMALL_GROUP:  # else already sorted, without repeats
        pool = set(candidates)
        if carried:
            others = [v for v in rest if v not in carried]
            targets = [*carried, *sample(problem, others, turns)]
            pairs = {ordered(u, v) for u in carried for v in targets if u != v}
            pool.update(e for e in pairs if is_allowed(problem, *e))
        candidates = sorted(pool)
    return solve_pairs(rest, candidates, edge_weights(problem, encoder, candidates))
