"""The checks of the orders that move or look (R9–R10, R13, R23, R25–R27, R34, G9, G28): the
detachments an order names, the guard of a major, landings from orbit, moves and air
transports, vehicles brought down, infiltrations and fortifications. Each check raises
``Refuse`` with the first rule the order breaks, or answers the bonus it uses."""

from __future__ import annotations

from campaigns.engine import air_missions
from campaigns.engine.allowances import Refuse, use_allowance
from campaigns.engine.army import AIR, AIRBORNE
from campaigns.engine.map import (
    adjacent,
    home_side,
    territory,
)
from campaigns.engine.state import (
    FORTIFY,
    INFILTRATION,
    MOVE,
    CampaignState,
    Detachment,
    Order,
)


def listed(state: CampaignState, order: Order) -> list[Detachment]:
    """The order's detachments, each named once and standing on the map."""
    if len(set(order.detachments)) != len(order.detachments):
        raise Refuse("detachment_listed_twice")
    dets = []
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is None:
            raise Refuse("detachment_unknown", detachment=name)
        if not det.on_map:
            raise Refuse("detachment_not_on_map", detachment=name)
        dets.append(det)
    return dets


def own(state: CampaignState, order: Order) -> tuple[tuple[Detachment, ...], str]:
    """The ordered detachments and the territory they act from (all in one territory)."""
    if not order.detachments:
        raise Refuse("detachments_required")
    dets = listed(state, order)
    for det in dets:
        if det.kind == AIR:
            # R19–R24: air detachments act through air missions, declared in the air phase.
            raise Refuse("air_mission_required", detachment=det.name)
    origin = order.from_ if order.from_ is not None else dets[0].location
    for det in dets:
        if det.location != origin:
            raise Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    return tuple(dets), origin


def single(order: Order) -> None:
    # R26 « Chaque mouvement peut affecter un détachement »; R29 « Chaque réaction affecte un
    # détachement ».
    if len(order.detachments) != 1:
        raise Refuse("single_detachment_required", kind=order.kind)


def target_of(order: Order) -> str:
    if order.to is None:
        raise Refuse("territory_required")
    return order.to


def check_major_guard(state: CampaignState, side: str, code: str, leaving: set[str]) -> None:
    """R10 « Chaque territoire majeur doit toujours avoir un détachement pour le protéger »: a
    side's own major that it holds keeps one ground detachment (G28) that is neither leaving nor
    already committed to a battle elsewhere."""
    if code not in state.majors or home_side(code) != side or state.control[code] != side:
        return
    committed = state.committed(side)
    if not any(d.holds_ground and d.name not in leaving and d.name not in committed
               for d in state.at(code, side)):
        raise Refuse("major_unguarded", territory=code)


def in_orbit(state: CampaignState, order: Order) -> bool:
    """R13: the order lands airborne detachments still in orbit (all of them, or refused)."""
    if not air_missions.is_landing(state, order):
        return False
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is None:
            raise Refuse("detachment_unknown", detachment=name)
        if not det.in_orbit:
            raise Refuse("landing_mixed", detachment=name)
    if len(set(order.detachments)) != len(order.detachments):
        raise Refuse("detachment_listed_twice")
    if order.from_ is not None:
        raise Refuse("detachment_not_in_territory", detachment=order.detachments[0],
                      territory=order.from_)
    return True


def _land_move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13: an airborne detachment lands in the moves phase in any friendly territory, using one
    move (no adjacency: it comes from orbit)."""
    to = target_of(order)
    if state.control[to] != order.side:  # G9: an enemy territory is entered by an attack
        raise Refuse("move_into_enemy", territory=to)
    return use_allowance(state, order.side, MOVE, None, bonus_allowed=False)


def check_vehicles(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13: « Le détachement doit dépenser une action de mouvement au tour suivant le
    débarquement » for its vehicles to join it: one move, in a turn after the landing."""
    single(order)
    (det,), origin = own(state, order)
    if not det.vehicles_in_orbit:
        raise Refuse("no_vehicles_in_orbit", detachment=det.name)
    if any(det.name in a.order.detachments for a in state.landings(order.side)):
        raise Refuse("vehicles_next_turn", detachment=det.name)
    if origin in state.isolated:  # R34: no move actions for isolated detachments
        raise Refuse("detachment_isolated", detachment=det.name, territory=origin)
    return use_allowance(state, order.side, MOVE, territory(origin).col, bonus_allowed=True)


