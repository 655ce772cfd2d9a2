"""Margin-of-victory bands: how decisive a victory-point win was (rules §7.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class MarginBand:
    """A result category reached once the VP margin is at least ``min_fraction`` of the limit."""

    slug: str
    min_fraction: Fraction

    def __post_init__(self) -> None:
        # Accept 0.1, "1/10" or Fraction(1, 10) from data; store an exact Fraction.
        value = Fraction(str(self.min_fraction))
        if value < 0:
            raise ValueError(f"band {self.slug!r}: min_fraction cannot be negative")
        object.__setattr__(self, "min_fraction", value)


# Muster's default, NOT the rulebook's: the page-86 victory-margin table of the 4th-edition
# rulebook is not in the seeds [Gap], so the TO edits these bands as data.
# VP margin < 10% of the points limit: draw; < 25%: minor; < 50%: solid; otherwise massacre.
DEFAULT_BANDS: tuple[MarginBand, ...] = (
    MarginBand("draw", Fraction(0)),
    MarginBand("minor_victory", Fraction(1, 10)),
    MarginBand("solid_victory", Fraction(1, 4)),
    MarginBand("massacre", Fraction(1, 2)),
)


def validate_bands(bands: Sequence[MarginBand]) -> None:
    """Raise ValueError unless every margin falls in exactly one band."""
    if not bands:
        raise ValueError("at least one margin band is needed")
    slugs = [band.slug for band in bands]
    fractions = [band.min_fraction for band in bands]
    if len(set(slugs)) != len(slugs):
        raise ValueError("margin band slugs must be unique")
    if len(set(fractions)) != len(fractions):
        raise ValueError("margin band thresholds must be distinct")
    if min(fractions) != 0:
        raise ValueError("one margin band must start at 0 so that every margin is classified")


def classify(margin: int, points_limit: int, bands: Sequence[MarginBand] = DEFAULT_BANDS) -> str:
    """The slug of the highest band whose threshold the margin reaches.

    Margins can exceed the points limit (own operational units score too): the top band.
    """
    if margin < 0:
        raise ValueError("the margin cannot be negative")
    if points_limit <= 0:
        raise ValueError("the points limit must be positive")
    validate_bands(bands)
    ratio = Fraction(margin, points_limit)
    reached = [band for band in bands if ratio >= band.min_fraction]
    return max(reached, key=lambda band: band.min_fraction).slug
