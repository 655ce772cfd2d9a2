"""Issue #23 item 1: in the sealed declaration mode nothing a side can read or send tells it
what the other side sealed (api-v1-systems "Sealed declarations").

Each test plays one situation twice from the same database point (a savepoint rolled back in
between): once with east's sealed orders, once without. West's every read (the API's GETs and
the campaign page) and west's answers to what it can send must be the same in both, apart from
timestamps and CSRF tokens. After the reveal west sees east's attacks and reacts to them by the
id it reads.

The seed's example map (tests/campaigns/test_campaign_api.py): west holds 1–9, east A–I."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.campaigns.test_campaign_api import Players, initiative, order, path, running
from tests.tournament_fixtures import expect, get, post

Secret = Callable[[Players, str], None]
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?")
CSRF = re.compile(r"(csrfmiddlewaretoken\" value=\")[^\"]+|(csrftoken=)[^;\s\"]+")
READS = ("", "map/", "score/", "turns/1/orders/", "turns/1/battles/",
         "turns/1/infiltrations/", "turns/1/air/")


def scrubbed(text: str) -> str:
    """``text`` without what differs from one request to the next anyway."""
    return CSRF.sub(lambda m: (m.group(1) or m.group(3) or "") + "…", TIMESTAMP.sub("…", text))


def page_client(p: Players) -> Client:
    client = Client()
    client.force_login(p.west_user)
    return client


def reads(p: Players, slug: str) -> dict[str, str]:
    """Everything west can read about the campaign: every GET of the API and the page."""
    seen = {"/campaigns/": get(p.west, "/campaigns/")}
    seen |= {rest: get(p.west, path(slug, rest)) for rest in READS}
    out = {key: f"{r.status_code} {json.dumps(r.json(), sort_keys=True)}"
           for key, r in seen.items()}
    html = page_client(p).get(reverse("campaign", args=[slug]))
    out["page"] = f"{html.status_code} {html.content.decode()}"
    return {key: scrubbed(text) for key, text in out.items()}


def answer(response) -> str:
    body = response.json() if response.content else None
    return scrubbed(f"{response.status_code} {json.dumps(body, sort_keys=True)}")


def sends(p: Players, slug: str, attempts: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """West's answers to ``attempts`` (each a path under the campaign and a body)."""
    return [answer(post(p.west, path(slug, rest), body)) for rest, body in attempts]


def twice(p: Players, slug: str, secret: Secret, play: Callable[[], Any]) -> tuple[Any, Any]:
    """``play()`` after east's ``secret`` orders, then (from the same point) without them."""
    point = transaction.savepoint()
    secret(p, slug)
    with_secret = play()
    transaction.savepoint_rollback(point)
    return with_secret, play()


def assert_same(with_secret: dict[str, str] | list[str], without: dict[str, str] | list[str]
                ) -> None:
    if isinstance(with_secret, dict):
        assert with_secret.keys() == without.keys()
        for key in with_secret:
            assert with_secret[key] == without[key], key
    assert with_secret == without


def east_seals_attacks(p: Players, slug: str) -> None:
    expect(order(p.east, slug, 1, "attack", ["Big Gunz"], to="7"), 201)
    expect(order(p.east, slug, 1, "attack", ["Kult of Speed"], to="9"), 201)


def east_seals_a_move(p: Players, slug: str) -> None:
    expect(order(p.east, slug, 1, "move", ["Kult of Speed"], to="F"), 201)
    expect(order(p.east, slug, 1, "fortify", to="I"), 201)


REACTION_PROBES = [("turns/1/orders/", {"kind": "reaction", "detachments": ["Captain Varro"],
                                        "for_attack": number, **target})
                   for number in range(1, 13) for target in ({}, {"to": "7"}, {"to": "8"})]


@pytest.fixture
def sealed_attacks(staff_user, db) -> tuple[Players, str]:
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "attacks", [5, 1])  # west wins the attacks' initiative
    return p, slug


def test_west_reads_the_same_whether_or_not_east_sealed_attacks(sealed_attacks):
    p, slug = sealed_attacks
    assert_same(*twice(p, slug, east_seals_attacks, lambda: reads(p, slug)))


