"""Epic 40,000 campaigns through the API (api-v1-systems "Epic 40,000 campaigns", seed 001):
set-up, placement, the turn cycle with its refusals, battles reported as league games, the
hidden-information rule (R12) and a whole campaign played to a victory with entered dice.

The seed's example map: west holds 1–9 (majors 1 and 3), east A–I (majors G and I)."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignTurn
from events.models import AuditEntry, Tournament
from missions.models import DiceRoll, DiceStream
from notices.models import QueuedNotice
from tests.campaigns.started import MAJORS, side_bodies, started
from tests.events.test_tournament_concurrency import in_parallel
from tests.tournament_fixtures import (
    build_event,
    client_for,
    confirm,
    expect,
    get,
    make_user,
    pair,
    post,
    put,
)

WEST_ARMY = [
    {"name": "Aquila Guard", "points": 1000},
    {"name": "Bastion Guard", "points": 1000},
    {"name": "Captain Varro", "points": 800, "supreme_commander": True},
    {"name": "Crusader Armour", "points": 1200},
    {"name": "Eagle Scouts", "points": 400},
    {"name": "Thunder Drop", "points": 600, "kind": "airborne"},
]
EAST_ARMY = [
    {"name": "Mob Gork", "points": 1000},
    {"name": "Mob Mork", "points": 1000},
    {"name": "Warboss Grukk", "points": 700, "supreme_commander": True},
    {"name": "Big Gunz", "points": 1500},
    {"name": "Kult of Speed", "points": 800},
]
# R11: east (strategic value 3) places first, then the sides alternate.
PLACEMENTS = [
    ("east", "Mob Gork", "G"), ("west", "Aquila Guard", "1"), ("east", "Mob Mork", "I"),
    ("west", "Bastion Guard", "3"), ("east", "Warboss Grukk", "D"),
    ("west", "Captain Varro", "4"), ("east", "Big Gunz", "A"), ("west", "Crusader Armour", "7"),
    ("east", "Kult of Speed", "C"), ("west", "Eagle Scouts", "9"),
]
WEST_NAMES = {d["name"] for d in WEST_ARMY}
EAST_NAMES = {d["name"] for d in EAST_ARMY}


class Players:
    """The organiser, both sides' players and a stranger, each with a client."""

    def __init__(self, staff_user: Any, prefix: str = "") -> None:
        self.staff_user = staff_user
        self.staff = client_for(staff_user)
        self.west_user = make_user(f"{prefix}marcus")
        self.east_user = make_user(f"{prefix}grukk")
        self.west = client_for(self.west_user)
        self.east = client_for(self.east_user)
        self.stranger = client_for(make_user(f"{prefix}visitor"))
        self.anon = client_for(None)

    def of(self, side: str):
        return self.west if side == "west" else self.east

    @property
    def users(self) -> dict[str, Any]:
        return {"west": self.west_user, "east": self.east_user}


def path(slug: str, rest: str = "") -> str:
    return f"/campaigns/{slug}/{rest}"


def create(staff, name="Laïtus Prime", **body) -> dict:
    return expect(post(staff, "/campaigns/", {"name": name, **body}), 201)


def add_sides(p: Players, slug: str, west_value: int = 5, east_value: int = 3) -> dict:
    return {side: expect(post(p.staff, path(slug, "sides/"), body), 201)
            for side, body in side_bodies(p.users, west_value, east_value).items()}


def set_army(client, slug: str, side: str, detachments: Sequence[dict]) -> dict:
    return expect(put(client, path(slug, f"sides/{side}/army/"), {"detachments": list(detachments)}),
                  200)


def place_all(p: Players, slug: str, placements: Iterable[tuple[str, str, str]]) -> None:
    for side, name, code in placements:
        expect(post(p.of(side), path(slug, "placements/"), {"detachment": name, "territory": code}),
               200)


def running_over_http(p: Players, armies: Mapping[str, Sequence[dict]],
                      placements: Iterable[tuple[str, str, str]], **body) -> dict:
    """A campaign set up and started through the API, each step by its player (the path that
    tests/campaigns/started.py takes through the services)."""
    slug = create(p.staff, **body)["slug"]
    sides = add_sides(p, slug)
    for side, army in armies.items():
        set_army(p.of(side), slug, side, army)
    for side, majors in MAJORS.items():
        expect(put(p.of(side), path(slug, f"sides/{side}/majors/"), {"majors": majors}), 200)
    place_all(p, slug, placements)
    expect(post(p.staff, path(slug, "start/")), 200)
    return {"slug": slug, "players": {side: body["player"] for side, body in sides.items()}}


def running(p: Players, **body) -> dict:
    """The seed's example campaign, set up and started (through the services: the tests that
    call this are not about set-up)."""
    return started(p.staff_user, p.users, {"west": WEST_ARMY, "east": EAST_ARMY}, PLACEMENTS,
                   **body)


def initiative(p: Players, slug: str, turn: int, phase: str, dice: list[int]) -> dict:
    return expect(post(p.staff, path(slug, f"turns/{turn}/initiative/"),
                       {"phase": phase, "dice": dice}), 200)


def order(client, slug: str, turn: int, kind: str, detachments: Sequence[str] = (), **fields):
    return post(client, path(slug, f"turns/{turn}/orders/"),
                {"kind": kind, "detachments": list(detachments), **fields})


def reveal(p: Players, slug: str, turn: int) -> None:
    """G11: the sealed attacks out (reactions answer revealed attacks only)."""
    expect(post(p.staff, path(slug, f"turns/{turn}/reveal/"), {}), 200)


def accepted(response) -> dict:
    body = expect(response, 201)
    assert body["status"] == "accepted"
    return body


def territory(map_body: list[dict], code: str) -> dict:
    return next(t for t in map_body if t["code"] == code)


def seen_by(client, slug: str, turns: int) -> str:
    """Everything a player can read about the campaign, as one text."""
    bodies = [get(client, "/campaigns/"), get(client, path(slug)),
              get(client, path(slug, "map/")), get(client, path(slug, "score/"))]
    bodies += [get(client, path(slug, f"turns/{n}/battles/")) for n in range(1, turns + 1)]
    for response in bodies:
        assert response.status_code == 200, response.content[:300]
    return json.dumps([r.json() for r in bodies], ensure_ascii=False)


