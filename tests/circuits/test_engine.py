"""The pure circuit engine: placement, Elo and Glicko-2 figures from the contract (§1)."""
from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from circuits.engine import (
    EloSettings,
    EventInput,
    GameLine,
    Glicko2Settings,
    PlacementSettings,
    StartRating,
    check_event,
    compute,
    settings_from,
)
from circuits.engine.placement import event_value, place_points
from config.refusals import CodedRefusal

DAY = date(2026, 3, 1)


def event(name: str, day: date = DAY, rounds: int = 3, players: int = 4, placings=(), games=(),
          multiplier: float = 1.0) -> EventInput:
    return EventInput((day, name), name, day, rounds, players, multiplier, tuple(placings), tuple(games))


def games_of(outcome, person):
    return [GameLine._make(line) for line in outcome.games[person]]


def rows_by_person(outcome):
    return {row.person: row for row in outcome.rows}


# Placement ------------------------------------------------------------------------------------

def test_event_value_takes_the_largest_key_not_above_the_rounds_and_caps_the_size():
    s = PlacementSettings()
    assert event_value(s, 3, 10) == 65
    assert event_value(s, 4, 40) == 90  # 60 + cap 30
    assert event_value(s, 6, 20) == 90  # 70 + 20
    assert event_value(s, 2, 8) == 63  # no key <= 2: the smallest (3 -> 55)


def test_curves():
    assert place_points("linear", 65, 1, 10) == 65
    assert place_points("linear", 65, 10, 10) == pytest.approx(6.5)
    assert place_points("t3", 65, 1, 10) == 65
    assert place_points("t3", 65, 10, 10) == 0
    assert place_points("t3", 65, 4, 10) == pytest.approx(65 * 6 / 9)


def test_best_n_weights_multiplier_and_shared_ranks():
    s = settings_from("placement", {"best_n": 2, "weights": [100, 50]})
    events = [
        event("a", players=10, placings=[(1, 1), (2, 2)]),  # value 65: 65, 58.5
        event("b", players=10, placings=[(1, 10), (2, 1)], multiplier=2),  # 6.5*2=13, 130
        event("c", players=10, placings=[(1, 5), (3, 1)]),  # 39 for 1, 65 for 3
    ]
    rows = rows_by_person(compute(s, events, [1, 2, 3], as_of=DAY))
    assert rows[1].value == pytest.approx(65 + 39 * 0.5)
    assert rows[2].value == pytest.approx(130 + 58.5 * 0.5)
    assert rows[3].value == pytest.approx(65)
    assert rows[1].events_counted == 2
    assert rows[2].rank == 1 and rows[1].rank == 2 and rows[3].rank == 3


def test_equal_points_share_a_rank_and_provisional_people_have_none():
    s = settings_from("placement", {"min_events": 2})
    events = [event("a", placings=[(1, 1), (2, 1)]), event("b", placings=[(1, 1), (2, 1)]),
              event("c", placings=[(3, 1)])]
    outcome = compute(s, events, [1, 2, 3], as_of=DAY)
    rows = rows_by_person(outcome)
    assert rows[1].rank == rows[2].rank == 1
    assert rows[3].rank is None and rows[3].provisional
    assert [r.person for r in outcome.rows] == [1, 2, 3]


def test_step_decay_and_a_zero_factor_leaves_the_result_out():
    s = settings_from("placement", {"decay_days": 30, "decay_step": 0.25})
    events = [event("old", day=DAY - timedelta(days=125), placings=[(1, 1)]),
              event("mid", day=DAY - timedelta(days=45), placings=[(1, 1)])]
    outcome = compute(s, events, [1], as_of=DAY)
    lines = {line.event: line for line in outcome.results[1]}
    assert lines["mid"].factor == 0.75 and lines["mid"].counted
    assert lines["old"].factor == 0 and not lines["old"].counted
    assert rows_by_person(outcome)[1].value == pytest.approx(59 * 0.75)
    assert outcome.valid_until == DAY - timedelta(days=45) + timedelta(days=60)
    # The same inputs seen from a later day: one more step.
    later = compute(s, events, [1], as_of=DAY + timedelta(days=15))
    assert rows_by_person(later)[1].value == pytest.approx(59 * 0.5)


def test_events_after_as_of_are_not_counted():
    s = PlacementSettings()
    events = [event("a", placings=[(1, 1)]), event("b", day=DAY + timedelta(days=3), placings=[(1, 1)])]
    outcome = compute(s, events, [1], as_of=DAY)
    assert rows_by_person(outcome)[1].value == 59
    assert outcome.valid_until == DAY + timedelta(days=3)


# Elo ------------------------------------------------------------------------------------------

def test_elo_win_and_symmetric_draw():
    s = EloSettings()
    win = compute(s, [event("a", games=[(1, 1, 1, 2, 1, False)])], [1, 2], as_of=DAY)
    rows = rows_by_person(win)
    assert rows[1].value == 1516 and rows[2].value == 1484
    start = {1: StartRating(1600), 2: StartRating(1400)}
    for listed in ((1, 2), (2, 1)):
        a, b = listed
        drawn = rows_by_person(compute(s, [event("a", games=[(1, 1, a, b, None, False)])], [1, 2],
                                       start, as_of=DAY))
        expected = 1 / (1 + 10 ** (-200 / 400))
        assert drawn[1].value == pytest.approx(1600 + 32 * (0.5 - expected))
        assert drawn[2].value == pytest.approx(1400 - 32 * (0.5 - expected))


