"""The draft clocks' sweep (teams.draft_auto_picks, teams/services/auto_picks.py): an overdue
draft with auto-pick moves with nobody reading it; the others are left alone, at a bounded cost.
Time moves as in the other draft clock tests: the match's and moves' ``created_at`` are aged."""
from __future__ import annotations

import logging
import os
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import config.celery
import teams.tasks  # noqa: F401  (registers the task; the loader's autodiscovery would reset logging)
from events.models import AuditEntry
from teams.models import DraftMove, TeamMatch
from teams.services import auto_picks, drafts
from tests.row_locks import row_held
from tests.teams.team_event import build, draft, seen
from tests.tournament_fixtures import expect, get, pair, post

pytestmark = pytest.mark.django_db

TASK = "teams.draft_auto_picks"


def sweep() -> int:
    """The task as the beat runs it, by its registered name."""
    return config.celery.app.tasks[TASK]()


def age(match: int, seconds: int) -> None:
    """Move the match's clock ``seconds`` back: its pairing and every move made so far."""
    before = timezone.now() - timedelta(seconds=seconds)
    TeamMatch.objects.filter(pk=match).update(created_at=before)
    DraftMove.objects.filter(match_id=match).update(created_at=before)


def paired(staff_user, prefix: str, teams: int = 2, **settings) -> tuple:
    event = build(staff_user, teams=teams, size=3, prefix=prefix, **settings)
    matches = [m for m in expect(pair(event.staff, event.slug), 201)["team_matches"] if len(m["teams"]) == 2]
    return event, matches


def writes(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries
            if q["sql"].split(None, 1)[0].upper() in {"INSERT", "UPDATE", "DELETE"}]


def test_an_overdue_draft_with_auto_pick_moves_by_the_sweep_alone(staff_user):
    event, (match,) = paired(staff_user, "swp", auto_pick=True, step_seconds=10)
    age(match["id"], 11)
    assert sweep() == 1  # the roll-off, rolled by the server
    (roll,) = DraftMove.objects.filter(match_id=match["id"])
    assert (roll.phase, roll.auto, roll.by) == ("roll", True, None)
    assert sweep() == 0  # the defender phase opened just now

    age(match["id"], 11)
    assert sweep() == 4  # both defenders, then both forced attackers (3 players: no choice)
    moves = list(DraftMove.objects.filter(match_id=match["id"]).order_by("index"))
    assert [(m.phase, m.auto, m.forced) for m in moves[1:]] == [
        ("defender", True, False), ("defender", True, False),
        ("attackers", True, True), ("attackers", True, True)]
    assert all(m.by is None for m in moves)
    picks = AuditEntry.objects.filter(action="draft_auto_pick")
    assert picks.count() == 3  # the roll and the two defenders: logged automatic, by nobody
    assert all(e.actor is None and e.data["auto"] is True for e in picks)
    state = seen(event.staff, match["id"])
    assert state["phase"] == "refusal" and not state["overdue"]


def test_a_late_team_is_picked_for_even_when_the_other_just_committed(staff_user):
    # The defender phase opened (the roll) 11 s ago; the first team committed just now: the
    # second is late, though the latest move is young.
    event, (match,) = paired(staff_user, "half", auto_pick=True, step_seconds=10)
    first, second = match["teams"]
    expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 1]}), 201)
    defender = next(t for t in event.teams if t["id"] == first)["members"][0]["id"]
    expect(draft(event.captain(first), match["id"], phase="defender", players=[defender]), 201)
    age(match["id"], 11)
    DraftMove.objects.filter(match_id=match["id"], phase="defender").update(created_at=timezone.now())
    assert sweep() == 3  # the second team's defender, then both forced attackers
    late = DraftMove.objects.get(match_id=match["id"], phase="defender", team_id=second)
    assert late.auto and not late.forced
    assert not DraftMove.objects.get(match_id=match["id"], phase="defender", team_id=first).auto


