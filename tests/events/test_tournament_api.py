"""Tournaments end to end through the API (api-v1 "Tournaments"): every operation, its answers
and its refusals, on the default database (SQLite)."""
import json
import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from armylists.models import ArmyList
from events.models import AuditEntry, Game, Player, Report, Round
from tests.tournament_fixtures import (
    ATTACKER_UNITS,
    DEFENDER_UNITS,
    LEGAL_UNITS,
    NO_TROOPS_UNITS,
    OVER_LIMIT_UNITS,
    ROSTER_TEXT,
    SPECIAL,
    STANDARD,
    TOURNAMENT,
    build_event,
    client_for,
    confirm,
    create_tournament,
    expect,
    get,
    list_path,
    make_user,
    pair,
    post,
    put,
    register,
    report,
    set_status,
    settle_round,
    special_seeds,
    submit_list,
)

pytestmark = pytest.mark.django_db
MISSION_SLUGS = set(STANDARD + SPECIAL)


def games_of(round_body):
    return [g for g in round_body["games"] if len(g["players"]) == 2]


def bye_of(round_body):
    byes = [g for g in round_body["games"] if len(g["players"]) == 1]
    assert len(byes) <= 1
    return byes[0] if byes else None


# --- Creating and reading a tournament -------------------------------------------------------

def test_staff_creates_a_tournament_and_every_field_round_trips(staff_client, anon):
    deadline = (timezone.now() + timedelta(days=3)).replace(microsecond=0)
    fields = {"name": "Ruines de Vraks", "chart": "w40k4-standard", "points_limit": 1750,
              "level": "omega", "rounds": 5, "on_six": "special", "missions": "per_table",
              "list_deadline": deadline.isoformat(), "seed": 987654, "language": "en"}
    created = create_tournament(staff_client, **fields, status="draft")
    assert created["slug"] == "ruines-de-vraks" and created["status"] == "draft"
    for key in ("name", "chart", "points_limit", "level", "rounds", "on_six", "missions", "seed",
                "language"):
        assert created[key] == fields[key], key
    read = expect(get(staff_client, "/tournaments/ruines-de-vraks/"), 200)
    assert read == created and created["player_count"] == 0
    assert timezone.datetime.fromisoformat(read["list_deadline"]) == deadline
    # A draft is the organisers' business: others do not even learn that it exists.
    expect(get(anon, "/tournaments/ruines-de-vraks/"), 404, "tournament_not_found")
    set_status(staff_client, "ruines-de-vraks", "registration_open")
    assert expect(get(anon, "/tournaments/ruines-de-vraks/"), 200)["status"] == "registration_open"


def test_missions_default_to_per_round_and_a_seed_is_drawn_when_absent(staff_client):
    first = create_tournament(staff_client)
    second = create_tournament(staff_client)
    assert first["missions"] == "per_round"
    assert isinstance(first["seed"], int) and 0 <= first["seed"] < 2**31
    assert first["slug"] != second["slug"]


@pytest.mark.parametrize("bad", [{"chart": "no-such-chart"}, {"level": "delta"}, {"points_limit": 0},
                                 {"on_six": "maybe"}, {"missions": "per_game"}, {"seed": -1}])
def test_malformed_tournament_is_a_field_error(staff_client, bad):
    body = expect(post(staff_client, "/tournaments/", {**TOURNAMENT, **bad}), 400)
    assert set(body) == set(bad)


def openapi_schema(client) -> dict:
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def tournament_component(schema: dict) -> dict:
    answer = schema["paths"]["/api/v1/tournaments/{slug}/"]["get"]["responses"]["200"]
    ref = answer["content"]["application/json"]["schema"]["$ref"]
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")


def test_every_tournament_answer_matches_the_schema(staff_user):
    """player_count was null in the answers of the status and publish-lists calls, where the
    schema says integer; every field that is null must be nullable in the schema."""
    event = build_event(staff_user, 2, lock=False)
    staff_client = event.staff
    component = tournament_component(openapi_schema(staff_client))
    count = component["properties"]["player_count"]
    assert count["type"] == "integer" and not count.get("nullable")
    assert "player_count" in component["required"]
    answers = [
        expect(get(staff_client, f"/tournaments/{event.slug}/"), 200),
        *expect(get(staff_client, "/tournaments/"), 200),
        set_status(staff_client, event.slug, "lists_locked"),
        expect(post(staff_client, f"/tournaments/{event.slug}/publish-lists/"), 200),
        create_tournament(staff_client, name="Fresh", list_deadline="2031-01-01T00:00:00+07:06"),
    ]
    assert [a["player_count"] for a in answers[:3]] + [answers[-1]["player_count"]] == [2, 2, 2, 0]
    for answer in answers:
        assert set(answer) == set(component["properties"])
        for key, value in answer.items():
            spec = component["properties"][key]
            if value is None:
                assert spec.get("nullable"), key
            elif spec.get("type") == "integer":
                assert isinstance(value, int), key
            elif spec.get("format") == "date-time":
                assert RFC3339.fullmatch(value), (key, value)


