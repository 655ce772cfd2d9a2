"""Resolving a turn's infiltrations (R25, R12, G22): the dice on the campaign's stream (or
thrown at the table), the reveals they give, the infiltrators they capture, and what each side
may read of them afterwards.

Staff resolve them while the infiltration phase is open (``POST …/turns/{n}/infiltrations/``);
any still unresolved when a later phase's initiative is rolled are resolved first on the
server's dice (a campaign that throws its dice at the table resolves them before). Each result is
kept on the turn (``CampaignTurn.infiltrations``) by detachment name, as every campaign JSON
field (the event backup reads the same in any database)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from campaigns.engine import infiltration as engine
from campaigns.engine.air import CAPTURED, FULL_SHEET, WAR_ENGINES
from campaigns.engine.army import unit_dict
from campaigns.engine.map import enemy
from campaigns.engine.state import INFILTRATION_PHASE, CampaignState
from campaigns.models import Campaign, CampaignDetachment, CampaignReveal, CampaignTurn
from campaigns.services import air as campaign_air
from campaigns.services.campaign import refusal, staff_turn, state_of
from campaigns.services.dice import ENTERED, SERVER, throw
from events.audit import Actor, record
from events.errors import Conflict


def pending(state: CampaignState, turn: CampaignTurn) -> list:
    """Ground infiltrations (R25) and air infiltration missions (R20), as accepted."""
    done = {entry["order"] for entry in turn.infiltrations or []}
    return [a for a in state.orders if engine.is_infiltration(a) and a.id not in done]


def _entry(result: engine.Infiltration, before: CampaignState, source: str) -> dict[str, Any]:
    """A result as the turn keeps it: what staff see (names, faces, outcomes, snapshots of what
    the infiltrating side was shown)."""
    owner = enemy(result.side)
    dice = []
    for die in result.dice:
        line: dict[str, Any] = {"target": die.target, "die": die.die, "outcome": die.outcome}
        det = before.detachment(owner, die.target)
        if die.outcome == FULL_SHEET and det is not None:
            line["units"] = [unit_dict(u) for u in det.units]
        if die.outcome == WAR_ENGINES and det is not None:
            line["war_engines"] = [{"name": u.name, "type": u.type}
                                   for u in engine.war_engines(det)]
        dice.append(line)
    return {"order": result.order_id, "side": result.side, "detachment": result.detachment,
            "from": result.from_, "to": result.to, "dice": dice,
            "captured": [unit_dict(u) for u in result.captured], "source": source}


def _save_reveal(campaign: Campaign, reveal: engine.Reveal, number: int) -> None:
    det = CampaignDetachment.objects.get(side__campaign=campaign, side__side=reveal.owner,
                                         name=reveal.detachment)
    seen, created = CampaignReveal.objects.get_or_create(
        detachment=det, to_side=reveal.to_side,
        defaults={"level": reveal.level, "source": reveal.source, "turn": number})
    if not created and engine.stronger(seen.level, reveal.level) != seen.level:
        seen.level, seen.source, seen.turn = reveal.level, reveal.source, number
        seen.save(update_fields=["level", "source", "turn"])


def _save_capture(campaign: Campaign, result: engine.Infiltration, after: CampaignState) -> None:
    """G22: the captured infiltrators leave their detachment for the rest of the campaign."""
    det = after.detachment(result.side, result.detachment)
    row = CampaignDetachment.objects.get(side__campaign=campaign, side__side=result.side,
                                         name=result.detachment)
    row.units = [unit_dict(u) for u in det.units] if det is not None else []
    row.captured_units = [*row.captured_units, *(unit_dict(u) for u in result.captured)]
    row.save(update_fields=["units", "captured_units"])


def run_pending(actor: Actor, campaign: Campaign, turn: CampaignTurn,
                dice: Sequence[int] | None) -> dict[str, Any]:
    """Resolve the turn's unresolved infiltrations (caller holds the campaign's row lock). R21:
    the Flak dice of air missions come first (campaigns/services/air.py)."""
    campaign_air.before_next_step(actor, campaign, turn, dice)
    state = state_of(campaign, turn)
    todo = pending(state, turn)
    if not todo:
        return {"infiltrations": [], "dice_log": []}
    thrown = throw(campaign, actor, lambda roller: engine.resolve(state, todo, roller), dice)
    after, results = thrown.value
    source = SERVER if dice is None else ENTERED
    entries = [_entry(r, state, source) for r in results]
    for result in results:
        for reveal in engine.reveals(result):
            _save_reveal(campaign, reveal, turn.number)
        if result.captured:
            _save_capture(campaign, result, after)
    turn.infiltrations = [*(turn.infiltrations or []), *entries]
    turn.save(update_fields=["infiltrations"])
    log = thrown.record()
    record(actor, "campaign_infiltrations", campaign.tournament, turn,
           {"campaign": campaign.slug, "turn": turn.number, "infiltrations": entries, **log})
    return {"infiltrations": entries, **log}


@transaction.atomic
def resolve_infiltrations(actor: Actor, campaign: Campaign, number: int,
                          dice: Sequence[int] | None = None) -> dict[str, Any]:
    """Staff: roll the infiltration phase's dice now (409 outside that phase)."""
    row, turn = staff_turn(actor, campaign, number)
    if turn.phase != INFILTRATION_PHASE:
        raise refusal("infiltration_phase_closed", {"phase": turn.phase}, Conflict)
    return run_pending(actor, row, turn, dice)


