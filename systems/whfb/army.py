"""Warhammer Battle list rules (seed 003, « Règles avancées Warhammer Battle »): options that cost
points, army baggage, and percentage slot limits. Pure: no Django.

Independent of the count-based chart engine (armylists/validation.py), whose Problem it reuses so
reports render the same way. Codes and params (api-v1-systems "Warhammer Battle advanced rules"):

- ``points_over_limit`` (total, limit, excess), as in validation.py; in ``extra_allowance`` mode the
  total is ``base_points``, in ``within_limit`` mode ``base_points`` + baggage.
- per entry, in entry order: ``option_unknown`` (option, name), ``option_disabled`` (option, name),
  ``option_not_allowed`` (option, unit_type), ``baggage_not_core`` (name).
- then ``baggage_disabled`` (names), ``baggage_not_allowed`` (faction), ``baggage_over_allowance``
  (points, allowance) or ``baggage_below_required`` (points, required);
- then ``slot_below_min_pct`` / ``slot_above_max_pct`` (points, percent, min / max) in slot order.
- warning ``unknown_slot`` (count, names) for entries outside the five slots.
Entries flagged ``baggage`` never count in ``base_points``, whatever errors they raise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from armylists.validation import Problem

SLOTS: tuple[str, ...] = ("lords", "heroes", "core", "special", "rare")
CORE = "core"
UNIT_TYPES: tuple[str, ...] = (
    "infantry", "cavalry", "monster", "war_machine", "chariot", "swarm", "character", "flyer",
)
# W-R1 « Equiper une unité de mantelets coûte +2pts. par figurine »; W-R3 « Une unité de tireurs à
# pied ou une machine de guerre peut être équipée de piques de bois pour +2pts. par figurine ».
OPTION_COST_PER_MODEL: Mapping[str, int] = {"mantlets": 2, "stakes": 2}
OPTIONS: tuple[str, ...] = tuple(OPTION_COST_PER_MODEL)
SHOOTING = "shooting"
# W-R9 « Les créatures morts vivantes et les démons n'ont pas de bagages » (faction tags, WG3).
NO_BAGGAGE_TAGS = frozenset({"undead", "daemon"})
# W-R6 « Les bagages ajoutent +10% de valeur d'armée en troupes de base »: 10 % of the list
# without baggage, rounded down (WG2); the reading is a setting (WG1).
BAGGAGE_PERCENT = 10
EXTRA_ALLOWANCE, WITHIN_LIMIT = "extra_allowance", "within_limit"
BAGGAGE_MODES = (EXTRA_ALLOWANCE, WITHIN_LIMIT)


@dataclass(frozen=True)
class WfbEntry:
    """One unit: its own cost, models, type, tags, options and whether it forms the baggage."""

    name: str
    slot: str | None
    points: int
    models: int = 1
    unit_type: str = "infantry"
    tags: frozenset[str] = frozenset()
    options: tuple[str, ...] = ()
    baggage: bool = False

    def __post_init__(self) -> None:
        if self.unit_type not in UNIT_TYPES:
            raise ValueError(f"unknown unit type {self.unit_type!r}")
        if self.points < 0 or self.models < 0:
            raise ValueError("points and models cannot be negative")
        object.__setattr__(self, "tags", frozenset(self.tags))
        # An option is on or off: a repeated one is counted once.
        object.__setattr__(self, "options", tuple(dict.fromkeys(self.options)))


@dataclass(frozen=True)
class AdvancedRules:
    """The event's switches (WG6: entering the event is the players' agreement); all off by default."""

    mantlets: bool = False
    stakes: bool = False
    baggage: bool = False
    baggage_mode: str = EXTRA_ALLOWANCE

    def __post_init__(self) -> None:
        if self.baggage_mode not in BAGGAGE_MODES:
            raise ValueError(f"baggage_mode must be one of {BAGGAGE_MODES}")

    def enabled(self, option: str) -> bool:
        return bool(getattr(self, option, False)) if option in OPTIONS else False


@dataclass(frozen=True)
class PercentLimit:
    """A slot's share of ``base_points`` in percent; None: no bound (data, not from seed 003)."""

    slot: str
    min: int | None = None
    max: int | None = None

    def __post_init__(self) -> None:
        for bound in (self.min, self.max):
            if bound is not None and not 0 <= bound <= 100:
                raise ValueError("a percentage is between 0 and 100")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"slot {self.slot!r}: min above max")


def percent_limits(rules: Mapping[str, Mapping[str, int | None]]) -> tuple[PercentLimit, ...]:
    """A chart's ``{"core": {"min": 25}, "rare": {"max": 25}, …}`` as limits in slot order."""
    order = {slot: index for index, slot in enumerate(SLOTS)}
    return tuple(
        PercentLimit(slot, bounds.get("min"), bounds.get("max"))
        for slot, bounds in sorted(rules.items(), key=lambda item: order.get(item[0], len(SLOTS)))
    )


@dataclass(frozen=True)
class Surcharge:
    name: str
    option: str
    points: int


@dataclass(frozen=True)
class Baggage:
    points: int
    allowance: int


@dataclass(frozen=True)
class WfbReport:
    """The verdict: ``valid`` exactly when there are no errors; points as the contract names them."""

    valid: bool
    base_points: int
    surcharges: tuple[Surcharge, ...]
    baggage: Baggage | None
    total_points: int
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]


