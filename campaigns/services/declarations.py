"""How each phase's orders are declared (G11, campaigns/engine/declaration.py): sealed envelopes
revealed together, or one order each in turn.

The campaign setting ``declaration_mode`` chooses. Every order is still checked when it arrives
(the contract's answer is accepted or refused at once); what the mode changes is who may declare
now and who sees what:

- ``sealed``: a side's orders of the open phase are hidden from the enemy until the phase's
  orders are revealed, when the next phase opens or the battles are generated. The attacks
  come out first, once both sides have sent theirs (or an organiser reveals them): then the
  reactions are declared, and no attack any more. At a reveal the sealed orders are interleaved
  from the side the initiative winner chose and checked again in that order; one that became
  illegal is kept as refused, with its code, and counts for nothing.
- ``alternating``: one order at a time, in turn from the chosen side; a side that has finished
  says it is ready and the other goes on alone. Reactions answer an attack at once.

Each turn keeps, per phase, ``{"first", "ready", "revealed"}`` in ``CampaignTurn.declarations``.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from campaigns import notice_queue as notices
from campaigns.engine import map as grid
from campaigns.engine.declaration import (
    ALTERNATING,
    SEALED,
    next_declarer,
    seen_by,
)
from campaigns.engine.state import (
    ATTACK,
    ATTACKS_PHASE,
    MOVE,
    ORDER_PHASE,
    PHASE_KINDS,
    REACTION,
    CampaignState,
)
from campaigns.models import Campaign, CampaignOrder, CampaignTurn
from campaigns.services import order_numbers
from campaigns.services.campaign import (
    acting_side,
    locked,
    require_status,
    side_of_actor,
    staff_turn,
    state_of,
    turn_row,
)
from campaigns.services.declaring import mode_of, phase_declarations, save_phase
from campaigns.services.reveal import reveal
from events.audit import Actor, record
from events.errors import Conflict, Forbidden

RUNNING = Campaign.Status.RUNNING


def unrevealed(turn: CampaignTurn) -> list[CampaignOrder]:
    """The turn's sealed and refused orders, read once per turn object (a page asks for them
    from the map, the state and the order list)."""
    if "_unrevealed" not in turn.__dict__:
        turn.__dict__["_unrevealed"] = list(turn.orders.exclude(
            status=CampaignOrder.ACCEPTED).order_by("pk"))
    return turn.__dict__["_unrevealed"]


def refused_orders(turn: CampaignTurn, side: str) -> list[CampaignOrder]:
    return [r for r in unrevealed(turn) if r.side == side and r.status == CampaignOrder.REFUSED]


def sealed_ids(turn: CampaignTurn | None) -> frozenset[int]:
    if turn is None:
        return frozenset()
    return frozenset(r.pk for r in unrevealed(turn) if r.status == CampaignOrder.SEALED)


def state_seen_by(campaign: Campaign, turn: CampaignTurn | None, viewer: str | None
                  ) -> CampaignState:
    """The campaign state as ``viewer`` may know it (None: staff, everything)."""
    state = state_of(campaign, turn)
    return seen_by(state, viewer, sealed_ids(turn)) if viewer is not None else state


def sealed_origins(turn: CampaignTurn | None, viewer: str | None) -> dict[tuple[str, str], str]:
    """Where each detachment moved by a sealed move stood before it, for everyone but its
    owner and staff: ``{(side, name): territory}`` (``viewer`` None: staff, nothing hidden)."""
    if turn is None or viewer is None:
        return {}
    origins: dict[tuple[str, str], str] = {}
    for row in unrevealed(turn):
        if (row.status == CampaignOrder.SEALED and row.kind == MOVE and row.side != viewer
                and row.detachments):
            for name in row.detachments:  # an air transport and what it carries (R23)
                origins.setdefault((row.side, name), row.from_code)
    return origins


# Before and after an order ----------------------------------------------------------------------

def _phase_counts(turn: CampaignTurn, phase: str) -> dict[str, int]:
    """Each side's orders of ``phase`` that count in the alternation (not reactions)."""
    kinds = [kind for kind in PHASE_KINDS[phase] if kind != REACTION]
    rows = (turn.orders.exclude(status=CampaignOrder.REFUSED).filter(kind__in=kinds)
            .values("side").annotate(n=Count("pk")))
    return {**dict.fromkeys(grid.SIDES, 0), **{row["side"]: row["n"] for row in rows}}


def _due(turn: CampaignTurn, phase: str) -> str | None:
    """Alternating: whose turn it is to declare in ``phase``."""
    found = phase_declarations(turn, phase)
    return next_declarer(found.first, _phase_counts(turn, phase), found.ready)


