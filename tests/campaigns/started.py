"""A started Epic 40,000 campaign built through the campaign services, for the tests that are not
about set-up: the same bodies, actors and order of calls as the API's create, sides, armies,
majors, placements and start (tests/campaigns/test_campaign_api.py ``running_over_http``, which
``test_services_build_what_the_api_builds`` compares with this), without the HTTP round trips.
Set-up, placement and start themselves are tested through the API in test_campaign_api.py."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from campaigns.serializers import detachment_spec
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.state_serializers import (
    ArmyBodySerializer,
    CampaignCreateSerializer,
    CampaignSideSerializer,
    SettingsSerializer,
)
from events.audit import Actor
from events.systems import normalised

# The address DRF's test client sends: the audit entries read as if the API had been called.
CLIENT_IP = "127.0.0.1"
MAJORS = {"west": ["1", "3"], "east": ["G", "I"]}


def checked(serializer: type, body: Mapping[str, Any]) -> dict[str, Any]:
    """``body`` as the API view would read it (defaults filled in)."""
    found = serializer(data=dict(body))
    found.is_valid(raise_exception=True)
    return dict(found.validated_data)


def side_bodies(users: Mapping[str, Any], west_value: int = 5, east_value: int = 3) -> dict[str, dict]:
    """The organiser's two ``sides/`` bodies of the seed's example (test_campaign_api ``add_sides``)."""
    return {
        "west": {"side": "west", "username": users["west"].username, "name": "Marcus",
                 "army_name": "Space Marines", "faction": "space-marines",
                 "strategic_value": west_value},
        "east": {"side": "east", "username": users["east"].username, "name": "Grukk",
                 "army_name": "Orks", "faction": "orks", "strategic_value": east_value},
    }


def started(staff_user: Any, users: Mapping[str, Any], armies: Mapping[str, Sequence[dict]],
            placements: Iterable[tuple[str, str, str]], **body: Any) -> dict[str, Any]:
    """The campaign created with ``body`` (name, seed, army_points, settings), its sides, the
    ``armies`` (API detachment bodies), the seed's majors, ``placements`` made by each side's
    player, then started; answers like the API helper: its slug and each side's player key."""
    staff = Actor(user=staff_user, ip=CLIENT_IP)
    actors = {side: Actor(user=user, ip=CLIENT_IP) for side, user in users.items()}
    data = checked(CampaignCreateSerializer, {"name": "Laïtus Prime", **body})
    settings = data.get("settings") or normalised(SettingsSerializer, {})
    campaign = campaign_setup.create_campaign(staff, name=data["name"], settings=settings,
                                              army_points=data["army_points"], seed=data.get("seed"))
    sides = {side: campaign_setup.add_side(staff, campaign, **checked(CampaignSideSerializer, side_body))
             for side, side_body in side_bodies(users).items()}
    for side, army in armies.items():
        rows = checked(ArmyBodySerializer, {"detachments": list(army)})["detachments"]
        report, saved = campaign_setup.set_army(actors[side], campaign, side,
                                                [detachment_spec(row) for row in rows])
        assert saved, report
    for side, majors in MAJORS.items():
        campaign_setup.set_majors(actors[side], campaign, side, majors)
    for side, name, code in placements:
        campaign_placement.place(actors[side], campaign, detachment=name, territory=code)
    campaign_placement.start(staff, campaign)
    return {"slug": campaign.slug, "players": {side: row.player_id for side, row in sides.items()}}
