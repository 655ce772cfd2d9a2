"""Ground infiltration through the API (R25 with R12, G22): units with tags in the armies, the
infiltration order and its refusals, the resolution with entered dice (6, 5, 1, 3) or at the
next phase on the server's dice, the reveals on the map and the captured units.

The map: west Crusader Armour in 7 and Eagle Scouts in 9 carry infiltrators; east Big Gunz and
Kult of Speed stand in A, Deff Dread Mob in C; Kult of Speed's Kommandos infiltrate 7."""
from __future__ import annotations

import json

import pytest

from campaigns.models import CampaignDetachment, CampaignReveal, CampaignTurn
from missions.models import DiceRoll
from tests.campaigns.started import started
from tests.campaigns.test_campaign_api import (
    Players,
    accepted,
    add_sides,
    create,
    initiative,
    order,
    path,
    set_army,
    territory,
)
from tests.tournament_fixtures import expect, get, post, put

SCOUTS = {"name": "Scout Squad", "type": "infantry", "points": 50, "tags": ["infiltrator"]}
WEST_ARMY = [
    {"name": "Aquila Guard", "points": 1000},
    {"name": "Bastion Guard", "points": 1000},
    {"name": "Captain Varro", "points": 800, "supreme_commander": True},
    {"name": "Crusader Armour", "points": 1200, "units": [
        SCOUTS, {"name": "Predator", "type": "tank", "points": 300, "tags": ["vehicle"]}]},
    {"name": "Eagle Scouts", "points": 400, "units": [
        {"name": "Eagle Squad", "type": "infantry", "tags": ["infiltrator"]},
        {"name": "Land Speeder", "type": "skimmer", "tags": ["vehicle"]}]},
    {"name": "Hold Guard", "points": 500},
]
EAST_ARMY = [
    {"name": "Mob Gork", "points": 1000},
    {"name": "Mob Mork", "points": 1000},
    {"name": "Warboss Grukk", "points": 700, "supreme_commander": True},
    {"name": "Big Gunz", "points": 1000, "units": [
        {"name": "Great Gargant", "type": "gargant", "points": 600, "tags": ["war_engine"]}]},
    {"name": "Kult of Speed", "points": 700, "units": [
        {"name": "Kommandos", "type": "infantry", "tags": ["infiltrator"]},
        {"name": "Squiggoth", "type": "squiggoth", "tags": ["war_engine"]},
        {"name": "Gun Wagon", "type": "vehicle", "tags": ["vehicle", "flak"]}]},
    {"name": "Deff Dread Mob", "points": 500},
]
PLACEMENTS = [
    ("east", "Mob Gork", "G"), ("west", "Aquila Guard", "1"), ("east", "Mob Mork", "I"),
    ("west", "Bastion Guard", "3"), ("east", "Warboss Grukk", "D"),
    ("west", "Captain Varro", "4"), ("east", "Big Gunz", "A"), ("west", "Crusader Armour", "7"),
    ("east", "Kult of Speed", "A"), ("west", "Eagle Scouts", "9"),
    ("east", "Deff Dread Mob", "C"), ("west", "Hold Guard", "2"),
]


def running(p: Players) -> str:
    """The map above, started (through the services: these tests are not about set-up)."""
    return started(p.staff_user, p.users, {"west": WEST_ARMY, "east": EAST_ARMY}, PLACEMENTS)["slug"]


def infiltrate(client, slug, name, from_, to):
    return order(client, slug, 1, "infiltration", [name], **{"from": from_, "to": to})


def everything_seen(client, slug) -> str:
    bodies = [get(client, path(slug, "map/")), get(client, path(slug, "turns/1/infiltrations/"))]
    for response in bodies:
        assert response.status_code == 200, response.content[:300]
    return json.dumps([r.json() for r in bodies], ensure_ascii=False)


