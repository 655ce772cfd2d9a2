"""Air missions and landings (R13, R14, R19–R24, R34 with G23, G27, G28): the checks of an
``air_mission`` order and the seed's own gates around it.

An air detachment is based in a friendly territory (G28) and flies one mission a turn (R20,
R22–R24): infiltration of one enemy territory, interception over the territory it patrols,
transport/ground attack to any territory, or escort (linked to an own infiltration or transport
mission, or alone into an enemy territory). Its route lists the territories flown over from the
base to the target, target last, each step adjacent to the one before; the return route goes
back from the target to the base. The software rolls only the seed's gates (G27): Flak (R21,
6 = it fires), who may intercept whom (R22, R24), an airborne landing's interception dice (R14);
the fights themselves are Epic 40,000 rules the players play. A transport carries troops of its
base to a friendly target in the moves phase (campaigns/engine/ground_orders.py ``_transport_move``) or
attacks its target (R28); when that attack fails, its return route is shot at again (R23:
``failed_transports``, ``roll_return_flak``, rolled at the turn's close).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from campaigns.engine.air import flak_fires
from campaigns.engine.army import AIR, FLAK
from campaigns.engine.map import UnknownTerritory, adjacent, enemy, territory
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    ESCORT,
    INFILTRATION_MISSION,
    INTERCEPTION,
    MISSIONS,
    REACTION,
    TRANSPORT,
    AcceptedOrder,
    CampaignState,
    Detachment,
    Order,
)
from campaigns.engine.turn import BattleResult
from config.refusals import CodedRefusal
from missions.dice import Roller

PURPOSE_FLAK = "epic.flak"
PURPOSE_INTERCEPTION = "epic.interception"
OUT, BACK = "out", "return"
# R24: an escort goes with these missions only.
ESCORTED = (INFILTRATION_MISSION, TRANSPORT)


class AirRefused(CodedRefusal):
    """A refusal code and its params (campaigns/engine/orders.py turns it into its Refusal)."""


# Checking a mission ---------------------------------------------------------------------------

def _check_route(state: CampaignState, start: str, end: str, route: Sequence[str], which: str
                 ) -> None:
    """Each step adjacent to the one before (G4 adjacency), from ``start``, ending on ``end``."""
    if not route:
        if start != end and which == OUT:
            raise AirRefused("route_required", to=end)
        return
    before = start
    for code in route:
        try:
            territory(code)
        except UnknownTerritory:
            raise AirRefused("territory_unknown", territory=str(code)) from None
        if not adjacent(before, code, state.adjacency):
            raise AirRefused("route_not_adjacent", route=which, **{"from": before, "to": code})
        before = code
    if before != end:
        raise AirRefused("route_end_mismatch", route=which, territory=before, expected=end)


def _mission_of(state: CampaignState, side: str, order_id: int | None) -> AcceptedOrder | None:
    return next((a for a in state.missions(side) if a.id == order_id), None)


def mission_order(state: CampaignState, order: Order) -> Order:
    """Check one ``air_mission`` order and return it filled in: ``from_`` the base, ``to`` the
    target (an interception patrols its base when ``to`` is left out), an escort linked to a
    mission flown from the same base takes that mission's target and routes when it gives none.
    Raises AirRefused."""
    if len(order.detachments) != 1:
        raise AirRefused("single_detachment_required", kind=order.kind)
    name = order.detachments[0]
    det = state.detachment(order.side, name)
    if det is None:
        raise AirRefused("detachment_unknown", detachment=name)
    if not det.on_map:
        raise AirRefused("detachment_not_on_map", detachment=name)
    if det.kind != AIR:  # R19: missions are for air detachments
        raise AirRefused("air_detachment_required", detachment=name)
    if order.mission not in MISSIONS:
        raise AirRefused("mission_unknown", mission=str(order.mission or ""))
    base = det.location
    if order.from_ is not None and order.from_ != base:
        raise AirRefused("detachment_not_in_territory", detachment=name, territory=order.from_)
    if state.control[base] != order.side:  # G28: based in a friendly territory
        raise AirRefused("base_not_friendly", detachment=name, territory=base)
    if any(name in a.order.detachments for a in state.missions(order.side)):
        raise AirRefused("mission_already_used", detachment=name)  # R20, R22–R24: one a turn
    filled = replace(order, from_=base)
    if order.mission == ESCORT and order.escort_of is not None:
        filled = _escort(state, filled, base)
    elif order.escort_of is not None:
        raise AirRefused("escort_of_not_escort")
    to = filled.to if filled.to is not None else (base if order.mission == INTERCEPTION else None)
    if to is None:
        raise AirRefused("territory_required")
    filled = replace(filled, to=to)
    if order.mission == INFILTRATION_MISSION and state.control[to] == order.side:
        raise AirRefused("target_friendly", territory=to)  # R20: « 1 territoire ennemi »
    if order.mission == ESCORT and order.escort_of is None and state.control[to] == order.side:
        raise AirRefused("target_friendly", territory=to)  # R24: alone, into an enemy territory
    if base in state.isolated and not _isolated_allowed(state, filled, base):
        # R34: isolated air units only fly a transport to a friendly territory (escorted only
        # by an escort based in the same territory).
        raise AirRefused("detachment_isolated", detachment=name, territory=base)
    _check_route(state, base, to, filled.route, OUT)
    if filled.return_route:
        _check_route(state, to, base, filled.return_route, BACK)
    return filled


def _escort(state: CampaignState, order: Order, base: str) -> Order:
    """R24: « peuvent être liés aux détachements en mission de transport/attaque au sol ou
    d'infiltration »."""
    escorted = _mission_of(state, order.side, order.escort_of)
    if escorted is None:
        raise AirRefused("escort_target_unknown", escort_of=order.escort_of)
    if escorted.order.mission not in ESCORTED:
        raise AirRefused("escort_target_invalid", escort_of=order.escort_of,
                         mission=escorted.order.mission or "")
    source = escorted.order.from_
    if escorted.order.mission == TRANSPORT and source in state.isolated and source != base:
        # R34: an isolated transport « ne peut être escorté à moins que l'escorte ne se trouve
        # dans le même territoire isolé ».
        raise AirRefused("escort_not_in_isolated_territory", escort_of=order.escort_of,
                         territory=source or "")
    target = escorted.order.to
    if order.to is not None and order.to != target:
        raise AirRefused("escort_target_mismatch", territory=order.to, expected=target or "")
    filled = replace(order, to=target)
    if not order.route and escorted.order.from_ == base:  # flies with it from the same base
        filled = replace(filled, route=escorted.order.route,
                         return_route=order.return_route or escorted.order.return_route)
    return filled


