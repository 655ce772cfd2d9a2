"""Table assignment: top pairs on top tables, nobody back on a table they already used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from league.pairing.types import PlayerState


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
    order = sorted(range(len(pairs)), key=lambda i: _pair_ranks(pairs[i], by_id))
    cost = _cost_matrix([pairs[i] for i in order], by_id, n_tables)
    rows, cols = linear_sum_assignment(cost)
    tables = [0] * len(pairs)
    for row, col in zip(rows, cols, strict=True):
        tables[order[row]] = int(col) + 1
    return tuple(tables)


def _pair_ranks(pair: tuple[int, int], by_id: Mapping[int, PlayerState]) -> tuple[int, int]:
    ranks = sorted(by_id[p].rank for p in pair)
    return ranks[0], ranks[1]


def _cost_matrix(
    pairs: list[tuple[int, int]], by_id: Mapping[int, PlayerState], n_tables: int
) -> np.ndarray:
    # Built in float64, the type the solver works in, in one array: at 8,192 players the
    # matrix is 4,096 x 4,096, and every temporary copy of it cost more than the solve.
    # Totals stay far below 2**53, so the float64 arithmetic is exact here.
    cost = np.subtract.outer(
        np.arange(len(pairs), dtype=np.float64), np.arange(n_tables, dtype=np.float64)
    )
    np.square(cost, out=cost)
    # One repeat must outweigh any ordering cost: the largest possible total is below big.
    big = len(pairs) * (n_tables - 1) ** 2 + 1
    if 2 * len(pairs) * big >= 1 << 52:
        raise ValueError("too many tables for an exact assignment")
    cells = [
        (row, table - 1)
        for row, pair in enumerate(pairs)
        for player in pair
        for table in by_id[player].tables
        if 1 <= table <= n_tables
    ]
    if cells:
        rows, cols = np.array(cells, dtype=np.int64).T
        np.add.at(cost, (rows, cols), float(big))  # twice where both players sat there
    return cost
