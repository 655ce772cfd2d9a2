"""``weekly_swiss``: each week is one round paired with ``POST .../rounds/``; byes go to the
players who have had none; a declared bye leaves its player out of that week's pairing."""
from __future__ import annotations

import pytest

from tests.leagues.league_fixtures import build_league, ids, report_game, weeks_around_now
from tests.tournament_fixtures import confirm, expect, get, pair, post, report

pytestmark = pytest.mark.django_db


def settle(event, body) -> None:
    for game in body["games"]:
        if len(game["players"]) == 2:
            a, b = game["players"]
            expect(report(event.client(a), game["id"], a), 200)
            expect(confirm(event.client(b), game["id"]), 200)


def test_each_week_is_a_round_and_every_player_gets_one_bye(staff_user):
    open_now = weeks_around_now(past=0, future=0)  # reported by the players: each week open now
    event = build_league(staff_user, 3, prefix="sw", mode="weekly_swiss", weeks=open_now * 3)
    byes = []
    for number in (1, 2, 3):
        body = expect(pair(event.staff, event.slug), 201)
        assert body["number"] == number
        byes += [g["players"][0] for g in body["games"] if len(g["players"]) == 1]
        settle(event, body)
    assert sorted(byes) == ids(event)
    expect(pair(event.staff, event.slug), 409, "rounds_exhausted")
    rows = expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
    # Each played two games (a win for the first listed) and had a bye scored as a win.
    assert sum(r["points"] for r in rows) == 3 * 3 + 3 * 3
    for row in rows:
        assert sum(w["bye"] for w in row["weeks"]) == 1
        assert all(w["games_played"] == 1 for w in row["weeks"])


def test_a_declared_bye_leaves_the_player_out_of_that_week(staff_user):
    event = build_league(staff_user, 3, prefix="swd", mode="weekly_swiss",
                         weeks=weeks_around_now(past=0, future=1))
    a, b, c = ids(event)
    expect(post(event.client(c), f"/tournaments/{event.slug}/weeks/1/bye/"), 201)
    body = expect(pair(event.staff, event.slug), 201)
    assert [sorted(g["players"]) for g in body["games"]] == [[a, b]]
    expect(post(event.client(a), f"/tournaments/{event.slug}/weeks/1/bye/"), 409, "league_week_played")
    expect(report_game(event, a, b, 1, a), 409, "league_games_paired")
    settle(event, body)
    row = next(r for r in expect(get(event.staff, f"/tournaments/{event.slug}/league-standings/"), 200)
               if r["player"]["id"] == c)
    assert (row["points"], row["weeks"][0]["bye"], row["weeks"][0]["points"]) == (0, True, 0)


def test_a_player_reports_a_paired_game_only_while_its_week_is_open(staff_user):
    from leagues.models import Week

    event = build_league(staff_user, 2, prefix="swc", mode="weekly_swiss",
                         weeks=weeks_around_now(past=0, future=1))
    body = expect(pair(event.staff, event.slug), 201)
    (game,) = body["games"]
    a, b = game["players"]
    Week.objects.filter(league__tournament__slug=event.slug, number=1).update(
        closes=Week.objects.get(league__tournament__slug=event.slug, number=1).opens)
    expect(report(event.client(a), game["id"], a), 409, "league_week_closed")
    assert expect(report(event.staff, game["id"], b), 200)["status"] == "confirmed"


def test_a_declared_bye_counts_as_a_bye_had_when_the_next_week_is_paired(staff_user):
    # Contract: byes go to players who have had none while any has not. e declared week 1's
    # bye (0 points, alone last: the others drew): week 2's pairing bye is not e's.
    event = build_league(staff_user, 5, prefix="swh", mode="weekly_swiss",
                         weeks=weeks_around_now(past=0, future=0) * 2)
    *others, e = ids(event)
    expect(post(event.client(e), f"/tournaments/{event.slug}/weeks/1/bye/"), 201)
    for game in expect(pair(event.staff, event.slug), 201)["games"]:
        a, b = game["players"]
        expect(report(event.client(a), game["id"], None), 200)
        expect(confirm(event.client(b), game["id"]), 200)
    body = expect(pair(event.staff, event.slug), 201)
    (bye,) = [g["players"] for g in body["games"] if len(g["players"]) == 1]
    assert bye[0] in others
