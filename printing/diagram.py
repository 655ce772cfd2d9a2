"""The table diagram of a mission sheet: inline SVG drawn to scale from the mission's distances.

A pure function of the mission's ``diagram`` data (distances in inches, as in the rules) and
the level's table size (cm). Drawing units are centimetres; 1 cm of table is 0.4 mm of paper
(1:30), so a 180 cm table stays 60 mm wide. Grey fills only, no full-bleed areas.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

INCH_CM = 2.54
MM_PER_CM = 1 / 3
MARGIN = 10.0  # room for the dimension labels, in cm of table
FONT = 6.0  # label size in cm of table (about 5.7 pt on paper)
ROAD = 10.0  # drawn width of a road, in cm (the rules give none)
ZONE = "#d9d9d9"
OTHER_ZONE = "#ebebeb"
LINE = 'stroke="#000" stroke-width="0.4" stroke-dasharray="2 1.5"'
KINDS = (
    "quarters",
    "diagonal_quarters",
    "quarter_vs_objective",
    "long_edges",
    "short_edge_vs_long_edge",
    "edges_and_centre",
)
DISTANCES = (
    "centre_exclusion_inches",
    "enemy_distance_inches",
    "zone_depth_inches",
    "attacker_zone_depth_inches",
    "defender_zone_depth_inches",
    "edge_exclusion_inches",
    "objective_from_centre_inches",
    "objective_exclusion_inches",
    "objective_vehicle_inches",
    "entry_exit_radius_inches",
)


class DiagramError(ValueError):
    """The mission's diagram data cannot be drawn (unknown kind, bad or oversized distance)."""


@dataclass(frozen=True)
class DiagramLabels:
    """The words drawn on the diagram, already in the pack's language."""

    attacker: str
    defender: str
    objective: str
    entry: str
    exit: str
    road: str


@dataclass(frozen=True)
class _Table:
    width: float
    depth: float
    d: Mapping[str, float | None]
    road: bool = False

    def cm(self, key: str) -> float | None:
        value = self.d.get(key)
        return None if value is None else value * INCH_CM


def table_diagram(diagram: Mapping[str, Any], width_cm: int, depth_cm: int,
                  labels: DiagramLabels) -> str:
    """The SVG markup of a ``width_cm`` x ``depth_cm`` table with the mission's zones.

    Raises DiagramError when the data names an unknown kind, holds a distance that is not a
    non-negative number, or does not fit on the table.
    """
    if width_cm <= 0 or depth_cm <= 0:
        raise DiagramError(f"the table size must be positive, not {width_cm}x{depth_cm} cm")
    kind = diagram.get("kind")
    if kind not in KINDS:
        raise DiagramError(f"unknown diagram kind {kind!r}")
    table = _Table(float(width_cm), float(depth_cm), _distances(diagram), bool(diagram.get("road")))
    body = _DRAW[kind](table, labels)
    return _svg(table, body)


def width_mm(width_cm: int) -> float:
    """The printed width of a table's diagram, labels included."""
    return round((width_cm + 2 * MARGIN) * MM_PER_CM, 1)


def _distances(diagram: Mapping[str, Any]) -> dict[str, float | None]:
    values: dict[str, float | None] = {}
    for key in DISTANCES:
        value = diagram.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or value < 0):
            raise DiagramError(f"{key} must be a non-negative number, not {value!r}")
        values[key] = value
    return values


def _svg(t: _Table, body: list[str]) -> str:
    w, h = t.width + 2 * MARGIN, t.depth + 2 * MARGIN
    dims = [
        _text(t.width / 2, t.depth + MARGIN * 0.75, f"{t.width:g} cm"),
        f'<text x="{-MARGIN * 0.35:g}" y="{t.depth / 2:g}" font-size="{FONT:g}" text-anchor="middle" '
        f'transform="rotate(-90 {-MARGIN * 0.35:g} {t.depth / 2:g})">{t.depth:g} cm</text>',
        _scale_bar(t),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * MM_PER_CM:.1f}mm" '
        f'height="{h * MM_PER_CM:.1f}mm" viewBox="{-MARGIN:g} {-MARGIN:g} {w:g} {h:g}" '
        f'font-family="DejaVu Sans, sans-serif">'
        + "".join(body)
        + f'<rect x="0" y="0" width="{t.width:g}" height="{t.depth:g}" fill="none" '
        f'stroke="#000" stroke-width="0.6"/>'
        + "".join(dims)
        + "</svg>"
    )


