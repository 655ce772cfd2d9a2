"""Muster events in a circuit: counted once finished (final rank, registered players,
confirmed games), brought up to date when they finish; large inputs go to the worker."""
from __future__ import annotations

import pytest
from django.test import override_settings

from tests.tournament_fixtures import (
    build_event,
    client_for,
    expect,
    get,
    make_user,
    pair,
    post,
    set_status,
    settle_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_user_():
    return make_user("circuit-boss", staff=True)


def standings(slug):
    return expect(get(client_for(), f"/circuits/{slug}/standings/"), 200)


def test_a_finished_event_counts_with_its_ranks_players_and_games(staff_user_,
                                                                  django_capture_on_commit_callbacks):
    event = build_event(staff_user_, 4, rounds=1)
    staff = event.staff
    slug = expect(post(staff, "/circuits/", {"name": "Ligue", "method": "elo"}), 201)["slug"]
    expect(post(staff, f"/circuits/{slug}/events/", {"tournament": event.slug, "multiplier": 2}), 201)
    assert standings(slug)["results"] == []  # not finished yet
    round_body = expect(pair(staff, event.slug), 201)
    settle_round(event, round_body)
    with django_capture_on_commit_callbacks(execute=True):
        set_status(staff, event.slug, "running", "finished")
    body = standings(slug)
    assert body["status"] == "current"
    ratings = sorted(r["rating"] for r in body["results"])
    assert ratings == [1484, 1484, 1516, 1516]
    winner = next(r for r in body["results"] if r["rating"] == 1516)
    assert winner["player"]["key"].startswith(event.slug[:20])  # the account's username
    breakdown = expect(get(client_for(), f"/circuits/{slug}/players/{winner['player']['key']}/"), 200)
    assert [g["delta"] for g in breakdown["games"]] == [16]
    placement = expect(post(staff, "/circuits/", {"name": "Points", "method": "placement"}), 201)["slug"]
    expect(post(staff, f"/circuits/{placement}/events/", {"tournament": event.slug, "multiplier": 2}), 201)
    rows = standings(placement)["results"]
    # 1 round: the smallest key (3 -> 55) + 4 players = 59; first place × multiplier 2.
    assert rows[0]["points"] == 118 and rows[0]["rank"] == 1
    lines = expect(get(client_for(), f"/circuits/{placement}/players/{rows[0]['player']['key']}/"), 200)
    assert lines["results"][0]["factor"] == 2 and lines["results"][0]["players"] == 4


@override_settings(CIRCUITS_INLINE_LIMIT=0)
def test_large_inputs_are_computed_in_the_worker_meanwhile_computing(staff_user_,
                                                                     django_capture_on_commit_callbacks):
    staff = client_for(staff_user_)
    slug = expect(post(staff, "/circuits/", {"name": "Big", "method": "elo"}), 201)["slug"]
    body = {"name": "Elsewhere", "date": "2026-01-10", "rounds": 1, "players": 2,
            "placings": [{"player": "a", "place": 1}],
            "games": [{"round": 1, "table": 1, "players": ["a", "b"], "winner": "a"}]}
    with django_capture_on_commit_callbacks(execute=False) as queued:
        expect(post(staff, f"/circuits/{slug}/results/", body), 201)
    assert standings(slug)["status"] == "computing"
    for callback in queued:
        callback()  # the eager worker runs the queued recompute
    answer = standings(slug)
    assert answer["status"] == "current"
    assert {r["player"]["key"]: r["rating"] for r in answer["results"]} == {"a": 1516, "b": 1484}


def test_a_game_corrected_after_the_event_finished_recomputes_the_circuit(
        staff_user_, django_capture_on_commit_callbacks):
    from tests.tournament_fixtures import report

    event = build_event(staff_user_, 2, rounds=1, prefix="circfix")
    staff = event.staff
    slug = expect(post(staff, "/circuits/", {"name": "Corrections", "method": "elo"}), 201)["slug"]
    expect(post(staff, f"/circuits/{slug}/events/", {"tournament": event.slug}), 201)
    round_body = expect(pair(staff, event.slug), 201)
    settle_round(event, round_body)  # the first player wins
    with django_capture_on_commit_callbacks(execute=True):
        set_status(staff, event.slug, "running", "finished")
    (game,) = round_body["games"]
    second = game["players"][1]
    before = {r["rating"] for r in standings(slug)["results"]}
    assert before == {1484, 1516}
    winners_key = next(r["player"]["key"] for r in standings(slug)["results"] if r["rating"] == 1516)
    with django_capture_on_commit_callbacks(execute=True):
        expect(report(staff, game["id"], second), 200)  # the organiser corrects: the second won
    after = {r["player"]["key"]: r["rating"] for r in standings(slug)["results"]}
    assert after[winners_key] == 1484 and sorted(after.values()) == [1484, 1516]
