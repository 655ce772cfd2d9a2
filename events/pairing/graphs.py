"""Candidate edge sets, from a sparse seeded graph up to the complete graph.

Each set lists vertex pairs ``(u, v)`` with ``u < v``; the bye vertex is ``problem.n``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from events.pairing.bounds import odd_thresholds, score_groups
from events.pairing.hashing import stable_key
from events.pairing.problem import Problem, affinity_counts
from events.pairing.vectors import clean_mask, distinct, shuffled_order

Edge = tuple[int, int]

# Groups this small get all their pairs even in the sparse graph.
SMALL_GROUP = 8


def core_and_fixed(problem: Problem) -> tuple[list[int], list[Edge]]:
    """Vertices whose pairing is optimised by the pruned graphs, and pairs fixed beforehand.

    In strict mode the bye receiver is known in advance for the proof (the lowest-ranked
    eligible player), so the pruned graphs pair the others and fix that bye.
    """
    players = list(range(problem.n))
    if not problem.has_bye:
        return players, []
    if problem.strict:
        target = problem.bye_target()
        return [v for v in players if v != target], [(target, problem.dummy)]
    return [*players, problem.dummy], []


def is_rematch(problem: Problem, u: int, v: int) -> bool:
    """Whether two vertices are players who already met (a bye is never a rematch)."""
    return v != problem.n and problem.met(u, v)


def is_clean(problem: Problem, u: int, v: int) -> bool:
    """No rematch, no club/faction penalty, no repeated bye."""
    if v == problem.n:
        return not problem.players[u].had_bye
    if problem.met(u, v):
        return False
    return affinity_counts(problem.settings, problem.players[u], problem.players[v]) == (0, 0)


def is_allowed(problem: Problem, u: int, v: int) -> bool:
    """No rematch, no repeated bye: club/faction pairs are allowed, at their penalty."""
    if v == problem.n:
        return not problem.players[u].had_bye
    return not problem.met(u, v)


def ordered(u: int, v: int) -> Edge:
    """The pair with its smaller vertex first."""
    return (u, v) if u < v else (v, u)


def shuffled(problem: Problem, vertices: list[int], salt: str, turn: int) -> list[int]:
    """A seeded permutation (ties, only possible for equal keys, fall back to vertex order)."""
    return _shuffled(problem, np.asarray(vertices, dtype=np.int64), salt, turn).tolist()


def _shuffled(problem: Problem, vertices: np.ndarray, salt: str, turn: int) -> np.ndarray:
    # Sorted by (item_key(base, hash of the vertex's id), vertex), vectorised (``vectors``).
    base = stable_key(problem.settings.seed, problem.settings.round_number, salt, turn)
    return shuffled_order(base, problem.arrays.hashes, vertices)


def groups_of(problem: Problem, core: list[int]) -> list[list[int]]:
    """The core vertices by score group, best score first, each sorted (``score_groups``)."""
    if not problem.arrays.exact or not core:
        return score_groups((v, problem.score(v)) for v in core)
    vertices = np.asarray(core, dtype=np.int64)
    scores = problem.arrays.score[vertices]
    order = np.lexsort((vertices, -scores))
    vertices, scores = vertices[order], scores[order]
    starts = np.flatnonzero(np.diff(scores)) + 1
    return [part.tolist() for part in np.split(vertices, starts)]


def sparse_edges(problem: Problem, core: list[int], fixed: list[Edge], turns: int) -> set[Edge]:
    """``turns`` seeded cycles of clean pairs through each score group, plus seeded clean cross
    pairs at odd thresholds; small groups keep every allowed pair (see ``is_allowed``)."""
    edges = set(fixed)
    groups = groups_of(problem, core)
    for group in groups:
        edges.update(sparse_within(problem, group, turns))
    for k in odd_thresholds([len(g) for g in groups]):
        edges.update(sparse_across(problem, groups[k], groups[k + 1], turns))
    return edges


def sparse_within(problem: Problem, group: list[int], turns: int) -> list[Edge]:
    """Pairs inside one group, sorted: every allowed one when it is small (a club pair may be
    the only way to pair it), else clean pairs of seeded cycles, the round-1 shuffle's pairs
    and every clean bye."""
    if len(group) <= SMALL_GROUP:
        return [e for e in combinations(group, 2) if is_allowed(problem, *e)]
    members = np.asarray(group, dtype=np.int64)
    cycles = [_shuffled(problem, members, "cycle", turn) for turn in range(turns)]
    firsts = [np.roll(cycle, 1) for cycle in cycles]  # (cycle[i - 1], cycle[i])
    if problem.preferred:
        inside = set(group)
        extra = [e for e in problem.preferred if e[0] in inside and e[1] in inside]
        firsts.append(np.asarray([u for u, _ in extra], dtype=np.int64))
        cycles.append(np.asarray([v for _, v in extra], dtype=np.int64))
    if problem.dummy in group:  # soft mode: every bye, so the best one can be chosen
        others = members[members != problem.dummy]
        firsts.append(others)
        cycles.append(np.full(len(others), problem.dummy, dtype=np.int64))
    a, b = np.concatenate(firsts), np.concatenate(cycles)
    return _clean_sorted(problem, np.minimum(a, b), np.maximum(a, b))


def _clean_sorted(problem: Problem, us: np.ndarray, vs: np.ndarray) -> list[Edge]:
    """The distinct clean pairs ``(us[k], vs[k])``, sorted."""
    codes = distinct(us * problem.n_vertices + vs)
    us, vs = np.divmod(codes, problem.n_vertices)
    keep = clean_mask(problem, us, vs)
    return list(zip(us[keep].tolist(), vs[keep].tolist(), strict=True))


def sparse_across(problem: Problem, upper: list[int], lower: list[int], turns: int) -> list[Edge]:
    """Floater candidates between two neighbouring groups: every allowed pair for small groups,
    else clean pairs of ``turns`` seeded one-to-one pairings of the two groups (repeats kept)."""
    if len(upper) * len(lower) <= SMALL_GROUP * SMALL_GROUP:
        pairs = (ordered(u, v) for u in upper for v in lower)
        return [e for e in pairs if is_allowed(problem, *e)]
    above, below = np.asarray(upper, dtype=np.int64), np.asarray(lower, dtype=np.int64)
    size = min(len(upper), len(lower))
    ups = [_shuffled(problem, above, "up", turn)[:size] for turn in range(turns)]
    downs = [_shuffled(problem, below, "down", turn)[:size] for turn in range(turns)]
    a, b = np.concatenate(ups), np.concatenate(downs)
    us, vs = np.minimum(a, b), np.maximum(a, b)
    keep = clean_mask(problem, us, vs)
    return list(zip(us[keep].tolist(), vs[keep].tolist(), strict=True))


def adjacent_edges(problem: Problem, core: list[int], fixed: list[Edge]) -> set[Edge]:
    """Every rematch-free pair inside a score group or across an odd threshold (see bounds)."""
    edges = set(fixed)
    groups = groups_of(problem, core)
    for group in groups:
        edges.update(e for e in combinations(group, 2) if not is_rematch(problem, *e))
    for k in odd_thresholds([len(g) for g in groups]):
        for u in groups[k]:
            edges.update(e for v in groups[k + 1] if not is_rematch(problem, *(e := ordered(u, v))))
    return edges


def all_edges(problem: Problem, rematches: bool) -> list[Edge]:
    """Every pair (without or with rematches) plus every bye."""
    edges = [
        (u, v)
        for u, v in combinations(range(problem.n), 2)
        if rematches or v not in problem.opponents[u]
    ]
    if problem.has_bye:
        edges.extend((u, problem.dummy) for u in range(problem.n))
    return edges
