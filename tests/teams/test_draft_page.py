"""The captain's phone page: it polls the draft's JSON every 2 s and embeds only what its reader
may see (the API's hidden-information rules)."""
from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.teams.team_event import build, draft
from tests.tournament_fixtures import expect, pair, post

pytestmark = pytest.mark.django_db


def page_data(client: Client, match: int) -> tuple[str, dict]:
    response = client.get(f"/team-matches/{match}/draft/")
    assert response.status_code == 200
    html = response.content.decode()
    data = json.loads(re.search(r'<script id="draft-data" type="application/json">(.*?)</script>', html, re.S)
                      .group(1))
    return html, data


def test_each_reader_sees_what_the_api_shows_them(staff_user):
    event = build(staff_user, teams=2, size=5, prefix="page")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    first, second = match["teams"]
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    expect(post(event.captain(first), f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 2]}), 201)
    secret = roster[first][3]
    expect(draft(event.captain(first), match["id"], phase="defender", players=[secret]), 201)
    captains = {t["id"]: t["captain"] for t in event.teams}
    readers = {"first": (event.users[captains[first]], True), "second": (event.users[captains[second]], False),
               "anonymous": (None, False), "staff": (staff_user, True)}
    for label, (user, sees) in readers.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        html, data = page_data(client, match["id"])
        assert data["poll"] == 2000 and 'name="viewport"' in html
        (commit,) = data["state"]["commits"]
        assert ("players" in commit) is sees, label
        assert data["own"] == {"first": first, "second": second}.get(label), label
        assert ('id="act"' in html) is (label in ("first", "second")), label


def test_an_unknown_match_is_a_404(client):
    assert client.get("/team-matches/999999/draft/").status_code == 404


def test_the_event_page_lists_standings_and_matches_with_their_drafts(staff_user, client):
    event = build(staff_user, teams=3, size=3, prefix="evp")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    html = client.get(f"/tournaments/{event.slug}/team-event/").content.decode()
    assert f'href="/team-matches/{match["id"]}/draft/"' in html
    assert html.count("<tr>") == 4 and "bye" in html and "(tables 1–3)" in html
    assert client.get("/tournaments/no-such-event/team-event/").status_code == 404


@pytest.mark.parametrize("size", [3, 8])
def test_the_page_names_every_member_in_three_queries_at_any_size(staff_user, size):
    event = build(staff_user, teams=2, size=size, prefix=f"pq{size}")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    with CaptureQueriesContext(connection) as captured:
        _html, data = page_data(Client(), match["id"])
    # The draft (match under no lock, then rosters and moves in one statement) and the names.
    assert len(captured.captured_queries) == 3
    names = {str(m["id"]): m["name"] for t in event.teams for m in t["members"]}
    assert data["names"] == names and len(names) == 2 * size
    assert data["teams"] == {str(t["id"]): t["name"] for t in event.teams}
