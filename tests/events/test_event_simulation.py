"""A whole 64-player, 6-round event, every round through the API (pairing, reports,
confirmations, standings), checked round by round against a tally kept independently by the
test. The 64 sign-ups and lists are made through the services, as their own API tests do not
need 128 more requests here."""
from collections import Counter

import pytest

from armylists.chart_reports import entries_from_units
from events.audit import Actor
from events.models import Tournament
from events.services import lists, tournaments
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    OVER_LIMIT_UNITS,
    client_for,
    confirm,
    create_tournament,
    expect,
    get,
    make_users,
    pair,
    report,
    set_status,
)

pytestmark = pytest.mark.django_db
PLAYERS, ROUNDS = 64, 6
CLUBS = [f"Club {n}" for n in range(8)]
WIN, DRAW = 3, 1


def outcome(number: int, index: int, a: int, b: int) -> int | None:
    """Who wins table ``index`` of round ``number``: a draw now and then, otherwise either."""
    if (number + index) % 5 == 0:
        return None
    return a if (number * 7 + index) % 3 else b


def test_a_64_player_six_round_event(staff_user):
    staff = client_for(staff_user)
    slug = create_tournament(staff, name="Grand Tournoi", rounds=ROUNDS, level="omega",
                             on_six="special", missions="per_table", seed=20240601)["slug"]
    set_status(staff, slug, "registration_open")
    tournament = Tournament.objects.get(slug=slug)
    clients, clubs = {}, {}
    for index, user in enumerate(make_users("sim", PLAYERS)):
        # Each player signs up and sends their list themself, as they would through the API.
        actor = Actor(user=user)
        player = tournaments.register_player(actor, tournament, name=f"Joueur {index}",
                                             club=CLUBS[index % len(CLUBS)])
        clients[player.pk], clubs[player.pk] = client_for(user), player.club
        units = OVER_LIMIT_UNITS if index % 8 == 0 else LEGAL_UNITS
        sent = lists.submit_list(actor, player, role="", entries=entries_from_units(units))
        assert sent.army_list.valid == (index % 8 != 0)
    illegal = {pid for i, pid in enumerate(clients) if i % 8 == 0}
    set_status(staff, slug, "lists_locked")

    points = Counter({pid: 0 for pid in clients})
    met: set[frozenset[int]] = set()
    active = set(clients)
    decisive = draws = byes = 0
    for number in range(1, ROUNDS + 1):
        if number == 4:  # one player leaves after round 3: the field becomes odd
            quitter = sorted(active)[10]
            expect(clients[quitter].patch(f"/api/v1/tournaments/{slug}/players/{quitter}/",
                                          {"dropped": True}, format="json"), 200)
            active.remove(quitter)
        body = expect(pair(staff, slug), 201)
        assert body["number"] == number
        paired = [p for g in body["games"] for p in g["players"]]
        assert sorted(paired) == sorted(active)  # every active player exactly once
        tables = [g["table"] for g in body["games"] if len(g["players"]) == 2]
        assert sorted(tables) == list(range(1, len(active) // 2 + 1))
        for index, game in enumerate(body["games"]):
            if len(game["players"]) == 1:
                byes += 1
                points[game["players"][0]] += WIN
                continue
            a, b = game["players"]
            assert frozenset((a, b)) not in met, f"rematch in round {number}"
            met.add(frozenset((a, b)))
            if number == 1:
                assert clubs[a] != clubs[b]  # round 1 keeps clubs apart when it can
            # Nobody submitted role lists: a mission with role charts (Assassinat) flags both.
            lacking = {a, b} if game["mission"]["role_charts"] else {a, b} & illegal
            assert {p["player"] for p in game["list_problems"]} == lacking
            winner = outcome(number, index, a, b)
            vp = {a: 450, b: 450} if winner is None else {a: 900 if winner == a else 250,
                                                          b: 900 if winner == b else 250}
            reporter, confirmer = (a, b) if index % 2 else (b, a)
            assert expect(report(clients[reporter], game["id"], winner, vp), 200)["status"] == "reported"
            assert expect(confirm(clients[confirmer], game["id"]), 200)["status"] == "confirmed"
            if winner is None:
                draws += 1
                points[a] += DRAW
                points[b] += DRAW
            else:
                decisive += 1
                points[winner] += WIN
        rows = expect(get(client_for(None), f"/tournaments/{slug}/standings/"), 200)
        assert [r["rank"] for r in rows] == list(range(1, PLAYERS + 1))
        assert {r["player"]["id"]: r["points"] for r in rows} == dict(points)
        assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
        total = sum(r["points"] for r in rows)
        assert total == WIN * decisive + 2 * DRAW * draws + WIN * byes  # a bye counts as a win
        for row in rows:
            played = row["wins"] + row["draws"] + row["losses"]
            expected_games = number if row["player"]["id"] in active else min(number, 3)
            assert played == expected_games
    assert byes == ROUNDS - 3 and draws > 0 and decisive > 0
    assert len(met) == decisive + draws
    finished = set_status(staff, slug, "finished")
    assert finished["status"] == "finished"
    expect(pair(staff, slug), 409, "tournament_finished")