@pytest.mark.parametrize("sent", [
    "2030-05-01T10:00:00+07:06", "2030-05-01T10:00:00-03:30", "2030-05-01T10:00:00Z",
    # Before standard time Paris had local mean time (+00:09:21), which RFC 3339 cannot write.
    "1900-05-01T10:00:00+07:06", "1850-01-01T00:00:00-03:30",
])
def test_a_list_deadline_keeps_its_instant_with_an_offset_in_minutes(staff_client, sent):
    created = create_tournament(staff_client, name="Deadline", list_deadline=sent)
    read = expect(get(staff_client, f"/tournaments/{created['slug']}/"), 200)
    for echoed in (created["list_deadline"], read["list_deadline"]):
        assert RFC3339.fullmatch(echoed), echoed
        assert datetime.fromisoformat(echoed) == datetime.fromisoformat(sent)


def test_a_deadline_past_the_last_representable_moment_is_a_field_error(staff_client):
    body = expect(post(staff_client, "/tournaments/", {**TOURNAMENT, "list_deadline": "9999-12-31T23:30:00Z"}), 400)
    assert set(body) == {"list_deadline"}


def round_signature(event, round_body):
    """A round with player ids replaced by names, so two events can be compared."""
    def name(pid):
        return event.names[int(pid)]

    return {
        "number": round_body["number"],
        "mission": round_body["mission"] and round_body["mission"]["slug"],
        "rolls": round_body["rolls"],
        "games": [
            (g["table"], [name(p) for p in g["players"]], g["mission"] and g["mission"]["slug"],
             g["mission_rolls"], {name(p): role for p, role in g["roles"].items()},
             [r["total"] for r in g["pregame"]["rolls"]])
            for g in round_body["games"]
        ],
    }


def play_event(staff_user, prefix, seed, rounds=3):
    event = build_event(staff_user, 9, prefix=prefix, seed=seed, rounds=rounds, on_six="special",
                        missions="per_table", clubs=["A", "B", "C", ""])
    signatures = []
    for number in range(1, rounds + 1):
        body = expect(pair(event.staff, event.slug), 201)
        assert body["number"] == number
        signatures.append(round_signature(event, body))
        # Same calls in both events: table order decides who wins, a draw on every third table.
        settle_round(event, body, lambda i, g: None if i % 3 == 2 else g["players"][i % 2])
    standings = [(row["player"]["name"], row["points"]) for row in
                 expect(get(event.staff, f"/tournaments/{event.slug}/standings/"), 200)]
    return signatures, standings


def test_a_replay_with_the_same_seed_gives_the_same_missions_and_pairings(staff_user):
    first = play_event(staff_user, "a", seed=4242)
    replay = play_event(staff_user, "b", seed=4242)
    assert replay == first
    # The comparison has teeth: another seed changes the dice (and so the missions).
    other, _standings = play_event(staff_user, "c", seed=4243, rounds=1)
    assert [g[3] for g in other[0]["games"]] != [g[3] for g in first[0][0]["games"]]


# --- Lifecycle --------------------------------------------------------------------------------

def test_allowed_transitions_go_back_and_forth_then_finish(staff_client):
    slug = create_tournament(staff_client, status="draft")["slug"]
    set_status(staff_client, slug, "registration_open", "draft", "registration_open", "lists_locked",
               "registration_open", "lists_locked", "running", "finished")
    # Repeating the current status is a harmless double click.
    assert set_status(staff_client, slug, "finished")["status"] == "finished"


@pytest.mark.parametrize("path, target", [
    ([], "running"), ([], "lists_locked"), ([], "finished"),
    (["registration_open"], "running"), (["registration_open"], "finished"),
    (["registration_open", "lists_locked"], "draft"),
    (["registration_open", "lists_locked", "running"], "lists_locked"),
    (["registration_open", "lists_locked", "running"], "registration_open"),
    (["registration_open", "lists_locked", "running", "finished"], "running"),
    (["registration_open", "lists_locked", "running", "finished"], "draft"),
])
def test_refused_transitions_are_409(staff_client, path, target):
    slug = create_tournament(staff_client, status="draft")["slug"]
    before = set_status(staff_client, slug, *path)["status"] if path else "draft"
    expect(post(staff_client, f"/tournaments/{slug}/status/", {"status": target}), 409,
           "transition_not_allowed")
    assert expect(get(staff_client, f"/tournaments/{slug}/"), 200)["status"] == before


def test_unknown_status_is_a_field_error(staff_client):
    slug = create_tournament(staff_client)["slug"]
    assert "status" in expect(post(staff_client, f"/tournaments/{slug}/status/", {"status": "paused"}), 400)


def test_a_tournament_finishes_only_once_its_rounds_are_complete(staff_user):
    event = build_event(staff_user, 4)
    round_body = expect(pair(event.staff, event.slug), 201)
    expect(post(event.staff, f"/tournaments/{event.slug}/status/", {"status": "finished"}), 409,
           "rounds_unfinished")
    settle_round(event, round_body)
    set_status(event.staff, event.slug, "finished")


# --- Registration ------------------------------------------------------------------------------

