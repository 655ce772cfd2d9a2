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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise


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
    return counted_gap_lower_bound(Counter(scores))


def counted_gap_lower_bound(counts: Mapping[int, int]) -> int:
    """``gap_lower_bound`` from how many vertices hold each score."""
    distinct = sorted(counts, reverse=True)
    bound, total = 0, 0
    for upper, lower in zip(distinct, distinct[1:], strict=False):
        total += counts[upper]
        if total % 2:
            bound += (upper - lower) ** 2
    return bound


@dataclass(frozen=True)
class Thresholds:
    """Score groups (best first) and the thresholds between them, for the bounds above.

    Threshold ``k`` lies between ``scores[k]`` and ``scores[k + 1]``; ``odd[k]`` says the groups
    above it hold an odd number of vertices, so every perfect matching crosses it.
    """

    scores: tuple[int, ...]
    sizes: tuple[int, ...]

    @cached_property
    def widths(self) -> tuple[int, ...]:
        return tuple(a - b for a, b in pairwise(self.scores))

    @cached_property
    def odd(self) -> tuple[bool, ...]:
        return tuple(sum(self.sizes[: k + 1]) % 2 == 1 for k in range(len(self.widths)))

    def natural(self, thresholds: Iterable[int]) -> int:
        """The natural-float bound restricted to some thresholds."""
        return sum(self.widths[k] ** 2 for k in thresholds if self.odd[k])

    def excess(self, i: int, j: int) -> int:
        """How far above the natural bound any perfect matching pairing groups ``i <= j`` is.

        A pair crossing the thresholds ``K = i..j-1`` costs ``(sum of their widths)**2``. The
        other pairs must cross each threshold ``k`` an odd number of times exactly when
        ``odd[k]`` differs from ``k in K``, and each of them costs at least the squared widths
        of the thresholds it crosses (see the module docstring). So every perfect matching
        holding such a pair costs at least ``natural bound + excess(i, j)``. The excess never
        decreases as ``j`` moves away from ``i``: one more threshold ``w`` adds
        ``2 * gap * w + w**2 +- w**2 >= 0``.
        """
        crossed = range(i, j)
        gap = sum(self.widths[k] for k in crossed)
        signed = sum(self.widths[k] ** 2 * (-1 if self.odd[k] else 1) for k in crossed)
        return gap * gap + signed
