"""The projector's "find your table" in a round in blocks (team matches, #26): every player of
the round's blocks is listed with their side (team), with their table once the draft fixed
their game, else with their block's place ("match 1, tables 1–3"), or "bye" for a team's bye;
a fixed number of queries whatever the number of matches. An ordinary event's list is
unchanged (tests/venue/test_round_clock.py)."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import Tournament
from teams.models import Team
from tests.teams.team_event import build, draft
from tests.tournament_fixtures import expect, post

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<li class="row"><span class="name">([^<]+)</span>(?:<span class="side">· ([^<]+)'
                 r'</span>)?<span class="num">([^<]+)</span></li>')


def find_rows(client, slug: str) -> list[tuple[str, str, str]]:
    """(name, side, what the row says: a table, a place or "bye") of the find panel's rows."""
    html = client.get(reverse("projector", args=[slug])).content.decode()
    panel = re.search(r'<section class="panel" id="find".*?</section>', html, re.S).group(0)
    rows = ROW.findall(panel)
    assert len(rows) == panel.count('<li class="row">')  # every row read
    return rows


def test_every_player_finds_their_team_and_match_while_the_draft_runs(staff_user, client):
    event = build(staff_user, teams=2, size=3, prefix="fd")
    match = expect(post(event.staff, f"/tournaments/{event.slug}/rounds/", {}), 201)["team_matches"][0]
    first, second = match["teams"]
    names = {t["id"]: t["name"] for t in event.teams}
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    rows = find_rows(client, event.slug)
    assert len(rows) == 6
    assert all(what == "match 1, tables 1–3" for _name, _side, what in rows)
    assert {(name, side) for name, side, _what in rows} == {
        (m["name"], t["name"]) for t in event.teams for m in t["members"]}
    # Half-way through the draft: the games it fixed show their tables, the others still wait.
    expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 1]}), 201)
    for team in (first, second):
        expect(draft(event.staff, match["id"], phase="defender", players=[roster[team][0]], team=team), 201)
    expect(draft(event.staff, match["id"], phase="refusal", players=[roster[second][1]], team=first), 201)
    expect(draft(event.staff, match["id"], phase="refusal", players=[roster[first][1]], team=second), 201)
    expect(draft(event.staff, match["id"], phase="table", table=2, team=first), 201)
    games = list(Tournament.objects.get(slug=event.slug).round_set.get().games
                 .select_related("player_a", "player_b"))
    seated = {p.name: str(g.table) for g in games for p in (g.player_a, g.player_b)}
    assert 0 < len(seated) < 6
    rows = find_rows(client, event.slug)
    assert len(rows) == 6 and len({name for name, _side, _what in rows}) == 6
    for name, side, what in rows:
        assert what == seated.get(name, "match 1, tables 1–3")
        assert side in (names[first], names[second])


def test_a_team_s_bye_in_the_event_language(staff_user, client):
    event = build(staff_user, teams=3, size=3, prefix="fb", draft="none")
    Tournament.objects.filter(slug=event.slug).update(language="fr")
    body = expect(post(event.staff, f"/tournaments/{event.slug}/rounds/", {}), 201)
    bye = next(m["teams"][0] for m in body["team_matches"] if len(m["teams"]) == 1)
    rows = find_rows(client, event.slug)
    assert len(rows) == 9
    byes = [(side, what) for _name, side, what in rows if what == "exemption"]
    assert len(byes) == 3 and {side for side, _what in byes} == {Team.objects.get(pk=bye).name}
    assert sorted(what for _name, _side, what in rows if what != "exemption") == ["1", "1", "2", "2", "3", "3"]


def projector_queries(client, staff_user: Any, teams: int, prefix: str) -> tuple[int, int]:
    event = build(staff_user, teams=teams, size=3, prefix=prefix)
    expect(post(event.staff, f"/tournaments/{event.slug}/rounds/", {}), 201)
    with CaptureQueriesContext(connection) as page:
        assert len(find_rows(client, event.slug)) == teams * 3
    with CaptureQueriesContext(connection) as state:
        assert client.get(reverse("projector_state", args=[event.slug])).status_code == 200
    return len(page), len(state)


def test_the_projector_takes_the_same_queries_for_2_or_6_matches(staff_user, client):
    assert projector_queries(client, staff_user, 4, "q2") == projector_queries(client, staff_user, 12, "q6")
