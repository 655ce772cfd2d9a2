"""scipy's ``linear_sum_assignment`` run for a cost that is zero on the diagonal but for a few
rows, computed lazily: same steps, same ties, so the same assignment.

scipy (``rectangular_lsap.cpp``, unchanged since 1.6) runs Crouse's shortest augmenting path
method: rows in order, each a Dijkstra search over the columns from duals ``u``, ``v`` (both 0
at first), scanning the columns in an order kept in an array (reversed at the start of each
search, a chosen column's slot taken by the array's last one), and among columns at the least
distance taking the last free one in that order, else the first one. Here ``cost(r, t) >=
(r - t)**2`` everywhere and ``cost(r, r) = 0`` for most rows, which makes most searches trivial:

- A row ``r`` whose diagonal cell costs 0, whose column is still free and untouched (``v_r = 0``;
  ``v`` only decreases) finds column ``r`` at distance 0 and every other column at distance
  ``>= 1`` (``u_r = 0`` until the row's own search), takes it and changes no dual: skipped.
- Any other row runs the search on a band of columns around the rows it reaches. A column
  outside the band is at distance ``>= minVal_k - u_k + (r_k - t)**2`` from each row ``r_k``
  the search scanned, so while that bound exceeds the least distance the band holds every
  column that can be chosen; otherwise the band widens. The scan order is replayed exactly
  (column ``t`` starts at slot ``nc - 1 - t``).

Searches are costed; past a budget of column evaluations (``CELLS_PER_STEP``), scipy itself
solves the dense matrix: the same method, so the same result.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import linear_sum_assignment

BAND = 4  # columns kept on each side of the rows a search reaches, at first
# A column evaluation here costs about what 200 cells cost scipy, so past that budget (a
# little more for small matrices) scipy solves the dense matrix; a typical busy row costs ~60.
CELLS_PER_STEP, MIN_BUDGET, STEPS_PER_ROW = 200, 2_000, 64

Cost = Callable[[int, int], int]  # cost(row, column)


class _Budget(Exception):
    """The lazy run would cost more than the dense one."""


def lazy_assignment(
    n_rows: int, n_cols: int, cost: Cost, busy_rows: set[int], dense: Callable[[], np.ndarray]
) -> list[int]:
    """Column of each row as ``linear_sum_assignment(dense())`` returns it; ``busy_rows`` are
    the rows whose diagonal cell does not cost 0 (``n_rows <= n_cols``)."""
    budget = max(MIN_BUDGET, n_rows * n_cols // CELLS_PER_STEP)
    try:
        if len(busy_rows) * STEPS_PER_ROW > budget:
            raise _Budget
        return _Run(n_rows, n_cols, cost, budget).solve(busy_rows)
    except _Budget:
        rows, cols = linear_sum_assignment(dense())
        found = [0] * n_rows
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
            found[row] = col
        return found


class _Run:
    """The state of scipy's method. A column is touched once a search visits or assigns it, or
    its own row searched; untouched columns ``t`` are held by row ``t`` once that row is done,
    free before, with ``v_t = 0``; rows that never moved hold their own column."""

    def __init__(self, n_rows: int, n_cols: int, cost: Cost, budget: int) -> None:
        self.n_rows, self.n_cols, self.cost, self.budget = n_rows, n_cols, cost, budget
        self.u: dict[int, int] = {}
        self.v: dict[int, int] = {}
        self.row4col: dict[int, int] = {}  # touched columns: holder row, -1 for free
        self.col4row: dict[int, int] = {}  # touched rows: held column
        self.done = 0  # rows before this one are done
        self.work = 0

    def holder(self, t: int) -> int:
        return self.row4col.get(t, t if t < self.done else -1)

    def column(self, r: int) -> int:
        return self.col4row.get(r, r)

    def solve(self, busy_rows: set[int]) -> list[int]:
        for r in range(self.n_rows):
            self.done = r
            if r in busy_rows or r in self.row4col or self.v.get(r, 0) != 0:
                self._search(r)
        self.done = self.n_rows
        return [self.column(r) for r in range(self.n_rows)]

    def _search(self, current: int) -> None:
        search = _Search(self, current)
        sink, least = search.run()
        u, v = self.u, self.v
        u[current] = u.get(current, 0) + least
        for r in search.rows[1:]:
            u[r] = u.get(r, 0) + least - search.dist[self.column(r)]
        for t in search.visited:
            v[t] = v.get(t, 0) - (least - search.dist[t])
        # Augment along the search's path (the row of each column as it was last improved).
        t = sink
        while True:
            r = search.path[t]
            self.row4col[t] = r
            previous = self.column(r)
            self.col4row[r] = t
            t = previous
            if r == current:
                break
        # The row's own column, unless the path gave it a holder, stays free.
        self.row4col.setdefault(current, -1)
        self.done = current + 1


class _Search:
    """One Dijkstra search of scipy's method, on a band ``[low, high]`` of columns."""

    def __init__(self, run: _Run, current: int) -> None:
        self.run_state, self.current = run, current
        self.rows: list[int] = []  # rows scanned, in order
        self.bases: list[int] = []  # their minVal at the scan minus their u
        self.dist: dict[int, int] = {}  # shortestPathCosts of the band's columns
        self.path: dict[int, int] = {}
        self.visited: list[int] = []  # SC, in order
        self.removed: set[int] = set()
        self.slot_of: dict[int, int] = {}  # scan slots moved by removals
        self.at_slot: dict[int, int] = {}
        self.remaining = run.n_cols
        self.low, self.high = current, current - 1  # empty band
        self.pad = BAND

    def slot(self, t: int) -> int:
        return self.slot_of.get(t, self.run_state.n_cols - 1 - t)

    def run(self) -> tuple[int, int]:
        state, least, i = self.run_state, 0, self.current
        while True:
            self._scan(i, least)
            least, t = self._choose()
            self._remove(t)
            holder = state.holder(t)
            if holder == -1:
                return t, least
            i = holder

    def _scan(self, i: int, least: int) -> None:
        state = self.run_state
        self.rows.append(i)
        self.bases.append(least - state.u.get(i, 0))
        self._widen(i - self.pad, i + self.pad)
        for t in range(self.low, self.high + 1):
            if t not in self.removed:
                self._relax(len(self.rows) - 1, t)

    def _relax(self, k: int, t: int) -> None:
        state = self.run_state
        value = self.bases[k] + state.cost(self.rows[k], t) - state.v.get(t, 0)
        state.work += 1
        if value < self.dist.get(t, value + 1):
            self.dist[t], self.path[t] = value, self.rows[k]

    def _widen(self, low: int, high: int) -> None:
        """Bring columns into the band, scanned by every row so far, in order."""
        low, high = max(low, 0), min(high, self.run_state.n_cols - 1)
        if self.run_state.work > self.run_state.budget:
            raise _Budget
        new = [t for t in range(low, high + 1) if not self.low <= t <= self.high]
        if self.high < self.low:
            self.low, self.high = low, high
        else:
            self.low, self.high = min(self.low, low), max(self.high, high)
        for t in new:
            for k in range(len(self.rows)):
                self._relax(k, t)

    def _outside(self) -> float:
        """A lower bound on the distance of every column outside the band."""
        n_cols = self.run_state.n_cols
        bound = float("inf")
        for r, base in zip(self.rows, self.bases, strict=True):
            if self.low > 0:
                bound = min(bound, base + (r - self.low + 1) ** 2)
            if self.high < n_cols - 1:
                bound = min(bound, base + (self.high + 1 - r) ** 2)
        return bound

    def _choose(self) -> tuple[int, int]:
        """scipy's choice: least distance, the last free column in scan order, else the first."""
        while True:
            open_columns = [t for t in range(self.low, self.high + 1) if t not in self.removed]
            least = min(self.dist[t] for t in open_columns) if open_columns else None
            if least is not None and self._outside() > least:
                break
            self.pad *= 2
            self._widen(self.low - self.pad, self.high + self.pad)
        tied = [t for t in open_columns if self.dist[t] == least]
        free = [t for t in tied if self.run_state.holder(t) == -1]
        if free:
            return least, max(free, key=self.slot)
        return least, min(tied, key=self.slot)

    def _remove(self, t: int) -> None:
        self.visited.append(t)
        self.removed.add(t)
        last = self.remaining - 1
        moved = self.at_slot.get(last, self.run_state.n_cols - 1 - last)
        where = self.slot(t)
        self.at_slot[where] = moved
        self.slot_of[moved] = where
        self.remaining -= 1
