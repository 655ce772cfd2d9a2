"""The Epic 40,000 campaign pages: the player's page (who sees what, order forms that offer only
what the engine accepts, a battle reported, confirmed and its choices made on the page, the
ledger and the map after the close), the hidden-information rule over every page a player can
load (R12), query counts at two army sizes, and the organiser's cockpit with its audited
overrides (campaigns/services/overrides.py).

The campaign is the seed's example map of tests/campaigns/test_campaign_api.py, built through
the services (tests/browser/campaigns.py)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.choices import order_of
from campaigns.engine.army import INFILTRATOR, WAR_ENGINE, Unit
from campaigns.engine.orders import check_order
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignScoreEntry,
)
from campaigns.services import battles as campaign_battles
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import overrides as campaign_overrides
from campaigns.services import placement as campaign_placement
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import current_turn, state_of
from campaigns.services.order_numbers import public_ids
from events.audit import Actor
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game
from events.services import results
from tests.browser.campaigns import (
    EAST_ARMY,
    EAST_NAMES,
    PLACEMENTS,
    WEST_ARMY,
    WEST_NAMES,
    big_armies,
    campaign_in_setup,
    running_campaign,
)
from tests.browser.events import user

pytestmark = pytest.mark.django_db
OrderInput = campaign_turns.OrderInput


@pytest.fixture
def game(staff_actor, people) -> Campaign:
    return running_campaign(staff_actor, people["west"], people["east"])


def actor_of(account: Any) -> Actor:
    return Actor(user=account)


def client_of(account: Any = None) -> Client:
    client = Client()
    if account is not None:
        client.force_login(account)
    return client


def url(campaign: Campaign) -> str:
    return reverse("campaign", args=[campaign.slug])


def page(client: Client, campaign: Campaign) -> str:
    response = client.get(url(campaign))
    assert response.status_code == 200
    return response.content.decode()


def act(client: Client, campaign: Campaign, **data: Any):
    return client.post(url(campaign), data)


def options(html: str, kind: str) -> list[tuple[str, str]]:
    """The (token, label) pairs an order form offers."""
    found = re.search(rf'<select id="choice-{kind}" name="choice">(.*?)</select>', html, re.S)
    if found is None:
        return []
    return [(unescape(t), unescape(label))
            for t, label in re.findall(r'<option value="([^"]*)">([^<]*)</option>', found.group(1))]


def token(html: str, kind: str, label: str) -> str:
    for value, text in options(html, kind):
        if text == label:
            return value
    raise AssertionError(f"{label!r} not offered: {[t for _v, t in options(html, kind)]}")


def declare(client: Client, campaign: Campaign, kind: str, label: str):
    html = page(client, campaign)
    return act(client, campaign, action="order", kind=kind, choice=token(html, kind, label))


def names_of(campaign: Campaign, side: str) -> dict[int, str]:
    return dict(CampaignDetachment.objects.filter(side__campaign=campaign, side__side=side)
                .values_list("pk", "name"))


def assert_offers_only_accepted(campaign: Campaign, html: str, side: str, kinds: Iterable[str]) -> None:
    """Every choice of the page's order forms is an order ``check_order`` accepts now."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    turn = current_turn(campaign)
    state = state_of(campaign, turn)
    names = names_of(campaign, side)
    # A token names other orders by the ids players read: the engine's ids are the keys.
    keys = {number: key for key, number in public_ids(turn.orders.all()).items()}
    for kind in kinds:
        offered = options(html, kind)
        assert offered, kind
        for value, label in offered:
            order = order_of(value, side, kind, names)
            assert order is not None, label
            order = replace(order, for_attack=keys.get(order.for_attack),
                            escort_of=keys.get(order.escort_of))
            assert check_order(state, order).accepted, label


def leaked(html: str, hidden: Iterable[str]) -> list[str]:
    return sorted(name for name in hidden if name in html)


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# Who sees what ------------------------------------------------------------------------------------

def test_visitors_see_sides_score_turn_and_phase_only(game, people, staff_actor):
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 6])
    for account in (None, people["stranger"]):
        html = page(client_of(account), game)
        assert "Space Marines" in html and "Orks" in html and "Marcus" in html
        assert 'id="turn-number">1<' in html and 'id="phase">Moves<' in html
        assert 'id="score-west"' in html and 'id="score-east"' in html
        assert "campaign-map" not in html and 'name="choice"' not in html
        assert leaked(html, WEST_NAMES | EAST_NAMES) == []
    assert client_of().get(reverse("campaign", args=["nowhere"])).status_code == 404
    anonymous = act(client_of(), game, action="order", kind="move", choice="x")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    refused = act(client_of(people["stranger"]), game, action="order", kind="move", choice="x")
    assert refused.status_code == 200
    assert "Only the campaign's players declare orders." in messages_of(refused)
    assert not CampaignOrder.objects.exists()


