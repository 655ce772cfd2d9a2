"""Roster units in a format-neutral shape, and the rules that turn them into list entries.

Every reader (.ros, .rosz, NewRecruit JSON, BattleScribe text) produces ``RawUnit`` values,
one per top-level selection of a force; :func:`entries_from_units` applies the shared rules:

- slot: from the unit's primary category (or, when none is flagged primary, the category it
  is filed under, else the first of its categories that names a slot) through the aliases;
- free configuration picks are not units and are skipped (no entry, no warning): a selection
  costing exactly 0 points whose category is of kind "configuration" (see
  ``ignored_categories`` in the reference file: "Configuration", "Battle Size"...), or a free
  top-level upgrade (``type="upgrade"``) whose category names no slot: "No Force Org Slot"
  picks (detachment CP, chapter, dynasty or household choice), game type, allegiance, lores,
  hidden-options toggles... A selection in a slot category is always kept, free or not, and so
  is a free ``unit`` or ``model`` (Kill Team operatives, Apocalypse units carry no points);
- a configuration category that costs points is kept without a slot, with ``no_slot_category``;
- a "no_slot" category (dedicated transports, "No Force Org Slot"...) gives an entry without a
  slot and a ``no_slot_category`` warning (name, category): 4th-edition dedicated transports
  take no force-organisation slot but their points count;
- an unrecognised category gives an entry without a slot and ``unknown_category``
  (name, category); no category at all gives ``no_category`` (name);
- points are rounded per unit to the nearest whole point, halves up (a 0.5-point unit costs 1:
  Python's ``round`` would give 0 and hide it); a negative total becomes 0 with
  ``negative_points``; ``points_missing`` (name) when the source gave no points for the unit
  (only power level);
- the roster's declared total is compared with the unrounded sum of the units kept, both
  rounded the same way, so fractional costs alone never raise ``total_mismatch``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from armylists.roster.categories import (
    CONFIGURATION,
    MISSING,
    NO_SLOT,
    SLOT,
    UNKNOWN,
    CategoryResolver,
)
from armylists.roster.results import RosterLimits, RosterUnreadable
from armylists.validation import Entry, Problem

# Cost names meaning points, casefolded; .ros files from 4th-edition data call them "Points".
POINTS_COST_NAMES = frozenset({"pts", "pt", "points", "point", "pts."})
MAX_NAME_LENGTH = 200
# Any single cost beyond this is nonsense; refusing it keeps float sums finite.
MAX_COST_MAGNITUDE = 1e12


@dataclass(frozen=True, slots=True)
class RawUnit:
    """A top-level selection with its subtree already summed up."""

    name: str
    kind: str
    categories: tuple[tuple[str, bool], ...]
    points: float | None
    models: int
    parent_category: str | None = None


@dataclass(frozen=True)
class RawRoster:
    """What a structured reader found, before slots are resolved."""

    units: tuple[RawUnit, ...]
    game_system: str | None
    name: str | None
    declared_points: float | None


class Budget:
    """Counts what is read so a hostile file cannot make the walk arbitrarily long."""

    __slots__ = ("limits", "selections", "units")

    def __init__(self, limits: RosterLimits) -> None:
        self.limits = limits
        self.selections = 0
        self.units = 0

    def take_unit(self) -> None:
        """Stop early on absurd rosters; the exact entry cap is checked once free options are
        dropped, so up to twice the cap of top-level selections may be read."""
        self.units += 1
        if self.units > 2 * self.limits.max_entries:
            raise RosterUnreadable("too_many_entries", {"limit": self.limits.max_entries})

    def take(self, depth: int) -> None:
        if depth > self.limits.max_depth:
            raise RosterUnreadable("too_deep", {"limit": self.limits.max_depth})
        self.selections += 1
        if self.selections > self.limits.max_selections:
            raise RosterUnreadable(
                "too_many_entries", {"limit": self.limits.max_selections, "what": "selections"}
            )


def to_float(value: object) -> float:
    """A cost value from XML text or JSON; anything unreadable counts as 0."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return 0.0
    if isinstance(value, str):
        if len(value) > 64:
            return 0.0
        try:
            number = float(value.strip())
        except ValueError:
            return 0.0
    elif isinstance(value, int):
        if abs(value) > MAX_COST_MAGNITUDE:
            raise RosterUnreadable("bad_cost", {"value": str(value)[:40]})
        number = float(value)
    else:
        number = value
    if math.isnan(number):
        return 0.0
    if math.isinf(number) or abs(number) > MAX_COST_MAGNITUDE:
        raise RosterUnreadable("bad_cost", {"value": str(value)[:40]})
    return number


