"""The organiser's draft monitor: every match's phase, clock and overdue flag, staff only, never
a sealed commit's players."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from teams.models import TeamMatch
from tests.teams.team_event import build, draft, seen
from tests.tournament_fixtures import client_for, expect, get, pair, post

pytestmark = pytest.mark.django_db


def test_the_monitor_shows_each_match_phase_clock_and_overdue(staff_user, client):
    event = build(staff_user, teams=5, size=3, prefix="mon", step_seconds=60)
    path = f"/tournaments/{event.slug}/draft-monitor/"
    assert expect(get(event.staff, path), 200)["round"] is None
    matches = expect(pair(event.staff, event.slug), 201)["team_matches"]
    first, second, bye = (m["id"] for m in matches)
    expect(post(event.staff, f"/team-matches/{first}/draft/roll/", {"dice": [2, 5]}), 201)
    sealed_team = matches[0]["teams"][0]
    pool = seen(event.staff, first)["pools"][str(sealed_team)]
    expect(draft(event.captain(sealed_team), first, phase="defender", players=[pool[0]]), 201)
    # Match 2 was paired long ago: its roll-off is overdue.
    TeamMatch.objects.filter(pk=second).update(created_at=timezone.now() - timedelta(minutes=5))

    body = expect(get(event.staff, path), 200)
    assert body["round"] == 1
    rows = {row["id"]: row for row in body["matches"]}
    assert rows[first]["phase"] == "defender" and rows[first]["step"] == 1
    assert rows[first]["waiting_for"] == [matches[0]["teams"][1]] and not rows[first]["overdue"]
    assert 0 < rows[first]["seconds_left"] <= 60
    assert rows[second]["phase"] == "roll" and rows[second]["overdue"]
    assert rows[second]["seconds_left"] < 0
    assert rows[bye]["phase"] == "bye" and rows[bye]["deadline"] is None
    # Where each draft stands, never what a team committed: no field could carry a player
    # (a player's id may equal a match number or a step, so the values cannot be searched).
    assert all(set(row) == {"id", "number", "tables", "teams", "phase", "step", "deadline", "seconds_left",
                            "overdue", "waiting_for"} for row in body["matches"])
    assert all(set(team) == {"id", "name"} for row in body["matches"] for team in row["teams"])
    expect(get(event.staff, path, QUERY_STRING="round=2"), 404, "round_not_found")
    expect(get(event.staff, path, QUERY_STRING="round=x"), 400)

    # Captains and strangers do not see it.
    expect(get(event.captain(sealed_team), path), 403, "staff_only")
    expect(get(client_for(None), path), 401)

    page_path = f"/tournaments/{event.slug}/team-event/monitor/"
    client.force_login(event.users[matches[0]["teams"][0] and event.teams[0]["captain"]])
    assert client.get(page_path).status_code == 404
    client.force_login(staff_user)
    page = client.get(page_path)
    assert page.status_code == 200 and page["Refresh"] == "5"
    html = page.content.decode()
    assert html.count('class="overdue"') == 1 and f'data-match="{second}"' in html
    assert 'data-phase="defender"' in html


def monitor_queries(staff_user, teams: int, prefix: str) -> int:
    event = build(staff_user, teams=teams, size=3, prefix=prefix)
    for match in expect(pair(event.staff, event.slug), 201)["team_matches"]:
        if match["teams"][1:]:
            expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [2, 5]}), 201)
    with CaptureQueriesContext(connection) as queries:
        expect(get(event.staff, f"/tournaments/{event.slug}/draft-monitor/"), 200)
    return len(queries.captured_queries)


def test_the_monitor_reads_a_round_in_queries_that_do_not_grow_with_its_matches(staff_user):
    # Rosters and moves of the whole round come in one query each, not one per match.
    assert monitor_queries(staff_user, 4, "few") == monitor_queries(staff_user, 12, "many")
