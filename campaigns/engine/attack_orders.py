"""The checks of attacks and reactions (R9, R13, R23, R28–R29, R34, G7, G8, G10): the line rule,
landing and transport attacks, one attack per territory, and the reactions that answer an
enemy attack the reacting side can see (the state it is checked against leaves out what it
may not know)."""

from __future__ import annotations

from campaigns.engine import air_missions
from campaigns.engine.allowances import Refuse, use_allowance
from campaigns.engine.army import AIR
from campaigns.engine.ground_orders import (
    check_major_guard,
    flies_transport,
    in_orbit,
    listed,
    own,
    single,
    target_of,
    transport_used,
)
from campaigns.engine.map import (
    adjacent,
    enemy,
    home_side,
    line_codes,
    line_of,
    same_line,
    territory,
)
from campaigns.engine.state import (
    ATTACK,
    REACTION,
    CampaignState,
    Order,
)


def _line_requirement(state: CampaignState, side: str, to: str) -> None:
    """R9: attacking the defender's line 2 needs troops in one of its line-1 territories, line 3
    needs troops in its line 1 and in its line 2. G8: only inside the defender's home sector
    (re-taking one's own territory needs adjacency only). G28: air detachments do not count."""
    defender = home_side(to)
    if defender == side:
        return
    for line in range(1, line_of(to)):
        codes = set(line_codes(defender, line))
        if not any(d.side == side and d.holds_ground and d.location in codes
                   for d in state.detachments):
            raise Refuse("line_requirement", territory=to, line=line)


def _uncommitted(state: CampaignState, side: str, names) -> None:
    committed = state.committed(side)
    for name in names:  # G10: a detachment attacks or reacts at most once per turn
        if name in committed:
            raise Refuse("detachment_already_committed", detachment=name)


def _land_attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13/R28: airborne detachments may land by attacking any enemy territory, one attack, no
    adjacency or line rule; they fight from reserves (R30)."""
    to = target_of(order)
    _uncommitted(state, order.side, order.detachments)
    if state.control[to] == order.side:
        raise Refuse("target_friendly", territory=to)
    return use_allowance(state, order.side, ATTACK, None, bonus_allowed=False)


def _transport_attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R28: an air detachment on a transport/ground-attack mission « peut attaquer n'importe
    quel territoire » (its mission's target) using one attack, carrying friendly troops of its
    base (R23); no adjacency or line rule."""
    dets = listed(state, order)
    to = target_of(order)
    for det in dets:
        if det.kind == AIR:
            mission = air_missions.transport_of(state, order.side, det.name)
            if mission is None:
                raise Refuse("air_mission_required", detachment=det.name)
            if transport_used(state, order.side, det.name):
                raise Refuse("transport_already_used", detachment=det.name)
            if mission.order.to != to:
                raise Refuse("transport_target_mismatch", detachment=det.name, territory=to,
                              expected=mission.order.to)
    origin = order.from_ if order.from_ is not None else next(
        d.location for d in dets if d.kind == AIR)
    for det in dets:
        if det.location != origin:
            raise Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    _uncommitted(state, order.side, order.detachments)
    if state.control[to] == order.side:
        raise Refuse("target_friendly", territory=to)
    check_major_guard(state, order.side, origin, {d.name for d in dets})
    return use_allowance(state, order.side, ATTACK, None, bonus_allowed=False)



def check_attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R28: all or some detachments of one territory attack one adjacent enemy territory."""
    if in_orbit(state, order):
        return _land_attack(state, order)
    if flies_transport(state, order):
        return _transport_attack(state, order)
    dets, origin = own(state, order)
    to = target_of(order)
    committed = state.committed(order.side)
    for det in dets:  # G10: a detachment attacks or reacts at most once per turn
        if det.name in committed:
            raise Refuse("detachment_already_committed", detachment=det.name)
    if state.control[to] == order.side:
        raise Refuse("target_friendly", territory=to)
    if not adjacent(origin, to, state.adjacency):
        raise Refuse("not_adjacent", **{"from": origin, "to": to})
    _line_requirement(state, order.side, to)
    check_major_guard(state, order.side, origin, {d.name for d in dets})
    earlier = any(a.order.from_ == origin for a in state.accepted(order.side, (ATTACK,)))
    if earlier and origin in state.isolated:
        # R34: « peuvent seulement déclarer une attaque pour chaque territoire isolé ».
        raise Refuse("isolated_attack_limit", territory=origin)
    if earlier:
        # G7: attacks from one territory against several need the missing multiple-attack rules.
        raise Refuse("multiple_attacks_unsupported", territory=origin)
    # R28: the hasty attack of a Supreme Commander is made « en utilisant un seul détachement ».
    return use_allowance(state, order.side, ATTACK, territory(origin).col,
                      bonus_allowed=len(dets) == 1)


def check_reaction(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R29: one detachment from a territory not under attack, adjacent to the attacked one or
    in the same line of resistance, joins the defence."""
    single(order)
    attack = next((a for a in state.accepted(enemy(order.side), (ATTACK,))
                   if a.id == order.for_attack), None)
    if attack is None:
        raise Refuse("reaction_attack_unknown", for_attack=order.for_attack)
    target = attack.order.to
    if order.to is not None and order.to != target:
        raise Refuse("reaction_target_mismatch", territory=order.to, attacked=target)
    if in_orbit(state, order) or _transport_reaction(state, order):
        # R13: an airborne detachment may land by reacting to any attack; R29: an air
        # detachment on a transport mission « peut réagir à une attaque sur n'importe quel
        # territoire ». One reaction each, no adjacency or line rule.
        _uncommitted(state, order.side, order.detachments)
        return use_allowance(state, order.side, REACTION, None, bonus_allowed=False)
    (det,), origin = own(state, order)
    if origin in state.isolated:  # R34: « … dans les phases de mouvement et de réaction »
        raise Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if det.name in state.committed(order.side):  # G10
        raise Refuse("detachment_already_committed", detachment=det.name)
    if origin in state.attacked():  # G10: « non attaqué » when the reaction is declared
        raise Refuse("reaction_source_under_attack", territory=origin)
    if not (adjacent(origin, target, state.adjacency) or same_line(origin, target)):
        raise Refuse("reaction_source_not_adjacent", **{"from": origin, "to": target})
    check_major_guard(state, order.side, origin, {det.name})
    return use_allowance(state, order.side, REACTION, None, bonus_allowed=False)


def _transport_reaction(state: CampaignState, order: Order) -> bool:
    det = state.detachment(order.side, order.detachments[0])
    if det is None or det.kind != AIR or not det.on_map:
        return False
    if air_missions.transport_of(state, order.side, det.name) is None:
        raise Refuse("air_mission_required", detachment=det.name)
    if transport_used(state, order.side, det.name):  # its one mission carried troops (R23)
        raise Refuse("transport_already_used", detachment=det.name)
    return True
