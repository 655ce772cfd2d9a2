"""Lower bounds that prove a pairing found on a pruned graph is the global optimum.

Score-gap bound ("natural floats"): sort the distinct scores ``u_1 > ... > u_m`` of the vertices
to pair and let ``T_k`` be the vertices scoring at least ``u_k``. When ``|T_k|`` is odd, every
perfect matching has an odd number of pairs crossing the threshold between ``u_k`` and
``u_{k+1}``, so at least one. A pair with gap ``d = sum of the thresholds it crosses`` costs
``d**2 >= sum of their squares`` (equality only if it crosses at most one). Hence every perfect
matching costs at least ``LB = sum over odd T_k of (u_k - u_{k+1})**2``, and one that costs
exactly ``LB`` only pairs players of the same score or of neighbouring scores across an odd
threshold, once per such threshold. A graph holding all those pairs therefore holds every
matching that reaches ``LB``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def score_groups(scores: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Vertices grouped by score, best score first; input is (vertex, score) pairs."""
    groups: dict[int, list[int]] = {}
    for vertex, score in scores:
        groups.setdefault(score, []).append(vertex)
    return [sorted(groups[s]) for s in sorted(groups, reverse=True)]


def odd_thresholds(sizes: list[int]) -> list[int]:
    """Indices ``k`` such that the first ``k + 1`` groups hold an odd number of vertices."""
    odd, total = [], 0
    for k, size in enumerate(sizes[:-1]):
        total += size
        if total % 2:
            odd.append(k)
    return odd


def gap_lower_bound(scores: Iterable[int]) -> int:
    """The natural-float lower bound on the summed squared score gaps of a perfect matching."""
    counts = Counter(scores)
    distinct = sorted(counts, reverse=True)
    bound, total = 0, 0
    for upper, lower in zip(distinct, distinct[1:], strict=False):
        total += counts[upper]
        if total % 2:
            bound += (upper - lower) ** 2
    return bound
