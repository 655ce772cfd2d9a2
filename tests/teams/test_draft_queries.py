"""A draft commit is the hot path of a team round (every captain at once, api-v1-seasons-teams.md
§3; benchmarks/teams.py): its queries are counted here, so a query per member, per move or per
match cannot creep back. Reading the draft (each captain's phone polls it) likewise."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import event_cache
from events.models import Tournament
from teams.models import DraftMove, TeamMatch, TeamMember
from teams.services import draft_reads
from tests.teams.team_event import build, draft, seen
from tests.tournament_fixtures import expect, get, pair, post

pytestmark = pytest.mark.django_db


def commit_queries() -> int:
    """The match with its round and event under the row lock; its teams, rosters and moves; the
    move stored with its audit entry, in one statement on PostgreSQL (two elsewhere).
    (force_authenticate: no token lookup here.)"""
    return 3 if connection.vendor == "postgresql" else 4


def queries_of(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


@pytest.mark.parametrize("size", [4, 8])
def test_a_sealed_commit_and_a_read_cost_the_same_few_queries_at_any_size(staff_user, size):
    event = build(staff_user, teams=2, size=size, prefix=f"q{size}")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    first, second = match["teams"]
    expect(post(event.captain(first), f"/team-matches/{match['id']}/draft/roll/", {"dice": [4, 2]}), 201)
    pools = seen(event.staff, match["id"])["pools"]

    def commit(team: int) -> None:
        expect(draft(event.captain(team), match["id"], phase="defender", players=[pools[str(team)][0]]), 201)

    assert len(queries_of(lambda: commit(first))) == commit_queries()
    # The second defender reveals both: still no query for the games (none has a table yet).
    assert len(queries_of(lambda: commit(second))) == commit_queries()
    read = queries_of(lambda: expect(get(event.captain(first), f"/team-matches/{match['id']}/draft/"), 200))
    assert len(read) == 2 and not any("FOR UPDATE" in sql for sql in read)


def loaded(instance, part) -> dict:
    return {name: getattr(instance, name) for name in part.fields}


def test_the_plain_reads_give_what_the_orm_gives(staff_user):
    event = build(staff_user, teams=3, size=4, prefix="plain")
    matches = expect(pair(event.staff, event.slug), 201)["team_matches"]
    played = next(m for m in matches if m["teams"][1:])
    expect(post(event.staff, f"/team-matches/{played['id']}/draft/roll/", {"dice": [4, 2]}), 201)
    for pk in [m["id"] for m in matches]:
        plain = draft_reads.match(pk)
        orm = TeamMatch.objects.select_related("round__tournament__team_event", "first", "second").get(pk=pk)
        pairs = [(plain, orm), (plain.round, orm.round), (plain.round.tournament, orm.round.tournament),
                 (plain.round.tournament.team_event, orm.round.tournament.team_event)]
        for (mine, theirs), part in zip(pairs, draft_reads.MATCH_PARTS, strict=True):
            assert loaded(mine, part) == loaded(theirs, part)
    assert draft_reads.match(10**6) is None
    found = draft_reads.match(played["id"])
    members, rows = draft_reads.rosters_and_moves(found)
    assert [loaded(r, draft_reads.MOVE) for r in rows] == [
        loaded(r, draft_reads.MOVE) for r in DraftMove.objects.filter(match_id=played["id"]).order_by("index")]
    assert rows and rows[0].rolls == [[4, 2]] and rows[0].created_at.tzinfo is not None
    teams = played["teams"]
    assert members == {
        t: [(m.player_id, m.player.user_id) for m in TeamMember.objects.filter(team_id=t).order_by("position")]
        for t in teams}
    for side in ("first", "second"):
        mine, theirs = getattr(found, side), getattr(TeamMatch.objects.get(pk=played["id"]), side)
        assert (mine.pk, mine.name, mine.captain_id) == (theirs.pk, theirs.name, theirs.captain_id)


def test_a_sealed_move_spares_the_cached_pages_and_a_seated_game_does_not(staff_user):
    # No cached page shows a draft's moves (teams/services/drafts.py): only the games it seats.
    event = build(staff_user, teams=2, size=3, prefix="stale")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    first, second = match["teams"]
    tournament = Tournament.objects.get(slug=event.slug).pk
    expect(post(event.captain(first), f"/team-matches/{match['id']}/draft/roll/", {"dice": [5, 2]}), 201)
    pools = seen(event.staff, match["id"])["pools"]
    before = event_cache._version(tournament)
    expect(draft(event.captain(first), match["id"], phase="defender", players=[pools[str(first)][0]]), 201)
    assert event_cache._version(tournament) == before
    # The second defender: the attackers are forced (size 3), then both refuse; the refusals
    # seat the refused game on no table yet, the token team then chooses a table: a game.
    expect(draft(event.captain(second), match["id"], phase="defender", players=[pools[str(second)][0]]), 201)
    state = seen(event.staff, match["id"])
    attackers = {c["team"]: c["players"] for c in state["commits"] if c["phase"] == "attackers"}
    expect(draft(event.captain(first), match["id"], phase="refusal", players=[attackers[second][0]]), 201)
    expect(draft(event.captain(second), match["id"], phase="refusal", players=[attackers[first][0]]), 201)
    assert event_cache._version(tournament) == before
    chooser = seen(event.staff, match["id"])["waiting_for"][0]
    table = seen(event.staff, match["id"])["free_tables"][0]
    seating = queries_of(lambda: expect(draft(event.captain(chooser), match["id"], phase="table", table=table),
                                        201))
    assert event_cache._version(tournament) > before
    # The table's mission was rolled at pairing: the game reads that one mission, not the
    # whole catalogue to roll from.
    mission_reads = [sql for sql in seating if 'FROM "missions_mission"' in sql]
    assert len(mission_reads) == 1 and "WHERE" in mission_reads[0]
