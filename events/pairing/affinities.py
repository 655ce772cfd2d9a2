"""A lower bound on the club/faction tiers, for pairings on the natural score-gap bound.

When a small group can only pair through a same-club pair (two club mates alone on top, say),
no pairing reaches the bound 0 of those tiers. This module proves how many such pairs every
pairing must hold, looking only at a few small groups ("windows").

A pairing whose score gap equals the natural bound pairs inside the score groups, except for
exactly one pair across each odd threshold, between its two neighbouring groups (``bounds``).
Take disjoint ranges of consecutive groups. Restricted to one range, such a pairing is a perfect
matching of the range's members plus one wildcard per odd threshold at its ends (standing for
the player across it, who pairs any member of the end group at no club/faction cost), using only
pairs inside a group or across an odd threshold inside the range. Club/faction counts only fall
under this relaxation, so each range's least (strong, weak) totals bound the pairing's pairs
inside the range, and their sum bounds the whole pairing: its strong total is at least the sum
of the least strong totals, and when it equals it, every range is at its least strong total and
so holds at least that range's least weak total among those.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import rustworkx as rx

from events.pairing.graphs import Edge, is_rematch
from events.pairing.problem import Problem, affinity_counts
from events.pairing.windows import layout_of

WINDOW_LIMIT = 48  # members of a range beyond which it is not solved (bounded by 0 instead)
PADS = (0, 1, 2)  # groups added on each side of the groups holding a club/faction pair

Range = tuple[int, int]  # first and last group, inclusive


def affinity_bound(
    problem: Problem, core: list[int], pairs: Iterable[Edge], target: tuple[int, int]
) -> tuple[int, int]:
    """Least (strong, weak) totals of any pairing of ``core`` on the natural gap bound, from
    ranges around the club/faction pairs of ``pairs``, widened until the bound reaches
    ``target`` (each range set gives a valid bound, so the best of them is one too)."""
    groups, layout = layout_of(problem, core)
    group_of = {v: k for k, group in enumerate(groups) for v in group}
    marked = sorted(
        {
            group_of[x]
            for u, v in pairs
            if u in group_of and v in group_of and _counts(problem, u, v) != (0, 0)
            for x in (u, v)
        }
    )
    best = (0, 0)
    for pad in PADS:
        found = _ranges_bound(
            problem, groups, group_of, layout.odd, _ranges(marked, pad, len(groups))
        )
        best = max(best, found)
        if best >= target:
            break
    return best


def _ranges_bound(
    problem: Problem,
    groups: list[list[int]],
    group_of: dict[int, int],
    odd: tuple[bool, ...],
    ranges: list[Range],
) -> tuple[int, int]:
    strong = weak = 0
    for first, last in ranges:
        members = [v for k in range(first, last + 1) for v in groups[k]]
        if len(members) > WINDOW_LIMIT:
            continue  # (0, 0) is a bound for this range too
        wildcards = [k for k in (first - 1, last) if 0 <= k < len(odd) and odd[k]]
        least = _least(problem, members, group_of, odd, first, last, wildcards)
        if least is not None:
            strong, weak = strong + least[0], weak + least[1]
    return strong, weak


def _counts(problem: Problem, u: int, v: int) -> tuple[int, int]:
    if v == problem.n or u == problem.n:
        return (0, 0)
    return affinity_counts(problem.settings, problem.players[u], problem.players[v])


def _ranges(marked: list[int], pad: int, n_groups: int) -> list[Range]:
    """Runs of consecutive marked groups widened by ``pad``, merged where they meet."""
    ranges: list[Range] = []
    for k in marked:
        first, last = max(k - pad, 0), min(k + pad, n_groups - 1)
        if ranges and first <= ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], last)
        else:
            ranges.append((first, last))
    return ranges


def _least(
    problem: Problem,
    members: list[int],
    group_of: dict[int, int],
    odd: tuple[bool, ...],
    first: int,
    last: int,
    wildcards: list[int],
) -> tuple[int, int] | None:
    """Least (strong, weak) among the perfect matchings of the range's relaxation (module
    docstring) of least score gap: a natural pairing crosses each odd threshold inside the
    range once, so its restriction is one of those."""
    size = len(members) + len(wildcards)
    if size % 2:
        return None
    scale = size + 1  # a weak total never reaches one strong pair's weight
    unit = size * (scale + 1) + 1  # nor any club/faction total one unit of score gap
    costs = []
    for (i, u), (j, v) in combinations(enumerate(members), 2):
        gu, gv = sorted((group_of[u], group_of[v]))
        if (gu == gv or (gv == gu + 1 and odd[gu])) and not is_rematch(
            problem, min(u, v), max(u, v)
        ):
            strong, weak = _counts(problem, u, v)
            gap = (problem.score(u) - problem.score(v)) ** 2
            costs.append((i, j, gap * unit + strong * scale + weak))
    for w, threshold in enumerate(wildcards):
        end = first if threshold == first - 1 else last
        costs.extend((len(members) + w, i, 0) for i, v in enumerate(members) if group_of[v] == end)
    top = max((c for *_, c in costs), default=0) + 1
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from([(i, j, top - c) for i, j, c in costs])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(found) != size:
        return None
    total = sum(top - graph.get_edge_data(i, j) for i, j in found)
    return divmod(total % unit, scale)
