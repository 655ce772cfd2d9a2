"""G11 through the API: sealed orders (the default) hidden from the enemy until their phase is
revealed, the sealed attacks revealed together before the reactions, the alternating mode's
turn to declare with its e-mail, the initiative winner's choice of who declares first, and the
surrender e-mail (R35).

The seed's example map (tests/campaigns/test_campaign_api.py): west holds 1–9, east A–I."""
from __future__ import annotations

import pytest

from campaigns.models import Campaign, CampaignDetachment, CampaignOrder
from campaigns.services import overrides as campaign_overrides
from campaigns.services import reveal as campaign_reveal
from campaigns.services.turns import OrderInput
from events.audit import Actor
from events.models import Tournament
from tests.campaigns.test_campaign_air_api import key
from tests.campaigns.test_campaign_air_api import running as air_campaign
from tests.campaigns.test_campaign_api import (
    Players,
    initiative,
    order,
    path,
    reveal,
    running,
    territory,
)
from tests.tournament_fixtures import expect, get, post
from tests.tournament_fixtures import put as put_json


def in_english(slug: str) -> str:
    """The campaign's event writes its e-mails in English (a new event's language is French)."""
    Tournament.objects.filter(campaign__slug=slug).update(language="en")
    return slug


def with_addresses(p: Players) -> Players:
    for account in (p.west_user, p.east_user):
        account.email = f"{account.username}@example.org"
        account.save(update_fields=["email"])
    return p


def orders_of(client, slug: str, turn: int = 1) -> dict:
    return expect(get(client, path(slug, f"turns/{turn}/orders/")), 200)


def counters(client, slug: str, code: str) -> int:
    return len(territory(expect(get(client, path(slug, "map/")), 200), code)["counters"])


def test_sealed_orders_stay_hidden_until_their_phase_is_revealed(staff_user, db):
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "moves", [6, 1])  # west wins and, by default, declares first
    moved = expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="8"), 201)
    assert moved["status"] == "accepted" and moved["sealed"] is True
    # West sees its move; east still sees the counter in 9, and no west order at all.
    assert (counters(p.west, slug, "9"), counters(p.west, slug, "8")) == (0, 1)
    assert (counters(p.east, slug, "9"), counters(p.east, slug, "8")) == (1, 0)
    assert orders_of(p.east, slug)["orders"] == []
    (mine,) = orders_of(p.west, slug)["orders"]
    assert mine["status"] == "sealed" and mine["detachments"] == ["Eagle Scouts"]
    declaring = orders_of(p.staff, slug)["declarations"]
    assert declaring == {"mode": "sealed", "turn": 1, "phase": "moves", "first": "west",
                         "ready": [], "revealed": False, "next": None,
                         "deadline": None}
    # Ready: no more orders of this phase from west.
    assert expect(post(p.west, path(slug, "turns/1/ready/"), {}), 200)["ready"] == ["west"]
    expect(order(p.west, slug, 1, "move", ["Captain Varro"], to="5"), 409, "orders_sent")
    # The next phase opens: the moves are out, numbered in their interleaved order.
    initiative(p, slug, 1, "attacks", [5, 1])
    (seen,) = orders_of(p.east, slug)["orders"]
    assert seen["status"] == "accepted" and seen["sequence"] == 1
    assert seen["from"] == "9" and seen["to"] == "8" and seen["detachments"] == 1  # no names (R12)
    assert counters(p.east, slug, "8") == 1


def test_sealed_attacks_are_revealed_together_then_the_reactions_follow(staff_user, db):
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "attacks", [5, 1])
    attack = expect(order(p.west, slug, 1, "attack", ["Crusader Armour"], **{"from": "7"},
                          to="A"), 201)
    assert orders_of(p.east, slug)["orders"] == []
    expect(get(p.stranger, path(slug, "turns/1/orders/")), 403, "not_a_participant")
    expect(post(p.west, path(slug, "turns/1/reveal/"), {}), 403, "staff_only")
    expect(post(p.west, path(slug, "turns/1/ready/"), {}), 200)
    assert orders_of(p.east, slug)["orders"] == []  # one side ready: still sealed
    both = expect(post(p.east, path(slug, "turns/1/ready/"), {}), 200)
    assert both["revealed"] is True and both["ready"] == ["east", "west"]
    (seen,) = orders_of(p.east, slug)["orders"]
    assert seen["id"] == attack["id"] and seen["to"] == "A" and seen["status"] == "accepted"
    expect(order(p.east, slug, 1, "attack", ["Warboss Grukk"], to="4"), 409, "attacks_revealed")
    reaction = expect(order(p.east, slug, 1, "reaction", ["Warboss Grukk"],
                            for_attack=attack["id"]), 201)
    assert reaction["sealed"] is True
    battles = expect(post(p.staff, path(slug, "turns/1/battles/"), {}), 201)["battles"]
    assert battles[0]["defender_reserves"] == ["Warboss Grukk"]
    assert set(CampaignOrder.objects.values_list("status", flat=True)) == {"accepted"}


