"""The circuits API (contract §1): creation, results, ratings, standings, breakdown, merge."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from circuits.models import Circuit, ExternalResult, Person
from tests.tournament_fixtures import client_for, expect, get, make_user, post

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def day(offset: int = 0) -> str:
    return (TODAY - timedelta(days=offset)).isoformat()


@pytest.fixture
def staff():
    return client_for(make_user("circuit-staff", staff=True))


def create(staff, **body):
    return expect(post(staff, "/circuits/", {"name": "Season 2026", **body}), 201)


def result(staff, slug, **body):
    base = {"name": "Open de Lyon", "date": day(10), "rounds": 3, "players": 10, "placings": []}
    return post(staff, f"/circuits/{slug}/results/", {**base, **body})


def standings(client, slug, query=""):
    return expect(get(client, f"/circuits/{slug}/standings/{query}"), 200)


def test_create_read_patch(staff):
    body = create(staff, method="placement", curve="t3", best_n=2)
    assert body["slug"] == "season-2026" and body["curve"] == "t3" and body["best_n"] == 2
    assert body["base_by_rounds"] == {"3": 55, "4": 60, "5": 70} and body["size_cap"] == 30
    anyone = expect(get(client_for(), "/circuits/season-2026/"), 200)
    assert anyone["method"] == "placement"
    patched = client_for(make_user("x", staff=False))
    expect(staff.patch("/api/v1/circuits/season-2026/", {"weights": [100, 50]}, format="json"), 200)
    assert expect(patched.patch("/api/v1/circuits/season-2026/", {"best_n": 1}, format="json"), 403)
    assert client_for().post("/api/v1/circuits/", {"name": "x", "method": "elo"}, format="json").status_code == 401
    assert Circuit.objects.get().settings["weights"] == [100, 50]


def test_placement_standings_and_breakdown(staff):
    slug = create(staff, method="placement")["slug"]
    expect(result(staff, slug, placings=[{"player": "Alice", "place": 1}, {"player": "bob ", "place": 2}]), 201)
    expect(result(staff, slug, name="GT", rounds=5, players=40, date=day(3),
                  placings=[{"player": " BOB", "place": 1}]), 201)
    body = standings(client_for(), slug, f"?as_of={TODAY.isoformat()}")
    assert body["status"] == "current" and body["as_of"] == TODAY.isoformat()
    rows = {r["player"]["key"]: r for r in body["results"]}
    # Lyon: value 55 + 10 = 65; GT: 70 + 30 = 100.
    assert rows["bob"]["points"] == pytest.approx(100 + 65 * 9 / 10)
    assert rows["Alice"]["points"] == pytest.approx(65) and rows["Alice"]["rank"] == 2
    assert rows["bob"]["events_counted"] == 2 and rows["bob"]["provisional"] is False
    breakdown = expect(get(client_for(), f"/circuits/{slug}/players/BOB/"), 200)
    assert breakdown["player"] == {"key": "bob", "name": "bob"}
    first = breakdown["results"][0]
    assert first == {**first, "event": "Open de Lyon", "place": 2, "players": 10, "value": 65,
                     "raw_points": 58.5, "factor": 1, "points": 58.5, "counted": True}


def test_decay_as_of_a_past_and_a_future_day(staff):
    slug = create(staff, method="placement", decay_days=30, decay_step=0.5)["slug"]
    expect(result(staff, slug, date=day(40), placings=[{"player": "Alice", "place": 1}]), 201)
    now = standings(client_for(), slug)["results"][0]
    assert now["points"] == pytest.approx(65 * 0.5)
    past = standings(client_for(), slug, f"?as_of={day(20)}")["results"][0]
    assert past["points"] == pytest.approx(65)
    future = standings(client_for(), slug, f"?as_of={(TODAY + timedelta(days=30)).isoformat()}")
    assert future["results"][0]["points"] == 0 and future["results"][0]["provisional"]
    before = standings(client_for(), slug, f"?as_of={day(50)}")
    assert before["results"][0]["points"] == 0


def test_elo_games_byes_and_forfeits(staff):
    slug = create(staff, method="elo", min_games=1)["slug"]
    games = [{"round": 1, "table": 1, "players": ["a", "b"], "winner": "a"},
             {"round": 1, "table": 2, "players": ["c", "d"], "winner": None},
             {"round": 1, "table": 3, "players": ["e"], "winner": "e"},
             {"round": 2, "table": 1, "players": ["a", "c"], "winner": "c", "forfeit": True}]
    expect(result(staff, slug, players=5, games=games, placings=[{"player": "a", "place": 1}]), 201)
    rows = {r["player"]["key"]: r for r in standings(client_for(), slug)["results"]}
    assert rows["a"]["rating"] == 1516 and rows["b"]["rating"] == 1484
    assert rows["c"]["rating"] == rows["d"]["rating"] == 1500
    assert rows["e"]["rank"] is None and rows["e"]["provisional"] and rows["e"]["games"] == 0
    games_a = expect(get(client_for(), f"/circuits/{slug}/players/a/"), 200)["games"]
    assert games_a == [{"event": "Open de Lyon", "round": 1, "table": 1, "opponent": "b",
                        "opponent_name": "b", "before": 1500, "after": 1516, "delta": 16}]


def test_glickmans_example_through_the_api(staff):
    slug = create(staff, method="glicko2")["slug"]
    expect(post(staff, f"/circuits/{slug}/ratings/", [
        {"player": "ryan", "rating": 1500, "deviation": 200, "volatility": 0.06},
        {"player": "o1", "rating": 1400, "deviation": 30}, {"player": "o2", "rating": 1550, "deviation": 100},
        {"player": "o3", "rating": 1700, "deviation": 300}]), 200)
    games = [{"round": 1, "table": 1, "players": ["ryan", "o1"], "winner": "ryan"},
             {"round": 2, "table": 1, "players": ["ryan", "o2"], "winner": "o2"},
             {"round": 3, "table": 1, "players": ["o3", "ryan"], "winner": "o3"}]
    expect(result(staff, slug, players=4, games=games), 201)
    row = next(r for r in standings(client_for(), slug)["results"] if r["player"]["key"] == "ryan")
    assert (round(row["rating"], 2), round(row["deviation"], 2)) == (1464.06, 151.52)
    assert row["volatility"] == pytest.approx(0.05999, abs=0.00001)


def test_accounts_are_their_username_and_merge_hides_the_merged_key(staff):
    make_user("Gandalf")
    slug = create(staff, method="placement")["slug"]
    expect(result(staff, slug, placings=[{"player": "gandalf", "place": 1},
                                         {"player": "Mithrandir", "place": 3}]), 201)
    keys = {r["player"]["key"] for r in standings(client_for(), slug)["results"]}
    assert keys == {"Gandalf", "Mithrandir"}
    expect(post(staff, f"/circuits/{slug}/merge/", {"keep": "gandalf", "merge": "mithrandir"}), 200)
    rows = standings(client_for(), slug)["results"]
    assert [r["player"]["key"] for r in rows] == ["Gandalf"]
    assert rows[0]["points"] == 65  # the better place of one event counts once
    expect(get(client_for(), f"/circuits/{slug}/players/Mithrandir/"), 404, "circuit_player_not_found")


@pytest.mark.parametrize(("body", "code"), [
    ({"method": "swiss"}, "circuit_method_unknown"),
    ({"method": "placement", "curve": "cubic"}, "circuit_curve_unknown"),
    ({"method": "placement", "weights": [100, -1]}, "circuit_weights_invalid"),
    ({"method": "placement", "weights": "heavy"}, "circuit_weights_invalid"),
])
def test_bad_settings_store_nothing(staff, body, code):
    expect(post(staff, "/circuits/", {"name": "Bad", **body}), 400, code)
    assert not Circuit.objects.exists()


@pytest.mark.parametrize(("body", "code"), [
    ({"placings": [{"player": "a", "place": 11}]}, "circuit_place_beyond_players"),
    ({"games": [{"round": 1, "table": 1, "players": ["a", " A"], "winner": None}]}, "circuit_game_player_twice"),
    ({"date": (TODAY + timedelta(days=1)).isoformat()}, "circuit_result_in_future"),
])
def test_bad_results_store_nothing(staff, body, code):
    slug = create(staff, method="elo")["slug"]
    response = result(staff, slug, **body)
    expect(response, 400, code)
    assert not ExternalResult.objects.exists() and not Person.objects.exists()


def test_refusals_are_in_the_readers_language(staff):
    response = post(staff, "/circuits/", {"name": "x", "method": "swiss"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Méthode" in expect(response, 400, "circuit_method_unknown")["detail"]


def test_standings_page_and_search(staff):
    slug = create(staff, method="placement")["slug"]
    placings = [{"player": f"Player {i:02d}", "place": i} for i in range(1, 11)]
    expect(result(staff, slug, placings=placings), 201)
    page = standings(client_for(), slug, "?page=2&page_size=4")
    assert page["count"] == 10 and page["pages"] == 3
    assert [r["rank"] for r in page["results"]] == [5, 6, 7, 8]
    found = standings(client_for(), slug, "?search=PLAYER 0&page_size=5")
    assert found["count"] == 9 and [r["rank"] for r in found["results"]] == [1, 2, 3, 4, 5]
    assert [r["player"]["key"] for r in standings(client_for(), slug, "?search= layer 10")["results"]] == [
        "Player 10"]


def test_the_order_results_arrive_in_does_not_matter(staff):
    games = [
        [{"round": 1, "table": 1, "players": ["a", "b"], "winner": "a"},
         {"round": 2, "table": 1, "players": ["a", "c"], "winner": None}],
        [{"round": 1, "table": 1, "players": ["c", "b"], "winner": "c"},
         {"round": 1, "table": 2, "players": ["a", "d"], "winner": "d"}],
    ]
    answers = []
    for name, order in (("One", (0, 1)), ("Two", (1, 0))):
        slug = create(staff, name=name, method="glicko2")["slug"]
        for index in order:  # same day, same name: only their content orders them
            expect(result(staff, slug, name="Club night", players=4, games=games[index]), 201)
        answers.append(standings(client_for(), slug)["results"])
    assert answers[0] == answers[1]


def test_bad_as_of_and_bad_patch(staff):
    slug = create(staff, method="elo")["slug"]
    expect(get(client_for(), f"/circuits/{slug}/standings/?as_of=yesterday"), 400, "circuit_date_invalid")
    response = staff.patch(f"/api/v1/circuits/{slug}/", {"k_factor": "big"}, format="json")
    expect(response, 400, "circuit_setting_invalid")
    assert Circuit.objects.get().settings["k_factor"] == 32
    expect(get(client_for(), "/circuits/nope/standings/"), 404, "circuit_not_found")
