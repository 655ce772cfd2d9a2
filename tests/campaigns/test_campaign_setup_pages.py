"""An Epic 40,000 campaign set up by its two players from their campaign pages (issue 14): the
organiser creates it and its sides, each player enters an army (refused, then fixed), picks two
majors and places detachments in turn (lower strategic value first, R11; a placement out of turn
refused); the organiser starts it. Also: no hidden enemy name on any page during set-up (R12),
no set-up form for anyone but the side's player, and page queries that do not grow with the
armies (campaigns/pages/setup.py, campaigns/views.py).

Forms are sent as a browser would: the fields the page rendered (``form_fields``), edited."""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, CampaignDetachment
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.state_serializers import SettingsSerializer
from events.models import AuditEntry
from events.systems import normalised
from tests.browser.campaigns import EAST_ARMY, EAST_NAMES, WEST_ARMY, WEST_NAMES, big_armies
from tests.browser.events import user
from tests.campaigns.test_campaign_pages import client_of, leaked, messages_of, player_pages

pytestmark = pytest.mark.django_db


def new_campaign(staff_actor, west_user, east_user, *, name: str = "Laïtus Prime", west_value: int = 5,
                 east_value: int = 3, east_faction: str = "orks") -> Campaign:
    """What the organiser does: the campaign, its two sides and the planet; nothing else."""
    settings = normalised(SettingsSerializer, {})
    campaign = campaign_setup.create_campaign(staff_actor, name=name, settings=settings, seed=5)
    campaign_setup.add_side(staff_actor, campaign, side="west", name="Marcus",
                            army_name="Space Marines", faction="space-marines",
                            strategic_value=west_value, username=west_user.username)
    campaign_setup.add_side(staff_actor, campaign, side="east", name="Grukk", army_name="Orks",
                            faction=east_faction, strategic_value=east_value,
                            username=east_user.username)
    campaign_setup.set_planet(staff_actor, campaign, planet="monde-ruche")
    return Campaign.objects.get(pk=campaign.pk)


def url(campaign: Campaign) -> str:
    return reverse("campaign", args=[campaign.slug])


def page(client: Client, campaign: Campaign) -> str:
    response = client.get(url(campaign))
    assert response.status_code == 200
    return response.content.decode()


