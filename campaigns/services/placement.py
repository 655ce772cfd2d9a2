"""Placing an Epic 40,000 campaign's detachments (R11, G5) and starting it (R10): who places
next, each placement, and turn 1 with its league round. The earlier set-up steps are in
services/setup.py; the shared reads and locking in services/campaign.py."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns import notice_queue as notices
from campaigns.engine import map as grid
from campaigns.engine.army import AIRBORNE
from campaigns.engine.placement import first_to_place, placement_refusal, unguarded_majors
from campaigns.models import Campaign, CampaignDetachment, CampaignSide, CampaignTurn
from campaigns.services.campaign import (
    SETTING_UP,
    acting_side,
    locked,
    refusal,
    require_staff,
    require_status,
    sides_of,
    state_of,
)
from campaigns.services.dice import throw
from events.audit import Actor, record
from events.errors import Conflict
from events.models import Round, Tournament

Status = Campaign.Status


def starts_on_map(row: CampaignDetachment) -> bool:
    """Whether the detachment is placed on the map at set-up (the placement turns and the
    reminders count these)."""
    # R13: airborne detachments start off the map; G28: air detachments are based on it.
    return row.kind != AIRBORNE and not row.destroyed


def next_placer(campaign: Campaign, rows: Iterable[CampaignDetachment] | None = None) -> str | None:
    """R11: the first placer, then the sides alternate; a side with nothing left to place lets
    the other go on. None once everything is placed (or before the first placer is known)."""
    if not campaign.placement_first:
        return None
    rows = list(rows) if rows is not None else list(
        CampaignDetachment.objects.filter(side__campaign=campaign).select_related("side"))
    left = {side: sum(1 for r in rows if r.side.side == side and starts_on_map(r) and not r.location)
            for side in grid.SIDES}
    placed = sorted((r for r in rows if r.placed_order is not None), key=lambda r: r.placed_order)
    due = grid.enemy(placed[-1].side.side) if placed else campaign.placement_first
    if left[due]:
        return due
    other = grid.enemy(due)
    return other if left[other] else None


def _ready_sides(campaign: Campaign) -> dict[str, CampaignSide]:
    sides = sides_of(campaign)
    if len(sides) < 2 or any(not row.detachments.exists() for row in sides.values()):
        raise Conflict(_("Both sides need a player and an army before placement."),
                       "placement_not_ready")
    return sides


def _first_placer(actor: Actor, campaign: Campaign, sides: Mapping[str, CampaignSide],
                  dice: Sequence[int] | None) -> None:
    """R11 with G5: the lower strategic value places first; equal values → a roll-off whose
    winner lets the other side place first (campaigns/engine/placement.py)."""
    if campaign.placement_first:
        return
    values = {side: row.strategic_value for side, row in sides.items()}
    if values[grid.WEST] != values[grid.EAST]:
        campaign.placement_first, _roll = first_to_place(values)
        return
    thrown = throw(campaign, actor, lambda roller: first_to_place(values, roller), dice)
    campaign.placement_first = thrown.value[0]
    campaign.placement_roll = list(thrown.rolls)


@transaction.atomic
def place(actor: Actor, campaign: Campaign, *, detachment: str, territory: str,
          side: str | None = None, dice: Sequence[int] | None = None) -> str | None:
    """Place one detachment in its side's sector (R11); returns the side to place next."""
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    sides = _ready_sides(row)
    _first_placer(actor, row, sides, dice)
    due = next_placer(row)
    if due is None:
        raise Conflict(_("Every detachment is already placed."), "placement_complete")
    placer = acting_side(actor, row, due if side is None and actor.is_staff else side)
    if placer != due and not actor.is_staff:
        raise Conflict(_("It is the other side's turn to place a detachment."), "not_your_placement")
    problem = placement_refusal(state_of(row), placer, detachment, territory)
    if problem is not None:
        raise refusal(*problem)
    unit = sides[placer].detachments.get(name=detachment)
    latest = CampaignDetachment.objects.filter(side__campaign=row).aggregate(
        top=Max("placed_order"))["top"]
    unit.location, unit.placed_order = territory, (latest or 0) + 1
    unit.save(update_fields=["location", "placed_order"])
    row.status = Status.PLACEMENT
    row.save(update_fields=["status", "placement_first", "placement_roll"])
    following = next_placer(row)
    notices.queue_placement(row, placer, following, unit.placed_order)
    record(actor, "campaign_placement", row.tournament, unit,
           {"campaign": row.slug, "side": placer, "detachment": detachment,
            "territory": territory, "next": following})
    return following


def open_turn(campaign: Campaign, number: int) -> CampaignTurn:
    """Turn ``number`` and its league round, published at once so its battles can be reported."""
    tournament = campaign.tournament
    round_ = Round.objects.create(tournament=tournament, number=number,
                                  status=Round.Status.PUBLISHED, published_at=timezone.now())
    if tournament.rounds < number:
        tournament.rounds = number
        tournament.save(update_fields=["rounds"])
    return CampaignTurn.objects.create(campaign=campaign, number=number, round=round_)


@transaction.atomic
def start(actor: Actor, campaign: Campaign) -> Campaign:
    """Every placeable detachment on the map and every major guarded (R10): turn 1 opens."""
    require_staff(actor)
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    sides = _ready_sides(row)
    missing = [side for side, owner in sides.items() if len(owner.majors) != grid.MAJORS_PER_SIDE]
    if missing:
        raise Conflict(_("Each side must choose its two major territories first."),
                       "majors_missing")
    rows = CampaignDetachment.objects.filter(side__campaign=row).select_related("side")
    unplaced = [r.name for r in rows if starts_on_map(r) and not r.location]
    if unplaced:
        raise Conflict(_("%(count)s detachments are still to be placed.") % {"count": len(unplaced)},
                       "placement_incomplete")
    unguarded = unguarded_majors(state_of(row))
    if unguarded:
        raise refusal("major_unguarded", {"territory": unguarded[0]}, Conflict)
    row.control = grid.home_control()
    row.isolated = sorted(grid.isolated(row.control))
    row.fortified = []
    row.status, row.current_turn = Status.RUNNING, 1
    row.save(update_fields=["control", "isolated", "fortified", "status", "current_turn"])
    open_turn(row, 1)
    notices.queue_campaign_phase(row, 1, "")  # turn 1 open; its phases follow
    tournament = row.tournament
    previous, tournament.status = tournament.status, Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    record(actor, "status_changed", tournament, tournament,
           {"from": previous, "to": tournament.status})
    record(actor, "campaign_started", tournament, row, {"campaign": row.slug, "turn": 1})
    return row
