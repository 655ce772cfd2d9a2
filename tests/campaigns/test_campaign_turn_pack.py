"""The turn pack of an Epic 40,000 campaign (api-v1-systems ``POST campaigns/{slug}/turns/{n}/pack/``):
a mission pack of kind ``turn_pack`` built by the same task, followed and downloaded through
``mission-packs/{id}/``, read back with pdftotext: the maps (public, and each player's under
hidden information, R12), the order sheets, the battle sheets and the turn report.

Eager tests (the task runs in-process once the request commits), on the seed's example map of
tests/campaigns/test_campaign_api.py: west attacks A with Crusader Armour, east reacts with
Warboss Grukk; the battle reveals those two and Big Gunz, nothing else."""
from __future__ import annotations

import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from campaigns.models import Campaign, CampaignDetachment, CampaignReveal
from campaigns.services import reads as campaign_reads
from campaigns.services.pack import turn_pack_content
from events.audit import Actor
from events.errors import Invalid
from events.models import AuditEntry, Tournament
from printing import tasks
from printing.models import MissionPack
from printing.services import packs
from tests.campaigns.test_campaign_api import (
    EAST_NAMES,
    WEST_NAMES,
    Players,
    accepted,
    initiative,
    order,
    path,
    running,
)
from tests.campaigns.test_campaign_infiltration_api import infiltrate
from tests.campaigns.test_campaign_infiltration_api import running as with_units
from tests.printing.test_mission_packs import paired_round
from tests.tournament_fixtures import confirm, expect, get, post

Status = MissionPack.Status
# Placed and never in a battle: what each player must never read of the other.
EAST_HIDDEN = {"Mob Gork", "Mob Mork", "Kult of Speed"}
WEST_HIDDEN = WEST_NAMES - {"Crusader Armour"}
REVEALED_EAST = {"Big Gunz", "Warboss Grukk"}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def in_english(slug: str) -> None:
    Tournament.objects.filter(campaign__slug=slug).update(language="en")


