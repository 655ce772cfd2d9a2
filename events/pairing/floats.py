"""Pairs beyond natural floats: candidates for small groups, and the graph of bounded excess.

``float_edges`` lets the pruned steps float a player of a small group past an even threshold or
over a whole group, which the optimum needs when the group's players already met; the caller
still has to prove what it finds (``windows``).

``slack_edges`` holds every rematch-free pair whose excess over the natural bound
(``Thresholds.excess``) is at most ``slack``. If some rematch-free pairing ``P``, on the bound of
the tiers above the score gap, costs ``natural bound + slack`` on that tier, then any pairing
using a pair outside this graph costs more than ``P`` on the score gap (its pair alone forces
that much) while it cannot beat ``P`` on a tier above. So every optimum lies in this graph, and
its best perfect matching, tie-break included, is the global one.
"""

from __future__ import annotations

from itertools import combinations

from events.pairing.graphs import Edge, groups_of, is_allowed, is_rematch, ordered, shuffled
from events.pairing.problem import Problem
from events.pairing.windows import layout_of

FLOAT_GROUP = 16  # groups this small get float candidates beyond their neighbouring groups
FLOAT_REACH = 2  # how many groups up and down those candidates reach at least
FLOAT_ROOM = 4, 8  # ... and further until they hold 4 players per member of the group, plus 8
FLOAT_SAMPLE = 8  # members of a larger group offered per turn, seeded


def float_edges(problem: Problem, core: list[int], turns: int) -> set[Edge]:
    """Allowed pairs (``is_allowed``) from every small group to the groups around it (see
    ``_reach``): all members of small groups, a seeded sample of larger ones."""
    groups = groups_of(problem, core)
    samples: dict[int, list[int]] = {}
    edges: set[Edge] = set()
    for i, group in enumerate(groups):
        if len(group) > FLOAT_GROUP:
            continue
        for j in _reach(groups, i):
            if j not in samples:
                samples[j] = sample(problem, groups[j], turns)
            pairs = (ordered(u, v) for u in group for v in samples[j])
            edges.update(e for e in pairs if is_allowed(problem, *e))
    return edges


def _reach(groups: list[list[int]], i: int) -> list[int]:
    """At least ``FLOAT_REACH`` groups up and down from group ``i``, and further while those
    reached hold less than ``FLOAT_ROOM`` room (a whole small group that already met must
    float, possibly past several small groups)."""
    per_member, base = FLOAT_ROOM
    room = per_member * len(groups[i]) + base
    reached: list[int] = []
    for step in (-1, 1):
        held, j = 0, i + step
        while 0 <= j < len(groups) and (abs(j - i) <= FLOAT_REACH or held < room):
            reached.append(j)
            held += len(groups[j])
            j += step
    return reached


def sample(problem: Problem, group: list[int], turns: int) -> list[int]:
    """A small group whole, else ``FLOAT_SAMPLE`` seeded members per turn."""
    if len(group) <= FLOAT_GROUP:
        return group
    picked = {
        v for turn in range(turns) for v in shuffled(problem, group, "float", turn)[:FLOAT_SAMPLE]
    }
    return sorted(picked)


def slack_edges(problem: Problem, core: list[int], fixed: list[Edge], slack: int) -> list[Edge]:
    """Every rematch-free pair of ``core`` whose excess is at most ``slack``, plus ``fixed``."""
    groups, layout = layout_of(problem, core)
    edges = set(fixed)
    for i, upper in enumerate(groups):
        edges.update(e for e in combinations(upper, 2) if not is_rematch(problem, *e))
        for j in range(i + 1, len(groups)):
            if layout.excess(i, j) > slack:
                break  # the excess only grows further down
            pairs = (ordered(u, v) for u in upper for v in groups[j])
            edges.update(e for e in pairs if not is_rematch(problem, *e))
    return sorted(edges)