def test_a_user_registers_themself_once_while_registration_is_open(staff_client):
    slug = create_tournament(staff_client, status="draft")["slug"]
    user = make_user("alice")
    alice = client_for(user)
    expect(post(alice, f"/tournaments/{slug}/players/", {"name": "Alice"}), 404,
           "tournament_not_found")  # a draft is invisible
    set_status(staff_client, slug, "registration_open")
    player = register(alice, slug, "Alice", club="Les Ruines", faction="Eldar")
    assert player["name"] == "Alice" and player["club"] == "Les Ruines"
    assert player["faction"] == "Eldar" and player["username"] == "alice"
    assert Player.objects.get(pk=player["id"]).user == user
    expect(post(alice, f"/tournaments/{slug}/players/", {"name": "Alice again"}), 409,
           "already_registered")
    set_status(staff_client, slug, "lists_locked")
    late = client_for(make_user("bob"))
    expect(post(late, f"/tournaments/{slug}/players/", {"name": "Bob"}), 409, "registration_closed")
    assert Player.objects.filter(tournament__slug=slug).count() == 1


def test_staff_register_players_with_and_without_an_account(staff_client):
    slug = create_tournament(staff_client, status="draft")["slug"]
    make_user("carol")
    # Staff may register while the event is still a draft, and after registration closed.
    walk_in = register(staff_client, slug, "Walk-in")
    assert walk_in["username"] is None
    set_status(staff_client, slug, "registration_open", "lists_locked")
    carol = register(staff_client, slug, "Carol", username="carol")
    assert carol["username"] == "carol"
    assert Player.objects.get(pk=carol["id"]).user.username == "carol"
    expect(post(staff_client, f"/tournaments/{slug}/players/", {"name": "C", "username": "carol"}), 409,
           "already_registered")
    expect(post(staff_client, f"/tournaments/{slug}/players/", {"name": "X", "username": "nobody"}), 400,
           "unknown_user")
    assert "name" in expect(post(staff_client, f"/tournaments/{slug}/players/", {"club": "x"}), 400)


def test_a_player_cannot_register_someone_else(staff_client):
    slug = create_tournament(staff_client)["slug"]
    set_status(staff_client, slug, "registration_open")
    make_user("victim")
    mallory = client_for(make_user("mallory"))
    expect(post(mallory, f"/tournaments/{slug}/players/", {"name": "V", "username": "victim"}),
           403, "staff_only")
    assert not Player.objects.exists()


# --- Lists ---------------------------------------------------------------------------------------

def test_list_put_answers_the_validation_report_in_the_readers_language(staff_user):
    event = build_event(staff_user, 1, lists=False, lock=False)
    (pid,) = event.clients
    me = event.client(pid)
    legal = expect(submit_list(me, event.slug, pid, LEGAL_UNITS), 200)
    assert legal["valid"] is True and legal["errors"] == [] and legal["total_points"] == 380
    assert legal["slots"]["troops"] == {"count": 2, "min": 2, "max": 6}
    en = expect(submit_list(me, event.slug, pid, OVER_LIMIT_UNITS), 200)
    fr = expect(submit_list(me, event.slug, pid, OVER_LIMIT_UNITS, HTTP_ACCEPT_LANGUAGE="fr"), 200)
    assert en["valid"] is False and [e["code"] for e in en["errors"]] == ["points_over_limit"]
    assert [e["code"] for e in fr["errors"]] == ["points_over_limit"]
    assert "limit" in en["errors"][0]["message"] and "limite" in fr["errors"][0]["message"]
    short = expect(submit_list(me, event.slug, pid, NO_TROOPS_UNITS), 200)
    assert [(e["code"], e["slot"]) for e in short["errors"]] == [("slot_below_min", "troops")]


def test_a_pasted_roster_is_read_and_validated(staff_user):
    event = build_event(staff_user, 1, lists=False, lock=False)
    (pid,) = event.clients
    body = expect(put(event.client(pid), list_path(event.slug, pid), {"roster": ROSTER_TEXT}), 200)
    assert body["valid"] is True and body["roster_format"] == "battlescribe_text"
    assert [(u["name"], u["slot"], u["points"]) for u in body["units"]] == [
        (u["name"], u["slot"], u["points"]) for u in LEGAL_UNITS]
    bad = put(event.client(pid), list_path(event.slug, pid), {"roster": "just some words"})
    expect(bad, 400, "roster_unreadable")


@pytest.mark.parametrize("role", [None, "attacker"])
def test_a_list_with_a_unit_in_no_slot_is_a_malformed_body(staff_user, role):
    event = build_event(staff_user, 1, lists=False, lock=False, on_six="special")
    (pid,) = event.clients
    me = event.client(pid)
    units = [*ATTACKER_UNITS, {"name": "Bastion", "slot": "fortification", "points": 50}]
    body = expect(submit_list(me, event.slug, pid, units, role=role), 400)
    assert list(body) == ["units"] and list(body["units"]) == [str(len(ATTACKER_UNITS))]
    assert "fortification" in body["units"][str(len(ATTACKER_UNITS))]["slot"][0]
    expect(get(me, list_path(event.slug, pid, role)), 404, "list_not_found")


