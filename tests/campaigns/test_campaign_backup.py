"""A campaign's backup: its event's document with the campaign part (campaigns.services.backup)
read back by the event's import, all or nothing. A copy under a new slug shows the same map to
each side and to staff, the same ledger, turn reports, battles and player pages, and rolls the
same dice next; deleting the campaign, importing it and exporting again gives the same document."""
from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armylists.models import Chart
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignReveal,
    CampaignScoreEntry,
    CampaignSide,
    CampaignTurn,
)
from campaigns.services import battles as campaign_battles
from campaigns.services import campaign as campaigns
from campaigns.services import declarations as campaign_declarations
from campaigns.services import overrides as campaign_overrides
from campaigns.services import placement as campaign_placement
from campaigns.services import reads as campaign_reads
from campaigns.services import turns as campaign_turns
from events.audit import Actor
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game, Player, Report, Round, Tournament
from events.services import backup, exports, restore, results
from missions.models import DiceRoll, DiceStream
from systems.registry import campaign_system
from tests.browser.campaigns import big_armies, campaign_in_setup, running_campaign
from tests.browser.events import user
from tests.events.test_backup import purge, upload, without_time

pytestmark = pytest.mark.django_db
OrderInput = campaign_turns.OrderInput


def as_player(account: Any) -> Actor:
    return Actor(user=account)


def played(staff_actor: Actor, people: dict[str, Any], **options: Any) -> Campaign:
    """Turn 1 played and closed (moves, a fortification, an attack and a reaction, the battle
    reported, confirmed and its choices made: the seed's example); turn 2 open with server dice,
    a manual ledger line, an order refused and one forced through, and a forced order refused."""
    west, east = as_player(people["west"]), as_player(people["east"])
    c = running_campaign(staff_actor, people["west"], people["east"], **options)
    campaign_turns.roll_initiative(staff_actor, c, 1, "air", [1, 3, 4, 1])
    campaign_turns.roll_initiative(staff_actor, c, 1, "moves", [6, 6])
    campaign_turns.declare_order(west, c, 1, OrderInput("move", ("Eagle Scouts",), "9", "8"))
    campaign_turns.declare_order(east, c, 1, OrderInput("fortify", to="C"))
    campaign_turns.roll_initiative(staff_actor, c, 1, "attacks", [5, 1])
    attack = campaign_turns.declare_order(west, c, 1, OrderInput("attack", ("Crusader Armour",),
                                                                 "7", "A"))
    campaign_declarations.reveal_attacks(staff_actor, c, 1)  # reactions answer revealed attacks
    campaign_turns.declare_order(east, c, 1, OrderInput("reaction", ("Warboss Grukk",), "D",
                                                        for_attack=attack.number))
    (battle,) = campaign_battles.generate_battles(staff_actor, c, 1)
    results.report(west, battle.game_id, results.ResultInput(
        winner=battle.game.player_a_id, campaign={"swept": ["Big Gunz"]}))
    results.confirm(east, battle.game_id)
    campaign_battles.make_choices(west, c, battle.pk, stay=["Crusader Armour"])
    campaign_battles.make_choices(east, c, battle.pk,
                                  retreat_to={"Big Gunz": "B", "Warboss Grukk": "D"})
    campaign_turns.close_turn(staff_actor, c, 1, {"west": 3, "east": 3})

    campaign_overrides.add_score_entry(staff_actor, c, side="east", points=2, reason="a ruling")
    campaign_turns.roll_initiative(staff_actor, c, 2, "moves")  # the campaign's own dice
    move = campaign_turns.declare_order(west, c, 2, OrderInput("move", ("Eagle Scouts",), "8", "9"))
    # R10 set aside twice: 1 and then 3 left without a guard.
    campaign_overrides.force_order(staff_actor, c, 2, OrderInput("move", ("Aquila Guard",), "1", "2",
                                                           side="west"), "agreed at the club")
    forced = campaign_overrides.force_order(staff_actor, c, 2, OrderInput(
        "move", ("Bastion Guard",), "3", "6", side="west"), "by mistake").order
    campaign_overrides.refuse_order(staff_actor, c, move.pk, "sent twice")
    campaign_overrides.refuse_order(staff_actor, c, forced.pk, "the mistake undone")
    return Campaign.objects.select_related("tournament").get(pk=c.pk)


