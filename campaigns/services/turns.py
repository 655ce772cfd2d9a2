"""A campaign turn (R15–R18, R26–R29, R33–R40): phase initiative, orders, and the close.

Orders are checked one at a time, as they arrive, by campaigns/engine/orders.py against the
campaign's state under the campaign's row lock: the allowances are counted from the accepted
orders, so two orders sent at once cannot both spend the last one. The close applies the
confirmed battles and scores the turn (campaigns/engine/turn.py), then opens the next turn."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns import notice_queue as notices
from campaigns.engine import map as grid
from campaigns.engine import turn as engine
from campaigns.engine.orders import OrderRefused, apply_order
from campaigns.engine.scoring import OTHER_SECTORS, Victory
from campaigns.engine.state import (
    AIR_MISSION,
    INFILTRATION_PHASE,
    MOVE,
    ORDER_PHASE,
    REACTION,
    Order,
)
from campaigns.engine.tools import PHASES, phase_initiative
from campaigns.models import (
    Campaign,
    CampaignDetachment,
    CampaignOrder,
    CampaignScoreEntry,
    CampaignTurn,
)
from campaigns.services import air as campaign_air
from campaigns.services import declarations as campaign_declarations
from campaigns.services import order_numbers
from campaigns.services.battles import battle_results
from campaigns.services.campaign import (
    acting_side,
    army_points_of,
    locked,
    refusal,
    require_status,
    scores_of,
    settings_of,
    sides_of,
    staff_turn,
    state_of,
    turn_row,
)
from campaigns.services.dice import ENTERED, SERVER, throw
from campaigns.services.infiltrations import before_next_phase
from campaigns.services.placement import open_turn
from events.audit import Actor, record
from events.errors import Conflict, Invalid, NotFound
from events.models import Round, Tournament

CLOSED_PHASE = "closed"
RUNNING = Campaign.Status.RUNNING


# Phase initiative (R15) ---------------------------------------------------------------------

def phase_index(phase: str) -> int:
    """Where the turn stands: -1 before the first phase, len(PHASES) once battles are out."""
    if not phase:
        return -1
    return PHASES.index(phase) if phase in PHASES else len(PHASES)


@transaction.atomic
def roll_initiative(actor: Actor, campaign: Campaign, number: int, phase: str,
                    dice: Sequence[int] | None = None, deadline: datetime | None = None
                    ) -> dict[str, Any]:
    """R15: 1D6 + strategic value each, ties re-rolled (G5), west first. Rolling a phase opens
    it and closes the one before; phases open in the seed's order (R18), later ones may be
    reached directly (a turn without air missions skips them)."""
    row, turn = staff_turn(actor, campaign, number)
    if PHASES.index(phase) <= phase_index(turn.phase):
        raise Conflict(_("That phase is open or over; phases open in order: air, infiltration, "
                         "moves, attacks."), "phase_order")
    campaign_declarations.reveal(actor, row, turn)  # G11: the phase's sealed orders
    if PHASES.index(phase) > PHASES.index(INFILTRATION_PHASE):
        before_next_phase(actor, row, turn, dice)  # R25: infiltration results come first
    values = {side: owner.strategic_value for side, owner in sides_of(row).items()}
    thrown = throw(row, actor, lambda roller: phase_initiative(roller, phase, values), dice)
    rolls = [{"side": r.actor, "die": r.total, "modifier": values[r.actor],
              "score": r.total + values[r.actor]} for r in thrown.value.rolls]
    answer = {"phase": phase, "rolls": rolls, "winner": thrown.value.winner}
    turn.phase = phase
    turn.initiative = {**turn.initiative, phase: {**answer, **thrown.record()}}
    turn.save(update_fields=["phase", "initiative"])
    if deadline is not None:  # G11: the phase's orders are due then (told, not enforced)
        answer["deadline"] = campaign_declarations.set_deadline(actor, row, number, deadline)["deadline"]
    notices.queue_campaign_phase(row, number, phase)
    record(actor, "campaign_initiative", row.tournament, turn,
           {"campaign": row.slug, "turn": number, **answer, **thrown.record()})
    if thrown.unused:
        answer["unused_dice"] = list(thrown.unused)
    return answer


# Orders (R26–R29) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class OrderInput:
    kind: str
    detachments: tuple[str, ...] = ()
    from_: str | None = None
    to: str | None = None
    for_attack: int | None = None
    side: str | None = None  # staff declaring for a side
    # Air missions (R19–R24): campaigns/engine/air_missions.py.
    mission: str | None = None
    route: tuple[str, ...] = ()
    return_route: tuple[str, ...] = ()
    escort_of: int | None = None


@transaction.atomic
def declare_order(actor: Actor, campaign: Campaign, number: int, request: OrderInput
                  ) -> CampaignOrder:
    """Accept one order or refuse it with the engine's code (409 ``phase_closed`` outside the
    order's phase, 400 otherwise). A move moves its detachment at once (campaigns/engine)."""
    row = locked(campaign)
    side = acting_side(actor, row, request.side)
    require_status(row, RUNNING)
    turn = turn_row(row, number)
    campaign_declarations.before_order(row, turn, side, request.kind)
    air = request.kind == AIR_MISSION
    # The ids a player names are public numbers, resolved among what that side may see (G11).
    named = {"for_attack": request.for_attack if request.kind == REACTION else None,
             "escort_of": request.escort_of if air else None}
    order = Order(side, request.kind, request.detachments, request.from_, request.to,
                  order_numbers.attack_key(turn, side, named["for_attack"]),
                  request.mission if air else None, request.route if air else (),
                  request.return_route if air else (),
                  order_numbers.mission_key(turn, side, named["escort_of"]))
    try:  # checked against the state as this side knows it: the enemy's sealed orders left out
        _after, accepted = apply_order(campaign_declarations.state_seen_by(row, turn, side), order)
    except OrderRefused as refused:
        code, params = refused.refusal.code, order_numbers.told(refused.refusal.params, named)
        raise refusal(code, params, Conflict if code == "phase_closed" else Invalid) from None
    done = accepted.order
    saved = CampaignOrder.objects.create(
        turn=turn, side=side, kind=done.kind, detachments=list(done.detachments),
        from_code=done.from_ or "", to_code=done.to or "", for_attack_id=done.for_attack,
        bonus=accepted.bonus or "", commander=accepted.commander or "",
        status=campaign_declarations.status_for(row), number=order_numbers.next_number(turn, side),
        sequence=campaign_declarations.sequence_for(row, turn, ORDER_PHASE[done.kind], side),
        mission=done.mission or "", route=list(done.route), return_route=list(done.return_route),
        escort_of_id=done.escort_of, created_by=actor.user if actor.user_id else None)
    campaign_air.after_order(row, turn, saved)  # R13: landing and vehicles marks
    if done.kind == MOVE:
        CampaignDetachment.objects.filter(side__campaign=row, side__side=side,
                                          name=done.detachments[0]).update(location=done.to)
    record(actor, "campaign_order", row.tournament, saved,
           {"campaign": row.slug, "turn": number, "order": saved.pk, "side": side,
            "kind": done.kind, "detachments": list(done.detachments), "from": done.from_,
            "to": done.to, "for_attack": done.for_attack, "bonus": accepted.bonus,
            "status": saved.status,
            **({"mission": done.mission, "route": list(done.route),
                "return_route": list(done.return_route), "escort_of": done.escort_of}
               if done.mission else {})})
    campaign_declarations.after_order(row, turn, saved)
    return saved


