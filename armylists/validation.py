"""Army-list validation against a force-organisation chart: pure, no Django, one pass over the list.

Decisions (stable, documented for the API layer):

- Every problem is reported at once. Errors come in this order: points problems first
  (``points_over_limit``, then the chart's own points range), then slot problems in the chart's
  slot order, then ``slot_forbidden`` for slots the chart does not list, in ``known_slots`` order.
- Error codes and params:
  ``points_over_limit`` (total, limit, excess); ``points_below_chart_min`` (total, min) and
  ``points_above_chart_max`` (total, max) when the chart carries a points range;
  ``slot_below_min`` (count, min); ``slot_above_max`` (count, max, names);
  ``slot_forbidden`` (count, names). Slot problems carry the slot code in ``Problem.slot``.
  ``names`` is sorted so the report does not depend on the order the units were entered.
- Whether the event's points limit suits the chart's points range is a property of the event,
  not of a player's list: :func:`check_points_limit` reports ``points_limit_outside_chart``
  for the tournament form; :func:`validate` never does.
- Warnings (never make a list invalid), in entry order: ``entry_without_slot`` (name),
  ``entry_zero_points`` (name); then ``unknown_slot`` (count, names) for slot strings that are
  not in ``known_slots`` at all (they are counted in points but in no slot).
  A slot code that is known but absent from the chart is an error, ``slot_forbidden``.
- ``Report.slots`` lists every slot of the chart (chart order) and then every forbidden slot that
  holds entries, with min 0 and max 0.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

KNOWN_SLOTS: tuple[str, ...] = ("hq", "troops", "elites", "fast_attack", "heavy_support")


class Params(Mapping[str, object]):
    """An immutable, hashable mapping of problem parameters (lists are frozen to tuples)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, object] | Iterable[tuple[str, object]] = ()) -> None:
        items = data.items() if isinstance(data, Mapping) else data
        self._data = {key: _freeze(value) for key, value in items}
        self._hash: int | None = None

    def __getitem__(self, key: str) -> object:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"Params({self._data!r})"


def _freeze(value: object) -> object:
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return value


def _thaw(value: object) -> object:
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


@dataclass(frozen=True, slots=True)
class Entry:
    """One force-organisation choice of a list (a unit): ``slot`` is a slot code or None."""

    name: str
    slot: str | None
    points: int
    models: int = 1


@dataclass(frozen=True, slots=True)
class SlotLimit:
    """How many choices of one slot a chart allows; ``max`` None means no upper limit."""

    slot: str
    min: int
    max: int | None


@dataclass(frozen=True)
class ChartSpec:
    """A chart as the engine sees it: its slots in display order, and an optional points range."""

    slug: str
    slots: tuple[SlotLimit, ...]
    points_min: int | None = None
    points_max: int | None = None
    by_slot: Mapping[str, SlotLimit] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        slots = tuple(self.slots)
        object.__setattr__(self, "slots", slots)
        # Built once per chart so validate() does dictionary look-ups, not scans.
        object.__setattr__(self, "by_slot", {limit.slot: limit for limit in slots})


@dataclass(frozen=True)
class Problem:
    """An error or warning: a stable ``code``, the slot it concerns, and message parameters."""

    code: str
    slot: str | None = None
    params: Mapping[str, object] = field(default_factory=Params)

    def __post_init__(self) -> None:
        if not isinstance(self.params, Params):
            object.__setattr__(self, "params", Params(self.params))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"code", "slot", "params"}`` (tuples become lists)."""
        return {
            "code": self.code,
            "slot": self.slot,
            "params": {key: _thaw(value) for key, value in self.params.items()},
        }


@dataclass(frozen=True, slots=True)
class SlotCount:
    """How many entries a slot holds, next to the chart's limits for it."""

    count: int
    min: int
    max: int | None


@dataclass(frozen=True)
class Report:
    """The verdict on a list: ``valid`` is true exactly when there are no errors."""

    valid: bool
    total_points: int
    slots: dict[str, SlotCount]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form matching the shape of the API's validation answer (without messages)."""
        return {
            "valid": self.valid,
            "total_points": self.total_points,
            "slots": {
                code: {"count": sc.count, "min": sc.min, "max": sc.max}
                for code, sc in self.slots.items()
            },
            "errors": [problem.to_dict() for problem in self.errors],
            "warnings": [problem.to_dict() for problem in self.warnings],
        }


