"""A whole event driven by a client that knows only `../shared/api-v1.md`.

`test_a_client_that_knows_only_the_contract_runs_an_event` uses the operations, fields and codes
written there and nothing else: no status call before pairing (creation opens registration and
pairing round 1 locks the lists), no ORM except to create the organiser's account, token
authentication as documented. The other tests pin each rule the contract added: the default
status, drafts, and pairing straight from registration."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from events.models import AuditEntry, Round, Tournament
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    TOURNAMENT,
    build_event,
    client_for,
    create_tournament,
    expect,
    get,
    make_user,
    pair,
    post,
    put,
    register,
)

pytestmark = pytest.mark.django_db

API = "/api/v1"
PASSWORD = "a long enough password 42"
SLOTS = {"hq", "troops", "elites", "fast_attack", "heavy_support"}
STANDARD = {"accrochage", "position-strategique", "domination", "offensive-majeure", "assaut-urbain"}
UNITS = [  # legal under w40k4-standard at 1500 points: 380 points
    {"name": "Captain", "slot": "hq", "points": 100},
    {"name": "Tactical Squad", "slot": "troops", "points": 180, "models": 10},
    {"name": "Scout Squad", "slot": "troops", "points": 100, "models": 5},
]


# --- a contract-only client -------------------------------------------------------------------

def call(client: APIClient, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request as any HTTP client would send it: JSON in, JSON out."""
    send = getattr(client, method)
    response = send(API + path, body, format="json") if body is not None else send(API + path)
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return response.status_code, response.json()


def ok(answer: tuple[int, Any], status: int) -> Any:
    code, body = answer
    assert code == status, (code, body)
    return body


def refused(answer: tuple[int, Any], status: int, code: str | None = None) -> None:
    """An error as the contract writes it: ``{"detail", "code"}``; ``code`` where it names one."""
    got, body = answer
    assert got == status, (got, body)
    assert isinstance(body["detail"], str) and body["detail"] and isinstance(body["code"], str), body
    assert code is None or body["code"] == code, body


def signed_in(username: str, password: str) -> APIClient:
    """`POST /auth/token/` then `Authorization: Token <key>` on every request."""
    token = ok(call(APIClient(), "post", "/auth/token/",
                    {"username": username, "password": password}), 200)["token"]
    assert isinstance(token, str) and token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def sign_up(username: str) -> APIClient:
    body = ok(call(APIClient(), "post", "/accounts/",
                   {"username": username, "password": PASSWORD, "email": f"{username}@example.org"}),
              201)
    assert body["username"] == username
    return signed_in(username, PASSWORD)


def check_report(report: dict[str, Any]) -> None:
    """The validation report of `lists/validate` and of a player's list PUT."""
    assert isinstance(report["valid"], bool) and isinstance(report["total_points"], int)
    assert set(report["slots"]) == SLOTS
    for counts in report["slots"].values():
        assert {"count", "min", "max"} <= set(counts)
    for problem in report["errors"]:
        assert isinstance(problem["code"], str) and isinstance(problem["message"], str)
    assert isinstance(report["warnings"], list)


def check_mission(mission: dict[str, Any]) -> None:
    assert {"slug", "name", "kind"} <= set(mission)


def check_round(body: dict[str, Any], number: int, players: set[int]) -> list[dict[str, Any]]:
    """The round's shape; returns its games with two players."""
    assert body["number"] == number
    check_mission(body["mission"])  # missions per round: one mission for every table
    assert body["mission"]["slug"] in STANDARD  # on_six "reroll": never a special mission
    assert body["rolls"] and all(1 <= r <= 6 for r in body["rolls"])
    seated = [p for game in body["games"] for p in game["players"]]
    assert sorted(seated) == sorted(players)  # everyone plays once, or has the bye
    games = []
    for game in body["games"]:
        assert {"id", "table", "players", "mission"} <= set(game)
        if len(game["players"]) == 2:
            check_mission(game["mission"])
            assert game["mission"]["slug"] == body["mission"]["slug"]
            games.append(game)
        else:
            assert len(game["players"]) == 1  # the bye
    return games


