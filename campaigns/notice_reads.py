"""What a campaign's notices read: the campaign and its turn, each side's eyes (R12), the
sides' labels, the links and the letters to both players (campaigns/services/notices.py)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns import notice_texts as texts
from campaigns.engine import map as grid
from campaigns.models import Campaign, CampaignReveal, CampaignSide, CampaignTurn
from campaigns.rows import Reader
from campaigns.words import SIDES, word
from events.audit import Actor
from notices.letters import Letter, absolute, profile_link

NOBODY = Actor()  # a player's eyes, never staff's: an organiser who also plays reads as a player


def campaign_of(campaign_id: int) -> Campaign | None:
    return Campaign.objects.select_related("tournament").filter(pk=campaign_id).first()


def turn_of(campaign: Campaign, number: str) -> CampaignTurn | None:
    if not number.isdigit():
        return None
    return campaign.turns.filter(number=int(number)).first()


def readers_of(campaign: Campaign, sides: Mapping[str, CampaignSide]) -> dict[str, Reader]:
    """Each side's eyes (R12): its own names, and the enemy names revealed to it (one query)."""
    seen: dict[str, set[str]] = {side: set() for side in grid.SIDES}
    rows = CampaignReveal.objects.filter(detachment__side__campaign=campaign,
                                         level=CampaignReveal.FULL).values_list(
        "to_side", "detachment__name")
    for to_side, name in rows:
        seen[to_side].add(name)
    return {side: Reader(NOBODY, row, frozenset(seen[side])) for side, row in sides.items()}


def phase_still_open(campaign_id: int, number: str, phase: str
                      ) -> tuple[Campaign | None, CampaignTurn | None]:
    """The running campaign and its open turn, while ``phase`` is still its open phase: a
    letter about a phase the organisers moved past has nothing left to say."""
    campaign = campaign_of(campaign_id)
    turn = turn_of(campaign, number) if campaign is not None else None
    if (turn is None or campaign.status != Campaign.Status.RUNNING or turn.closed_at is not None
            or turn.phase != phase):
        return None, None
    return campaign, turn


def side_label(sides: Mapping[str, CampaignSide], side: str) -> str:
    """"West (Space Marines)", the campaign page's label of a side (in the active language)."""
    row = sides.get(side)
    if row is None:
        return word(SIDES, side)
    return _("%(side)s (%(army)s)") % {"side": word(SIDES, side), "army": row.army_name}


def page_link(campaign: Campaign, anchor: str = "") -> str:
    return absolute(reverse("campaign", args=[campaign.slug])) + anchor


def letter_head(campaign: Campaign, turn: int, anchor: str) -> texts.Head:
    return texts.Head(campaign.tournament.name, turn, page_link(campaign, anchor), profile_link())


def to_players(campaign: Campaign, sides: Mapping[str, CampaignSide], key: str,
                compose: Callable[[str], texts.Letter], only: Sequence[str] = grid.SIDES
                ) -> list[Letter]:
    """One letter per side in ``only`` whose player has an account; ``compose(side)`` writes it."""
    return [Letter(campaign.tournament, row.player.user, key, partial(compose, side))
            for side, row in sides.items() if side in only and row.player.user is not None]