def _isolated_allowed(state: CampaignState, order: Order, base: str) -> bool:
    """R34's exception, the air side of it: from an isolated territory an air detachment only
    flies a transport to a friendly territory (the one move that carries the territory's
    airborne detachments out, campaigns/engine/ground_orders.py ``_transport_move``), or the escort of
    such a transport flying from the same territory."""
    if order.mission == TRANSPORT:
        return state.control[order.to] == order.side
    if order.mission == ESCORT and order.escort_of is not None:
        escorted = _mission_of(state, order.side, order.escort_of)
        return (escorted is not None and escorted.order.mission == TRANSPORT
                and escorted.order.from_ == base)
    return False


# Transport missions in the attacks phase (R28, R29) ------------------------------------------

def transport_of(state: CampaignState, side: str, name: str) -> AcceptedOrder | None:
    """The transport/ground-attack mission ``name`` flies this turn, if any."""
    return next((a for a in state.missions(side, TRANSPORT) if name in a.order.detachments),
                None)


# The return of a failed transport (R23) -----------------------------------------------------

def failed_transports(state: CampaignState, results: Mapping[str, BattleResult]
                      ) -> tuple[AcceptedOrder, ...]:
    """R23 « Si une attaque est un échec, le détachement doit aussi préciser son chemin de
    retour (il est alors de nouveau vulnérable aux interceptions et aux unités flak) »: the
    transport missions whose attack's battle the attacker did not win (a loss or a draw, G12),
    that gave a return route and whose air detachment was not destroyed in it; ``results`` by
    territory, as the close reads them."""
    out = []
    for mission in state.missions(mission=TRANSPORT):
        order = mission.order
        name = order.detachments[0]
        if not order.return_route:
            continue
        attack = next((a for a in state.accepted(order.side, (ATTACK,))
                       if name in a.order.detachments), None)
        result = results.get(attack.order.to or "") if attack is not None else None
        if result is None or result.winner == order.side or name in result.destroyed:
            continue
        out.append(mission)
    return tuple(out)


