"""The reveal of a turn's sealed orders (G11): interleaved from the side the initiative winner
chose, checked again in that order from the turn's start, each one's place and verdict stored,
and the detachments put where the accepted orders leave them."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from campaigns import notice_queue as notices
from campaigns.engine import map as grid
from campaigns.engine.orders import interleave
from campaigns.engine.replay import replay_all
from campaigns.engine.state import (
    ATTACK,
    ATTACKS_PHASE,
    MOVE,
    ORDER_PHASE,
    REACTION,
    VEHICLES,
    CampaignState,
)
from campaigns.engine.tools import PHASES
from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignTurn
from campaigns.services.campaign import (
    accepted_order,
    forced_ids,
    state_of,
)
from campaigns.services.declaring import phase_declarations, save_phase
from events.audit import Actor, record

LANDING_KINDS = (MOVE, ATTACK, REACTION)  # from orbit: no "from" (R13)


def _interleaved(rows: list[CampaignOrder], first: str) -> list[CampaignOrder]:
    """G11: the sealed orders A1, B1, A2… from ``first``; a phase's reactions after its attacks
    (they answer them)."""
    out: list[CampaignOrder] = []
    for group in ([r for r in rows if r.kind != REACTION], [r for r in rows if r.kind == REACTION]):
        by_side = {side: [r for r in group if r.side == side] for side in grid.SIDES}
        out += list(interleave(first, by_side))  # interleave only slices the two lists
    return out


def reveal(actor: Actor, campaign: Campaign, turn: CampaignTurn, *,
           attacks_only: bool = False) -> list[dict[str, Any]]:
    """Reveal the turn's sealed orders (under the campaign's lock): interleave them, check them
    again in that order from the turn's start, store each one's place and verdict, and put the
    detachments where the accepted orders leave them. Returns the orders refused now."""
    rows = list(turn.orders.exclude(status=CampaignOrder.REFUSED).order_by("pk"))
    phase = turn.phase
    sealed = [r for r in rows if r.status == CampaignOrder.SEALED
              and (not attacks_only or r.kind == ATTACK)]
    if attacks_only:
        save_phase(turn, phase, replace(phase_declarations(turn, phase), revealed=True))
        notices.queue_campaign_declare(campaign, turn.number, ATTACKS_PHASE, "revealed")
    if not sealed:
        return []
    sealed_ids_now = {r.pk for r in sealed}
    by_phase: dict[str, list[CampaignOrder]] = {}
    for r in sealed:
        by_phase.setdefault(ORDER_PHASE[r.kind], []).append(r)
    # Orders already out, phase by phase in their declared sequence; those that stay sealed
    # (the reactions while only the attacks come out) go last, after the attacks they answer.
    out_already = sorted((r for r in rows if r.status != CampaignOrder.SEALED),
                         key=lambda r: (PHASES.index(ORDER_PHASE[r.kind]), r.sequence or 0, r.pk))
    still_sealed = [r for r in rows if r.status == CampaignOrder.SEALED and r.pk not in sealed_ids_now]
    ordered = out_already
    for name, group in sorted(by_phase.items(), key=lambda item: PHASES.index(item[0])):
        first = phase_declarations(turn, name).first or grid.SIDES[0]
        ordered += _interleaved(group, first)
    state = state_of(campaign, turn)
    after, now, refused = replay_all(state, [accepted_order(r) for r in ordered + still_sealed],
                                     forced_ids(campaign, turn))
    out = []
    for position, r in enumerate((r for r in ordered if r.pk in sealed_ids_now), start=1):
        r.sequence = position
        if r.pk in refused:
            r.status, r.refusal_code = CampaignOrder.REFUSED, refused[r.pk].code
            r.refusal_params = {k: str(v) for k, v in refused[r.pk].params.items()}
            out.append({"id": r.pk, "side": r.side, "kind": r.kind, "code": r.refusal_code,
                        "params": r.refusal_params})
        else:
            r.status = CampaignOrder.ACCEPTED
            r.bonus, r.commander = now[r.pk].bonus or "", now[r.pk].commander or ""
        r.save(update_fields=["sequence", "status", "refusal_code", "refusal_params", "bonus",
                              "commander"])
    _place(campaign, after)
    # Only the orders refused now: an order already out stays as it was accepted, even where a
    # replay from the turn's start would not take it again.
    undo_marks(campaign, turn, [r for r in ordered if r.pk in refused and r.pk in sealed_ids_now])
    record(actor, "campaign_orders_revealed", campaign.tournament, turn,
           {"campaign": campaign.slug, "turn": turn.number, "phase": phase,
            "orders": [r.pk for r in ordered if r.pk in sealed_ids_now], "refused": out})
    return out


def undo_marks(campaign: Campaign, turn: CampaignTurn, refused: list[CampaignOrder]) -> None:
    """R13: a landing or a ``vehicles`` order refused at the reveal leaves its detachment as it
    was: still in orbit (no landing this turn), or its vehicles still up."""
    for row in refused:
        found = CampaignDetachment.objects.filter(side__campaign=campaign, side__side=row.side,
                                                  name__in=row.detachments[:1])
        if row.kind == VEHICLES:
            found.update(vehicles_in_orbit=True)
        elif not row.from_code and row.kind in LANDING_KINDS:
            others = turn.orders.filter(side=row.side, from_code="", kind__in=LANDING_KINDS
                                        ).exclude(status=CampaignOrder.REFUSED).exclude(pk=row.pk)
            if not any(set(row.detachments[:1]) & set(o.detachments) for o in others):
                found.filter(landed_turn=turn.number).update(landed_turn=None,
                                                             vehicles_in_orbit=False)


def _place(campaign: Campaign, state: CampaignState) -> None:
    where = {(d.side, d.name): d.location or "" for d in state.detachments if not d.destroyed}
    rows = CampaignDetachment.objects.filter(side__campaign=campaign, destroyed=False
                                             ).select_related("side")
    for row in rows:
        location = where.get((row.side.side, row.name), row.location)
        if location != row.location:
            row.location = location
            row.save(update_fields=["location"])
