"""The vp_table scoring engine: bands from the VP difference to tournament points (X7, WG9)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import scoring
from events.scoring import Band, TableError

OMS_2011 = [[0, 200, 10, 10], [201, 400, 11, 9], [401, 600, 12, 8], [601, 800, 13, 7],
            [801, 1000, 14, 6], [1001, 1200, 15, 5], [1201, 1400, 16, 4], [1401, 1600, 17, 3],
            [1601, 1800, 18, 2], [1801, 2000, 19, 1], [2001, None, 20, 0]]


def test_the_oms_2011_preset_is_the_contract_table():
    assert scoring.as_rows(scoring.preset("oms-2011")) == OMS_2011


@pytest.mark.parametrize(("vp", "expected", "draw"), [
    ((1000, 1000), (10, 10), True), ((1200, 1000), (10, 10), True),  # inside the first band: a draw
    ((1000, 1201), (9, 11), False), ((1601, 0), (18, 2), False),
    ((2000, 0), (19, 1), False),  # "2000 und mehr" read as 2,001 and up (WG9)
    ((0, 2001), (0, 20), False), ((9000, 0), (20, 0), False),
])
def test_oms_2011_bands(vp, expected, draw):
    result = scoring.tournament_points(vp, scoring.preset("oms-2011"))
    assert (result.points, result.draw) == (expected, draw)


def contiguous_tables():
    """Valid tables: random band widths from 0, the last one open."""
    widths = st.lists(st.integers(1, 500), min_size=0, max_size=12)
    points = st.integers(0, 30)
    return st.tuples(widths, points, st.lists(st.tuples(points, points), min_size=13, max_size=13))


def build(widths, draw_points, tps):
    rows, low = [], 0
    for index, width in enumerate(widths):
        winner, loser = (draw_points, draw_points) if index == 0 else tps[index]
        rows.append([low, low + width - 1, winner, loser])
        low += width
    rows.append([low, None, *((draw_points, draw_points) if not widths else tps[-1])])
    return rows


@given(contiguous_tables(), st.integers(0, 10_000))
def test_every_difference_falls_in_exactly_one_band(table, difference):
    bands = scoring.parse_table(build(*table))
    holding = [band for band in bands if band.holds(difference)]
    assert len(holding) == 1
    assert scoring.band_for(difference, bands) == holding[0]


@given(contiguous_tables(), st.integers(0, 10_000), st.integers(0, 10_000))
def test_tournament_points_are_symmetric(table, a, b):
    bands = scoring.parse_table(build(*table))
    forward, backward = scoring.tournament_points((a, b), bands), scoring.tournament_points((b, a), bands)
    assert forward.points == backward.points[::-1] and forward.draw == backward.draw


@pytest.mark.parametrize(("rows", "reason"), [
    ([], "empty"),
    ([[1, None, 10, 10]], "not_from_zero"),
    ([[0, 100, 11, 9], [101, None, 20, 0]], "first_band_uneven"),
    ([[0, 100, 10, 10], [100, None, 20, 0]], "gap_or_overlap"),  # overlap at 100
    ([[0, 100, 10, 10], [102, None, 20, 0]], "gap_or_overlap"),  # 101 in no band
    ([[0, 100, 10, 10], [101, 300, 20, 0]], "bounded_end"),
    ([[0, None, 10, 10], [101, None, 20, 0]], "unbounded_middle"),
    ([[0, 100, 10, 10], [101, 50, 20, 0]], "max_below_min"),
    ([[0, 100, 10, 10], [101, None, 20, -1]], "negative_points"),
    ([[0, 100, 10], [101, None, 20, 0]], "band_shape"),
    ([[0, 100, 10, 10.5]], "band_shape"),
    ([[0, "100", 10, 10]], "band_shape"),
    ([[0, True, 10, 10]], "band_shape"),
    (["0-100"], "band_shape"),
])
def test_bad_tables_say_why(rows, reason):
    with pytest.raises(TableError) as caught:
        scoring.parse_table(rows)
    assert caught.value.reason == reason


def test_unknown_preset():
    with pytest.raises(TableError) as caught:
        scoring.preset("etc-2024")
    assert (caught.value.reason, caught.value.params) == ("preset_unknown", {"preset": "etc-2024"})


def test_bands_are_accepted_as_rows_or_bands():
    bands = (Band(0, 9, 1, 1), Band(10, None, 2, 0))
    assert scoring.parse_table(bands) == bands


# --- An event's stored scoring and standings ranked by a band table ---------------------------

def test_a_preset_is_stored_with_its_rows():
    config = scoring.scoring_config({"mode": "vp_table", "preset": "oms-2011"})
    assert config["preset"] == "oms-2011"
    assert scoring.parse_table(config["table"]) == scoring.PRESETS["oms-2011"]
    assert scoring.scoring_config(None) == {"mode": "wdl"}
    assert scoring.scoring_config({"mode": "wdl", "table": [[0, None, 1, 1]]}) == {"mode": "wdl"}
    assert scoring.bands_of({"mode": "wdl"}) is None


@pytest.mark.parametrize(("value", "reason"), [
    ({"mode": "elo"}, "scoring_shape"),
    ("vp_table", "scoring_shape"),
    ({"mode": "vp_table"}, "table_missing"),
    ({"mode": "vp_table", "preset": "oms-2011", "table": [[0, None, 5, 5]]}, "table_and_preset"),
    ({"mode": "vp_table", "preset": "fantasy"}, "preset_unknown"),
    ({"mode": "vp_table", "table": [[1, None, 5, 5]]}, "not_from_zero"),
])
def test_unusable_scorings_say_why(value, reason):
    with pytest.raises(TableError) as refused:
        scoring.scoring_config(value)
    assert refused.value.reason == reason


OMS = scoring.PRESETS["oms-2011"]


@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000)), min_size=1, max_size=12))
def test_band_standings_sum_each_games_band(vps):
    """Every game gives its two players exactly their band's points; W/D/L follow the band."""
    from events.standings import GameResult, ScoringSettings, compute_standings

    results = [GameResult(n, (1, 2), None, {1: a, 2: b}) for n, (a, b) in enumerate(vps, start=1)]
    rows = {row.player: row for row in compute_standings([1, 2], results, ScoringSettings(vp_bands=OMS))}
    expected = [scoring.tournament_points((a, b), OMS) for a, b in vps]
    assert rows[1].points == sum(r.points[0] for r in expected)
    assert rows[2].points == sum(r.points[1] for r in expected)
    draws = sum(r.draw for r in expected)
    assert rows[1].draws == rows[2].draws == draws
    assert rows[1].wins == rows[2].losses == sum(not r.draw and a > b for r, (a, b) in zip(expected, vps, strict=True))


def test_a_bye_under_a_band_table():
    from events.standings import GameResult, ScoringSettings, compute_standings

    bye = [GameResult(1, (1,))]
    won = compute_standings([1], bye, ScoringSettings(vp_bands=OMS, bye_points="win"))[0]
    drawn = compute_standings([1], bye, ScoringSettings(vp_bands=OMS, bye_points="draw"))[0]
    assert (won.points, won.wins) == (20, 1) and (drawn.points, drawn.draws) == (10, 1)