def test_each_side_sees_its_own_army_and_staff_see_everything(game, people, staff_actor):
    west = page(client_of(people["west"]), game)
    east = page(client_of(people["east"]), game)
    assert leaked(west, WEST_NAMES) == sorted(WEST_NAMES)
    assert leaked(west, EAST_NAMES) == []
    assert leaked(east, EAST_NAMES) == sorted(EAST_NAMES)
    assert leaked(east, WEST_NAMES) == []
    # The map is drawn to scale, all 18 territories, counters as the reader may see them (R12).
    assert west.count('<g class="territory"') == 18 and 'viewBox="0 0 620 370"' in west
    assert re.search(r'id="campaign-map-A"><strong>[^<]*</strong>: Orks</li>', west)
    assert re.search(r'id="campaign-map-7"><strong>[^<]*</strong>: Crusader Armour</li>', west)
    everything = page(client_of(staff_actor.user), game)
    on_map = (WEST_NAMES | EAST_NAMES) - {"Thunder Drop"}  # R13: in orbit, off the map
    assert leaked(everything, on_map) == sorted(on_map)
    assert 'name="choice"' not in everything  # staff act from the cockpit
    french = client_of(people["east"]).get(url(game), HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200 and '<html lang="fr">' in french.content.decode()
    assert leaked(french.content.decode(), WEST_NAMES) == []


def test_placement_pages_hide_the_enemy_too(staff_actor, people):
    campaign = campaign_in_setup(staff_actor, people["west"], people["east"])
    campaign_placement.place(staff_actor, campaign, detachment="Mob Gork", territory="G",
                             side="east")
    west = page(client_of(people["west"]), campaign)
    assert "<dt>Places next</dt><dd>West</dd>" in west
    assert leaked(west, EAST_NAMES) == [] and "Aquila Guard" in west


# Orders ---------------------------------------------------------------------------------------------

def test_move_forms_offer_only_what_the_engine_accepts(game, people, staff_actor):
    west = client_of(people["west"])
    assert 'name="choice"' not in page(west, game)  # no phase open yet
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 6])
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("move", "fortify"))
    moves = {label for _v, label in options(html, "move")}
    assert "Eagle Scouts: 9 → 8" in moves
    assert "Crusader Armour: 7 → A" not in moves  # G9: into the enemy is an attack
    assert "Aquila Guard: 1 → 2" not in moves  # R10: the major's only guard
    # R13: from orbit, Thunder Drop lands in any territory west holds, using a move.
    assert "Thunder Drop lands from orbit: move on 5" in moves
    assert "Thunder Drop lands from orbit: move on A" not in moves
    assert 'id="choice-attack"' not in html  # attacks belong to the next phase

    response = declare(west, game, "move", "Eagle Scouts: 9 → 8")
    assert response.status_code == 302
    assert CampaignDetachment.objects.get(name="Eagle Scouts").location == "8"
    html = page(west, game)
    assert re.search(r'id="allowance-move"><td>[^<]*</td><td>6 of 7</td>', html)
    assert "Eagle Scouts: 9 → 8" in html  # among my orders this turn

    # A choice the page never offered is refused by the service, in the engine's words.
    aquila = CampaignDetachment.objects.get(name="Aquila Guard")
    forged = act(west, game, action="order", kind="move", choice=f"{aquila.pk}|1|2|")
    assert forged.status_code == 200
    assert "Major territory 1 must always keep a detachment to guard it." in messages_of(forged)
    enemy = CampaignDetachment.objects.get(name="Big Gunz")
    foreign = act(west, game, action="order", kind="move", choice=f"{enemy.pk}|A|B|")
    assert "Choose one of the orders offered." in messages_of(foreign)
    assert CampaignOrder.objects.count() == 1

    # R16/R26: once the seven moves are used, only the Supreme Commander's line moves on.
    for step in range(6):
        origin, to = ("8", "9") if step % 2 == 0 else ("9", "8")
        campaign_turns.declare_order(actor_of(people["west"]), game, 1,
                                     OrderInput("move", ("Eagle Scouts",), origin, to))
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("move",))
    moves = [label for _v, label in options(html, "move")]
    assert moves and all("(extra action of Captain Varro)" in label for label in moves)
    assert all(label.split(":")[0] == "Captain Varro" for label in moves)
    assert options(html, "fortify") == []  # R27 uses a regular move; none left


