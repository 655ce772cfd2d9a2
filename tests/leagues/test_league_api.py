"""Leagues over weeks through the API (api-v1-seasons-teams §2): settings, weeks, open-play
games and their confirmation, refusals, declared byes, the league table."""
from __future__ import annotations

import pytest

from events.models import Tournament
from leagues.models import League
from tests.leagues.league_fixtures import (
    build_league,
    ids,
    played,
    report_game,
    staff_game,
    weeks_around_now,
)
from tests.tournament_fixtures import TOURNAMENT, create_tournament, expect, get, post

pytestmark = pytest.mark.django_db


def test_a_league_stores_and_shows_its_settings(staff_client):
    weeks = weeks_around_now(limits=[500, 750, None])
    body = create_tournament(staff_client, name="Winter league", format="league", league={
        "mode": "open_play", "points": {"win": 5, "draw": 2, "loss": 1}, "games_counted_per_week": 3,
        "drop_worst_weeks": 1, "byes_allowed": 2, "rematch": "allowed", "escalation": True,
        "weeks": weeks})
    assert body["format"] == "league"
    league = body["league"]
    assert league["points"] == {"win": 5, "draw": 2, "loss": 1}
    assert (league["games_counted_per_week"], league["drop_worst_weeks"], league["byes_allowed"],
            league["rematch"], league["escalation"]) == (3, 1, 2, "allowed", True)
    assert [w["points_limit"] for w in league["weeks"]] == [500, 750, 1500]
    assert Tournament.objects.get(slug=body["slug"]).rounds == 3
    shown = expect(get(staff_client, f"/tournaments/{body['slug']}/weeks/"), 200)
    assert [(w["number"], w["points_limit"], w["open"]) for w in shown] == [
        (1, 500, False), (2, 750, True), (3, 1500, False)]
    assert set(shown[0]) == {"number", "opens", "closes", "points_limit", "open"}


def test_left_out_settings_take_their_defaults(staff_client):
    body = create_tournament(staff_client, name="Plain league", format="league",
                             league={"weeks": weeks_around_now()})
    league = body["league"]
    assert (league["mode"], league["points"], league["games_counted_per_week"], league["drop_worst_weeks"],
            league["byes_allowed"], league["rematch"], league["escalation"]) == (
        "open_play", {"win": 3, "draw": 1, "loss": 0}, 2, 0, 1, "never", False)


@pytest.mark.parametrize("league", [
    None,  # a league needs its weeks
    {"weeks": []},
    {"weeks": [{"opens": "2026-01-08T00:00:00Z", "closes": "2026-01-01T00:00:00Z"}]},
    {"weeks": [{"opens": "2026-01-01T00:00:00Z", "closes": "2026-01-08T00:00:00Z"}], "drop_worst_weeks": 1},
    {"weeks": [{"opens": "2026-01-01T00:00:00Z", "closes": "2026-01-08T00:00:00Z"}], "mode": "marathon"},
])
def test_bad_league_settings_are_refused_and_nothing_stored(staff_client, league):
    body = {**TOURNAMENT, "name": "Refused", "format": "league"}
    if league is not None:
        body["league"] = league
    expect(post(staff_client, "/tournaments/", body), 400)
    assert not Tournament.objects.filter(name="Refused").exists()
    assert not League.objects.exists()


