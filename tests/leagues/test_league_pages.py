"""The league page (this week, my games, report from the phone, a bye, the weekly table), the
list page per week, and the league's e-mails (a week opens; a game waits for confirmation)."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from leagues.models import Week
from leagues.services.announcements import announce_open_weeks
from tests.leagues.league_fixtures import build_league, ids, played, weeks_around_now
from tests.tournament_fixtures import ROSTER_TEXT, TOURNAMENT, expect, get

pytestmark = pytest.mark.django_db


def page_client(event, player: int) -> Client:
    client = Client()
    client.force_login(event.users[player])
    return client


@pytest.fixture
def league(staff_user):
    return build_league(staff_user, 3, prefix="page", escalation=True, drop_worst_weeks=1,
                        weeks=weeks_around_now(past=1, future=1, limits=[300, 400, 600]))


def test_the_page_shows_the_week_my_counts_and_the_table(league):
    a, b, c = ids(league)
    played(league, a, b, 2, a)
    html = page_client(league, a).get(f"/tournaments/{league.slug}/league/").content.decode()
    assert "Week 2" in html and "400" in html
    assert "Games counted: 1 of 2" in html
    assert "Bye available" not in html  # a game played this week
    assert 'class="dropped"' in html  # the table marks dropped weeks
    html = page_client(league, c).get(f"/tournaments/{league.slug}/league/").content.decode()
    assert "Bye available (1 left)" in html and "Games counted: 0 of 2" in html
    anonymous = Client().get(f"/tournaments/{league.slug}/league/")
    assert anonymous.status_code == 200 and b"Report a game" not in anonymous.content


def test_a_game_is_reported_and_a_bye_declared_from_the_page(league):
    a, b, c = ids(league)
    client = page_client(league, a)
    response = client.post(f"/tournaments/{league.slug}/league/",
                           {"action": "report", "week": 2, "opponent": b, "result": "loss"})
    assert response.status_code == 302
    html = page_client(league, b).get(f"/tournaments/{league.slug}/league/").content.decode()
    assert "Waiting for your confirmation" in html
    client.post(f"/tournaments/{league.slug}/league/",
                {"action": "report", "week": 2, "opponent": b, "result": "win"}, follow=True)
    again = client.get(f"/tournaments/{league.slug}/league/").content.decode()
    assert "already played each other" not in again  # the refusal was shown once, on the redirect
    page_client(league, c).post(f"/tournaments/{league.slug}/league/", {"action": "bye", "week": 2})
    rows = expect(get(league.staff, f"/tournaments/{league.slug}/league-standings/"), 200)
    assert next(r for r in rows if r["player"]["id"] == c)["weeks"][1]["bye"] is True


def test_the_week_list_page_takes_a_pasted_roster_and_says_what_to_keep(league):
    a, _, _ = ids(league)
    client = page_client(league, a)
    client.post(f"/tournaments/{league.slug}/league/weeks/2/list/", {"roster": ROSTER_TEXT})
    html = client.get(f"/tournaments/{league.slug}/league/weeks/2/list/").content.decode()
    assert "This list is legal." in html and "Total: 380 of 400 points." in html
    html = client.get(f"/tournaments/{league.slug}/league/weeks/3/list/").content.decode()
    assert "must keep" in html and "Tactical Squad" in html
    assert client.get(f"/tournaments/{league.slug}/league/weeks/9/list/").status_code == 404


def test_players_are_told_once_when_a_week_opens(league, mailoutbox, django_capture_on_commit_callbacks):
    a, b, c = ids(league)
    get_user_model().objects.filter(pk__in=[league.users[a].pk, league.users[b].pk]).update(
        email="x@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        assert announce_open_weeks() == 1  # week 2 only: week 1 is closed, week 3 not open
    assert len(mailoutbox) == 2
    assert "League page" in mailoutbox[0].subject and " 2 " in mailoutbox[0].subject
    assert "400" in mailoutbox[0].body
    assert f"/tournaments/{league.slug}/league/" in mailoutbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        assert announce_open_weeks() == 0
    assert len(mailoutbox) == 2
    assert Week.objects.filter(announced_at__isnull=False).count() == 1


def test_the_opponent_is_told_a_game_waits_for_confirmation(league, mailoutbox,
                                                           django_capture_on_commit_callbacks):
    a, b, _ = ids(league)
    get_user_model().objects.filter(pk=league.users[b].pk).update(email="b@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        page_client(league, a).post(f"/tournaments/{league.slug}/league/",
                                    {"action": "report", "week": 2, "opponent": b, "result": "win"})
    assert [m.to for m in mailoutbox] == [["b@example.org"]]
    assert "Player 0" in mailoutbox[0].subject
    assert "/games/" in mailoutbox[0].body and "None" not in mailoutbox[0].body
    game = int(mailoutbox[0].body.split("/games/")[1].split("/")[0])
    page = page_client(league, b).get(f"/games/{game}/")
    assert page.status_code == 200 and b"Player 0" in page.content


def test_the_admin_shows_leagues_read_only(league, admin_client):
    from leagues.models import League as LeagueRow

    row = LeagueRow.objects.get(tournament__slug=league.slug)
    page = admin_client.get(f"/admin/leagues/league/{row.pk}/change/")
    assert page.status_code == 200
    for path in ("league", "declaredbye", "weeklist"):
        assert admin_client.get(f"/admin/leagues/{path}/").status_code == 200
    assert admin_client.get("/admin/leagues/league/add/").status_code == 403


def test_the_event_page_links_to_the_league_page(league, staff_client):
    html = Client().get(f"/tournaments/{league.slug}/").content.decode()
    assert f'href="/tournaments/{league.slug}/league/"' in html
    plain = expect(staff_client.post("/api/v1/tournaments/", {**TOURNAMENT, "name": "Plain event"},
                                     format="json"), 201)
    assert 'id="format-page"' not in Client().get(f"/tournaments/{plain['slug']}/").content.decode()