def test_role_lists_follow_the_strike_and_withdraw_charts(staff_user):
    event = build_event(staff_user, 1, lists=False, lock=False, on_six="special")
    (pid,) = event.clients
    me = event.client(pid)
    attacker = expect(submit_list(me, event.slug, pid, ATTACKER_UNITS, role="attacker"), 200)
    assert attacker["valid"] is True and attacker["chart"] == "strike-and-withdraw-attacker"
    defender = expect(submit_list(me, event.slug, pid, DEFENDER_UNITS, role="defender"), 200)
    assert defender["valid"] is True and defender["chart"] == "strike-and-withdraw-defender"
    # The standard list is not a legal attacker list (no elites, no fast attack)...
    wrong = expect(submit_list(me, event.slug, pid, LEGAL_UNITS, role="attacker"), 200)
    assert {(e["code"], e["slot"]) for e in wrong["errors"]} == {
        ("slot_below_min", "elites"), ("slot_below_min", "fast_attack")}
    # ...and the attacker list is not a legal main list (no troops).
    main = expect(submit_list(me, event.slug, pid, ATTACKER_UNITS), 200)
    assert ("slot_below_min", "troops") in {(e["code"], e.get("slot")) for e in main["errors"]}
    read = expect(get(me, list_path(event.slug, pid, "defender")), 200)
    assert read["role"] == "defender" and read["chart"] == "strike-and-withdraw-defender"
    expect(submit_list(me, event.slug, pid, LEGAL_UNITS, role="general"), 400, "role_unknown")


def test_role_lists_exist_only_when_a_six_leads_to_special_missions(staff_user):
    event = build_event(staff_user, 1, lists=False, lock=False, on_six="reroll")
    (pid,) = event.clients
    expect(submit_list(event.client(pid), event.slug, pid, ATTACKER_UNITS, role="attacker"), 400,
           "role_unused")


def test_lists_lock_with_the_status_and_staff_unlock_one_resubmission(staff_user):
    event = build_event(staff_user, 2, lock=False, on_six="special")
    pid, other = event.clients
    set_status(event.staff, event.slug, "lists_locked")
    for client in (event.client(pid), event.staff):
        expect(submit_list(client, event.slug, pid, OVER_LIMIT_UNITS), 409, "list_locked")
        expect(submit_list(client, event.slug, pid, ATTACKER_UNITS, role="attacker"), 409,
               "list_locked")
    assert expect(get(event.client(pid), list_path(event.slug, pid)), 200)["locked"] is True
    unlock = f"/tournaments/{event.slug}/players/{pid}/list/unlock/"
    assert "reason" in expect(post(event.staff, unlock, {}), 400)
    expect(post(event.staff, unlock, {"reason": "  "}), 400)
    expect(post(event.staff, unlock, {"reason": "Wrong file uploaded"}), 200)
    assert expect(get(event.client(pid), list_path(event.slug, pid)), 200)["locked"] is False
    expect(submit_list(event.client(other), event.slug, other, OVER_LIMIT_UNITS), 409, "list_locked")
    fixed = expect(submit_list(event.client(pid), event.slug, pid, OVER_LIMIT_UNITS), 200)
    assert fixed["valid"] is False
    expect(submit_list(event.client(pid), event.slug, pid, LEGAL_UNITS), 409, "list_locked")
    current = expect(get(event.staff, list_path(event.slug, pid)), 200)
    assert current["id"] == fixed["id"] and current["locked"] is True
    reasons = AuditEntry.objects.filter(action="list_unlocked").values_list("data", flat=True)
    assert [d["reason"] for d in reasons] == ["Wrong file uploaded"]


def test_unlock_before_the_lock_is_refused_so_it_cannot_carry_over(staff_user):
    event = build_event(staff_user, 2, lock=False)
    pid, _other = event.clients
    unlock = f"/tournaments/{event.slug}/players/{pid}/list/unlock/"
    expect(post(event.staff, unlock, {"reason": "early"}), 409, "list_not_locked")
    set_status(event.staff, event.slug, "lists_locked")
    expect(submit_list(event.client(pid), event.slug, pid, LEGAL_UNITS), 409, "list_locked")


def test_account_names_show_only_to_staff_and_the_player_themself(staff_user, anon):
    event = build_event(staff_user, 2, lock=False)
    pid, other = event.clients
    path = f"/tournaments/{event.slug}/players/"
    by_id = {p["id"]: p["username"] for p in expect(get(event.client(pid), path), 200)}
    assert by_id[pid] is not None and by_id[other] is None
    assert all(p["username"] is None for p in expect(get(anon, path), 200))
    assert all(p["username"] is not None for p in expect(get(event.staff, path), 200))


def test_lists_lock_at_the_deadline(staff_client):
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    future = (timezone.now() + timedelta(days=1)).isoformat()
    late = create_tournament(staff_client, name="Late", list_deadline=past)["slug"]
    early = create_tournament(staff_client, name="Early", list_deadline=future)["slug"]
    for slug in (late, early):
        set_status(staff_client, slug, "registration_open")
    user = make_user("dave")
    me = client_for(user)
    late_player = register(me, late, "Dave")["id"]
    early_player = register(me, early, "Dave")["id"]
    expect(submit_list(me, late, late_player, LEGAL_UNITS), 409, "list_locked")
    expect(submit_list(staff_client, late, late_player, LEGAL_UNITS), 409, "list_locked")
    expect(submit_list(me, early, early_player, LEGAL_UNITS), 200)


