"""Thin wrapper over rustworkx's exact blossom matching."""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx


def _identity(weight: int) -> int:
    return weight


def perfect_matching(
    n_vertices: int, edges: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int]] | None:
    """Maximum-weight perfect matching as sorted ``(u, v)`` with ``u < v``; None if none exists.

    ``max_cardinality=True`` makes rustworkx maximise weight among maximum-cardinality
    matchings, so a perfect one is returned whenever the graph has one.
    """
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n_vertices))
    graph.add_edges_from(edges)
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    if 2 * len(found) != n_vertices:
        return None
    return sorted((min(u, v), max(u, v)) for u, v in found)
