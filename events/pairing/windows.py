"""A sharper lower bound on the score-gap tier, proven window by window.

The natural-float bound (``bounds``) is loose where a small group cannot pair the way natural
floats need, typically because its players already met: then someone floats across an even
threshold or past a whole group, and no pairing reaches the bound. This module proves how much
more such a spot must cost, looking only at a few thresholds around it.

Windows. Let ``W_1 .. W_r`` be disjoint intervals of thresholds and ``R`` the thresholds in none
of them. A pair crossing the thresholds ``K`` costs ``(sum of their widths)**2``, which is at
least ``sum_i (sum of the widths in K and W_i)**2 + sum of the squared widths in K and R``
(the square of a sum of non-negative terms is at least the sum of their squares). The part for
``W_i`` is the pair's gap once every score is clamped into ``W_i``'s range. Summed over a
perfect matching ``M``: ``gap(M) >= sum_i clamped_i(M) + sum_{k in R} c_k(M) * width_k**2``
where ``c_k(M)``, the pairs crossing ``k``, is odd (so at least 1) at an odd threshold. So every
rematch-free perfect matching (with no repeated bye while a player has had none: the pairings
the bound on the tiers above the score gap leaves) costs at least
``sum_i min clamped_i + natural(R)``.

Each minimum is bounded from below by a small relaxation, itself solved exactly: vertices
outside the small groups of the window ("free") lose their rematch constraints, which only
enlarges the feasible set. Free vertices of one clamped score are interchangeable, and an
optimum of the relaxation never needs two free-free pairs between the same two levels
(re-pairing them inside their levels costs 0), so at most ``held + levels - 1`` free vertices
of a level pair outside it; the rest pair among themselves at cost 0. Keeping that many tokens
per level (with the level's parity) therefore leaves the minimum unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import rustworkx as rx

from events.pairing.bounds import Thresholds
from events.pairing.graphs import Edge, groups_of, is_rematch
from events.pairing.problem import Problem

HELD_GROUP = 24  # groups at most this large keep their rematch constraints inside a window
HELD_LIMIT = 64  # beyond this many constrained vertices a window keeps its natural bound
WINDOW_LIMIT = 120  # ... and beyond this many vertices with the tokens (a quick solve)
PADS = (1, 2)  # thresholds added on each side of the spots where a pairing exceeds the bound

Window = tuple[int, int]  # first and last threshold, inclusive


def layout_of(problem: Problem, core: list[int]) -> tuple[list[list[int]], Thresholds]:
    """The core's score groups and their thresholds."""
    groups = groups_of(problem, core)
    scores = tuple(problem.score(g[0]) for g in groups)
    return groups, Thresholds(scores, tuple(len(g) for g in groups))


def window_gap_bound(problem: Problem, core: list[int], pairs: Iterable[Edge], target: int) -> int:
    """A lower bound on the score gap of every perfect matching of ``core`` without a blocked
    pair (``_blocked``).

    The windows surround the thresholds where ``pairs`` (a pairing of ``core`` plus possibly
    fixed pairs, ignored) exceeds the natural bound; wider ones are tried until the bound
    reaches ``target``.
    """
    groups, layout = layout_of(problem, core)
    group_of = {v: k for k, group in enumerate(groups) for v in group}
    spots = _excess_spots(layout, group_of, pairs)
    best = layout.natural(range(len(layout.widths)))
    for pad in PADS:
        if best >= target or not spots:
            break
        windows = _windows(spots, pad, len(layout.widths))
        inside = {k for a, b in windows for k in range(a, b + 1)}
        bound = layout.natural(k for k in range(len(layout.widths)) if k not in inside)
        bound += sum(_window_minimum(problem, groups, layout, w) for w in windows)
        best = max(best, bound)
    return best


def _excess_spots(layout: Thresholds, group_of: dict[int, int], pairs: Iterable[Edge]) -> list[int]:
    """Thresholds crossed more often than their parity needs, or by a pair crossing several."""
    crossings = [0] * len(layout.widths)
    spots: set[int] = set()
    for u, v in pairs:
        if u not in group_of or v not in group_of:
            continue
        i, j = sorted((group_of[u], group_of[v]))
        for k in range(i, j):
            crossings[k] += 1
        if j - i > 1:
            spots.update(range(i, j))
    spots.update(k for k, count in enumerate(crossings) if count > layout.odd[k])
    return sorted(spots)


def _windows(spots: Sequence[int], pad: int, n_thresholds: int) -> list[Window]:
    """Disjoint intervals ``[spot - pad, spot + pad]``, merged when they overlap or touch."""
    windows: list[Window] = []
    for spot in spots:
        start, end = max(spot - pad, 0), min(spot + pad, n_thresholds - 1)
        if windows and start <= windows[-1][1] + 1:
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
        else:
            windows.append((start, end))
    return windows


def _window_minimum(
    problem: Problem, groups: list[list[int]], layout: Thresholds, window: Window
) -> int:
    """Exact minimum of the window's relaxation (module docstring); its natural bound if the
    relaxation would be too large to solve quickly."""
    first, last = window
    natural = layout.natural(range(first, last + 1))
    levels = layout.scores[first : last + 2]
    held = [
        (v, k - first)
        for k in range(first, last + 2)
        if len(groups[k]) <= HELD_GROUP
        for v in groups[k]
    ]
    if len(held) > HELD_LIMIT:
        return natural
    free = [0] * len(levels)
    for k, group in enumerate(groups):
        if len(group) > HELD_GROUP or not first <= k <= last + 1:
            free[min(max(k, first), last + 1) - first] += len(group)
    spare = len(held) + len(levels) - 1
    tokens = [
        (None, level)
        for level, count in enumerate(free)
        for _ in range(count if count <= spare else spare + (count - spare) % 2)
    ]
    if len(held) + len(tokens) > WINDOW_LIMIT:
        return natural
    found = _min_cost_perfect(problem, [*held, *tokens], levels)
    return natural if found is None else max(found, natural)


def _blocked(problem: Problem, u: int, v: int) -> bool:
    """A pair no pairing on the bound of the tiers above the score gap holds: a rematch, or a
    repeated bye while some player has had none (``swiss.lower_bound``)."""
    if v == problem.n:
        return problem.players[u].had_bye and not all(p.had_bye for p in problem.players)
    return is_rematch(problem, u, v)


def _min_cost_perfect(
    problem: Problem, vertices: list[tuple[int | None, int]], levels: tuple[int, ...]
) -> int | None:
    """Least clamped gap of a perfect matching; two held vertices cannot pair if they met, nor
    the bye vertex with a player who had a bye while someone has not (see ``_blocked``)."""
    if len(vertices) % 2:
        return None
    top = (levels[0] - levels[-1]) ** 2 + 1
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(vertices)))
    edges = []
    for (i, (u, lu)), (j, (v, lv)) in combinations(enumerate(vertices), 2):
        if u is not None and v is not None and _blocked(problem, min(u, v), max(u, v)):
            continue
        edges.append((i, j, top - (levels[lu] - levels[lv]) ** 2))
    graph.add_edges_from(edges)
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(found) != len(vertices):
        return None
    return sum((levels[vertices[i][1]] - levels[vertices[j][1]]) ** 2 for i, j in found)