def play_turn_one(game: Campaign, people: dict[str, Any], staff_actor) -> CampaignBattle:
    """Through the pages: west attacks A from 7, east reacts from D; staff generate the battle."""
    west, east = client_of(people["west"]), client_of(people["east"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 6])
    assert declare(west, game, "move", "Eagle Scouts: 9 → 8").status_code == 302
    campaign_turns.roll_initiative(staff_actor, game, 1, "attacks", [5, 1])
    html = page(west, game)
    assert_offers_only_accepted(game, html, "west", ("attack",))
    assert declare(west, game, "attack", "7 → A with Crusader Armour").status_code == 302
    # G11, sealed (the default): east sees the attack once both sides have sent their attacks.
    html = page(east, game)
    assert "From 7 against A" not in html and options(html, "reaction") == []
    assert act(west, game, action="ready").status_code == 302
    assert "You said your orders for this phase are all sent." in page(west, game)
    assert "From 7 against A" not in page(east, game)  # one side ready: still sealed
    assert act(east, game, action="ready").status_code == 302
    html = page(east, game)
    assert "From 7 against A" in html and "The attacks are revealed" in html
    assert_offers_only_accepted(game, html, "east", ("reaction",))
    reactions = {label for _v, label in options(html, "reaction")}
    assert "Warboss Grukk from D defends A" in reactions
    assert not any(label.startswith("Big Gunz") for label in reactions)  # A is under attack (G10)
    assert declare(east, game, "reaction", "Warboss Grukk from D defends A").status_code == 302
    assert leaked(page(east, game), WEST_NAMES) == []  # an attack tells territories, not names
    (battle,) = campaign_battles.generate_battles(staff_actor, game, 1)
    return battle


def test_a_battle_reported_confirmed_and_its_choices_made_on_the_page(game, people, staff_actor):
    west, east = client_of(people["west"]), client_of(people["east"])
    battle = play_turn_one(game, people, staff_actor)
    html = page(west, game)
    assert "Big Gunz" in html and "Warboss Grukk" in html  # revealed by the battle (R12)
    assert leaked(html, {"Mob Gork", "Mob Mork", "Kult of Speed"}) == []
    # The battle's game page sends its players here, where the campaign facts are reported.
    answer = west.get(f"/games/{battle.game_id}/")
    assert answer.status_code == 302 and answer["Location"] == f"{url(game)}#battle-{battle.pk}"
    assert "attacker wins 2, defender wins 1" in html  # R37: at stake
    assert "Report the battle for A once it is played." in html

    refused = act(west, game, action="report", battle=battle.pk, winner="attacker",
                  swept="Mob Gork")
    assert "“Mob Gork” did not fight for A." in messages_of(refused)
    sent = act(west, game, action="report", battle=battle.pk, winner="attacker", swept="Big Gunz")
    assert sent.status_code == 302
    assert "Waiting for your opponent to confirm." in page(west, game)
    html = page(east, game)
    assert "Confirm or dispute the result reported for A." in html
    assert "swept away: Big Gunz" in html
    assert act(east, game, action="confirm", battle=battle.pk).status_code == 302
    assert Game.objects.get(pk=battle.game_id).status == Game.Status.CONFIRMED

    # R32: the winner says who stays; G14: the loser's retreats, to B or D for the Warboss.
    assert act(west, game, action="stay", battle=battle.pk, stay="Crusader Armour").status_code == 302
    html = page(east, game)
    assert "Choose where your detachments retreat from A." in html
    assert re.search(r'name="retreat_to_\d+"><option value="">choose…</option>'
                     r'<option value="B">B</option><option value="D">D</option>', html)
    missing = act(east, game, action="retreat", battle=battle.pk,
                  retreat_name_1="Big Gunz", retreat_to_1="B", retreat_name_2="Warboss Grukk")
    assert "Choose where “Warboss Grukk” retreats: B, D." in messages_of(missing)
    done = act(east, game, action="retreat", battle=battle.pk, retreat_name_1="Big Gunz",
               retreat_to_1="B", retreat_name_2="Warboss Grukk", retreat_to_2="D")
    assert done.status_code == 302
    assert CampaignBattle.objects.get(pk=battle.pk).retreat_to == {"Big Gunz": "B",
                                                                   "Warboss Grukk": "D"}

    campaign_turns.close_turn(staff_actor, game, 1, {"west": 3, "east": 3})
    html = page(west, game)
    assert 'id="score-west">2 points<' in html and 'id="score-east">-3 points<' in html
    assert "battle won (A)" in html and "detachment swept away (Big Gunz)" in html
    assert re.search(r'id="campaign-map-A"><strong>A: East line 1, held by West</strong>: '
                     r'Crusader Armour</li>', html)
    assert re.search(r'data-code="A">\s*<title>[^<]*</title>\s*<rect [^>]*fill="#dbe7f6"', html)
    assert "A: East → West" in html  # the turn report
    assert 'id="turn-number">2<' in html
    assert leaked(html, {"Mob Gork", "Mob Mork", "Kult of Speed"}) == []
    visitor = page(client_of(people["stranger"]), game)
    assert "battle won" in visitor and 'id="score-west">2 points<' in visitor
    assert "battle won (A)" not in visitor and "Turn reports" not in visitor  # no map facts


