"""Reader for BattleScribe's (and NewRecruit's) plain-text roster export.

The layout read::

    ++ Standard Mission (Space Marines) [1,500pts] ++     force heading (two or more "+")
    + HQ +                                                category heading (one "+"), the slot;
    + Troops + [340pts]                                     NewRecruit adds the category's total
    Captain [5 PL, 90pts]: Bolt pistol, Power sword       unit line: name, then bracket groups
    Tactical Squad [170pts]
    . Space Marine Sergeant: Bolt pistol                  sub-lines start with ". " (". . " deeper)
    . 9x Space Marine: 9x Bolter
    Spearmen [20] [120pts]                                NewRecruit: a bare number is the models
    ++ Total: [1,500pts] ++                               declared total

- Points: the first ``N pts`` / ``Npts`` / ``N points`` item of the unit line's brackets,
  thousands separators allowed ("1,990pts"). A unit with only a power level (``[5 PL]``) gets
  0 points and a ``points_missing`` warning. A line without points or power level is not a
  unit (headers, "Created with BattleScribe", configuration text).
- Models (best effort, the text does not say which sub-lines are models): a bare ``[N]`` group,
  else the sum of the ``Nx`` counts of the sub-lines plus 1 for each first-level sub-line
  without a count that lists wargear after a colon (a lone sergeant), else the ``Nx`` prefix of
  the unit line itself, else 1.
- The slot comes from the current category heading through the aliases (shared rules in
  ``selections``); units before any heading have no category.
- No game system or roster name is given by this format: both are None.
- Lines longer than 2,000 characters are ignored (no real export has them; it keeps the
  regular expressions linear).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from armylists.roster.results import RosterLimits, RosterUnreadable
from armylists.roster.selections import MAX_COST_MAGNITUDE, RawRoster, RawUnit, clean_name

MAX_LINE = 2000
# Real cost brackets are short ("[101 PL, 5CP, 2,000pts]"); longer ones are not parsed for costs,
# which keeps the cost expression's backtracking bounded.
MAX_COST_TEXT = 100
GROUP = re.compile(r"\s*\[([^\[\]]*)\]")
NUMBER = r"-?(?:\d{1,3}(?:[,\u00a0\u202f]\d{3})+|\d+)(?:\.\d+)?"
COST = re.compile(rf"({NUMBER})\s*(pts|pt|points|point|pl|cp)\b", re.IGNORECASE)
COUNT_PREFIX = re.compile(r"^(\d{1,6})\s*[x×]\s+(.*)$", re.IGNORECASE)
SUB_LINE = re.compile(r"^((?:\.\s*)+)(.*)$")
SEPARATORS = str.maketrans("", "", ",\u00a0\u202f")


def looks_like_text_export(text: str) -> bool:
    """True when some line is a ``+ Category +`` or ``++ Force ++`` heading."""
    return any(_heading(line.strip()) is not None for line in text.splitlines())


def read_text_export(text: str, limits: RosterLimits) -> RawRoster:
    """Read the units of a text export into format-neutral units."""
    reader = _Reader()
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if line and len(line) <= MAX_LINE:
            reader.feed(line)
        # Stop early on absurd lists; the exact cap is applied once free options are dropped.
        if len(reader.units) > 2 * limits.max_entries:
            raise RosterUnreadable("too_many_entries", {"limit": limits.max_entries})
    reader.flush()
    if not reader.units:
        raise RosterUnreadable("no_units")
    return RawRoster(tuple(reader.units), game_system=None, name=None, declared_points=reader.declared)


def _heading(line: str) -> tuple[int, str, str | None] | None:
    """(level, title, trailing bracket) of a ``+ Title +`` line: level 1 = category, 2+ = force."""
    if not line.startswith("+") or len(line) > MAX_LINE:
        return None
    body = line.lstrip("+")
    level = len(line) - len(body)
    bracket = None
    if body.endswith("]"):
        opening = body.rfind("[")
        if opening >= 0 and body[:opening].rstrip().endswith("+"):
            bracket, body = body[opening:], body[:opening].rstrip()
    if not body.endswith("+"):
        return None
    title = body.rstrip("+").strip()
    return (level, title, bracket) if title else None


@dataclass
class _PendingUnit:
    name: str
    points: float | None
    bracket_models: int | None
    prefix_models: int | None
    sub_models: int = 0


@dataclass
class _Reader:
    units: list[RawUnit] = field(default_factory=list)
    category: str | None = None
    declared: float | None = None
    pending: _PendingUnit | None = None

    def feed(self, line: str) -> None:
        heading = _heading(line)
        if heading is not None:
            self.flush()
            self._on_heading(*heading)
            return
        sub = SUB_LINE.match(line)
        if sub is not None:
            if self.pending is not None:
                self.pending.sub_models += _sub_line_models(sub.group(1).count("."), sub.group(2))
            return
        unit = _unit_line(line)
        if unit is not None:
            self.flush()
            self.pending = unit

    def flush(self) -> None:
        unit, self.pending = self.pending, None
        if unit is None:
            return
        models = unit.bracket_models or unit.sub_models or unit.prefix_models or 1
        categories = ((self.category, True),) if self.category else ()
        self.units.append(RawUnit(unit.name, "unit", categories, unit.points, models))

    def _on_heading(self, level: int, title: str, bracket: str | None) -> None:
        if level == 1:
            self.category = title
            return
        self.category = None
        head, _, tail = title.partition(":")
        if head.strip().casefold() == "total":
            points, _ = _costs(tail + (bracket or ""))
            self.declared = points


def _unit_line(line: str) -> _PendingUnit | None:
    start = line.find("[")
    if start <= 0:
        return None
    name = line[:start].strip().rstrip(":").strip()
    points: float | None = None
    has_power = False
    bracket_models: int | None = None
    position = start
    while (group := GROUP.match(line, position)) is not None:
        position = group.end()
        content = group.group(1).strip()
        if content.isdigit() and len(content) <= 6:
            bracket_models = int(content)
            continue
        group_points, group_power = _costs(content)
        points = points if points is not None else group_points
        has_power = has_power or group_power
    if points is None and not has_power:
        return None
    prefix = COUNT_PREFIX.match(name)
    prefix_models = int(prefix.group(1)) if prefix else None
    if prefix:
        name = prefix.group(2)
    return _PendingUnit(clean_name(name), points, bracket_models, prefix_models)


def _costs(text: str) -> tuple[float | None, bool]:
    """The points in a bracket's content, and whether it gives a power level."""
    points: float | None = None
    has_power = False
    if len(text) > MAX_COST_TEXT:
        return points, has_power
    for number, unit in COST.findall(text):
        kind = unit.casefold()
        if kind == "pl":
            has_power = True
        elif kind != "cp" and points is None:
            points = float(number.translate(SEPARATORS))
            if not math.isfinite(points) or abs(points) > MAX_COST_MAGNITUDE:
                raise RosterUnreadable("bad_cost", {"value": number[:40]})
    return points, has_power


def _sub_line_models(depth: int, content: str) -> int:
    counted = COUNT_PREFIX.match(content)
    if counted:
        return int(counted.group(1))
    return 1 if depth == 1 and ":" in content else 0
