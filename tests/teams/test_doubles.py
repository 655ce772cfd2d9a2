"""Doubles: entrants are pairs (one player row, two accounts, two lists); the pair's points rule
per player or per pair; pairs are paired, either partner reports and confirms; standings of
pairs; every refusal coded and nothing stored."""
from __future__ import annotations

import json

import pytest

from armylists.models import ArmyList
from events.audit import Actor
from events.models import AuditEntry, Player, Tournament
from events.services import exports, restore
from teams.models import DoublesEvent, DoublesPartner
from tests.events.test_backup import purge, without_time
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    client_for,
    confirm,
    create_tournament,
    expect,
    get,
    make_users,
    pair,
    post,
    put,
    register,
    report,
    set_status,
    submit_list,
)

pytestmark = pytest.mark.django_db


def doubles(staff_user, prefix: str, pairs: int, **settings):
    """A doubles event with ``pairs`` pairs, each complete; returns its slug, the staff client
    and, by player id, the two partners' clients."""
    staff = client_for(staff_user)
    body = create_tournament(staff, name=f"Doubles {prefix}", format="doubles", doubles=settings,
                             **({"points_limit": 700} if prefix.startswith("lim") else {}))
    slug = body["slug"]
    set_status(staff, slug, "registration_open")
    users = make_users(f"{prefix}-", 2 * pairs)
    partners: dict[int, tuple] = {}
    for i in range(pairs):
        first, second = client_for(users[2 * i]), client_for(users[2 * i + 1])
        player = register(first, slug, f"Pair {i}")
        expect(post(first, f"/tournaments/{slug}/pairs/{player['id']}/", {"username": users[2 * i + 1].username}),
               201)
        partners[player["id"]] = (first, second)
    return slug, staff, partners, users


def test_a_doubles_event_keeps_its_points_rule(staff_client):
    body = create_tournament(staff_client, name="Doubles rule", format="doubles", doubles={"points": "per_pair"})
    assert (body["format"], body["doubles"]) == ("doubles", {"points": "per_pair"})
    body = create_tournament(staff_client, name="Doubles default", format="doubles")
    assert body["doubles"] == {"points": "per_player"}
    expect(post(staff_client, "/tournaments/", {"name": "Bad", "chart": "w40k4-standard", "points_limit": 1500,
                                                "format": "doubles", "doubles": {"points": "per_table"}}), 400)


def test_naming_a_partner_and_its_refusals(staff_user):
    slug, staff, partners, users = doubles(staff_user, "nm", 1)
    (pid, (first, second)), = partners.items()
    lone_user, stranger_user, other_user = make_users("nm-extra-", 3)
    lone = register(client_for(lone_user), slug, "Lone")
    path = f"/tournaments/{slug}/pairs/{lone['id']}/"
    expect(post(client_for(stranger_user), path, {"username": other_user.username}), 403, "not_your_pair")
    lone_client = client_for(lone_user)
    expect(post(lone_client, path, {"username": "nobody-here"}), 400, "partner_unknown")
    expect(post(lone_client, path, {"username": lone_user.username}), 400, "partner_self")
    french = expect(post(lone_client, path, {"username": lone_user.username}, HTTP_ACCEPT_LANGUAGE="fr"), 400,
                    "partner_self")
    assert french["detail"] == "Une doublette, ce sont deux comptes différents."
    expect(post(lone_client, path, {"username": users[1].username}), 400, "partner_taken")  # a partner
    expect(post(lone_client, path, {"username": users[0].username}), 400, "partner_taken")  # a player
    assert not DoublesPartner.objects.filter(player_id=lone["id"]).exists()
    body = expect(post(staff, path, {"username": other_user.username.upper()}), 201)
    assert body["partner"] == other_user.username
    expect(post(lone_client, path, {"username": stranger_user.username}), 409, "pair_complete")
    assert AuditEntry.objects.filter(action="doubles_partner_added").count() == 2
    # A partner cannot also enter on their own.
    expect(post(client_for(users[1]), f"/tournaments/{slug}/players/", {"name": "Solo"}), 409, "already_partner")
    expect(post(staff, f"/tournaments/{slug}/players/", {"name": "Solo", "username": other_user.username}), 409,
           "already_partner")
    # Not a doubles event.
    plain = create_tournament(staff, name="Singles")["slug"]
    expect(get(staff, f"/tournaments/{plain}/pairs/1/"), 409, "not_doubles_event")