# R12 over every page a player can load ---------------------------------------------------------------

def player_pages(client: Client, campaign: Campaign) -> str:
    """The pages a player of ``campaign`` can load that could name a detachment, as one text."""
    games = Game.objects.filter(round__tournament=campaign.tournament).values_list("pk", flat=True)
    # The campaign event's own page lists players and games only (no detachment): left out.
    paths = [url(campaign), reverse("home"), reverse("profile"),
             *(reverse("game", args=[pk]) for pk in games)]
    texts = []
    for path in paths:
        response = client.get(path, follow=True)  # a battle's game page leads to the campaign's
        assert response.status_code == 200, (path, response.status_code)
        texts.append(response.content.decode())
    return "\n".join(texts)


def test_no_hidden_enemy_detachment_name_in_any_page_a_player_can_load(game, people, staff_actor):
    west, east = client_of(people["west"]), client_of(people["east"])

    def check(west_hidden: set[str], east_hidden: set[str]) -> None:
        assert leaked(player_pages(west, game), west_hidden) == []
        assert leaked(player_pages(east, game), east_hidden) == []

    check(EAST_NAMES, WEST_NAMES)
    battle = play_turn_one(game, people, staff_actor)
    check({"Mob Gork", "Mob Mork", "Kult of Speed"}, WEST_NAMES - {"Crusader Armour"})
    results.report(actor_of(people["west"]), battle.game_id,
                   results.ResultInput(winner=battle.game.player_a_id,
                                       campaign={"swept": ["Big Gunz"]}))
    results.confirm(actor_of(people["east"]), battle.game_id)
    campaign_battles.make_choices(actor_of(people["east"]), game, battle.pk,
                                  retreat_to={"Big Gunz": "B", "Warboss Grukk": "D"})
    campaign_turns.close_turn(staff_actor, game, 1, {"west": 3, "east": 3})
    check({"Mob Gork", "Mob Mork", "Kult of Speed"}, WEST_NAMES - {"Crusader Armour"})
    # Turn 2, G13: the Scouts left 9 empty; east takes it without a battle, unseen.
    campaign_turns.roll_initiative(staff_actor, game, 2, "attacks", [1, 6])
    html = page(east, game)
    assert_offers_only_accepted(game, html, "east", ("attack",))
    assert declare(east, game, "attack", "C → 9 with Kult of Speed").status_code == 302
    generated = campaign_battles.generate_battles(staff_actor, game, 2)
    assert [b.contested for b in generated] == [False]
    check({"Mob Gork", "Mob Mork", "Kult of Speed"}, WEST_NAMES - {"Crusader Armour"})


# Query counts -----------------------------------------------------------------------------------------

def queries_of_the_player_page(staff_actor, count: int, prefix: str) -> int:
    west_user, east_user = user(f"{prefix}w"), user(f"{prefix}e")
    west, east, placements = big_armies(count)
    campaign = running_campaign(staff_actor, west_user, east_user, name=f"Size {count}", west=west,
                                east=east, placements=placements)
    campaign_turns.roll_initiative(staff_actor, campaign, 1, "attacks", [6, 1])
    at_seven = [d.name for d in west if CampaignDetachment.objects.get(
        side__campaign=campaign, name=d.name).location == "7"]
    campaign_turns.declare_order(actor_of(west_user), campaign, 1,
                                 OrderInput("attack", tuple(at_seven), "7", "A"))
    campaign_battles.generate_battles(staff_actor, campaign, 1)
    client = client_of(west_user)
    page(client, campaign)  # warm: sessions, content types
    with CaptureQueriesContext(connection) as queries:
        html = page(client, campaign)
    assert html.count('class="battle current"') == 1
    return len(queries)


def test_player_page_queries_do_not_grow_with_the_armies(staff_actor):
    small = queries_of_the_player_page(staff_actor, 5, "small")
    large = queries_of_the_player_page(staff_actor, 20, "large")
    assert small == large, (small, large)
    assert small <= 25, small  # 25: the sides' faction names (issue #24), one query