def to_count(value: object, default: int = 1) -> int:
    """A selection's ``number``: a non-negative whole count, ``default`` when unreadable."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value):
        number = int(value)
    elif isinstance(value, str) and len(value) < 32:
        try:
            parsed = float(value.strip())
        except ValueError:
            return default
        if not math.isfinite(parsed):
            return default
        number = int(parsed)
    else:
        return default
    return min(max(number, 0), 1_000_000)


def clean_name(value: object) -> str:
    """A display name: text only, whitespace collapsed, bounded length."""
    text = " ".join(value.split()) if isinstance(value, str) else ""
    return text[:MAX_NAME_LENGTH] or "?"


@dataclass(frozen=True)
class ReadEntries:
    """The entries kept, the warnings about them, and their unrounded points sum."""

    entries: list[Entry]
    warnings: list[Problem]
    raw_points: float


def entries_from_units(
    units: Iterable[RawUnit], resolver: CategoryResolver, limits: RosterLimits
) -> ReadEntries:
    """Apply the slot, skip and warning rules of this module to every unit, in order."""
    entries: list[Entry] = []
    warnings: list[Problem] = []
    raw_points = 0.0
    for unit in units:
        entry = _entry_for(unit, resolver, limits, warnings)
        if entry is None:
            continue
        entries.append(entry)
        raw_points += max(unit.points or 0.0, 0.0)
        if len(entries) > limits.max_entries:
            raise RosterUnreadable("too_many_entries", {"limit": limits.max_entries})
    return ReadEntries(entries, warnings, raw_points)


def _entry_for(
    unit: RawUnit, resolver: CategoryResolver, limits: RosterLimits, warnings: list[Problem]
) -> Entry | None:
    match, category = resolver.resolve_first(_candidate_categories(unit))
    if unit.points == 0 and _is_free_option(unit, match.kind):
        return None
    points = _whole_points(unit, limits, warnings)
    if match.kind == UNKNOWN:
        warnings.append(Problem("unknown_category", None, {"name": unit.name, "category": category}))
    elif match.kind == MISSING:
        warnings.append(Problem("no_category", None, {"name": unit.name}))
    elif match.kind in (NO_SLOT, CONFIGURATION):
        warnings.append(Problem("no_slot_category", None, {"name": unit.name, "category": category}))
    return Entry(name=unit.name, slot=match.slot, points=points, models=max(unit.models, 1))


def _candidate_categories(unit: RawUnit) -> Sequence[str]:
    primary = [name for name, is_primary in unit.categories if is_primary]
    if primary:
        return primary
    if unit.parent_category:
        return [unit.parent_category]
    return [name for name, _ in unit.categories]


def _is_free_option(unit: RawUnit, kind: str) -> bool:
    # Costless configuration picks and rule toggles are game options, not units.
    return kind == CONFIGURATION or (kind != SLOT and unit.kind == "upgrade")


def whole_points(points: float) -> int:
    """Nearest whole point, halves up (0.5 -> 1, 2.5 -> 3), unlike Python's ``round``."""
    return math.floor(points + 0.5)


def _whole_points(unit: RawUnit, limits: RosterLimits, warnings: list[Problem]) -> int:
    if unit.points is None:
        warnings.append(Problem("points_missing", None, {"name": unit.name}))
        return 0
    points = whole_points(unit.points)
    if points > limits.max_entry_points:
        raise RosterUnreadable("bad_cost", {"name": unit.name, "points": points})
    if points < 0:
        warnings.append(Problem("negative_points", None, {"name": unit.name, "points": points}))
        return 0
    return points


def total_mismatch(read: ReadEntries, declared: float | None) -> Problem | None:
    """``total_mismatch`` when the roster's own total differs from the sum of what was read."""
    if declared is None or whole_points(declared) == whole_points(read.raw_points):
        return None
    computed = sum(entry.points for entry in read.entries)
    return Problem("total_mismatch", None, {"declared": whole_points(declared), "computed": computed})
