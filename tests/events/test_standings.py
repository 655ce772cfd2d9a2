"""Standings engine: points, tiebreakers from their definitions, unique stable ranks."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.standings import GameResult, ScoringSettings, compute_standings

PER_PLAYER_KEYS = ["sos", "opp_win_rate", "vp_diff", "vp_scored"]


def random_results(rng: random.Random, n: int, rounds: int) -> tuple[list[int], list[GameResult]]:
    ids = rng.sample(range(1, 1000), n)
    results = []
    for number in range(1, rounds + 1):
        order = list(ids)
        rng.shuffle(order)
        if len(order) % 2:
            results.append(GameResult(number, (order.pop(),)))
        for a, b in zip(order[::2], order[1::2], strict=True):
            winner = rng.choice([a, b, None])
            vp = {p: rng.randrange(0, 30) for p in (a, b) if rng.random() < 0.9}
            results.append(GameResult(number, (a, b), winner, vp))
    return ids, results


def random_scoring(rng: random.Random, with_head_to_head: bool) -> ScoringSettings:
    keys = PER_PLAYER_KEYS + (["head_to_head"] if with_head_to_head else [])
    rng.shuffle(keys)
    loss = rng.randrange(0, 2)
    draw = loss + rng.randrange(0, 3)
    return ScoringSettings(
        win=draw + rng.randrange(1, 4),
        draw=draw,
        loss=loss,
        bye_points=rng.choice(["win", "draw", 0, 2]),
        bye_vp=rng.choice([0, 10]),
        tiebreaks=tuple(keys[: rng.randrange(0, len(keys) + 1)]),
        seed=rng.randrange(1 << 20),
    )


cases = st.tuples(st.integers(1, 30), st.integers(0, 6), st.integers(0, 2**32))


def build(case, with_head_to_head=True):
    n, rounds, seed = case
    rng = random.Random(seed)
    ids, results = random_results(rng, n, rounds)
    return ids, results, random_scoring(rng, with_head_to_head)


def exact_values(ids, results, config: ScoringSettings):
    """Every quantity straight from the documented definitions."""
    games = {p: [] for p in ids}  # (opponent, outcome 1/0/-1, vp for, vp against)
    byes = dict.fromkeys(ids, 0)
    for r in results:
        if len(r.players) == 1:
            byes[r.players[0]] += 1
            continue
        a, b = r.players
        for me, them in ((a, b), (b, a)):
            outcome = 0 if r.winner is None else (1 if r.winner == me else -1)
            games[me].append((them, outcome, r.vp.get(me, 0), r.vp.get(them, 0)))
    bye_as = config.bye_points
    record = {}
    for p in ids:
        wins = sum(g[1] == 1 for g in games[p]) + (byes[p] if bye_as == "win" else 0)
        draws = sum(g[1] == 0 for g in games[p]) + (byes[p] if bye_as == "draw" else 0)
        losses = sum(g[1] == -1 for g in games[p])
        extra = byes[p] * bye_as if isinstance(bye_as, int) else 0
        points = config.win * wins + config.draw * draws + config.loss * losses + extra
        record[p] = (points, wins, draws, losses)
    rate = {}
    for p in ids:
        _, w, d, lost = record[p]
        played = w + d + lost
        rate[p] = max(Fraction(2 * w + d, 2 * played) if played else Fraction(0), Fraction(1, 3))
    values = {}
    for p in ids:
        opponents = [g[0] for g in games[p]]
        vp_for = sum(g[2] for g in games[p]) + config.bye_vp * byes[p]
        vp_against = sum(g[3] for g in games[p])
        values[p] = {
            "points": record[p][0],
            "sos": sum(record[o][0] for o in opponents),
            "opp_win_rate": sum((rate[o] for o in opponents), Fraction(0)) / len(opponents)
            if opponents
            else Fraction(0),
            "vp_diff": vp_for - vp_against,
            "vp_scored": vp_for,
        }
    return values, byes


@settings(max_examples=100, deadline=None)
@given(cases)
def test_points_follow_the_win_draw_loss_values(case):
    ids, results, config = build(case)
    _, byes = exact_values(ids, results, config)
    for row in compute_standings(ids, results, config):
        extra = row.byes * config.bye_points if isinstance(config.bye_points, int) else 0
        assert (
            row.points
            == config.win * row.wins + config.draw * row.draws + config.loss * row.losses + extra
        )
        assert row.byes == byes[row.player]


@settings(max_examples=100, deadline=None)
@given(cases)
def test_ranks_are_unique_and_cover_everyone(case):
    ids, results, config = build(case)
    rows = compute_standings(ids, results, config)
    assert [r.rank for r in rows] == list(range(1, len(ids) + 1))
    assert sorted(r.player for r in rows) == sorted(ids)


@settings(max_examples=100, deadline=None)
@given(cases)
def test_order_respects_points_then_the_tiebreak_order(case):
    ids, results, config = build(case, with_head_to_head=False)
    values, _ = exact_values(ids, results, config)
    keys = ["points", *config.tiebreaks]
    rows = compute_standings(ids, results, config)
    for above, below in zip(rows, rows[1:], strict=False):
        upper = [values[above.player][k] for k in keys]
        lower = [values[below.player][k] for k in keys]
        assert upper >= lower


@settings(max_examples=100, deadline=None)
@given(cases)
def test_shown_values_match_their_definitions(case):
    ids, results, config = build(case, with_head_to_head=False)
    values, _ = exact_values(ids, results, config)
    for row in compute_standings(ids, results, config):
        assert list(row.tiebreakers) == list(config.tiebreaks)
        for key, shown in row.tiebreakers.items():
            exact = values[row.player][key]
            assert shown == (round(float(exact), 3) if key == "opp_win_rate" else exact)


@settings(max_examples=100, deadline=None)
@given(cases, st.randoms(use_true_random=False))
def test_result_order_does_not_matter(case, shuffler):
    ids, results, config = build(case)
    shuffled = list(results)
    shuffler.shuffle(shuffled)
    assert compute_standings(ids, shuffled, config) == compute_standings(ids, results, config)


@settings(max_examples=60, deadline=None)
@given(cases, st.integers(0, 2**20))
def test_the_seed_only_reorders_complete_ties(case, other_seed):
    ids, results, config = build(case)
    other = ScoringSettings(**{**config.__dict__, "seed": other_seed})
    first = compute_standings(ids, results, config)
    assert compute_standings(ids, results, config) == first

    def profile(rows):
        return [(r.points, dict(r.tiebreakers)) for r in rows]

    assert profile(compute_standings(ids, results, other)) == profile(first)


def test_hand_computed_example():
    # R1: A beats B 10-5, C draws D 7-7.  R2: A beats C 12-3, B beats D 8-2.
    a, b, c, d = 1, 2, 3, 4
    results = [
        GameResult(1, (a, b), a, {a: 10, b: 5}),
        GameResult(1, (c, d), None, {c: 7, d: 7}),
        GameResult(2, (a, c), a, {a: 12, c: 3}),
        GameResult(2, (b, d), b, {b: 8, d: 2}),
    ]
    rows = compute_standings([a, b, c, d], results, ScoringSettings())
    assert [r.player for r in rows] == [a, b, c, d]  # C and D tie on 1 point; SOS 7 vs 4
    by = {r.player: r for r in rows}
    assert [by[p].points for p in (a, b, c, d)] == [6, 3, 1, 1]
    assert [by[p].tiebreakers["sos"] for p in (a, b, c, d)] == [4, 7, 7, 4]
    # C and D won 1/4 of their games, floored to 1/3: A faced B (1/2) and C (1/3) -> 5/12.
    assert [by[p].tiebreakers["opp_win_rate"] for p in (a, b, c, d)] == [0.417, 0.667, 0.667, 0.417]
    assert [by[p].tiebreakers["vp_diff"] for p in (a, b, c, d)] == [14, 1, -9, -6]
    assert [by[p].tiebreakers["vp_scored"] for p in (a, b, c, d)] == [22, 13, 10, 9]
    by_vp = compute_standings([a, b, c, d], results, ScoringSettings(tiebreaks=("vp_diff",)))
    assert [r.player for r in by_vp] == [a, b, d, c]


def test_head_to_head_splits_two_tied_players_who_met():
    # A beat B; both end on 3 points (A lost to C, B beat D).
    a, b, c, d = 1, 2, 3, 4
    results = [
        GameResult(1, (a, b), a),
        GameResult(1, (c, d), c),
        GameResult(2, (a, c), c),
        GameResult(2, (b, d), b),
    ]
    for seed in range(10):
        config = ScoringSettings(tiebreaks=("head_to_head",), seed=seed)
        rows = compute_standings([a, b, c, d], results, config)
        assert [r.player for r in rows] == [c, a, b, d]
        assert rows[1].tiebreakers["head_to_head"] == 1
        assert rows[2].tiebreakers["head_to_head"] == -1


def test_head_to_head_leaves_a_three_way_tie_to_the_next_key():
    # A beat B, B beat C, C beat A: all on 3 points; VP scored then decides.
    a, b, c = 1, 2, 3
    results = [
        GameResult(1, (a, b), a, {a: 1, b: 0}),
        GameResult(2, (b, c), b, {b: 5, c: 0}),
        GameResult(3, (c, a), c, {c: 3, a: 0}),
    ]
    config = ScoringSettings(tiebreaks=("head_to_head", "vp_scored"))
    rows = compute_standings([a, b, c], results, config)
    assert [r.player for r in rows] == [b, c, a]
    assert all(r.tiebreakers["head_to_head"] == 0 for r in rows)


@pytest.mark.parametrize(
    ("bye_points", "expected"),
    [("win", (3, 1, 0)), ("draw", (1, 0, 1)), (2, (2, 0, 0))],
)
def test_bye_counting(bye_points, expected):
    config = ScoringSettings(bye_points=bye_points, bye_vp=10)
    (row,) = compute_standings([7], [GameResult(1, (7,))], config)
    assert (row.points, row.wins, row.draws) == expected
    assert row.byes == 1 and row.losses == 0
    assert row.tiebreakers["vp_scored"] == 10 and row.tiebreakers["vp_diff"] == 10
    assert row.tiebreakers["sos"] == 0  # a bye has no opponent


def test_empty_results_give_a_seeded_order():
    ids = list(range(1, 11))
    orders = {
        tuple(r.player for r in compute_standings(ids, [], ScoringSettings(seed=s)))
        for s in range(5)
    }
    assert len(orders) > 1


@pytest.mark.parametrize(
    ("results", "config"),
    [
        ([GameResult(1, (1, 99), 1)], ScoringSettings()),
        ([GameResult(1, (1, 2), 3)], ScoringSettings()),
        ([GameResult(1, (1, 1), None)], ScoringSettings()),
        ([], ScoringSettings(tiebreaks=("coin_toss",))),
        ([], ScoringSettings(tiebreaks=("sos", "sos"))),
    ],
)
def test_bad_input_is_rejected(results, config):
    with pytest.raises(ValueError):
        compute_standings([1, 2, 3], results, config)
