"""Air missions and landings on the player's page and in the cockpit (R13, R14, R19–R24): forms
offering only legal choices, the enemy told the mission and route but never the detachment
(R12), the cockpit's button rolling the air gates with typed dice, the turn pack's report."""
from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest

from campaigns.engine.army import FLAK, VEHICLE, DetachmentSpec, Unit
from campaigns.models import CampaignDetachment, CampaignOrder
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import pack as campaign_pack
from campaigns.services import pack_report
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import current_turn
from tests.browser.campaigns import EAST_ARMY, PLACEMENTS, WEST_ARMY, running_campaign
from tests.campaigns.test_campaign_pages import (
    actor_of,
    assert_offers_only_accepted,
    client_of,
    cockpit,
    declare,
    options,
    page,
    press,
)

pytestmark = pytest.mark.django_db
OrderInput = campaign_turns.OrderInput


def air_campaign(organiser, accounts):
    """West's Storm Wing based in 2 and Thunder Drop (with a Rhino) in orbit; east's Fighta
    Skwadron based in B, and a Flak Gun Wagon with Big Gunz in A."""
    west = [*(replace(d, units=(Unit("Tactical"), Unit("Rhino", "vehicle", 150, frozenset({VEHICLE}))))
              if d.name == "Thunder Drop" else replace(d, points=900) if d.name == "Crusader Armour"
              else d for d in WEST_ARMY),
            DetachmentSpec("Storm Wing", 300, "air", units=(Unit("Thunderbolt"),))]
    east = [*(replace(d, points=1300, units=(Unit("Gun Wagon", tags=frozenset({FLAK})),))
              if d.name == "Big Gunz"
              else d for d in EAST_ARMY),
            DetachmentSpec("Fighta Skwadron", 200, "air",
                           units=(Unit("Fighta", interception_value=5),))]
    placements = [*PLACEMENTS, ("east", "Fighta Skwadron", "B"), ("west", "Storm Wing", "2")]
    return running_campaign(organiser, accounts["west"], accounts["east"], west=west, east=east,
                            placements=placements)


def test_air_missions_landings_and_what_each_side_reads(staff_actor, people, desk):
    game = air_campaign(staff_actor, people)
    west, east = client_of(people["west"]), client_of(people["east"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "air", [4, 2])
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("air_mission",))
    labels = {label for _v, label in options(html, "air_mission")}
    assert "Storm Wing: infiltration to A (2 → 1 → 4 → 7 → A)" in labels
    assert not any("infiltration to 5" in label for label in labels)  # R20: an enemy territory
    assert declare(west, game, "air_mission", "Storm Wing: infiltration to A (2 → 1 → 4 → 7 → A)"
                   ).status_code == 302
    row = CampaignOrder.objects.get(kind="air_mission", side="west")
    assert (row.route, row.return_route) == (["1", "4", "7", "A"], ["7", "4", "1", "2"])
    assert options(page(west, game), "air_mission") == []  # one mission a turn (R20)
    campaign_turns.declare_order(actor_of(people["east"]), game, 1,
                                 OrderInput("air_mission", ("Fighta Skwadron",), to="7",
                                            mission="interception", route=("A", "7")))

    # The missions come out as the next phase opens: told by kind and route (R19), no name.
    campaign_turns.roll_initiative(staff_actor, game, 1, "infiltration", [4, 2])
    html = unescape(page(east, game))
    air = re.search(r'<div class="air" id="air">(.*?)</div>', html, re.S).group(1)
    assert "West: infiltration, A, route 2 → 1 → 4 → 7 → A" in air and "Storm Wing" not in html
    assert "may be intercepted over 7" in air

    # The cockpit rolls the gates with typed dice: the Gun Wagon's Flak fires on a 6 (R21).
    cockpit_html = desk.get(cockpit(game)).content.decode()
    assert 'id="resolve-air"' in cockpit_html and "Storm Wing" in unescape(cockpit_html)
    said = press(desk, game, action="air", dice="6")
    assert "1 Flak dice" in said, said
    assert 'id="resolve-air"' not in desk.get(cockpit(game)).content.decode()
    assert "Flak in A (enemy Flak) against" in unescape(page(west, game))
    assert "Flak in A (Big Gunz) against" in unescape(page(east, game))

    # The air infiltration is resolved with the ground ones: a 1 is ignored (R25).
    (done,) = campaign_infiltrations.resolve_infiltrations(staff_actor, game, 1, [1])["infiltrations"]
    assert [(d["target"], d["outcome"]) for d in done["dice"]] == [("Big Gunz", "none")]

    # Moves: Thunder Drop lands in 7 under the Fighta's patrol (R13, R14).
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [4, 2])
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("move",))
    assert declare(west, game, "move", "Thunder Drop lands from orbit: move on 7").status_code == 302
    drop = CampaignDetachment.objects.get(name="Thunder Drop")
    assert (drop.location, drop.vehicles_in_orbit) == ("7", True)
    assert options(page(west, game), "vehicles") == []  # R13: in a later turn
    campaign_turns.roll_initiative(staff_actor, game, 1, "attacks", [4, 2])  # reveals, then rolls
    landing = [e for e in current_turn(game).air if e["kind"] == "landing"]
    assert len(landing) == 1 and len(landing[0]["dice"]) == 1
    west_page = unescape(page(west, game))
    assert "intercepted by #" in west_page and "Landing ships have armour 6+" in west_page
    assert "intercepted by Fighta Skwadron" in unescape(page(east, game))

    # The turn pack's report says what both players know (no detachment name).
    report = pack_report.turn_report(game, current_turn(game), {"sides": {}},
                                       campaign_pack.both_players(game), [])
    text = " ".join(report.air)
    assert "West: infiltration, A" in text and "Storm Wing" not in text and "Fighta Skwadron" not in text
    assert any(line.purpose == "Flak" for line in report.rolls)
