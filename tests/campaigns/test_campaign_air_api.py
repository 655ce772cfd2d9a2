"""Air missions and airborne landings through the API (R13, R14, R19–R24, R28, R30, G27, G28).

The infiltration test's map plus west's Thunderhawk Wing based in 2 and Drop Pod Company in
orbit, east's Fighta Skwadron based in E. Kult of Speed in A carries a Flak Gun Wagon. The
campaign declares in the default sealed mode (G11): the enemy learns of a mission when the
phase's orders are revealed."""
from __future__ import annotations

import json

from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignTurn,
)
from campaigns.services import air as campaign_air
from campaigns.services import campaign as campaigns
from campaigns.services import infiltrations as campaign_infiltrations
from events.audit import Actor
from events.services import exports, restore
from tests.campaigns.started import started
from tests.campaigns.test_campaign_api import (
    Players,
    accepted,
    initiative,
    order,
    path,
)
from tests.campaigns.test_campaign_infiltration_api import EAST_ARMY, PLACEMENTS, WEST_ARMY
from tests.tournament_fixtures import expect, get, post

THUNDERHAWKS = {"name": "Thunderhawk Wing", "points": 500, "kind": "air",
                "units": [{"name": "Thunderhawk", "type": "aircraft", "tags": []}]}
DROP = {"name": "Drop Pod Company", "points": 600, "kind": "airborne", "units": [
    {"name": "Tactical Squad", "type": "infantry"},
    {"name": "Rhino", "type": "vehicle", "points": 150, "tags": ["vehicle"]}]}
FIGHTAS = {"name": "Fighta Skwadron", "points": 400, "kind": "air", "units": [
    {"name": "Fighta One", "interception_value": 4}, {"name": "Fighta Two", "interception_value": 3}]}


def running(p: Players) -> str:
    """The map above, started (through the services: these tests are not about set-up)."""
    armies = {"west": [*WEST_ARMY, THUNDERHAWKS, DROP], "east": [*EAST_ARMY, FIGHTAS]}
    placements = [*PLACEMENTS, ("east", "Fighta Skwadron", "E"), ("west", "Thunderhawk Wing", "2")]
    return started(p.staff_user, p.users, armies, placements, army_points=8000)["slug"]


def key(slug: str, side: str, public: int, turn: int = 1) -> int:
    """The database key of ``side``'s order players know by ``public`` (its number in ``turn``);
    the turn's stored air entries name orders by that key, the API by the public number."""
    return CampaignOrder.objects.get(turn__campaign__slug=slug, turn__number=turn, side=side,
                                     number=public).pk


def mission(client, slug, name, kind, **fields):
    return order(client, slug, 1, "air_mission", [name], mission=kind, **fields)


def air(client, slug) -> dict:
    return expect(get(client, path(slug, "turns/1/air/")), 200)