def before_order(campaign: Campaign, turn: CampaignTurn, side: str, kind: str) -> None:
    """409 when ``side`` may not declare a ``kind`` order now in this mode (under the lock)."""
    phase = ORDER_PHASE.get(kind)
    if phase is None or phase != turn.phase:
        return  # the engine answers phase_closed
    found = phase_declarations(turn, phase)
    mode = mode_of(campaign)
    reacting_after_reveal = kind == REACTION and (mode == ALTERNATING or found.revealed)
    if mode == SEALED and kind == ATTACK and found.revealed:
        raise Conflict(_("The attacks are revealed: only reactions can be declared now."),
                       "attacks_revealed")
    if side in found.ready and not reacting_after_reveal:
        raise Conflict(_("You said your orders for this phase were all sent."), "orders_sent")
    if mode == ALTERNATING and kind != REACTION:
        due = _due(turn, phase)
        if due != side:
            raise Conflict(_("It is the other side's turn to declare an order."),
                           "not_your_turn", next=due)


def may_declare(campaign: Campaign, turn: CampaignTurn, side: str, kind: str) -> bool:
    """Whether ``before_order`` lets ``side`` declare a ``kind`` order now: the page offers the
    forms the server would take (not the other side's turn, nothing after "ready")."""
    try:
        before_order(campaign, turn, side, kind)
    except Conflict:
        return False
    return True


def status_for(campaign: Campaign) -> str:
    return CampaignOrder.SEALED if mode_of(campaign) == SEALED else CampaignOrder.ACCEPTED


def sequence_for(campaign: Campaign, turn: CampaignTurn, phase: str, side: str) -> int:
    """An order's place in its phase until the reveal sets it: sealed, among its side's own
    orders only (its place must say nothing of the enemy's sealed orders)."""
    found = turn.orders.filter(kind__in=PHASE_KINDS[phase])
    if mode_of(campaign) == SEALED:
        found = found.filter(side=side)
    return found.count() + 1


def first_settled(turn: CampaignTurn, chooser: str | None) -> bool:
    """Whether orders of the open phase already settle who declares first, as ``chooser`` (the
    side choosing; None: staff) knows them: its own orders and those out of their envelopes,
    never the enemy's sealed ones (the choice must not depend on them)."""
    found = turn.orders.filter(kind__in=PHASE_KINDS.get(turn.phase, ()))
    if chooser is not None:
        found = found.exclude(~Q(side=chooser), status=CampaignOrder.SEALED)
    return found.exists()


def after_order(campaign: Campaign, turn: CampaignTurn, saved: CampaignOrder) -> None:
    """Alternating: the player whose turn it is now gets an e-mail."""
    if mode_of(campaign) != ALTERNATING:
        return
    phase = ORDER_PHASE[saved.kind]
    found, counts = phase_declarations(turn, phase), _phase_counts(turn, phase)
    due = next_declarer(found.first, counts, found.ready)
    if due is not None and due != saved.side:  # keyed by the orders counted: a reaction adds none
        notices.queue_campaign_declare(campaign, turn.number, phase, str(sum(counts.values())))


def order_answer(campaign: Campaign, saved: CampaignOrder) -> dict[str, Any]:
    """What an order's answer adds to the contract's: ``sealed`` (hidden from the enemy until
    the reveal) and, alternating, whose turn it is now."""
    answer: dict[str, Any] = {"sealed": saved.status == CampaignOrder.SEALED}
    if mode_of(campaign) == ALTERNATING:
        answer["next"] = _due(saved.turn, ORDER_PHASE[saved.kind])
    return answer


# Choosing who goes first, saying one is ready ---------------------------------------------------

@transaction.atomic
def choose_first(actor: Actor, campaign: Campaign, number: int, first: str) -> dict[str, Any]:
    """R15: the winner of the open phase's initiative chooses which side declares first (its
    player or staff), before any order of the phase."""
    row = locked(campaign)
    require_status(row, RUNNING)
    turn = turn_row(row, number)
    phase = turn.phase
    winner = (turn.initiative or {}).get(phase, {}).get("winner")
    if winner not in grid.SIDES or phase not in PHASE_KINDS:
        raise Conflict(_("Roll this phase's initiative first."), "initiative_missing")
    if not actor.is_staff:
        mine = side_of_actor(actor, row)
        if mine is None or mine.side != winner:
            raise Forbidden(_("The winner of the initiative chooses who declares first."),
                            "not_initiative_winner")
    if first not in grid.SIDES:
        raise Conflict(_("Choose west or east."), "side_unknown")
    if first_settled(turn, winner):
        raise Conflict(_("Orders of this phase are already declared: who goes first is settled."),
                       "orders_declared")
    found = phase_declarations(turn, phase)
    save_phase(turn, phase, replace(found, first=first))
    record(actor, "campaign_first_chosen", row.tournament, turn,
           {"campaign": row.slug, "turn": number, "phase": phase, "first": first})
    return declarations_view(row, turn)


