"""Table assignment: top pairs on top tables, nobody back on a table they already used.

Pairs are ordered by their best rank ("rows") and tables are "columns"; seating row ``r`` at
table ``t`` (0-based) costs ``(r - t)**2``, plus ``big`` per player who already used ``t``.
The assignment is scipy's ``linear_sum_assignment`` of that matrix, computed without building
it (``assignment``): most rows take their own table at no cost, and the method's steps are
replayed only around the others, so the result, ties included, is the dense solve's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from events.pairing.assignment import lazy_assignment
from events.pairing.types import PlayerState

History = Sequence[tuple[frozenset[int], frozenset[int]]]  # per row, its players' tables


def assign_tables(
    pairs: Sequence[tuple[int, int]],
    players: Sequence[PlayerState] | Mapping[int, PlayerState],
    n_tables: int,
) -> tuple[int, ...]:
    """Table number (1-based) for each pair, in the order of ``pairs``.

    Minimises, lexicographically, the number of players seated at a table they used before,
    then ``sum (position - table_index)**2`` where ``position`` orders the pairs by their best
    rank. The second term puts the best pair on table 1 and so on, and when there are more
    tables than pairs it keeps to the lowest numbers unless that would repeat a table.
    """
    if len(pairs) > n_tables:
        raise ValueError(f"{len(pairs)} games need at least as many tables, got {n_tables}")
    if not pairs:
        return ()
    by_id = players if isinstance(players, Mapping) else {p.id: p for p in players}
    keys = [_pair_ranks(pair, by_id) for pair in pairs]
    order = sorted(range(len(pairs)), key=keys.__getitem__)
    # One repeat must outweigh any ordering cost: the largest possible total is below big.
    big = len(pairs) * (n_tables - 1) ** 2 + 1
    if 2 * len(pairs) * big >= 1 << 52:
        raise ValueError("too many tables for an exact assignment")
    history = [(by_id[pairs[i][0]].tables, by_id[pairs[i][1]].tables) for i in order]
    columns = optimal_columns(history, n_tables, big)
    tables = [0] * len(pairs)
    for row, i in enumerate(order):
        tables[i] = columns[row] + 1
    return tuple(tables)


def _pair_ranks(pair: tuple[int, int], by_id: Mapping[int, PlayerState]) -> tuple[int, int]:
    a, b = by_id[pair[0]].rank, by_id[pair[1]].rank
    return (a, b) if a < b else (b, a)


def optimal_columns(history: History, n_tables: int, big: int) -> list[int]:
    """Column (0-based table) of each row; ``history[r]`` holds the tables (1-based) used by
    each player of row ``r``."""

    def cost(r: int, t: int) -> int:
        a, b = history[r]
        return (r - t) ** 2 + big * ((t + 1 in a) + (t + 1 in b))

    busy = {r for r, (a, b) in enumerate(history) if r + 1 in a or r + 1 in b}
    return lazy_assignment(
        len(history), n_tables, cost, busy, lambda: _cost_matrix(history, n_tables, big)
    )


def _cost_matrix(history: History, n_tables: int, big: int) -> np.ndarray:
    # Built in float64, the type the solver works in, in one array: at 8,192 players the
    # matrix is 4,096 x 4,096, and every temporary copy of it cost more than the solve.
    # Totals stay far below 2**53, so the float64 arithmetic is exact here.
    cost = np.subtract.outer(
        np.arange(len(history), dtype=np.float64), np.arange(n_tables, dtype=np.float64)
    )
    np.square(cost, out=cost)
    cells = [
        (row, table - 1)
        for row, tables in enumerate(history)
        for used in tables
        for table in used
        if 1 <= table <= n_tables
    ]
    if cells:
        rows, cols = np.array(cells, dtype=np.int64).T
        np.add.at(cost, (rows, cols), float(big))  # twice where both players sat there
    return cost
