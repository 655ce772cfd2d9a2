"""The campaign map drawn to scale as an inline SVG (player's page and organiser's cockpit).

R6–R8: the seed's example map, two 3×3 sectors side by side, every territory the same square,
each side's line 1 facing the enemy (campaigns/engine/map.py holds the grid). The drawing takes
the territories as ``campaign_reads.map_view`` gives them, so a reader sees on it exactly the
counters the API shows them (R12); it adds only geometry and words."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.engine import map as grid
from campaigns.words import SIDES, word

CELL = 100  # one territory, in SVG units
MARGIN = 10
TOP = 36  # the sides' names
BOTTOM = 34  # the lines of resistance
WIDTH = 2 * MARGIN + grid.COLUMNS * CELL
HEIGHT = TOP + grid.ROWS * CELL + BOTTOM
# Light fills under dark text, dark chits under white text: both above 4.5:1.
FILLS = {"west": "#dbe7f6", "east": "#f6dede"}
CHITS = {"west": "#1f4e8c", "east": "#8c1f1f"}


@dataclass(frozen=True)
class Chit:
    """One side's counters in a territory: how many, and what the reader may read on them."""

    side: str
    x: int
    y: int
    count: int
    title: str
    colour: str


@dataclass(frozen=True)
class Cell:
    code: str
    x: int
    y: int
    fill: str
    title: str
    major: bool
    star: str  # polygon points, empty when not a major
    fortified: bool
    tower: str  # polygon points, empty when not fortified
    isolated: bool
    chits: tuple[Chit, ...]


@dataclass(frozen=True)
class Column:
    x: int
    label: str


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    cells: tuple[Cell, ...]
    lines: tuple[Column, ...]
    sides: tuple[Column, ...]
    front_x: int
    bottom: int


def counter_label(counter: Mapping[str, Any]) -> str:
    """R12: the detachment's name when the reader may see it, else the army's name only, with
    the war engines an infiltration showed (R25 on a 5)."""
    label = str(counter.get("detachment") or counter["army_name"])
    engines = counter.get("war_engines")
    if engines is not None:
        label += " — " + (ngettext("%(count)s war engine", "%(count)s war engines", len(engines))
                          % {"count": len(engines)})
        if engines:
            label += ": " + ", ".join(e["type"] or e["name"] for e in engines)
    return label


def _star(cx: float, cy: float, outer: float = 13, inner: float = 5.5) -> str:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy - radius * math.sin(angle):.1f}")
    return " ".join(points)


def _tower(x: float, y: float) -> str:
    """A small crenellated tower (R27: fortified), its top-left corner at x, y."""
    steps = [(0, 0), (5, 0), (5, 4), (9, 4), (9, 0), (14, 0), (14, 4), (18, 4), (18, 0), (23, 0),
             (23, 22), (0, 22)]
    return " ".join(f"{x + dx},{y + dy}" for dx, dy in steps)


def _title(t: Mapping[str, Any]) -> str:
    words = {"code": t["code"], "side": word(SIDES, t["home_side"]), "line": t["line"],
             "holder": word(SIDES, t["controller"])}
    parts = [_("%(code)s: %(side)s line %(line)s, held by %(holder)s") % words]
    if t["major"]:
        parts.append(_("major"))
    if t["fortified"]:
        parts.append(_("fortified"))
    if t["isolated"]:
        parts.append(_("isolated"))
    return ", ".join(parts)


def _chits(t: Mapping[str, Any], x: int, y: int) -> tuple[Chit, ...]:
    out = []
    for index, side in enumerate(grid.SIDES):
        mine = [c for c in t["counters"] if c["side"] == side]
        if mine:
            out.append(Chit(side, x + 8 + index * 46, y + 62, len(mine),
                            "; ".join(counter_label(c) for c in mine), CHITS[side]))
    return tuple(out)


def drawing(territories: Sequence[Mapping[str, Any]]) -> Drawing:
    """The SVG's geometry for the 18 territories of ``map_view``."""
    cells = []
    for t in territories:
        place = grid.territory(t["code"])
        x, y = MARGIN + place.col * CELL, TOP + place.row * CELL
        cells.append(Cell(
            code=t["code"], x=x, y=y, fill=FILLS[t["controller"]], title=_title(t),
            major=t["major"], star=_star(x + 82, y + 20) if t["major"] else "",
            fortified=t["fortified"], tower=_tower(x + 70, y + 36) if t["fortified"] else "",
            isolated=t["isolated"], chits=_chits(t, x, y)))
    lines = tuple(Column(MARGIN + col * CELL + CELL // 2, str(grid.TERRITORIES[grid.GRID[0][col]].line))
                  for col in range(grid.COLUMNS))
    half = grid.COLUMNS // 2 * CELL
    sides = (Column(MARGIN + half // 2, str(word(SIDES, grid.WEST))),
             Column(MARGIN + half + half // 2, str(word(SIDES, grid.EAST))))
    return Drawing(WIDTH, HEIGHT, tuple(cells), lines, sides, MARGIN + half,
                   TOP + grid.ROWS * CELL)


def territory_rows(territories: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The same map as text, one line per territory (the drawing's accessible twin)."""
    return [{"code": t["code"], "title": _title(t), "controller": t["controller"],
             "counters": [counter_label(c) for c in t["counters"]]} for t in territories]