def assert_hidden(client, slug: str, turns: int, hidden: set[str]) -> None:
    """R12: none of ``hidden`` (enemy detachments never revealed) in any campaign endpoint."""
    text = seen_by(client, slug, turns)
    leaked = sorted(name for name in hidden if name in text)
    assert leaked == [], leaked


# Set-up -------------------------------------------------------------------------------------

def test_creation_and_reading(staff_user, db):
    p = Players(staff_user)
    expect(post(p.anon, "/campaigns/", {"name": "X"}), 401)
    expect(post(p.west, "/campaigns/", {"name": "X"}), 403, "staff_only")
    body = create(p.staff, seed=11, army_points=4000,
                  settings={"victory_score": 20, "territory_scoring": "once"})
    assert body["slug"] == "laitus-prime" and body["status"] == "setup"
    assert body["army_points"] == 4000 and body["planet"] is None
    assert body["sides"] == {"west": None, "east": None}
    assert body["turn"] is None and body["phase"] is None
    assert body["settings"]["victory_score"] == 20
    assert body["settings"]["territory_scoring"] == "once"
    assert body["settings"]["adjacency"] == "orthogonal"  # G4 default
    assert body["settings"]["other_sectors_table"] == {"1": -2, "2": -1, "3": -1, "4": -1,
                                                       "5": 1, "6": 2}  # G19 as written
    assert create(p.staff)["slug"] == "laitus-prime-2"
    assert expect(get(p.anon, path("laitus-prime")), 200)["name"] == "Laïtus Prime"
    expect(get(p.anon, path("nowhere")), 404, "campaign_not_found")
    campaign = Campaign.objects.get(slug="laitus-prime")
    tournament = campaign.tournament
    assert tournament.game_system.slug == "epic40k" and tournament.seed == 11
    assert tournament.status == Tournament.Status.DRAFT  # not public until the start
    assert AuditEntry.objects.filter(tournament=tournament, action="campaign_created").exists()
    expect(post(p.staff, "/campaigns/", {"name": "Y", "settings": {"adjacency": "hex"}}), 400)


def test_sides_armies_majors_and_planet(staff_user, db):
    p = Players(staff_user)
    slug = create(p.staff)["slug"]
    side = {"side": "west", "name": "Marcus", "army_name": "Space Marines",
            "faction": "space-marines", "strategic_value": 5}
    expect(post(p.west, path(slug, "sides/"), side), 403, "staff_only")
    expect(post(p.staff, path(slug, "sides/"), {**side, "strategic_value": 11}), 400,
           "strategic_value_out_of_range")
    expect(post(p.staff, path(slug, "sides/"), {**side, "username": "nobody"}), 400, "unknown_user")
    sides = add_sides(p, slug)
    assert sides["west"]["player"] != sides["east"]["player"]
    assert sides["west"]["initiative_value"] == 7  # R16: 4 + 5/2 rounded up
    expect(post(p.staff, path(slug, "sides/"), side), 409, "side_taken")
    read = expect(get(p.anon, path(slug)), 200)["sides"]
    assert read["east"] == {"side": "east", "player": sides["east"]["player"], "name": "Grukk",
                            "army_name": "Orks", "faction": "orks", "strategic_value": 3,
                            "initiative_value": 6, "score": 0, "majors": []}

    # Armies (R1–R3): that side's player or staff; an invalid army is reported, not stored.
    expect(put(p.east, path(slug, "sides/west/army/"), {"detachments": WEST_ARMY}), 403,
           "not_your_side")
    expect(put(p.stranger, path(slug, "sides/west/army/"), {"detachments": WEST_ARMY}), 403)
    expect(put(p.west, path(slug, "sides/north/army/"), {"detachments": WEST_ARMY}), 404)
    over = set_army(p.west, slug, "west", [*WEST_ARMY, {"name": "Titan", "points": 1500}])
    assert (over["valid"], over["saved"]) == (False, False)
    assert over["errors"][0]["code"] == "army_points_over"
    assert over["errors"][0]["params"] == {"total": 6500, "limit": 5000, "excess": 1500}
    two_bosses = set_army(p.east, slug, "east", [*EAST_ARMY[:4],
                                                  {"name": "Big Mek", "points": 500,
                                                   "supreme_commander": True}])
    assert two_bosses["errors"][0]["code"] == "supreme_commander_limit"
    ok = set_army(p.west, slug, "west", WEST_ARMY)
    assert (ok["valid"], ok["saved"], ok["total_points"]) == (True, True, 5000)
    assert set_army(p.staff, slug, "east", EAST_ARMY)["saved"]
    own = expect(get(p.west, path(slug, "sides/west/army/")), 200)
    assert [d["name"] for d in own["detachments"]] == [d["name"] for d in WEST_ARMY]
    expect(get(p.west, path(slug, "sides/east/army/")), 403, "not_your_side")

    # Majors (R7, G30): two codes of the side's own sector.
    for majors in (["1", "A"], ["1", "1"], ["1"], ["1", "3", "5"], ["Z", "1"]):
        expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": majors}), 400,
               "majors_invalid")
    expect(put(p.east, path(slug, "sides/west/majors/"), {"majors": ["1", "3"]}), 403)
    assert expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": ["1", "3"]}),
                  200)["majors"] == ["1", "3"]

    # Planet (R5, G3): an 8 leaves the choice to the organiser.
    expect(post(p.west, path(slug, "planet/"), {}), 403, "staff_only")
    expect(post(p.staff, path(slug, "planet/"), {"dice": [4]}), 400, "dice_missing")
    expect(post(p.staff, path(slug, "planet/"), {"dice": [4, 7]}), 400, "dice_invalid")
    eight = expect(post(p.staff, path(slug, "planet/"), {"dice": [4, 4]}), 200)
    assert eight["planet"] is None and eight["candidates"] == ["agri-monde", "monde-ruche"]
    assert eight["rolls"][0]["dice"] == [4, 4] and eight["rolls"][0]["source"] == "entered"
    chosen = expect(post(p.staff, path(slug, "planet/"), {"planet": "monde-ruche"}), 200)
    assert chosen["planet"] == "monde-ruche" and chosen["candidates"] == ["agri-monde", "monde-ruche"]
    rolled = expect(post(p.staff, path(slug, "planet/"), {}), 200)  # the campaign's own stream
    assert rolled["rolls"][-1]["source"] == "server" and len(rolled["rolls"]) == 2
    stream = Campaign.objects.get(slug=slug).tournament.dice
    assert DiceRoll.objects.filter(stream=stream, purpose="epic.planet").count() == 1
    assert expect(get(p.anon, path(slug)), 200)["planet"] == rolled["planet"]


