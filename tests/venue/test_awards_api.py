"""Awards and penalties through the API (staff): list and define components, set a player's value
(a penalty with its reason), each through venue.services.awards, audited, and read back in the
standings; players and visitors are refused; the schema documents the three operations."""
from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.audit import Actor
from events.models import AuditEntry
from tests.tournament_fixtures import client_for, expect, get, post, put
from tests.venue.test_awards import played_event
from venue.award_models import ScoreComponent, ScoreEntry
from venue.services import awards

pytestmark = pytest.mark.django_db
Kind = ScoreComponent.Kind


def path(slug: str, rest: str = "") -> str:
    return f"/tournaments/{slug}/awards/{rest}"


def test_staff_define_a_component_and_list_them_with_entries_and_votes(admin_actor):
    event, players = played_event(admin_actor)
    api = client_for(admin_actor.user)
    made = expect(post(api, path(event.slug), {"name": "Painting", "weight": 3}), 201)
    assert made == {"id": made["id"], "name": "Painting", "kind": "award", "weight": 3,
                    "players_vote": False, "counts": True, "entries": [], "votes": {}}
    component = ScoreComponent.objects.get(pk=made["id"], tournament=event)
    entry = AuditEntry.objects.get(action="score_component_defined")
    assert entry.actor == admin_actor.user and entry.data["component"] == component.pk
    fair = awards.define_component(admin_actor, event, name="Sportsmanship", players_vote=True)
    awards.set_entry(admin_actor, component, players[2], 4)
    awards.cast_vote(Actor(user=players[0].user), fair, players[1])
    awards.cast_vote(Actor(user=players[3].user), fair, players[1])
    listed = expect(get(api, path(event.slug)), 200)
    assert [c["name"] for c in listed] == ["Painting", "Sportsmanship"]
    assert listed[0]["entries"] == [{"player": players[2].pk, "value": 4, "reason": "",
                                     "entered_by": admin_actor.user.username,
                                     "entered_at": listed[0]["entries"][0]["entered_at"]}]
    assert listed[1]["votes"] == {str(players[1].pk): 2} and listed[1]["players_vote"]


def test_a_penalty_needs_a_reason_and_the_change_is_audited(admin_actor):
    event, players = played_event(admin_actor)
    api = client_for(admin_actor.user)
    late = expect(post(api, path(event.slug), {"name": "Late list", "kind": "penalty",
                                               "weight": 5}), 201)
    score = path(event.slug, f"{late['id']}/scores/{players[0].pk}/")
    expect(put(api, score, {"value": 1}), 400, "penalty_reason_required")
    assert not ScoreEntry.objects.exists()
    answer = expect(put(api, score, {"value": 1, "reason": "list sent on the morning"}), 200)
    assert (answer["player"], answer["value"], answer["reason"]) == (
        players[0].pk, 1, "list sent on the morning")
    entry = AuditEntry.objects.get(action="score_entry_set")
    assert entry.data["before"] is None and entry.data["after"] == {
        "value": 1, "reason": "list sent on the morning"}
    rows = {r["player"]["id"]: r for r in expect(get(api, f"/tournaments/{event.slug}/standings/"),
                                                 200)}
    assert rows[players[0].pk]["extras"]["points"] == -5
    cleared = expect(put(api, score, {"value": None}), 200)
    assert cleared["value"] is None and not ScoreEntry.objects.exists()
    assert AuditEntry.objects.filter(action="score_entry_set").count() == 2


@pytest.mark.parametrize(("body", "code"), [
    ({"name": "", "weight": 1}, None),
    ({"name": "x" * 81}, "component_name"),
    ({"name": "Painting", "kind": "bonus"}, "component_kind"),
    ({"name": "Painting", "weight": 0}, "component_weight"),
    ({"name": "Painting", "weight": "many"}, None),
])
def test_bad_components_are_400(admin_actor, body, code):
    event, _players = played_event(admin_actor)
    answer = post(client_for(admin_actor.user), path(event.slug), body)
    assert answer.status_code == 400
    if code is not None:
        expect(answer, 400, code)
    assert not ScoreComponent.objects.exists()


def test_a_name_taken_is_409_and_unknown_rows_are_404(admin_actor):
    event, players = played_event(admin_actor)
    api = client_for(admin_actor.user)
    made = expect(post(api, path(event.slug), {"name": "Painting"}), 201)
    expect(post(api, path(event.slug), {"name": "Painting"}), 409, "component_name_taken")
    expect(put(api, path(event.slug, f"{made['id'] + 99}/scores/{players[0].pk}/"),
               {"value": 1}), 404, "component_not_found")
    expect(put(api, path(event.slug, f"{made['id']}/scores/999999/"), {"value": 1}), 404,
           "player_not_found")
    expect(put(api, path(event.slug, f"{made['id']}/scores/{players[0].pk}/"), {"value": -1}),
           400, "entry_value")
    expect(get(api, path("no-such-event")), 404, "tournament_not_found")


def test_players_and_visitors_are_refused(admin_actor):
    event, players = played_event(admin_actor)
    component = awards.define_component(admin_actor, event, name="Painting")
    player = client_for(players[0].user)
    score = path(event.slug, f"{component.pk}/scores/{players[0].pk}/")
    expect(get(player, path(event.slug)), 403, "staff_only")
    expect(post(player, path(event.slug), {"name": "Mine"}), 403, "staff_only")
    expect(put(player, score, {"value": 10}), 403, "staff_only")
    assert get(client_for(None), path(event.slug)).status_code == 401
    assert not ScoreEntry.objects.exists() and ScoreComponent.objects.count() == 1


def test_listing_takes_the_same_queries_whatever_the_size(admin_actor):
    event, players = played_event(admin_actor)
    api = client_for(admin_actor.user)
    counts = []
    for n in range(5):
        component = awards.define_component(admin_actor, event, name=f"C{n}", players_vote=True)
        for player in players[: n + 1]:
            awards.set_entry(admin_actor, component, player, n + 1)
        if n in (0, 4):
            with CaptureQueriesContext(connection) as queries:
                assert len(expect(get(api, path(event.slug)), 200)) == n + 1
            counts.append(len(queries))
    assert counts[0] == counts[1] <= 6


def test_the_schema_documents_the_awards_operations(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]
    awards_path = paths["/api/v1/tournaments/{slug}/awards/"]
    assert set(awards_path) >= {"get", "post"}
    assert "201" in awards_path["post"]["responses"]
    score = paths["/api/v1/tournaments/{slug}/awards/{id}/scores/{player_id}/"]
    assert set(score["put"]["responses"]) >= {"200", "400", "404"}