def test_missions_gates_and_a_landing_under_a_patrol(staff_user, db):
    p = Players(staff_user)
    slug = running(p)
    expect(mission(p.west, slug, "Thunderhawk Wing", "infiltration", to="A", route=["5", "8", "B", "A"]),
           409, "phase_closed")
    initiative(p, slug, 1, "air", [4, 2])

    # Refusals (R19–R24, G28).
    expect(mission(p.west, slug, "Thunderhawk Wing", "infiltration", to="A", route=["5", "A"]),
           400, "route_not_adjacent")
    expect(mission(p.west, slug, "Thunderhawk Wing", "infiltration", to="8", route=["5", "8"]),
           400, "target_friendly")
    expect(mission(p.west, slug, "Aquila Guard", "transport", to="5", route=["2", "5"]),
           400, "air_detachment_required")
    expect(mission(p.west, slug, "Drop Pod Company", "transport", to="5"), 400, "detachment_not_on_map")
    expect(mission(p.west, slug, "Thunderhawk Wing", "bombing", to="A"), 400, "mission_unknown")
    expect(order(p.west, slug, 1, "move", ["Aquila Guard"], **{"from": "1", "to": "2"}),
           409, "phase_closed")

    infil = accepted(mission(p.west, slug, "Thunderhawk Wing", "infiltration", to="A",
                             route=["5", "8", "B", "A"], return_route=["B", "8", "5", "2"]))
    expect(mission(p.west, slug, "Thunderhawk Wing", "interception"), 400, "mission_already_used")
    patrol = accepted(mission(p.east, slug, "Fighta Skwadron", "interception", to="8", route=["B", "8"]))
    stored = CampaignTurn.objects.get(campaign__slug=slug, number=1).orders.get(pk=key(slug, "west", infil["id"]))
    assert (stored.mission, stored.route, stored.return_route, stored.from_code) == (
        "infiltration", ["5", "8", "B", "A"], ["B", "8", "5", "2"], "2")

    # Sealed (G11): the enemy does not see the mission yet; its own side sees it whole.
    assert air(p.east, slug)["missions"] == [
        {"id": patrol["id"], "side": "east", "mission": "interception", "from": "E", "to": "8",
         "route": ["B", "8"], "return_route": [], "escort_of": None, "status": "sealed",
         "detachment": "Fighta Skwadron"}]
    assert [m["detachment"] for m in air(p.west, slug)["missions"]] == ["Thunderhawk Wing"]

    # The infiltration phase opens: the missions are told (R19), never the detachment (R12).
    initiative(p, slug, 1, "infiltration", [4, 2])
    seen = air(p.east, slug)
    told = next(m for m in seen["missions"] if m["id"] == infil["id"])
    assert told["mission"] == "infiltration" and told["route"] == ["5", "8", "B", "A"]
    assert "detachment" not in told
    assert seen["interceptions"] == [{"order": infil["id"], "side": "west", "mission": "infiltration",
                                      "interceptors": [patrol["id"]], "territories": ["8"],
                                      "escorts": []}]
    assert "Thunderhawk Wing" not in json.dumps(seen, ensure_ascii=False)

    # Staff roll the gates with table dice (R21): Kult of Speed's Flak in A fires on a 6.
    expect(post(p.west, path(slug, "turns/1/air/"), {}), 403)
    body = expect(post(p.staff, path(slug, "turns/1/air/"), {"dice": [6, 2]}), 200)
    assert body["flak"] == [{"order": infil["id"], "mission": "infiltration", "leg": "out",
                             "territory": "A",
                             "side": "east", "detachment": "Kult of Speed", "die": 6, "fires": True}]
    assert body["unused_dice"] == [2] and body["landings"] == []
    assert [line["purpose"] for line in body["dice_log"]] == ["epic.flak"]
    again = expect(post(p.staff, path(slug, "turns/1/air/"), {}), 200)
    assert again["flak"] == [] and again["dice_log"] == []  # each mission's gates once
    assert air(p.west, slug)["flak"][0]["detachment"] is None  # R12: east's detachment
    assert air(p.east, slug)["flak"][0]["detachment"] == "Kult of Speed"

    # Air infiltration (R20, R25): the same D6 per enemy detachment, a 1 ignored.
    body = expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {"dice": [1, 5]}), 200)
    (entry,) = body["infiltrations"]
    assert [(d["target"], d["die"], d["outcome"]) for d in entry["dice"]] == [
        ("Big Gunz", 1, "none"), ("Kult of Speed", 5, "war_engines")]
    assert entry["captured"] == [] and entry["from"] == "2"

    # Moves: Drop Pod Company lands in 8 from orbit (R13), under east's patrol (R14).
    initiative(p, slug, 1, "moves", [4, 2])
    expect(order(p.west, slug, 1, "move", ["Drop Pod Company"], to="B"), 400, "move_into_enemy")
    expect(order(p.west, slug, 1, "vehicles", ["Drop Pod Company"]), 400, "detachment_not_on_map")
    landing = accepted(order(p.west, slug, 1, "move", ["Drop Pod Company"], to="8"))
    expect(order(p.west, slug, 1, "vehicles", ["Drop Pod Company"]), 400, "vehicles_next_turn")
    drop = CampaignDetachment.objects.get(name="Drop Pod Company")
    assert (drop.location, drop.landed_turn, drop.vehicles_in_orbit) == ("8", 1, True)

    # The landing comes out when the attacks phase opens; its interception is rolled then on the
    # server's dice (one D6 per Fighta, below its interception value = it acts).
    initiative(p, slug, 1, "attacks", [4, 2])
    (rolled,) = [e for e in CampaignTurn.objects.get(campaign__slug=slug, number=1).air
                 if e["kind"] == "landing"]
    assert rolled["kind"] == "landing" and rolled["order"] == key(slug, "west", landing["id"])
    assert rolled["interceptor_order"] == key(slug, "east", patrol["id"]) and rolled["territory"] == "8"
    assert [(d["unit"], d["value"], d["acts"]) for d in rolled["dice"]] == [
        ("Fighta One", 4, rolled["dice"][0]["die"] < 4), ("Fighta Two", 3, rolled["dice"][1]["die"] < 3)]
    assert rolled["acting"] == sum(d["acts"] for d in rolled["dice"]) and rolled["source"] == "server"
    west_view = air(p.west, slug)["landings"][0]
    assert west_view["interceptor"] is None and {d["unit"] for d in west_view["dice"]} == {None}
    assert air(p.east, slug)["landings"][0]["detachment"] is None

    # R13: the battle counts the company without its Rhino while it waits in orbit.
    attack = accepted(order(p.east, slug, 1, "attack", ["Big Gunz"], **{"from": "A", "to": "7"}))
    expect(post(p.staff, path(slug, "turns/1/reveal/"), {}), 200)  # reactions answer revealed attacks
    accepted(order(p.west, slug, 1, "reaction", ["Drop Pod Company"], for_attack=attack["id"]))
    battles = expect(post(p.staff, path(slug, "turns/1/battles/"), {}), 201)["battles"]
    (battle,) = battles
    assert battle["defender_reserves"] == ["Drop Pod Company"]
    # Crusader Armour 1200 + Drop Pod Company 600 − its Rhino 150 still in orbit.
    assert CampaignBattle.objects.get(pk=battle["id"]).defender_points == 1200 + 450


