"""W40K Dynamics (seed 004, by "Pops", 2012): order tokens, Initiative passes, advantage, morale.

A turn-system switch for 40k events, not a game engine (systems/w40k-dynamics.md §4). Numbers
come from the seed; where it is silent the decided default of systems/w40k-dynamics.md §4.3 is
used and its [Gap] id named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from missions.dice import Roll, Roller, RollOff, roll_off
from missions.pregame import fixed_first_player

# D-R1, « Les Ordres »: « Il existe 5 ordres ».
ORDERS: tuple[str, ...] = (
    "deplacement-tactique", "marche-forcee", "tir", "assaut", "frappe-en-profondeur",
)
# D-R2, « Matériel de jeu »: « au minimum 5 pions (1 de chaque type) par tranche de 250pts ».
POINTS_PER_BLOCK = 250
# D-R3: « Planche de 30 pions d'ordres (set minimal pour 1500pts = 1 planche par joueur) »,
# i.e. 6 of each of the 5 orders on one sheet (DG3).
TOKENS_PER_ORDER_PER_SHEET = 6
ROUNDINGS = ("ceil", "floor")  # DG1: "started" (ceil, default) or "complete" (floor) blocks

# D-R4: « divisé en 10 passes d'actions, une par valeur d'Initiative ».
FIRST_PASS, LAST_PASS = 1, 10
# D-R10, box « Initiative des véhicules »: « Super lourd : -2 ; Char : -1 ; Antigrav : +1 ;
# Rapide : +1 ; Supersonique : +2 ». A transport has no modifier of its own: « les
# modificateurs dûs à ses autres types ne peuvent pas emmener son Init à une valeur plus basse
# que celle de l'unité embarquée ».
VEHICLE_MODIFIERS: Mapping[str, int] = {
    "super_heavy": -2, "tank": -1, "skimmer": +1, "fast": +1, "supersonic": +2,
}
TRANSPORT = "transport"
VEHICLE_TYPES: tuple[str, ...] = (*VEHICLE_MODIFIERS, TRANSPORT)

WARNING_CLAMPED = "initiative_clamped"
WARNING_MISSING = "initiative_missing"
WARNING_CARRIED_IGNORED = "carried_initiative_ignored"

# D-R7, « Le test d'avantage »: « +1 si vous avez finit le placement des ordres avant votre
# adversaire » (once per turn) and « +2 au joueur Attaquant/Défenseur … qui doit normalement
# commencer la bataille » (permanent).
BONUS_NOW, PERMANENT_BONUS = 1, 2
PURPOSE_ADVANTAGE = "dynamics_advantage"

# D-R11: « 25% ou plus de pertes en suspens » (main rule, default); F.A.Q.: « plus de 25% » (DG9).
MORALE_RULES = ("at_least", "more_than")
MORALE_FRACTION = (1, 4)


@dataclass(frozen=True)
class TokenCount:
    """Order tokens one player needs: ``per_order`` of each of the five orders."""

    points: int
    per_order: int
    total: int
    sheets: int

    @property
    def orders(self) -> dict[str, int]:
        return dict.fromkeys(ORDERS, self.per_order)


def tokens(points: int, rounding: str = "ceil") -> TokenCount:
    """Tokens per order: one per (started, or complete) block of 250 points; 1,500 → 6 (D-R3).

    ``floor`` never goes below 1: the seed's minimum set is « 1 de chaque type ».
    """
    if points < 1:
        raise ValueError("points must be positive")
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}")
    blocks = -(-points // POINTS_PER_BLOCK) if rounding == "ceil" else points // POINTS_PER_BLOCK
    per_order = max(1, blocks)
    sheets = -(-per_order // TOKENS_PER_ORDER_PER_SHEET)
    return TokenCount(points, per_order, per_order * len(ORDERS), sheets)


def unit_initiative(models: Sequence[int]) -> int:
    """The Initiative a unit of mixed models acts at (D-R9, DG8).

    « on considère la valeur majoritaire (arrondie à l'inférieur si besoin) »: the most common
    value; when several values tie for most common, the mean of those values rounded down.
    """
    if not models:
        raise ValueError("a unit has at least one model")
    counts = Counter(models)
    top = max(counts.values())
    tied = [value for value, count in counts.items() if count == top]
    return sum(tied) // len(tied)


@dataclass(frozen=True)
class Vehicle:
    """A non-walker vehicle: its driver's Initiative, its types, and the carried unit's Initiative."""

    driver_initiative: int
    types: frozenset[str] = frozenset()
    carried_initiative: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", frozenset(self.types))
        unknown = self.types - set(VEHICLE_TYPES)
        if unknown:
            raise ValueError(f"unknown vehicle types {sorted(unknown)}")


def vehicle_initiative(vehicle: Vehicle) -> tuple[int, tuple[str, ...]]:
    """Driver's Initiative plus every type modifier (they add up, DG6), before clamping.

    A transport carrying a unit never goes below that unit's Initiative (DG7:
    ``max(driver + mods, carried)``). Returns the value and its warnings.
    """
    value = vehicle.driver_initiative + sum(VEHICLE_MODIFIERS.get(t, 0) for t in vehicle.types)
    warnings: tuple[str, ...] = ()
    if vehicle.carried_initiative is not None:
        if TRANSPORT in vehicle.types:
            value = max(value, vehicle.carried_initiative)
        else:
            warnings = (WARNING_CARRIED_IGNORED,)
    return value, warnings


@dataclass(frozen=True)
class UnitInitiative:
    """One unit as the pass table sees it: give a vehicle, the models' values, or one value.

    When several are given the first of vehicle, models_initiative, initiative is used.
    """

    name: str
    initiative: int | None = None
    models_initiative: tuple[int, ...] = ()
    vehicle: Vehicle | None = None


@dataclass(frozen=True)
class UnitPass:
    """The pass a unit acts in (None when it has no Initiative) and why it may be surprising."""

    name: str
    pass_: int | None
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class PassPlan:
    """Reveal from the lowest pass up, resolve from the highest down (D-R8)."""

    units: tuple[UnitPass, ...]
    reveal: tuple[int, ...]
    resolve: tuple[int, ...]
    by_pass: Mapping[int, tuple[str, ...]]


def unit_pass(unit: UnitInitiative) -> UnitPass:
    """A unit's pass, clamped to 1–10 with ``initiative_clamped`` (DG6)."""
    warnings: tuple[str, ...] = ()
    if unit.vehicle is not None:
        value, warnings = vehicle_initiative(unit.vehicle)
    elif unit.models_initiative:
        value = unit_initiative(unit.models_initiative)
    elif unit.initiative is not None:
        value = unit.initiative
    else:
        return UnitPass(unit.name, None, (WARNING_MISSING,))
    clamped = min(max(value, FIRST_PASS), LAST_PASS)
    if clamped != value:
        warnings += (WARNING_CLAMPED,)
    return UnitPass(unit.name, clamped, warnings)


