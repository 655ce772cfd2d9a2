"""The orders a side may declare now, for the player's page: candidate orders built from the
map, kept only when the engine's ``check_order`` accepts them (campaigns/engine/orders.py), so a
form offers legal choices only. The server checks again when one is sent (the state may have
moved on), through the same order service as the API.

A choice travels as a token of the side's own detachment ids and territory codes: nothing in
it names or points at an enemy detachment (R12)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.engine import map as grid
from campaigns.engine.air_missions import transport_of
from campaigns.engine.army import AIR
from campaigns.engine.orders import check_order
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    ESCORT,
    FORTIFY,
    INFILTRATION,
    INTERCEPTION,
    MISSIONS,
    MOVE,
    PHASE_KINDS,
    REACTION,
    TRANSPORT,
    VEHICLES,
    CampaignState,
    Detachment,
    Order,
)
from campaigns.words import MISSIONS as MISSION_WORDS
from campaigns.words import ORDER_KINDS as ORDER_WORDS
from campaigns.words import word
from config.typography import elide

# All subsets of a territory's detachments up to this many; beyond, the whole group, the
# group less one (to leave a major's guard, R10) and each one alone (the hasty attack, R28).
ALL_SUBSETS_UP_TO = 3


@dataclass(frozen=True)
class Choice:
    token: str
    order: Order
    label: str
    bonus: str | None


def token_of(order: Order, ids: Mapping[str, int]) -> str:
    names = ",".join(str(ids[name]) for name in order.detachments)
    parts = [names, order.from_ or "", order.to or "", str(order.for_attack or "")]
    if order.kind == AIR_MISSION:  # the route is the shortest one, rebuilt from the codes
        parts += [order.mission or "", str(order.escort_of or ""), "1" if order.route else ""]
    return "|".join(parts)


def shortest_route(start: str, end: str, adjacency: str = grid.ORTHOGONAL) -> tuple[str, ...]:
    """R20/R23: a route the page offers: the fewest steps from ``start`` to ``end`` (the target
    last), the first in map order among equals; () when they are the same territory."""
    before: dict[str, str | None] = {start: None}
    queue = [start]
    for code in queue:
        if code == end:
            break
        for step in sorted(grid.neighbours(code, adjacency), key=grid.CODES.index):
            if step not in before:
                before[step] = code
                queue.append(step)
    route: list[str] = []
    code: str | None = end
    while code is not None and code != start:
        route.append(code)
        code = before.get(code)
    return tuple(reversed(route))


def _air(side: str, name: str, base: str, mission: str, to: str | None, adjacency: str,
         escort_of: int | None = None, routed: bool = True) -> Order:
    route = shortest_route(base, to, adjacency) if to is not None and routed else ()
    back = tuple(reversed((base, *route[:-1]))) if route else ()
    return Order(side, AIR_MISSION, (name,), base, to, mission=mission, route=route,
                 return_route=back, escort_of=escort_of)


def order_of(token: str, side: str, kind: str, names: Mapping[int, str],
             adjacency: str = grid.ORTHOGONAL) -> Order | None:
    """The order a posted token stands for, or None when it is not one this side could send."""
    parts = token.split("|")
    if len(parts) not in (4, 7):
        return None
    pks, origin, to, attack = parts[:4]
    try:
        chosen = tuple(names[int(pk)] for pk in pks.split(",") if pk)
        for_attack = int(attack) if attack else None
        escort_of = int(parts[5]) if len(parts) == 7 and parts[5] else None
    except (KeyError, ValueError):
        return None
    if any(code and code not in grid.TERRITORIES for code in (origin, to)):
        return None
    if kind == AIR_MISSION:
        if len(parts) != 7 or parts[4] not in MISSIONS or len(chosen) != 1 or not origin:
            return None
        return _air(side, chosen[0], origin, parts[4], to or None, adjacency, escort_of,
                    routed=parts[6] == "1")
    return Order(side, kind, chosen, origin or None, to or None,
                 for_attack if kind == REACTION else None)


def _ready(state: CampaignState, side: str) -> list[Detachment]:
    """The side's detachments that take orders on the ground (R19–R24: air ones fly missions)."""
    return [d for d in state.detachments if d.side == side and d.on_map and d.kind != AIR]


def _groups(names: Sequence[str]) -> list[tuple[str, ...]]:
    if len(names) <= ALL_SUBSETS_UP_TO:
        return [group for size in range(len(names), 0, -1) for group in combinations(names, size)]
    groups = [tuple(names)]
    groups += [tuple(n for n in names if n != left) for left in names]
    groups += [(name,) for name in names]
    return groups


