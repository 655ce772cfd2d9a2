"""Reader for the official Warhammer 40,000 app's plain-text list export (10th-edition era).

The layout read (no ``+ Category +`` headings, so the BattleScribe text reader does not apply)::

    Cherokee List (1995 Points)                 header: the first "(N Points)" line is the total
    Astra Militarum                             other header lines (faction, detachment and
    Combined Regiment                           battle size) are not units
    Strike Force (2000 Points)
    CHARACTERS                                  section heading: a line in capitals, the category
    Death Korps Marshal (60 Points)             unit line: at the start of the line, "(N Points)"
        • 1x Plasma pistol                      bullets (indented) are wargear or models
    Platoon Command Squad (60 Points)
        • 1x Platoon Commander                  a first-level bullet with bullets under it is a
            • 1x Close combat weapon            group of models: its "Nx" count adds to the models
        • 4x Veteran Guardsman
    Exported with App Version: v1.7.0 (23), Data Version: v304

- Points: the unit line's "(N Points)" / "(N pts)", thousands separators allowed.
- Models: the sum of the counts of first-level bullets that have bullets under them, else 1
  (a single-model unit lists its wargear directly).
- No game system or roster name is read: both are None (the export names neither).
- It is read under the ``battlescribe_text`` format name (the API's name for pasted text).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from armylists.roster.results import RosterLimits, RosterUnreadable
from armylists.roster.selections import RawRoster, RawUnit, clean_name

MAX_LINE = 2000
MAX_HEADING = 60
UNIT_LINE = re.compile(
    r"^(?P<name>\S[^()]{0,200}?)\s*\(\s*(?P<points>\d{1,3}(?:,\d{3})+|\d{1,9})\s*(?:points?|pts)\s*\)\s*$",
    re.IGNORECASE,
)
BULLET = re.compile(r"^(?P<indent>\s*)[•·]\s*(?:(?P<count>\d{1,6})\s*[x×]\s+)?\S")


def looks_like_app_export(text: str) -> bool:
    """True when a capitalised section heading is followed by a "Name (N Points)" unit line."""
    seen_heading = False
    for line in text.splitlines():
        if len(line) > MAX_LINE:
            continue
        if _is_heading(line):
            seen_heading = True
        elif seen_heading and UNIT_LINE.match(line):
            return True
    return False


def read_app_export(text: str, limits: RosterLimits) -> RawRoster:
    """Read the units of an official-app export into format-neutral units."""
    reader = _Reader()
    for line in text.splitlines():
        if line.strip() and len(line) <= MAX_LINE:
            reader.feed(line.rstrip())
        if len(reader.units) > 2 * limits.max_entries:
            raise RosterUnreadable("too_many_entries", {"limit": limits.max_entries})
    reader.flush()
    if not reader.units:
        raise RosterUnreadable("no_units")
    return RawRoster(tuple(reader.units), game_system=None, name=None, declared_points=reader.declared)


def _is_heading(line: str) -> bool:
    text = line.strip()
    return (
        bool(text) and line[:1] not in " \t" and len(text) <= MAX_HEADING and "(" not in text
        and any(ch.isalpha() for ch in text) and text == text.upper() and not BULLET.match(text)
    )


@dataclass
class _PendingUnit:
    name: str
    points: float
    bullets: list[tuple[int, int | None]] = field(default_factory=list)

    def models(self) -> int:
        if not self.bullets:
            return 1
        top = min(indent for indent, _ in self.bullets)
        total = 0
        for (indent, count), (following, _) in zip(self.bullets, self.bullets[1:], strict=False):
            # A first-level bullet whose next bullet is deeper is a group of models.
            if indent == top and following > top:
                total += count or 1
        return total or 1


@dataclass
class _Reader:
    units: list[RawUnit] = field(default_factory=list)
    category: str | None = None
    declared: float | None = None
    pending: _PendingUnit | None = None

    def feed(self, line: str) -> None:
        if _is_heading(line):
            self.flush()
            self.category = line.strip()
            return
        bullet = BULLET.match(line)
        if bullet is not None:
            if self.pending is not None:
                count = bullet.group("count")
                self.pending.bullets.append((len(bullet.group("indent")), int(count) if count else None))
            return
        unit = UNIT_LINE.match(line)
        if unit is None:
            return
        points = float(unit.group("points").replace(",", ""))
        if self.category is None:
            # Header: the list's own line comes first and gives the total; the battle size
            # line ("Strike Force (2000 Points)") that may follow is not a unit either.
            if self.declared is None:
                self.declared = points
            return
        self.flush()
        self.pending = _PendingUnit(clean_name(unit.group("name")), points)

    def flush(self) -> None:
        unit, self.pending = self.pending, None
        if unit is None:
            return
        categories = ((self.category, True),) if self.category else ()
        self.units.append(RawUnit(unit.name, "unit", categories, unit.points, unit.models()))
