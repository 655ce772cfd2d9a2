"""Organisers' corrections of a campaign, each with a reason kept in the audit log: an accepted
order refused after all, a refused order forced through, a manual line of the score ledger.

systems/epic-campaign.md §1.7: « per-order refuse/cancel with a reason (audit); score ledger
with manual entry (reason required) »; G7: « staff can override one order with a reason ». The
engine still checks what it can: refusing an order replays the turn's other orders without it
(campaigns/engine/orders.py), and a later order that would then be refused blocks it; only the
refusals of a rule can be forced, never those that would leave the engine without a detachment,
a territory or a phase to read."""
from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from campaigns.engine import air_missions
from campaigns.engine import map as grid
from campaigns.engine.orders import Refusal, check_order
from campaigns.engine.replay import replay
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    MOVE,
    REACTION,
    AcceptedOrder,
    CampaignState,
    Order,
)
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignScoreEntry
from campaigns.services import declarations as campaign_declarations
from campaigns.services import order_numbers
from campaigns.services.battles import BATTLES_PHASE
from campaigns.services.campaign import (
    FORCED_ACTION,
    accepted_order,
    forced_ids,
    locked,
    require_staff,
    require_status,
    state_of,
    turn_row,
)
from campaigns.services.turns import OrderInput, declare_order
from events.audit import Actor, record
from events.errors import Conflict, Invalid, NotFound

RUNNING = Campaign.Status.RUNNING
MANUAL = "manual"  # the ledger kind of an organiser's entry
REASON_MAX = 500
MANUAL_POINTS_MAX = 100

# The refusals of a rule an organiser may set aside (G7 names multiple attacks; the others are
# the same kind of rule: adjacency, lines, guards, isolation, allowances). Everything else
# (unknown detachment or territory, phase, one detachment per move, a detachment acting twice,
# a move into enemy ground) would give the engine a state it cannot read.
OVERRIDABLE = frozenset({
    "not_adjacent", "line_requirement", "major_unguarded", "detachment_isolated",
    "isolated_attack_limit", "move_allowance_exceeded", "attack_allowance_exceeded",
    "reaction_allowance_exceeded", "reaction_source_under_attack", "reaction_source_not_adjacent",
    "multiple_attacks_unsupported", "escort_not_in_isolated_territory",
})


def _reason(text: str) -> str:
    reason = (text or "").strip()
    if not reason:
        raise Invalid(_("Give a reason: it is kept in the audit log."), "reason_required")
    return reason[:REASON_MAX]


# Forcing an order through ---------------------------------------------------------------------

@dataclass(frozen=True)
class Forced:
    """The stored order and the refusal that was set aside (None: the engine accepted it)."""

    order: CampaignOrder
    refusal: Refusal | None


def _invariant_problem(state: CampaignState, order: Order) -> str | None:
    """What the engine assumes of every stored order, whatever the refusal set aside: a move
    stays in friendly ground (G9), an attack targets the enemy, a detachment attacks or reacts
    once (G10), since check_order stops at the first rule broken."""
    if order.kind == MOVE and order.to and state.control[order.to] != order.side:
        return "move_into_enemy"
    if order.kind == ATTACK and order.to and state.control[order.to] == order.side:
        return "target_friendly"
    if order.kind in (ATTACK, REACTION) and set(order.detachments) & state.committed(order.side):
        return "detachment_already_committed"
    return None


def _normalised(state: CampaignState, order: Order) -> Order:
    """The order as apply_order stores it: ``from`` from the first detachment, a reaction's
    ``to`` from the attack it answers, an air mission filled in as the engine fills it (base,
    patrolled territory, an escort's target and route) with the isolation set aside (R34: the
    only air refusal an organiser may force)."""
    if order.kind == AIR_MISSION:
        with suppress(air_missions.AirRefused):
            order = air_missions.mission_order(replace(state, isolated=frozenset()), order)
    if order.from_ is None and order.detachments:
        first = state.detachment(order.side, order.detachments[0])
        order = replace(order, from_=first.location if first else None)
    if order.kind == REACTION and order.to is None:
        attack = next(a for a in state.orders if a.id == order.for_attack)
        order = replace(order, to=attack.order.to)
    return order