def test_placement_and_start(staff_user, db):
    p = Players(staff_user)
    slug = create(p.staff)["slug"]
    add_sides(p, slug)
    set_army(p.west, slug, "west", WEST_ARMY)
    one = {"detachment": "Mob Gork", "territory": "G"}
    expect(post(p.east, path(slug, "placements/"), one), 409, "placement_not_ready")
    set_army(p.east, slug, "east", EAST_ARMY)
    assert expect(get(p.anon, path(slug)), 200)["placement_next"] is None  # not known yet
    # R11: the lower strategic value (east, 3) places first.
    expect(post(p.west, path(slug, "placements/"), {"detachment": "Aquila Guard", "territory": "1"}),
           409, "not_your_placement")
    expect(post(p.stranger, path(slug, "placements/"), one), 403, "not_a_participant")
    expect(post(p.east, path(slug, "placements/"), {"detachment": "Mob Gork", "territory": "1"}),
           400, "placement_outside_sector")
    expect(post(p.east, path(slug, "placements/"), {"detachment": "Ghaz", "territory": "G"}),
           400, "detachment_unknown")
    assert expect(post(p.east, path(slug, "placements/"), one), 200) == {"next": "west"}
    assert expect(get(p.anon, path(slug)), 200)["status"] == "placement"
    expect(post(p.west, path(slug, "placements/"),
                {"detachment": "Thunder Drop", "territory": "2"}), 400, "airborne_starts_off_map")
    # R2: the west army is not placed yet, east's is: only east's is frozen.
    expect(put(p.east, path(slug, "sides/east/army/"), {"detachments": EAST_ARMY}), 409,
           "detachments_frozen")
    assert set_army(p.west, slug, "west", WEST_ARMY)["saved"]
    place_all(p, slug, PLACEMENTS[1:5])
    expect(post(p.staff, path(slug, "start/")), 409, "majors_missing")
    expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": ["1", "5"]}), 200)
    expect(put(p.east, path(slug, "sides/east/majors/"), {"majors": ["G", "I"]}), 200)
    expect(post(p.staff, path(slug, "start/")), 409, "placement_incomplete")
    place_all(p, slug, PLACEMENTS[5:9])
    # The last one, placed by staff for the side whose turn it is.
    assert expect(post(p.staff, path(slug, "placements/"),
                       {"detachment": "Eagle Scouts", "territory": "9"}), 200) == {"next": None}
    expect(post(p.east, path(slug, "placements/"), one), 409, "placement_complete")
    expect(post(p.west, path(slug, "start/")), 403, "staff_only")
    expect(post(p.staff, path(slug, "start/")), 409, "major_unguarded")  # R10: 5 is empty
    expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": ["1", "3"]}), 200)
    started = expect(post(p.staff, path(slug, "start/")), 200)
    assert (started["status"], started["turn"], started["phase"]) == ("running", 1, None)
    campaign = Campaign.objects.get(slug=slug)
    assert campaign.tournament.status == Tournament.Status.RUNNING
    assert campaign.tournament.round_set.get(number=1).status == "published"
    expect(post(p.staff, path(slug, "start/")), 409, "campaign_started")
    expect(put(p.west, path(slug, "sides/west/army/"), {"detachments": WEST_ARMY}), 409,
           "detachments_frozen")
    expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": ["1", "3"]}), 409,
           "campaign_started")
    expect(post(p.staff, path(slug, "planet/"), {"planet": "monde-mort"}), 409, "campaign_started")


def test_equal_strategic_values_roll_off_for_the_first_placement(staff_user, db):
    """G5: equal values → a roll-off (west's die first); its winner lets the other place first."""
    p = Players(staff_user)
    slug = create(p.staff)["slug"]
    add_sides(p, slug, west_value=4, east_value=4)
    set_army(p.west, slug, "west", WEST_ARMY)
    set_army(p.east, slug, "east", EAST_ARMY)
    body = {"detachment": "Aquila Guard", "territory": "1", "dice": [2, 2, 6, 3]}
    # West wins the roll-off on the second throw, so east places first: this call is refused.
    expect(post(p.west, path(slug, "placements/"), body), 409, "not_your_placement")
    answer = post(p.east, path(slug, "placements/"),
                  {"detachment": "Mob Gork", "territory": "G", "dice": [2, 2, 6, 3]})
    assert expect(answer, 200) == {"next": "west"}
    campaign = Campaign.objects.get(slug=slug)
    assert campaign.placement_first == "east"
    assert [r["dice"] for r in campaign.placement_roll] == [[2], [2], [6], [3]]


# Keys that differ between two campaigns built alike (row keys, addresses, clocks).
VARYING = {"id", "slug", "campaign_id", "tournament_id", "side_id", "player_id", "user_id",
           "round_id", "dice_id", "checkin_code", "created_at", "opened_at", "published_at",
           "updated_at"}


def rows(queryset) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in VARYING} for row in queryset.values()]


