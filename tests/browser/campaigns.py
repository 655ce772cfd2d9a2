"""Epic 40,000 campaigns built through the campaign services, as an organiser would, for the page
tests: the seed's example map (west holds 1–9 with majors 1 and 3, east A–I with G and I) and
the two armies of tests/campaigns/test_campaign_api.py."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaigns.engine import map as grid
from campaigns.engine.army import DetachmentSpec
from campaigns.models import Campaign
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.state_serializers import SettingsSerializer
from events.audit import Actor
from events.systems import normalised

WEST_ARMY = [
    DetachmentSpec("Aquila Guard", 1000), DetachmentSpec("Bastion Guard", 1000),
    DetachmentSpec("Captain Varro", 800, supreme_commander=True),
    DetachmentSpec("Crusader Armour", 1200), DetachmentSpec("Eagle Scouts", 400),
    DetachmentSpec("Thunder Drop", 600, "airborne"),
]
EAST_ARMY = [
    DetachmentSpec("Mob Gork", 1000), DetachmentSpec("Mob Mork", 1000),
    DetachmentSpec("Warboss Grukk", 700, supreme_commander=True),
    DetachmentSpec("Big Gunz", 1500), DetachmentSpec("Kult of Speed", 800),
]
# R11: east (strategic value 3) places first, then the sides alternate.
PLACEMENTS = [
    ("east", "Mob Gork", "G"), ("west", "Aquila Guard", "1"), ("east", "Mob Mork", "I"),
    ("west", "Bastion Guard", "3"), ("east", "Warboss Grukk", "D"),
    ("west", "Captain Varro", "4"), ("east", "Big Gunz", "A"), ("west", "Crusader Armour", "7"),
    ("east", "Kult of Speed", "C"), ("west", "Eagle Scouts", "9"),
]
WEST_NAMES = {d.name for d in WEST_ARMY}
EAST_NAMES = {d.name for d in EAST_ARMY}


def big_armies(count: int) -> tuple[list[DetachmentSpec], list[DetachmentSpec], list[tuple]]:
    """``count`` detachments a side, spread over its sector (majors first, R10), east first."""
    west = [DetachmentSpec(f"West cohort {i:02d}", 5000 // count) for i in range(count)]
    east = [DetachmentSpec(f"East warband {i:02d}", 5000 // count) for i in range(count)]
    west_codes = ["1", "3", "7", "8", "9", "2", "4", "5", "6"]
    east_codes = ["G", "I", "A", "B", "C", "H", "D", "E", "F"]
    placements = []
    for i in range(count):
        placements.append(("east", east[i].name, east_codes[i % 9]))
        placements.append(("west", west[i].name, west_codes[i % 9]))
    return west, east, placements


def campaign_in_setup(staff: Actor, west_user: Any, east_user: Any, *, name: str = "Laïtus Prime",
                      seed: int = 5, west: Sequence[DetachmentSpec] = WEST_ARMY,
                      east: Sequence[DetachmentSpec] = EAST_ARMY) -> Campaign:
    """Sides, armies, planet and majors set; nothing placed."""
    settings = normalised(SettingsSerializer, {})
    campaign = campaign_setup.create_campaign(staff, name=name, settings=settings, seed=seed)
    campaign_setup.add_side(staff, campaign, side="west", name="Marcus", army_name="Space Marines",
                            faction="space-marines", strategic_value=5, username=west_user.username)
    campaign_setup.add_side(staff, campaign, side="east", name="Grukk", army_name="Orks",
                            faction="orks", strategic_value=3, username=east_user.username)
    for side, army in ((grid.WEST, west), (grid.EAST, east)):
        report, saved = campaign_setup.set_army(staff, campaign, side, list(army))
        assert saved, report
    campaign_setup.set_majors(staff, campaign, "west", ["1", "3"])
    campaign_setup.set_majors(staff, campaign, "east", ["G", "I"])
    campaign_setup.set_planet(staff, campaign, planet="monde-ruche")
    return Campaign.objects.get(pk=campaign.pk)


def running_campaign(staff: Actor, west_user: Any, east_user: Any, *,
                     placements: Sequence[tuple[str, str, str]] = PLACEMENTS,
                     **options: Any) -> Campaign:
    """The campaign placed and started: turn 1 is open, no phase yet."""
    campaign = campaign_in_setup(staff, west_user, east_user, **options)
    for side, detachment, code in placements:
        campaign_placement.place(staff, campaign, detachment=detachment, territory=code, side=side)
    campaign_placement.start(staff, campaign)
    return Campaign.objects.get(pk=campaign.pk)