def test_every_list_version_is_kept(staff_user):
    event = build_event(staff_user, 1, lists=False, lock=False)
    (pid,) = event.clients
    me = event.client(pid)
    ids = [expect(submit_list(me, event.slug, pid, units), 200)["id"]
           for units in (OVER_LIMIT_UNITS, NO_TROOPS_UNITS, LEGAL_UNITS)]
    ids.append(expect(submit_list(event.staff, event.slug, pid, OVER_LIMIT_UNITS), 200)["id"])
    current = expect(get(me, list_path(event.slug, pid)), 200)
    assert current["id"] == ids[-1] and current["valid"] is False
    assert current["report"]["errors"][0]["code"] == "points_over_limit"
    assert current["versions"] == ids[-2::-1]  # earlier versions, newest first
    chain = dict(ArmyList.objects.filter(pk__in=ids).values_list("pk", "supersedes_id"))
    assert chain == {ids[0]: None, ids[1]: ids[0], ids[2]: ids[1], ids[3]: ids[2]}


# --- Rounds ---------------------------------------------------------------------------------------

def check_round_shape(body, player_ids, *, per_table=False):
    assert isinstance(body["number"], int)
    if per_table:
        assert body["mission"] is None and body["rolls"] == []
    else:
        assert body["mission"]["slug"] in MISSION_SLUGS
        assert body["rolls"] and all(isinstance(r, int) and 1 <= r <= 6 for r in body["rolls"])
    seen = []
    for game in body["games"]:
        assert {"id", "table", "players", "mission", "roles", "list_problems"} <= set(game)
        seen += game["players"]
        if len(game["players"]) == 2:
            assert game["mission"]["slug"] in MISSION_SLUGS
            if not per_table:
                assert game["mission"] == body["mission"]
            assert set(game["roles"]) in (set(), {str(p) for p in game["players"]})
        else:
            assert game["table"] is None
    assert sorted(seen) == sorted(player_ids)
    tables = [g["table"] for g in games_of(body)]
    assert sorted(tables) == list(range(1, len(tables) + 1))


def test_pairing_a_round_publishes_it_with_the_documented_shape(staff_user, anon):
    event = build_event(staff_user, 8)
    body = expect(pair(event.staff, event.slug), 201)
    assert body["number"] == 1 and body["status"] == "published"
    check_round_shape(body, list(event.clients))
    assert len(body["games"]) == 4 and bye_of(body) is None
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "running"
    for reader in (anon, event.client(next(iter(event.clients)))):
        assert expect(get(reader, f"/tournaments/{event.slug}/rounds/1/"), 200) == body


def test_missions_rolled_per_table(staff_user):
    event = build_event(staff_user, 8, missions="per_table")
    body = expect(pair(event.staff, event.slug), 201)
    check_round_shape(body, list(event.clients), per_table=True)
    assert all(g["mission_rolls"] for g in body["games"])


def test_a_draft_round_is_hidden_re_paired_in_place_then_published(staff_user, anon):
    event = build_event(staff_user, 6)
    player = event.client(next(iter(event.clients)))
    draft = expect(pair(event.staff, event.slug, draft=True), 201)
    assert draft["number"] == 1 and draft["status"] == "draft"
    for reader in (anon, player):
        expect(get(reader, f"/tournaments/{event.slug}/rounds/1/"), 404, "round_not_found")
        assert get(reader, f"/tournaments/{event.slug}/rounds/").json() == []
        expect(get(reader, f"/games/{draft['games'][0]['id']}/"), 404, "game_not_found")
    expect(report(player, draft["games"][0]["id"], None), 404, "game_not_found")
    assert expect(get(event.staff, f"/tournaments/{event.slug}/rounds/1/"), 200) == draft
    again = expect(pair(event.staff, event.slug, draft=True), 201)
    assert again["number"] == 1 and again["status"] == "draft"
    assert Round.objects.filter(tournament__slug=event.slug).count() == 1
    assert not Game.objects.filter(pk__in=[g["id"] for g in draft["games"]]).exists()
    published = expect(post(event.staff, f"/tournaments/{event.slug}/rounds/1/publish/"), 200)
    assert published["status"] == "published" and published["games"] == again["games"]
    assert expect(get(player, f"/tournaments/{event.slug}/rounds/1/"), 200)["games"] == again["games"]
    expect(post(event.staff, f"/tournaments/{event.slug}/rounds/9/publish/"), 404, "round_not_found")


def test_re_pairing_a_published_round_needs_its_number_and_no_result(staff_user):
    event = build_event(staff_user, 6)
    first = expect(pair(event.staff, event.slug), 201)
    repair = f"/tournaments/{event.slug}/rounds/1/repair/"
    expect(post(event.staff, repair, {"confirm": 2}), 400, "confirmation_mismatch")
    assert "confirm" in expect(post(event.staff, repair, {}), 400)
    again = expect(post(event.staff, repair, {"confirm": 1}), 200)
    assert again["number"] == 1 and again["status"] == "published"
    assert {g["id"] for g in again["games"]}.isdisjoint({g["id"] for g in first["games"]})
    assert Round.objects.filter(tournament__slug=event.slug).count() == 1
    a, _b = again["games"][0]["players"]
    expect(report(event.client(a), again["games"][0]["id"], a), 200)
    expect(post(event.staff, repair, {"confirm": 1}), 409, "round_has_results")
    assert expect(get(event.staff, f"/tournaments/{event.slug}/rounds/1/"), 200)["games"] == [
        {**g, "status": "reported" if g["id"] == again["games"][0]["id"] else g["status"]}
        for g in again["games"]]