def test_a_player_reports_and_the_opponent_confirms(staff_user):
    event = build_league(staff_user, 2)
    a, b = ids(event)
    game = expect(report_game(event, a, b, 2, a, victory_points={str(a): 1200, str(b): 400}), 201)
    assert game["status"] == "reported" and set(game) >= {"id", "status"}
    rows = expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
    assert [r["points"] for r in rows] == [0, 0]  # not confirmed yet
    expect(post(event.client(a), f"/games/{game['id']}/confirm/"), 403)  # not the reporter
    assert expect(post(event.client(b), f"/games/{game['id']}/confirm/"), 200)["status"] == "confirmed"
    rows = expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
    assert [(r["rank"], r["player"]["id"], r["points"]) for r in rows] == [(1, a, 3), (2, b, 0)]
    assert rows[0]["weeks"] == [
        {"week": 1, "points": 0, "games_played": 0, "games_counted": 0, "bye": False, "dropped": False},
        {"week": 2, "points": 3, "games_played": 1, "games_counted": 1, "bye": False, "dropped": False},
        {"week": 3, "points": 0, "games_played": 0, "games_counted": 0, "bye": False, "dropped": False}]
    assert expect(get(event.staff, f"/games/{game['id']}/"), 200)["round"] == 2


def test_games_beyond_those_counted_are_shown_not_counted(staff_user):
    event = build_league(staff_user, 4, prefix="cnt", games_counted_per_week=2,
                         points={"win": 3, "draw": 1, "loss": 0})
    a, b, c, d = ids(event)
    played(event, a, b, 2, b)  # reported first: a loses
    played(event, a, c, 2, None)  # a draws
    played(event, a, d, 2, a)  # the third: shown, not counted
    row = next(r for r in expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
               if r["player"]["id"] == a)
    week = row["weeks"][1]
    assert (row["points"], week["points"], week["games_played"], week["games_counted"]) == (1, 1, 3, 2)


def test_staff_games_are_confirmed_at_once_even_in_a_closed_week(staff_user):
    event = build_league(staff_user, 2, prefix="stf")
    a, b = ids(event)
    expect(report_game(event, a, b, 1, a), 409, "league_week_closed")
    expect(report_game(event, a, b, 3, a), 409, "league_week_closed")  # not yet open
    game = expect(staff_game(event, a, b, 1, b), 201)
    assert game["status"] == "confirmed"
    rows = expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
    assert (rows[0]["player"]["id"], rows[0]["points"], rows[0]["weeks"][0]["points"]) == (b, 3, 3)


def test_a_rematch_is_refused_unless_allowed(staff_user):
    event = build_league(staff_user, 2, prefix="rem")
    a, b = ids(event)
    played(event, a, b, 2, a)
    expect(report_game(event, b, a, 2, b), 409, "league_rematch")
    expect(staff_game(event, a, b, 1, b), 409, "league_rematch")
    allowed = build_league(staff_user, 2, prefix="rem2", rematch="allowed")
    a, b = ids(allowed)
    played(allowed, a, b, 2, a)
    expect(report_game(allowed, b, a, 2, b), 201)


def test_oneself_strangers_and_unregistered_opponents_are_refused(staff_user, anon):
    event = build_league(staff_user, 2, prefix="bad")
    other = build_league(staff_user, 1, prefix="oth")
    a, b = ids(event)
    expect(report_game(event, a, a, 2, a), 400, "league_same_player")
    expect(report_game(event, a, ids(other)[0], 2, a), 400, "player_not_registered")
    expect(staff_game(event, a, ids(other)[0], 2, a), 400, "player_not_registered")
    stranger = other.client(ids(other)[0])
    expect(post(stranger, f"/tournaments/{event.slug}/weeks/2/games/",
                {"opponent": b, "result": {"winner": b}}), 403, "not_registered")
    expect(post(anon, f"/tournaments/{event.slug}/weeks/2/games/",
                {"opponent": b, "result": {"winner": b}}), 401)
    expect(report_game(event, a, b, 9, a), 404, "week_not_found")
    expect(post(event.staff, f"/tournaments/{event.slug}/weeks/2/games/",
                {"opponent": b, "result": {"winner": b}}), 400, "players_required")
    expect(report_game(event, a, b, 2, 999_999), 400, "winner_not_in_game")
    assert not expect(get(event.staff, f"/tournaments/{event.slug}/rounds/"), 200)  # nothing stored


