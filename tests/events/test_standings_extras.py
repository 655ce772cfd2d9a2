"""Standings engine with extra points (awards and penalties): properties over random events."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.scoring import preset
from events.standings import GameResult, ScoringSettings, compute_standings
from tests.events.test_standings import build, cases

extra_seeds = st.integers(0, 2**32)


def random_extra(ids: list[int], seed: int) -> dict[int, int]:
    """Some players get awards, some penalties, some nothing (absent from the mapping)."""
    rng = random.Random(seed)
    return {pid: rng.randrange(-10, 11) for pid in ids if rng.random() < 0.6}


def by_player(rows):
    return {row.player: row for row in rows}


@settings(max_examples=100, deadline=None)
@given(cases, extra_seeds)
def test_points_are_game_points_plus_extra(case, seed):
    ids, results, config = build(case)
    extra = random_extra(ids, seed)
    plain = by_player(compute_standings(ids, results, config))
    for row in compute_standings(ids, results, config, extra):
        assert row.extra == extra.get(row.player, 0)
        assert row.points == plain[row.player].points + row.extra
        assert (row.wins, row.draws, row.losses, row.byes) == (
            plain[row.player].wins, plain[row.player].draws, plain[row.player].losses,
            plain[row.player].byes)


@settings(max_examples=100, deadline=None)
@given(cases, extra_seeds)
def test_tiebreakers_stay_on_game_points(case, seed):
    ids, results, config = build(case, with_head_to_head=False)
    plain = by_player(compute_standings(ids, results, config))
    for row in compute_standings(ids, results, config, random_extra(ids, seed)):
        assert row.tiebreakers == plain[row.player].tiebreakers


@settings(max_examples=100, deadline=None)
@given(cases, extra_seeds)
def test_order_respects_points_with_extra_then_the_tiebreakers(case, seed):
    ids, results, config = build(case, with_head_to_head=False)
    rows = compute_standings(ids, results, config, random_extra(ids, seed))
    assert [r.rank for r in rows] == list(range(1, len(ids) + 1))
    for above, below in zip(rows, rows[1:], strict=False):
        upper = [above.points, *(above.tiebreakers[k] for k in config.tiebreaks)]
        lower = [below.points, *(below.tiebreakers[k] for k in config.tiebreaks)]
        assert upper >= lower


@settings(max_examples=100, deadline=None)
@given(cases)
def test_no_extra_or_zero_extra_changes_nothing(case):
    ids, results, config = build(case)
    plain = compute_standings(ids, results, config)
    assert compute_standings(ids, results, config, {}) == plain
    assert compute_standings(ids, results, config, dict.fromkeys(ids, 0)) == plain


@settings(max_examples=100, deadline=None)
@given(cases, extra_seeds, st.integers(-20, 20))
def test_the_same_extra_for_everyone_keeps_the_order(case, seed, shift):
    ids, results, config = build(case)
    extra = random_extra(ids, seed)
    shifted = {pid: extra.get(pid, 0) + shift for pid in ids}
    first = compute_standings(ids, results, config, extra)
    second = compute_standings(ids, results, config, shifted)
    assert [r.player for r in second] == [r.player for r in first]
    assert [r.points - shift for r in second] == [r.points for r in first]


@settings(max_examples=100, deadline=None)
@given(cases, extra_seeds, st.integers(1, 20), st.data())
def test_more_extra_never_lowers_a_rank(case, seed, bonus, data):
    ids, results, config = build(case)
    extra = random_extra(ids, seed)
    lucky = data.draw(st.sampled_from(ids))
    before = by_player(compute_standings(ids, results, config, extra))[lucky].rank
    more = {**extra, lucky: extra.get(lucky, 0) + bonus}
    after = by_player(compute_standings(ids, results, config, more))[lucky].rank
    assert after <= before


@settings(max_examples=60, deadline=None)
@given(cases, extra_seeds, st.randoms(use_true_random=False))
def test_result_order_does_not_matter_with_extra(case, seed, shuffler):
    ids, results, config = build(case)
    extra = random_extra(ids, seed)
    shuffled = list(results)
    shuffler.shuffle(shuffled)
    assert (compute_standings(ids, shuffled, config, extra)
            == compute_standings(ids, results, config, extra))


def test_an_award_lifts_a_player_over_an_equal_record():
    # A and B both won once; a painting award (+2) puts B first whatever the tiebreak lot.
    a, b, c, d = 1, 2, 3, 4
    results = [GameResult(1, (a, c), a, {a: 10, c: 0}), GameResult(1, (b, d), b, {b: 5, d: 0})]
    config = ScoringSettings(tiebreaks=("vp_diff",))
    assert [r.player for r in compute_standings([a, b, c, d], results, config)][:2] == [a, b]
    rows = compute_standings([a, b, c, d], results, config, {b: 2, d: -1})
    assert [(r.player, r.points, r.extra) for r in rows] == [
        (b, 5, 2), (a, 3, 0), (c, 0, 0), (d, -1, -1)]
    # The opponents' game points only: D's penalty does not lower B's strength of schedule.
    sos = compute_standings([a, b, c, d], results, ScoringSettings(tiebreaks=("sos",)), {d: -1})
    assert {r.player: r.tiebreakers["sos"] for r in sos}[b] == 0


def test_extra_points_on_top_of_band_points():
    bands = preset("oms-2011")
    config = ScoringSettings(vp_bands=bands, tiebreaks=())
    results = [GameResult(1, (1, 2), 1, {1: 900, 2: 100})]
    rows = by_player(compute_standings([1, 2], results, config, {2: 3}))
    plain = by_player(compute_standings([1, 2], results, config))
    assert rows[2].points == plain[2].points + 3 and rows[1].points == plain[1].points


def test_extra_for_an_unknown_player_is_refused():
    with pytest.raises(ValueError):
        compute_standings([1, 2], [], ScoringSettings(), {3: 1})
