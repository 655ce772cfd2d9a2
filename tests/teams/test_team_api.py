"""Team events through the API (api-v1-seasons-teams.md §3): settings, teams, rounds of team
matches, the WTC draft with its refusals and hidden commits, game points and standings."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import AuditEntry, Game
from teams.models import DraftMove, Team, TeamEvent, TeamMatch
from tests.teams.team_event import build, draft, seen
from tests.tournament_fixtures import (
    TOURNAMENT,
    client_for,
    confirm,
    expect,
    get,
    make_user,
    pair,
    post,
    report,
)

pytestmark = pytest.mark.django_db


def test_a_team_event_keeps_its_settings_with_defaults(staff_client):
    body = expect(post(staff_client, "/tournaments/", {**TOURNAMENT, "name": "ETC", "format": "team",
                                                       "team": {"size": 8, "result_mode": "cutoff",
                                                                "win_at": 85, "loss_at": 75}}), 201)
    team = body["team"]
    assert (team["size"], team["draft"], team["game_preset"], team["result_mode"]) == (8, "wtc", "gt-20", "cutoff")
    assert team["match_points"] == {"win": 2, "draw": 1, "loss": 0}
    assert team["bye"] == {"match_points": 2, "game_points_per_game": 10}
    assert (team["step_seconds"], team["draft_seconds"], team["auto_pick"]) == (180, 1800, False)
    assert expect(get(staff_client, f"/tournaments/{body['slug']}/"), 200)["team"] == team


@pytest.mark.parametrize("team", [
    {"size": 9}, {"size": 2}, {"draft": "itc"}, {"result_mode": "cutoff"},
    {"result_mode": "clamp"}, {"game_preset": "gt-20", "game_table": [[0, None, 10, 10]]},
    {"game_table": [[1, None, 10, 10]]}, {"game_table": [[0, 5, 10]]},
])
def test_bad_team_settings_are_refused_and_nothing_stored(staff_client, team):
    response = post(staff_client, "/tournaments/", {**TOURNAMENT, "name": "Refused", "format": "team", "team": team})
    assert response.status_code == 400, response.content
    assert not TeamEvent.objects.exists()


def test_team_registration_and_its_refusals(staff_user):
    event = build(staff_user, teams=1, size=3, prefix="reg")
    team = event.teams[0]
    assert [m["id"] for m in team["members"]][0] == team["captain"]
    listed = expect(get(client_for(None), f"/tournaments/{event.slug}/teams/"), 200)
    assert [t["name"] for t in listed] == ["Team 0"] and len(listed[0]["members"]) == 3
    staff = event.staff
    players = [expect(post(staff, f"/tournaments/{event.slug}/players/", {"name": f"Extra {i}"}), 201)["id"]
               for i in range(3)]
    taken = team["members"][0]["id"]
    path = f"/tournaments/{event.slug}/teams/"
    for body, code in [
        ({"name": "Two", "captain": players[0], "members": players[:2]}, "team_size"),
        ({"name": "Two", "captain": players[0], "members": [*players[:2], taken]}, "team_member_taken"),
        ({"name": "Two", "captain": taken, "members": players}, "team_captain_not_member"),
        ({"name": "Two", "captain": players[0], "members": [*players[:2], 999_999]}, "team_player_unknown"),
        ({"name": "Two", "captain": players[0], "members": [players[0], players[0], players[1]]},
         "team_member_twice"),
    ]:
        expect(post(staff, path, body), 400, code)
    # A player registers a team only as its captain.
    member = event.clients[team["members"][1]["id"]]
    expect(post(member, path, {"name": "Two", "captain": players[0], "members": players}), 403, "team_captain_self")
    expect(post(client_for(None), path, {"name": "Two", "captain": players[0], "members": players}), 401)
    assert Team.objects.count() == 1
    expect(post(staff, path, {"name": "Two", "captain": players[0], "members": players}), 201)


def test_a_french_reader_gets_a_french_sentence(staff_user):
    event = build(staff_user, teams=1, size=3, prefix="fr")
    body = expect(post(event.staff, f"/tournaments/{event.slug}/teams/",
                       {"name": "X", "captain": 1, "members": [1]}, HTTP_ACCEPT_LANGUAGE="fr"), 400, "team_size")
    assert "membres" in body["detail"]


def test_without_a_draft_the_games_are_made_at_once_member_against_member(staff_user):
    event = build(staff_user, teams=3, size=3, prefix="nod", draft="none")
    paired = expect(pair(event.staff, event.slug), 201)
    assert paired["number"] == 1
    matches = paired["team_matches"]
    assert [m["tables"] for m in matches] == [[1, 2, 3], []]
    assert len(matches[0]["teams"]) == 2 and len(matches[1]["teams"]) == 1  # the bye
    body = expect(get(client_for(None), f"/team-matches/{matches[0]['id']}/"), 200)
    teams = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    first, second = (teams[t] for t in body["teams"])
    assert [(g["table"], g["players"], g["role"]) for g in body["games"]] == [
        (1 + i, [first[i], second[i]], None) for i in range(3)]
    assert body["status"] == "playing"
    # Game points from the confirmed games' victory-point difference (gt-20): 20-0, 11-9, 10-10.
    for game, vp in zip(body["games"], [(60, 0), (14, 6), (3, 0)], strict=True):
        a, b = game["players"]
        expect(report(event.clients[a], game["id"], a, {a: vp[0], b: vp[1]}), 200)
        expect(confirm(event.clients[b], game["id"]), 200)
    body = expect(get(client_for(None), f"/team-matches/{matches[0]['id']}/"), 200)
    winner, loser = (str(t) for t in body["teams"])
    assert body["status"] == "complete"
    assert body["game_points"] == {winner: 41, loser: 19} and body["match_points"] == {winner: 2, loser: 0}
    standings = expect(get(client_for(None), f"/tournaments/{event.slug}/team-standings/"), 200)
    bye = matches[1]["teams"][0]
    assert [(r["rank"], r["team"]["id"], r["match_points"], r["game_points"], r["played"], r["byes"])
            for r in standings] == [(1, int(winner), 2, 41, 1, 0), (2, bye, 2, 30, 0, 1),
                                    (3, int(loser), 0, 19, 1, 0)]
    # Round 2: no rematch; the bye goes to the lowest-ranked team without one.
    second_round = expect(pair(event.staff, event.slug), 201)["team_matches"]
    assert sorted(second_round[0]["teams"]) == sorted([int(winner), bye]) or \
        sorted(second_round[0]["teams"]) == sorted([bye, int(loser)])
    assert second_round[1]["teams"] == [int(loser)] or second_round[1]["teams"] == [int(winner)]
    assert second_round[1]["teams"] != [bye]


def full_draft_ready(staff_user, prefix: str):
    event = build(staff_user, teams=2, size=3, prefix=prefix)
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    return event, match["id"], match["teams"]


def test_a_whole_draft_of_three_through_the_api(staff_user):
    event, match, (first, second) = full_draft_ready(staff_user, "wtc")
    a, b = event.captain(first), event.captain(second)
    expect(draft(a, match, phase="defender", players=[1]), 409, "draft_wrong_phase")  # roll first
    rolled = expect(post(a, f"/team-matches/{match}/draft/roll/", {"dice": [5, 2]}), 201)
    assert rolled == {"rolls": [[5, 2]], "winner": first}
    expect(post(b, f"/team-matches/{match}/draft/roll/", {}), 409, "draft_wrong_phase")
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    ra, rb = roster[first], roster[second]
    expect(draft(a, match, phase="defender", players=[rb[0]]), 400, "draft_player_unavailable")
    expect(draft(a, match, phase="defender", players=[ra[0]]), 201)
    expect(draft(a, match, phase="defender", players=[ra[1]]), 409, "draft_already_committed")
    state = expect(draft(b, match, phase="defender", players=[rb[0]]), 201)
    # Two players left besides the defender: the server commits them, on to the refusals.
    assert (state["phase"], state["token"], state["tokens"]) == ("refusal", first, [first])
    assert [c.get("auto") for c in state["commits"] if c["phase"] == "attackers"] == [True, True]
    expect(draft(a, match, phase="refusal", players=[ra[1]]), 400, "draft_player_unavailable")
    expect(draft(a, match, phase="refusal", players=[rb[1]]), 201)
    state = expect(draft(b, match, phase="refusal", players=[ra[2]]), 201)
    assert (state["phase"], state["waiting_for"]) == ("table", [first])
    expect(draft(b, match, phase="table", table=1), 409, "draft_not_your_turn")
    expect(draft(a, match, phase="table", table=4), 400, "draft_table_unavailable")
    expect(draft(a, match, phase="table", table=2), 201)
    state = expect(draft(b, match, phase="table", table=3), 201)
    assert (state["phase"], state["waiting_for"]) == ("done", [])
    body = expect(get(client_for(None), f"/team-matches/{match}/"), 200)
    assert [(g["table"], g["players"], g["role"]) for g in body["games"]] == [
        (1, [ra[2], rb[1]], "refused"), (2, [ra[0], rb[2]], "defender"), (3, [ra[1], rb[0]], "defender")]
    assert Game.objects.filter(round__tournament__slug=event.slug).count() == 3
    expect(draft(a, match, phase="table", table=1), 409, "draft_wrong_phase")


def test_sealed_commits_are_hidden_from_the_other_team_and_anonymous(staff_user):
    event, match, (first, second) = full_draft_ready(staff_user, "seal")
    a, b = event.captain(first), event.captain(second)
    expect(post(b, f"/team-matches/{match}/draft/roll/", {"dice": [1, 6]}), 201)
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    expect(draft(a, match, phase="defender", players=[roster[first][2]]), 201)
    teammate = event.clients[roster[first][1]]
    for reader, sees in [(a, True), (teammate, True), (event.staff, True), (b, False),
                         (event.clients[roster[second][1]], False), (client_for(None), False)]:
        state = seen(reader, match)
        assert state["waiting_for"] == [second] and state["token"] == second
        (commit,) = state["commits"]
        assert "revealed_at" not in commit
        assert ("players" in commit) is sees, (commit, sees)
        assert commit["team"] == first and commit["phase"] == "defender"
        assert str(roster[first][2]) not in str({k: v for k, v in commit.items() if k != "team"}) or sees
    expect(draft(b, match, phase="defender", players=[roster[second][0]]), 201)
    for reader in (a, b, client_for(None)):
        commits = [c for c in seen(reader, match)["commits"] if c["phase"] == "defender"]
        assert {c["revealed_at"] for c in commits} != {None} and len({c["revealed_at"] for c in commits}) == 1
        assert [c["players"] for c in commits] == [[roster[first][2]], [roster[second][0]]]


def test_only_captains_commit_and_staff_name_the_team(staff_user):
    event, match, (first, second) = full_draft_ready(staff_user, "who")
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    member = event.clients[roster[first][1]]
    expect(post(member, f"/team-matches/{match}/draft/roll/", {}), 403, "not_captain")
    expect(post(event.staff, f"/team-matches/{match}/draft/roll/", {"dice": [3, 3]}), 201)
    expect(draft(member, match, phase="defender", players=[roster[first][1]]), 403, "not_captain")
    expect(draft(event.staff, match, phase="defender", players=[roster[first][1]]), 400, "team_required")
    expect(draft(event.staff, match, phase="defender", players=[roster[first][1]], team=first), 201)
    expect(draft(client_for(make_user("stranger")), match, phase="defender", players=[1]), 403, "not_captain")


def test_staff_undo_the_last_phase_and_it_is_audited(staff_user):
    event, match, (first, second) = full_draft_ready(staff_user, "undo")
    a, b = event.captain(first), event.captain(second)
    roster = {t["id"]: [m["id"] for m in t["members"]] for t in event.teams}
    expect(post(a, f"/team-matches/{match}/draft/roll/", {"dice": [6, 1]}), 201)
    expect(draft(a, match, phase="defender", players=[roster[first][0]]), 201)
    expect(draft(b, match, phase="defender", players=[roster[second][0]]), 201)
    expect(post(a, f"/team-matches/{match}/draft/undo/"), 403, "staff_only")
    state = expect(post(event.staff, f"/team-matches/{match}/draft/undo/"), 200)
    assert state["phase"] == "defender" and state["commits"] == []  # the forced attackers went too
    assert DraftMove.objects.filter(match_id=match).count() == 1
    assert AuditEntry.objects.filter(action="draft_undone").count() == 1
    expect(draft(a, match, phase="defender", players=[roster[first][1]]), 201)


def test_overdue_and_auto_pick(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="late", auto_pick=True, step_seconds=10)
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    TeamMatch.objects.filter(pk=match).update(created_at=timezone.now() - timedelta(seconds=11))
    state = seen(event.staff, match)  # the roll was late: the server rolled
    assert state["roll"]["winner"] in state["tokens"] and state["phase"] == "defender"
    assert not state["overdue"]
    DraftMove.objects.filter(match_id=match).update(created_at=timezone.now() - timedelta(seconds=11))
    state = seen(client_for(None), match)
    assert state["phase"] == "refusal"
    assert all("players" in c for c in state["commits"])
    assert AuditEntry.objects.filter(action="draft_auto_pick").count() == 3  # the roll, two defenders