class FormReader(HTMLParser):
    """The fields of the page's form whose hidden ``action`` is ``action``, as a browser sends
    them: text and number inputs, text areas, ticked boxes, each select's chosen (or first)
    option."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.forms, self.current = action, [], None
        self.select: str | None = None
        self.textarea: str | None = None
        self.options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self.current = {}
        elif self.current is None:
            return
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            if a.get("type") in ("checkbox", "radio"):
                a.setdefault("value", "on")
            self.current.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "textarea" and a.get("name"):
            self.textarea = a["name"]
            self.current[self.textarea] = [""]
        elif tag == "select":
            self.select, self.options = a["name"], []
        elif tag == "option" and self.select:
            self.options.append((a.get("value", ""), "selected" in a))

    def handle_data(self, data: str) -> None:
        if self.textarea and self.current is not None:
            self.current[self.textarea][0] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self.textarea and self.current is not None:
            # A browser drops the new line that opens a text area's content.
            self.current[self.textarea][0] = self.current[self.textarea][0].removeprefix("\n")
            self.textarea = None
        elif tag == "select" and self.current is not None and self.select:
            chosen = [v for v, on in self.options if on] or [v for v, _on in self.options[:1]]
            self.current[self.select] = chosen
            self.select = None
        elif tag == "form" and self.current is not None:
            if self.current.get("action") == [self.action]:
                self.forms.append(self.current)
            self.current = None


def form_fields(html: str, action: str) -> dict[str, list[str]]:
    reader = FormReader(action)
    reader.feed(html)
    assert len(reader.forms) == 1, f"{len(reader.forms)} forms for {action!r}"
    return reader.forms[0]


def has_form(html: str, action: str) -> bool:
    return f'name="action" value="{action}"' in html


def select_options(html: str, name: str) -> list[str]:
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert found is not None, name
    return [unescape(v) for v in re.findall(r'<option value="([^"]*)"', found.group(1))]


def fill_army(fields: dict[str, list[str]], rows: list[tuple]) -> dict[str, list[str]]:
    """Type ``rows`` (name, points, kind, supreme commander) into the first rows of the form."""
    data = dict(fields)
    total = int(data["army-TOTAL_FORMS"][0])
    assert total >= len(rows), (total, len(rows))
    for i, (name, points, kind, commander) in enumerate(rows):
        data[f"army-{i}-name"], data[f"army-{i}-points"] = [name], [str(points)]
        data[f"army-{i}-kind"] = [kind]
        if commander:
            data[f"army-{i}-supreme_commander"] = ["on"]
        else:
            data.pop(f"army-{i}-supreme_commander", None)
    return data


def rows_of(specs) -> list[tuple]:
    return [(d.name, d.points, d.kind, d.supreme_commander) for d in specs]


def send(client: Client, campaign: Campaign, data: dict[str, list[str]]):
    return client.post(url(campaign), data)


def enter_army(client: Client, campaign: Campaign, rows: list[tuple]):
    """Grow the form to the rows needed (the "Add rows" button), then save the army."""
    fields = form_fields(page(client, campaign), "army")
    while int(fields["army-TOTAL_FORMS"][0]) < len(rows):
        grown = send(client, campaign, {**fields, "add_rows": ["1"]})
        assert grown.status_code == 200
        fields = form_fields(grown.content.decode(), "army")
    return send(client, campaign, fill_army(fields, rows))


def place(client: Client, campaign: Campaign, name: str, code: str):
    fields = form_fields(page(client, campaign), "place")
    return send(client, campaign, {**fields, "detachment": [name], "territory": [code]})


def stored(campaign: Campaign, side: str) -> list[tuple]:
    return [(d.name, d.points, d.kind, d.supreme_commander) for d in CampaignDetachment.objects
            .filter(side__campaign=campaign, side__side=side).order_by("position")]


# The whole set-up, from the players' pages -------------------------------------------------------

def test_two_players_set_a_campaign_up_from_their_pages(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"])
    west, east = client_of(people["west"]), client_of(people["east"])

    html = page(west, campaign)
    assert has_form(html, "army") and has_form(html, "majors") and not has_form(html, "place")
    assert "Placement begins once both players have saved their armies." in html
    assert '<a href="#my-army">Enter your army&#x27;s detachments.</a>' in html
    assert '<a href="#majors">Choose your two major territories.</a>' in html

    # An army over its points with two Supreme Commanders and a row without points: refused,
    # every problem said at once, what was typed kept.
    fields = form_fields(html, "army")
    wrong = fill_army(fields, [("Captain Varro", 800, "ground", True),
                               ("Chaplain Kord", 900, "ground", True),
                               ("Titan Legio", 4000, "ground", False)])
    refused = send(west, campaign, wrong)
    assert refused.status_code == 200
    text = refused.content.decode()
    assert "Army not saved: see the problems below." in messages_of(refused)
    assert "The detachments total 5700 points; the army is 5000 (700 too many)." in text
    assert "2 detachments are Supreme Commanders; an army may have at most 1." in text
    assert 'value="Chaplain Kord"' in text and 'value="Titan Legio"' in text
    assert stored(campaign, "west") == []
    assert AuditEntry.objects.filter(action="campaign_army_set", data__saved=False).count() == 1

    # A row with a name and no points never reaches the service; the row says why.
    fields = form_fields(text, "army")
    fields["army-2-points"] = [""]
    missing = send(west, campaign, fields)
    assert "Give the detachment&#x27;s points." in missing.content.decode()
    assert 'value="Titan Legio"' in missing.content.decode()
    assert AuditEntry.objects.filter(action="campaign_army_set").count() == 1

    # Two rows with one name: the engine's problem, shown on both rows too.
    fields = form_fields(missing.content.decode(), "army")
    twice = fill_army(fields, [("Eagle Scouts", 400, "ground", False),
                               ("Eagle Scouts", 400, "ground", False)])
    twice["army-2-name"], twice["army-2-points"] = [""], [""]
    doubled = send(west, campaign, twice).content.decode()
    assert "Two detachments are called “Eagle Scouts”; give each one its own name." in doubled
    assert doubled.count("Another detachment has this name.") == 2

    # "Add rows" keeps the rows typed and adds blank ones; the six detachments then fit.
    fields = form_fields(doubled, "army")
    grown = send(west, campaign, {**fields, "add_rows": ["1"]}).content.decode()
    assert int(form_fields(grown, "army")["army-TOTAL_FORMS"][0]) > 3
    assert grown.count('value="Eagle Scouts"') == 2
    assert stored(campaign, "west") == []
    saved = enter_army(west, campaign, rows_of(WEST_ARMY))
    assert saved.status_code == 302
    assert stored(campaign, "west") == rows_of(WEST_ARMY)
    html = page(west, campaign)
    assert "Army saved: 6 detachments, 5000 of 5000 points." in html
    assert re.search(r'id="army-report"[^>]*>\s*<p><strong>Saved:</strong>\s*5000 of 5000 points', html)

    # Removing a row: its box ticked, the army saved again without it.
    fields = form_fields(html, "army")
    index = next(i for i in range(6) if fields[f"army-{i}-name"] == ["Eagle Scouts"])
    fields[f"army-{index}-DELETE"] = ["on"]
    assert send(west, campaign, fields).status_code == 302
    assert "Eagle Scouts" not in [row[0] for row in stored(campaign, "west")]
    assert enter_army(west, campaign, rows_of(WEST_ARMY)).status_code == 302
    assert stored(campaign, "west") == rows_of(WEST_ARMY)
    assert "Placement begins once both players" in page(west, campaign)

    assert enter_army(east, campaign, rows_of(EAST_ARMY)).status_code == 302
    assert stored(campaign, "east") == rows_of(EAST_ARMY)

    # Majors: only the player's own sector is offered; three ticks are refused by the service.
    html = page(west, campaign)
    majors = form_fields(html, "majors")
    offered = re.findall(r'name="majors" value="([^"]*)"', html)
    assert offered == ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
    too_many = send(west, campaign, {**majors, "majors": ["1", "3", "5"]})
    assert "Choose two different territories of your own sector (1, 2, 3, 4, 5, 6, 7, 8, 9)." in \
        messages_of(too_many)
    assert re.search(r'value="5"[^>]*checked', too_many.content.decode())  # kept as ticked
    foreign = send(west, campaign, {**majors, "majors": ["1", "A"]})
    assert "Select a valid choice" in foreign.content.decode()
    assert send(west, campaign, {**majors, "majors": ["1", "3"]}).status_code == 302
    assert send(east, campaign, {**form_fields(page(east, campaign), "majors"),
                                 "majors": ["G", "I"]}).status_code == 302
    assert [s.majors for s in campaign.sides.order_by("-side")] == [["1", "3"], ["G", "I"]]

    # R11: east (strategic value 3) places first; west is told so and refused out of turn.
    html = page(west, campaign)
    assert not has_form(html, "place") and "East (Orks) places next." in html
    forged = send(west, campaign, {"action": ["place"], "detachment": ["Captain Varro"],
                                   "territory": ["4"]})
    assert "It is the other side&#x27;s turn to place a detachment." in forged.content.decode()
    assert not CampaignDetachment.objects.exclude(location="").exists()
    html = page(east, campaign)
    assert "It is your turn to place a detachment." in html
    assert '<a href="#placement">Place a detachment: it is your turn.</a>' in html
    assert select_options(html, "territory") == list("ABCDEFGHI")
    assert [v for v in select_options(html, "detachment")] == [d.name for d in EAST_ARMY]

    sequence = [("east", "Mob Gork", "G"), ("west", "Captain Varro", "4"),
                ("east", "Mob Mork", "I"), ("west", "Crusader Armour", "7"),
                ("east", "Warboss Grukk", "D"), ("west", "Eagle Scouts", "9"),
                ("east", "Big Gunz", "A"), ("west", "Aquila Guard", "1"),
                ("east", "Kult of Speed", "C"), ("west", "Bastion Guard", "3")]
    players = {"west": west, "east": east}
    for step, (side, name, code) in enumerate(sequence):
        html = page(players[side], campaign)
        if side == "west":
            # R13: the airborne Thunder Drop stays in orbit, never offered.
            assert "Thunder Drop" not in select_options(html, "detachment")
        if (side, name) == ("west", "Aquila Guard"):
            # R10: the two detachments left must guard the two majors: only those are offered.
            assert select_options(html, "territory") == ["1", "3"]
            assert "only those are offered" in html
        elif (side, name) == ("west", "Bastion Guard"):
            assert select_options(html, "territory") == ["3"]
        elif side == "west":
            assert select_options(html, "territory") == list("123456789")
        answer = place(players[side], campaign, name, code)
        assert answer.status_code == 302, (step, messages_of(answer) if answer.status_code == 200 else "")
        assert CampaignDetachment.objects.get(name=name).location == code
        if step == 0:
            # West's army is not frozen by east's placement, only by its own (R2).
            assert has_form(page(west, campaign), "army")
        if step == 1:
            html = page(west, campaign)
            assert not has_form(html, "army") and 'id="army-frozen"' in html
            late = send(west, campaign, {"action": ["army"], "army-TOTAL_FORMS": ["1"],
                                         "army-INITIAL_FORMS": ["0"], "army-0-name": ["Late"],
                                         "army-0-points": ["100"], "army-0-kind": ["ground"]})
            assert "The detachments are fixed for the whole campaign." in messages_of(late)
            assert stored(campaign, "west") == rows_of(WEST_ARMY)
            # The map shows west's own counter by name, east's by its army only (R12).
            assert re.search(r'id="campaign-map-4"><strong>[^<]*</strong>: Captain Varro</li>', html)
            assert re.search(r'id="campaign-map-G"><strong>[^<]*</strong>: Orks</li>', html)

    html = page(west, campaign)
    assert "Every detachment is placed: the organisers start the campaign." in html
    assert not has_form(html, "place")
    assert 'id="unguarded"' not in html

    campaign_placement.start(staff_actor, campaign)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    html = page(west, campaign)
    for action in ("army", "majors", "place"):
        assert not has_form(html, action)
    assert 'id="army-fixed"' in html and "Crusader Armour" in html
    assert leaked(html, EAST_NAMES) == []


# R12 during set-up ----------------------------------------------------------------------------------

def test_no_hidden_enemy_name_on_any_page_during_set_up(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"])
    west, east = client_of(people["west"]), client_of(people["east"])

    def check() -> None:
        assert leaked(player_pages(west, campaign), EAST_NAMES) == []
        assert leaked(player_pages(east, campaign), WEST_NAMES) == []

    check()
    assert enter_army(west, campaign, rows_of(WEST_ARMY)).status_code == 302
    assert enter_army(east, campaign, rows_of(EAST_ARMY)).status_code == 302
    check()
    for client, codes in ((west, ["1", "3"]), (east, ["G", "I"])):
        send(client, campaign, {**form_fields(page(client, campaign), "majors"), "majors": codes})
    # Refusals name nothing of the enemy: an enemy detachment's name sent by west is answered
    # as any name west does not have.
    assert place(east, campaign, "Mob Gork", "G").status_code == 302
    probe = send(west, campaign, {"action": ["place"], "detachment": ["Mob Mork"],
                                  "territory": ["1"]})
    assert "Select a valid choice. Mob Mork is not one of the available choices." in \
        probe.content.decode()  # echoes what west typed, nothing more
    assert leaked(probe.content.decode(), EAST_NAMES - {"Mob Mork"}) == []
    check()
    for side, name, code in [("west", "Aquila Guard", "1"), ("east", "Mob Mork", "I"),
                             ("west", "Bastion Guard", "3"), ("east", "Warboss Grukk", "D")]:
        assert place({"west": west, "east": east}[side], campaign, name, code).status_code == 302
        check()
    french = east.get(url(campaign), HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200 and '<html lang="fr">' in french.content.decode()
    assert leaked(french.content.decode(), WEST_NAMES) == []


# Who gets the forms ---------------------------------------------------------------------------------

def test_strangers_visitors_and_staff_get_no_set_up_form(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"])
    campaign_setup.set_army(staff_actor, campaign, "west", list(WEST_ARMY))
    for client in (client_of(), client_of(people["stranger"]), client_of(staff_actor.user)):
        html = page(client, campaign)
        for action in ("army", "majors", "place"):
            assert not has_form(html, action), action
        assert 'id="my-army"' not in html
    assert leaked(page(client_of(people["stranger"]), campaign), WEST_NAMES) == []

    body = {"action": ["army"], "army-TOTAL_FORMS": ["1"], "army-INITIAL_FORMS": ["0"],
            "army-0-name": ["Intruders"], "army-0-points": ["100"], "army-0-kind": ["ground"]}
    anonymous = client_of().post(url(campaign), body)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    stranger = client_of(people["stranger"])
    refused = send(stranger, campaign, body)
    assert "Only the campaign&#x27;s players enter their armies." in refused.content.decode()
    majors = send(stranger, campaign, {"action": ["majors"], "majors": ["1", "3"]})
    assert "Only the campaign&#x27;s players choose majors." in majors.content.decode()
    placed = send(stranger, campaign, {"action": ["place"], "detachment": ["Aquila Guard"],
                                       "territory": ["1"]})
    assert "Only the campaign&#x27;s players place their detachments." in placed.content.decode()
    assert stored(campaign, "west") == rows_of(WEST_ARMY) and stored(campaign, "east") == []
    assert [s.majors for s in campaign.sides.all()] == [[], []]
    # A broken body (no management form) is a message on the page, never a 500.
    broken = send(client_of(people["east"]), campaign, {"action": ["army"]})
    assert broken.status_code == 200 and stored(campaign, "east") == []


# The rules' corners ---------------------------------------------------------------------------------

def test_tyranid_army_saves_with_the_supreme_commander_warning(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"], east_faction="tyranids")
    east = client_of(people["east"])
    rows = [("Hive Tyrant", 900, "ground", True), ("Norn Queen", 1500, "ground", True),
            ("Gargoyles", 600, "air", False), ("Mycetic Spores", 700, "airborne", False)]
    assert enter_army(east, campaign, rows).status_code == 302
    assert stored(campaign, "east") == rows
    html = page(east, campaign)
    assert "2 Supreme Commander detachments: allowed for this army (the Tyranid and Eldar " \
           "exception)." in html
    assert "3700 of 5000 points" in html


def test_equal_strategic_values_roll_off_at_the_first_placement(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"], east_value=5)
    west, east = client_of(people["west"]), client_of(people["east"])
    enter_army(west, campaign, rows_of(WEST_ARMY))
    enter_army(east, campaign, rows_of(EAST_ARMY))
    for client in (west, east):  # G5: nobody knows yet who starts, both may try
        html = page(client, campaign)
        assert has_form(html, "place") and "a roll-off at the first placement" in html
    tries = [place(west, campaign, "Aquila Guard", "1"), place(east, campaign, "Mob Gork", "G")]
    done = [answer.status_code == 302 for answer in tries]
    campaign.refresh_from_db()
    first = "west" if done[0] else "east"
    assert campaign.placement_first == first and campaign.placement_roll  # the roll-off kept
    assert done[1]  # east placed: first, or second after west
    if not done[0]:  # west lost the roll-off: refused
        assert "It is the other side&#x27;s turn" in tries[0].content.decode()
    due = campaign_placement.next_placer(campaign)
    clients = {"west": west, "east": east}
    html = page(clients[due], campaign)
    assert has_form(html, "place") and "roll-off" not in html
    other = page(clients["east" if due == "west" else "west"], campaign)
    assert not has_form(other, "place") and "places next." in other


# Query counts ---------------------------------------------------------------------------------------

def queries_of_the_set_up_page(staff_actor, count: int, prefix: str) -> int:
    west_user, east_user = user(f"{prefix}w"), user(f"{prefix}e")
    west, east, placements = big_armies(count)
    campaign = new_campaign(staff_actor, west_user, east_user, name=f"Size {count}")
    campaign_setup.set_army(staff_actor, campaign, "west", west)
    campaign_setup.set_army(staff_actor, campaign, "east", east)
    campaign_setup.set_majors(staff_actor, campaign, "west", ["1", "3"])
    campaign_setup.set_majors(staff_actor, campaign, "east", ["G", "I"])
    for side, name, code in placements[:3]:  # east, west, east: west's turn
        campaign_placement.place(staff_actor, campaign, detachment=name, territory=code, side=side)
    client = client_of(west_user)
    page(client, campaign)  # warm: sessions, content types
    with CaptureQueriesContext(connection) as queries:
        html = page(client, campaign)
    assert has_form(html, "place") and len(select_options(html, "detachment")) == count - 1
    return len(queries)


def test_set_up_page_queries_do_not_grow_with_the_armies(staff_actor):
    small = queries_of_the_set_up_page(staff_actor, 5, "small")
    large = queries_of_the_set_up_page(staff_actor, 20, "large")
    assert small == large, (small, large)
    assert small <= 22, small


# Units with their tags (R25 infiltrators, R21 Flak, war engines, R13 vehicles) -------------------

def units_of(campaign: Campaign, name: str) -> list[dict[str, Any]]:
    return CampaignDetachment.objects.get(side__campaign=campaign, name=name).units


def test_units_typed_in_the_army_form(staff_actor, people):
    campaign = new_campaign(staff_actor, people["west"], people["east"])
    west, east = client_of(people["west"]), client_of(people["east"])
    rows = rows_of(WEST_ARMY)
    fields = fill_army(form_fields(page(west, campaign), "army"), rows[:3])
    fields["army-0-units"] = ["Scouts (infiltrator), Hydra [flak]\nTitan (war engine)"]
    fields["army-1-units"] = ["Kommandos (psyker)"]
    fields["army-2-units"] = ["Gun Wagon (vehicle, flak), Warriors"]

    # An unknown tag: said in plain words on its row, the text kept as typed, nothing saved.
    refused = send(west, campaign, fields)
    assert refused.status_code == 200
    text = unescape(refused.content.decode())
    assert "“psyker” is not a unit tag: use infiltrator, flak, war_engine or vehicle." in text
    assert "Army not saved: correct the rows marked below." in messages_of(refused)
    kept = form_fields(refused.content.decode(), "army")
    assert kept["army-1-units"] == ["Kommandos (psyker)"]
    assert kept["army-0-units"] == ["Scouts (infiltrator), Hydra [flak]\nTitan (war engine)"]
    assert stored(campaign, "west") == []
    # "Add rows" keeps the units typed too.
    grown = form_fields(send(west, campaign, {**kept, "add_rows": ["1"]}).content.decode(), "army")
    assert grown["army-2-units"] == ["Gun Wagon (vehicle, flak), Warriors"]

    kept["army-1-units"] = ["Kommandos (infiltrator)"]
    assert send(west, campaign, kept).status_code == 302
    assert units_of(campaign, rows[0][0]) == [
        {"name": "Scouts", "type": "", "points": None, "tags": ["infiltrator"]},
        {"name": "Hydra", "type": "", "points": None, "tags": ["flak"]},
        {"name": "Titan", "type": "", "points": None, "tags": ["war_engine"]}]
    assert units_of(campaign, rows[2][0]) == [
        {"name": "Gun Wagon", "type": "", "points": None, "tags": ["flak", "vehicle"]},
        {"name": "Warriors", "type": "", "points": None, "tags": []}]

    # Shown back when editing, one unit a line with its tags.
    shown = form_fields(page(west, campaign), "army")
    assert shown["army-0-units"] == ["Scouts (infiltrator)\nHydra (flak)\nTitan (war_engine)"]
    assert shown["army-2-units"] == ["Gun Wagon (flak, vehicle)\nWarriors"]
    assert shown["army-3-units"] == [""]

    # An army the API gave with unit types and points keeps them when saved again from the
    # form (the form gives names and tags only); a unit removed from the text is gone.
    gargant = {"name": "Great Gargant", "type": "gargant", "points": 600, "tags": ["war_engine"]}
    body = {"detachments": [{"name": d.name, "points": d.points, "kind": d.kind,
                             "supreme_commander": d.supreme_commander,
                             "units": [gargant, {"name": "Grots"}] if d.name == "Big Gunz" else []}
                            for d in EAST_ARMY]}
    answer = east.put(f"/api/v1/campaigns/{campaign.slug}/sides/east/army/", body,
                      content_type="application/json")
    assert answer.status_code == 200, answer.content
    fields = form_fields(page(east, campaign), "army")
    index = next(i for i in range(len(EAST_ARMY)) if fields[f"army-{i}-name"] == ["Big Gunz"])
    assert fields[f"army-{index}-units"] == ["Great Gargant (war_engine)\nGrots"]
    fields[f"army-{index}-units"] = ["Great Gargant (war_engine)"]
    assert send(east, campaign, fields).status_code == 302
    assert units_of(campaign, "Big Gunz") == [gargant]