def _move_label(order: Order) -> str:
    return _("%(detachment)s: %(from)s → %(to)s") % {
        "detachment": order.detachments[0], "from": order.from_, "to": order.to}


def _choice_label(order: Order) -> str:
    """As ``order_label``, without the kind the form's heading already says."""
    if order.kind == ATTACK and order.from_ is not None:
        return _("%(from)s → %(to)s with %(detachments)s") % {
            "from": order.from_, "to": order.to, "detachments": ", ".join(order.detachments)}
    return order_label(order)


def _bonus_label(label: str, commander: str | None) -> str:
    # R26/R28: the Supreme Commander's extra move or hasty attack, once the regular ones are used.
    return elide(_("%(order)s (extra action of %(commander)s)")
                 % {"order": label, "commander": commander})


def _missions(state: CampaignState, side: str) -> list[Order]:
    """R20–R24: per air detachment, each mission to each territory by the shortest route; an
    escort with each own infiltration or transport mission (or alone)."""
    out = []
    fliers = [d for d in state.detachments if d.side == side and d.on_map and d.kind == AIR]
    for det in fliers:
        base, adj = det.location, state.adjacency
        for to in grid.CODES:
            for mission in (INTERCEPTION, TRANSPORT, "infiltration", ESCORT):
                if to != base or mission == INTERCEPTION:
                    out.append(_air(side, det.name, base, mission, to, adj))
        for escorted in state.missions(side):
            out.append(_air(side, det.name, base, ESCORT, escorted.order.to, adj, escorted.id,
                            routed=escorted.order.from_ != base))
    return out


def _landings(state: CampaignState, side: str, kind: str) -> list[Order]:
    """R13: airborne detachments in orbit land by a move into a friendly territory, an attack
    on an enemy one or a reaction to any attack; R28/R29: transports attack their target (with
    the ground detachments of their base) and react anywhere."""
    orbit = [d for d in state.detachments if d.side == side and d.in_orbit]
    if kind == MOVE:
        return [Order(side, MOVE, (d.name,), None, code) for d in orbit for code in grid.CODES
                if state.control[code] == side] + _transport_moves(state, side)
    if kind == ATTACK:
        out = [Order(side, ATTACK, (d.name,), None, code) for d in orbit for code in grid.CODES
               if state.control[code] != side]
        for det in state.detachments:
            mission = transport_of(state, side, det.name) if det.side == side else None
            if mission is None or not det.on_map:
                continue
            ground = [d.name for d in _ready(state, side) if d.location == det.location]
            for group in [(), *_groups(ground)]:
                out.append(Order(side, ATTACK, (det.name, *group), det.location, mission.order.to))
        return out
    fliers = orbit + [d for d in state.detachments if d.side == side and d.on_map
                      and transport_of(state, side, d.name) is not None]
    return [Order(side, REACTION, (d.name,), d.location, a.order.to, a.id)
            for a in state.accepted(grid.enemy(side), (ATTACK,)) for d in fliers]


def _transport_moves(state: CampaignState, side: str) -> list[Order]:
    """R23: an air detachment on a transport mission to a friendly territory carries ground (or
    landed airborne) detachments of its base there, the carrier named first."""
    out = []
    for det in state.detachments:
        mission = transport_of(state, side, det.name) if det.side == side else None
        if mission is None or not det.on_map or state.control[mission.order.to] != side:
            continue
        ground = [d.name for d in _ready(state, side) if d.location == det.location]
        out += [Order(side, MOVE, (det.name, *group), det.location, mission.order.to)
                for group in _groups(ground)]
    return out


def _candidates(state: CampaignState, side: str, kind: str) -> list[Order]:
    ready = _ready(state, side)
    if kind == AIR_MISSION:
        return _missions(state, side)
    if kind == VEHICLES:  # R13: the move action that brings a landed detachment's vehicles down
        return [Order(side, VEHICLES, (d.name,), d.location) for d in ready if d.vehicles_in_orbit]
    landings = _landings(state, side, kind) if kind in (MOVE, ATTACK, REACTION) else []
    return _ground(state, side, kind, ready) + landings