def test_next_round_waits_for_every_result_to_be_confirmed(staff_user):
    event = build_event(staff_user, 4, rounds=2)
    first = expect(pair(event.staff, event.slug), 201)
    expect(pair(event.staff, event.slug), 409, "round_unconfirmed")
    game = first["games"][0]
    a, b = game["players"]
    expect(report(event.client(a), game["id"], a), 200)
    expect(pair(event.staff, event.slug), 409, "round_unconfirmed")
    expect(confirm(event.client(b), game["id"]), 200)
    expect(pair(event.staff, event.slug), 409, "round_unconfirmed")  # the other table
    settle_round(event, {"games": first["games"][1:]})
    second = expect(pair(event.staff, event.slug), 201)
    assert second["number"] == 2
    settle_round(event, second)
    expect(pair(event.staff, event.slug), 409, "rounds_exhausted")


def test_pairing_a_draft_is_refused(staff_user):
    event = build_event(staff_user, 4, lock=False)
    set_status(event.staff, event.slug, "draft")
    expect(pair(event.staff, event.slug), 409, "registration_not_open")
    assert expect(get(event.staff, f"/tournaments/{event.slug}/"), 200)["status"] == "draft"
    assert not Round.objects.filter(tournament__slug=event.slug).exists()


def test_an_odd_field_gives_a_bye_that_needs_no_report(staff_user):
    event = build_event(staff_user, 7, rounds=3)
    first = expect(pair(event.staff, event.slug), 201)
    bye = bye_of(first)
    assert bye is not None and len(games_of(first)) == 3
    (lucky,) = bye["players"]
    assert bye["table"] is None
    expect(report(event.client(lucky), bye["id"], lucky), 409, "game_is_bye")
    settle_round(event, first)
    standings = expect(get(event.staff, f"/tournaments/{event.slug}/standings/"), 200)
    row = next(r for r in standings if r["player"]["id"] == lucky)
    assert (row["points"], row["wins"], row["losses"]) == (3, 1, 0)
    second = expect(pair(event.staff, event.slug), 201)
    assert bye_of(second)["players"] != [lucky]  # nobody gets a second bye while others can


def test_dropped_players_are_not_paired_again(staff_user):
    event = build_event(staff_user, 8, rounds=3)
    first = expect(pair(event.staff, event.slug), 201)
    settle_round(event, first)
    ids = list(event.clients)
    quitter, removed = ids[0], ids[1]
    path = f"/tournaments/{event.slug}/players/"
    assert expect(event.client(quitter).patch(f"/api/v1{path}{quitter}/", {"dropped": True},
                                              format="json"), 200)["dropped"] is True
    expect(event.staff.patch(f"/api/v1{path}{removed}/", {"dropped": True}, format="json"), 200)
    second = expect(pair(event.staff, event.slug), 201)
    paired = [p for g in second["games"] for p in g["players"]]
    assert sorted(paired) == sorted(ids[2:]) and bye_of(second) is None
    standings = expect(get(event.staff, f"/tournaments/{event.slug}/standings/"), 200)
    assert {r["player"]["id"] for r in standings} == set(ids)  # still ranked on what they played


def test_special_missions_give_roles_and_flag_players_without_a_legal_role_list(staff_user):
    """Assassinat: each role has its own Strike and Withdraw chart."""
    for seed in special_seeds("assassinat"):
        event = build_event(staff_user, 8, prefix=f"s{seed}-", seed=seed, on_six="special",
                            missions="per_table", lock=False)
        covered = set(list(event.clients)[::2])
        for pid in covered:
            expect(submit_list(event.client(pid), event.slug, pid, ATTACKER_UNITS, role="attacker"), 200)
            expect(submit_list(event.client(pid), event.slug, pid, DEFENDER_UNITS, role="defender"), 200)
        set_status(event.staff, event.slug, "lists_locked")
        body = expect(pair(event.staff, event.slug), 201)
        found = [g for g in body["games"] if g["mission"]["slug"] == "assassinat"]
        if found:
            break
    else:
        pytest.fail("no seed gives an Assassinat table")
    for game in found:
        assert sorted(game["roles"].values()) == ["attacker", "defender"]
        assert set(game["roles"]) == {str(p) for p in game["players"]}
        expected = {(p, game["roles"][str(p)]) for p in game["players"] if p not in covered}
        problems = game["list_problems"]
        assert {(p["player"], p["role"]) for p in problems} == expected
        for problem in problems:
            assert problem["code"] == "list_missing"
            assert problem["chart"] == f"strike-and-withdraw-{problem['role']}"
            assert problem["message"]
    stored = Game.objects.get(pk=found[0]["id"])
    assert stored.roles == found[0]["roles"]


