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


@dataclass(frozen=True)
class DetachmentSpec:
    name: str
    points: int
    kind: str = GROUND
    supreme_commander: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")


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
