"""Margin-of-victory bands (rules §7.6 [Gap]: Muster default bands)."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.margin import DEFAULT_BANDS, MarginBand, classify, validate_bands


@pytest.mark.parametrize(
    ("margin", "limit", "expected"),
    [
        # The default: < 10% draw, < 25% minor, < 50% solid, otherwise massacre.
        (0, 1500, "draw"),
        (149, 1500, "draw"),
        (150, 1500, "minor_victory"),
        (374, 1500, "minor_victory"),
        (375, 1500, "solid_victory"),
        (749, 1500, "solid_victory"),
        (750, 1500, "massacre"),
        (4000, 1500, "massacre"),  # own operational units can push the margin past the limit
        (99, 1000, "draw"),
        (100, 1000, "minor_victory"),
    ],
)
def test_default_bands(margin, limit, expected):
    assert classify(margin, limit) == expected


def test_bands_are_data_in_any_order_and_numeric_form():
    bands = [
        MarginBand("crushing", Decimal("0.300")),
        MarginBand("even", 0),
        MarginBand("win", "1/5"),
    ]
    assert [classify(m, 1000, bands) for m in (199, 200, 299, 300)] == [
        "even",
        "win",
        "win",
        "crushing",
    ]
    assert bands[2].min_fraction == Fraction(1, 5)


@pytest.mark.parametrize(
    "bands",
    [
        [],
        [MarginBand("win", "0.1")],
        [MarginBand("a", 0), MarginBand("a", "0.2")],
        [MarginBand("a", 0), MarginBand("b", 0)],
    ],
)
def test_invalid_band_sets(bands):
    with pytest.raises(ValueError):
        validate_bands(bands)


def test_invalid_arguments():
    with pytest.raises(ValueError):
        MarginBand("x", "-0.1")
    with pytest.raises(ValueError):
        classify(-1, 1000)
    with pytest.raises(ValueError):
        classify(10, 0)


def test_default_bands_are_valid():
    validate_bands(DEFAULT_BANDS)


ORDER = [band.slug for band in sorted(DEFAULT_BANDS, key=lambda b: b.min_fraction)]


@given(st.integers(1, 5000), st.integers(0, 10000), st.integers(0, 10000))
def test_a_larger_margin_never_gives_a_lower_band(limit, a, b):
    low, high = sorted((a, b))
    assert ORDER.index(classify(low, limit)) <= ORDER.index(classify(high, limit))