# Closing the turn (steps 5–7, R33–R40, G20) -------------------------------------------------

def _entered_faces(dice: Mapping[str, int] | None) -> dict[str, int]:
    """Each side's other-sectors die thrown at the table (R40); a face outside 1–6 is refused."""
    faces = dict(dice or {})
    for position, side in enumerate(grid.SIDES, start=1):
        face = faces.get(side)
        if face is not None and not 1 <= face <= 6:
            raise refusal("dice_invalid", {"position": position, "face": face, "die": "D6"})
    return faces


def _close_settings(campaign: Campaign) -> engine.CloseSettings:
    cfg = settings_of(campaign)
    return engine.CloseSettings(
        territory_scoring=cfg.territory_scoring, battle_points_basis=cfg.battle_points_basis,
        army_points=army_points_of(campaign), other_sectors_table=cfg.other_sectors_table,
        victory_score=campaign.victory_score)


def _refused_close(exc: engine.CloseRefused) -> Exception:
    """The engine's refusal as the contract's 409: a retreat still to choose is ``choices_pending``."""
    if exc.code == "retreat_choice_required":
        return Conflict(_("Choices after a battle are missing: where “%(detachment)s” retreats "
                          "(%(options)s).") % {"detachment": exc.params["detachment"],
                                                "options": ", ".join(exc.params["options"])},
                        "choices_pending")
    return refusal(exc.code, exc.params, Conflict)


def _save_detachments(campaign: Campaign, closing: engine.TurnClose) -> None:
    after = {(d.side, d.name): d for d in closing.state.detachments}
    rows = CampaignDetachment.objects.filter(side__campaign=campaign).select_related("side")
    for row in rows:
        det = after[(row.side.side, row.name)]
        location = det.location or ""
        if (row.location, row.destroyed) != (location, det.destroyed):
            row.location, row.destroyed = location, det.destroyed
            row.save(update_fields=["location", "destroyed"])


def _save_entries(campaign: Campaign, number: int, closing: engine.TurnClose,
                  faces: Mapping[str, int]) -> list[CampaignScoreEntry]:
    rows = []
    for entry in closing.entries:
        detail: dict[str, Any] = {}
        if entry.kind == OTHER_SECTORS:
            sector = closing.other_sectors[entry.side]
            detail = {"die": sector.die, "modifier": sector.modifier, "modified": sector.modified,
                      "delta": sector.delta, "source": ENTERED if entry.side in faces else SERVER}
        rows.append(CampaignScoreEntry(campaign=campaign, turn=number, side=entry.side,
                                       kind=entry.kind, points=entry.points,
                                       subject=entry.subject, detail=detail))
    return CampaignScoreEntry.objects.bulk_create(rows)