def test_standard_missions_flag_missing_and_illegal_main_lists(staff_user):
    event = build_event(staff_user, 3, lock=False)
    ids = list(event.clients)
    expect(submit_list(event.client(ids[0]), event.slug, ids[0], OVER_LIMIT_UNITS), 200)
    no_list = register(event.staff, event.slug, "No list")["id"]  # four players: no bye
    set_status(event.staff, event.slug, "lists_locked")
    body = expect(pair(event.staff, event.slug), 201)
    problems = {p["player"]: p for g in body["games"] for p in g["list_problems"]}
    assert set(problems) == {ids[0], no_list}
    assert problems[ids[0]]["code"] == "list_invalid" and problems[no_list]["code"] == "list_missing"
    assert all(p["chart"] == "w40k4-standard" and p["role"] is None for p in problems.values())


# --- Results ---------------------------------------------------------------------------------------

@pytest.fixture
def one_game(staff_user):
    """A published round of two players: (event, game id, first player, second player)."""
    event = build_event(staff_user, 2)
    body = expect(pair(event.staff, event.slug), 201)
    game = body["games"][0]
    a, b = game["players"]
    return event, game["id"], a, b


def test_the_opponent_confirms_a_report_but_the_reporter_cannot(one_game):
    event, game, a, b = one_game
    assert expect(report(event.client(a), game, a, {a: 800, b: 200}), 200)["status"] == "reported"
    expect(confirm(event.client(a), game), 403, "own_report")
    assert expect(confirm(event.client(b), game), 200)["status"] == "confirmed"
    stored = Game.objects.get(pk=game)
    assert (stored.status, stored.winner_id, stored.victory_points) == (
        "confirmed", a, {str(a): 800, str(b): 200})
    (only,) = Report.objects.filter(game=stored)
    assert only.status == "confirmed" and only.confirmed_by == event.users[b]
    assert only.by_player_id == a
    expect(report(event.client(b), game, b), 409, "game_confirmed")
    expect(confirm(event.client(b), game), 200)  # a repeated confirmation is harmless


def test_a_matching_second_report_confirms(one_game):
    event, game, a, b = one_game
    expect(report(event.client(a), game, None, {a: 400, b: 400}), 200)
    assert expect(report(event.client(b), game, None, {a: 400, b: 400}), 200)["status"] == "confirmed"
    assert Game.objects.get(pk=game).winner_id is None
    statuses = list(Report.objects.filter(game_id=game).values_list("by_player_id", "status"))
    assert statuses == [(a, "superseded"), (b, "confirmed")]


def test_a_different_second_report_disputes_and_staff_settle_it(one_game):
    event, game, a, b = one_game
    expect(report(event.client(a), game, a, {a: 700, b: 100}), 200)
    assert expect(report(event.client(b), game, b, {a: 100, b: 700}), 200)["status"] == "disputed"
    expect(confirm(event.client(a), game), 409, "game_disputed")
    expect(confirm(event.client(b), game), 403, "own_report")
    assert expect(report(event.staff, game, b, {a: 300, b: 650}), 200)["status"] == "confirmed"
    stored = Game.objects.get(pk=game)
    assert (stored.status, stored.winner_id, stored.victory_points) == (
        "confirmed", b, {str(a): 300, str(b): 650})
    rows = list(Report.objects.filter(game=stored).values_list("by_player_id", "status", "winner_id"))
    assert rows == [(a, "superseded", a), (b, "superseded", b), (None, "confirmed", b)]
    standings = expect(get(event.staff, f"/tournaments/{event.slug}/standings/"), 200)
    assert [r["player"]["id"] for r in standings] == [b, a]


def test_staff_report_is_confirmed_at_once_and_a_dispute_needs_a_report(one_game):
    event, game, a, b = one_game
    expect(post(event.client(b), f"/games/{game}/dispute/", {}), 409, "nothing_to_dispute")
    expect(report(event.client(a), game, a), 200)
    assert expect(post(event.client(b), f"/games/{game}/dispute/", {"reason": "No!"}),
                  200)["status"] == "disputed"
    assert expect(report(event.staff, game, None), 200)["status"] == "confirmed"
    assert Report.objects.filter(game_id=game).count() == 2


def test_reports_are_checked_against_the_game(one_game):
    event, game, a, b = one_game
    stranger = client_for(make_user("stranger"))
    expect(report(stranger, game, a), 403, "not_your_game")
    expect(report(event.client(a), game, 999999), 400, "winner_not_in_game")
    expect(report(event.client(a), game, a, {999999: 3}), 400, "player_not_in_game")
    expect(report(event.client(a), 999999, a), 404, "game_not_found")
    assert "result" in expect(post(event.client(a), f"/games/{game}/report/", {}), 400)
    expect(confirm(event.client(b), game), 409, "nothing_to_confirm")
    assert not Report.objects.exists()


@pytest.mark.parametrize("declared, code", [
    (["piege", "sapeurs", "barricades"], "stratagem_limit"),  # gamma allows 2
    (["piege", "piege"], "stratagem_duplicate"),
])
def test_stratagem_limits_are_checked_at_report(one_game, declared, code):
    event, game, a, b = one_game
    expect(report(event.client(a), game, a, stratagems={a: ["piege", "sapeurs"]}), 200)
    expect(report(event.client(b), game, a, stratagems={b: declared}), 400, code)
    assert Report.objects.filter(game_id=game).count() == 1


