"""Two identical draft commits at once give exactly one 201 (the match's row lock), on
PostgreSQL with one connection per thread."""
from __future__ import annotations

from collections import Counter

import pytest

from events.models import AuditEntry
from teams.models import DraftMove
from tests.events.test_tournament_concurrency import in_parallel
from tests.teams.team_event import build, draft
from tests.tournament_fixtures import client_for, expect, pair, post

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_two_identical_commits_at_once_give_exactly_one_201(staff_user):
    event = build(staff_user, teams=2, size=5, prefix="race")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    first, second = match["teams"]
    captain = next(t for t in event.teams if t["id"] == first)
    user = event.users[captain["captain"]]
    expect(post(event.captain(first), f"/team-matches/{match['id']}/draft/roll/", {"dice": [4, 2]}), 201)
    body = {"phase": "defender", "players": [captain["members"][0]["id"]]}
    answers = in_parallel([lambda: draft(client_for(user), match["id"], **body)] * 4
                          + [lambda: post(client_for(user), f"/team-matches/{match['id']}/draft/roll/", {})] * 2)
    assert Counter(status for status, _ in answers[:4]) == {201: 1, 409: 3}
    assert {b["code"] for s, b in answers[:4] if s == 409} == {"draft_already_committed"}
    assert [s for s, _ in answers[4:]] == [409, 409]
    assert DraftMove.objects.filter(match_id=match["id"], phase="defender").count() == 1
    assert AuditEntry.objects.filter(action="draft_move", data__phase="defender").count() == 1