def test_a_reaction_answers_revealed_attacks_only(staff_user, db):
    """Sealed attacks: before the reveal a reaction naming one is answered as one naming no
    attack (api-v1-systems); once revealed, C under attack cannot react (G10, R29)."""
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "attacks", [5, 1])
    first = expect(order(p.west, slug, 1, "attack", ["Crusader Armour"], to="A"), 201)
    early = expect(order(p.east, slug, 1, "reaction", ["Kult of Speed"], for_attack=first["id"]),
                   400, "reaction_attack_unknown")
    absent = expect(order(p.east, slug, 1, "reaction", ["Kult of Speed"], for_attack=99), 400,
                    "reaction_attack_unknown")
    assert early["detail"].replace(str(first["id"]), "N") == absent["detail"].replace("99", "N")
    expect(order(p.west, slug, 1, "attack", ["Eagle Scouts"], to="C"), 201)
    expect(post(p.staff, path(slug, "turns/1/reveal/"), {}), 200)
    expect(order(p.east, slug, 1, "reaction", ["Kult of Speed"], for_attack=first["id"]), 400,
           "reaction_source_under_attack")
    battles = expect(post(p.staff, path(slug, "turns/1/battles/"), {}), 201)["battles"]
    by_place = {b["territory"]: b for b in battles}
    assert by_place["A"]["defender_reserves"] == []
    assert by_place["C"]["defender_deployed"] == ["Kult of Speed"]
    assert [o["sequence"] for o in orders_of(p.staff, slug)["orders"]] == [1, 2]


def test_alternating_orders_one_each_from_the_side_the_winner_chose(
        staff_user, db, mailoutbox, django_capture_on_commit_callbacks):
    p = with_addresses(Players(staff_user))
    slug = in_english(running(p, settings={"declaration_mode": "alternating"})["slug"])
    assert expect(get(p.anon, path(slug)), 200)["settings"]["declaration_mode"] == "alternating"
    initiative(p, slug, 1, "moves", [6, 1])  # west wins the initiative
    expect(post(p.east, path(slug, "turns/1/first/"), {"side": "east"}), 403,
           "not_initiative_winner")
    expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="F"), 409, "not_your_turn")
    chosen = expect(post(p.west, path(slug, "turns/1/first/"), {"side": "east"}), 200)
    assert chosen["first"] == "east" and chosen["next"] == "east"
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        east_move = expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="F"), 201)
    assert east_move["sealed"] is False and east_move["next"] == "west"
    (letter,) = mailoutbox
    assert letter.to == [p.west_user.email] and "your turn to declare" in letter.subject
    expect(post(p.west, path(slug, "turns/1/first/"), {"side": "west"}), 409, "orders_declared")
    expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="C"), 409, "not_your_turn")
    # Nothing is sealed: east sees west's move at once.
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="8"), 201)
    assert [o["status"] for o in orders_of(p.east, slug)["orders"]] == ["accepted", "accepted"]
    assert counters(p.east, slug, "8") == 1
    # West is done: east goes on alone.
    assert expect(post(p.west, path(slug, "turns/1/ready/"), {}), 200)["next"] == "east"
    expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="C"), 201)
    expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="F"), 201)
    expect(order(p.west, slug, 1, "move", ["Eagle Scouts"], to="9"), 409, "orders_sent")


@pytest.mark.parametrize("mode", ["sealed", "alternating"])
def test_staff_declare_for_a_side_and_a_ready_mark_needs_an_open_phase(staff_user, db, mode):
    p = Players(staff_user)
    slug = running(p, settings={"declaration_mode": mode})["slug"]
    expect(post(p.west, path(slug, "turns/1/ready/"), {}), 409, "phase_closed")
    expect(post(p.staff, path(slug, "turns/1/first/"), {"side": "west"}), 409,
           "initiative_missing")
    initiative(p, slug, 1, "moves", [1, 6])  # east wins
    expect(post(p.staff, path(slug, "turns/1/first/"), {"side": "west"}), 200)
    expect(order(p.staff, slug, 1, "move", ["Eagle Scouts"], to="8", side="west"), 201)
    body = expect(post(p.staff, path(slug, "turns/1/ready/"), {"side": "west"}), 200)
    assert body["ready"] == ["west"] and body["first"] == "west"