def document_of(c: Campaign) -> dict[str, Any]:
    """What the export file holds."""
    return json.loads(json.dumps(exports.event_data(c.tournament)))


# What a campaign shows, without its database ids ------------------------------------------------

def client_of(account: Any) -> Client:
    client = Client()
    client.force_login(account)
    return client


def page(account: Any, c: Campaign) -> str:
    """The campaign page as ``account`` reads it, with its rows' ids and the form token left
    out (a copy's battles and games have other ids)."""
    response = client_of(account).get(reverse("campaign", args=[c.slug]))
    assert response.status_code == 200
    html = response.content.decode().replace(c.slug, "SLUG").replace(c.tournament.slug, "EVENT")
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    for battle in CampaignBattle.objects.filter(turn__campaign=c):
        for text in (f'battle-{battle.pk}"', f"battle-{battle.pk}-", f'value="{battle.pk}"'):
            html = html.replace(text, text.replace(str(battle.pk), "N"))
    for row in CampaignDetachment.objects.filter(side__campaign=c):  # in the order forms' tokens
        html = html.replace(f'value="{row.pk}|', f'value="{row.name}|')
    return html


def battles_of(c: Campaign) -> list[dict[str, Any]]:
    """Each battle with its attacks, game, reports and choices (the rows, not their ids)."""
    rows = CampaignBattle.objects.filter(turn__campaign=c).select_related("game", "turn").order_by(
        "turn__number", "pk")
    out = []
    for b in rows:
        reports = list(b.game.reports.order_by("pk").values("status", "outcome")) if b.game else []
        out.append({"turn": b.turn.number, "territory": b.territory, "attack_ids": len(b.attack_ids),
                    "attacks": sorted(o.to_code for o in CampaignOrder.objects.filter(
                        pk__in=b.attack_ids)),
                    "game": (b.game.player_a.name, b.game.player_b.name, b.game.status,
                             b.game.outcome, b.game.winner.name) if b.game else None,
                    "reports": reports, "won": campaign_battles.winner_side(b),
                    "stay": b.stay, "retreat_to": b.retreat_to, "at_stake": b.at_stake})
    return out


def seen(c: Campaign, staff_actor: Actor, people: dict[str, Any]) -> dict[str, Any]:
    """Everything the campaign shows, to each side and to staff."""
    c = Campaign.objects.select_related("tournament").get(pk=c.pk)
    view = campaign_reads.campaign_view(c)
    for side in view["sides"].values():
        side.pop("player")  # the side's player row: the copy's is another
    turns = c.turns.order_by("number")
    current = campaigns.current_turn(c)
    return {
        "campaign": {k: v for k, v in view.items() if k not in ("slug", "tournament")},
        "maps": {who: campaign_reads.map_view(actor, c)
                 for who, actor in (("staff", staff_actor), ("west", as_player(people["west"])),
                                    ("east", as_player(people["east"])))},
        "score": campaign_reads.score_view(c),
        "ledger": list(c.score_entries.order_by("pk").values("turn", "side", "kind", "points",
                                                             "subject", "detail")),
        "turns": [(t.number, t.phase, t.initiative, t.report, t.round.number, t.round.status)
                  for t in turns],
        "orders": [(o.turn.number, o.side, o.kind, o.detachments, o.from_code, o.to_code,
                    o.bonus, o.for_attack.to_code if o.for_attack else None)
                   for o in CampaignOrder.objects.filter(turn__campaign=c).order_by("pk")],
        "forced": sorted(o.detachments[0] for o in CampaignOrder.objects.filter(
            turn__campaign=c, pk__in=campaign_overrides.forced_ids(c, current))),
        "battles": battles_of(c),
        "armies": [campaign_reads.army_view(side) for side in c.sides.order_by("-side")],
        "pages": {who: page(people[who], c) for who in ("west", "east")},
    }