def what_was_built(slug: str, p: Players) -> dict:
    """Everything a set-up leaves behind, with keys and addresses put as the roles they stand for."""
    campaign = Campaign.objects.get(slug=slug)
    sides, players = campaign.sides.all(), campaign.tournament.players.order_by("pk")
    accounts = {p.staff_user.pk: "staff", **{user.pk: side for side, user in p.users.items()}}
    named = {"campaign": {slug: "campaign"}, "user": accounts,
             "player": {row.player_id: f"player of {row.side}" for row in sides}}
    entries = AuditEntry.objects.filter(tournament=campaign.tournament).order_by("pk")
    notices = [(n.task, n.args[0], n.args[2]) for n in QueuedNotice.objects.order_by("pk")
               if n.args[1] == campaign.pk]
    return {
        "campaign": rows(Campaign.objects.filter(pk=campaign.pk)),
        "tournament": rows(Tournament.objects.filter(pk=campaign.tournament_id)),
        "sides": rows(sides.order_by("side")),
        "players": rows(players),
        "accounts": [accounts[user] for user in players.values_list("user_id", flat=True)],
        "detachments": rows(CampaignDetachment.objects.filter(side__campaign=campaign)
                            .order_by("side__side", "position")),
        "turns": rows(campaign.turns.all()),
        "rounds": rows(campaign.tournament.round_set.all()),
        "audit": [(e.action, accounts[e.actor_id], e.ip,
                   {k: named[k].get(v, v) if k in named else v for k, v in e.data.items()})
                  for e in entries],
        "notices": notices,
    }


def test_services_build_what_the_api_builds(staff_user, db):
    """tests/campaigns/started.py stands in for the API's set-up in the tests not about it: both
    paths leave the same rows, audit entries and queued notices."""
    over_http, by_services = Players(staff_user), Players(staff_user, prefix="b")
    armies = {"west": WEST_ARMY, "east": EAST_ARMY}
    body = {"seed": 7, "army_points": 5000, "settings": {"victory_score": 11}}
    http = running_over_http(over_http, armies, PLACEMENTS, **body)
    services = started(staff_user, by_services.users, armies, PLACEMENTS, **body)
    built = what_was_built(http["slug"], over_http)
    assert built["campaign"][0]["status"] == "running" and len(built["audit"]) > 15
    assert what_was_built(services["slug"], by_services) == built


# The map and hidden information -------------------------------------------------------------

def test_the_map_shows_each_player_only_what_they_may_see(staff_user, db):
    p = Players(staff_user)
    slug = running(p)["slug"]
    expect(get(p.anon, path(slug, "map/")), 401)
    expect(get(p.stranger, path(slug, "map/")), 403, "not_a_participant")
    expect(get(p.west, path("nowhere", "map/")), 404)
    west_map = expect(get(p.west, path(slug, "map/")), 200)
    assert [t["code"] for t in west_map] == [*"123456789", *"ABCDEFGHI"]
    one = territory(west_map, "1")
    assert one == {"code": "1", "home_side": "west", "line": 3, "major": True,
                   "controller": "west", "fortified": False, "isolated": False,
                   "counters": [{"side": "west", "army_name": "Space Marines",
                                 "detachment": "Aquila Guard"}]}
    assert territory(west_map, "7")["line"] == 1 and territory(west_map, "A")["line"] == 1
    # R12: enemy counters show the army name only.
    assert territory(west_map, "A")["counters"] == [
        {"side": "east", "army_name": "Orks", "detachment": None}]
    assert territory(west_map, "G")["major"] and not territory(west_map, "D")["major"]
    staff_map = expect(get(p.staff, path(slug, "map/")), 200)
    assert territory(staff_map, "A")["counters"][0]["detachment"] == "Big Gunz"
    assert_hidden(p.west, slug, 1, EAST_NAMES)
    assert_hidden(p.east, slug, 1, WEST_NAMES)


# Turns: initiative and orders ---------------------------------------------------------------

def test_phase_initiative_opens_the_phases_in_order(staff_user, db):
    p = Players(staff_user)
    slug = running(p)["slug"]
    expect(post(p.west, path(slug, "turns/1/initiative/"), {"phase": "air"}), 403, "staff_only")
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "air", "dice": [3]}), 400,
           "dice_missing")
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "air", "dice": [0, 3]}),
           400, "dice_invalid")
    expect(post(p.staff, path(slug, "turns/2/initiative/"), {"phase": "air"}), 404,
           "turn_not_found")
    # R15 with G5: 1D6 + strategic value each (west 5, east 3), a tie is thrown again.
    air = initiative(p, slug, 1, "air", [1, 3, 4, 1])
    assert air == {"phase": "air", "winner": "west", "rolls": [
        {"side": "west", "die": 1, "modifier": 5, "score": 6},
        {"side": "east", "die": 3, "modifier": 3, "score": 6},
        {"side": "west", "die": 4, "modifier": 5, "score": 9},
        {"side": "east", "die": 1, "modifier": 3, "score": 4}]}
    assert expect(get(p.anon, path(slug)), 200)["phase"] == "air"
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "air"}), 409, "phase_order")
    served = expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "moves"}), 200)
    assert served["winner"] in ("west", "east") and len(served["rolls"]) % 2 == 0
    expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "infiltration"}), 409,
           "phase_order")
    turn = CampaignTurn.objects.get(campaign__slug=slug, number=1)
    assert set(turn.initiative) == {"air", "moves"}
    assert AuditEntry.objects.filter(action="campaign_initiative").count() == 2