def option_surcharge(entry: WfbEntry) -> int:
    """2 points per model for each known option the unit takes (W-R1, W-R3; WG4)."""
    return sum(OPTION_COST_PER_MODEL[o] * entry.models for o in entry.options if o in OPTION_COST_PER_MODEL)


def stakes_allowed(entry: WfbEntry) -> bool:
    """« Une unité de tireurs à pied ou une machine de guerre » (W-R3)."""
    return entry.unit_type == "war_machine" or (entry.unit_type == "infantry" and SHOOTING in entry.tags)


def baggage_allowance(base_points: int) -> int:
    """10 % of the list without baggage, rounded down (WG2)."""
    return base_points * BAGGAGE_PERCENT // 100


def validate(
    entries: Sequence[WfbEntry],
    points_limit: int,
    rules: AdvancedRules = AdvancedRules(),
    faction: str | None = None,
    faction_tags: frozenset[str] = frozenset(),
    limits: Sequence[PercentLimit] = (),
) -> WfbReport:
    """Check a WFB list: options, baggage, points and percentage limits; every problem at once."""
    surcharges = tuple(
        Surcharge(e.name, o, OPTION_COST_PER_MODEL[o] * e.models)
        for e in entries for o in e.options if o in OPTION_COST_PER_MODEL
    )
    army = [e for e in entries if not e.baggage]
    carried = [e for e in entries if e.baggage]
    base = sum(e.points + option_surcharge(e) for e in army)
    baggage_points = sum(e.points + option_surcharge(e) for e in carried)
    allowance = baggage_allowance(base)
    forbidden_faction = bool(faction_tags & NO_BAGGAGE_TAGS)

    within = rules.baggage_mode == WITHIN_LIMIT
    counted = base + baggage_points if within else base
    errors: list[Problem] = []
    if counted > points_limit:
        errors.append(Problem("points_over_limit", None,
                              {"total": counted, "limit": points_limit, "excess": counted - points_limit}))
    for entry in entries:
        errors += _entry_problems(entry, rules)
    errors += _baggage_problems(carried, baggage_points, allowance, rules, faction, forbidden_faction)
    errors += _percent_problems(army, base, limits)

    unknown = [e.name for e in entries if e.slot not in SLOTS]
    warnings = (Problem("unknown_slot", None, {"count": len(unknown), "names": sorted(unknown)}),) if unknown else ()
    shown = carried or (rules.baggage and not forbidden_faction)
    return WfbReport(
        valid=not errors, base_points=base, surcharges=surcharges,
        baggage=Baggage(baggage_points, allowance) if shown else None,
        total_points=base + baggage_points, errors=tuple(errors), warnings=warnings,
    )


def _entry_problems(entry: WfbEntry, rules: AdvancedRules) -> list[Problem]:
    problems: list[Problem] = []
    for option in entry.options:
        if option not in OPTION_COST_PER_MODEL:
            problems.append(Problem("option_unknown", entry.slot, {"option": option, "name": entry.name}))
            continue
        if not rules.enabled(option):
            problems.append(Problem("option_disabled", entry.slot, {"option": option, "name": entry.name}))
        if option == "stakes" and not stakes_allowed(entry):
            problems.append(Problem("option_not_allowed", entry.slot,
                                    {"option": option, "unit_type": entry.unit_type, "name": entry.name}))
    if entry.baggage and entry.slot != CORE:
        problems.append(Problem("baggage_not_core", entry.slot, {"name": entry.name}))
    return problems


def _baggage_problems(
    carried: Sequence[WfbEntry], points: int, allowance: int, rules: AdvancedRules,
    faction: str | None, forbidden_faction: bool,
) -> list[Problem]:
    problems: list[Problem] = []
    if carried and not rules.baggage:
        problems.append(Problem("baggage_disabled", CORE, {"names": sorted(e.name for e in carried)}))
    if forbidden_faction and carried:
        problems.append(Problem("baggage_not_allowed", CORE, {"faction": faction or ""}))
    if not rules.baggage or forbidden_faction:
        return problems
    if rules.baggage_mode == EXTRA_ALLOWANCE and points > allowance:
        problems.append(Problem("baggage_over_allowance", CORE, {"points": points, "allowance": allowance}))
    if rules.baggage_mode == WITHIN_LIMIT and points < allowance:
        problems.append(Problem("baggage_below_required", CORE, {"points": points, "required": allowance}))
    return problems


def _percent_problems(army: Sequence[WfbEntry], base: int, limits: Sequence[PercentLimit]) -> list[Problem]:
    """Slot shares of ``base_points``, in integers: points × 100 against percent × base."""
    by_slot: dict[str, int] = {}
    for entry in army:
        if entry.slot is not None:
            by_slot[entry.slot] = by_slot.get(entry.slot, 0) + entry.points + option_surcharge(entry)
    problems: list[Problem] = []
    for limit in limits:
        points = by_slot.get(limit.slot, 0)
        percent = points * 100 // base if base else 0
        if limit.min is not None and points * 100 < limit.min * base:
            problems.append(Problem("slot_below_min_pct", limit.slot,
                                    {"points": points, "percent": percent, "min": limit.min}))
        if limit.max is not None and points * 100 > limit.max * base:
            problems.append(Problem("slot_above_max_pct", limit.slot,
                                    {"points": points, "percent": percent, "max": limit.max}))
    return problems