def test_a_copy_under_a_new_slug_shows_the_same_campaign(staff_actor, people):
    c = played(staff_actor, people)
    document = document_of(c)
    part = document["campaign"]
    assert document["format"] == "muster-event" and part["slug"] == c.slug
    assert [len(t["orders"]) for t in part["turns"]] == [4, 1]  # turn 2: the forced move kept
    assert [len(t["battles"]) for t in part["turns"]] == [1, 0]
    (battle,) = part["turns"][0]["battles"]
    attack = next(o for o in part["turns"][0]["orders"] if o["kind"] == "attack")
    reaction = next(o for o in part["turns"][0]["orders"] if o["kind"] == "reaction")
    assert battle["attack_ids"] == [attack["ref"]] and reaction["for_attack"] == attack["ref"]
    assert battle["game"] == document["rounds"][0]["games"][0]["ref"]
    assert {d["name"]: len(d["reveals"]) for s in part["sides"] for d in s["detachments"]
            if d["reveals"]} == {"Crusader Armour": 1, "Big Gunz": 1, "Warboss Grukk": 1}
    assert "password" not in json.dumps(document)

    with pytest.raises(Conflict) as taken:
        restore.restore_event(staff_actor, document)
    assert taken.value.code == "slug_taken" and "campaign" in str(taken.value)
    restored = restore.restore_event(staff_actor, document, slug="laitus-copy")
    copy = restored.campaign
    assert copy.slug == "laitus-copy" and restored.tournament.slug == "campaign-laitus-copy"
    assert copy.tournament == restored.tournament and copy.tournament.game_system.slug == "epic40k"
    assert restored.counts["campaign_turns"] == 2 and restored.counts["campaign_battles"] == 1
    assert restored.counts["campaign_detachments"] == 11
    assert restored.counts["campaign_score_entries"] == 7
    # Both players play the copy with their own accounts.
    assert {s.player.user for s in copy.sides.select_related("player__user")} == {
        people["west"], people["east"]}
    assert seen(copy, staff_actor, people) == seen(c, staff_actor, people)

    # The same next steps give the same dice: the stream and its counter came along.
    answers = [campaign_turns.roll_initiative(staff_actor, game, 2, "attacks") for game in (c, copy)]
    assert answers[0] == answers[1]


def test_delete_import_export_gives_the_same_document(staff_actor, people):
    c = played(staff_actor, people)
    before = document_of(c)
    t = c.tournament
    Campaign.objects.filter(pk=c.pk).delete()
    purge(t)
    Chart.objects.filter(slug=campaign_system().campaign_chart).delete()  # a database that never had a campaign
    assert not CampaignDetachment.objects.exists() and not Tournament.objects.exists()

    restored = restore.restore_event(staff_actor, before)
    assert restored.campaign.slug == c.slug and restored.tournament.slug == t.slug
    assert restored.warnings == []
    after = document_of(restored.campaign)
    assert without_time(after) == without_time(before)
    entry = AuditEntry.objects.get(action="event_imported")
    assert entry.data["campaign"] == c.slug and entry.data["campaign_orders"] == 5
    # The audit log still names the forced order the cockpit marks (its id is the new one).
    turn = campaigns.current_turn(restored.campaign)
    (forced,) = campaign_overrides.forced_ids(restored.campaign, turn)
    assert CampaignOrder.objects.get(pk=forced).detachments == ["Aquila Guard"]


def test_the_campaign_part_names_no_database_id(staff_actor, people):
    c = played(staff_actor, people)
    part = document_of(c)["campaign"]
    orders = {o["ref"] for t in part["turns"] for o in t["orders"]}
    assert orders == set(range(1, 6))
    entries = [e for e in document_of(c)["audit"] if e["action"].startswith("campaign_")]
    named = {e["data"]["order"] for e in entries if "order" in e["data"]}
    assert named == orders | {None}  # the refused orders are gone
    (generated,) = [e for e in entries if e["action"] == "campaign_battles_generated"]
    assert generated["data"]["battles"] == [{"id": 1, "territory": "A", "game": 1}]
    (added, _second) = [e for e in entries if e["action"] == "campaign_side_added"]
    assert added["data"]["user"] == "marcus" and added["data"]["player"] == 1
    manual = next(e for e in entries if e["action"] == "campaign_score_manual")
    assert manual["data"]["entry"] == next(e["ref"] for e in part["score_entries"]
                                           if e["kind"] == "manual")


