"""Tournament points from the victory-point difference through a band table (scoring ``vp_table``).

Pure: no Django. A table is a tuple of bands ``(min_diff, max_diff or None, winner_tp, loser_tp)``
that must cover every difference 0, 1, 2, … exactly once: ordered, contiguous from 0, no overlap,
and only the last band unbounded (api-v1-systems "Events of any system", systems/ X7, WG9).
A difference inside the first band is a draw: both players take that band's points, so the first
band must give both sides the same points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from config.refusals import CodedRefusal

MAX_BANDS = 100


class TableError(CodedRefusal, ValueError):
    """A band table that cannot score every difference once: a stable ``reason`` and params."""

    @property
    def reason(self) -> str:
        return self.code


@dataclass(frozen=True)
class Band:
    """Differences ``min_diff``…``max_diff`` (inclusive; None: no upper bound) and the points."""

    min_diff: int
    max_diff: int | None
    winner_tp: int
    loser_tp: int

    def holds(self, difference: int) -> bool:
        return self.min_diff <= difference and (self.max_diff is None or difference <= self.max_diff)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _band(number: int, row: object) -> Band:
    if isinstance(row, Band):
        row = (row.min_diff, row.max_diff, row.winner_tp, row.loser_tp)
    if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != 4:
        raise TableError("band_shape", band=number)
    low, high, winner, loser = row
    if not (_is_int(low) and (high is None or _is_int(high)) and _is_int(winner) and _is_int(loser)):
        raise TableError("band_shape", band=number)
    if winner < 0 or loser < 0:
        raise TableError("negative_points", band=number)
    if high is not None and high < low:
        raise TableError("max_below_min", band=number)
    return Band(low, high, winner, loser)


def parse_table(rows: Sequence[object]) -> tuple[Band, ...]:
    """Check a table given as rows (lists or Bands) and return its bands; raise TableError.

    Band numbers in the errors count from 1, as a person reads the table.
    """
    if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
        raise TableError("empty")
    if len(rows) > MAX_BANDS:
        raise TableError("band_shape", band=MAX_BANDS + 1)
    bands = tuple(_band(number, row) for number, row in enumerate(rows, start=1))
    if bands[0].min_diff != 0:
        raise TableError("not_from_zero")
    if bands[0].winner_tp != bands[0].loser_tp:
        raise TableError("first_band_uneven")
    for number, (before, band) in enumerate(zip(bands, bands[1:], strict=False), start=2):
        if before.max_diff is None:
            raise TableError("unbounded_middle")
        if band.min_diff != before.max_diff + 1:
            raise TableError("gap_or_overlap", band=number)
    if bands[-1].max_diff is not None:
        raise TableError("bounded_end")
    return bands


# The Austrian championship 2011 matrix (ÖMS 2011, tabletoptournaments.net tid=7738), exactly as
# api-v1-systems gives it; "2000 und mehr" in the source is read as 2,001 and up (WG9).
PRESETS: Mapping[str, tuple[Band, ...]] = {
    "oms-2011": parse_table([
        [0, 200, 10, 10], [201, 400, 11, 9], [401, 600, 12, 8], [601, 800, 13, 7],
        [801, 1000, 14, 6], [1001, 1200, 15, 5], [1201, 1400, 16, 4], [1401, 1600, 17, 3],
        [1601, 1800, 18, 2], [1801, 2000, 19, 1], [2001, None, 20, 0],
    ]),
}


def preset(name: str) -> tuple[Band, ...]:
    try:
        return PRESETS[name]
    except KeyError:
        raise TableError("preset_unknown", preset=name) from None


def band_for(difference: int, bands: Sequence[Band]) -> Band:
    """The one band holding ``difference`` (a checked table always has one)."""
    if difference < 0:
        raise ValueError("a difference is never negative")
    for band in bands:
        if band.holds(difference):
            return band
    raise TableError("gap_or_overlap", band=len(bands))


@dataclass(frozen=True)
class TpResult:
    """Tournament points of the two sides, in the order given, and whether the game is a draw."""

    points: tuple[int, int]
    draw: bool


def tournament_points(vp: tuple[int, int], bands: Sequence[Band]) -> TpResult:
    """The sides' tournament points from their victory points; the first band is a draw."""
    first, second = vp
    band = band_for(abs(first - second), bands)
    if band == bands[0]:
        return TpResult((band.winner_tp, band.winner_tp), True)
    if first > second:
        return TpResult((band.winner_tp, band.loser_tp), False)
    return TpResult((band.loser_tp, band.winner_tp), False)


def as_rows(bands: Sequence[Band]) -> list[list[int | None]]:
    """Bands as the JSON rows of the contract."""
    return [[b.min_diff, b.max_diff, b.winner_tp, b.loser_tp] for b in bands]


WDL, VP_TABLE = "wdl", "vp_table"


def scoring_config(value: object) -> dict[str, object]:
    """An event's ``scoring`` as stored: ``{"mode": "wdl"}`` or ``{"mode": "vp_table", "table":
    rows, "preset"?: name}`` (a preset is stored with its rows, so staff can read and edit them).
    Raises TableError (``scoring_shape``, ``table_and_preset``, a table reason) or for a preset
    ``preset_unknown``."""
    if value is None:
        return {"mode": WDL}
    if not isinstance(value, Mapping) or value.get("mode", WDL) not in (WDL, VP_TABLE):
        raise TableError("scoring_shape")
    if value.get("mode", WDL) == WDL:
        return {"mode": WDL}
    has_table, name = value.get("table") is not None, value.get("preset")
    if has_table and name is not None and as_rows(preset(str(name))) != value.get("table"):
        raise TableError("table_and_preset")
    if has_table:
        config: dict[str, object] = {"mode": VP_TABLE, "table": as_rows(parse_table(value["table"]))}
        if name is not None:
            config["preset"] = name
        return config
    if name is None:
        raise TableError("table_missing")
    return {"mode": VP_TABLE, "preset": name, "table": as_rows(preset(str(name)))}


def bands_of(config: Mapping[str, object]) -> tuple[Band, ...] | None:
    """The bands a stored ``vp_table`` scoring ranks by; None for win/draw/loss."""
    if config.get("mode") != VP_TABLE:
        return None
    return parse_table(config["table"])  # type: ignore[arg-type]