def before_next_phase(actor: Actor, campaign: Campaign, turn: CampaignTurn,
                      initiative_dice: Sequence[int] | None) -> None:
    """Called before a phase after infiltration opens: unresolved infiltrations are rolled on
    the server's dice; when the initiative itself was thrown at the table, the infiltrations
    must have been resolved with table dice first (409 ``infiltrations_unresolved``). The air
    gates still due are rolled before, on the server's dice (campaign_air)."""
    campaign_air.before_next_step(actor, campaign, turn)
    if not pending(state_of(campaign, turn), turn):
        return
    if initiative_dice is not None:
        raise Conflict(_("Resolve this turn's infiltrations first, with the dice thrown at the "
                         "table."), "infiltrations_unresolved")
    run_pending(actor, campaign, turn, None)


# What each side reads (R12) -------------------------------------------------------------------

def seen_entry(entry: dict[str, Any], viewer: str | None) -> dict[str, Any] | None:
    """One result as ``viewer`` may read it: staff everything; the infiltrating side its dice
    and outcomes, the names and sheets of 6s, the war engines of 5s, its captured units; the
    infiltrated side the dice against its own detachments and, on a 1, the infiltrating
    detachment and the units it captured."""
    if viewer is None:
        return entry
    captured = any(d["outcome"] == CAPTURED for d in entry["dice"])
    base = {"order": entry["order"], "side": entry["side"], "from": entry["from"],
            "to": entry["to"], "captured": entry["captured"] if captured else []}
    if viewer == entry["side"]:
        dice = []
        for d in entry["dice"]:
            line = {"target": d["target"] if d["outcome"] == FULL_SHEET else None,
                    "die": d["die"], "outcome": d["outcome"]}
            if "units" in d:
                line["units"] = d["units"]
            if "war_engines" in d:
                line["war_engines"] = d["war_engines"]
            dice.append(line)
        return {**base, "detachment": entry["detachment"], "dice": dice}
    return {**base, "detachment": entry["detachment"] if captured else None,
            "dice": [{"target": d["target"], "die": d["die"], "outcome": d["outcome"]}
                     for d in entry["dice"]]}


def seen_results(turn: CampaignTurn, viewer: str | None) -> list[dict[str, Any]]:
    return [seen for entry in turn.infiltrations or []
            if (seen := seen_entry(entry, viewer)) is not None]