# The organiser's cockpit ---------------------------------------------------------------------------

def cockpit(campaign: Campaign) -> str:
    return reverse("admin:campaigns_campaign_change", args=[campaign.pk])


def press(desk: Client, campaign: Campaign, **data: Any) -> str:
    response = desk.post(cockpit(campaign), data, follow=True)
    assert response.status_code == 200
    return " ".join(str(m) for m in response.context["messages"])


def test_cockpit_sets_a_campaign_up(desk, people):
    added = desk.post(reverse("admin:campaigns_campaign_add"),
                      {"name": "Laïtus Prime", "army_points": 5000, "victory_score": 24})
    campaign = Campaign.objects.get()
    assert added.status_code == 302 and added["Location"] == cockpit(campaign)
    html = desk.get(cockpit(campaign)).content.decode()
    assert "Set-up checklist" in html and "to do" in html
    assert desk.get(cockpit(campaign), HTTP_ACCEPT_LANGUAGE="fr").status_code == 200
    sides = [("west", "marcus", "Marcus", "Space Marines", "space-marines", 5),
             ("east", "grukk", "Grukk", "Orks", "orks", 3)]
    for side, username, name, army, faction, value in sides:
        said = press(desk, campaign, action="add_side", side=side, username=username, name=name,
                     army_name=army, faction=faction, strategic_value=value)
        assert "added" in said, said
    over = press(desk, campaign, action="set_army", side="west",
                 detachments="Titan; 6000\nGuard; 500")
    assert "the army is 5000 (1500 too many)" in over
    armies = {"west": "Aquila Guard; 1000\nBastion Guard; 1000\nCaptain Varro; 800; ground; SC\n"
                      "Crusader Armour; 1200\nEagle Scouts; 400\nThunder Drop; 600; airborne",
              "east": "Mob Gork; 1000\nMob Mork; 1000\nWarboss Grukk; 700; ground; SC\n"
                      "Big Gunz; 1500\nKult of Speed; 800"}
    for side, text in armies.items():
        assert "Army saved" in press(desk, campaign, action="set_army", side=side, detachments=text)
    assert "Majors of West: 1, 3." in press(desk, campaign, action="set_majors", side="west",
                                             first="1", second="3")
    assert "Choose two different territories" in press(desk, campaign, action="set_majors",
                                                       side="east", first="G", second="1")
    press(desk, campaign, action="set_majors", side="east", first="G", second="I")
    assert "An 8" in press(desk, campaign, action="planet", dice="4 4")
    assert "Hive World" in press(desk, campaign, action="planet", planet="monde-ruche")
    for side, name, code in PLACEMENTS:
        said = press(desk, campaign, action="place", detachment=f"{side}|{name}", territory=code)
        assert "placed" in said, said
    html = desk.get(cockpit(campaign)).content.decode()
    assert "cockpit-map" in html and "Big Gunz" in html  # staff see every name
    assert "turn 1 is open" in press(desk, campaign, action="start")
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING and campaign.planet == "monde-ruche"
    assert "to do" not in desk.get(cockpit(campaign)).content.decode()


