"""An army and its detachments (*Création d'une armée*, R1–R3): the checks before a campaign."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

ARMY_POINTS = 5000  # R1: « 5000 points pour Epic 40k est une bonne base de départ »
GROUND, AIR, AIRBORNE = "ground", "air", "airborne"
KINDS = (GROUND, AIR, AIRBORNE)
MAX_SUPREME_COMMANDERS = 1  # R3: « pas plus d'un détachement de ce type »
# R3: « (sauf dans le cas des armées Tyranide et Eldar) »; G25: no limit, a warning instead.
# Editable data: the faction slugs the exception covers.
SUPREME_COMMANDER_EXCEPTIONS: frozenset[str] = frozenset({"tyranids", "tyranid", "eldar"})
# The unit tags the seed's gates read: R25 infiltrators, R21 Flak, R25 war engines, R13 vehicles.
INFILTRATOR, FLAK, WAR_ENGINE, VEHICLE = "infiltrator", "flak", "war_engine", "vehicle"
UNIT_TAGS = (INFILTRATOR, FLAK, WAR_ENGINE, VEHICLE)


@dataclass(frozen=True)
class Unit:
    """One unit of a detachment's sheet; only its tags matter to the campaign's rules."""

    name: str
    type: str = ""
    points: int | None = None
    tags: frozenset[str] = frozenset()
    # R14: the unit's Epic 40,000 interception value; a unit intercepting a landing acts when
    # its D6 is below it (G23). None: the unit cannot intercept.
    interception_value: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))
        unknown = self.tags - set(UNIT_TAGS)
        if unknown:
            raise ValueError(f"unknown unit tags {sorted(unknown)}")

    def has(self, tag: str) -> bool:
        return tag in self.tags


@dataclass(frozen=True)
class DetachmentSpec:
    name: str
    points: int
    kind: str = GROUND
    supreme_commander: bool = False
    units: tuple[Unit, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        object.__setattr__(self, "units", tuple(self.units))


@dataclass(frozen=True)
class Problem:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ArmyReport:
    total_points: int
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.errors


def validate_army(
    detachments: Sequence[DetachmentSpec], faction: str, army_points: int = ARMY_POINTS,
) -> ArmyReport:
    """Every problem at once: points over the agreed total, too many Supreme Commanders,
    detachment names used twice (each detachment is named on its hidden counter, R12)."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    total = sum(d.points for d in detachments)
    if total > army_points:
        errors.append(Problem("army_points_over",
                              {"total": total, "limit": army_points, "excess": total - army_points}))
    commanders = sum(1 for d in detachments if d.supreme_commander)
    if commanders > MAX_SUPREME_COMMANDERS:
        if faction in SUPREME_COMMANDER_EXCEPTIONS:
            warnings.append(Problem("supreme_commander_exception",
                                    {"count": commanders, "faction": faction}))
        else:
            errors.append(Problem("supreme_commander_limit",
                                  {"count": commanders, "max": MAX_SUPREME_COMMANDERS}))
    for name, count in Counter(d.name for d in detachments).items():
        if count > 1:
            errors.append(Problem("detachment_name_duplicate", {"name": name}))
    return ArmyReport(total, tuple(errors), tuple(warnings))


def unit_from_dict(data: Mapping[str, object]) -> Unit:
    """A unit as the API and the detachment's JSON column hold it."""
    points = data.get("points")
    value = data.get("interception_value")
    return Unit(str(data["name"]), str(data.get("type") or ""),
                None if points is None else int(points),  # type: ignore[call-overload]
                frozenset(data.get("tags") or ()),  # type: ignore[arg-type]
                None if value is None else int(value))  # type: ignore[call-overload]


def unit_dict(unit: Unit) -> dict[str, object]:
    """The stored shape; tags in UNIT_TAGS order so the JSON reads the same every time."""
    out: dict[str, object] = {"name": unit.name, "type": unit.type, "points": unit.points,
                              "tags": [tag for tag in UNIT_TAGS if tag in unit.tags]}
    if unit.interception_value is not None:  # R14, only when given: older rows read the same
        out["interception_value"] = unit.interception_value
    return out