def passes(units: Sequence[UnitInitiative]) -> PassPlan:
    """Every unit's pass and the passes in play, in reveal and resolve order."""
    placed = tuple(unit_pass(unit) for unit in units)
    by_pass: dict[int, list[str]] = {}
    for unit in placed:
        if unit.pass_ is not None:
            by_pass.setdefault(unit.pass_, []).append(unit.name)
    reveal = tuple(sorted(by_pass))
    return PassPlan(placed, reveal, tuple(reversed(reveal)),
                    {number: tuple(by_pass[number]) for number in reveal})


def permanent_advantage(first_turn: str, attacker: str | None, defender: str | None) -> str | None:
    """Who holds the permanent +2 (D-R6, DG11): the role that would normally start the battle.

    « ce joueur recoit un bonus permanent aux test d'avantage »; roll-off missions: nobody.
    """
    return fixed_first_player(first_turn, attacker, defender)


@dataclass(frozen=True)
class AdvantageTest:
    """Every die of the test (ties re-rolled, DG4), each player's modifier, and the winner."""

    result: RollOff
    modifiers: Mapping[str, int]

    @property
    def winner(self) -> str:
        return self.result.winner

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return self.result.rolls


def advantage_test(
    roller: Roller,
    players: tuple[str, str],
    *,
    bonus_now: str | None = None,
    permanent: str | None = None,
    purpose: str = PURPOSE_ADVANTAGE,
) -> AdvantageTest:
    """1D6 each, +1 for ``bonus_now``, +2 for ``permanent``; the higher score wins."""
    for player in (bonus_now, permanent):
        if player is not None and player not in players:
            raise ValueError(f"{player!r} does not take part in this test")
    modifiers = dict.fromkeys(players, 0)
    if bonus_now is not None:
        modifiers[bonus_now] += BONUS_NOW
    if permanent is not None:
        modifiers[permanent] += PERMANENT_BONUS
    return AdvantageTest(roll_off(roller, purpose, players, modifiers), modifiers)


@dataclass(frozen=True)
class MoraleCheck:
    """Whether the pending shooting casualties call for a morale test (D-R11)."""

    test_required: bool
    fraction: float
    minimum_casualties: int


def morale_check(models_at_start: int, pending_from_shooting: int, rule: str = "at_least") -> MoraleCheck:
    """``at_least``: 25 % or more (main rule); ``more_than``: over 25 % (F.A.Q.).

    The base is the models in the unit at the start of the pass (DG9).
    """
    if models_at_start < 1:
        raise ValueError("a unit starts the pass with at least one model")
    if not 0 <= pending_from_shooting <= models_at_start:
        raise ValueError("pending casualties must be between 0 and the models at the start")
    if rule not in MORALE_RULES:
        raise ValueError(f"rule must be one of {MORALE_RULES}")
    numerator, denominator = MORALE_FRACTION
    # Integers only: pending / models >= 1/4  <=>  4 × pending >= models.
    share, whole = denominator * pending_from_shooting, numerator * models_at_start
    required = share >= whole if rule == "at_least" else share > whole
    # The fewest pending casualties p with 4p >= models (at_least) or 4p > models (more_than).
    minimum = -(-whole // denominator) if rule == "at_least" else whole // denominator + 1
    return MoraleCheck(required, pending_from_shooting / models_at_start, minimum)