def special_game(staff_user, mission, level):
    """A published round 1 of two players whose mission (rolled per round) is ``mission``."""
    event = build_event(staff_user, 2, seed=next(special_seeds(mission)), on_six="special",
                        level=level)
    body = expect(pair(event.staff, event.slug), 201)
    assert body["mission"]["slug"] == mission and body["rolls"] == [6, SPECIAL.index(mission) + 1]
    return event, body["games"][0]


def test_attaque_eclair_forbids_deployment_stratagems(staff_user):
    event, game = special_game(staff_user, "attaque-eclair", "alpha")
    a, b = game["players"]
    expect(report(event.client(a), game["id"], a, stratagems={b: ["infiltrateurs"]}), 400,
           "stratagem_forbidden")
    body = {"result": {"winner": a}, "stratagems": {str(a): ["rats-degouts"]}}
    en = expect(post(event.client(a), f"/games/{game['id']}/report/", body), 400,
                "stratagem_forbidden")
    fr = expect(post(event.client(a), f"/games/{game['id']}/report/", body,
                     HTTP_ACCEPT_LANGUAGE="fr"), 400, "stratagem_forbidden")
    assert en["detail"] != fr["detail"]
    assert not Report.objects.exists()
    expect(report(event.client(a), game["id"], a, stratagems={a: ["piege"], b: ["sapeurs"]}), 200)


def test_renforts_gives_the_defender_one_more_key_building(staff_user):
    event, game = special_game(staff_user, "renforts", "alpha")  # alpha: one stratagem each
    roles = {role: int(pid) for pid, role in game["roles"].items()}
    attacker, defender = roles["attacker"], roles["defender"]
    two = ["piege", "depot-de-munitions"]
    expect(report(event.client(attacker), game["id"], None, stratagems={attacker: two}), 400,
           "stratagem_limit")
    expect(report(event.client(attacker), game["id"], None,
                  stratagems={defender: ["piege", "sapeurs"]}), 400, "stratagem_limit")
    expect(report(event.client(attacker), game["id"], None,
                  stratagems={defender: two, attacker: ["sapeurs"]}), 200)


# --- Standings -------------------------------------------------------------------------------------

def test_standings_count_confirmed_results_only(staff_user, anon):
    event = build_event(staff_user, 6, tiebreaks=["vp_diff", "sos"])
    body = expect(pair(event.staff, event.slug), 201)
    (g1, g2, g3) = body["games"]
    settle_round(event, {"games": [g1]})  # first player wins 900–300
    settle_round(event, {"games": [g2]}, lambda i, g: None)  # a draw, 500–500
    a3, b3 = g3["players"]
    expect(report(event.client(b3), g3["id"], b3, {a3: 0, b3: 1000}), 200)  # not confirmed
    rows = expect(get(anon, f"/tournaments/{event.slug}/standings/"), 200)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]
    for row in rows:
        assert {"rank", "player", "points", "wins", "draws", "losses", "tiebreakers"} <= set(row)
        assert set(row["player"]) == {"id", "name"}
        assert row["player"]["name"] == event.names[row["player"]["id"]]
        assert list(row["tiebreakers"]) == ["vp_diff", "sos"]
    by_id = {r["player"]["id"]: r for r in rows}
    winner, loser = g1["players"]
    assert (by_id[winner]["points"], by_id[winner]["wins"]) == (3, 1)
    assert (by_id[loser]["points"], by_id[loser]["losses"]) == (0, 1)
    assert by_id[winner]["tiebreakers"]["vp_diff"] == 600
    for pid in g2["players"]:
        assert (by_id[pid]["points"], by_id[pid]["draws"]) == (1, 1)
    for pid in g3["players"]:
        assert (by_id[pid]["points"], by_id[pid]["wins"], by_id[pid]["losses"]) == (0, 0, 0)
    assert rows[0]["player"]["id"] == winner and rows[-1]["player"]["id"] == loser
    points = [r["points"] for r in rows]
    assert points == sorted(points, reverse=True)


# --- Query budgets ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [16, 64])
def test_query_budgets_do_not_grow_with_the_field(staff_user, players, django_assert_max_num_queries):
    event = build_event(staff_user, players, rounds=3)
    first = expect(pair(event.staff, event.slug), 201)
    settle_round(event, first, lambda i, g: None if i % 4 == 0 else g["players"][0])
    # The same constants for 16 and 64 players: a query per player or per game would add 8 to
    # 32. Pairing: 25 on SQLite and 26 on PostgreSQL at both sizes (the round's dice are one
    # batch row, its published notice one QueuedNotice row of notices.outbox;
    # tests/events/test_round_pairing_queries.py checks the sizes agree).
    with django_assert_max_num_queries(26):
        second = expect(pair(event.staff, event.slug), 201)
    with django_assert_max_num_queries(5):
        expect(get(client_for(None), f"/tournaments/{event.slug}/rounds/2/"), 200)
    with django_assert_max_num_queries(5):
        expect(get(client_for(None), f"/tournaments/{event.slug}/standings/"), 200)
    game = second["games"][-1]
    a, b = game["players"]
    with django_assert_max_num_queries(14):
        expect(report(event.client(a), game["id"], a, {a: 10, b: 5}, {a: ["piege"]}), 200)
    with django_assert_max_num_queries(14):
        expect(confirm(event.client(b), game["id"]), 200)
