"""Resolving ground infiltrations (R25 with R12, G22): 1D6 per enemy detachment in the target,
6 the full sheet, 5 the number and type of war engines, 1 the infiltrating units captured and
their detachment revealed, 2–4 nothing.

The seed throws the dice of one infiltration together (« 1D6 par détachement ennemi »), so every
die of an order is rolled and applied even after a 1: a capture happens once per order and
reveals the infiltrating detachment to the enemy. The orders are resolved in the order they were
accepted; each die is rolled for the infiltrating side (``epic.infiltration``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from campaigns.engine.air import CAPTURED, FULL_SHEET, WAR_ENGINES, infiltration_outcome
from campaigns.engine.army import INFILTRATOR, WAR_ENGINE, Unit
from campaigns.engine.map import enemy
from campaigns.engine.state import (
    AIR_MISSION,
    INFILTRATION,
    INFILTRATION_MISSION,
    AcceptedOrder,
    CampaignState,
    Detachment,
)
from missions.dice import Roller

PURPOSE = "epic.infiltration"
# CampaignReveal levels and sources (systems/epic-campaign.md §1.4).
FULL, ENGINES = "full", "war_engines"
BY_INFILTRATION, BY_CAPTURE = "infiltration", "capture"


@dataclass(frozen=True)
class InfiltrationDie:
    """One die against one enemy detachment of the target."""

    target: str
    die: int
    outcome: str


@dataclass(frozen=True)
class Infiltration:
    order_id: int
    side: str
    detachment: str
    from_: str
    to: str
    dice: tuple[InfiltrationDie, ...]
    captured: tuple[Unit, ...] = ()  # G22: the infiltrator units lost on a 1


@dataclass(frozen=True)
class Reveal:
    """What one side now knows of one enemy detachment."""

    owner: str
    detachment: str
    to_side: str
    level: str
    source: str


def targets(state: CampaignState, to: str, side: str) -> tuple[Detachment, ...]:
    """The enemy detachments the infiltration rolls against, in the army's order."""
    return state.at(to, enemy(side))


def war_engines(det: Detachment) -> tuple[Unit, ...]:
    """R25 on a 5: « combien de machines de guerre … et de quel type »."""
    return tuple(u for u in det.units if u.has(WAR_ENGINE))


def is_infiltration(accepted: AcceptedOrder) -> bool:
    """A ground infiltration order (R25) or an air infiltration mission (R20)."""
    order = accepted.order
    return order.kind == INFILTRATION or (order.kind == AIR_MISSION
                                          and order.mission == INFILTRATION_MISSION)


def resolve_one(state: CampaignState, accepted: AcceptedOrder, roller: Roller
                ) -> tuple[CampaignState, Infiltration]:
    """Roll one accepted infiltration and return the state with its capture applied. An air
    infiltration mission rolls the same dice and ignores a 1 (R25 « les unités aériennes
    ignorent un résultat de 1 »)."""
    order = accepted.order
    if not is_infiltration(accepted) or order.to is None or not order.detachments:
        raise ValueError("not an infiltration order")
    by_air = order.kind == AIR_MISSION
    name = order.detachments[0]
    dice = []
    for target in targets(state, order.to, order.side):
        roll = roller.roll("1D6", PURPOSE, order.side)
        dice.append(InfiltrationDie(target.name, roll.total,
                                    infiltration_outcome(roll.total, by_air=by_air)))
    captured: tuple[Unit, ...] = ()
    infiltrating = state.detachment(order.side, name)
    if infiltrating is not None and any(d.outcome == CAPTURED for d in dice):
        captured = infiltrating.infiltrators
        kept = tuple(u for u in infiltrating.units if not u.has(INFILTRATOR))
        state = replace(state, detachments=tuple(
            replace(d, units=kept) if d is infiltrating else d for d in state.detachments))
    result = Infiltration(accepted.id, order.side, name, order.from_ or "", order.to,
                          tuple(dice), captured)
    return state, result


def resolve(state: CampaignState, pending: Sequence[AcceptedOrder], roller: Roller
            ) -> tuple[CampaignState, tuple[Infiltration, ...]]:
    results = []
    for accepted in pending:
        state, result = resolve_one(state, accepted, roller)
        results.append(result)
    return state, tuple(results)


def reveals(result: Infiltration) -> tuple[Reveal, ...]:
    """R12/R25: the infiltrating side sees a sheet on a 6 and the war engines on a 5 (the best
    die per enemy detachment counts); on a 1 the enemy sees the infiltrating detachment."""
    spy, owner = result.side, enemy(result.side)
    out: dict[str, Reveal] = {}
    for die in result.dice:
        if die.outcome == FULL_SHEET:
            out[die.target] = Reveal(owner, die.target, spy, FULL, BY_INFILTRATION)
        elif die.outcome == WAR_ENGINES and die.target not in out:
            out[die.target] = Reveal(owner, die.target, spy, ENGINES, BY_INFILTRATION)
    found = list(out.values())
    if any(d.outcome == CAPTURED for d in result.dice):
        found.append(Reveal(spy, result.detachment, owner, FULL, BY_CAPTURE))
    return tuple(found)


def stronger(level: str, other: str) -> str:
    """A full sheet says more than its war engines."""
    return FULL if FULL in (level, other) else ENGINES