def finish(actor: Actor, campaign: Campaign, victory: Victory) -> None:
    """R35: the campaign and its tournament end with the victory (the caller saves the campaign)."""
    campaign.status = Campaign.Status.FINISHED
    campaign.winner, campaign.victory_reason = victory.side, victory.reason
    tournament = campaign.tournament
    previous, tournament.status = tournament.status, Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    record(actor, "status_changed", tournament, tournament,
           {"from": previous, "to": tournament.status})


@transaction.atomic
def close_turn(actor: Actor, campaign: Campaign, number: int,
               other_sectors_dice: Mapping[str, int] | None = None) -> dict[str, Any]:
    """G20: battles applied → isolation for the next turn → territory score → other-sectors D6
    → victory. 409 ``battles_unconfirmed`` while a battle's game is not confirmed,
    ``choices_pending`` while a defeated detachment's retreat is still to choose."""
    row, turn = staff_turn(actor, campaign, number)
    faces = _entered_faces(other_sectors_dice)
    state = state_of(row, turn)
    results, settings = battle_results(turn), _close_settings(row)
    campaign_air.return_flak(actor, row, turn, state, results)  # R23: failed transports fly back
    scores = scores_of(row)
    surrendered = frozenset(side.side for side in row.sides.filter(surrendered=True))

    def run(roller) -> engine.TurnClose:
        return engine.close_turn(state, results, scores, settings=settings,
                                 other_sectors_dice=faces, roller=roller, surrendered=surrendered)

    try:
        if all(side in faces for side in grid.SIDES):
            closing, log = run(None), ()
        else:
            thrown = throw(row, actor, run, None)
            closing, log = thrown.value, thrown.rolls
    except engine.CloseRefused as exc:
        raise _refused_close(exc) from None
    _save_detachments(row, closing)
    entries = _save_entries(row, number, closing, faces)
    row.control = dict(closing.state.control)
    row.isolated = sorted(closing.isolated_next_turn)
    row.fortified = sorted(closing.state.fortified)
    answer = close_answer(number, closing, entries)
    turn.phase, turn.closed_at = CLOSED_PHASE, timezone.now()
    turn.report = {**answer, "dice_log": list(log), "map": map_at_close(closing), "relocations": [
        {"side": r.side, "detachment": r.detachment, "from": r.from_code, "to": r.to,
         "reason": r.reason} for r in closing.relocations]}
    turn.save(update_fields=["phase", "closed_at", "report"])
    Round.objects.filter(pk=turn.round_id).update(status=Round.Status.COMPLETED)
    if closing.victory is not None:
        finish(actor, row, closing.victory)
    else:
        row.current_turn = number + 1
        open_turn(row, number + 1)
    row.save(update_fields=["control", "isolated", "fortified", "current_turn", "status",
                            "winner", "victory_reason"])
    answer["next_turn"] = row.current_turn if closing.victory is None else None
    notices.queue_turn_closed(row, number)
    record(actor, "campaign_turn_closed", row.tournament, turn,
           {"campaign": row.slug, "turn": number, **answer, "dice_log": list(log)})
    return answer


def map_at_close(closing: engine.TurnClose) -> dict[str, Any]:
    """The map as the turn left it, for a turn pack printed later (the campaign moves on):
    control, fortified and isolated territories, where each detachment stood."""
    state = closing.state
    return {"control": dict(state.control), "fortified": sorted(state.fortified),
            "isolated": sorted(closing.isolated_next_turn),
            "detachments": [[d.side, d.name, "" if d.destroyed else d.location or ""]
                            for d in state.detachments]}


def close_answer(number: int, closing: engine.TurnClose,
                 entries: Sequence[CampaignScoreEntry]) -> dict[str, Any]:
    """The contract's answer to a close (no detachment name: the ledger is public)."""
    victory = closing.victory
    return {
        "turn": number,
        "control_changes": [{"territory": c.territory, "from": c.from_side, "to": c.to_side}
                            for c in closing.control_changes],
        "isolated_next_turn": [code for code in grid.CODES if code in closing.isolated_next_turn],
        "score_entries": [{"turn": e.turn, "side": e.side, "kind": e.kind, "points": e.points}
                          for e in entries],
        "scores": dict(closing.scores),
        "other_sectors": {side: {"die": o.die, "modifier": o.modifier, "modified": o.modified,
                                 "delta": o.delta, "new_score": o.new_score}
                          for side, o in closing.other_sectors.items()},
        "victory": None if victory is None else {"side": victory.side, "reason": victory.reason},
    }



def turn_of(campaign: Campaign, number: int) -> CampaignTurn:
    """A turn for reading (any state); 404 if it does not exist."""
    turn = campaign.turns.filter(number=number).first()
    if turn is None:
        raise NotFound(_("This campaign has no such turn."), "turn_not_found")
    return turn