def test_order_refusals(staff_user, db):
    """Each of the contract's refusal codes, answered 400 (409 ``phase_closed``)."""
    p = Players(staff_user)
    slug = running(p)["slug"]
    # Outside any phase.
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": "9", "to": "8"}), 409,
           "phase_closed")
    expect(order(p.stranger, slug, 1, "move", ["Eagle Scouts"], to="8"), 403, "not_a_participant")
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="8", side="east"), 403,
           "not_your_side")
    initiative(p, slug, 1, "moves", [6, 6])
    refusals = [
        (["Crusader Armour"], "7", "9", "not_adjacent"),
        (["Crusader Armour"], "7", "A", "move_into_enemy"),  # G9
        (["Aquila Guard"], "1", "2", "major_unguarded"),  # R10
        (["Big Gunz"], "A", "B", "detachment_unknown"),  # not west's
    ]
    for names, origin, to, code in refusals:
        expect(order(p.west, slug, 1, "move", names, **{"from": origin, "to": to}), 400, code)
    expect(order(p.west, slug, 1, "attack", ["Crusader Armour"], to="A"), 409, "phase_closed")
    # R16/G6: 7 moves for strategic value 5; R26: +1 for a detachment in the Supreme
    # Commander's line (Captain Varro, line 2 = column 4–6).
    for step in range(7):
        origin, to = ("9", "8") if step % 2 == 0 else ("8", "9")
        body = accepted(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": origin, "to": to}))
        assert body["bonus"] is None
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": "8", "to": "9"}), 400,
           "move_allowance_exceeded")
    bonus = accepted(order(p.west, slug, 1, "move", ["Captain Varro"], to="5"))
    assert bonus["bonus"] == "supreme_commander"
    expect(order(p.west, slug, 1, "move", ["Captain Varro"], to="4"), 400,
           "move_allowance_exceeded")
    assert accepted(order(p.east, slug, 1, "fortify", to="C"))["bonus"] is None
    # R33/R34: an isolated territory (computed at a close) neither moves nor reacts.
    Campaign.objects.filter(slug=slug).update(isolated=["7", "D"])
    expect(order(p.west, slug, 1, "move", ["Crusader Armour"], to="8"), 400, "detachment_isolated")
    initiative(p, slug, 1, "attacks", [5, 1])
    attack = accepted(order(p.west, slug, 1, "attack", ["Crusader Armour"], **{"from": "7", "to": "A"}))
    expect(order(p.west, slug, 1, "attack", ["Crusader Armour"], **{"from": "7", "to": "A"}), 400,
           "detachment_already_committed")  # G10
    reveal(p, slug, 1)
    Campaign.objects.filter(slug=slug).update(isolated=["D"])
    expect(order(p.east, slug, 1, "reaction", ["Warboss Grukk"], for_attack=attack["id"]), 400,
           "detachment_isolated")
    Campaign.objects.filter(slug=slug).update(isolated=[])
    accepted(order(p.east, slug, 1, "reaction", ["Warboss Grukk"], for_attack=attack["id"]))
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="9"), 409, "phase_closed")
    # Staff may declare for a side, naming it.
    expect(order(p.staff, slug, 1, "attack", ["Eagle Scouts"], to="B"), 400, "side_required")


def test_isolation_and_allowance_refusals(staff_user, db):
    """R34 one attack per isolated territory, and the attack and reaction allowances (R16):
    both sides with strategic value 0, so 4 of each."""
    p = Players(staff_user)
    slug = create(p.staff)["slug"]
    add_sides(p, slug, west_value=0, east_value=0)
    west = [{"name": n, "points": 500} for n in ("W1", "W3", "W7a", "W7b", "W8", "W9")]
    east = [{"name": n, "points": 500} for n in ("EG", "EI", "EA", "EB1", "EB2", "EC1", "EC2", "ED")]
    set_army(p.west, slug, "west", west)
    set_army(p.east, slug, "east", east)
    expect(put(p.west, path(slug, "sides/west/majors/"), {"majors": ["1", "3"]}), 200)
    expect(put(p.east, path(slug, "sides/east/majors/"), {"majors": ["G", "I"]}), 200)
    where = {"W1": "1", "W3": "3", "W7a": "7", "W7b": "7", "W8": "8", "W9": "9", "EG": "G",
             "EI": "I", "EA": "A", "EB1": "B", "EB2": "B", "EC1": "C", "EC2": "C", "ED": "D"}
    queue = {"west": [d["name"] for d in west], "east": [d["name"] for d in east]}
    following = "west"  # G5: east wins the roll-off (3 against 6) and lets west place first
    body = {"dice": [3, 6]}
    while following:
        name = queue[following].pop(0)
        following = expect(post(p.of(following), path(slug, "placements/"),
                                {"detachment": name, "territory": where[name], **body}),
                           200)["next"]
        body = {}
    expect(post(p.staff, path(slug, "start/")), 200)
    # R33: isolation is computed at a close; set here as if the last close had found it.
    Campaign.objects.filter(slug=slug).update(isolated=["7"])
    initiative(p, slug, 1, "attacks", [1, 2])
    turn = CampaignTurn.objects.get(campaign__slug=slug, number=1)
    first = accepted(order(p.west, slug, 1, "attack", ["W7a"], **{"from": "7", "to": "A"}))
    expect(order(p.west, slug, 1, "attack", ["W7b"], **{"from": "7", "to": "A"}), 400,
           "isolated_attack_limit")
    # West's front has three territories for five attacks: three were declared earlier (none
    # against B or C, whose detachments react below).
    for _earlier in range(3):
        CampaignOrder.objects.create(turn=turn, side="west", kind="attack", from_code="2",
                                     to_code="2")
    expect(order(p.west, slug, 1, "attack", ["W8"], **{"from": "8", "to": "B"}), 400,
           "attack_allowance_exceeded")
    reveal(p, slug, 1)
    # R29: reactors from A's line (B, C) and next to it (D); 4 of them at most.
    for name in ("EB1", "EB2", "EC1", "EC2"):
        accepted(order(p.east, slug, 1, "reaction", [name], for_attack=first["id"]))
    expect(order(p.east, slug, 1, "reaction", ["ED"], for_attack=first["id"]), 400,
           "reaction_allowance_exceeded")


# A whole campaign ---------------------------------------------------------------------------