def _scale_bar(t: _Table) -> str:
    """12 inches to scale under the table's right end."""
    length = 12 * INCH_CM
    x0, y = t.width - length, t.depth + MARGIN * 0.45
    return (f'<path d="M{x0:g} {y:g}h{length:g}" stroke="#000" stroke-width="0.8"/>'
            + _text(x0 + length / 2, y + FONT * 0.9, "12″", size=FONT * 0.8))


def _text(x: float, y: float, text: str, size: float = FONT, anchor: str = "middle") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}">'
            f"{escape(text)}</text>")


def _rect(x: float, y: float, w: float, h: float, fill: str, outline: bool = False) -> str:
    edge = f" {LINE}" if outline else ""
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{fill}"{edge}/>')


def _circle(t: _Table, radius: float, fill: str = "#fff") -> str:
    """A dashed circle around the table's centre."""
    if radius > min(t.width, t.depth) / 2:
        raise DiagramError(f"a {radius / INCH_CM:g}″ circle does not fit on a "
                           f"{t.width:g}x{t.depth:g} cm table")
    return (f'<circle cx="{t.width / 2:g}" cy="{t.depth / 2:g}" r="{radius:.1f}" fill="{fill}" '
            f'{LINE}/>')


def _inches(cm: float) -> str:
    return f"{cm / INCH_CM:g}″"


def _quarters(t: _Table) -> list[str]:
    """Four quarters, shaded (each side deploys in one), split by dashed centre lines."""
    cx, cy = t.width / 2, t.depth / 2
    return [
        _rect(0, 0, t.width, t.depth, ZONE),
        f'<path d="M{cx:g} 0V{t.depth:g}M0 {cy:g}H{t.width:g}" stroke="#000" stroke-width="0.4" '
        f'stroke-dasharray="3 2"/>',
    ]


def _draw_quarters(t: _Table, labels: DiagramLabels) -> list[str]:
    body = _quarters(t)
    radius = t.cm("centre_exclusion_inches")
    if radius:
        body += [_circle(t, radius), _text(t.width / 2, t.depth / 2 + FONT / 3, _inches(radius))]
    return body


def _draw_quarter_vs_objective(t: _Table, labels: DiagramLabels) -> list[str]:
    body = _quarters(t)
    radius = t.cm("objective_from_centre_inches")
    if radius:
        body += [
            _circle(t, radius, fill=OTHER_ZONE),
            _text(t.width / 2, t.depth / 2 - FONT / 2, labels.objective),
            _text(t.width / 2, t.depth / 2 + FONT, f"≤ {_inches(radius)}"),
        ]
    return body


def _strips(t: _Table, top: float | None, bottom: float | None) -> None:
    if (top or 0) + (bottom or 0) > t.depth:
        raise DiagramError(f"deployment zones {_inches(top or 0)} and {_inches(bottom or 0)} do "
                           f"not fit on a table {t.depth:g} cm deep")


def _draw_long_edges(t: _Table, labels: DiagramLabels) -> list[str]:
    """The attacker along the top long edge, the defender along the bottom one."""
    top, bottom = t.cm("attacker_zone_depth_inches"), t.cm("defender_zone_depth_inches")
    _strips(t, top, bottom)
    body: list[str] = []
    if top:
        body += [_rect(0, 0, t.width, top, ZONE, outline=True),
                 _text(t.width / 2, top / 2 + FONT / 3, f"{labels.attacker} {_inches(top)}")]
    else:
        body.append(_text(t.width / 2, FONT * 1.2, labels.attacker))
    if bottom:
        body += [_rect(0, t.depth - bottom, t.width, bottom, OTHER_ZONE, outline=True),
                 _text(t.width / 2, t.depth - bottom / 2 + FONT / 3,
                       f"{labels.defender} {_inches(bottom)}")]
    radius = t.cm("entry_exit_radius_inches")
    if radius:
        body += _entry_exit(t, radius, labels)
    return body