def test_elo_order_is_date_round_table_and_byes_forfeits_change_nothing():
    s = EloSettings()
    games = [(2, 1, 1, 3, 3, False), (1, 2, 2, 3, 2, False), (1, 1, 1, 2, 1, False),
             (1, 3, 4, None, 4, False), (1, 4, 4, 5, 4, True)]
    outcome = compute(s, [event("a", games=games)], [1, 2, 3, 4, 5], as_of=DAY)
    assert [(g.round, g.table) for g in games_of(outcome, 1)] == [(1, 1), (2, 1)]
    assert 4 not in outcome.games and 5 not in outcome.games
    rows = rows_by_person(outcome)
    assert rows[4].value == rows[5].value == 1500 and rows[4].games == 0
    g = games_of(outcome, 2)
    assert g[0].after == 1484 and g[1].before == 1484  # round 1 table 1 came first


def test_elo_min_games():
    s = EloSettings(min_games=2)
    rows = rows_by_person(compute(s, [event("a", games=[(1, 1, 1, 2, 1, False)])], [1, 2], as_of=DAY))
    assert rows[1].provisional and rows[1].rank is None


# Glicko-2 -------------------------------------------------------------------------------------

def glickman(extra_events=()):
    start = {1: StartRating(1500, 200, 0.06), 2: StartRating(1400, 30), 3: StartRating(1550, 100),
             4: StartRating(1700, 300)}
    games = [(1, 1, 1, 2, 1, False), (2, 1, 1, 3, 3, False), (3, 1, 4, 1, 4, False)]
    return compute(Glicko2Settings(), [event("p", games=games), *extra_events], [1, 2, 3, 4], start,
                   as_of=DAY + timedelta(days=30))


def test_glickmans_worked_example():
    # The paper carries mu' and phi' to 4 decimals (mu' = -0.2069): 1464.06 / 151.52 / 0.05999,
    # the contract's figures to two decimals (in full precision the rating would be 1464.0507).
    row = rows_by_person(glickman())[1]
    assert round(row.value, 2) == 1464.06
    assert round(row.deviation, 2) == 151.52
    assert row.deviation == pytest.approx(151.52, abs=0.005)
    assert row.volatility == pytest.approx(0.05999, abs=0.00001)
    lines = games_of(glickman(), 1)
    assert sum(line.delta for line in lines) == pytest.approx(lines[0].after - lines[0].before)


def test_a_player_who_does_not_play_sees_their_deviation_grow():
    later = event("q", day=DAY + timedelta(days=7), games=[(1, 1, 2, 3, 2, False)])
    before = rows_by_person(glickman())
    after = rows_by_person(glickman([later]))
    assert after[1].value == before[1].value
    phi = before[1].deviation / 173.7178
    grown = 173.7178 * (phi ** 2 + before[1].volatility ** 2) ** 0.5
    assert after[1].deviation == pytest.approx(grown, abs=1e-4)
    assert after[1].deviation > before[1].deviation


# Checks ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "raw", "code"), [
    ("swiss", {}, "circuit_method_unknown"),
    ("placement", {"curve": "cubic"}, "circuit_curve_unknown"),
    ("placement", {"weights": [100, -5]}, "circuit_weights_invalid"),
    ("placement", {"weights": ["a"]}, "circuit_weights_invalid"),
    ("placement", {"best_n": "three"}, "circuit_setting_invalid"),
    ("elo", {"k_factor": -1}, "circuit_setting_invalid"),
])
def test_bad_settings_are_refused(method, raw, code):
    with pytest.raises(CodedRefusal) as refused:
        settings_from(method, raw)
    assert refused.value.code == code


@pytest.mark.parametrize(("bad", "code"), [
    (event("x", players=4, placings=[(1, 5)]), "circuit_place_beyond_players"),
    (event("x", games=[(1, 1, 1, 1, None, False)]), "circuit_game_player_twice"),
    (event("x", day=DAY + timedelta(days=1)), "circuit_result_in_future"),
])
def test_bad_events_are_refused(bad, code):
    with pytest.raises(CodedRefusal) as refused:
        check_event(bad, today=DAY)
    assert refused.value.code == code


# Determinism ----------------------------------------------------------------------------------

def random_events(seed: int) -> list[EventInput]:
    rng = random.Random(seed)
    events = []
    for n in range(6):
        people = rng.sample(range(12), 8)
        games = []
        for rnd in (1, 2, 3):
            rng.shuffle(people)
            for table in range(4):
                a, b = people[2 * table], people[2 * table + 1]
                games.append((rnd, table + 1, a, b, rng.choice([a, b, None]), rng.random() < 0.05))
        placings = [(p, place) for place, p in enumerate(people, start=1)]
        events.append(event(f"e{n}", day=DAY - timedelta(days=rng.randrange(0, 60)), players=8,
                            placings=placings, games=games))
    return events


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), shuffle=st.randoms(use_true_random=False),
       method=st.sampled_from(["placement", "elo", "glicko2"]))
def test_shuffled_input_gives_the_same_output(seed, shuffle, method):
    s = settings_from(method, {"decay_days": 20} if method == "placement" else {})
    events = random_events(seed)
    first = compute(s, events, list(range(12)), as_of=DAY)
    shuffle.shuffle(events)
    again = compute(s, events, list(reversed(range(12))), as_of=DAY)
    assert first == again