def test_a_campaign_played_to_victory(staff_user, db):
    """Three turns with entered dice: west takes A, D and B and reaches the victory score."""
    p = Players(staff_user)
    game = running(p, seed=5, settings={"victory_score": 11})
    slug, players = game["slug"], game["players"]

    # Turn 1 ------------------------------------------------------------------------------
    initiative(p, slug, 1, "air", [1, 3, 4, 1])
    initiative(p, slug, 1, "moves", [6, 6])
    accepted(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": "9", "to": "8"}))
    accepted(order(p.east, slug, 1, "fortify", to="C"))  # R27
    expect(post(p.staff, path(slug, "turns/1/battles/")), 409, "phase_order")
    initiative(p, slug, 1, "attacks", [5, 1])
    attack = accepted(order(p.west, slug, 1, "attack", ["Crusader Armour"],
                            **{"from": "7", "to": "A"}))
    reveal(p, slug, 1)
    accepted(order(p.east, slug, 1, "reaction", ["Warboss Grukk"], **{"from": "D"},
                   for_attack=attack["id"]))
    assert_hidden(p.west, slug, 1, EAST_NAMES)
    expect(post(p.west, path(slug, "turns/1/battles/")), 403, "staff_only")
    (battle,) = expect(post(p.staff, path(slug, "turns/1/battles/")), 201)["battles"]
    assert battle == {
        "id": battle["id"], "game": battle["game"], "territory": "A", "attacker": "west",
        "defender": "east", "attackers": ["Crusader Armour"], "defender_deployed": ["Big Gunz"],
        "defender_reserves": ["Warboss Grukk"], "fortifications": 0,
        "initiative_counters": {"attacker": 3, "defender": 2},  # R17
        "at_stake": {"attacker": 2, "defender": 1},  # R37: 2,200 // 1,000 and 1,200 // 1,000
        "players": {"attacker": players["west"], "defender": players["east"]},
        "isolated": [], "status": "pending", "stay": [], "retreat_to": {}}
    expect(post(p.staff, path(slug, "turns/1/battles/")), 409, "battles_generated")
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="9"), 409, "phase_closed")
    # R12: the battle reveals its detachments to the enemy, and nothing else.
    west_sees = seen_by(p.west, slug, 1)
    assert "Big Gunz" in west_sees and "Warboss Grukk" in west_sees
    assert_hidden(p.west, slug, 1, {"Mob Gork", "Mob Mork", "Kult of Speed"})
    assert_hidden(p.east, slug, 1, WEST_NAMES - {"Crusader Armour"})
    assert "Crusader Armour" in seen_by(p.east, slug, 1)
    assert expect(get(p.east, path(slug, "turns/1/battles/")), 200)["battles"][0]["id"] == battle["id"]

    expect(post(p.staff, path(slug, "turns/1/close/")), 409, "battles_unconfirmed")
    expect(post(p.west, path(slug, f"battles/{battle['id']}/choices/"), {"stay": ["Crusader Armour"]}),
           409, "battles_unconfirmed")
    gid = battle["game"]
    bad = {"result": {"winner": players["west"]}, "campaign": {"swept": ["Mob Gork"]}}
    expect(post(p.west, f"/games/{gid}/report/", bad), 400, "detachment_not_in_battle")
    expect(post(p.west, f"/games/{gid}/report/",
                {"result": {"winner": players["west"]}, "campaign": {"swept": "Big Gunz"}}), 400)
    report = {"result": {"winner": players["west"]}, "campaign": {"swept": ["Big Gunz"]}}
    assert expect(post(p.west, f"/games/{gid}/report/", report), 200)["status"] == "reported"
    assert expect(confirm(p.east, gid), 200)["status"] == "confirmed"
    shown = expect(get(p.west, f"/games/{gid}/"), 200)
    assert shown["outcome"] == {"campaign": {"swept": ["Big Gunz"], "destroyed": []}}
    assert shown["result"]["winner"] == players["west"]

    expect(post(p.staff, path(slug, "turns/1/close/")), 409, "choices_pending")
    choices = path(slug, f"battles/{battle['id']}/choices/")
    expect(post(p.east, choices, {"stay": ["Big Gunz"]}), 403, "not_your_choice")
    expect(post(p.west, choices, {"retreat_to": {"Big Gunz": "B"}}), 403, "not_your_choice")
    expect(post(p.stranger, choices, {"stay": []}), 403, "not_a_participant")
    expect(post(p.west, choices, {"stay": ["Big Gunz"]}), 400, "stay_invalid")
    expect(post(p.west, choices, {}), 400, "choice_required")
    assert expect(post(p.west, choices, {"stay": ["Crusader Armour"]}), 200)["stay"] == [
        "Crusader Armour"]
    # G14: A's nearest friendly territories for east are B and D (one step each).
    missing = post(p.east, choices, {"retreat_to": {"Big Gunz": "B"}})
    assert missing.status_code == 400
    assert missing.json() == {"detail": missing.json()["detail"], "code": "retreat_choice_required",
                              "detachment": "Warboss Grukk", "options": ["B", "D"]}
    far = post(p.east, choices, {"retreat_to": {"Big Gunz": "E", "Warboss Grukk": "D"}})
    assert far.json()["code"] == "retreat_choice_required" and far.json()["detachment"] == "Big Gunz"
    expect(post(p.east, choices, {"retreat_to": {"Mob Gork": "B"}}), 400, "retreat_not_needed")
    done = expect(post(p.east, choices, {"retreat_to": {"Big Gunz": "B", "Warboss Grukk": "D"}}), 200)
    assert done["retreat_to"] == {"Big Gunz": "B", "Warboss Grukk": "D"}

    expect(post(p.west, path(slug, "turns/1/close/")), 403, "staff_only")
    expect(post(p.staff, path(slug, "turns/1/close/"), {"other_sectors_dice": {"west": 7}}), 400,
           "dice_invalid")
    closed = expect(post(p.staff, path(slug, "turns/1/close/"),
                         {"other_sectors_dice": {"west": 3, "east": 3}}), 200)
    assert closed["control_changes"] == [{"territory": "A", "from": "east", "to": "west"}]
    assert closed["isolated_next_turn"] == []
    assert [(e["side"], e["kind"], e["points"]) for e in closed["score_entries"]] == [
        ("west", "battle_won", 2), ("east", "swept", -1),  # R37, R38
        ("west", "territory_held", 1), ("east", "territory_lost", -1),  # R36
        # R40: west at 3 rolls 3 (−1); east at −2 has −1 on the die: 2 (−1).
        ("west", "other_sectors", -1), ("east", "other_sectors", -1)]
    assert all(e["turn"] == 1 for e in closed["score_entries"])
    assert closed["scores"] == {"west": 2, "east": -3}
    assert closed["victory"] is None and closed["next_turn"] == 2
    expect(post(p.staff, path(slug, "turns/1/close/")), 409, "turn_closed")
    expect(post(p.staff, f"/games/{gid}/report/", report), 409, "turn_closed")
    after = expect(get(p.staff, path(slug, "map/")), 200)
    assert territory(after, "A")["controller"] == "west"
    assert territory(after, "A")["counters"][0]["detachment"] == "Crusader Armour"
    assert territory(after, "C")["fortified"]  # R27: still east's at the close
    assert [c["detachment"] for c in territory(after, "B")["counters"]] == ["Big Gunz"]
    assert [c["detachment"] for c in territory(after, "D")["counters"]] == ["Warboss Grukk"]
    assert expect(get(p.anon, path(slug)), 200)["turn"] == 2

    # Turn 2: D falls; the two players disagree on the losses, staff settle ---------------
    initiative(p, slug, 2, "attacks", [1, 3, 6, 1])
    expect(post(p.staff, path(slug, "turns/2/initiative/"), {"phase": "moves"}), 409, "phase_order")
    expect(order(p.west, slug, 2, "move", ["Eagle Scouts"], to="9"), 409, "phase_closed")
    accepted(order(p.west, slug, 2, "attack", ["Crusader Armour"], **{"from": "A", "to": "D"}))
    (battle,) = expect(post(p.staff, path(slug, "turns/2/battles/")), 201)["battles"]
    assert battle["at_stake"] == {"attacker": 0, "defender": 1}
    gid = battle["game"]
    claim = {"result": {"winner": players["west"]}, "campaign": {"destroyed": ["Warboss Grukk"]}}
    expect(post(p.west, f"/games/{gid}/report/", claim), 200)
    denial = {"result": {"winner": players["west"]}, "campaign": {"destroyed": []}}
    assert expect(post(p.east, f"/games/{gid}/report/", denial), 200)["status"] == "disputed"
    expect(post(p.staff, path(slug, "turns/2/close/")), 409, "battles_unconfirmed")
    assert expect(post(p.staff, f"/games/{gid}/report/", claim), 200)["status"] == "confirmed"
    choices = path(slug, f"battles/{battle['id']}/choices/")
    expect(post(p.east, choices, {"retreat_to": {"Warboss Grukk": "E"}}), 400, "retreat_not_needed")
    expect(post(p.west, choices, {"stay": ["Crusader Armour"]}), 200)
    closed = expect(post(p.staff, path(slug, "turns/2/close/"),
                         {"other_sectors_dice": {"west": 5, "east": 6}}), 200)
    assert closed["control_changes"] == [{"territory": "D", "from": "east", "to": "west"}]
    assert [(e["side"], e["kind"], e["points"]) for e in closed["score_entries"]] == [
        ("west", "territory_held", 1), ("east", "territory_lost", -1),
        ("west", "territory_held", 1), ("east", "territory_lost", -1),
        ("west", "other_sectors", 1), ("east", "other_sectors", 1)]
    assert closed["scores"] == {"west": 5, "east": -4}
    staff_map = expect(get(p.staff, path(slug, "map/")), 200)
    assert territory(staff_map, "D")["counters"][0]["detachment"] == "Crusader Armour"
    assert all(c["detachment"] != "Warboss Grukk" for t in staff_map for c in t["counters"])

    # Turn 3: B falls, west reaches 11 ------------------------------------------------------
    initiative(p, slug, 3, "attacks", [3, 3])
    # R9: G is east's line 3: troops needed in its line 1 (none: the Armour went on to D).
    expect(order(p.west, slug, 3, "attack", ["Crusader Armour"], **{"from": "D", "to": "G"}), 400,
           "line_requirement")
    attack = accepted(order(p.west, slug, 3, "attack", ["Eagle Scouts"], **{"from": "8", "to": "B"}))
    expect(order(p.west, slug, 3, "attack", ["Eagle Scouts"], **{"from": "8", "to": "B"}), 400,
           "detachment_already_committed")
    reveal(p, slug, 3)
    accepted(order(p.east, slug, 3, "reaction", ["Kult of Speed"], for_attack=attack["id"]))
    assert_hidden(p.east, slug, 2, {"Aquila Guard", "Bastion Guard", "Captain Varro",
                                    "Thunder Drop", "Eagle Scouts"})
    (battle,) = expect(post(p.staff, path(slug, "turns/3/battles/")), 201)["battles"]
    assert battle["fortifications"] == 0 and battle["defender_reserves"] == ["Kult of Speed"]
    assert battle["at_stake"] == {"attacker": 2, "defender": 0}
    gid = battle["game"]
    expect(post(p.east, f"/games/{gid}/report/", {"result": {"winner": players["west"]}}), 200)
    expect(confirm(p.west, gid), 200)
    choices = path(slug, f"battles/{battle['id']}/choices/")
    expect(post(p.east, choices, {"retreat_to": {"Big Gunz": "C", "Kult of Speed": "E"}}), 200)
    closed = expect(post(p.staff, path(slug, "turns/3/close/"),
                         {"other_sectors_dice": {"west": 5, "east": 2}}), 200)
    # 5 + 2 (battle) + 3 (A, B, D) = 10, then the other sectors: 5 → +1.
    assert closed["scores"] == {"west": 11, "east": -9}
    assert closed["victory"] == {"side": "west", "reason": "score"}  # R35 with 11 (G26)
    assert closed["next_turn"] is None
    final = expect(get(p.anon, path(slug)), 200)
    assert (final["status"], final["victory"]) == ("finished", {"side": "west", "reason": "score"})
    assert final["sides"]["west"]["score"] == 11 and final["sides"]["east"]["score"] == -9
    score = expect(get(p.anon, path(slug, "score/")), 200)
    assert score["totals"] == {"west": 11, "east": -9}
    assert [e["turn"] for e in score["entries"]] == [1] * 6 + [2] * 6 + [3] * 9
    assert set(score["entries"][0]) == {"turn", "side", "kind", "points"}
    expect(post(p.staff, path(slug, "turns/4/initiative/"), {"phase": "air"}), 409,
           "campaign_finished")
    campaign = Campaign.objects.get(slug=slug)
    assert campaign.tournament.status == Tournament.Status.FINISHED
    assert [r.status for r in campaign.tournament.round_set.order_by("number")] == ["completed"] * 3
    # R12 to the end: what never fought stays hidden.
    assert_hidden(p.west, slug, 3, {"Mob Gork", "Mob Mork"})
    assert_hidden(p.east, slug, 3, {"Aquila Guard", "Bastion Guard", "Captain Varro",
                                    "Thunder Drop"})
    actions = set(AuditEntry.objects.filter(tournament=campaign.tournament).values_list(
        "action", flat=True))
    assert {"campaign_created", "campaign_side_added", "campaign_army_set", "campaign_majors_set",
            "campaign_placement", "campaign_started", "campaign_initiative", "campaign_order",
            "campaign_battles_generated", "campaign_battle_choices", "campaign_turn_closed",
            "result_confirmed"} <= actions