@pytest.mark.parametrize(("points", "valid"), [("per_player", True), ("per_pair", False)])
def test_the_points_limit_per_player_or_per_pair(staff_user, points, valid):
    # Points limit 700; each list is 380 points: within it alone, not together.
    slug, staff, partners, _users = doubles(staff_user, f"lim{points[-4:]}", 1, points=points)
    (pid, (first, second)), = partners.items()
    list_path = f"/tournaments/{slug}/pairs/{pid}/partner-list/"
    if points == "per_pair":
        expect(put(second, list_path, {"units": LEGAL_UNITS}), 409, "pair_main_list_first")
    expect(submit_list(first, slug, pid, LEGAL_UNITS), 200)
    expect(put(client_for(make_users("lim-stranger-", 1)[0]), list_path, {"units": LEGAL_UNITS}), 403,
           "not_your_list")
    body = expect(put(second, list_path, {"units": LEGAL_UNITS}), 200)
    assert body["points_limit"] == (700 if points == "per_player" else 320)
    assert body["valid"] is valid
    pair_body = expect(get(first, f"/tournaments/{slug}/pairs/{pid}/"), 200)
    assert pair_body["points_used"] == 760 and pair_body["within_limit"] is valid
    assert [entry["total_points"] for entry in pair_body["lists"]] == [380, 380]
    # Lists are not published: another reader sees the points, not the lists.
    assert [entry["id"] for entry in expect(get(client_for(None), f"/tournaments/{slug}/pairs/{pid}/"),
                                            200)["lists"]] == [None, None]


def test_pairs_are_paired_either_partner_reports_and_confirms_and_pairs_stand(staff_user):
    slug, staff, partners, _users = doubles(staff_user, "pl", 4)
    register(client_for(make_users("pl-lone-", 1)[0]), slug, "Lone pair")
    expect(pair(staff, slug), 409, "pairs_incomplete")
    lone = Player.objects.get(tournament__slug=slug, name="Lone pair")
    lone.dropped = True
    lone.save(update_fields=["dropped"])
    round_ = expect(pair(staff, slug), 201)
    assert len(round_["games"]) == 2
    for game in round_["games"]:
        a, b = game["players"]
        # The second partner of the other pair may not report this game.
        outsider = next(c[1] for pid, c in partners.items() if pid not in (a, b))
        expect(report(outsider, game["id"], a, {a: 900, b: 300}), 403)
        expect(report(partners[a][1], game["id"], a, {a: 900, b: 300}), 200)
        assert expect(confirm(partners[b][1], game["id"]), 200)["status"] == "confirmed"
    standings = expect(get(client_for(None), f"/tournaments/{slug}/standings/"), 200)
    rows = standings if isinstance(standings, list) else standings["standings"]
    assert len(rows) == 5  # the dropped pair stays in the standings
    winners = {g["players"][0] for g in round_["games"]}
    assert {row["player"]["id"] if isinstance(row["player"], dict) else row["player"]
            for row in rows[:2]} == winners


def test_a_doubles_event_survives_export_delete_import_export(staff_user):
    slug, staff, partners, _users = doubles(staff_user, "bk", 2, points="per_pair")
    for pid, (first, second) in partners.items():
        expect(submit_list(first, slug, pid, LEGAL_UNITS), 200)
        for units in (LEGAL_UNITS[:2], LEGAL_UNITS):  # two versions of the partner's list
            expect(put(second, f"/tournaments/{slug}/pairs/{pid}/partner-list/", {"units": units}), 200)
    t = Tournament.objects.get(slug=slug)
    before = json.loads(json.dumps(exports.event_data(t)))
    part = before["format_rows"]
    assert part["settings"] == {"points": "per_pair"} and len(part["partners"]) == 2
    assert [len(p["lists"]) for p in part["partners"]] == [2, 2]
    versions = [pk for p in DoublesPartner.objects.filter(player__tournament=t)
                for pk in (p.army_list_id, p.army_list.supersedes_id)]
    DoublesPartner.objects.filter(player__tournament=t).delete()
    ArmyList.objects.filter(pk__in=versions).delete()
    DoublesEvent.objects.filter(tournament=t).delete()
    purge(t)

    restored = restore.restore_event(Actor(staff_user), before)
    assert restored.counts["doubles_partners"] == 2 and restored.counts["partner_list_versions"] == 4
    after = json.loads(json.dumps(exports.event_data(restored.tournament)))
    assert without_time(after) == without_time(before)
    pid = restored.tournament.players.order_by("pk").first().pk
    body = expect(get(staff, f"/tournaments/{slug}/pairs/{pid}/"), 200)
    assert body["points_used"] == 760 and body["partner"] is not None