def test_staff_force_a_legal_reaction_naming_the_attack_by_its_database_key(staff_user, db):
    """The cockpit names orders by their database key; a forced order the rules allow goes the
    players' way (public numbers) and must still answer the attack the organiser named."""
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "attacks", [5, 1])
    expect(order(p.west, slug, 1, "attack", ["Eagle Scouts"], to="C"), 201)
    attack = expect(order(p.west, slug, 1, "attack", ["Crusader Armour"], **{"from": "7", "to": "A"}),
                    201)
    reveal(p, slug, 1)
    attack_key = key(slug, "west", attack["id"])  # west's second order: number 3
    forced = campaign_overrides.force_order(Actor(staff_user), Campaign.objects.get(slug=slug), 1,
                                            OrderInput("reaction", ("Warboss Grukk",), side="east",
                                                       for_attack=attack_key), "ruling")
    assert forced.refusal is None and forced.order.for_attack_id == attack_key


def test_a_surrender_is_mailed_to_both_players(staff_user, db, mailoutbox,
                                               django_capture_on_commit_callbacks):
    p = with_addresses(Players(staff_user))
    slug = in_english(running(p)["slug"])
    with django_capture_on_commit_callbacks(execute=True):
        expect(post(p.east, path(slug, "sides/east/surrender/"), {"confirm": "Orks"}), 200)
    letters = {m.to[0]: m for m in mailoutbox}
    assert set(letters) == {p.west_user.email, p.east_user.email}
    assert "surrendered" in letters[p.west_user.email].subject
    assert "You surrendered" in letters[p.east_user.email].body
    assert "wins the campaign" in letters[p.west_user.email].body


def test_a_phase_deadline_is_set_with_the_initiative_or_later_and_told_to_the_players(
        staff_user, db, mailoutbox, django_capture_on_commit_callbacks):
    p = with_addresses(Players(staff_user))
    slug = running(p)["slug"]
    with django_capture_on_commit_callbacks(execute=True):
        opened = expect(post(p.staff, path(slug, "turns/1/initiative/"), {
            "phase": "moves", "dice": [6, 1], "deadline": "2026-12-02T20:00:00+01:00"}), 200)
    assert opened["deadline"].startswith("2026-12-02T20:00:00")
    assert orders_of(p.west, slug)["declarations"]["deadline"] == opened["deadline"]
    letters = [m for m in mailoutbox if "moves" in m.subject.lower() or "mouvements" in m.subject.lower()]
    assert letters and all("due by" in m.body or "à rendre" in m.body for m in letters), \
        [m.body for m in letters]
    expect(put_json(p.west, path(slug, "turns/1/deadline/"), {"deadline": None}), 403, "staff_only")
    cleared = expect(put_json(p.staff, path(slug, "turns/1/deadline/"), {"deadline": None}), 200)
    assert cleared["deadline"] is None
    expect(put_json(p.staff, path(slug, "turns/1/deadline/"), {"deadline": "soon"}), 400)


def test_a_landing_refused_at_the_reveal_leaves_its_detachment_in_orbit(staff_user, db):
    """R13 with G11: a sealed landing marks its detachment landed when sent; refused at the
    reveal, the detachment is back in orbit. No map of the seed makes a landing illegal by
    interleaving, so the reveal's verdict is written here and its clean-up called."""
    p = Players(staff_user)
    slug = air_campaign(p)
    initiative(p, slug, 1, "moves", [4, 2])
    landing = expect(order(p.west, slug, 1, "move", ["Drop Pod Company"], to="8"), 201)
    drop = CampaignDetachment.objects.get(name="Drop Pod Company")
    assert (drop.location, drop.landed_turn, drop.vehicles_in_orbit) == ("8", 1, True)
    row = CampaignOrder.objects.get(pk=key(slug, "west", landing["id"]))
    row.status = CampaignOrder.REFUSED
    campaign_reveal.undo_marks(row.turn.campaign, row.turn, [row])
    drop.refresh_from_db()
    assert (drop.landed_turn, drop.vehicles_in_orbit) == (None, False)