def check_move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    if flies_transport(state, order):
        return _transport_move(state, order)
    single(order)
    if in_orbit(state, order):
        return _land_move(state, order)
    (det,), origin = own(state, order)
    to = target_of(order)
    if origin in state.isolated:  # R34: « ne peuvent plus être utilisés dans les phases de mouvement »
        raise Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if not adjacent(origin, to, state.adjacency):  # R26 « vers un territoire adjacent », G4
        raise Refuse("not_adjacent", **{"from": origin, "to": to})
    if state.control[to] != order.side:  # G9: entering enemy territory is an attack
        raise Refuse("move_into_enemy", territory=to)
    check_major_guard(state, order.side, origin, {det.name})
    return use_allowance(state, order.side, MOVE, territory(origin).col, bonus_allowed=True)


def transport_used(state: CampaignState, side: str, name: str) -> bool:
    """The air detachment already carried troops this turn (one move per transport)."""
    return any(name in a.order.detachments for a in state.accepted(side, (MOVE,)))


def _transport_move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R23 « peuvent transporter des troupes amies »: in the moves phase, an air detachment on
    a transport mission carries ground (or landed airborne) detachments of its base to the
    mission's target when it is friendly, whatever the distance; they all land there.

    [Gap] The seed does not say what such a transport costs. Read as R28 counts one attack per
    transport: the whole transport (the air detachment and what it carries) uses ONE move, not
    one per detachment; the Supreme Commander's extra move is for « un détachement se trouvant
    sur cette ligne » (R26) and does not apply. One air detachment carries at least one
    detachment and only once a turn (its one mission); it does not change base alone (G28 says
    where air detachments are based, not how they move). R10 still holds for the base (the
    carried detachments leave it); G9 still refuses an enemy target (that is an attack, R28).
    R34: out of an isolated territory only airborne detachments may be carried (« les unités
    aéroportées qui sont isolées peuvent déclarer un mouvement s'il les mène jusqu'à un
    territoire allié »)."""
    dets = listed(state, order)
    fliers = [d for d in dets if d.kind == AIR]
    carrier = fliers[0]
    if len(fliers) > 1:
        raise Refuse("transport_single_carrier", detachment=fliers[1].name)
    mission = air_missions.transport_of(state, order.side, carrier.name)
    if mission is None:
        raise Refuse("air_mission_required", detachment=carrier.name)
    if transport_used(state, order.side, carrier.name):
        raise Refuse("transport_already_used", detachment=carrier.name)
    to = target_of(order)
    if mission.order.to != to:
        raise Refuse("transport_target_mismatch", detachment=carrier.name, territory=to,
                      expected=mission.order.to)
    origin = order.from_ if order.from_ is not None else carrier.location
    for det in dets:
        if det.location != origin:
            raise Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    carried = [d for d in dets if d is not carrier]
    if not carried:
        raise Refuse("transport_troops_required", detachment=carrier.name)
    if state.control[to] != order.side:  # G9: entering enemy territory is an attack
        raise Refuse("move_into_enemy", territory=to)
    if origin in state.isolated:
        for det in carried:
            if det.kind != AIRBORNE:  # R34: the exception is for airborne units only
                raise Refuse("detachment_isolated", detachment=det.name, territory=origin)
    check_major_guard(state, order.side, origin, {d.name for d in carried})
    return use_allowance(state, order.side, MOVE, None, bonus_allowed=False)


def check_infiltration(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R25: a ground detachment with at least one infiltrator unit, from a territory adjacent
    to the enemy territory it infiltrates; R20 read for ground detachments too: one infiltration
    per detachment per turn. It uses no move, attack or reaction and commits nobody (G10)."""
    single(order)
    (det,), origin = own(state, order)
    to = target_of(order)
    if origin in state.isolated:  # as for moves: R34 leaves isolated detachments only one attack
        raise Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if not det.infiltrators:
        raise Refuse("not_infiltrator", detachment=det.name)
    if state.control[to] == order.side:
        raise Refuse("target_friendly", territory=to)
    if not adjacent(origin, to, state.adjacency):  # R25 « à partir d'un territoire adjacent »
        raise Refuse("infiltration_not_adjacent", **{"from": origin, "to": to})
    if any(det.name in a.order.detachments for a in state.accepted(order.side, (INFILTRATION,))):
        raise Refuse("mission_already_used", detachment=det.name)
    return None, None


def check_fortify(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R27: « Ceci utilise un mouvement par territoire »; the territory is fortified at the close
    if still held. The Supreme Commander's extra move is for a detachment, so not for this."""
    to = target_of(order)
    if state.control[to] != order.side:
        raise Refuse("territory_not_controlled", territory=to)
    requested = {a.order.to for a in state.accepted(order.side, (FORTIFY,))}
    if to in state.fortified or to in requested:
        raise Refuse("already_fortified", territory=to)
    return use_allowance(state, order.side, MOVE, None, bonus_allowed=False)



def flies_transport(state: CampaignState, order: Order) -> bool:
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is not None and det.kind == AIR and det.on_map:
            return True
    return False
