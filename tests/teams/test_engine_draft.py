"""The WTC draft engine (teams/engine/draft.py): every size 3–8 ends ``done`` with each player in
one game and the match's tables each used once; the contract's table order and refusals."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teams.engine import draft as d
from teams.engine.refusals import DraftRefused

A, B = 101, 202


def setup(size: int, match: int = 1) -> d.Setup:
    first = (match - 1) * size + 1
    return d.Setup((A, B), (tuple(range(1, size + 1)), tuple(range(11, 11 + size))),
                   tuple(range(first, first + size)))


def play(size: int, rng: random.Random, match: int = 1) -> tuple[d.DraftState, list[d.Move]]:
    """A whole draft with random legal choices (the server's forced moves included)."""
    moves = [d.Move(rng.choice((A, B)), d.ROLL)]
    state = d.replay(setup(size, match), moves)
    while state.phase != d.DONE:
        team = rng.choice(state.waiting_for)
        move = d.random_move(state, team, rng)
        state = d.apply(state, move)
        moves.append(move)
        state, made = d.settle(state)
        moves += made
    return state, moves


@settings(max_examples=30, deadline=None)
@given(size=st.integers(3, 8), match=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_every_size_ends_done_with_each_player_once_and_each_table_once(size, match, seed):
    state, moves = play(size, random.Random(seed), match)
    players = [p for g in state.games for p in g.players]
    assert sorted(players) == sorted(setup(size).rosters[0] + setup(size).rosters[1])
    assert sorted(g.table for g in state.games) == list(range((match - 1) * size + 1, match * size + 1))
    for g in state.games:  # first team's player first
        assert g.players[0] < 11 <= g.players[1]
    steps = (size - 1) // 2
    assert state.step == steps and len(state.tokens) == steps
    assert all(state.tokens[i] != state.tokens[i + 1] for i in range(steps - 1))  # the token passes
    roles = [g.role for g in state.games]
    assert roles.count("defender") == 2 * steps
    assert roles.count("refused") == 1 and roles.count("last") == (1 if size % 2 == 0 else 0)
    assert d.replay(setup(size, match), moves) == state
    assert all(c.revealed_by is not None for c in state.commits)
    assert state.waiting_for == ()


def test_eight_has_three_steps_six_defender_games_one_refused_one_last():
    state, _ = play(8, random.Random(8))
    assert state.step == 3
    assert [g.role for g in state.games].count("defender") == 6


def chooser_teams(moves: list[d.Move]) -> list[str]:
    return ["left" if m.forced else ("A" if m.team == A else "B") for m in moves if m.phase == d.TABLE]


def test_five_chooses_tables_a_b_b_a_then_the_table_left():
    rng = random.Random(5)
    moves = [d.Move(A, d.ROLL)]
    state = d.replay(setup(5), moves)
    while state.phase != d.DONE:
        move = d.random_move(state, state.waiting_for[0], rng)
        state, made = d.settle(d.apply(state, move))
        moves += [move, *made]
    assert chooser_teams(moves) == ["A", "B", "B", "A", "left"]
    assert [g.role for g in state.games] == ["defender", "defender", "defender", "defender", "refused"]


@pytest.mark.parametrize(("size", "order"), [
    (3, ["A", "B", "left"]),
    (4, ["A", "B", "A", "left"]),
    (6, ["A", "B", "B", "A", "B", "left"]),
    (8, ["A", "B", "B", "A", "A", "B", "A", "left"]),
])
def test_table_order_by_size(size, order):
    rng = random.Random(size)
    moves = [d.Move(A, d.ROLL)]
    state = d.replay(setup(size), moves)
    while state.phase != d.DONE:
        move = d.random_move(state, state.waiting_for[0], rng)
        state, made = d.settle(d.apply(state, move))
        moves += [move, *made]
    assert chooser_teams(moves) == order


def step_one(size: int = 5) -> d.DraftState:
    state = d.replay(setup(size), [d.Move(A, d.ROLL)])
    return state


def refused(state: d.DraftState, move: d.Move) -> tuple[str, int]:
    with pytest.raises(DraftRefused) as info:
        d.apply(state, move)
    return info.value.code, info.value.status


def test_sealed_phases_reveal_together_and_refused_attackers_go_back():
    state = step_one(5)
    state = d.apply(state, d.Move(A, d.DEFENDER, (1,)))
    assert state.commits[-1].revealed_by is None and state.waiting_for == (B,)
    state = d.apply(state, d.Move(B, d.DEFENDER, (11,)))
    assert {c.revealed_by for c in state.commits} == {2} and state.phase == d.ATTACKERS
    state = d.apply(d.apply(state, d.Move(A, d.ATTACKERS, (2, 3))), d.Move(B, d.ATTACKERS, (12, 13)))
    assert state.phase == d.REFUSAL
    state = d.apply(d.apply(state, d.Move(A, d.REFUSAL, (12,))), d.Move(B, d.REFUSAL, (3,)))
    assert state.phase == d.TABLE
    assert [(g.players, g.role) for g in state.games] == [((1, 13), "defender"), ((2, 11), "defender")]
    state = d.apply(state, d.Move(A, d.TABLE, table=4))
    assert refused(state, d.Move(A, d.TABLE, table=1)) == ("draft_not_your_turn", 409)
    assert refused(state, d.Move(B, d.TABLE, table=4)) == ("draft_table_unavailable", 400)
    assert refused(state, d.Move(B, d.TABLE, table=6)) == ("draft_table_unavailable", 400)
    state = d.apply(state, d.Move(B, d.TABLE, table=2))
    assert (state.step, state.phase, state.token) == (2, d.DEFENDER, B)
    assert state.pools == ((3, 4, 5), (12, 14, 15))  # 3 and 12 were refused: back in the pools
    state = d.apply(d.apply(state, d.Move(A, d.DEFENDER, (4,))), d.Move(B, d.DEFENDER, (15,)))
    state, made = d.settle(state)  # two left besides the defender: no choice of attackers
    assert [(m.team, m.players, m.forced) for m in made] == [(A, (3, 5), True), (B, (12, 14), True)]
    assert state.phase == d.REFUSAL


def test_refusals_of_the_contract():
    state = step_one(6)
    assert refused(state, d.Move(A, d.ATTACKERS, (1, 2))) == ("draft_wrong_phase", 409)
    assert refused(state, d.Move(A, d.DEFENDER, (11,))) == ("draft_player_unavailable", 400)
    assert refused(state, d.Move(A, d.DEFENDER, (1, 2))) == ("draft_player_count", 400)
    assert refused(state, d.Move(999, d.DEFENDER, (1,))) == ("not_captain", 403)
    state = d.apply(state, d.Move(A, d.DEFENDER, (1,)))
    assert refused(state, d.Move(A, d.DEFENDER, (2,))) == ("draft_already_committed", 409)
    state = d.apply(state, d.Move(B, d.DEFENDER, (11,)))
    assert refused(state, d.Move(A, d.ATTACKERS, (1, 2))) == ("draft_player_unavailable", 400)
    assert refused(state, d.Move(A, d.ATTACKERS, (2, 2))) == ("draft_player_unavailable", 400)
    state = d.apply(d.apply(state, d.Move(A, d.ATTACKERS, (2, 3))), d.Move(B, d.ATTACKERS, (12, 13)))
    assert refused(state, d.Move(A, d.REFUSAL, (14,))) == ("draft_player_unavailable", 400)
    assert refused(state, d.Move(A, d.REFUSAL, (2,))) == ("draft_player_unavailable", 400)
    assert refused(d.replay(setup(3), []), d.Move(A, d.DEFENDER, (1,))) == ("draft_wrong_phase", 409)


def test_undo_drops_the_last_phase_and_the_forced_moves_around_it():
    rng = random.Random(3)
    _, moves = play(3, rng)
    phases = [m.phase for m in moves]
    assert phases[:6] == ["roll", "defender", "defender", "attackers", "attackers", "refusal"]
    after_tables = d.undo(moves)
    assert [m.phase for m in after_tables] == phases[:7]  # tables gone (the forced one with them)
    after_refusal = d.undo(after_tables)
    after_defender = d.undo(after_refusal)  # the forced attackers go with the defenders
    assert [m.phase for m in after_refusal] == phases[:5]
    assert [m.phase for m in after_defender] == ["roll"]
    assert d.replay(setup(3), after_defender).phase == d.DEFENDER
    assert d.undo(after_defender) == []