def battle_turn(p: Players, language: str = "en") -> dict[str, Any]:
    """Turn 1 up to its battle: a move, an attack on A and a reaction, battles generated."""
    game = running(p, seed=5, settings={"victory_score": 11})
    slug = game["slug"]
    Tournament.objects.filter(campaign__slug=slug).update(language=language)
    initiative(p, slug, 1, "air", [1, 3, 4, 1])
    initiative(p, slug, 1, "moves", [6, 6])
    accepted(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": "9", "to": "8"}))
    initiative(p, slug, 1, "attacks", [5, 1])
    attack = accepted(order(p.west, slug, 1, "attack", ["Crusader Armour"],
                            **{"from": "7", "to": "A"}))
    expect(post(p.staff, path(slug, "turns/1/reveal/"), {}), 200)  # reactions answer revealed attacks
    accepted(order(p.east, slug, 1, "reaction", ["Warboss Grukk"], **{"from": "D"},
                   for_attack=attack["id"]))
    (battle,) = expect(post(p.staff, path(slug, "turns/1/battles/")), 201)["battles"]
    return {**game, "battle": battle}


def close_turn_one(p: Players, game: dict[str, Any]) -> dict[str, Any]:
    """West wins at A and sweeps Big Gunz; Crusader Armour stays, east retreats; closed."""
    slug, battle, players = game["slug"], game["battle"], game["players"]
    report = {"result": {"winner": players["west"]}, "campaign": {"swept": ["Big Gunz"]}}
    expect(post(p.west, f"/games/{battle['game']}/report/", report), 200)
    expect(confirm(p.east, battle["game"]), 200)
    choices = path(slug, f"battles/{battle['id']}/choices/")
    expect(post(p.west, choices, {"stay": ["Crusader Armour"]}), 200)
    expect(post(p.east, choices, {"retreat_to": {"Big Gunz": "B", "Warboss Grukk": "D"}}), 200)
    return expect(post(p.staff, path(slug, "turns/1/close/"),
                       {"other_sectors_dice": {"west": 3, "east": 3}}), 200)


def print_pack(p: Players, slug: str, number: int, capture) -> tuple[dict, bytes, MissionPack]:
    """The pack through the API: 202, then ``mission-packs/{id}/`` done, then its PDF."""
    with capture(execute=True):
        response = post(p.staff, path(slug, f"turns/{number}/pack/"))
    body = expect(response, 202)
    state = expect(get(p.staff, f"/mission-packs/{body['id']}/"), 200)
    assert state["status"] == "done" and state["progress"] == 100, state
    download = p.staff.get(state["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    pdf = b"".join(download.streaming_content)
    return body, pdf, MissionPack.objects.get(pk=body["id"])


def pages_of(pdf: bytes) -> list[str]:
    """pdftotext of every page, spaces squeezed (form feeds separate the pages)."""
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True)
    return [" ".join(page.split()) for page in done.stdout.decode().split("\f")[:-1]]


TITLES = ("Public map", "Map of ", "Orders of ", "Battle for ", "Battle sheets", "Report of turn")


def page_with(pages: list[str], title: str) -> str:
    """The part that starts with ``title``: its page and the pages that follow it until the
    next part's title (a long order sheet or report runs over)."""
    starts = [i for i, page in enumerate(pages) if title in page]
    assert len(starts) == 1, (title, len(starts))
    end = starts[0] + 1
    while end < len(pages) and not any(t in pages[end] for t in TITLES):
        end += 1
    return " ".join(pages[starts[0]:end])


def names_in(text: str, names: set[str]) -> set[str]:
    return {name for name in names if name in text}


@pytest.mark.django_db
def test_staff_prints_the_turn_pack_and_each_part_keeps_its_secrets(
        staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    game = battle_turn(p)
    slug = game["slug"]
    body, pdf, pack = print_pack(p, slug, 1, django_capture_on_commit_callbacks)
    assert set(body) >= {"id", "status"} and body["kind"] == "turn_pack"
    assert pdf.startswith(b"%PDF") and pack.kind == MissionPack.Kind.TURN_PACK
    assert pack.round == Campaign.objects.get(slug=slug).turns.get(number=1).round
    assert pack.download_name == f"{slug}-turn-1.pdf"
    assert AuditEntry.objects.filter(action="mission_pack_requested", data__pack=pack.pk,
                                     data__kind="turn_pack").count() == 1
    pages = pages_of(pdf)
    assert pack.pages == len(pages)

    # The maps: drawn with their labels; the public one names no detachment at all.
    public = page_with(pages, "Public map")
    for label in ("West", "East", "line 1", "line 3", "A", "G", "Space Marines", "Orks"):
        assert label in public, label
    assert names_in(public, WEST_NAMES | EAST_NAMES) == set()
    # Each player's map: their own names and the enemy ones the battle revealed, no other.
    west_map = page_with(pages, "Map of Marcus (West)")
    assert names_in(west_map, WEST_NAMES) == WEST_NAMES - {"Thunder Drop"}  # airborne: in orbit
    assert names_in(west_map, EAST_NAMES) == REVEALED_EAST
    east_map = page_with(pages, "Map of Grukk (East)")
    assert names_in(east_map, EAST_NAMES) == EAST_NAMES
    assert names_in(east_map, WEST_NAMES) == {"Crusader Armour"}

    # The order sheets: the player's own army, allowances, boxes; no unrevealed enemy name.
    west_orders = page_with(pages, "Orders of Marcus")
    assert "strategic value 5, initiative value 7" in west_orders
    assert names_in(west_orders, WEST_NAMES) == WEST_NAMES
    assert names_in(west_orders, EAST_HIDDEN) == set()
    assert "Captain Varro, for a detachment in its line (4, West line 2)" in west_orders
    assert "Eagle Scouts: 9 → 8" in west_orders  # the accepted move fills the first box
    east_orders = page_with(pages, "Orders of Grukk")
    assert "strategic value 3, initiative value 6" in east_orders
    assert names_in(east_orders, WEST_HIDDEN) == set()
    assert "Attacks against you so far: 7 → A" in east_orders

    # The battle sheet: territory, sides, forces split into deployed and reserves, counters.
    sheet = page_with(pages, "Battle for A")
    for text in ("East line 1", "West (Space Marines), Marcus", "East (Orks), Grukk",
                 "Crusader Armour (1200)", "Big Gunz (1500)", "Warboss Grukk (700)",
                 "Initiative counters: 3", "Initiative counters: 2",
                 "Score if the attacker wins: +2", "Score if the defender wins: +1",
                 "Fortifications: no fortification", "Swept away", "Destroyed"):
        assert text in sheet, text
    assert names_in(sheet, EAST_HIDDEN | WEST_HIDDEN) == set()

    # The report of an open turn says so and gives what is known.
    report = page_with(pages, "Report of turn 1")
    assert "Turn 1 is not closed yet" in report
    assert "Initiative: moves West 1D6: 6" in report
    assert "A: West (Space Marines) attacks East (Orks); to be played." in report
    assert "West: 0 of 11" in report and "East: 0 of 11" in report
    # Every map page and order sheet carries the campaign and turn in its margin.
    assert all("Laïtus Prime · Turn 1" in page for page in pages)


@pytest.mark.django_db
def test_a_closed_turn_reports_its_results_and_fills_the_battle_sheet(
        staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    game = battle_turn(p)
    closed = close_turn_one(p, game)
    assert closed["scores"] == {"west": 2, "east": -3}
    _body, pdf, _pack = print_pack(p, game["slug"], 1, django_capture_on_commit_callbacks)
    pages = pages_of(pdf)
    report = page_with(pages, "Report of turn 1")
    assert "not closed yet" not in report
    for text in ("A: East → West", "West battle won A +2", "East detachment swept away Big Gunz -1",
                 "West enemy territory held A +1", "East own territory lost A -1",
                 "West other sectors -1", "West: die 3, modifier 0, result 3, -1 points",
                 "West: 2 of 11", "East: -3 of 11", "Other sectors East 1D6: 3 3 at the table",
                 "Big Gunz: retreats → B", "Crusader Armour: stays in the captured territory → A",
                 "winner: West (Space Marines)"):
        assert text in report, text
    sheet = page_with(pages, "Battle for A")
    assert "Winner: West (Space Marines)" in sheet and "confirmed" in sheet
    assert "Crusader Armour West stays" in sheet
    assert "Big Gunz East ✔ retreats to B" in sheet
    assert "Warboss Grukk East retreats to D" in sheet

    # Turn 2 is open: its pack has no battle yet and a report that says it is not closed.
    _body, pdf, _pack = print_pack(p, game["slug"], 2, django_capture_on_commit_callbacks)
    pages = pages_of(pdf)
    assert "The battles are drawn up once the attacks and reactions are declared" in page_with(
        pages, "Battle sheets")
    assert "Turn 2 is not closed yet" in page_with(pages, "Report of turn 2")
    assert "West: 2 of 11" in page_with(pages, "Report of turn 2")
    west_map = page_with(pages, "Map of Marcus (West)")
    assert names_in(west_map, EAST_HIDDEN) == set()  # still never revealed


@pytest.mark.django_db
def test_the_pack_is_in_the_campaigns_language(staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    game = battle_turn(p, language="fr")
    _body, pdf, _pack = print_pack(p, game["slug"], 1, django_capture_on_commit_callbacks)
    text = "\n".join(pages_of(pdf))
    for french in ("Ouest", "ligne 1", "Les territoires en toutes lettres"):
        assert french in text, french
    assert "held by West" not in text


@pytest.mark.django_db
def test_who_may_print_which_turn(staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    game = battle_turn(p)
    slug = game["slug"]
    expect(post(p.anon, path(slug, "turns/1/pack/")), 401)
    expect(post(p.west, path(slug, "turns/1/pack/")), 403, "staff_only")
    expect(post(p.stranger, path(slug, "turns/1/pack/")), 403, "staff_only")
    expect(post(p.staff, path("nowhere", "turns/1/pack/")), 404, "campaign_not_found")
    expect(post(p.staff, path(slug, "turns/2/pack/")), 404, "turn_not_found")  # not opened yet
    expect(post(p.staff, path(slug, "turns/0/pack/")), 404, "turn_not_found")
    assert not MissionPack.objects.exists()
    body, _pdf, _pack = print_pack(p, slug, 1, django_capture_on_commit_callbacks)
    expect(get(p.west, f"/mission-packs/{body['id']}/"), 403)
    expect(get(p.west, f"/mission-packs/{body['id']}/download/"), 403)
    # A campaign in set-up has no turn to print.
    setup = expect(post(p.staff, "/campaigns/", {"name": "Not yet"}), 201)["slug"]
    expect(post(p.staff, path(setup, "turns/1/pack/")), 404, "turn_not_found")


@pytest.mark.django_db
def test_a_double_click_gets_the_pack_already_under_way(staff_user, media,
                                                        django_capture_on_commit_callbacks):
    p = Players(staff_user)
    slug = battle_turn(p)["slug"]
    with django_capture_on_commit_callbacks(execute=False) as queued:
        first = expect(post(p.staff, path(slug, "turns/1/pack/")), 202)
        second = expect(post(p.staff, path(slug, "turns/1/pack/")), 202)
    assert first["id"] == second["id"] and first["status"] == "pending"
    assert MissionPack.objects.filter(kind="turn_pack").count() == 1
    for callback in queued:  # the commit: the build queued once runs, eagerly
        callback()
    assert MissionPack.objects.get(pk=first["id"]).status == Status.DONE
    assert tasks.build_mission_pack(first["id"]) == Status.DONE  # a redelivery changes nothing
    # Once built, a new request prints again (the campaign moved on since).
    with django_capture_on_commit_callbacks(execute=True):
        third = expect(post(p.staff, path(slug, "turns/1/pack/")), 202)
    assert third["id"] != first["id"]
    assert MissionPack.objects.get(pk=third["id"]).status == Status.DONE


@pytest.mark.django_db
def test_only_a_campaign_turn_has_a_turn_pack(staff_user, media):
    round_ = paired_round(4)
    staff = Actor(user=staff_user)
    with pytest.raises(Invalid) as refused:
        packs.request_pack(staff, round_.tournament, round_.number, MissionPack.Kind.TURN_PACK)
    assert refused.value.code == "pack_kind_unknown"
    client = Client()
    client.force_login(staff_user)
    url = f"/api/v1/tournaments/{round_.tournament.slug}/rounds/{round_.number}/wall-sheets/"
    answer = client.post(url, {"kind": "turn_pack"}, content_type="application/json")
    assert answer.status_code == 400
    assert not MissionPack.objects.exists()


@pytest.mark.django_db
def test_the_cockpit_prints_the_current_turn_and_links_the_pack(
        staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    slug = battle_turn(p)["slug"]
    campaign = Campaign.objects.get(slug=slug)
    staff_user.is_superuser = True  # Django's model permissions: the admin's own rule
    staff_user.save()
    desk = Client()
    desk.force_login(staff_user)
    cockpit = reverse("admin:campaigns_campaign_change", args=[campaign.pk])
    button = reverse("admin:campaigns_campaign_turn_pack", args=[campaign.pk])
    html = desk.get(cockpit).content.decode()
    assert button in html and "Print the pack of turn 1" in html
    assert desk.get(button).status_code == 405  # a button, never a link
    with django_capture_on_commit_callbacks(execute=True):
        answer = desk.post(button)
    pack = MissionPack.objects.get(kind="turn_pack")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("admin:printing_missionpack_change", args=[pack.pk])
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.round.number == 1
    html = desk.get(cockpit).content.decode()
    assert reverse("api-mission-pack-download", args=[pack.pk]) in html
    player = Client()
    player.force_login(p.west_user)
    assert player.post(button).status_code == 302  # to the admin's log-in page
    assert MissionPack.objects.count() == 1


@pytest.mark.django_db
def test_the_dice_muster_threw_at_the_close_are_listed_once(
        staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    slug = running(p, seed=42)["slug"]
    in_english(slug)
    closed = expect(post(p.staff, path(slug, "turns/1/close/")), 200)
    _body, pdf, _pack = print_pack(p, slug, 1, django_capture_on_commit_callbacks)
    report = page_with(pages_of(pdf), "Report of turn 1")
    for side, word in (("west", "West"), ("east", "East")):
        die = closed["other_sectors"][side]["die"]
        assert report.count(f"Other sectors {word} 1D6: {die} {die} by Muster") == 1
    assert "at the table" not in report
    assert "No battle this turn yet." in report and "No territory changed hands." in report


# Infiltration (R25) in the pack -------------------------------------------------------------------

def infiltration_boxes(slug: str, side: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The (filled, blank) boxes of the infiltration phase on ``side``'s order sheet."""
    turn = Campaign.objects.get(slug=slug).turns.get(number=1)
    content = turn_pack_content(turn.round)
    sheet = next(s for s in content.orders if s.side == {"west": "West", "east": "East"}[side])
    (phase,) = [ph for ph in sheet.phases if ph.title == "Infiltration"]
    return phase.filled, phase.blank


@pytest.mark.django_db
def test_infiltration_boxes_count_the_detachments_with_infiltrators(staff_user):
    p = Players(staff_user)
    slug = with_units(p)
    in_english(slug)
    assert infiltration_boxes(slug, "west") == ((), ("Crusader Armour", "Eagle Scouts"))
    assert infiltration_boxes(slug, "east") == ((), ("Kult of Speed",))
    initiative(p, slug, 1, "infiltration", [4, 2])
    accepted(infiltrate(p.west, slug, "Crusader Armour", "7", "A"))
    assert infiltration_boxes(slug, "west") == (("Crusader Armour infiltrates A from 7",),
                                                ("Eagle Scouts",))
    # A side without infiltrators gets no box to fill.
    CampaignDetachment.objects.filter(name="Kult of Speed").update(units=[])
    assert infiltration_boxes(slug, "east") == ((), ())


@pytest.mark.django_db
def test_the_pack_prints_each_side_only_what_it_knows_of_the_infiltrations(
        staff_user, media, django_capture_on_commit_callbacks):
    p = Players(staff_user)
    slug = with_units(p)
    in_english(slug)
    initiative(p, slug, 1, "infiltration", [4, 2])
    accepted(infiltrate(p.west, slug, "Crusader Armour", "7", "A"))
    accepted(infiltrate(p.west, slug, "Eagle Scouts", "9", "C"))
    accepted(infiltrate(p.east, slug, "Kult of Speed", "A", "7"))
    # West's Armour: Big Gunz 6, Kult of Speed 5; the Scouts: Deff Dread Mob 1 (captured);
    # east's Kult against Crusader Armour 3.
    expect(post(p.staff, path(slug, "turns/1/infiltrations/"), {"dice": [6, 5, 1, 3]}), 200)
    _body, pdf, _pack = print_pack(p, slug, 1, django_capture_on_commit_callbacks)
    pages = pages_of(pdf)

    west_orders = page_with(pages, "Orders of Marcus")
    for text in ("Crusader Armour infiltrates A from 7: 6: full sheet seen — Big Gunz (Great Gargant); "
                 "5: war engines seen (Squiggoth, squiggoth)",
                 "Eagle Scouts infiltrates C from 9: 1: infiltrators captured · captured: Eagle Squad",
                 "Enemy infiltration of 7 from A: 3: nothing seen — Crusader Armour"):
        assert text in west_orders, text
    east_orders = page_with(pages, "Orders of Grukk")
    for text in ("Kult of Speed infiltrates 7 from A: 3: nothing seen",
                 "Enemy infiltration of A from 7: 6: full sheet seen — Big Gunz; "
                 "5: war engines seen — Kult of Speed",
                 "Enemy infiltration of C from 9 by Eagle Scouts: 1: infiltrators captured — "
                 "Deff Dread Mob · captured: Eagle Squad"):
        assert text in east_orders, text

    report = page_with(pages, "Report of turn 1")
    for text in ("West (Space Marines) infiltrated A from 7: 6: full sheet seen; 5: war engines seen",
                 "West (Space Marines) infiltrated C from 9 with Eagle Scouts: 1: infiltrators "
                 "captured · captured: Eagle Squad",
                 "East (Orks) infiltrated 7 from A: 3: nothing seen",
                 "Infiltration West 1D6: 6 6 at the table", "Infiltration East 1D6: 3 3 at the table"):
        assert text in report, text

    # The leak check: each player's part names no enemy detachment or unit it has not seen;
    # the parts both players get name only what both know (the captured Scouts).
    west_part = page_with(pages, "Map of Marcus (West)") + west_orders
    east_part = page_with(pages, "Map of Grukk (East)") + east_orders
    east_secret = {"Kult of Speed", "Deff Dread Mob", "Mob Gork", "Mob Mork", "Warboss Grukk",
                   "Kommandos", "Gun Wagon"}
    west_secret = {"Crusader Armour", "Aquila Guard", "Bastion Guard", "Captain Varro",
                   "Hold Guard", "Scout Squad", "Predator", "Land Speeder"}
    assert names_in(west_part, east_secret) == set()
    assert names_in(east_part, west_secret) == set()
    shared = page_with(pages, "Public map") + report
    everything = east_secret | west_secret | {"Big Gunz", "Great Gargant", "Squiggoth"}
    assert names_in(shared, everything) == set()
    assert names_in(shared, {"Eagle Scouts", "Eagle Squad"}) == {"Eagle Scouts", "Eagle Squad"}


@pytest.mark.django_db
def test_a_closed_turns_maps_are_drawn_as_that_turn_left_them(staff_user):
    """Printed again later, turn 1's pack shows the map at turn 1's close, not turn 2's moves;
    and a player's map there names only what they had seen by then."""
    p = Players(staff_user)
    game = battle_turn(p)
    close_turn_one(p, game)
    slug = game["slug"]
    initiative(p, slug, 2, "moves", [6, 1])
    accepted(order(p.west, slug, 2, "move", ["Eagle Scouts"], **{"from": "8", "to": "9"}))
    campaign = Campaign.objects.get(slug=slug)
    one, two = campaign.turns.get(number=1), campaign.turns.get(number=2)

    def eagle_scouts_in(territories: list[dict[str, Any]]) -> str:
        return next(t["code"] for t in territories for c in t["counters"]
                    if c["detachment"] == "Eagle Scouts")

    assert eagle_scouts_in(campaign_reads.map_seen_by(campaign, "west", two)) == "9"
    then = campaign_reads.map_seen_by(campaign, "west", closed=one)
    assert eagle_scouts_in(then) == "8"
    assert next(t for t in then if t["code"] == "A")["controller"] == "west"
    # A reveal made in turn 2 is not on turn 1's maps.
    kult = CampaignDetachment.objects.get(name="Kult of Speed")
    CampaignReveal.objects.create(detachment=kult, to_side="west", turn=2)
    named = {c["detachment"] for t in campaign_reads.map_seen_by(campaign, "west", closed=one)
             for c in t["counters"]}
    assert "Kult of Speed" not in named
    assert "Kult of Speed" in {c["detachment"] for t in campaign_reads.map_seen_by(campaign, "west")
                               for c in t["counters"]}
    west_map = next(m for m in turn_pack_content(one.round).maps if "Marcus" in m.title)
    assert "Kult of Speed" not in west_map.html