def _ground(state: CampaignState, side: str, kind: str, ready: list[Detachment]) -> list[Order]:
    if kind == INFILTRATION:  # R25: an adjacent enemy territory, by a detachment with infiltrators
        return [Order(side, INFILTRATION, (d.name,), d.location, to)
                for d in ready if d.infiltrators
                for to in sorted(grid.neighbours(d.location, state.adjacency))]
    if kind == MOVE:
        return [Order(side, MOVE, (d.name,), d.location, to)
                for d in ready for to in sorted(grid.neighbours(d.location, state.adjacency))]
    if kind == FORTIFY:
        return [Order(side, FORTIFY, (), None, code)
                for code in grid.CODES if state.control[code] == side]
    if kind == ATTACK:
        committed = state.committed(side)
        out = []
        for code in grid.CODES:
            names = [d.name for d in ready if d.location == code and d.name not in committed]
            targets = sorted(t for t in grid.neighbours(code, state.adjacency)
                             if state.control[t] != side)
            out += [Order(side, ATTACK, group, code, to) for to in targets for group in _groups(names)]
        return out
    attacks = state.accepted(grid.enemy(side), (ATTACK,))
    return [Order(side, REACTION, (d.name,), d.location, a.order.to, a.id)
            for a in attacks for d in ready]


def shown(order: Order, public: Mapping[int, int]) -> Order:
    """``order`` naming the orders it answers (an attack, an escorted mission) by the ids players
    read (campaigns/services/order_numbers.py) instead of the engine's."""
    return replace(order, for_attack=public.get(order.for_attack, order.for_attack)
                   if order.for_attack is not None else None,
                   escort_of=public.get(order.escort_of, order.escort_of)
                   if order.escort_of is not None else None)


def choices(state: CampaignState, side: str, ids: Mapping[str, int],
            public: Mapping[int, int] | None = None) -> dict[str, list[Choice]]:
    """Per order kind of the open phase, the orders the engine accepts for ``side`` now; their
    tokens and labels name other orders by ``public`` ids (engine id → public id)."""
    public = {} if public is None else public
    out: dict[str, list[Choice]] = {}
    for kind in PHASE_KINDS.get(state.phase or "", ()):
        kept = []
        for order in _candidates(state, side, kind):
            verdict = check_order(state, order)
            if verdict.refusal is not None:
                continue
            told = shown(order, public)
            label = _choice_label(told)
            if verdict.bonus:
                label = _bonus_label(label, verdict.commander)
            kept.append(Choice(token_of(told, ids), order, label, verdict.bonus))
        out[kind] = kept
    return out


def mission_label(order: Order) -> str:
    """R19: an air mission, its target and route."""
    words = {"detachment": order.detachments[0], "mission": word(MISSION_WORDS, order.mission),
             "to": order.to, "route": " → ".join((order.from_ or "", *order.route))}
    if order.escort_of:
        return _("%(detachment)s: escort of mission %(escort_of)s to %(to)s (%(route)s)") % {
            **words, "escort_of": order.escort_of}
    if not order.route:
        return _("%(detachment)s: %(mission)s over %(to)s") % words
    return _("%(detachment)s: %(mission)s to %(to)s (%(route)s)") % words


def order_label(order: Order) -> str:
    """An accepted order in words (the player's own orders)."""
    if order.kind == AIR_MISSION:
        return mission_label(order)
    if order.kind == VEHICLES:
        return _("%(detachment)s brings its vehicles down from orbit") % {
            "detachment": order.detachments[0]}
    if order.kind in (MOVE, ATTACK, REACTION) and order.from_ is None:
        return ngettext("%(detachments)s lands from orbit: %(kind)s on %(to)s",
                        "%(detachments)s land from orbit: %(kind)s on %(to)s",
                        len(order.detachments)) % {
            "detachments": ", ".join(order.detachments), "kind": word(ORDER_WORDS, order.kind),
            "to": order.to}
    if order.kind == MOVE and len(order.detachments) > 1:  # R23: an air transport
        return _("Air transport %(from)s → %(to)s by %(carrier)s carrying %(detachments)s") % {
            "from": order.from_, "to": order.to, "carrier": order.detachments[0],
            "detachments": ", ".join(order.detachments[1:])}
    if order.kind == MOVE:
        return _move_label(order)
    if order.kind == FORTIFY:
        return _("Fortify %(territory)s") % {"territory": order.to}
    if order.kind == INFILTRATION:
        return _("%(detachment)s infiltrates %(to)s from %(from)s") % {
            "detachment": order.detachments[0], "from": order.from_, "to": order.to}
    if order.kind == ATTACK:
        return _("Attack %(from)s → %(to)s with %(detachments)s") % {
            "from": order.from_, "to": order.to, "detachments": ", ".join(order.detachments)}
    return _("%(detachment)s from %(from)s defends %(to)s") % {
        "detachment": order.detachments[0], "from": order.from_, "to": order.to}
