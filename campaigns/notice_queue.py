"""The notices an Epic 40,000 campaign's services queue inside their transactions.

Each is sent after the commit (notices.outbox), its letters written by
campaigns/services/notices.py, which CampaignsConfig registers with the notices dispatcher.
This module imports no campaign service, so the services can import it.
"""
from __future__ import annotations

from campaigns.models import Campaign
from notices.models import Notice
from notices.outbox import queue

Kind = Notice.Kind


def queue_campaign_phase(campaign: Campaign, number: int, phase: str) -> None:
    """Both players: a phase of turn ``number`` is open (its initiative rolled); an empty
    ``phase`` is the turn itself opening (the campaign's start)."""
    queue(Kind.CAMPAIGN_PHASE, campaign.pk, f"{number}:{phase}")


def queue_campaign_battles(campaign: Campaign, number: int) -> None:
    """Both players: the battles of turn ``number``, just generated."""
    queue(Kind.CAMPAIGN_BATTLES, campaign.pk, str(number))


def queue_turn_closed(campaign: Campaign, number: int) -> None:
    """Both players: the report of turn ``number``, just closed."""
    queue(Kind.CAMPAIGN_TURN_CLOSED, campaign.pk, str(number))


def queue_placement(campaign: Campaign, placer: str, following: str | None, placed: int) -> None:
    """The other side's player, when it becomes their turn to place a detachment (R11);
    ``placed`` numbers the placement just made."""
    if following is not None and following != placer:
        queue(Kind.CAMPAIGN_PLACEMENT, campaign.pk, str(placed))


def queue_campaign_declare(campaign: Campaign, number: int, phase: str, moment: str) -> None:
    """One player: it is their turn to declare an order (alternating mode), or the sealed
    attacks are out and reactions may be declared (``moment`` "revealed"). ``moment`` tells one
    such event from the next (the phase's order count, a side ready)."""
    queue(Kind.CAMPAIGN_DECLARE, campaign.pk, f"{number}:{phase}:{moment}")


def queue_campaign_surrender(campaign: Campaign, side: str) -> None:
    """Both players: ``side`` surrendered and the campaign is over (R35)."""
    queue(Kind.CAMPAIGN_SURRENDER, campaign.pk, side)
