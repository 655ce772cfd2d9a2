"""Victory points of a finished game (rules §5.2, §7.6, §8.6, §8.7; api-v1 victory-points)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from missions.catalogue_types import ROLES, VpRules
from missions.errors import CodedError

__all__ = [
    "SideScore",
    "SideState",
    "UnitScore",
    "UnitState",
    "VpInputError",
    "VpResult",
    "VpRules",
    "conceded",
    "is_operational",
    "result_of",
    "score",
    "validate_unit",
]

UNIT_TYPES = ("infantry", "vehicle", "character")
VEHICLE_DAMAGE = ("none", "damaged", "destroyed")


class VpInputError(CodedError):
    """A unit or side state no game could produce."""


@dataclass(frozen=True)
class UnitState:
    """One VP element at the end of the game (a squad, its transport and a character are three).

    Wounds matter for characters only; without them a character is counted by models.
    ``exited``: the unit left the table on purpose (Attaque Éclair, Le Défi). It still concedes
    what it lost before leaving (a damaged vehicle: half) but, being off the table, is never
    operational; the attacker scores its points through ``attacker_scores_exits``.
    """

    name: str
    points: int
    type: str
    starting_models: int
    remaining_models: int
    starting_wounds: int | None = None
    remaining_wounds: int | None = None
    vehicle_damage: str = "none"
    falling_back: bool = False
    exited: bool = False


@dataclass(frozen=True)
class SideState:
    """One side: its name (unique in the game), its role or None, and its units."""

    name: str
    role: str | None
    units: tuple[UnitState, ...]


@dataclass(frozen=True)
class UnitScore:
    """What one unit concedes to the enemy and whether it is operational (scoring)."""

    name: str
    operational: bool
    conceded: int


@dataclass(frozen=True)
class SideScore:
    """A side's victory points and the score of each of its units, in input order."""

    name: str
    victory_points: int
    units: tuple[UnitScore, ...]


@dataclass(frozen=True)
class VpResult:
    """Both sides' scores (input order), the winner's name (None on equal totals) and the margin."""

    sides: tuple[SideScore, SideScore]
    winner: str | None
    margin: int


class _Loss(Enum):
    NONE = 0
    HALF = 1
    FULL = 2


def validate_unit(unit: UnitState) -> None:
    """Raise VpInputError for a unit state no game can reach."""
    name = unit.name
    if unit.type not in UNIT_TYPES:
        raise VpInputError("unit_type_unknown", unit=name, type=unit.type)
    if unit.points < 0:
        raise VpInputError("unit_points_negative", unit=name)
    _check_count(name, "models", unit.starting_models, unit.remaining_models)
    if (unit.starting_wounds is None) != (unit.remaining_wounds is None):
        raise VpInputError("unit_wounds_incomplete", unit=name)
    if unit.starting_wounds is not None and unit.remaining_wounds is not None:
        _check_count(name, "wounds", unit.starting_wounds, unit.remaining_wounds)
    if unit.vehicle_damage not in VEHICLE_DAMAGE:
        raise VpInputError("vehicle_damage_unknown", unit=name, value=unit.vehicle_damage)
    if unit.type != "vehicle" and unit.vehicle_damage != "none":
        raise VpInputError("vehicle_damage_not_vehicle", unit=name)
    if unit.exited and _loss(unit) is _Loss.FULL:
        # Leaving the table on purpose excludes being destroyed or falling back.
        raise VpInputError("unit_exited_destroyed", unit=name)


def _check_count(name: str, what: str, starting: int, remaining: int) -> None:
    if starting < 1:
        raise VpInputError(f"unit_starting_{what}_invalid", unit=name, value=starting)
    if not 0 <= remaining <= starting:
        raise VpInputError(
            f"unit_remaining_{what}_invalid", unit=name, value=remaining, starting=starting
        )


def _below_quarter(remaining: int, starting: int) -> bool:
    # "Below 25%" in integers: exactly 25% does not count (§5.2, §7.6).
    return remaining * 4 < starting


def _loss(unit: UnitState) -> _Loss:
    """How much of its value a unit gives away (api-v1 victory-points semantics)."""
    remaining, starting = unit.remaining_models, unit.starting_models
    if unit.type == "character" and unit.remaining_wounds is not None:
        remaining, starting = unit.remaining_wounds, unit.starting_wounds or 0
    if remaining == 0 or unit.remaining_models == 0 or unit.falling_back:
        return _Loss.FULL
    if unit.type == "vehicle":
        return {"none": _Loss.NONE, "damaged": _Loss.HALF}.get(unit.vehicle_damage, _Loss.FULL)
    return _Loss.HALF if _below_quarter(remaining, starting) else _Loss.NONE


def conceded(unit: UnitState) -> int:
    """Victory points the unit gives the enemy: full, half rounded down, or none."""
    validate_unit(unit)
    loss = _loss(unit)
    if loss is _Loss.FULL:
        return unit.points
    return unit.points // 2 if loss is _Loss.HALF else 0


def is_operational(unit: UnitState) -> bool:
    """Scoring at the end: still on the table and conceding nothing (§5.2's 25% rule)."""
    validate_unit(unit)
    return not unit.exited and _loss(unit) is _Loss.NONE


def score(sides: tuple[SideState, SideState], rules: VpRules) -> VpResult:
    """Score a finished game under ``rules`` (a mission's ``victory_points`` parameters)."""
    _validate_sides(sides, rules)
    first, second = sides
    units = [
        tuple(UnitScore(u.name, is_operational(u), conceded(u)) for u in s.units) for s in sides
    ]
    scores = (
        _side_score(first, units[0], units[1], rules),
        _side_score(second, units[1], units[0], rules),
    )
    return result_of(scores)


def result_of(scores: tuple[SideScore, SideScore]) -> VpResult:
    """The winner (None on equal totals) and the margin of two side scores."""
    a, b = scores[0].victory_points, scores[1].victory_points
    winner = None if a == b else (scores[0].name if a > b else scores[1].name)
    return VpResult(scores, winner, abs(a - b))


def _validate_sides(sides: tuple[SideState, ...], rules: VpRules) -> None:
    if len(sides) != 2:
        raise VpInputError("sides_count", count=len(sides))
    if sides[0].name == sides[1].name:
        raise VpInputError("side_names_duplicate", name=sides[0].name)
    roles = [side.role for side in sides]
    for role in roles:
        if role is not None and role not in ROLES:
            raise VpInputError("role_unknown", role=role)
    if any(roles) and sorted(r or "" for r in roles) != sorted(ROLES):
        raise VpInputError("roles_invalid", roles=roles)
    if rules.needs_roles and not all(roles):
        raise VpInputError("roles_required")


def _side_score(
    side: SideState,
    own: tuple[UnitScore, ...],
    enemy: tuple[UnitScore, ...],
    rules: VpRules,
) -> SideScore:
    total = sum(u.conceded for u in enemy)
    if rules.defender_doubles and side.role == "defender":
        total *= 2
    if rules.own_operational == "both" or (
        rules.own_operational == "attacker" and side.role == "attacker"
    ):
        total += sum(u.points for u, s in zip(side.units, own, strict=True) if s.operational)
    if rules.attacker_scores_exits and side.role == "attacker":
        total += sum(u.points for u in side.units if u.exited)
    return SideScore(side.name, total, own)
