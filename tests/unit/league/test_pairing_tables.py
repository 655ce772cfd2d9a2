"""Table assignment: top pairs on top tables, no return to a used table when avoidable."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing import PairingSettings, PlayerState, assign_tables, pair_round


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