def test_cockpit_turn_with_overrides_battles_close_and_ledger(desk, game, people, staff_actor):
    west = actor_of(people["west"])
    html = desk.get(cockpit(game)).content.decode()
    assert "Roll the initiative of" in html
    assert "West 6+5=11" in press(desk, game, action="initiative", phase="moves", dice="6 6")

    # Forcing a refused order needs a reason; only a rule's refusal can be set aside (G7).
    force = {"action": "force_order", "side": "west", "kind": "move",
             "detachments": "Aquila Guard", "from_code": "1", "to_code": "2"}
    assert "Reason" in press(desk, game, **force, reason="")
    assert not CampaignOrder.objects.exists()
    said = press(desk, game, **force, reason="Ruling at the club: the guard moves.")
    assert "forced through despite: Major territory 1 must always keep" in said
    forced = CampaignOrder.objects.get()
    assert CampaignDetachment.objects.get(name="Aquila Guard").location == "2"
    entry = AuditEntry.objects.get(action="campaign_order_forced")
    assert entry.data["refusal"] == "major_unguarded" and entry.data["reason"].startswith("Ruling")
    assert "forced by an organiser" in desk.get(cockpit(game)).content.decode()
    into_enemy = {**force, "detachments": "Crusader Armour", "from_code": "7", "to_code": "A"}
    assert "cannot be forced" in press(desk, game, **into_enemy, reason="no")

    # Refusing an accepted order: its reason is audited, a move's detachment goes back; an
    # order a later one depends on is kept.
    first = campaign_turns.declare_order(west, game, 1, OrderInput("move", ("Eagle Scouts",), "9", "8"))
    later = campaign_turns.declare_order(west, game, 1, OrderInput("move", ("Eagle Scouts",), "8", "5"))
    assert f"Order {later.pk} depends on this one" in press(
        desk, game, action="refuse_order", order=first.pk, reason="Mistyped")
    assert "Order" in press(desk, game, action="refuse_order", order=later.pk, reason="Mistyped")
    assert CampaignDetachment.objects.get(name="Eagle Scouts").location == "8"
    assert "refused" in press(desk, game, action="refuse_order", order=first.pk, reason="Mistyped")
    assert CampaignDetachment.objects.get(name="Eagle Scouts").location == "9"
    assert list(CampaignOrder.objects.values_list("pk", flat=True)) == [forced.pk]
    assert AuditEntry.objects.filter(action="campaign_order_refused",
                                     data__reason="Mistyped").count() == 2
    with pytest.raises(Invalid):
        campaign_overrides.refuse_order(staff_actor, game, forced.pk, "  ")

    # The attacks, a forced attack from a territory that is not adjacent, the battles.
    press(desk, game, action="initiative", phase="attacks", dice="5 1")
    campaign_turns.declare_order(west, game, 1, OrderInput("attack", ("Crusader Armour",), "7", "A"))
    said = press(desk, game, action="force_order", side="west", kind="attack",
                 detachments="Eagle Scouts", from_code="9", to_code="B", reason="Bridge built")
    assert "Territories 9 and B are not adjacent" in said
    assert "2 battles generated" in press(desk, game, action="battles")
    html = desk.get(cockpit(game)).content.decode()
    assert "captured, no battle" in html and "to be played" in html
    assert 'id="refuse-' not in html  # the battles fixed the orders
    with pytest.raises(Conflict):
        campaign_overrides.refuse_order(staff_actor, game, forced.pk, "too late")

    # The manual ledger line needs a reason; players see it, not the reason.
    assert "Reason" in press(desk, game, action="score", side="east", points=2, reason="")
    assert "+2 for East" in press(desk, game, action="score", side="east", points=2,
                                  reason="Painted army bonus")
    entry = CampaignScoreEntry.objects.get(kind="manual")
    assert entry.detail["reason"] == "Painted army bonus"
    player = page(client_of(people["west"]), game)
    assert "organisers&#x27; correction" in player and "Painted army bonus" not in player

    # Closing waits for the battle; then the ledger has the turn's lines.
    assert "no confirmed result" in press(desk, game, action="close", west=3, east=3)
    battle = CampaignBattle.objects.get(contested=True)
    results.report(staff_actor, battle.game_id, results.ResultInput(winner=battle.game.player_b_id))
    said = press(desk, game, action="close", west=3, east=3)
    assert "Turn 1 closed" in said and "Turn 2 is open" in said
    game.refresh_from_db()
    assert game.control["B"] == "west" and game.current_turn == 2
    html = desk.get(cockpit(game)).content.decode()
    assert "Painted army bonus" in html and "enemy territory held" in html


def test_a_refused_order_gives_back_a_supreme_commander_bonus(game, people, staff_actor):
    """The replay re-checks the later orders: a bonus move becomes a regular one."""
    west = actor_of(people["west"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 6])
    for step in range(7):
        origin, to = ("9", "8") if step % 2 == 0 else ("8", "9")
        campaign_turns.declare_order(west, game, 1, OrderInput("move", ("Eagle Scouts",), origin, to))
    bonus = campaign_turns.declare_order(west, game, 1, OrderInput("move", ("Captain Varro",), "4", "5"))
    assert bonus.bonus == "supreme_commander"
    first = CampaignOrder.objects.order_by("pk").first()
    with pytest.raises(Conflict):  # the Scouts' later moves start from 8
        campaign_overrides.refuse_order(staff_actor, game, first.pk, "typo")
    last_scouts = [o for o in CampaignOrder.objects.order_by("pk") if o.detachments == ["Eagle Scouts"]][-1]
    campaign_overrides.refuse_order(staff_actor, game, last_scouts.pk, "typo")
    bonus.refresh_from_db()
    assert (bonus.bonus, bonus.commander) == ("", "")


# Infiltration (R25) on the page ------------------------------------------------------------------