def test_a_client_that_knows_only_the_contract_runs_an_event(
        settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    get_user_model().objects.create_user("organiser", password=PASSWORD, is_staff=True)
    staff_client = signed_in("organiser", PASSWORD)
    anyone = APIClient()

    # Reference data, as a client discovers it.
    charts = {c["slug"]: c for c in ok(call(anyone, "get", "/charts/"), 200)}
    assert {"w40k4-standard", "strike-and-withdraw-attacker", "strike-and-withdraw-defender"} <= set(charts)
    assert {row["slot"] for row in charts["w40k4-standard"]["slots"]} == SLOTS
    missions = ok(call(anyone, "get", "/missions/"), 200)
    assert {m["slug"] for m in missions if m["kind"] == "standard"} == STANDARD
    stratagems = {s["slug"]: s for s in ok(call(anyone, "get", "/stratagems/"), 200)}
    assert len(stratagems) == 23

    # The organiser creates the event: registration opens at once.
    created = ok(call(staff_client, "post", "/tournaments/", {
        "name": "Contract Cup", "chart": "w40k4-standard", "points_limit": 1500, "level": "gamma",
        "rounds": 3, "on_six": "reroll", "missions": "per_round", "seed": 20240611,
        "language": "en"}), 201)
    slug = created["slug"]
    assert created["status"] == "registration_open"
    assert ok(call(anyone, "get", f"/tournaments/{slug}/"), 200)["status"] == "registration_open"

    # Five players sign up, take a token, register themselves and send a list.
    players: dict[int, APIClient] = {}
    for index in range(5):
        client = sign_up(f"contract-player-{index}")
        player = ok(call(client, "post", f"/tournaments/{slug}/players/",
                         {"name": f"Player {index}", "club": f"Club {index % 2}", "faction": "Orks"}),
                    201)
        assert {"id", "name"} <= set(player) and player["name"] == f"Player {index}"
        players[player["id"]] = client
    ids = sorted(players)
    first, second = ids[0], ids[1]

    # A player checks a list first with the stateless tool (French messages on request).
    checked = ok(call(anyone, "post", "/lists/validate/",
                      {"chart": "w40k4-standard", "points_limit": 1500, "units": UNITS[:1]}), 200)
    check_report(checked)
    assert checked["valid"] is False
    assert "slot_below_min" in {(e["code"]) for e in checked["errors"]}

    over = ok(call(players[first], "put", f"/tournaments/{slug}/players/{first}/list/",
                   {"units": [*UNITS, {"name": "Baneblade", "slot": "heavy_support", "points": 1500}]}),
              200)
    check_report(over)
    assert over["valid"] is False and "points_over_limit" in {e["code"] for e in over["errors"]}
    for pid, client in players.items():
        report = ok(call(client, "put", f"/tournaments/{slug}/players/{pid}/list/", {"units": UNITS}), 200)
        check_report(report)
        assert report["valid"] is True and report["total_points"] == 380
    mine = ok(call(players[first], "get", f"/tournaments/{slug}/players/{first}/list/"), 200)
    assert mine["valid"] is True and mine["total_points"] == 380
    refused(call(players[second], "put", f"/tournaments/{slug}/players/{first}/list/", {"units": UNITS}),
            403)
    refused(call(players[second], "get", f"/tournaments/{slug}/players/{first}/list/"), 403)

    for number in (1, 2, 3):
        body = ok(call(staff_client, "post", f"/tournaments/{slug}/rounds/", {}), 201)
        games = check_round(body, number, set(ids))
        if number == 1:
            # Pairing round 1 locked the lists: a list can no longer change.
            refused(call(players[first], "put", f"/tournaments/{slug}/players/{first}/list/",
                         {"units": UNITS}), 409)
            assert ok(call(anyone, "get", f"/tournaments/{slug}/"), 200)["status"] == "running"
            pack = ok(call(staff_client, "post", f"/tournaments/{slug}/rounds/1/mission-pack/", {}), 202)
            assert {"id", "status"} <= set(pack)
        assert ok(call(anyone, "get", f"/tournaments/{slug}/rounds/{number}/"), 200) == body

        for index, game in enumerate(games):
            a, b = game["players"]
            if index == 0:
                # The first table: stratagem checks, the reporter cannot confirm, and the next
                # round waits for it.
                for stratagems_a, code in ((["sapeurs", "sapeurs"], "stratagem_duplicate"),
                                           (["sapeurs", "piege", "barricades"], "stratagem_limit")):
                    refused(call(players[a], "post", f"/games/{game['id']}/report/",
                                 {"result": {"winner": a}, "stratagems": {str(a): stratagems_a}}),
                            400, code)
                reported = ok(call(players[a], "post", f"/games/{game['id']}/report/", {
                    "result": {"winner": a}, "victory_points": {str(a): 900, str(b): 300},
                    "stratagems": {str(a): ["sapeurs", "piege"], str(b): []}}), 200)
                assert reported["status"] == "reported"
                refused(call(players[a], "post", f"/games/{game['id']}/confirm/", {}), 403)
                refused(call(staff_client, "post", f"/tournaments/{slug}/rounds/", {}), 409)
                confirmed = ok(call(players[b], "post", f"/games/{game['id']}/confirm/", {}), 200)
                assert confirmed["status"] == "confirmed"
            else:
                # A staff report is final at once.
                staff_report = ok(call(staff_client, "post", f"/games/{game['id']}/report/", {
                    "result": {"winner": None}, "victory_points": {str(a): 500, str(b): 500}}), 200)
                assert staff_report["status"] == "confirmed"

        standings = ok(call(anyone, "get", f"/tournaments/{slug}/standings/"), 200)
        assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
        assert {row["player"]["id"] for row in standings} == set(ids)
        for row in standings:
            assert {"rank", "player", "points", "wins", "draws", "losses", "tiebreakers"} <= set(row)
            assert {"id", "name"} <= set(row["player"]) and isinstance(row["tiebreakers"], dict)
            # Every player has a result for every round so far (a bye counts as one).
            assert row["wins"] + row["draws"] + row["losses"] == number
        assert [row["points"] for row in standings] == sorted(
            (row["points"] for row in standings), reverse=True)

    refused(call(staff_client, "post", f"/tournaments/{slug}/rounds/", {}), 409)

    # A round's mission pack, followed until it is done (Celery runs eagerly here).
    with django_capture_on_commit_callbacks(execute=True):
        pack = ok(call(staff_client, "post", f"/tournaments/{slug}/rounds/2/mission-pack/", {}), 202)
    for _poll in range(10):
        state = ok(call(staff_client, "get", f"/mission-packs/{pack['id']}/"), 200)
        assert state["status"] in ("pending", "running", "done", "failed")
        assert 0 <= state["progress"] <= 100
        if state["status"] in ("done", "failed"):
            break
    assert state["status"] == "done", state
    assert state["progress"] == 100 and state["download_url"]
    download = staff_client.get(state["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    refused(call(players[first], "get", f"/mission-packs/{pack['id']}/"), 403)

    finished = ok(call(staff_client, "post", f"/tournaments/{slug}/status/", {"status": "finished"}), 200)
    assert finished["status"] == "finished"


# --- the rules the contract added -------------------------------------------------------------

def actions(slug: str) -> list[tuple[str, dict]]:
    entries = AuditEntry.objects.filter(tournament__slug=slug).order_by("created_at", "pk")
    return [(e.action, e.data) for e in entries]


def status_steps(slug: str) -> list[tuple[str, str]]:
    return [(data["from"], data["to"]) for action, data in actions(slug) if action == "status_changed"]


def test_a_tournament_created_without_status_opens_registration_and_logs_it(staff_client, anon):
    created = create_tournament(staff_client, name="Open at once")
    assert created["status"] == "registration_open"
    assert status_steps(created["slug"]) == [("draft", "registration_open")]
    assert [action for action, _data in actions(created["slug"])] == [
        "tournament_created", "status_changed"]
    assert expect(get(anon, f"/tournaments/{created['slug']}/"), 200)["status"] == "registration_open"
    # A player can register straight away.
    register(client_for(make_user("early-bird")), created["slug"], "Early Bird")


def test_an_explicit_status_is_a_draft_or_open_registration(staff_client):
    explicit = create_tournament(staff_client, name="Explicit", status="registration_open")
    assert explicit["status"] == "registration_open"
    assert status_steps(explicit["slug"]) == [("draft", "registration_open")]
    draft = create_tournament(staff_client, name="Kept draft", status="draft")
    assert draft["status"] == "draft" and status_steps(draft["slug"]) == []
    for bad in ("lists_locked", "running", "finished", "open", None):
        body = expect(post(staff_client, "/tournaments/", {**TOURNAMENT, "name": "Bad", "status": bad}), 400)
        assert set(body) == {"status"}, body
    assert not Tournament.objects.filter(name="Bad").exists()


def test_a_draft_is_visible_to_staff_only(staff_client, anon):
    slug = create_tournament(staff_client, name="Secret", status="draft")["slug"]
    player = client_for(make_user("curious"))
    for client in (anon, player):
        expect(get(client, f"/tournaments/{slug}/"), 404, "tournament_not_found")
        assert slug not in {t["slug"] for t in expect(get(client, "/tournaments/"), 200)}
    expect(post(player, f"/tournaments/{slug}/players/", {"name": "Me"}), 404, "tournament_not_found")
    assert expect(get(staff_client, f"/tournaments/{slug}/"), 200)["status"] == "draft"
    assert slug in {t["slug"] for t in expect(get(staff_client, "/tournaments/"), 200)}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_language_is_chosen_at_creation(staff_client, language):
    created = create_tournament(staff_client, name=f"Langue {language}", language=language)
    assert created["language"] == language
    assert Tournament.objects.get(slug=created["slug"]).language == language
    body = expect(post(staff_client, "/tournaments/", {**TOURNAMENT, "language": "de"}), 400)
    assert set(body) == {"language"}


def test_pairing_round_1_from_open_registration_locks_the_lists_then_starts(staff_user):
    event = build_event(staff_user, 4, lock=False)
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "registration_open"
    body = expect(pair(event.staff, event.slug), 201)
    assert body["number"] == 1 and len(body["games"]) == 2
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "running"
    # Audited as the status endpoint would log them, in order, before the round.
    assert status_steps(event.slug) == [
        ("draft", "registration_open"), ("registration_open", "lists_locked"),
        ("lists_locked", "running")]
    trail = [action for action, _data in actions(event.slug)]
    assert trail.index("round_paired") > max(i for i, a in enumerate(trail) if a == "status_changed")
    locking = AuditEntry.objects.get(tournament__slug=event.slug, action="status_changed",
                                     data__to="lists_locked")
    assert locking.actor == staff_user
    # The lists are locked now, and registration is closed.
    player_id, client = next(iter(event.clients.items()))
    expect(put(client, f"/tournaments/{event.slug}/players/{player_id}/list/", {"units": LEGAL_UNITS}),
           409, "list_locked")
    expect(post(client_for(make_user("late")), f"/tournaments/{event.slug}/players/", {"name": "Late"}),
           409, "registration_closed")


def test_a_refused_pairing_from_open_registration_leaves_it_open(staff_user):
    """The lock and the pairing are one transaction: a refusal undoes the lock and its log."""
    event = build_event(staff_user, 1, lock=False)
    expect(pair(event.staff, event.slug), 409, "not_enough_players")
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "registration_open"
    assert status_steps(event.slug) == [("draft", "registration_open")]
    assert not Round.objects.filter(tournament__slug=event.slug).exists()


def test_pairing_a_draft_round_from_open_registration_also_locks(staff_user):
    event = build_event(staff_user, 3, lock=False)
    body = expect(pair(event.staff, event.slug, draft=True), 201)
    assert body["number"] == 1
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "running"
    again = expect(pair(event.staff, event.slug, draft=True), 201)  # re-pairing the draft
    assert again["number"] == 1
    assert status_steps(event.slug)[1:] == [("registration_open", "lists_locked"),
                                            ("lists_locked", "running")]


def test_the_status_endpoint_moves_one_step_at_a_time(staff_client):
    slug = create_tournament(staff_client, name="Steps")["slug"]
    for target in ("running", "finished", "paused"):
        answer = post(staff_client, f"/tournaments/{slug}/status/", {"status": target})
        if target == "paused":
            assert "status" in expect(answer, 400)
        else:
            expect(answer, 409, "transition_not_allowed")
    for target in ("lists_locked", "running", "finished"):
        assert expect(post(staff_client, f"/tournaments/{slug}/status/", {"status": target}), 200)[
            "status"] == target