def chart_from_rows(
    slug: str,
    rows: Iterable[tuple[str, int, int | None]],
    points_min: int | None = None,
    points_max: int | None = None,
) -> ChartSpec:
    """Build a chart from ``(slot, compulsory, optional)`` rows, in the order given.

    The one place where min/max are derived: min = compulsory, max = compulsory + optional,
    and ``optional`` None means no upper limit (cities-of-death.md §8.7, implementer note).
    """
    limits: list[SlotLimit] = []
    seen: set[str] = set()
    for slot, compulsory, optional in rows:
        if slot in seen:
            raise ValueError(f"slot {slot!r} appears twice in chart {slug!r}")
        if compulsory < 0 or (optional is not None and optional < 0):
            raise ValueError(f"negative choice count for slot {slot!r} in chart {slug!r}")
        seen.add(slot)
        maximum = None if optional is None else compulsory + optional
        limits.append(SlotLimit(slot=slot, min=compulsory, max=maximum))
    return ChartSpec(slug=slug, slots=tuple(limits), points_min=points_min, points_max=points_max)


def check_points_limit(chart: ChartSpec, points_limit: int) -> Problem | None:
    """``points_limit_outside_chart`` when an event's points limit falls outside the chart's range."""
    low, high = chart.points_min, chart.points_max
    if (low is not None and points_limit < low) or (high is not None and points_limit > high):
        return Problem("points_limit_outside_chart", None, {"limit": points_limit, "min": low, "max": high})
    return None


def validate(
    entries: Sequence[Entry],
    chart: ChartSpec,
    points_limit: int,
    known_slots: Sequence[str] = KNOWN_SLOTS,
) -> Report:
    """Check a list against a chart and a points limit; every problem is reported at once."""
    counts: dict[str, int] = {}
    total = 0
    warnings: list[Problem] = []
    for entry in entries:
        total += entry.points
        slot = entry.slot
        if slot is None:
            warnings.append(Problem("entry_without_slot", None, {"name": entry.name}))
        else:
            counts[slot] = counts.get(slot, 0) + 1
        if entry.points == 0:
            warnings.append(Problem("entry_zero_points", slot, {"name": entry.name}))

    errors = _points_errors(total, chart, points_limit)
    slots: dict[str, SlotCount] = {}
    for limit in chart.slots:
        count = counts.get(limit.slot, 0)
        slots[limit.slot] = SlotCount(count, limit.min, limit.max)
        if count < limit.min:
            errors.append(Problem("slot_below_min", limit.slot, {"count": count, "min": limit.min}))
        elif limit.max is not None and count > limit.max:
            params = {"count": count, "max": limit.max, "names": _names_in(entries, limit.slot)}
            errors.append(Problem("slot_above_max", limit.slot, params))

    if any(slot not in chart.by_slot for slot in counts):
        _outside_chart(entries, counts, chart, known_slots, slots, errors, warnings)
    return Report(not errors, total, slots, tuple(errors), tuple(warnings))


def _points_errors(total: int, chart: ChartSpec, points_limit: int) -> list[Problem]:
    errors: list[Problem] = []
    if total > points_limit:
        params = {"total": total, "limit": points_limit, "excess": total - points_limit}
        errors.append(Problem("points_over_limit", None, params))
    if chart.points_min is not None and total < chart.points_min:
        errors.append(Problem("points_below_chart_min", None, {"total": total, "min": chart.points_min}))
    if chart.points_max is not None and total > chart.points_max:
        errors.append(Problem("points_above_chart_max", None, {"total": total, "max": chart.points_max}))
    return errors


def _outside_chart(
    entries: Sequence[Entry],
    counts: Mapping[str, int],
    chart: ChartSpec,
    known_slots: Sequence[str],
    slots: dict[str, SlotCount],
    errors: list[Problem],
    warnings: list[Problem],
) -> None:
    """Slots with entries that the chart does not list: forbidden if known, else unknown."""
    known = list(known_slots)
    outside = [slot for slot in counts if slot not in chart.by_slot]
    forbidden = sorted((s for s in outside if s in known), key=known.index)
    for slot in forbidden:
        slots[slot] = SlotCount(counts[slot], 0, 0)
        params = {"count": counts[slot], "names": _names_in(entries, slot)}
        errors.append(Problem("slot_forbidden", slot, params))
    for slot in sorted(s for s in outside if s not in known):
        params = {"count": counts[slot], "names": _names_in(entries, slot)}
        warnings.append(Problem("unknown_slot", slot, params))


def _names_in(entries: Sequence[Entry], slot: str) -> tuple[str, ...]:
    # Only called for slots in error, so the second pass costs nothing on legal lists.
    return tuple(sorted((e.name for e in entries if e.slot == slot), key=lambda n: (n.casefold(), n)))