def infiltration_armies() -> tuple[list, list]:
    """The example armies with unit sheets: west's Crusader Armour and Eagle Scouts carry
    infiltrators; east's Big Gunz a Gargant, its Kult of Speed Kommandos and a Squiggoth."""
    scouts = Unit("Scout Squad", "infantry", 50, frozenset({INFILTRATOR}))
    west = [replace(d, units=(scouts,)) if d.name in ("Crusader Armour", "Eagle Scouts") else d
            for d in WEST_ARMY]
    units = {"Big Gunz": (Unit("Great Gargant", "gargant", 600, frozenset({WAR_ENGINE})),),
             "Kult of Speed": (Unit("Kommandos", "infantry", 100, frozenset({INFILTRATOR})),
                               Unit("Squiggoth", "squiggoth", 300, frozenset({WAR_ENGINE})))}
    east = [replace(d, units=units.get(d.name, ())) for d in EAST_ARMY]
    return west, east


def test_infiltration_forms_results_and_no_leak(staff_actor, people):
    west_army, east_army = infiltration_armies()
    game = running_campaign(staff_actor, people["west"], people["east"], west=west_army, east=east_army)
    west, east = client_of(people["west"]), client_of(people["east"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "air", [4, 2])
    # R19–R24: the air phase offers the mission form (this army has no air detachment).
    assert "Give an air detachment its mission" in page(west, game)
    campaign_turns.roll_initiative(staff_actor, game, 1, "infiltration", [4, 2])
    html = page(west, game)
    assert "played at the table" not in html
    assert_offers_only_accepted(game, html, "west", ("infiltration",))
    assert {label for _v, label in options(html, "infiltration")} == {
        "Crusader Armour infiltrates A from 7", "Eagle Scouts infiltrates C from 9"}
    assert declare(west, game, "infiltration", "Crusader Armour infiltrates A from 7").status_code == 302
    assert declare(west, game, "infiltration", "Eagle Scouts infiltrates C from 9").status_code == 302
    assert options(page(west, game), "infiltration") == []  # each detachment once a turn
    assert declare(east, game, "infiltration", "Kult of Speed infiltrates 9 from C").status_code == 302
    # Big Gunz 5 (its war engines), Kult of Speed 1 (the Scouts captured), Eagle Scouts 3.
    campaign_infiltrations.resolve_infiltrations(staff_actor, game, 1, [5, 1, 3])

    west_html, east_html = page(west, game), page(east, game)
    assert "gargant" in west_html and "Scout Squad" in west_html  # its war engine, the captured units
    assert "Eagle Scouts infiltrates C from 9" in west_html
    assert "Enemy infiltration of 9 from C" in west_html
    assert "Enemy infiltration of C from 9 by Eagle Scouts" in east_html
    assert leaked(player_pages(west, game), EAST_NAMES) == []
    assert leaked(player_pages(east, game), WEST_NAMES) == ["Eagle Scouts"]
    assert leaked(player_pages(east, game), {"Scout Squad"}) == ["Scout Squad"]  # what it captured
    assert [u["name"] for u in CampaignDetachment.objects.get(name="Eagle Scouts").units] == []


def test_cockpit_resolves_infiltrations_with_typed_dice(desk, staff_actor, people):
    """The cockpit's button calls the API's service: typed dice as at the table, refusals as
    messages, then every outcome listed with its names (staff see all)."""
    west_army, east_army = infiltration_armies()
    game = running_campaign(staff_actor, people["west"], people["east"], west=west_army, east=east_army)
    west, east = actor_of(people["west"]), actor_of(people["east"])
    assert 'id="resolve-infiltrations"' not in desk.get(cockpit(game)).content.decode()
    press(desk, game, action="initiative", phase="infiltration", dice="4 2")
    assert 'id="resolve-infiltrations"' not in desk.get(cockpit(game)).content.decode()  # no order
    campaign_turns.declare_order(west, game, 1, OrderInput("infiltration", ("Crusader Armour",), "7", "A"))
    campaign_turns.declare_order(west, game, 1, OrderInput("infiltration", ("Eagle Scouts",), "9", "C"))
    campaign_turns.declare_order(east, game, 1, OrderInput("infiltration", ("Kult of Speed",), "C", "9"))
    html = desk.get(cockpit(game)).content.decode()
    assert 'id="resolve-infiltrations"' in html and "Resolve infiltrations" in html

    # Too few dice typed, or not numbers: refused, nothing kept.
    assert "Not enough dice were entered" in press(desk, game, action="infiltrations", dice="5 1")
    assert "whole numbers" in press(desk, game, action="infiltrations", dice="five")
    assert current_turn(game).infiltrations == []
    # Big Gunz 5 (its war engines), Kult of Speed 1 (the Scouts captured), Eagle Scouts 3.
    said = press(desk, game, action="infiltrations", dice="5 1 3")
    assert "3 infiltrations resolved" in said, said
    turn = current_turn(game)
    assert [e["source"] for e in turn.infiltrations] == ["entered"] * 3
    assert [[d["die"] for d in e["dice"]] for e in turn.infiltrations] == [[5], [1], [3]]
    assert AuditEntry.objects.filter(action="campaign_infiltrations").count() == 1
    html = unescape(desk.get(cockpit(game)).content.decode())
    results = re.search(r'<ul id="infiltration-results">(.*?)</ul>', html, re.S).group(1)
    assert "West: Crusader Armour infiltrates A from 7" in results
    assert "war engines seen — Big Gunz (Great Gargant, gargant)" in results
    assert "infiltrators captured — Kult of Speed" in results and "captured: Scout Squad" in results
    assert "East: Kult of Speed infiltrates 9 from C" in results
    assert 'id="resolve-infiltrations"' not in html  # nothing left to resolve
    # Once the phase is over the service refuses: the message says why.
    press(desk, game, action="initiative", phase="moves", dice="6 6")
    assert "while the infiltration phase is open" in press(desk, game, action="infiltrations", dice="")


def test_the_cockpits_army_textarea_shows_and_keeps_the_units(desk, people):
    """Units typed after the fourth “;” are saved; the textarea shows the stored army again, so
    saving it unchanged keeps every unit, and what the API gave (a type) survives."""
    desk.post(reverse("admin:campaigns_campaign_add"), {"name": "Laïtus Prime", "army_points": 5000,
                                                     "victory_score": 24,
                                                     "declaration_mode": "alternating"})
    campaign = Campaign.objects.get()
    assert campaign.settings["declaration_mode"] == "alternating"
    press(desk, campaign, action="add_side", side="west", username="marcus", name="Marcus",
          army_name="Space Marines", faction="space-marines", strategic_value=5)
    typed = ("Scouts; 400; ground; ; Scout squad (infiltrator), Hydra (flak)\n"
             "Captain Varro; 800; ground; SC")
    assert "Army saved" in press(desk, campaign, action="set_army", side="west", detachments=typed)
    scouts = CampaignDetachment.objects.get(name="Scouts")
    assert [(u["name"], u["tags"]) for u in scouts.units] == [
        ("Scout squad", ["infiltrator"]), ("Hydra", ["flak"])]
    scouts.units[1]["type"] = "Flak tank"  # as the API may give it
    scouts.save(update_fields=["units"])
    html = desk.get(cockpit(campaign)).content.decode()
    shown = re.search(r'<textarea name="detachments"[^>]*id="id_west_detachments"[^>]*>(.*?)</textarea>',
                      html, re.S)
    assert shown is not None
    text = unescape(shown.group(1)).strip()
    assert text.splitlines() == ["Scouts; 400; ground; ; Scout squad (infiltrator), Hydra (flak)",
                                 "Captain Varro; 800; ground; SC"]
    assert "Army saved" in press(desk, campaign, action="set_army", side="west", detachments=text)
    scouts = CampaignDetachment.objects.get(name="Scouts")  # the army is saved anew
    assert [u["name"] for u in scouts.units] == ["Scout squad", "Hydra"]
    assert scouts.units[1]["type"] == "Flak tank"
    assert "Line 1" in press(desk, campaign, action="set_army", side="west",
                             detachments="Scouts; 400; ground; ; Hydra (laser)")


def test_the_page_offers_orders_only_when_the_server_would_take_them(game, people, staff_actor):
    """G11: alternating, only the side whose turn it is gets the order forms; sealed, a side
    that said its orders are sent gets none until the phase moves on."""
    west, east = client_of(people["west"]), client_of(people["east"])
    Campaign.objects.filter(pk=game.pk).update(
        settings={**game.settings, "declaration_mode": "alternating"})
    game.refresh_from_db()
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 1])  # west declares first
    assert options(page(west, game), "move")
    html = page(east, game)
    assert options(html, "move") == [] and "Nothing to declare until it is your turn again." in html
    assert "Waiting for West to declare." in html
    assert declare(west, game, "move", "Eagle Scouts: 9 → 8").status_code == 302
    assert options(page(east, game), "move") and options(page(west, game), "move") == []

    Campaign.objects.filter(pk=game.pk).update(
        settings={**game.settings, "declaration_mode": "sealed"})
    game.refresh_from_db()
    assert options(page(west, game), "move")
    assert act(west, game, action="ready").status_code == 302
    html = page(west, game)
    assert options(html, "move") == [] and "Nothing more to declare in this phase." in html