@transaction.atomic
def mark_ready(actor: Actor, campaign: Campaign, number: int, asked: str | None = None
               ) -> dict[str, Any]:
    """A side has sent all its orders of the open phase. Sealed attacks: when both sides are
    ready the attacks are revealed and the reactions may be declared."""
    row = locked(campaign)
    side = acting_side(actor, row, asked)
    require_status(row, RUNNING)
    turn = turn_row(row, number)
    phase = turn.phase
    if phase not in PHASE_KINDS:
        raise Conflict(_("No phase is open for orders."), "phase_closed", phase=phase)
    found = phase_declarations(turn, phase)
    found = replace(found, ready=found.ready | {side})
    save_phase(turn, phase, found)
    record(actor, "campaign_orders_ready", row.tournament, turn,
           {"campaign": row.slug, "turn": number, "phase": phase, "side": side})
    if (mode_of(row) == SEALED and phase == ATTACKS_PHASE and not found.revealed
            and found.ready >= frozenset(grid.SIDES)):
        reveal(actor, row, turn, attacks_only=True)
    elif mode_of(row) == ALTERNATING:
        due = _due(turn, phase)
        if due is not None and due != side:
            notices.queue_campaign_declare(row, number, phase, f"ready-{side}")
    return declarations_view(row, turn)


@transaction.atomic
def reveal_attacks(actor: Actor, campaign: Campaign, number: int) -> dict[str, Any]:
    """An organiser reveals the sealed attacks now (a side did not send its orders in time)."""
    row, turn = staff_turn(actor, campaign, number)
    if turn.phase != ATTACKS_PHASE:
        raise Conflict(_("The attacks phase is not open."), "phase_closed", phase=turn.phase)
    reveal(actor, row, turn, attacks_only=True)
    return declarations_view(row, turn)


@transaction.atomic
def set_deadline(actor: Actor, campaign: Campaign, number: int, deadline: datetime | None
                 ) -> dict[str, Any]:
    """The organisers' deadline for the open phase's orders (None: none), told on the page, in
    the e-mails and on the order sheets; the organisers still open the next phase themselves."""
    row, turn = staff_turn(actor, campaign, number)
    if turn.phase not in PHASE_KINDS:
        raise Conflict(_("No phase is open for orders."), "phase_closed", phase=turn.phase)
    stamp = deadline.isoformat() if deadline is not None else None
    save_phase(turn, turn.phase, replace(phase_declarations(turn), deadline=stamp))
    record(actor, "campaign_deadline", row.tournament, turn,
           {"campaign": row.slug, "turn": number, "phase": turn.phase, "deadline": stamp})
    return declarations_view(row, turn)


def deadline_of(turn: CampaignTurn, phase: str | None = None) -> datetime | None:
    stamp = phase_declarations(turn, phase).deadline
    return datetime.fromisoformat(stamp) if stamp else None


# Reading ----------------------------------------------------------------------------------------

def declarations_view(campaign: Campaign, turn: CampaignTurn) -> dict[str, Any]:
    """The open phase's declaring, public: mode, who goes first, who is ready, whether the
    attacks are out, and (alternating) whose turn it is."""
    phase = turn.phase
    found = phase_declarations(turn, phase)
    mode = mode_of(campaign)
    due = None
    if mode == ALTERNATING and phase in PHASE_KINDS:
        due = _due(turn, phase)
    return {"mode": mode, "turn": turn.number, "phase": phase or None, "first": found.first,
            "ready": sorted(found.ready), "revealed": found.revealed, "next": due,
            "deadline": found.deadline}


def orders_seen_by(campaign: Campaign, turn: CampaignTurn, viewer: str | None
                   ) -> list[dict[str, Any]]:
    """The turn's orders as ``viewer`` may read them: its own in full (status, refusal); the
    enemy's once revealed, by territory only (R12: never the detachments' names); staff all."""
    out = []
    rows = list(turn.orders.order_by("pk"))
    ids = order_numbers.public_ids(rows)
    for row in rows:
        own = viewer is None or row.side == viewer
        if not own and row.status == CampaignOrder.SEALED:
            continue
        entry: dict[str, Any] = {
            "id": ids[row.pk], "side": row.side, "kind": row.kind, "from": row.from_code or None,
            "to": row.to_code or None, "for_attack": order_numbers.linked_id(row.for_attack_id, ids),
            "status": row.status, "sequence": row.sequence}
        if row.mission:  # R19: the mission and its route are told, never the composition
            entry.update({"mission": row.mission, "route": list(row.route),
                          "return_route": list(row.return_route),
                          "escort_of": order_numbers.linked_id(row.escort_of_id, ids)})
        if own:
            entry.update({"detachments": list(row.detachments), "bonus": row.bonus or None,
                          "refusal": ({"code": row.refusal_code, "params": row.refusal_params}
                                      if row.refusal_code else None)})
        else:
            entry["detachments"] = len(row.detachments)
        out.append(entry)
    return out