def test_a_capture_without_defenders_and_a_drawn_battle(staff_user, db):
    """G13: B is empty, so the Scouts take it without a battle (no battle score, the attack
    still used, the attackers unseen); G12: the draw at A leaves A to east."""
    p = Players(staff_user)
    game = running(p)
    slug, players = game["slug"], game["players"]
    initiative(p, slug, 1, "moves", [6, 6])
    accepted(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="8"))
    initiative(p, slug, 1, "attacks", [6, 6])
    accepted(order(p.west, slug, 1, "attack", ["Eagle Scouts"], to="B"))
    accepted(order(p.west, slug, 1, "attack", ["Crusader Armour"], to="A"))
    generated = expect(post(p.staff, path(slug, "turns/1/battles/")), 201)
    (battle,) = generated["battles"]
    (capture,) = generated["captures"]
    assert battle["territory"] == "A" and battle["game"] is not None
    assert capture == {"id": capture["id"], "game": None, "territory": "B", "attacker": "west",
                       "defender": "east", "attackers": ["Eagle Scouts"], "stay": []}
    east_view = expect(get(p.east, path(slug, "turns/1/battles/")), 200)
    assert east_view["captures"] == [{"id": capture["id"], "game": None, "territory": "B",
                                      "attacker": "west", "defender": "east"}]
    assert_hidden(p.east, slug, 1, WEST_NAMES - {"Crusader Armour"})
    expect(post(p.west, path(slug, f"battles/{capture['id']}/choices/"),
                {"stay": ["Eagle Scouts"]}), 200)
    expect(post(p.west, f"/games/{battle['game']}/report/", {"result": {"winner": None}}), 200)
    expect(confirm(p.east, battle["game"]), 200)
    # After a draw only the defender's reactors could stay; the attackers go back.
    expect(post(p.west, path(slug, f"battles/{battle['id']}/choices/"),
                {"stay": ["Crusader Armour"]}), 403, "not_your_choice")
    closed = expect(post(p.staff, path(slug, "turns/1/close/"),
                         {"other_sectors_dice": {"west": 5, "east": 5}}), 200)
    assert closed["control_changes"] == [{"territory": "B", "from": "east", "to": "west"}]
    assert [(e["side"], e["kind"], e["points"]) for e in closed["score_entries"]] == [
        ("west", "territory_held", 1), ("east", "territory_lost", -1),
        # R40: east, at −1, has −1 on its 5: a 4, −1.
        ("west", "other_sectors", 1), ("east", "other_sectors", -1)]
    staff_map = expect(get(p.staff, path(slug, "map/")), 200)
    assert [c["detachment"] for c in territory(staff_map, "B")["counters"]] == ["Eagle Scouts"]
    assert [c["detachment"] for c in territory(staff_map, "7")["counters"]] == ["Crusader Armour"]
    assert territory(staff_map, "A")["controller"] == "east"
    assert players["west"] != players["east"]


