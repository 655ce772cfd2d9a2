"""Rounds of a team event: what blocks the next round, the result modes as standings count them,
and an undo that would take back a game with a result."""
from __future__ import annotations

import pytest

from tests.teams.team_event import build, draft
from tests.tournament_fixtures import client_for, confirm, expect, get, pair, post, report

pytestmark = pytest.mark.django_db


def settle(event, match: int, vps: list[tuple[int, int]]) -> dict:
    body = expect(get(client_for(None), f"/team-matches/{match}/"), 200)
    for game, (va, vb) in zip(body["games"], vps, strict=True):
        a, b = game["players"]
        expect(report(event.clients[a], game["id"], a if va >= vb else b, {a: va, b: vb}), 200)
        expect(confirm(event.clients[b], game["id"]), 200)
    return expect(get(client_for(None), f"/team-matches/{match}/"), 200)


def test_the_next_round_waits_for_every_match_and_rounds_run_out(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="next", draft="none")
    expect(post(event.staff, f"/tournaments/{event.slug}/teams/", {"name": "Late", "captain": 1, "members": [1]}),
           400)
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    expect(pair(event.staff, event.slug), 409, "round_unconfirmed")
    expect(post(event.staff, f"/tournaments/{event.slug}/teams/", {"name": "Late", "captain": 1, "members": [1]}),
           409, "teams_closed")
    expect(pair(client_for(event.users[event.teams[0]["captain"]]), event.slug), 403, "staff_only")
    settle(event, match, [(10, 0), (0, 10), (5, 5)])
    for _ in range(2):  # three rounds (the default): a rematch when no other pairing exists
        body = expect(pair(event.staff, event.slug), 201)
        settle(event, body["team_matches"][0]["id"], [(10, 0), (0, 10), (5, 5)])
    expect(pair(event.staff, event.slug), 409, "rounds_exhausted")


def test_pairing_a_plain_event_is_unchanged_and_a_team_event_needs_two_teams(staff_user, staff_client):
    event = build(staff_user, teams=1, size=3, prefix="alone")
    expect(pair(event.staff, event.slug), 409, "not_enough_teams")
    expect(get(staff_client, f"/tournaments/{event.slug}/team-standings/"), 200)


@pytest.mark.parametrize(("settings", "vps", "points"), [
    # gt-20 per game: 60-0 → 20-0, 0-20 → 7-13 (a difference of 16–20), 5-5 → 10-10: 37-23.
    ({"result_mode": "sum"}, [(60, 0), (0, 20), (5, 5)], ({"gp": 37, "mp": 2}, {"gp": 23, "mp": 0})),
    ({"result_mode": "cutoff", "win_at": 40, "loss_at": 20}, [(60, 0), (0, 20), (5, 5)],
     ({"gp": 37, "mp": 1}, {"gp": 23, "mp": 1})),
    ({"result_mode": "clamp", "floor": 26, "cap": 34}, [(60, 0), (0, 20), (5, 5)],
     ({"gp": 34, "mp": 2}, {"gp": 26, "mp": 0})),
    ({"game_table": [[0, 9, 1, 1], [10, None, 3, 0]], "match_points": {"win": 3, "draw": 1, "loss": 0}},
     [(60, 0), (0, 20), (5, 5)], ({"gp": 4, "mp": 1}, {"gp": 4, "mp": 1})),
])
def test_result_modes_as_the_standings_count_them(staff_user, settings, vps, points):
    event = build(staff_user, teams=2, size=3, prefix="mode", draft="none", **settings)
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    body = settle(event, match, vps)
    first, second = (str(t) for t in body["teams"])
    assert body["game_points"] == {first: points[0]["gp"], second: points[1]["gp"]}
    assert body["match_points"] == {first: points[0]["mp"], second: points[1]["mp"]}
    lines = {line["team"]["id"]: line for line in
             expect(get(client_for(None), f"/tournaments/{event.slug}/team-standings/"), 200)}
    assert [(lines[int(t)]["match_points"], lines[int(t)]["game_points"]) for t in (first, second)] == [
        (points[0]["mp"], points[0]["gp"]), (points[1]["mp"], points[1]["gp"])]


def test_an_undo_never_takes_back_a_game_with_a_result(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="kept")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    first, second = match["teams"]
    expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 1]}), 201)
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    for team in (first, second):
        expect(draft(event.staff, match["id"], phase="defender", players=[roster[team][0]], team=team), 201)
    expect(draft(event.staff, match["id"], phase="refusal", players=[roster[second][1]], team=first), 201)
    expect(draft(event.staff, match["id"], phase="refusal", players=[roster[first][1]], team=second), 201)
    expect(draft(event.staff, match["id"], phase="table", table=1, team=first), 201)
    expect(draft(event.staff, match["id"], phase="table", table=2, team=second), 201)
    game = expect(get(client_for(None), f"/team-matches/{match['id']}/"), 200)["games"][0]
    a, b = game["players"]
    expect(report(event.clients[a], game["id"], a, {a: 10, b: 0}), 200)
    expect(post(event.staff, f"/team-matches/{match['id']}/draft/undo/"), 409, "draft_game_reported")
    assert len(expect(get(client_for(None), f"/team-matches/{match['id']}/"), 200)["games"]) == 3


def test_a_team_event_can_be_deleted_whole(staff_user):
    from events.models import Tournament
    from teams.models import DraftMove, Team, TeamMatch

    event = build(staff_user, teams=3, size=3, prefix="gone")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    expect(post(event.staff, f"/team-matches/{match}/draft/roll/", {"dice": [6, 1]}), 201)
    Tournament.objects.get(slug=event.slug).delete()
    assert not (Team.objects.exists() or TeamMatch.objects.exists() or DraftMove.objects.exists())


def test_csv_exports_of_standings_and_games(staff_user):
    event = build(staff_user, teams=3, size=3, prefix="csv", draft="none")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    settle(event, match, [(60, 0), (0, 20), (5, 5)])
    anonymous = client_for(None)
    standings = anonymous.get(f"/api/v1/tournaments/{event.slug}/team-standings.csv")
    assert standings.status_code == 200 and standings["Content-Type"].startswith("text/csv")
    lines = standings.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "rank,team,match_points,game_points,played,byes"
    assert [line.split(",")[2:4] for line in lines[1:]] == [["2", "37"], ["2", "30"], ["0", "23"]]
    games = anonymous.get(f"/api/v1/tournaments/{event.slug}/team-games.csv").content.decode("utf-8-sig")
    rows = games.splitlines()
    assert len(rows) == 1 + 3 + 1 and rows[-1].split(",")[5] == "bye"
    assert [row.split(",")[-2:] for row in rows[1:4]] == [["20", "0"], ["7", "13"], ["10", "10"]]
