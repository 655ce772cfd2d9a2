"""Thin wrapper over rustworkx's exact blossom matching, solved per connected component."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import rustworkx as rx

WeightedEdge = tuple[int, int, int]
VECTOR_MIN = 64  # fewer edges than this are relabelled one by one (numpy's overhead)


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
    if len(edges) < VECTOR_MIN:
        local = {v: i for i, v in enumerate(vertices)}
        local_edges = [(local[u], local[v], w) for u, v, w in edges]
    else:
        ends = np.asarray([(u, v) for u, v, _ in edges], dtype=np.int64)
        local_edges = _localised(vertices, ends[:, 0], ends[:, 1], [w for *_, w in edges])
    return _solve(vertices, local_edges)


def solve_pairs(
    vertices: list[int], pairs: Sequence[tuple[int, int]], weights: list[int]
) -> list[tuple[int, int]] | None:
    """``solve_component`` with the edges given as pairs and their weights."""
    if len(pairs) < VECTOR_MIN:
        return solve_component(
            vertices, [(u, v, w) for (u, v), w in zip(pairs, weights, strict=True)]
        )
    ends = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return _solve(vertices, _localised(vertices, ends[:, 0], ends[:, 1], weights))


def _localised(
    vertices: list[int], us: np.ndarray, vs: np.ndarray, weights: list[int]
) -> list[WeightedEdge]:
    """The edges on the vertices' positions in ``vertices`` (the graph's node indices)."""
    members = np.asarray(vertices, dtype=np.int64)
    position = np.zeros(int(members.max()) + 1, dtype=np.int64)
    position[members] = np.arange(len(members), dtype=np.int64)
    return list(zip(position[us].tolist(), position[vs].tolist(), weights, strict=True))


def _solve(vertices: list[int], edges: list[WeightedEdge]) -> list[tuple[int, int]] | None:
    if len(vertices) % 2:
        return None
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(vertices)
    graph.add_edges_from(edges)
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