def test_server_dice_replay_from_the_seed(staff_user, db):
    """Without entered dice the campaign rolls on its own stream: the same seed and the same
    calls give the same rolls (the other-sectors dice of a close, too)."""
    answers = []
    for run in range(2):
        p = Players(staff_user, prefix=f"r{run}")
        slug = running(p, name=f"Replay {run}", seed=42)["slug"]
        air = expect(post(p.staff, path(slug, "turns/1/initiative/"), {"phase": "air"}), 200)
        closed = expect(post(p.staff, path(slug, "turns/1/close/")), 200)
        answers.append((air, closed["other_sectors"], closed["scores"]))
        stream = Campaign.objects.get(slug=slug).tournament.dice
        assert DiceRoll.objects.filter(stream=stream, purpose="epic.other_sectors").count() == 2
    assert answers[0] == answers[1]
    assert DiceStream.objects.filter(key__startswith="campaign:").count() == 2


def test_reports_outside_campaigns_refuse_campaign_facts(staff_user, db):
    event = build_event(staff_user, 2)
    game = expect(pair(event.staff, event.slug), 201)["games"][0]
    a, _b = game["players"]
    body = {"result": {"winner": a}, "campaign": {"swept": []}}
    expect(post(event.client(a), f"/games/{game['id']}/report/", body), 400, "campaign_not_used")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_parallel_orders_spend_the_last_move_once(staff_user):
    """Row lock on the campaign: four moves sent at once for the last allowance, one accepted."""
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "moves", [6, 6])
    for step in range(6):
        origin, to = ("9", "8") if step % 2 == 0 else ("8", "9")
        accepted(order(p.west, slug, 1, "move", ["Eagle Scouts"], **{"from": origin, "to": to}))
    user = p.west_user
    # Each legal alone (the Scouts are back in 9); none in the Captain's line (no bonus).
    moves = [("Eagle Scouts", "8"), ("Crusader Armour", "8"), ("Crusader Armour", "4"),
             ("Eagle Scouts", "6")]
    calls = [lambda name=name, to=to: order(client_for(user), slug, 1, "move", [name], to=to)
             for name, to in moves]
    answers = in_parallel(calls)
    assert sorted(status for status, _body in answers) == [201, 400, 400, 400], answers
    assert CampaignOrder.objects.filter(turn__campaign__slug=slug).count() == 7


def test_a_campaigns_event_is_never_paired_as_a_swiss_round(staff_user, db):
    p = Players(staff_user)
    game = running(p, seed=5)
    campaign_event = Campaign.objects.get(slug=game["slug"]).tournament.slug
    expect(post(p.staff, f"/tournaments/{campaign_event}/rounds/"), 409, "campaign_event")
