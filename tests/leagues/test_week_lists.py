"""A player's list for each week (``.../list/?week=n``): the week's points limit, escalation,
closed weeks; the event's own list (``?role=`` and no parameter) keeps working."""
from __future__ import annotations

import pytest

from tests.leagues.league_fixtures import build_league, ids, weeks_around_now
from tests.tournament_fixtures import LEGAL_UNITS, expect, get, list_path, put

pytestmark = pytest.mark.django_db

CAPTAIN = {"name": "Captain", "slot": "hq", "points": 100}
TACTICAL = {"name": "Tactical Squad", "slot": "troops", "points": 150, "models": 10}
SCOUTS = {"name": "Scout Squad", "slot": "troops", "points": 100, "models": 5}
PREDATOR = {"name": "Predator", "slot": "heavy_support", "points": 120}


def week_put(event, player: int, week: int, units: list[dict], client=None):
    return put(client or event.client(player), list_path(event.slug, player) + f"?week={week}",
               {"units": units})


@pytest.fixture
def league(staff_user):
    return build_league(staff_user, 2, prefix="esc", escalation=True,
                        weeks=weeks_around_now(past=1, future=1, limits=[300, 400, 600]))


def test_each_week_checks_its_points_limit(league):
    a, _ = ids(league)
    report = expect(week_put(league, a, 2, [CAPTAIN, TACTICAL, SCOUTS, PREDATOR]), 200)
    assert (report["valid"], report["total_points"], report["points_limit"], report["week"]) == (
        False, 470, 400, 2)
    assert [e["code"] for e in report["errors"]] == ["points_over_limit"]
    assert expect(week_put(league, a, 3, [CAPTAIN, TACTICAL, SCOUTS, PREDATOR]), 200)["valid"]


def test_escalation_keeps_every_unit_of_the_week_before(league):
    a, _ = ids(league)
    expect(week_put(league, a, 2, [CAPTAIN, TACTICAL, SCOUTS], client=league.staff), 200)
    report = expect(week_put(league, a, 3, [CAPTAIN, TACTICAL, TACTICAL]), 200)
    assert not report["valid"]
    problem = next(e for e in report["errors"] if e["code"] == "escalation_unit_removed")
    assert (problem["unit"], problem["week"]) == ("Scout Squad", 2)
    assert "Scout Squad" in problem["message"] and problem["message"] != problem["code"]
    report = expect(week_put(league, a, 3, [CAPTAIN, TACTICAL, SCOUTS, PREDATOR]), 200)
    assert report["valid"], report["errors"]
    shown = expect(get(league.client(a), list_path(league.slug, a) + "?week=3"), 200)
    assert (shown["week"], shown["points_limit"], shown["report"]["valid"]) == (3, 600, True)
    assert len(shown["versions"]) == 1


def test_a_closed_week_takes_lists_from_staff_only(league):
    a, b = ids(league)
    expect(week_put(league, a, 1, [CAPTAIN, TACTICAL]), 409, "league_week_closed")
    expect(week_put(league, a, 1, [CAPTAIN, TACTICAL], client=league.staff), 200)
    expect(week_put(league, a, 2, [CAPTAIN, TACTICAL], client=league.client(b)), 403)
    expect(week_put(league, a, 7, [CAPTAIN, TACTICAL]), 404, "week_not_found")
    expect(put(league.client(a), list_path(league.slug, a) + "?week=two", {"units": [CAPTAIN]}), 400,
           "week_invalid")
    expect(get(league.client(b), list_path(league.slug, a) + "?week=1"), 403)
    expect(get(league.client(a), list_path(league.slug, a) + "?week=2"), 404, "list_not_found")


def test_without_a_week_the_event_list_is_unchanged(league, staff_client):
    a, _ = ids(league)
    report = expect(put(league.client(a), list_path(league.slug, a), {"units": LEGAL_UNITS}), 200)
    assert report["valid"] and "week" not in report
    assert expect(get(league.client(a), list_path(league.slug, a)), 200)["role"] is None
    expect(put(league.client(a), list_path(league.slug, a, "attacker"), {"units": LEGAL_UNITS}), 400,
           "role_unused")
