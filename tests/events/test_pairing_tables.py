"""Table assignment: top pairs on top tables, no return to a used table when avoidable, and
exactly the tables of a dense solve (the lazy replay of ``assignment``)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from events.pairing import PairingSettings, PlayerState, assign_tables, assignment, pair_round


def players_for(n: int, rng: random.Random | None, n_tables: int) -> list[PlayerState]:
    return [
        PlayerState(
            id=100 + i,
            score=0,
            rank=i,
            tables=frozenset(
                rng.sample(range(1, n_tables + 1), rng.randrange(0, min(3, n_tables + 1)))
            )
            if rng
            else frozenset(),
        )
        for i in range(n)
    ]


def test_without_history_the_best_pair_gets_table_one():
    players = players_for(8, None, 4)
    # Pairs given in scrambled order; ranks 0-1 are the top pair, 6-7 the bottom one.
    pairs = [(106, 107), (100, 101), (104, 105), (102, 103)]
    assert assign_tables(pairs, players, 4) == (4, 1, 3, 2)


def test_extra_tables_leave_the_highest_numbers_empty():
    players = players_for(4, None, 6)
    assert sorted(assign_tables([(100, 101), (102, 103)], players, 6)) == [1, 2]


def test_too_few_tables_is_an_error():
    with pytest.raises(ValueError):
        assign_tables([(100, 101), (102, 103)], players_for(4, None, 1), 1)


def test_a_used_table_is_avoided_even_for_the_top_pair():
    players = players_for(4, None, 2)
    players[0] = PlayerState(id=100, score=0, rank=0, tables=frozenset({1}))
    assert assign_tables([(100, 101), (102, 103)], players, 2) == (2, 1)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2), st.integers(0, 2**32))
def test_assignment_is_optimal_by_brute_force(n_pairs, spare, seed):
    rng = random.Random(seed)
    n_tables = n_pairs + spare
    players = players_for(2 * n_pairs, rng, n_tables)
    ids = [p.id for p in players]
    rng.shuffle(ids)
    pairs = list(zip(ids[::2], ids[1::2], strict=True))
    by_id = {p.id: p for p in players}
    order = sorted(range(n_pairs), key=lambda i: min(by_id[x].rank for x in pairs[i]))
    position = {pair_index: pos for pos, pair_index in enumerate(order)}

    def cost(tables):
        repeats = sum(tables[i] in by_id[x].tables for i, pair in enumerate(pairs) for x in pair)
        spread = sum((position[i] - (tables[i] - 1)) ** 2 for i in range(n_pairs))
        return repeats, spread

    best = min(cost(choice) for choice in itertools.permutations(range(1, n_tables + 1), n_pairs))
    got = assign_tables(pairs, players, n_tables)
    assert len(set(got)) == n_pairs and all(1 <= t <= n_tables for t in got)
    assert cost(got) == best


def test_pair_round_uses_the_table_count_given():
    players = [PlayerState(id=i, score=0, rank=i) for i in range(4)]
    result = pair_round(players, PairingSettings(round_number=2), tables=5)
    assert sorted(p.table for p in result.pairings) == [1, 2]


def near_diagonal_history(rng: random.Random, n_pairs: int, n_tables: int) -> list[PlayerState]:
    """Players ranked in pair order whose used tables sit near their pair's own table, as in
    a real event where the top pairs keep the top tables (so many pairs want the same ones)."""
    spread = rng.choice([1, 2, 4, n_tables])
    return [
        PlayerState(
            id=100 + i,
            score=0,
            rank=i,
            tables=frozenset(
                min(n_tables, max(1, i // 2 + 1 + rng.randint(-spread, spread)))
                for _ in range(rng.choice([0, 1, 3, 8]))
            ),
        )
        for i in range(2 * n_pairs)
    ]


def dense_solve(pairs, players: list[PlayerState], n_tables: int) -> tuple[int, ...]:
    """The assignment as scipy returns it for the whole cost matrix, built here cell by cell."""
    by_id = {p.id: p for p in players}
    order = sorted(range(len(pairs)), key=lambda i: sorted(by_id[x].rank for x in pairs[i]))
    big = len(pairs) * (n_tables - 1) ** 2 + 1
    cost = np.zeros((len(pairs), n_tables))
    for row, i in enumerate(order):
        for t in range(n_tables):
            repeats = sum(t + 1 in by_id[x].tables for x in pairs[i])
            cost[row, t] = (row - t) ** 2 + big * repeats
    rows, cols = linear_sum_assignment(cost)
    tables = [0] * len(pairs)
    for row, col in zip(rows, cols, strict=True):
        tables[order[row]] = int(col) + 1
    return tuple(tables)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 60), st.sampled_from([0, 0, 1, 3, 20]), st.integers(0, 2**32))
def test_tables_are_those_of_the_dense_solve_ties_included(n_pairs, spare, seed):
    rng = random.Random(seed)
    n_tables = n_pairs + spare
    players = near_diagonal_history(rng, n_pairs, n_tables)
    ids = [p.id for p in players]
    rng.shuffle(ids)
    pairs = list(zip(ids[::2], ids[1::2], strict=True))
    assert assign_tables(pairs, players, n_tables) == dense_solve(pairs, players, n_tables)


def test_past_the_budget_scipy_solves_the_dense_matrix(monkeypatch):
    rng = random.Random(3)
    players = near_diagonal_history(rng, 40, 40)
    pairs = [(100 + 2 * i, 101 + 2 * i) for i in range(40)]
    calls = []
    monkeypatch.setattr(assignment, "MIN_BUDGET", 0)
    monkeypatch.setattr(
        assignment,
        "linear_sum_assignment",
        lambda matrix: calls.append(matrix.shape) or linear_sum_assignment(matrix),
    )
    assert assign_tables(pairs, players, 40) == dense_solve(pairs, players, 40)
    assert calls == [(40, 40)]
