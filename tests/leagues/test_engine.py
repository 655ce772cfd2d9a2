"""The league's pure rules (leagues/engine): week points, dropped weeks, the table, escalation."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.engine.escalation import UnitRemoved, removed_units
from leagues.engine.weeks import (
    Entrant,
    Played,
    PlayerWeek,
    Points,
    Rules,
    WeekScore,
    dropped_weeks,
    player_weeks,
    table,
    week_score,
)

RULES = Rules(Points(3, 1, 0), games_counted=2, drop_worst=0)


def test_the_first_games_reported_count_and_later_ones_are_shown():
    week = PlayerWeek(1, (Played(5, "loss"), Played(2, "win"), Played(9, "win"), Played(3, "draw")))
    assert week_score(week, RULES) == WeekScore(1, 4, 4, 2, False)


def test_a_declared_bye_scores_nothing():
    assert week_score(PlayerWeek(2, (), declared_bye=True), RULES) == WeekScore(2, 0, 0, 0, True)


def test_a_pairing_bye_scores_its_result_and_is_marked():
    assert week_score(PlayerWeek(1, (Played(1, "win", bye=True),)), RULES) == WeekScore(1, 3, 1, 1, True)


def test_among_equal_weeks_byes_are_dropped_first_then_the_earliest():
    scores = [WeekScore(1, 0, 0, 0, False), WeekScore(2, 3, 1, 1, False),
              WeekScore(3, 0, 0, 0, True), WeekScore(4, 0, 1, 1, False)]
    assert dropped_weeks(scores, 1) == {3}
    assert dropped_weeks(scores, 2) == {3, 1}
    assert dropped_weeks(scores, 3) == {3, 1, 4}
    assert dropped_weeks(scores, 0) == frozenset()


def test_weeks_without_games_score_nothing_and_may_be_dropped():
    entrant = Entrant(7, "Ann", (PlayerWeek(1, (Played(1, "win"),)), PlayerWeek(3, (Played(2, "draw"),))))
    weeks = player_weeks(entrant, [1, 2, 3], Rules(Points(), 2, drop_worst=1))
    assert [(w.week, w.points, w.dropped) for w in weeks] == [(1, 3, False), (2, 0, True), (3, 1, False)]


def test_the_table_ranks_by_points_kept_and_equal_points_share_a_rank():
    rules = Rules(Points(3, 1, 0), 1, drop_worst=1)
    ann = Entrant(1, "Ann", (PlayerWeek(1, (Played(1, "win"),)), PlayerWeek(2, (Played(2, "loss"),))))
    bob = Entrant(2, "Bob", (PlayerWeek(1, (Played(3, "draw"),)), PlayerWeek(2, (Played(4, "win"),))))
    cid = Entrant(3, "Cid", (PlayerWeek(1, (Played(5, "loss"),)),))
    rows = table([cid, bob, ann], [1, 2], rules)
    assert [(r.rank, r.name, r.points) for r in rows] == [(1, "Ann", 3), (1, "Bob", 3), (3, "Cid", 0)]


results = st.sampled_from(["win", "draw", "loss"])
weeks = st.lists(st.tuples(st.lists(results, max_size=4), st.booleans()), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(weeks=weeks, counted=st.integers(1, 3), drop=st.integers(0, 6))
def test_points_are_the_kept_weeks_and_dropping_never_raises_a_total(weeks, counted, drop):
    entrant = Entrant(1, "A", tuple(
        PlayerWeek(n, tuple(Played(i, r) for i, r in enumerate(games)), bye)
        for n, (games, bye) in enumerate(weeks, start=1)))
    numbers = list(range(1, len(weeks) + 1))
    kept = player_weeks(entrant, numbers, Rules(Points(), counted, drop))
    plain = player_weeks(entrant, numbers, Rules(Points(), counted, 0))
    assert sum(w.dropped for w in kept) == min(drop, len(weeks))
    assert all(w.games_counted <= counted for w in kept)
    total = sum(w.points for w in kept if not w.dropped)
    assert total <= sum(w.points for w in plain)
    # No kept week is worse than a dropped one.
    if any(w.dropped for w in kept) and any(not w.dropped for w in kept):
        assert max(w.points for w in kept if w.dropped) <= min(w.points for w in kept if not w.dropped)


def test_escalation_keeps_each_unit_as_many_times():
    previous = ["Captain", "Tactical Squad", "Tactical Squad", "Scouts"]
    assert removed_units(previous, ["captain", "Tactical  squad", "Scouts", "Predator"], 2) == [
        UnitRemoved("Tactical Squad", 2)]
    assert removed_units(previous, [*previous, "Predator"], 2) == []
    assert removed_units(previous, [], 1) == [UnitRemoved("Captain", 1), UnitRemoved("Tactical Squad", 1),
                                              UnitRemoved("Scouts", 1)]


@settings(max_examples=60, deadline=None)
@given(previous=st.lists(st.sampled_from("ABCD"), max_size=6), extra=st.lists(st.sampled_from("ABCDE"), max_size=4))
def test_a_list_that_only_adds_units_passes(previous, extra):
    assert removed_units(previous, [*extra, *previous], 1) == []
    if previous:
        assert removed_units(previous, previous[1:], 1) != []