def return_exposure(state: CampaignState, mission: AcceptedOrder
                    ) -> tuple[tuple[str, Detachment], ...]:
    """The enemy Flak detachments of the territories on a transport's return route (R21, R23);
    the target's Flak already fired on the way out."""
    return _flak_in(state, mission.order.side, tuple(dict.fromkeys(mission.order.return_route)))


def roll_return_flak(state: CampaignState, missions: Sequence[AcceptedOrder], roller: Roller
                     ) -> tuple[FlakRoll, ...]:
    """R21 on the way back (R23): the same 1D6 per enemy Flak detachment, 6 = it fires."""
    return _roll_flak(missions, lambda mission: return_exposure(state, mission), roller)


def return_interception(state: CampaignState, mission: AcceptedOrder) -> Interception:
    """R22/R24 on the way back: the enemy interception missions patrolling a territory of the
    return route, and the escorts linked to the mission."""
    order = mission.order
    back = tuple(dict.fromkeys(order.return_route))
    hunters = [a for a in state.missions(enemy(order.side), INTERCEPTION) if a.order.to in back]
    escorts = tuple(a.id for a in state.missions(order.side, ESCORT)
                    if a.order.escort_of == mission.id)
    return Interception(mission.id, order.side, order.mission or "",
                        tuple(a.id for a in hunters),
                        tuple(code for code in back if any(a.order.to == code for a in hunters)),
                        escorts)


# The gates (R14, R21, R22, R24) --------------------------------------------------------------

@dataclass(frozen=True)
class FlakRoll:
    """R21: one enemy Flak detachment's D6 against one mission; 6 = it fires all its Flak."""

    order_id: int
    territory: str
    side: str  # the Flak detachment's side
    detachment: str
    die: int
    fires: bool


@dataclass(frozen=True)
class Interception:
    """R22/R24: the enemy interception missions a mission crosses, and its escorts that may
    counter-intercept."""

    order_id: int
    side: str
    mission: str
    interceptors: tuple[int, ...]
    territories: tuple[str, ...]
    escorts: tuple[int, ...]


def flak_exposure(state: CampaignState, mission: AcceptedOrder) -> tuple[tuple[str, Detachment], ...]:
    """The enemy detachments with at least one Flak unit that roll against ``mission`` (R21):
    those of the infiltrated territory for an infiltration, of every territory flown over (and
    the target) for a transport; escorts and interceptions are never shot at by Flak (R24)."""
    order = mission.order
    if order.mission == INFILTRATION_MISSION:
        codes: tuple[str, ...] = (order.to,) if order.to else ()
    elif order.mission == TRANSPORT:
        codes = tuple(dict.fromkeys((*order.route, *((order.to,) if order.to else ()))))
    else:
        return ()
    return _flak_in(state, order.side, codes)


def _flak_in(state: CampaignState, side: str, codes: Sequence[str]
             ) -> tuple[tuple[str, Detachment], ...]:
    """The enemy detachments with at least one Flak unit in ``codes``, territory by territory."""
    return tuple((code, det) for code in codes for det in state.at(code, enemy(side))
                 if any(u.has(FLAK) for u in det.units))


def _roll_flak(missions: Sequence[AcceptedOrder],
               exposure: Callable[[AcceptedOrder], tuple[tuple[str, Detachment], ...]],
               roller: Roller) -> tuple[FlakRoll, ...]:
    rolls = []
    for mission in missions:
        for code, det in exposure(mission):
            die = roller.roll("1D6", PURPOSE_FLAK, det.side).total
            rolls.append(FlakRoll(mission.id, code, det.side, det.name, die, flak_fires(die)))
    return tuple(rolls)


def roll_flak(state: CampaignState, missions: Sequence[AcceptedOrder], roller: Roller
              ) -> tuple[FlakRoll, ...]:
    """R21: « Pour chaque détachement ennemi possédant au moins une unité "flak", lancez 1D6 »,
    missions in the order they were declared, each die rolled for the Flak's side."""
    return _roll_flak(missions, lambda mission: flak_exposure(state, mission), roller)


