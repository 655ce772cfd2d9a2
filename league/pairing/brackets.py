"""Fastest first attempt: score groups solved one at a time, top down, floaters chosen first.

It only has to *find* a pairing that reaches every lower bound; the caller checks that it did,
so a floater choice that leads nowhere costs a later, slower step but never correctness.
"""

from __future__ import annotations

from collections.abc import Sequence

from league.pairing.bounds import odd_thresholds
from league.pairing.graphs import Edge, groups_of, sparse_across, sparse_within
from league.pairing.matching import solve_component
from league.pairing.problem import Problem, pair_penalty, tiebreak
from league.pairing.weights import Encoder

FLOATER_TRIES = 4


def bracket_pairs(
    problem: Problem, encoder: Encoder, core: list[int], fixed: Sequence[Edge], turns: int
) -> list[Edge] | None:
    """Pair group by group: at an odd threshold, try the few best clean floater pairs (by the
    seeded tie-break) until the rest of the upper group can be paired inside itself."""
    groups = groups_of(problem, core)
    odd = set(odd_thresholds([len(g) for g in groups]))
    pairs: list[Edge] = list(fixed)
    incoming: int | None = None  # player floated up into this group by the previous threshold
    for k, group in enumerate(groups):
        members = [v for v in group if v != incoming]
        options = _floaters(problem, members, groups[k + 1], turns) if k in odd else [None]
        for option in options:
            rest = [v for v in members if option is None or v != option[0]]
            found = _match(problem, encoder, rest, turns)
            if found is not None:
                break
        else:
            return None
        pairs.extend(found)
        incoming = None if option is None else option[1]
        if option is not None:
            pairs.append((min(option), max(option)))
    return sorted(pairs)


def _floaters(
    problem: Problem, upper: list[int], lower: list[int], turns: int
) -> list[tuple[int, int]]:
    """Up to ``FLOATER_TRIES`` clean (upper, lower) pairs, best seeded tie-break first."""
    above = set(upper)
    oriented = [
        (u, v) if u in above else (v, u) for u, v in sparse_across(problem, upper, lower, turns)
    ]
    oriented.sort(key=lambda pair: (tiebreak(problem, min(pair), max(pair)), pair))
    return oriented[:FLOATER_TRIES]


def _match(problem: Problem, encoder: Encoder, rest: list[int], turns: int) -> list[Edge] | None:
    if not rest:
        return []
    edges = [
        (u, v, encoder.weight(pair_penalty(problem, u, v)))
        for u, v in sparse_within(problem, rest, turns)
    ]
    return solve_component(rest, edges)
