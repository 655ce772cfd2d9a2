"""Thin wrapper over rustworkx's exact blossom matching, solved per connected component."""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx

WeightedEdge = tuple[int, int, int]


def _identity(weight: int) -> int:
    return weight


def perfect_matching(
    n_vertices: int, edges: Sequence[WeightedEdge]
) -> list[tuple[int, int]] | None:
    """Maximum-weight perfect matching as sorted ``(u, v)`` with ``u < v``; None if none exists.

    A perfect matching splits over connected components and so does its weight, so solving
    each component alone gives the same optimum; it is much faster because score groups that
    cannot exchange players form separate components.
    """
    pairs: list[tuple[int, int]] = []
    for vertices, local_edges in _components(n_vertices, edges):
        found = solve_component(vertices, local_edges)
        if found is None:
            return None
        pairs.extend(found)
    return sorted(pairs)


def solve_component(vertices: list[int], edges: list[WeightedEdge]) -> list[tuple[int, int]] | None:
    """``max_cardinality=True``: maximum weight among maximum-cardinality matchings."""
    if len(vertices) % 2:
        return None
    local = {v: i for i, v in enumerate(vertices)}
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(vertices)
    graph.add_edges_from([(local[u], local[v], w) for u, v, w in edges])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    if 2 * len(found) != len(vertices):
        return None
    return [(min(vertices[i], vertices[j]), max(vertices[i], vertices[j])) for i, j in found]


def _components(
    n_vertices: int, edges: Sequence[WeightedEdge]
) -> list[tuple[list[int], list[WeightedEdge]]]:
    """Connected components (vertices sorted, edges in input order), isolated vertices too."""
    parent = list(range(n_vertices))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v, _ in edges:
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    members: dict[int, list[int]] = {}
    for v in range(n_vertices):
        members.setdefault(root(v), []).append(v)
    grouped: dict[int, list[WeightedEdge]] = {r: [] for r in members}
    for edge in edges:
        grouped[root(edge[0])].append(edge)
    return [(members[r], grouped[r]) for r in sorted(members)]
