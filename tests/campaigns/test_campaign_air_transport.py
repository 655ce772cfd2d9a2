"""Air transports of friendly troops (R23), the R34 exception for isolated airborne detachments,
the Flak of a failed transport's return route rolled at the close (R21, R23), through the API,
the player's page and the cockpit's force-order form.

The air API test's map: west's Thunderhawk Wing based in 2 with Hold Guard, Drop Pod Company in
orbit; east's Fighta Skwadron based in E; Kult of Speed (in A) carries a Flak Gun Wagon."""
from __future__ import annotations

import json
from html import unescape

import pytest

from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignTurn
from campaigns.pages.air import air_lines
from campaigns.services import air as campaign_air
from campaigns.services import overrides as campaign_overrides
from campaigns.services import pack_report
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import state_of
from events.audit import Actor
from events.models import AuditEntry
from events.services import exports, restore
from tests.campaigns.test_campaign_air_api import air, mission, running
from tests.campaigns.test_campaign_air_pages import air_campaign
from tests.campaigns.test_campaign_api import Players, accepted, confirm, initiative, order, path
from tests.campaigns.test_campaign_pages import (
    assert_offers_only_accepted,
    client_of,
    cockpit,
    declare,
    options,
    page,
    press,
)
from tests.tournament_fixtures import expect, get, post

OrderInput = campaign_turns.OrderInput


def key(slug: str, public: int) -> int:
    """The database key of the order players know by ``public``."""
    return CampaignOrder.objects.get(turn__campaign__slug=slug, number=public).pk


def where(name: str) -> str:
    return CampaignDetachment.objects.get(name=name).location


