"""Reporting and confirming a result costs the same queries at a 4-player event as at a
24-player one (issue #15: the end of a round at a 1,024-player event): nothing a report or a
confirmation reads grows with the number of players or games."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Round
from tests.tournament_fixtures import build_event, client_for, confirm, expect, pair, report

pytestmark = pytest.mark.django_db

# The budgets: the game (locked), its open reports, the writes and the audit entry (a report
# also keeps the opponent's notice as a row until the broker has it, notices/outbox.py); a
# confirmation also finds an open game of the round (or, for the last one, locks the round).
REPORT_QUERIES = 8
CONFIRM_QUERIES = 8


def counted(call: Callable[[], Any]) -> tuple[int, Any]:
    """The queries ``call`` makes and its JSON answer (a 200 is expected)."""
    with CaptureQueriesContext(connection) as queries:
        response = call()
    return len(queries), expect(response, 200)


def costs(staff_user: Any, players: int) -> dict[str, int]:
    """Queries of the first table's report and confirmation, and of the last table's (the one
    that completes the round), in a round of ``players``."""
    event = build_event(staff_user, players, prefix=f"q{players}-")
    tables = [g for g in expect(pair(event.staff, event.slug), 201)["games"] if len(g["players"]) == 2]
    found: dict[str, int] = {}
    for index, game in enumerate(tables):
        a, b = game["players"]
        label = "first" if index == 0 else "last" if index == len(tables) - 1 else None
        reported = counted(partial(report, event.client(a), game["id"], a, {a: 700, b: 300}))
        confirmed = counted(partial(confirm, client_for(event.users[b]), game["id"]))
        assert (reported[1]["status"], confirmed[1]["status"]) == ("reported", "confirmed")
        if label is not None:
            found[f"{label} report"], found[f"{label} confirmation"] = reported[0], confirmed[0]
    assert Round.objects.get(tournament__slug=event.slug).status == "completed"
    return found


def test_reports_and_confirmations_make_the_same_queries_whatever_the_event_size(staff_user):
    small, large = costs(staff_user, 4), costs(staff_user, 24)
    assert small == large
    assert small["first report"] <= REPORT_QUERIES and small["last report"] <= REPORT_QUERIES
    assert small["first confirmation"] <= CONFIRM_QUERIES
    # Completing the round locks its row, looks for an open game and marks it: three more.
    assert small["last confirmation"] <= CONFIRM_QUERIES + 3