def test_units_and_their_tags_in_the_armies(staff_user, db):
    p = Players(staff_user)
    slug = create(p.staff)["slug"]
    add_sides(p, slug)
    body = {"detachments": [{"name": "Odd", "points": 10, "units": [{"name": "X", "tags": ["psyker"]}]}]}
    response = put(p.west, path(slug, "sides/west/army/"), body)
    assert response.status_code == 400 and "tags" in response.content.decode()
    response = post(p.west, "/epic40k/army/validate/", {"faction": "orks", **body})
    assert response.status_code == 400 and "tags" in response.content.decode()
    valid = expect(post(p.west, "/epic40k/army/validate/", {"faction": "orks", "detachments": WEST_ARMY}), 200)
    assert valid["valid"] and valid["total_points"] == 4900
    assert set_army(p.west, slug, "west", WEST_ARMY)["saved"]
    army = expect(get(p.west, path(slug, "sides/west/army/")), 200)
    crusader = next(d for d in army["detachments"] if d["name"] == "Crusader Armour")
    assert crusader["units"][0] == SCOUTS and crusader["captured_units"] == []
    plain = next(d for d in army["detachments"] if d["name"] == "Aquila Guard")
    assert plain["units"] == []
    expect(get(p.east, path(slug, "sides/west/army/")), 403)


def test_declare_and_resolve_with_entered_dice(staff_user, db):
    p = Players(staff_user)
    slug = running(p)
    expect(infiltrate(p.west, slug, "Crusader Armour", "7", "A"), 409, "phase_closed")
    initiative(p, slug, 1, "infiltration", [4, 2])
    expect(order(p.west, slug, 1, "move", ["Crusader Armour"], **{"from": "7", "to": "8"}),
           409, "phase_closed")
    expect(infiltrate(p.west, slug, "Aquila Guard", "1", "A"), 400, "not_infiltrator")
    expect(infiltrate(p.west, slug, "Eagle Scouts", "9", "A"), 400, "infiltration_not_adjacent")
    expect(infiltrate(p.west, slug, "Eagle Scouts", "9", "8"), 400, "target_friendly")
    expect(infiltrate(p.east, slug, "Crusader Armour", "7", "A"), 400, "detachment_unknown")
    assert accepted(infiltrate(p.west, slug, "Crusader Armour", "7", "A"))["bonus"] is None
    expect(infiltrate(p.west, slug, "Crusader Armour", "7", "A"), 400, "mission_already_used")
    accepted(infiltrate(p.west, slug, "Eagle Scouts", "9", "C"))
    accepted(infiltrate(p.east, slug, "Kult of Speed", "A", "7"))
    expect(post(p.west, path(slug, "turns/1/infiltrations/"), {}), 403)

    # West's Armour rolls against Big Gunz (6) and Kult of Speed (5), the Scouts against Deff
    # Dread Mob (1), east's Kult against Crusader Armour (3).
    body = expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {"dice": [6, 5, 1, 3, 2]}), 200)
    assert body["unused_dice"] == [2]
    assert [(e["detachment"], [(d["target"], d["die"], d["outcome"]) for d in e["dice"]])
            for e in body["infiltrations"]] == [
        ("Crusader Armour", [("Big Gunz", 6, "full_sheet"), ("Kult of Speed", 5, "war_engines")]),
        ("Eagle Scouts", [("Deff Dread Mob", 1, "captured")]),
        ("Kult of Speed", [("Crusader Armour", 3, "none")])]
    assert {line["purpose"] for line in body["dice_log"]} == {"epic.infiltration"}
    assert {line["source"] for line in body["dice_log"]} == {"entered"}
    again = expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {}), 200)
    assert again["infiltrations"] == []  # each order is resolved once

    # The reveals (R12): a 6 names Big Gunz to west, a 5 shows Kult of Speed's war engines only,
    # the 1 names Eagle Scouts to east, the 3 shows nothing.
    levels = {(r.detachment.name, r.to_side): (r.level, r.source)
              for r in CampaignReveal.objects.select_related("detachment")}
    assert levels == {("Big Gunz", "west"): ("full", "infiltration"),
                      ("Kult of Speed", "west"): ("war_engines", "infiltration"),
                      ("Eagle Scouts", "east"): ("full", "capture")}
    west_map = expect(get(p.west, path(slug, "map/")), 200)
    counters = {c["detachment"] or c["army_name"]: c for c in territory(west_map, "A")["counters"]}
    assert set(counters) == {"Big Gunz", "Orks"}
    assert counters["Orks"]["war_engines"] == [{"name": "Squiggoth", "type": "squiggoth"}]
    assert "war_engines" not in counters["Big Gunz"]
    assert territory(west_map, "C")["counters"] == [
        {"side": "east", "army_name": "Orks", "detachment": None}]
    east_map = expect(get(p.east, path(slug, "map/")), 200)
    assert [c["detachment"] for c in territory(east_map, "9")["counters"]] == ["Eagle Scouts"]
    assert [c["detachment"] for c in territory(east_map, "7")["counters"]] == [None]

    # G22: the captured infiltrators leave Eagle Scouts for good.
    scouts = CampaignDetachment.objects.get(name="Eagle Scouts")
    assert [u["name"] for u in scouts.units] == ["Land Speeder"]
    assert [u["name"] for u in scouts.captured_units] == ["Eagle Squad"]
    army = expect(get(p.west, path(slug, "sides/west/army/")), 200)
    assert next(d for d in army["detachments"] if d["name"] == "Eagle Scouts")["captured_units"][0][
        "name"] == "Eagle Squad"

    # What each side reads of the results.
    west_text, east_text = everything_seen(p.west, slug), everything_seen(p.east, slug)
    for hidden in ("Kult of Speed", "Deff Dread Mob", "Mob Gork", "Warboss Grukk", "Kommandos"):
        assert hidden not in west_text, hidden
    assert "Great Gargant" in west_text and "Squiggoth" in west_text
    for hidden in ("Crusader Armour", "Aquila Guard", "Scout Squad", "Predator", "Land Speeder"):
        assert hidden not in east_text, hidden
    assert "Eagle Scouts" in east_text and "Eagle Squad" in east_text
    staff_view = expect(get(p.staff, path(slug, "turns/1/infiltrations/")), 200)
    assert len(staff_view["infiltrations"]) == 3
    expect(get(p.stranger, path(slug, "turns/1/infiltrations/")), 403)

    # The next phase opens normally; infiltration orders are over.
    initiative(p, slug, 1, "moves", [4, 2])
    expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {}), 409, "infiltration_phase_closed")


