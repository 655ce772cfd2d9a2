"""The events paths that pair players one by one refuse a team event: the admin's pairing
actions and re-pairing (admin page and API) leave the team round and its games as they were."""
from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from events.models import Game, Round, Tournament
from teams.models import TeamMatch
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair, post

pytestmark = pytest.mark.django_db


def snapshot(slug: str) -> list[tuple]:
    return sorted(Game.objects.filter(round__tournament__slug=slug)
                  .values_list("pk", "round__number", "table", "player_a_id", "player_b_id"))


def test_repairing_a_team_round_is_refused_and_changes_nothing(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="safe", draft="none")
    expect(pair(event.staff, event.slug), 201)
    before = snapshot(event.slug)
    assert len(before) == 3
    body = expect(post(event.staff, f"/tournaments/{event.slug}/rounds/1/repair/", {"confirm": 1}),
                  409, "format_pairs_rounds")
    assert body["detail"].startswith("The rounds of this team event are paired")
    french = expect(post(event.staff, f"/tournaments/{event.slug}/rounds/1/repair/", {"confirm": 1},
                         HTTP_ACCEPT_LANGUAGE="fr"), 409, "format_pairs_rounds")
    assert french["detail"].startswith("Les rondes de ce tournoi par équipes sont appariées")
    assert snapshot(event.slug) == before
    assert Round.objects.get(tournament__slug=event.slug, number=1).status == Round.Status.PUBLISHED
    assert TeamMatch.objects.filter(round__tournament__slug=event.slug).count() == 1


@pytest.mark.parametrize("action", ["pair_draft", "pair_publish"])
def test_the_admins_pairing_actions_refuse_a_team_event(staff_user, client, action):
    event = build(staff_user, teams=2, size=3, prefix=f"adm{action[-3:]}", draft="none")
    staff_user.is_superuser = True
    staff_user.save(update_fields=["is_superuser"])
    client.force_login(staff_user)
    tournament = Tournament.objects.get(slug=event.slug)
    response = client.post(reverse("admin:league_tournament_action", args=[tournament.pk, action]))
    assert response.status_code == 302
    words = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("paired by its format" in w for w in words), words
    assert not Round.objects.filter(tournament=tournament).exists()
    assert snapshot(event.slug) == []


def test_the_admins_repair_page_refuses_a_team_round(staff_user, client):
    event = build(staff_user, teams=2, size=3, prefix="admrep", draft="none")
    expect(pair(event.staff, event.slug), 201)
    before = snapshot(event.slug)
    staff_user.is_superuser = True
    staff_user.save(update_fields=["is_superuser"])
    client.force_login(staff_user)
    tournament = Tournament.objects.get(slug=event.slug)
    response = client.post(reverse("admin:league_tournament_repair", args=[tournament.pk]),
                           {"confirmation": "1"})
    assert response.status_code == 200  # the form again, with the refusal
    assert "paired by its format" in response.content.decode()
    assert snapshot(event.slug) == before