def test_byes_are_declared_up_to_the_allowance_and_score_nothing(staff_user):
    event = build_league(staff_user, 3, prefix="bye", byes_allowed=1, drop_worst_weeks=1,
                         weeks=weeks_around_now(past=1, future=1))
    a, b, c = ids(event)
    path = f"/tournaments/{event.slug}/weeks/2/bye/"
    expect(post(event.client(a), path), 201)
    expect(post(event.client(a), path), 409, "league_bye_declared")
    expect(post(event.client(a), f"/tournaments/{event.slug}/weeks/1/bye/"), 409, "league_week_closed")
    expect(post(event.staff, f"/tournaments/{event.slug}/weeks/1/bye/", {"player": a}), 409, "league_byes_used")
    expect(post(event.client(b), path, {"player": a}), 403)
    expect(report_game(event, b, a, 2, b), 409, "league_bye_declared")
    expect(staff_game(event, b, c, 1, b), 201)
    rows = {r["player"]["id"]: r for r in expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)}
    # a: weeks 0 (empty), 0 (bye), 0 (future): the bye is dropped first among equal weeks.
    assert [(w["week"], w["bye"], w["dropped"]) for w in rows[a]["weeks"]] == [
        (1, False, False), (2, True, True), (3, False, False)]
    # b: 3, 0, 0: the earliest of the equal weeks is dropped.
    assert [w["dropped"] for w in rows[b]["weeks"]] == [False, True, False]
    assert (rows[b]["rank"], rows[b]["points"]) == (1, 3)
    assert rows[a]["rank"] == rows[c]["rank"] == 2


def test_open_play_pairs_no_rounds_and_an_event_has_no_weeks(staff_user, staff_client):
    event = build_league(staff_user, 2, prefix="pair")
    expect(post(event.staff, f"/tournaments/{event.slug}/rounds/", {}), 409, "league_open_play")
    plain = create_tournament(staff_client, name="Plain event")
    expect(get(staff_client, f"/tournaments/{plain['slug']}/weeks/"), 404, "not_a_league")
    expect(get(staff_client, f"/tournaments/{plain['slug']}/league-standings/"), 404, "not_a_league")


def test_refusals_are_worded_in_french(staff_user):
    event = build_league(staff_user, 2, prefix="fr")
    a, b = ids(event)
    body = expect(report_game(event, a, b, 1, a, HTTP_ACCEPT_LANGUAGE="fr"), 409, "league_week_closed")
    assert body["detail"] == ("La semaine 1 n’est pas ouverte\u00a0: demandez à un organisateur "
                              "de saisir cette partie.")


def test_ids_no_database_can_hold_are_refused_as_bad_input(staff_user):
    event = build_league(staff_user, 2, prefix="huge")
    a, b = ids(event)
    big = 10**30
    expect(report_game(event, a, big, 2, a), 400)
    expect(post(event.staff, f"/tournaments/{event.slug}/weeks/2/games/",
                {"players": [a, big], "result": {"winner": a}}), 400)
    expect(post(event.staff, f"/tournaments/{event.slug}/weeks/2/bye/", {"player": big}), 400)
    expect(post(event.client(a), f"/tournaments/{event.slug}/weeks/{big}/bye/"), 404, "week_not_found")


def test_the_table_is_read_in_queries_that_do_not_grow_with_players(staff_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(event) -> int:
        with CaptureQueriesContext(connection) as captured:
            expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
        return len(captured)

    small = build_league(staff_user, 2, prefix="q2")
    played(small, *ids(small), 2, None)
    large = build_league(staff_user, 8, prefix="q8")
    players = ids(large)
    for a, b in zip(players[::2], players[1::2], strict=True):
        played(large, a, b, 2, a)
    expect(post(large.client(players[0]), f"/tournaments/{large.slug}/weeks/3/bye/"), 409)  # not open
    expect(post(large.staff, f"/tournaments/{large.slug}/weeks/3/bye/", {"player": players[0]}), 201)
    assert queries(small) == queries(large) <= 8