def test_the_initiative_winners_choice_ignores_the_enemys_sealed_orders(sealed_attacks):
    p, slug = sealed_attacks
    first = [("turns/1/first/", {"side": "east"}), ("turns/1/first/", {"side": "west"})]
    assert_same(*twice(p, slug, east_seals_attacks, lambda: sends(p, slug, first)))
    assert_same(*twice(p, slug, east_seals_attacks, lambda: reads(p, slug)["page"]))


def test_reactions_cannot_probe_sealed_attacks(sealed_attacks):
    p, slug = sealed_attacks
    with_secret, without = twice(p, slug, east_seals_attacks,
                                 lambda: sends(p, slug, REACTION_PROBES))
    assert_same(with_secret, without)
    assert all(one.startswith("400 ") and "reaction_attack_unknown" in one for one in without)


def test_order_ids_say_nothing_of_the_enemys_sealed_orders(sealed_attacks):
    p, slug = sealed_attacks

    def west_attacks() -> list[str]:
        attacks = [("turns/1/orders/", {"kind": "attack", "detachments": ["Crusader Armour"],
                                        "to": "A"}),
                   ("turns/1/orders/", {"kind": "attack", "detachments": ["Eagle Scouts"],
                                        "to": "C"})]
        return sends(p, slug, attacks) + [reads(p, slug)["turns/1/orders/"]]

    def interleaved(p: Players, slug: str) -> None:  # west, east, west: ids would jump
        east_seals_attacks(p, slug)

    assert_same(*twice(p, slug, interleaved, west_attacks))


def test_moves_and_fortifications_stay_sealed_too(staff_user, db):
    p = Players(staff_user)
    slug = running(p)["slug"]
    initiative(p, slug, 1, "moves", [6, 1])

    def west_plays() -> tuple[dict[str, str], list[str]]:
        before = reads(p, slug)
        sent = sends(p, slug, [
            ("turns/1/first/", {"side": "east"}),
            ("turns/1/orders/", {"kind": "move", "detachments": ["Eagle Scouts"], "to": "8"}),
            ("turns/1/orders/", {"kind": "fortify", "to": "8"}),
            ("turns/1/orders/", {"kind": "move", "detachments": ["Eagle Scouts"], "to": "B"}),
            ("turns/1/orders/", {"kind": "attack", "detachments": ["Crusader Armour"],
                                 "to": "A"})])
        return {**before, **{f"after {k}": v for k, v in reads(p, slug).items()}}, sent

    (seen_secret, sent_secret), (seen, sent) = twice(p, slug, east_seals_a_move, west_plays)
    assert_same(sent_secret, sent)
    assert_same(seen_secret, seen)


def test_a_sealed_attack_answers_as_none_until_revealed_then_takes_its_reaction(sealed_attacks):
    p, slug = sealed_attacks
    east_seals_attacks(p, slug)
    staff_view = expect(get(p.staff, path(slug, "turns/1/orders/")), 200)["orders"]
    (sealed_id,) = [o["id"] for o in staff_view if o["to"] == "7"]
    refused = expect(order(p.west, slug, 1, "reaction", ["Captain Varro"], for_attack=sealed_id,
                           to="7"), 400, "reaction_attack_unknown")
    assert refused["detail"] == f"There is no enemy attack numbered {sealed_id} to react to."
    expect(post(p.west, path(slug, "turns/1/ready/"), {}), 200)
    expect(post(p.staff, path(slug, "turns/1/reveal/"), {}), 200)
    seen = expect(get(p.west, path(slug, "turns/1/orders/")), 200)["orders"]
    attacks = {o["to"]: o for o in seen if o["side"] == "east" and o["kind"] == "attack"}
    assert set(attacks) == {"7", "9"} and attacks["7"]["id"] == sealed_id
    html = page_client(p).get(reverse("campaign", args=[slug])).content.decode()
    assert "From A against 7" in html
    reaction = expect(order(p.west, slug, 1, "reaction", ["Captain Varro"],
                            for_attack=sealed_id), 201)
    assert reaction["status"] == "accepted"
    mine = expect(get(p.west, path(slug, "turns/1/orders/")), 200)["orders"]
    (answered,) = [o for o in mine if o["kind"] == "reaction"]
    assert answered["for_attack"] == sealed_id and answered["to"] == "7"