def test_a_transport_carries_the_troops_of_its_base_with_one_move(staff_user, db):
    p = Players(staff_user, prefix="tm")
    slug = running(p)
    initiative(p, slug, 1, "air", [4, 2])
    accepted(mission(p.west, slug, "Thunderhawk Wing", "transport", to="9", route=["5", "8", "9"]))
    initiative(p, slug, 1, "moves", [4, 2])  # infiltration skipped
    expect(order(p.west, slug, 1, "move", ["Thunderhawk Wing"], to="9"), 400,
           "transport_troops_required")
    expect(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Hold Guard"], to="8"), 400,
           "transport_target_mismatch")
    expect(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Aquila Guard"], to="9"), 400,
           "detachment_not_in_territory")
    moved = accepted(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Hold Guard"], to="9"))
    row = CampaignOrder.objects.get(pk=key(slug, moved["id"]))
    assert (row.detachments, row.from_code) == (["Thunderhawk Wing", "Hold Guard"], "2")
    assert (where("Thunderhawk Wing"), where("Hold Guard")) == ("9", "9")  # 2 → 9, no adjacency
    expect(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Hold Guard"], to="9"), 400,
           "transport_already_used")

    # An organiser takes the transport back: both go home; declared again, it stands.
    campaign = Campaign.objects.get(slug=slug)
    campaign_overrides.refuse_order(Actor(staff_user), campaign, key(slug, moved["id"]), "wrong target")
    assert (where("Thunderhawk Wing"), where("Hold Guard")) == ("2", "2")
    again = accepted(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Hold Guard"], to="9"))
    initiative(p, slug, 1, "attacks", [4, 2])  # the sealed moves are revealed and re-checked
    row = CampaignOrder.objects.get(pk=key(slug, again["id"]))
    assert row.status == CampaignOrder.ACCEPTED and row.bonus == ""
    assert (where("Thunderhawk Wing"), where("Hold Guard")) == ("9", "9")


def test_isolated_airborne_troops_leave_only_by_a_transport(staff_user, db):
    p = Players(staff_user, prefix="ti")
    slug = running(p)
    Campaign.objects.filter(slug=slug).update(isolated=["2"])  # as if the last close found it
    CampaignDetachment.objects.filter(name="Drop Pod Company").update(location="2", landed_turn=1)
    initiative(p, slug, 1, "air", [4, 2])
    expect(mission(p.west, slug, "Thunderhawk Wing", "interception"), 400, "detachment_isolated")
    accepted(mission(p.west, slug, "Thunderhawk Wing", "transport", to="5", route=["5"]))
    initiative(p, slug, 1, "moves", [4, 2])
    expect(order(p.west, slug, 1, "move", ["Hold Guard"], to="5"), 400, "detachment_isolated")
    refused = expect(order(p.west, slug, 1, "move",
                           ["Thunderhawk Wing", "Drop Pod Company", "Hold Guard"], to="5"), 400,
                     "detachment_isolated")
    assert "Hold Guard" in refused["detail"]
    accepted(order(p.west, slug, 1, "move", ["Thunderhawk Wing", "Drop Pod Company"], to="5"))
    assert (where("Drop Pod Company"), where("Hold Guard")) == ("5", "2")


def test_a_failed_transport_flies_back_under_flak_at_the_close(staff_user, db):
    p = Players(staff_user, prefix="tf")
    slug = running(p)
    initiative(p, slug, 1, "air", [4, 2])
    patrol = accepted(mission(p.east, slug, "Fighta Skwadron", "interception", to="8",
                              route=["B", "8"]))
    transport = accepted(mission(p.west, slug, "Thunderhawk Wing", "transport", to="A",
                                 route=["5", "8", "B", "A"], return_route=["B", "8", "5", "2"]))
    initiative(p, slug, 1, "moves", [4, 2])
    accepted(order(p.east, slug, 1, "move", ["Kult of Speed"], **{"from": "A", "to": "B"}))
    initiative(p, slug, 1, "attacks", [4, 2])
    accepted(order(p.west, slug, 1, "attack", ["Thunderhawk Wing", "Hold Guard"], to="A"))
    (battle,) = expect(post(p.staff, path(slug, "turns/1/battles/"), {}), 201)["battles"]
    gid = battle["game"]
    expect(post(p.west, f"/games/{gid}/report/",
                {"result": {"winner": battle["players"]["defender"]}}), 200)
    expect(confirm(p.east, gid), 200)
    turn = CampaignTurn.objects.get(campaign__slug=slug, number=1)
    outbound = [e for e in turn.air if e["kind"] == "mission"]
    assert "leg" not in outbound[0]  # the way out, as before

    expect(post(p.staff, path(slug, "turns/1/close/"),
                {"other_sectors_dice": {"west": 3, "east": 3}}), 200)
    turn.refresh_from_db()
    (back,) = [e for e in turn.air if e.get("leg") == "return"]
    (die,) = back["flak"]
    assert back["order"] == key(slug, transport["id"]) and back["source"] == "server"
    assert (die["territory"], die["side"], die["detachment"]) == ("B", "east", "Kult of Speed")
    assert 1 <= die["die"] <= 6 and die["fires"] == (die["die"] == 6)  # R21
    assert (back["interceptors"], back["territories"]) == ([key(slug, patrol["id"])], ["8"])
    logged = AuditEntry.objects.filter(action="campaign_air").order_by("pk").last()
    assert logged.data["missions"][0]["leg"] == "return"
    assert [d["purpose"] for d in logged.data["dice_log"]] == ["epic.flak"]

    # Each side reads it like the way out; R12: east's Flak stays east's.
    west = air(p.west, slug)
    (told,) = [f for f in west["flak"] if f["leg"] == "return"]
    assert told["detachment"] is None and told["order"] == transport["id"]
    assert west["returns"] == [{"order": transport["id"], "side": "west", "mission": "transport",
                                "return_route": ["B", "8", "5", "2"],
                                "interceptors": [patrol["id"]], "territories": ["8"],
                                "escorts": []}]
    assert "Thunderhawk Wing" not in json.dumps(air(p.east, slug), ensure_ascii=False)
    assert [f["leg"] for f in air(p.east, slug)["flak"]].count("return") == 1
    campaign = Campaign.objects.get(slug=slug)
    lines = air_lines(campaign, turn, "west")
    assert any(f"against #{transport['id']} flying back: {die['die']}" in line
               for line in lines["flak"])
    assert (f"#{transport['id']} flies back by B → 8 → 5 → 2 after a failed attack: it may be "
            f"intercepted over 8 by #{patrol['id']}") in lines["interceptions"]
    report = pack_report.shared_air(campaign, turn)  # the turn pack's report
    assert any("flying back" in line for line in report)
    assert not any("Thunderhawk" in line or "Kult of Speed" in line for line in report)
    assert campaign_air.return_flak(Actor(staff_user), campaign, turn, state_of(campaign, turn),
                                    {}) == []  # nothing twice

    # A backup maps the return entry's order ids onto the copy's orders.
    document = json.loads(json.dumps(exports.event_data(campaign.tournament)))
    copy = restore.restore_event(Actor(staff_user), document, slug="copy").campaign
    copied = copy.turns.get(number=1)
    orders = set(copied.orders.values_list("pk", flat=True))
    (back_copy,) = [e for e in copied.air if e.get("leg") == "return"]
    assert back_copy["order"] in orders and set(back_copy["interceptors"]) <= orders


@pytest.mark.django_db
def test_the_page_offers_transports_with_their_own_label(staff_actor, people, desk):
    game = air_campaign(staff_actor, people)
    CampaignDetachment.objects.filter(name="Eagle Scouts").update(location="2")
    west = client_of(people["west"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "air", [4, 2])
    assert declare(west, game, "air_mission", "Storm Wing: transport / ground attack to 6 (2 → 3 → 6)"
                   ).status_code == 302
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [4, 2])
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("move",))
    label = "Air transport 2 → 6 by Storm Wing carrying Eagle Scouts"
    assert label in {text for _v, text in options(html, "move")}
    assert declare(west, game, "move", label).status_code == 302
    assert (where("Storm Wing"), where("Eagle Scouts")) == ("6", "6")
    after = page(west, game)
    assert label not in {text for _v, text in options(after, "move")}  # one transport a mission
    assert label in unescape(after)  # printed with the player's orders



@pytest.mark.django_db
def test_the_cockpit_forces_an_air_mission_with_its_routes(staff_actor, people, desk):
    game = air_campaign(staff_actor, people)
    Campaign.objects.filter(pk=game.pk).update(isolated=["2"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "air", [4, 2])
    # Storm Wing, based in isolated 2, may not infiltrate (R34): staff set the rule aside.
    said = press(desk, game, action="force_order", side="west", kind="air_mission",
                 detachments="Storm Wing", mission="infiltration", to_code="A",
                 route="1, 4, 7, A", return_route="7,4,1,2", reason="ruling")
    assert "forced through" in said, said
    row = CampaignOrder.objects.get(kind="air_mission", side="west")
    assert (row.mission, row.from_code, row.to_code, row.route, row.return_route) == (
        "infiltration", "2", "A", ["1", "4", "7", "A"], ["7", "4", "1", "2"])
    bad = press(desk, game, action="force_order", side="west", kind="air_mission",
                detachments="Storm Wing", mission="escort", route="1, Z", reason="ruling")
    assert "Unknown territory code(s): Z." in bad, bad
    assert CampaignOrder.objects.filter(kind="air_mission").count() == 1
    html = unescape(desk.get(cockpit(game)).content.decode())
    assert "infiltration, A, route 2 → 1 → 4 → 7 → A" in html
    assert all(f'id="id_force_{name}"' in html
               for name in ("mission", "route", "return_route", "escort_of"))


def test_force_order_stores_an_escort_link(staff_user, db):
    p = Players(staff_user, prefix="te")
    slug = running(p)
    campaign = Campaign.objects.get(slug=slug)
    side = campaign.sides.get(side="west")
    CampaignDetachment.objects.create(side=side, name="Lightning Wing", points=300, kind="air",
                                      location="5", position=99)
    initiative(p, slug, 1, "air", [4, 2])
    Campaign.objects.filter(slug=slug).update(isolated=["5"])
    transport = accepted(mission(p.west, slug, "Thunderhawk Wing", "transport", to="9",
                                 route=["5", "8", "9"]))
    organiser = Actor(staff_user)
    # An escort from isolated 5 linked to a transport from 2: R34 keeps it home; forced.
    forced = campaign_overrides.force_order(organiser, campaign, 1, OrderInput(
        "air_mission", ("Lightning Wing",), side="west", mission="escort", route=("8", "9"),
        escort_of=key(slug, transport["id"])), "ruling")
    assert forced.refusal is not None and forced.refusal.code == "detachment_isolated"
    row = forced.order
    assert (row.mission, row.from_code, row.to_code, row.route, row.escort_of_id) == (
        "escort", "5", "9", ["8", "9"], key(slug, transport["id"]))
    seen = expect(get(p.staff, path(slug, "turns/1/air/")), 200)
    assert {m["id"]: m["escort_of"] for m in seen["missions"]}[row.number] == transport["id"]
