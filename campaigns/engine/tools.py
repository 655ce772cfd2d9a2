"""Small rules that need no campaign state: initiative, planet type, phase roll-offs, bunkers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from campaigns.engine.map import EAST, WEST
from missions.dice import Roll, Roller, RollOff, roll_off

# G2: the organiser types each side's strategic value, an integer from 0 to 10.
STRATEGIC_VALUE_MIN, STRATEGIC_VALUE_MAX = 0, 10
BASE_INITIATIVE = 4  # R16: « égal à 4 + Valeur Stratégique / 2 »

# R5, « 2d6 Type de Planète » as written; 8 is listed twice (G3).
PLANETS: tuple[str, ...] = (
    "monde-demoniaque", "monde-mort", "monde-primitif", "monde-glace",
    "agri-monde", "monde-ruche", "monde-desertique",
)
PLANET_TABLE: Mapping[int, tuple[str, ...]] = {
    2: ("monde-demoniaque",), 3: ("monde-mort",), 4: ("monde-primitif",), 5: ("monde-primitif",),
    6: ("monde-glace",), 7: ("agri-monde",), 8: ("agri-monde", "monde-ruche"),
    9: ("monde-ruche",), 10: ("monde-ruche",), 11: ("monde-desertique",), 12: ("monde-desertique",),
}
ON_EIGHT_ASK = "ask"
ON_EIGHT_CHOICES = (ON_EIGHT_ASK, "agri-monde", "monde-ruche")
PURPOSE_PLANET = "epic.planet"

# R18 / contract: the phases of a turn that open with an initiative roll, in the seed's order.
PHASES: tuple[str, ...] = ("air", "infiltration", "moves", "attacks")

# R31: « une fortification … pour chaque tranche de 250 points de la force du défenseur »; G24 floor.
POINTS_PER_FORTIFICATION = 250
# R17: « l'armée attaquante aura 3 pions d'initiative contre 2 pour les défenseurs ».
INITIATIVE_COUNTERS: Mapping[str, int] = {"attacker": 3, "defender": 2}


def initiative_value(strategic_value: int) -> int:
    """Moves, attacks and reactions a side may declare each turn, each kind separately (G6).

    R16: 4 + VS / 2, the halving rounded up as in the seed's example (VS 5 → 3 → 7).
    """
    if not STRATEGIC_VALUE_MIN <= strategic_value <= STRATEGIC_VALUE_MAX:
        raise ValueError("the strategic value must be between 0 and 10")
    return BASE_INITIATIVE + -(-strategic_value // 2)


@dataclass(frozen=True)
class PlanetResult:
    """The planet a 2D6 total gives: ``planet`` is None when the organiser must choose."""

    total: int
    planet: str | None
    candidates: tuple[str, ...]


def planet_from_total(total: int, on_eight: str = ON_EIGHT_ASK) -> PlanetResult:
    """R5 with G3: on 8 the organiser picks (``ask``) unless the campaign fixed the answer."""
    if total not in PLANET_TABLE:
        raise ValueError("a 2D6 total is between 2 and 12")
    if on_eight not in ON_EIGHT_CHOICES:
        raise ValueError(f"on_eight must be one of {ON_EIGHT_CHOICES}")
    candidates = PLANET_TABLE[total]
    if len(candidates) == 1:
        return PlanetResult(total, candidates[0], candidates)
    return PlanetResult(total, None if on_eight == ON_EIGHT_ASK else on_eight, candidates)


@dataclass(frozen=True)
class PlanetRoll:
    roll: Roll
    result: PlanetResult


def roll_planet(roller: Roller, on_eight: str = ON_EIGHT_ASK) -> PlanetRoll:
    roll = roller.roll("2D6", PURPOSE_PLANET)
    return PlanetRoll(roll, planet_from_total(roll.total, on_eight))


def phase_initiative(roller: Roller, phase: str, strategic_values: Mapping[str, int]) -> RollOff:
    """R15: 1D6 + strategic value each, the higher chooses who acts first in ``phase``.

    G5: ties are re-rolled until they differ; west's die is rolled before east's every time.
    """
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}")
    modifiers = {WEST: strategic_values[WEST], EAST: strategic_values[EAST]}
    return roll_off(roller, f"epic.initiative.{phase}", (WEST, EAST), modifiers)


def fortifications_allowed(defender_points: int, fortified: bool) -> int:
    """R31: one per full 250 points of the defender's deployed force (reactors not counted)."""
    if defender_points < 0:
        raise ValueError("points cannot be negative")
    return defender_points // POINTS_PER_FORTIFICATION if fortified else 0