@transaction.atomic
def force_order(actor: Actor, campaign: Campaign, number: int, request: OrderInput,
                reason: str) -> Forced:
    """Declare an order for a side; a refusal of a rule (``OVERRIDABLE``) is set aside and the
    order stored as accepted, with the refusal and the reason in the audit log."""
    require_staff(actor)
    why = _reason(reason)
    row = locked(campaign)
    require_status(row, RUNNING)
    if request.side not in grid.SIDES:
        raise Invalid(_("Say which side this is for (“side”)."), "side_required")
    turn = turn_row(row, number)
    state = state_of(row, turn)
    air = request.kind == AIR_MISSION  # R19–R24: the mission's own fields, as declare_order
    order = Order(request.side, request.kind, request.detachments, request.from_, request.to,
                  request.for_attack if request.kind == REACTION else None,
                  request.mission if air else None, request.route if air else (),
                  request.return_route if air else (), request.escort_of if air else None)
    verdict = check_order(state, order)
    if verdict.refusal is None:
        # The organisers name orders by their database key (the cockpit's list); the players'
        # path names them by their public number (campaigns/services/order_numbers.py).
        ids = order_numbers.TurnIds(turn)
        saved = declare_order(actor, row, number, replace(
            request, for_attack=order_numbers.linked_id(request.for_attack, ids),
            escort_of=order_numbers.linked_id(request.escort_of, ids)))
        record(actor, FORCED_ACTION, row.tournament, saved,
               {"campaign": row.slug, "turn": number, "order": saved.pk, "refusal": None,
                "reason": why})
        return Forced(saved, None)
    code, params = verdict.refusal.code, dict(verdict.refusal.params)
    problem = code if code not in OVERRIDABLE else _invariant_problem(state, order)
    if problem is not None:
        shown = campaign_message(problem, params if problem == code else _params(order))
        raise Conflict(_("This order cannot be forced: %(reason)s") % {"reason": shown},
                       "override_not_allowed")
    done = _normalised(state, order)
    saved = CampaignOrder.objects.create(
        turn=turn, side=done.side, kind=done.kind, detachments=list(done.detachments),
        from_code=done.from_ or "", to_code=done.to or "", for_attack_id=done.for_attack,
        status=campaign_declarations.status_for(row),
        number=order_numbers.next_number(turn, done.side),
        mission=done.mission or "", route=list(done.route), return_route=list(done.return_route),
        escort_of_id=done.escort_of, created_by=actor.user if actor.user_id else None)
    if done.kind == MOVE:
        for name in done.detachments:  # an air transport moves with what it carries (R23)
            _move(row, done.side, name, done.to or "")
    record(actor, FORCED_ACTION, row.tournament, saved,
           {"campaign": row.slug, "turn": number, "order": saved.pk, "side": done.side,
            "kind": done.kind, "detachments": list(done.detachments), "from": done.from_,
            "to": done.to, "for_attack": done.for_attack, "refusal": code, "params": params,
            "reason": why,
            **({"mission": done.mission, "route": list(done.route),
                "return_route": list(done.return_route), "escort_of": done.escort_of}
               if done.mission else {})})
    return Forced(saved, verdict.refusal)


def _params(order: Order) -> dict[str, object]:
    return {"territory": order.to or "", "detachment": ", ".join(order.detachments)}


def _move(campaign: Campaign, side: str, name: str, to: str) -> None:
    CampaignDetachment.objects.filter(side__campaign=campaign, side__side=side,
                                      name=name).update(location=to)


# Refusing an accepted order ---------------------------------------------------------------------

@transaction.atomic
def refuse_order(actor: Actor, campaign: Campaign, order_id: int, reason: str) -> CampaignOrder:
    """Take back an accepted order of the open turn (an attack with the reactions to it) before
    its battles exist; a move's detachment goes back. Refused (409 ``order_needed``) when a
    later order of the turn would then break a rule."""
    require_staff(actor)
    why = _reason(reason)
    row = locked(campaign)
    require_status(row, RUNNING)
    found = CampaignOrder.objects.select_related("turn").filter(
        pk=order_id, turn__campaign=row).first()
    if found is None:
        raise NotFound(_("This campaign has no such order."), "order_not_found")
    turn = turn_row(row, found.turn.number)
    if turn.phase == BATTLES_PHASE:
        raise Conflict(_("The battles of this turn are generated: its orders are fixed."),
                       "battles_generated")
    rows = list(turn.orders.exclude(status=CampaignOrder.REFUSED).order_by("pk"))
    dropped = {found.pk} | {o.pk for o in rows if o.for_attack_id == found.pk}
    state = state_of(row, turn)
    kept = [accepted_order(o) for o in rows if o.pk not in dropped]
    _after, now, broken = replay(state, kept, forced_ids(row, turn))
    if broken is not None:
        later, why_not = broken
        raise refusal_of_later(later, why_not)
    for o in rows:
        if o.pk in now and (o.bonus or None, o.commander or None) != (now[o.pk].bonus,
                                                                      now[o.pk].commander):
            o.bonus, o.commander = now[o.pk].bonus or "", now[o.pk].commander or ""
            o.save(update_fields=["bonus", "commander"])
    if found.kind == MOVE:
        for name in found.detachments:  # an air transport and what it carries (R23)
            _move(row, found.side, name, found.from_code)
    record(actor, "campaign_order_refused", row.tournament, found,
           {"campaign": row.slug, "turn": turn.number, "order": found.pk, "side": found.side,
            "kind": found.kind, "detachments": list(found.detachments), "from": found.from_code,
            "to": found.to_code, "reactions": sorted(dropped - {found.pk}), "reason": why})
    CampaignOrder.objects.filter(pk__in=dropped).delete()
    return found


def refusal_of_later(later: AcceptedOrder, why_not: Refusal) -> Conflict:
    sentence = campaign_message(why_not.code, why_not.params)
    return Conflict(_("Order %(order)s depends on this one: without it, it would be refused (%(reason)s). "
                      "Refuse that order first.") % {"order": later.id, "reason": sentence},
                    "order_needed")


# Manual score entries ---------------------------------------------------------------------------

@transaction.atomic
def add_score_entry(actor: Actor, campaign: Campaign, *, side: str, points: int,
                    reason: str) -> CampaignScoreEntry:
    """A line of the ledger written by an organiser (a ruling, a correction), with its reason.
    It counts in the turn's close like any other line (R35: the victory is checked there)."""
    require_staff(actor)
    why = _reason(reason)
    row = locked(campaign)
    require_status(row, RUNNING)
    if side not in grid.SIDES:
        raise Invalid(_("Choose west or east."), "side_unknown")
    if points == 0 or abs(points) > MANUAL_POINTS_MAX:
        raise Invalid(_("Give a number of points from -%(max)s to %(max)s, not 0.")
                      % {"max": MANUAL_POINTS_MAX}, "points_invalid")
    entry = CampaignScoreEntry.objects.create(
        campaign=row, turn=row.current_turn, side=side, kind=MANUAL, points=points,
        detail={"reason": why, "by": getattr(actor.user, "username", "")})
    record(actor, "campaign_score_manual", row.tournament, entry,
           {"campaign": row.slug, "turn": row.current_turn, "entry": entry.pk, "side": side,
            "points": points, "reason": why})
    return entry