def test_unresolved_infiltrations_roll_when_the_next_phase_opens(staff_user, db):
    p = Players(staff_user)
    slug = running(p)
    initiative(p, slug, 1, "infiltration", [4, 2])
    accepted(infiltrate(p.west, slug, "Crusader Armour", "7", "A"))
    # Dice thrown at the table for the initiative: the infiltrations need theirs first.
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "moves", "dice": [4, 2]}),
           409, "infiltrations_unresolved")
    before = DiceRoll.objects.filter(purpose="epic.infiltration").count()
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "moves"}), 200)
    assert DiceRoll.objects.filter(purpose="epic.infiltration").count() == before + 2
    turn = CampaignTurn.objects.get(number=1)
    (entry,) = turn.infiltrations
    assert entry["source"] == "server" and [d["target"] for d in entry["dice"]] == [
        "Big Gunz", "Kult of Speed"]


@pytest.mark.parametrize("face", [2, 3, 4])
def test_two_to_four_reveal_nothing(staff_user, db, face):
    p = Players(staff_user)
    slug = running(p)
    initiative(p, slug, 1, "infiltration", [4, 2])
    accepted(infiltrate(p.west, slug, "Eagle Scouts", "9", "C"))
    expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {"dice": [face]}), 200)
    assert not CampaignReveal.objects.exists()
    assert [u["name"] for u in CampaignDetachment.objects.get(name="Eagle Scouts").units] == [
        "Eagle Squad", "Land Speeder"]
