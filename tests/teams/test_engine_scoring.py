"""Game points, match results, team standings and team Swiss (teams/engine)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teams.engine import scoring, swiss
from teams.engine.refusals import TeamRefused
from teams.engine.standings import Played, standings

GT20 = scoring.gt20()


@pytest.mark.parametrize(("diff", "points"), [
    (0, (10, 10)), (5, (10, 10)), (6, (11, 9)), (10, (11, 9)), (11, (12, 8)), (15, (12, 8)),
    (45, (18, 2)), (46, (19, 1)), (50, (19, 1)), (51, (20, 0)), (300, (20, 0)),
])
def test_gt20_exactly_as_the_contract(diff, points):
    assert scoring.game_points(GT20, 40 + diff, 40) == points
    assert scoring.game_points(GT20, 40, 40 + diff) == points[::-1]


@given(st.integers(0, 500), st.integers(0, 500))
@settings(max_examples=60, deadline=None)
def test_gt20_always_gives_twenty(first, second):
    assert sum(scoring.game_points(GT20, first, second)) == 20


def test_a_custom_table_and_its_refusals():
    table = scoring.table_from([[0, 2, 3, 3], [3, 9, 5, 1], [10, None, 6, 0]])
    assert scoring.game_points(table, 12, 10) == (3, 3)
    assert scoring.game_points(table, 1, 10) == (1, 5)
    assert scoring.game_points(table, 100, 0) == (6, 0)
    assert scoring.game_points(scoring.table_from([[0, 4, 1, 1]]), 90, 0) == (1, 1)  # past the end
    for rows in ([], [[1, 5, 1, 1]], [[0, 5, 1, 1], [7, 9, 2, 0]], [[0, None, 1, 1], [1, 2, 1, 1]],
                 [[0, 5, 1]], [[0, 5, -1, 1]]):
        with pytest.raises(TeamRefused) as info:
            scoring.table_from(rows)
        assert info.value.code == "team_game_table"


RULES = scoring.ResultRules()


def test_match_results_by_mode():
    assert scoring.match_result(52, 48, RULES).match_points == (2, 0)
    assert scoring.match_result(50, 50, RULES).outcomes == ("draw", "draw")
    cutoff = scoring.ResultRules(mode="cutoff", win_at=55, loss_at=45)
    assert scoring.match_result(54, 46, cutoff).outcomes == ("draw", "draw")
    assert scoring.match_result(55, 45, cutoff).match_points == (2, 0)
    assert scoring.match_result(40, 60, cutoff).outcomes == ("loss", "win")
    clamp = scoring.ResultRules(mode="clamp", floor=35, cap=65)
    result = scoring.match_result(80, 20, clamp)
    assert (result.game_points, result.match_points) == ((65, 35), (2, 0))
    assert scoring.match_result(50, 50, clamp).game_points == (50, 50)


def test_standings_by_match_points_then_game_points_then_head_to_head():
    matches = [Played(1, 2, (60, 40), (2, 0)), Played(3, 4, (60, 40), (2, 0)),
               Played(2, 3, (55, 45), (2, 0)), Played(4, 1, (55, 45), (2, 0)),
               Played(5, None, (50, 0), (2, 0))]
    lines = standings([1, 2, 3, 4, 5], matches)
    assert [(line.team, line.rank, line.match_points, line.game_points) for line in lines] == [
        (1, 1, 2, 105), (3, 1, 2, 105), (2, 3, 2, 95), (4, 3, 2, 95), (5, 5, 2, 50)]
    assert (lines[4].played, lines[4].byes) == (0, 1)
    # 3 beat 1 head to head: 3 first.
    lines = standings([1, 2, 3, 4], [Played(1, 2, (60, 40), (2, 0)), Played(3, 1, (50, 40), (2, 0)),
                                    Played(2, 4, (50, 50), (1, 1)), Played(3, 4, (50, 60), (0, 2))])
    assert [(line.team, line.rank, line.game_points) for line in lines] == [
        (4, 1, 110), (3, 2, 100), (1, 3, 100), (2, 4, 90)]


def test_swiss_avoids_rematches_and_gives_the_bye_to_the_lowest_without_one():
    order = [swiss.TeamState(1, frozenset({2})), swiss.TeamState(2, frozenset({1})),
             swiss.TeamState(3), swiss.TeamState(4), swiss.TeamState(5, had_bye=True)]
    result = swiss.pair(order)
    assert result.bye == 4 and result.rematches == 0
    assert result.matches == ((1, 3), (2, 5))


@given(st.integers(2, 13), st.integers(0, 6), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_swiss_rounds_pair_everyone_once_with_byes_spread(teams, rounds, rng):
    opponents = {t: set() for t in range(teams)}
    byes = dict.fromkeys(range(teams), 0)
    for _ in range(rounds):
        order = [swiss.TeamState(t, frozenset(opponents[t]), byes[t] > 0) for t in rng.sample(range(teams), teams)]
        result = swiss.pair(order)
        seen = [t for m in result.matches for t in m] + ([result.bye] if result.bye is not None else [])
        assert sorted(seen) == list(range(teams))
        assert (result.bye is None) == (teams % 2 == 0)
        if result.bye is not None:
            assert byes[result.bye] == 0 or all(byes.values())
            byes[result.bye] += 1
        for a, b in result.matches:
            opponents[a].add(b)
            opponents[b].add(a)
        if result.rematches and teams <= 9:
            assert fewest_rematches(order) == result.rematches


def fewest_rematches(order: list[swiss.TeamState]) -> int:
    """Brute force: the fewest rematches of any pairing with an allowed bye."""
    def best(field: list[swiss.TeamState]) -> int:
        if not field:
            return 0
        first, rest = field[0], field[1:]
        return min((other.team in first.opponents) + best([*rest[:i], *rest[i + 1:]])
                   for i, other in enumerate(rest))
    if len(order) % 2 == 0:
        return best(order)
    byes = [t for t in order if not t.had_bye] or order
    return min(best([t for t in order if t is not bye]) for bye in byes)
