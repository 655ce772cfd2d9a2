"""A team event in event backups (export → delete → import → export gives the same document,
the draft's sealed commits included), a team match as JSON (sealed commits only to their team
and staff) and the event page's link to the team page."""
from __future__ import annotations

import json
from typing import Any

import pytest

from events.audit import Actor
from events.errors import Invalid
from events.models import Tournament
from events.services import exports, restore
from teams.models import DraftMove, MatchGame, Team, TeamEvent, TeamMatch, TeamMember
from tests.events.test_backup import purge, without_time
from tests.teams.team_event import build, draft, seen
from tests.teams.test_team_draft_sizes import choice
from tests.tournament_fixtures import client_for, confirm, expect, get, pair, post, report

pytestmark = pytest.mark.django_db


def drafted_event(staff_user: Any, prefix: str) -> tuple[Any, list[dict]]:
    """Four teams of three: match 1's draft done and one game confirmed; match 2 holds one
    sealed defender commit."""
    event = build(staff_user, teams=4, size=3, prefix=prefix)
    matches = expect(pair(event.staff, event.slug), 201)["team_matches"]
    first, second = matches[0]["id"], matches[1]["id"]
    for match in (first, second):
        expect(post(event.staff, f"/team-matches/{match}/draft/roll/", {"dice": [2, 5]}), 201)
    state = seen(event.staff, first)
    while state["phase"] != "done":
        state = expect(draft(event.staff, first, **choice(state, state["waiting_for"][0])), 201)
    game = expect(get(event.staff, f"/team-matches/{first}/"), 200)["games"][0]
    a, b = game["players"]
    expect(report(event.clients[a], game["id"], a, {a: 12, b: 3}), 200)
    expect(confirm(event.clients[b], game["id"]), 200)
    sealed_team = matches[1]["teams"][0]
    state = seen(event.staff, second)
    expect(draft(event.captain(sealed_team), second, phase="defender",
                 players=[state["pools"][str(sealed_team)][0]]), 201)
    return event, matches


def purge_teams(t: Tournament) -> None:
    DraftMove.objects.filter(match__round__tournament=t).delete()
    MatchGame.objects.filter(match__round__tournament=t).delete()
    TeamMatch.objects.filter(round__tournament=t).delete()
    TeamMember.objects.filter(team__tournament=t).delete()
    Team.objects.filter(tournament=t).delete()
    TeamEvent.objects.filter(tournament=t).delete()
    purge(t)


def test_a_team_event_survives_export_delete_import_export(staff_user):
    event, matches = drafted_event(staff_user, "bk")
    t = Tournament.objects.get(slug=event.slug)
    before = json.loads(json.dumps(exports.event_data(t)))
    part = before["format_rows"]
    assert part["settings"]["size"] == 3 and len(part["teams"]) == 4 and len(part["matches"]) == 2
    # Players named by the document's refs, never by database id.
    refs = {p["ref"] for p in before["players"]}
    assert all(m["player"] in refs for team in part["teams"] for m in team["members"])
    moves = part["matches"][0]["moves"] + part["matches"][1]["moves"]
    assert all(p in refs for move in moves for p in move["players"])
    assert part["matches"][1]["moves"][-1]["phase"] == "defender"  # the sealed commit is kept

    purge_teams(t)
    restored = restore.restore_event(Actor(staff_user), before)
    assert restored.counts["teams"] == 4 and restored.counts["team_matches"] == 2
    assert restored.counts["draft_moves"] == len(moves)
    after = json.loads(json.dumps(exports.event_data(restored.tournament)))
    assert without_time(after) == without_time(before)

    # The restored draft plays on: the other team's defender, then the reveal.
    match = TeamMatch.objects.get(round__tournament=restored.tournament, number=2)
    state = seen(event.staff, match.pk)
    assert state["phase"] == "defender" and len(state["waiting_for"]) == 1
    other = state["waiting_for"][0]
    state = expect(draft(event.staff, match.pk, **choice(state, other)), 201)
    assert state["phase"] == "refusal"  # size 3: the attackers are forced (server moves)
    assert all("revealed_at" in c for c in state["commits"] if c["phase"] == "defender")


def test_a_damaged_team_part_imports_nothing(staff_user):
    event, _matches = drafted_event(staff_user, "dmg")
    t = Tournament.objects.get(slug=event.slug)
    document = json.loads(json.dumps(exports.event_data(t)))
    document["format_rows"]["matches"][0]["moves"][3]["phase"] = "table"  # does not replay
    with pytest.raises(Invalid) as refused:
        restore.restore_event(Actor(staff_user), document, slug="damaged-copy")
    assert refused.value.code == "backup_damaged"
    assert not Tournament.objects.filter(slug="damaged-copy").exists()
    document = json.loads(json.dumps(exports.event_data(t)))
    del document["format_rows"]["settings"]
    with pytest.raises(Invalid):
        restore.restore_event(Actor(staff_user), document, slug="damaged-copy")
    assert not Tournament.objects.filter(slug="damaged-copy").exists()


def test_a_team_match_as_json_shows_sealed_commits_only_to_their_team_and_staff(staff_user):
    event, matches = drafted_event(staff_user, "js")
    match, (sealed, other) = matches[1]["id"], matches[1]["teams"]
    path = f"/team-matches/{match}/export/"

    def defender(client) -> dict:
        body = expect(get(client, path), 200)
        assert body["format"] == "muster-team-match"
        assert [t["id"] for t in body["teams"]] == [sealed, other]
        assert [len(t["players"]) for t in body["teams"]] == [3, 3]
        return next(c for c in body["draft"]["commits"] if c["phase"] == "defender")

    assert "players" in defender(event.staff)
    assert "players" in defender(event.captain(sealed))
    assert "players" not in defender(event.captain(other))
    assert "players" not in defender(client_for(None))
    # Lists are not published: another team's reader sees none.
    body = expect(get(event.captain(other), path), 200)
    assert all(p["list"] is None for t in body["teams"] for p in t["players"])
    done = expect(get(client_for(None), f"/team-matches/{matches[0]['id']}/export/"), 200)
    assert len(done["match"]["games"]) == 3 and done["draft"]["phase"] == "done"


def test_the_event_page_links_the_team_page(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="link")
    page = client_for(None).get(f"/tournaments/{event.slug}/")
    assert page.status_code == 200
    assert f'href="/tournaments/{event.slug}/team-event/"' in page.content.decode()
