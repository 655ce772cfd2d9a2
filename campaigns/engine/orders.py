"""Checking and applying one order (infiltration, moves, fortification, attacks, reactions:
R9–R10, R16, R23, R25–R29, R34 with G4, G6–G10, G28). A move names one detachment, or an air
detachment on a transport mission and the detachments of its base it carries (R23).

``check_order`` answers accepted (with the bonus used) or one refusal code with its params, the
first rule the order breaks in a fixed order: phase, territories, detachments, then the rules of
the order's kind, allowances last. ``apply_order`` checks and returns the next state.

The checks of each kind are in ground_orders.py (moves, transports, infiltration, fortify)
and attack_orders.py (attacks, reactions); the refusal and the allowances in allowances.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from campaigns.engine import air_missions
from campaigns.engine.allowances import (
    ALLOWANCE_CODES,
    Allowance,
    OrderRefused,
    Refusal,
    Refuse,
    Verdict,
    allowances,
)
from campaigns.engine.attack_orders import check_attack, check_reaction
from campaigns.engine.ground_orders import (
    check_fortify,
    check_infiltration,
    check_move,
    check_vehicles,
)
from campaigns.engine.map import (
    UnknownTerritory,
    enemy,
    territory,
)
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    FORTIFY,
    INFILTRATION,
    MOVE,
    ORDER_PHASE,
    REACTION,
    VEHICLES,
    AcceptedOrder,
    CampaignState,
    Order,
)

__all__ = ["ALLOWANCE_CODES", "Allowance", "OrderRefused", "Refusal", "Verdict", "allowances",
           "apply_order", "apply_sealed", "check_order", "interleave", "next_order_id"]


def check_order(state: CampaignState, order: Order) -> Verdict:
    try:
        bonus, commander = _check(state, order)
    except Refuse as refused:
        return Verdict(refused.refusal)
    return Verdict(None, bonus, commander)


def _check(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    if state.phase != ORDER_PHASE[order.kind]:
        raise Refuse("phase_closed", phase=state.phase or "")
    for code in (order.from_, order.to):
        if code is not None:
            try:
                territory(code)
            except UnknownTerritory:
                raise Refuse("territory_unknown", territory=str(code)) from None
    if order.kind == AIR_MISSION:
        try:
            air_missions.mission_order(state, order)
        except air_missions.AirRefused as refused:
            raise Refuse(refused.code, **refused.params) from None
        return None, None  # R19–R24: a mission uses no move, attack or reaction
    if order.kind == VEHICLES:
        return check_vehicles(state, order)
    if order.kind == INFILTRATION:
        return check_infiltration(state, order)
    if order.kind == FORTIFY:
        return check_fortify(state, order)
    if order.kind == MOVE:
        return check_move(state, order)
    if order.kind == ATTACK:
        return check_attack(state, order)
    return check_reaction(state, order)



def next_order_id(state: CampaignState) -> int:
    return max((a.id for a in state.orders), default=0) + 1


def apply_order(state: CampaignState, order: Order, order_id: int | None = None
                ) -> tuple[CampaignState, AcceptedOrder]:
    """Check ``order`` and return the state with it accepted (a move moves its detachment at
    once: later orders see it in its new territory). Raises OrderRefused."""
    verdict = check_order(state, order)
    if verdict.refusal is not None:
        raise OrderRefused(verdict.refusal)
    normalised = order
    landing = air_missions.is_landing(state, order)
    if order.kind == AIR_MISSION:
        normalised = air_missions.mission_order(state, order)
    elif order.kind != FORTIFY and order.from_ is None and not landing:
        first = state.detachment(order.side, order.detachments[0])
        normalised = replace(order, from_=first.location if first else None)
    if order.kind == REACTION and order.to is None:
        attack = next(a for a in state.orders if a.id == order.for_attack)
        normalised = replace(normalised, to=attack.order.to)
    accepted = AcceptedOrder(order_id if order_id is not None else next_order_id(state),
                             normalised, verdict.bonus, verdict.commander)
    next_state = replace(state, orders=(*state.orders, accepted))
    if order.kind == MOVE:  # an air transport moves with what it carries (R23)
        next_state = next_state.moved_all(order.side, order.detachments, order.to)
    if landing:
        next_state = _landed(next_state, normalised)
    if order.kind == VEHICLES:
        next_state = _with_vehicles(next_state, order.side, order.detachments, False)
    return next_state, accepted


def _with_vehicles(state: CampaignState, side: str, names, in_orbit: bool) -> CampaignState:
    dets = tuple(replace(d, vehicles_in_orbit=in_orbit and d.has_vehicles)
                 if d.side == side and d.name in names else d for d in state.detachments)
    return replace(state, detachments=dets)


def _landed(state: CampaignState, order: Order) -> CampaignState:
    """R13: landed by a move, the detachment stands in its territory at once. Landing by an
    attack or a reaction it fights the battle from reserves (R30) and comes down in the
    territory if its side wins and it stays (R23 « il peut atterrir sur le territoire
    nouvellement conquis »; R32), or where it retreats; otherwise it goes back to orbit. Its
    vehicles stay in orbit until it spends a move action in a later turn."""
    return _with_vehicles(state, order.side, order.detachments, True)


def interleave(first: str, orders: Mapping[str, Sequence[Order]]) -> tuple[Order, ...]:
    """Sealed declarations (G11) in the seed's alternation: the side the phase-initiative winner
    chose goes first, then one order each (A1, B1, A2, B2…); the longer list ends alone."""
    second = enemy(first)
    mine, theirs = list(orders.get(first, ())), list(orders.get(second, ()))
    out: list[Order] = []
    for index in range(max(len(mine), len(theirs))):
        out += mine[index:index + 1] + theirs[index:index + 1]
    return tuple(out)


def apply_sealed(state: CampaignState, first: str, orders: Mapping[str, Sequence[Order]]
                 ) -> tuple[CampaignState, tuple[tuple[Order, AcceptedOrder | Refusal], ...]]:
    """Apply both sides' sealed orders interleaved; an order that became illegal is refused with
    its code and the others still go through."""
    outcomes: list[tuple[Order, AcceptedOrder | Refusal]] = []
    for one in interleave(first, orders):
        try:
            state, accepted = apply_order(state, one)
        except OrderRefused as refused:
            outcomes.append((one, refused.refusal))
        else:
            outcomes.append((one, accepted))
    return state, tuple(outcomes)