def test_a_transport_attacks_its_target_and_an_orbiting_company_lands_by_attack(staff_user, db):
    p = Players(staff_user, prefix="t")
    slug = running(p)
    initiative(p, slug, 1, "air", [4, 2])
    transport = accepted(mission(p.west, slug, "Thunderhawk Wing", "transport", to="A",
                                 route=["5", "8", "B", "A"], return_route=["B", "8", "5", "2"]))
    initiative(p, slug, 1, "attacks", [4, 2])  # infiltration and moves skipped
    (gates,) = CampaignTurn.objects.get(campaign__slug=slug, number=1).air
    # R21: Flak anywhere on a transport's route; only Kult of Speed (in A) has Flak.
    assert gates["order"] == key(slug, "west", transport["id"]) and [f["detachment"] for f in gates["flak"]] == ["Kult of Speed"]
    assert gates["source"] == "server"
    expect(order(p.west, slug, 1, "attack", ["Thunderhawk Wing"], to="B"), 400,
           "transport_target_mismatch")
    accepted(order(p.west, slug, 1, "attack", ["Thunderhawk Wing", "Hold Guard"], to="A"))
    accepted(order(p.west, slug, 1, "attack", ["Drop Pod Company"], to="E"))  # R28: any territory
    expect(order(p.west, slug, 1, "attack", ["Drop Pod Company"], to="C"), 400,
           "detachment_already_committed")
    battles = expect(post(p.staff, path(slug, "turns/1/battles/"), {}), 201)["battles"]
    by_territory = {b["territory"]: b for b in battles}
    assert by_territory["A"]["attackers"] == ["Thunderhawk Wing", "Hold Guard"]
    assert by_territory["A"]["attacker_reserves"] == ["Thunderhawk Wing", "Hold Guard"]  # R30
    assert by_territory["E"]["attacker_reserves"] == ["Drop Pod Company"]
    assert CampaignDetachment.objects.get(name="Drop Pod Company").location == ""  # still in orbit


def test_a_restored_campaign_keeps_its_air_rolls_and_infiltrations_on_the_new_orders(staff_user, db):
    """The turn's air entries and infiltration results name orders: a copy's name the copy's
    orders, so nothing is rolled twice and the interceptions still point at their missions."""
    p = Players(staff_user)
    slug = running(p)
    initiative(p, slug, 1, "air", [4, 2])
    accepted(mission(p.west, slug, "Thunderhawk Wing", "infiltration", to="A",
                     route=["5", "8", "B", "A"]))
    accepted(mission(p.east, slug, "Fighta Skwadron", "interception", to="8", route=["B", "8"]))
    initiative(p, slug, 1, "infiltration", [4, 2])
    expect(post(p.staff, path(slug, "turns/1/air/"), {"dice": [6]}), 200)
    expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {"dice": [3, 4]}), 200)
    original = Campaign.objects.get(slug=slug)
    document = json.loads(json.dumps(exports.event_data(original.tournament)))
    turn_doc = document["campaign"]["turns"][0]
    refs = {o["ref"] for o in turn_doc["orders"]}
    assert {e["order"] for e in turn_doc["air"]} | {e["order"] for e in turn_doc["infiltrations"]} <= refs

    copy = restore.restore_event(Actor(staff_user), document, slug="copy").campaign
    turn = copy.turns.get(number=1)
    orders = set(turn.orders.values_list("pk", flat=True))
    missions = {e["order"] for e in turn.air}
    assert missions <= orders and {e["order"] for e in turn.infiltrations} <= orders
    assert all(set(e["interceptors"]) <= orders for e in turn.air)
    assert campaign_air.anything_pending(copy, turn) is False
    assert campaign_infiltrations.pending(campaigns.state_of(copy, turn), turn) == []