def test_a_campaign_in_set_up_comes_back_in_set_up(staff_actor, people):
    """Sides, armies, majors and planet, nothing placed: no turn, no round, no battle yet."""
    c = campaign_in_setup(staff_actor, people["west"], people["east"])
    campaign_placement.place(staff_actor, c, detachment="Mob Gork", territory="G", side="east")
    c.refresh_from_db()
    restored = restore.restore_event(staff_actor, document_of(c), slug="in-set-up")
    copy = restored.campaign
    assert restored.counts["campaign_turns"] == 0 and copy.status == Campaign.Status.PLACEMENT
    assert campaign_reads.map_view(staff_actor, copy) == campaign_reads.map_view(staff_actor, c)
    assert campaign_placement.next_placer(copy) == campaign_placement.next_placer(c) == "west"
    # Placement goes on in the copy.
    campaign_placement.place(staff_actor, copy, detachment="Aquila Guard", territory="1",
                             side="west")
    assert campaign_placement.next_placer(copy) == "east"


# Refusals -------------------------------------------------------------------------------------------

_PLAYED: dict[str, Any] = {}


@pytest.fixture
def played_document(staff_actor, people) -> dict[str, Any]:
    """The played campaign in this test's database and a copy of its export.

    `played()` (a turn of services) is built once per module and process; later tests bring the
    same campaign back under its own slug from its export, a fraction of the cost, so each
    damaged import still meets a database holding the campaign it was taken from."""
    if not _PLAYED:
        _PLAYED["document"] = document_of(played(staff_actor, people))
    else:
        restore.restore_event(staff_actor, json.loads(json.dumps(_PLAYED["document"])))
    assert Campaign.objects.filter(slug=_PLAYED["document"]["campaign"]["slug"]).exists()
    return json.loads(json.dumps(_PLAYED["document"]))


@pytest.mark.parametrize("damage, code", [
    (lambda d: d.pop("campaign"), "backup_campaign_missing"),
    (lambda d: d["campaign"]["sides"][0].update(player=99), "backup_damaged"),
    (lambda d: d["campaign"]["sides"][1].update(side="west"), "backup_damaged"),
    (lambda d: d["campaign"]["sides"][0]["detachments"][0].update(kind="titan"), "backup_damaged"),
    (lambda d: d["campaign"]["sides"][0]["detachments"][0].update(location="Z"), "backup_damaged"),
    (lambda d: d["campaign"].update(control={"1": "north"}), "backup_damaged"),
    (lambda d: d["campaign"].update(isolated="A"), "backup_damaged"),
    (lambda d: d["campaign"].update(status="paused"), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0].update(round=7), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0]["orders"][2].update(detachments=["Titan"]),
     "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0]["orders"][3].update(for_attack=42), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0]["battles"][0].update(attack_ids=[42]), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0]["battles"][0].update(game=42), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][0]["battles"][0].update(retreat_to={"Big Gunz": "Q"}),
     "backup_damaged"),
    (lambda d: d["campaign"]["score_entries"][0].update(points="many"), "backup_damaged"),
    (lambda d: d["campaign"].pop("turns"), "backup_damaged"),
    (lambda d: d["campaign"]["turns"][1].update(number=1), "backup_damaged"),
])
def test_a_damaged_campaign_changes_nothing(staff_actor, played_document, damage, code):
    document = played_document
    damage(document)
    models = (Tournament, Player, Round, Game, Report, AuditEntry, DiceStream, DiceRoll, Campaign,
              CampaignSide, CampaignDetachment, CampaignReveal, CampaignTurn, CampaignOrder,
              CampaignBattle, CampaignScoreEntry, Chart)
    counts = [m.objects.count() for m in models]
    with pytest.raises(Invalid) as refused:
        restore.restore_event(staff_actor, document, slug="damaged")
    assert refused.value.code == code and refused.value.status == 400 and str(refused.value)
    assert counts == [m.objects.count() for m in models]


def test_a_campaign_for_an_event_of_another_system_is_refused(staff_actor, played_document):
    document = played_document
    document["tournament"].update(chart="w40k4-standard", game_system="w40k4", level="gamma")
    with pytest.raises(Invalid) as refused:
        restore.restore_event(staff_actor, document, slug="elsewhere")
    assert refused.value.code == "backup_damaged"
    assert not Campaign.objects.filter(slug="elsewhere").exists()