def test_without_auto_pick_an_overdue_draft_is_only_flagged(staff_user):
    manual, (left,) = paired(staff_user, "man", step_seconds=10)
    auto, (moved,) = paired(staff_user, "aut", auto_pick=True, step_seconds=10)
    age(left["id"], 11)
    age(moved["id"], 11)
    assert sweep() == 1
    assert not DraftMove.objects.filter(match_id=left["id"]).exists()
    assert DraftMove.objects.filter(match_id=moved["id"]).count() == 1
    (row,) = expect(get(manual.staff, f"/tournaments/{manual.slug}/draft-monitor/"), 200)["matches"]
    assert row["id"] == left["id"] and row["phase"] == "roll" and row["overdue"]


def test_a_draft_not_yet_overdue_is_left_alone(staff_user):
    event, (match,) = paired(staff_user, "early", auto_pick=True, step_seconds=60)
    age(match["id"], 50)
    assert auto_picks.candidates() == []
    assert sweep() == 0
    expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 1]}), 201)
    age(match["id"], 50)
    assert sweep() == 0
    assert DraftMove.objects.filter(match_id=match["id"]).count() == 1


def test_a_finished_draft_costs_no_write(staff_user):
    event, (match,) = paired(staff_user, "done", auto_pick=True, step_seconds=10, draft_seconds=60)
    age(match["id"], 61)  # past the whole draft's clock: the sweep drafts it to the end
    made = sweep()
    assert seen(event.staff, match["id"])["phase"] == "done"
    count = DraftMove.objects.filter(match_id=match["id"]).count()
    assert made == count
    age(match["id"], 3600)
    with CaptureQueriesContext(connection) as queries:
        assert sweep() == 0
    assert writes(queries) == [] and len(queries.captured_queries) == 1  # the candidates only
    assert DraftMove.objects.filter(match_id=match["id"]).count() == count


def test_the_candidates_cost_one_query_however_many_matches_wait(staff_user):
    _, few = paired(staff_user, "few", teams=2, auto_pick=True, step_seconds=60)
    with CaptureQueriesContext(connection) as small:
        assert sweep() == 0
    _, many = paired(staff_user, "many", teams=8, auto_pick=True, step_seconds=60)
    assert len(few) + len(many) == 5
    with CaptureQueriesContext(connection) as large:
        assert sweep() == 0
    assert len(large.captured_queries) == len(small.captured_queries) == 1
    age(many[2]["id"], 61)
    assert auto_picks.candidates() == [many[2]["id"]]


def test_one_failing_match_does_not_stop_the_others(staff_user, monkeypatch, caplog):
    _, (broken, fine) = paired(staff_user, "fail", teams=4, auto_pick=True, step_seconds=10)
    age(broken["id"], 20)  # the older clock: swept first
    age(fine["id"], 11)
    real = drafts.catch_up

    def failing(draft, actor):
        if draft.match.pk == broken["id"]:
            raise RuntimeError("broken draft")
        real(draft, actor)

    monkeypatch.setattr(drafts, "catch_up", failing)
    with caplog.at_level(logging.ERROR, logger="teams.services.auto_picks"):
        assert sweep() == 1
    assert f"team match {broken['id']} failed" in caplog.text
    assert not DraftMove.objects.filter(match_id=broken["id"]).exists()
    assert DraftMove.objects.filter(match_id=fine["id"]).count() == 1


def test_the_sweep_is_in_the_beat_schedule():
    assert TASK in config.celery.SWEEPS
    seconds = float(os.environ.get("MUSTER_SWEEP_SECONDS", 60))
    assert config.celery.app.conf.beat_schedule[TASK] == {"task": TASK, "schedule": seconds}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_match_locked_by_a_request_is_skipped_not_waited_for(staff_user):
    _, (match,) = paired(staff_user, "lock", auto_pick=True, step_seconds=10)
    age(match["id"], 11)
    with row_held(TeamMatch, match["id"]):  # a captain's commit, in its own connection
        assert sweep() == 0  # a sweep that waited would get the match only after the block
        assert not DraftMove.objects.filter(match_id=match["id"]).exists()
    assert sweep() == 1  # the next sweep takes it
