"""The orders a side may declare now, for the player's page: candidate orders built from the
map, kept only when the engine's ``check_order`` accepts them (league/campaign/orders.py), so a
form offers legal choices only. The server checks again when one is sent (the state may have
moved on), through the same order service as the API.

A choice travels as a token of the side's own detachment ids and territory codes: nothing in
it names or points at an enemy detachment (R12)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from django.utils.translation import gettext as _

from league.campaign import map as grid
from league.campaign.army import AIR
from league.campaign.orders import check_order
from league.campaign.state import (
    ATTACK,
    ATTACKS_PHASE,
    FORTIFY,
    INFILTRATION,
    INFILTRATION_PHASE,
    MOVE,
    MOVES_PHASE,
    REACTION,
    CampaignState,
    Detachment,
    Order,
)

# All subsets of a territory's detachments up to this many; beyond, the whole group, the
# group less one (to leave a major's guard, R10) and each one alone (the hasty attack, R28).
ALL_SUBSETS_UP_TO = 3
KINDS_BY_PHASE: Mapping[str, tuple[str, ...]] = {
    INFILTRATION_PHASE: (INFILTRATION,), MOVES_PHASE: (MOVE, FORTIFY),
    ATTACKS_PHASE: (ATTACK, REACTION)}


@dataclass(frozen=True)
class Choice:
    token: str
    order: Order
    label: str
    bonus: str | None


def token_of(order: Order, ids: Mapping[str, int]) -> str:
    names = ",".join(str(ids[name]) for name in order.detachments)
    return "|".join((names, order.from_ or "", order.to or "", str(order.for_attack or "")))


def order_of(token: str, side: str, kind: str, names: Mapping[int, str]) -> Order | None:
    """The order a posted token stands for, or None when it is not one this side could send."""
    parts = token.split("|")
    if len(parts) != 4:
        return None
    pks, origin, to, attack = parts
    try:
        chosen = tuple(names[int(pk)] for pk in pks.split(",") if pk)
        for_attack = int(attack) if attack else None
    except (KeyError, ValueError):
        return None
    if any(code and code not in grid.TERRITORIES for code in (origin, to)):
        return None
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
    if order.kind == ATTACK:
        return _("%(from)s → %(to)s with %(detachments)s") % {
            "from": order.from_, "to": order.to, "detachments": ", ".join(order.detachments)}
    return order_label(order)


def _bonus_label(label: str, commander: str | None) -> str:
    # R26/R28: the Supreme Commander's extra move or hasty attack, once the regular ones are used.
    return _("%(order)s (extra action of %(commander)s)") % {"order": label, "commander": commander}


def _candidates(state: CampaignState, side: str, kind: str) -> list[Order]:
    ready = _ready(state, side)
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


def choices(state: CampaignState, side: str, ids: Mapping[str, int]) -> dict[str, list[Choice]]:
    """Per order kind of the open phase, the orders the engine accepts for ``side`` now."""
    out: dict[str, list[Choice]] = {}
    for kind in KINDS_BY_PHASE.get(state.phase or "", ()):
        kept = []
        for order in _candidates(state, side, kind):
            verdict = check_order(state, order)
            if verdict.refusal is not None:
                continue
            label = _choice_label(order)
            if verdict.bonus:
                label = _bonus_label(label, verdict.commander)
            kept.append(Choice(token_of(order, ids), order, label, verdict.bonus))
        out[kind] = kept
    return out


def order_label(order: Order) -> str:
    """An accepted order in words (the player's own orders)."""
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