# Query count ----------------------------------------------------------------------------------------

def export_queries(staff_actor: Actor, count: int, turns: int, prefix: str) -> int:
    """The export's queries for a campaign with ``count`` detachments a side and ``turns`` closed
    turns (each with initiative, a move there and back and the close, dice thrown by the server)."""
    west_user, east_user = user(f"{prefix}w"), user(f"{prefix}e")
    west, east, placements = big_armies(count)
    c = running_campaign(staff_actor, west_user, east_user, name=f"Size {count}", west=west, east=east,
                         placements=placements)
    scout = CampaignDetachment.objects.filter(side__campaign=c, location="9").first().name
    for number in range(1, turns + 1):
        campaign_turns.roll_initiative(staff_actor, c, number, "moves")
        there, back = ("9", "8") if number % 2 else ("8", "9")
        campaign_turns.declare_order(as_player(west_user), c, number,
                                     OrderInput("move", (scout,), there, back))
        campaign_turns.close_turn(staff_actor, c, number)
    t = Tournament.objects.select_related("chart", "level", "dice", "created_by").get(
        pk=c.tournament_id)
    with CaptureQueriesContext(connection) as queries:
        document = backup.event_document(t)
    assert len(document["campaign"]["turns"]) == turns + 1
    assert sum(len(s["detachments"]) for s in document["campaign"]["sides"]) == 2 * count
    return len(queries)


def test_the_export_is_a_fixed_number_of_queries(staff_actor):
    assert export_queries(staff_actor, 5, 1, "small") == export_queries(staff_actor, 20, 3, "large")


# Commands and admin ---------------------------------------------------------------------------------

def test_export_and_import_commands(staff_actor, people, tmp_path):
    c = played(staff_actor, people)
    path = tmp_path / "campaign.json"
    call_command("export_campaign", c.slug, "-o", str(path), stderr=io.StringIO())
    written = json.loads(path.read_text(encoding="utf-8"))
    assert without_time(written) == without_time(document_of(c))
    with pytest.raises(CommandError, match="No campaign"):
        call_command("export_campaign", "nowhere", stdout=io.StringIO())
    with pytest.raises(CommandError, match="slug_taken"):
        call_command("import_campaign", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_campaign", str(path), "--slug", "from-file", stdout=out)
    assert "Campaign “from-file” imported" in out.getvalue() and "2 campaign turns" in out.getvalue()
    assert Campaign.objects.get(slug="from-file").tournament.slug == "campaign-from-file"

    event = tmp_path / "event.json"
    event.write_text(json.dumps({**written, "campaign": None}))
    with pytest.raises(CommandError, match="not a campaign"):
        call_command("import_campaign", str(event), stdout=io.StringIO())


def test_the_cockpit_exports_and_the_import_page_takes_a_campaign(staff_actor, people, admin_client):
    c = played(staff_actor, people)
    cockpit = admin_client.get(reverse("admin:campaigns_campaign_change", args=[c.pk])).content.decode()
    url = reverse("admin:campaigns_campaign_export_json", args=[c.pk])
    assert url in cockpit and "Whole campaign (JSON)" in cockpit
    exported = admin_client.get(url)
    assert exported["Content-Disposition"] == f'attachment; filename="{c.slug}.json"'
    document = json.loads(exported.content)
    assert without_time(document) == without_time(document_of(c))

    page_url = reverse("admin:league_tournament_import_event")
    taken = admin_client.post(page_url, {"file": upload(document)})
    assert taken.status_code == 409 and "A campaign with the address" in taken.content.decode()
    damaged = json.loads(json.dumps(document))
    damaged["campaign"]["turns"][0]["battles"][0]["game"] = 42
    refused = admin_client.post(page_url, {"file": upload(damaged), "slug": "broken"})
    assert refused.status_code == 400 and "damaged" in refused.content.decode()
    assert not Campaign.objects.filter(slug="broken").exists()
    done = admin_client.post(page_url, {"file": upload(document), "slug": "moved"})
    copy = Campaign.objects.get(slug="moved")
    assert done.status_code == 302
    assert done["Location"] == reverse("admin:campaigns_campaign_change", args=[copy.pk])