def _entry_exit(t: _Table, radius: float, labels: DiagramLabels) -> list[str]:
    """The attacker's entry (own edge) and exit (defender's edge) points, an example position."""
    if 2 * radius > t.depth:
        raise DiagramError(f"the {_inches(radius)} entry and exit points do not fit on the table")
    x = t.width / 4
    arc = f'fill="none" {LINE}'
    return [
        f'<path d="M{x - radius:.1f} 0A{radius:.1f} {radius:.1f} 0 0 0 {x + radius:.1f} 0" {arc}/>',
        _text(x, radius + FONT, f"{labels.entry} {_inches(radius)}"),
        f'<path d="M{x - radius:.1f} {t.depth:g}A{radius:.1f} {radius:.1f} 0 0 1 {x + radius:.1f} '
        f'{t.depth:g}" {arc}/>',
        _text(x, t.depth - radius - FONT * 0.4, f"{labels.exit} {_inches(radius)}"),
    ]


def _draw_short_vs_long(t: _Table, labels: DiagramLabels) -> list[str]:
    """The attacker's short edge on the left, the defender along the bottom long edge."""
    bottom = t.cm("defender_zone_depth_inches")
    _strips(t, None, bottom)
    x, y = FONT * 1.3, t.depth / 4
    body = [f'<path d="M0 0V{t.depth:g}" stroke="#000" stroke-width="2.4"/>',
            f'<text x="{x:g}" y="{y:g}" font-size="{FONT:g}" text-anchor="middle" '
            f'transform="rotate(-90 {x:g} {y:g})">{escape(labels.attacker)}</text>']
    if bottom:
        body += [_rect(0, t.depth - bottom, t.width, bottom, OTHER_ZONE, outline=True),
                 _text(t.width / 2, t.depth - bottom / 2 + FONT / 3,
                       f"{labels.defender} {_inches(bottom)}")]
    if t.road:
        # The rules give no width: a band shows where the road runs, short edge to short edge.
        y = t.depth / 2
        body += [f'<path d="M0 {y - ROAD / 2:g}H{t.width:g}M0 {y + ROAD / 2:g}H{t.width:g}" '
                 f'stroke="#000" stroke-width="0.4" stroke-dasharray="3 2"/>',
                 _text(t.width / 2, y + FONT / 3, labels.road)]
    return body


def _draw_edges_and_centre(t: _Table, labels: DiagramLabels) -> list[str]:
    """The attacker within n of an edge (the ring), the defender more than m from every edge."""
    ring, inset = t.cm("attacker_zone_depth_inches"), t.cm("edge_exclusion_inches")
    for depth in (ring, inset):
        if depth and 2 * depth >= min(t.width, t.depth):
            raise DiagramError(f"a {_inches(depth)} edge zone does not fit on the table")
    body: list[str] = []
    if ring:
        body += [_rect(0, 0, t.width, t.depth, ZONE),
                 _rect(ring, ring, t.width - 2 * ring, t.depth - 2 * ring, "#fff"),
                 _text(t.width / 2, ring / 2 + FONT / 3, f"{labels.attacker} {_inches(ring)}")]
    if inset:
        body += [_rect(inset, inset, t.width - 2 * inset, t.depth - 2 * inset, OTHER_ZONE,
                       outline=True),
                 _text(t.width / 2, t.depth / 2, labels.defender),
                 _text(t.width / 2, t.depth / 2 + FONT * 1.2, f"> {_inches(inset)}")]
    return body


_DRAW = {
    "quarters": _draw_quarters,
    "diagonal_quarters": _draw_quarters,
    "quarter_vs_objective": _draw_quarter_vs_objective,
    "long_edges": _draw_long_edges,
    "short_edge_vs_long_edge": _draw_short_vs_long,
    "edges_and_centre": _draw_edges_and_centre,
}