def crossed(order: Order) -> tuple[str, ...]:
    """The territories a mission flies over, there and back (« au retour aussi! »)."""
    there = (*order.route, *((order.to,) if order.to else ()))
    return tuple(dict.fromkeys((*there, *order.return_route)))


def interceptions(state: CampaignState) -> tuple[Interception, ...]:
    """Every mission (interceptions aside) that crosses a territory an enemy interception
    mission patrols (R22), with the interceptors and the escorts able to counter-intercept
    (R24)."""
    out = []
    for mission in state.missions():
        order = mission.order
        if order.mission == INTERCEPTION:
            continue
        flown = crossed(order)
        hunters = [a for a in state.missions(enemy(order.side), INTERCEPTION) if a.order.to in flown]
        if not hunters:
            continue
        escorts = tuple(a.id for a in state.missions(order.side, ESCORT)
                        if a.order.escort_of == mission.id)
        out.append(Interception(mission.id, order.side, order.mission or "",
                                tuple(a.id for a in hunters),
                                tuple(code for code in flown
                                      if any(a.order.to == code for a in hunters)),
                                escorts))
    return tuple(out)


# Landings (R13, R14) ------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitDie:
    unit: str
    die: int
    value: int | None
    acts: bool


@dataclass(frozen=True)
class LandingInterception:
    """R14: one intercepting detachment's dice against one landing: « lancez 1D pour chaque
    unité du détachement qui intercepte, si le résultat est inferieur à la valeur
    d'interception » the unit may act (G23: D6)."""

    order_id: int
    side: str  # the landing side
    detachment: str
    territory: str
    interceptor_order: int
    interceptor: str
    dice: tuple[UnitDie, ...]

    @property
    def acting(self) -> int:
        return sum(1 for d in self.dice if d.acts)


def landing_territory(state: CampaignState, landing: AcceptedOrder) -> str | None:
    """Where a landing comes down: a move's or an attack's target, the attacked territory of a
    reaction."""
    order = landing.order
    if order.kind == REACTION and order.to is None:
        attack = next((a for a in state.orders if a.id == order.for_attack), None)
        return attack.order.to if attack else None
    return order.to


def landing_interceptors(state: CampaignState, landing: AcceptedOrder) -> tuple[AcceptedOrder, ...]:
    """R14: the enemy interception missions of this turn patrolling the landing territory."""
    code = landing_territory(state, landing)
    return tuple(a for a in state.missions(enemy(landing.order.side), INTERCEPTION)
                 if a.order.to == code)


def roll_landing(state: CampaignState, landing: AcceptedOrder, interceptor: AcceptedOrder,
                 roller: Roller) -> LandingInterception:
    """One D6 per unit of the intercepting detachment, rolled for its side; a unit without an
    interception value cannot act whatever its die."""
    side = interceptor.order.side
    det = state.detachment(side, interceptor.order.detachments[0])
    dice = []
    for unit in det.units if det is not None else ():
        die = roller.roll("1D6", PURPOSE_INTERCEPTION, side).total
        value = unit.interception_value
        dice.append(UnitDie(unit.name, die, value, value is not None and die < value))
    return LandingInterception(landing.id, landing.order.side, landing.order.detachments[0],
                               landing_territory(state, landing) or "", interceptor.id,
                               interceptor.order.detachments[0], tuple(dice))


def is_landing(state: CampaignState, order: Order) -> bool:
    """A move, attack or reaction of airborne detachments still in orbit (R13)."""
    if order.kind not in ("move", ATTACK, REACTION) or not order.detachments:
        return False
    det = state.detachment(order.side, order.detachments[0])
    return det is not None and det.in_orbit


__all__ = [
    "AIR_MISSION", "AirRefused", "FlakRoll", "Interception", "LandingInterception", "UnitDie",
    "crossed", "failed_transports", "flak_exposure", "interceptions", "is_landing",
    "landing_interceptors", "landing_territory", "mission_order", "return_exposure",
    "return_interception", "roll_flak", "roll_landing", "roll_return_flak", "transport_of",
]
