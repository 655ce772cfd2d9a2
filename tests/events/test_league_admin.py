"""The organiser's cockpit in the admin: pages open, buttons and actions go through the league
services (state changed, audit entry written by the signed-in organiser), refusals come back as
messages, exports and the CSV import work."""
import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armylists.models import Chart
from armylists.validation import Entry
from events.audit import SYSTEM, Actor
from events.models import AuditEntry, Game, Player, Report, Round, Tournament
from events.services import imports, lists, results, rounds, tournaments
from missions.models import Level

pytestmark = pytest.mark.django_db

LEGAL = [Entry("Captain", "hq", 100), Entry("Tactical Squad", "troops", 180, 10),
         Entry("Tactical Squad", "troops", 180, 10)]
ILLEGAL = [Entry("Captain", "hq", 2000)]  # over the points limit, and no troops


def url(name: str, *args) -> str:
    return reverse(f"admin:{name}", args=args)


def new_tournament(name: str = "Cup", rounds_: int = 3, seed: int = 1) -> Tournament:
    return tournaments.create_tournament(
        SYSTEM, name=name, chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="alpha"), rounds=rounds_, seed=seed)


def build(n: int = 6, *, lock: bool = True, users: bool = False, rounds_: int = 3,
          names: list[str] | None = None) -> tuple[Tournament, list[Player]]:
    """A tournament with ``n`` players (accounts p0.. when ``users``), lists locked if ``lock``."""
    t = new_tournament(rounds_=rounds_)
    tournaments.transition(SYSTEM, t, "registration_open")
    players = []
    for i, name in enumerate(names or [f"P{i}" for i in range(n)]):
        username = None
        if users:
            username = get_user_model().objects.create_user(f"p{i}").username
        players.append(tournaments.register_player(SYSTEM, t, name=name, username=username,
                                                   club=f"Club {i % 3}"))
    if lock:
        tournaments.transition(SYSTEM, t, "lists_locked")
    t.refresh_from_db()
    return t, players


def texts(response) -> list[str]:
    """Messages waiting for the next page (not yet shown ones included)."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def last_message(response) -> str:
    return texts(response)[-1]


def act(client, t: Tournament, action: str, **data):
    return client.post(url("league_tournament_action", t.pk, action), data)


def audit(action: str, user=None) -> AuditEntry:
    entry = AuditEntry.objects.filter(action=action).latest("pk")
    if user is not None:
        assert entry.actor == user and entry.ip == "127.0.0.1"
    return entry


def admin_user():
    return get_user_model().objects.get(username="admin")


def settle_all(client, round_: Round) -> None:
    for game in round_.games.exclude(player_b=None):
        response = client.post(url("league_game_settle", game.pk), {"result": "a", "vp_a": 500, "vp_b": 100})
        assert response.status_code == 302


# Pages ---------------------------------------------------------------------------------

def test_every_page_of_the_cockpit_opens(admin_client):
    t, players = build(5)
    lists.unlock_list(SYSTEM, players[0], "test")
    lists.unlock_list(SYSTEM, players[1], "test")
    lists.submit_list(SYSTEM, players[0], role="", entries=LEGAL)
    lists.submit_list(SYSTEM, players[1], role="", entries=ILLEGAL)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=True)
    game = round_.games.exclude(player_b=None).first()
    bye = round_.games.get(player_b=None)
    entry = AuditEntry.objects.first()
    pages = [
        url("league_tournament_changelist"), url("league_tournament_add"),
        url("league_tournament_change", t.pk), url("league_round_changelist"),
        url("league_round_change", round_.pk), url("league_game_changelist"),
        url("league_game_change", game.pk), url("league_game_change", bye.pk),
        url("league_player_changelist"), url("league_player_change", players[0].pk),
        url("league_player_add"), url("league_auditentry_changelist"),
        url("league_auditentry_change", entry.pk), url("league_tournament_import", t.pk),
        url("league_tournament_repair", t.pk),
    ]
    for page in pages:
        assert admin_client.get(page).status_code == 200, page
    change = admin_client.get(url("league_tournament_change", t.pk)).content.decode()
    assert all(p.name in change for p in players)
    # The inline shows each player's main list: one legal, one illegal, three never sent.
    assert change.count(">valid<") == 1 and change.count(">invalid<") == 1
    assert change.count(">missing<") == 3
    assert url("league_round_change", round_.pk) in change
    round_page = admin_client.get(url("league_round_change", round_.pk)).content.decode()
    assert "DRAFT" in round_page and url("league_game_change", game.pk) in round_page
    assert all(p.name in round_page for p in players)


def test_publishing_from_the_round_page_comes_back_to_it(admin_client):
    t, _players = build(4)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=True)
    page = url("league_round_change", round_.pk)
    assert "Publish round 1" in admin_client.get(page).content.decode()
    response = act(admin_client, t, "publish_round", number=1, next=page)
    assert response["Location"] == page and Round.objects.get(pk=round_.pk).status == "published"
    elsewhere = act(admin_client, t, "publish_round", number=1, next="https://evil.example/")
    assert elsewhere["Location"] == url("league_tournament_change", t.pk)


def test_round_page_shows_list_problems_and_deviations(admin_client):
    t, players = build(4)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    game = round_.games.exclude(player_b=None).first()
    Game.objects.filter(pk=game.pk).update(deviations=["same_club"])
    page = admin_client.get(url("league_round_change", round_.pk)).content.decode()
    assert "same club" in page
    # Nobody sent a list; the chart is named, never shown by its key.
    assert "No list submitted for the chart Standard force organisation chart." in page
    assert "w40k4-standard" not in page
    assert "DRAFT" not in page


# Creating and editing a tournament ---------------------------------------------------------

def settings_form(**overrides) -> dict:
    data = {
        "name": "Spring Cup", "slug": "", "chart": Chart.objects.get(slug="w40k4-standard").pk,
        "points_limit": 1500, "level": Level.objects.get(slug="gamma").pk, "rounds": 4,
        "on_six": "reroll", "missions": "per_round", "language": "fr", "win_points": 3,
        "draw_points": 1, "loss_points": 0, "bye_points": "win",
        "tiebreaks": "sos, vp_diff", "bye_priority": "strict", "club_weight": "avoid",
        "faction_weight": "ignore", "seed": "", "starts_on": "", "list_deadline_0": "",
        "list_deadline_1": "",
    }
    return {**data, **overrides}


def test_adding_a_tournament_goes_through_the_service(admin_client):
    response = admin_client.post(url("league_tournament_add"), settings_form())
    assert response.status_code == 302
    t = Tournament.objects.get(name="Spring Cup")
    assert t.slug == "spring-cup" and t.status == "draft"
    assert t.dice.seed == t.seed and t.created_by == admin_user()
    assert t.tiebreaks == ["sos", "vp_diff"]
    assert audit("tournament_created", admin_user()).data == {"seed": t.seed}
    admin_client.post(url("league_tournament_add"), settings_form(name="Seeded", seed="42"))
    assert Tournament.objects.get(name="Seeded").seed == 42


def test_unknown_tiebreak_is_refused_in_the_form(admin_client):
    response = admin_client.post(url("league_tournament_add"), settings_form(tiebreaks="sos, luck"))
    assert response.status_code == 200
    assert "Unknown tiebreaker: luck." in response.content.decode()
    assert not Tournament.objects.filter(name="Spring Cup").exists()


def change_form(t: Tournament, players: list[Player] = (), **overrides) -> dict:
    """The tournament's change form as the page would post it, with its players inline."""
    data = settings_form(name=t.name, points_limit=t.points_limit, rounds=t.rounds,
                         level=t.level_id, tiebreaks=", ".join(t.tiebreaks))
    del data["slug"], data["seed"]
    data.update({"players-TOTAL_FORMS": len(players), "players-INITIAL_FORMS": len(players),
                 "players-MIN_NUM_FORMS": 0, "players-MAX_NUM_FORMS": 1000})
    for i, p in enumerate(players):
        data.update({f"players-{i}-id": p.pk, f"players-{i}-tournament": t.pk,
                     f"players-{i}-name": p.name, f"players-{i}-club": p.club,
                     f"players-{i}-faction": p.faction})
        if p.checked_in:
            data[f"players-{i}-checked_in"] = "on"
    data.update(overrides)
    return data


def test_status_is_read_only_but_settings_save(admin_client):
    t, players = build(2, lock=False)
    data = change_form(t, players, points_limit=2000, status="finished")
    response = admin_client.post(url("league_tournament_change", t.pk), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    t.refresh_from_db()
    assert t.points_limit == 2000 and t.status == "registration_open"
    assert audit("settings_changed", admin_user()).data == {"fields": ["points_limit"]}


def test_chart_and_points_are_fixed_once_lists_are_locked(admin_client):
    t, players = build(2)
    data = change_form(t, players, points_limit=2000, rounds=5)
    assert admin_client.post(url("league_tournament_change", t.pk), data).status_code == 302
    t.refresh_from_db()
    assert (t.points_limit, t.rounds, t.status) == (1500, 5, "lists_locked")
    assert audit("settings_changed", admin_user()).data == {"fields": ["rounds"]}


def test_inline_check_in_and_walk_in_go_through_the_services(admin_client):
    t, players = build(2, lock=False)
    data = change_form(t, players)
    data["players-1-checked_in"] = "on"
    data.update({"players-TOTAL_FORMS": 3, "players-2-tournament": t.pk,
                 "players-2-name": "Walk-in", "players-2-club": "Late Club"})
    response = admin_client.post(url("league_tournament_change", t.pk), data)
    assert response.status_code == 302
    assert Player.objects.get(pk=players[1].pk).checked_in
    assert not Player.objects.get(pk=players[0].pk).checked_in
    changed = audit("player_changed", admin_user())
    assert changed.data["player"] == players[1].pk and changed.data["after"] == {"checked_in": True}
    walk_in = Player.objects.get(tournament=t, name="Walk-in")
    assert audit("player_registered", admin_user()).data["player"] == walk_in.pk


def test_a_refused_inline_change_rolls_back_and_shows_the_reason(admin_client):
    t, players = build(1, lock=False)
    Tournament.objects.filter(pk=t.pk).update(status="finished")  # registration refused now
    data = change_form(t, players, points_limit=999)
    data.update({"players-TOTAL_FORMS": 2, "players-1-tournament": t.pk, "players-1-name": "Late"})
    response = admin_client.post(url("league_tournament_change", t.pk), data)
    assert response.status_code == 302
    assert "This tournament is finished." in texts(response)
    t.refresh_from_db()
    assert t.points_limit == 1500 and not t.players.filter(name="Late").exists()


# Buttons of the organiser's desk -----------------------------------------------------------

def test_a_whole_event_run_from_the_buttons(admin_client):
    t = new_tournament(rounds_=2)
    me = admin_user()
    response = act(admin_client, t, "status", target="registration_open")
    assert response.status_code == 302 and Tournament.objects.get(pk=t.pk).status == "registration_open"
    assert audit("status_changed", me).data == {"from": "draft", "to": "registration_open"}
    for i in range(5):
        tournaments.register_player(SYSTEM, t, name=f"P{i}")
    act(admin_client, t, "status", target="lists_locked")
    assert Tournament.objects.get(pk=t.pk).status == "lists_locked"
    act(admin_client, t, "publish_lists")
    assert Tournament.objects.get(pk=t.pk).lists_published and audit("lists_published", me)
    act(admin_client, t, "hide_lists")
    assert not Tournament.objects.get(pk=t.pk).lists_published and audit("lists_hidden", me)

    response = act(admin_client, t, "pair_draft")
    round_ = Round.objects.get(tournament=t, number=1)
    assert round_.status == "draft" and audit("round_paired", me).data["round"] == 1
    deviations = sum(len(g.deviations) for g in round_.games.all())
    assert last_message(response) == (
        "Round 1 paired as a draft (players do not see it yet): 2 tables, 1 bye, "
        f"{deviations} pairing deviation{'' if deviations == 1 else 's'}.")
    act(admin_client, t, "publish_round", number=1)
    round_.refresh_from_db()
    assert round_.status == "published" and audit("round_published", me).data == {"round": 1}
    assert Tournament.objects.get(pk=t.pk).status == "running"

    settle_all(admin_client, round_)
    round_.refresh_from_db()
    assert round_.status == "completed"
    response = act(admin_client, t, "pair_publish")
    assert last_message(response).startswith("Round 2 paired and published: 2 tables, 1 bye")
    round2 = Round.objects.get(tournament=t, number=2)
    assert round2.status == "published"
    settle_all(admin_client, round2)
    # Finishing asks for the event's name typed (like re-pairing asks for the round number).
    act(admin_client, t, "status", target="finished")
    assert Tournament.objects.get(pk=t.pk).status == "running"
    admin_client.post(url("league_tournament_finish", t.pk), {"confirmation": f"  {t.name.upper()} "})
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    assert audit("status_changed", me).data == {"from": "running", "to": "finished"}


def test_start_and_reopen_buttons(admin_client):
    t, _players = build(4)
    act(admin_client, t, "status", target="registration_open")
    assert Tournament.objects.get(pk=t.pk).status == "registration_open"
    act(admin_client, t, "status", target="lists_locked")
    act(admin_client, t, "status", target="running")
    assert Tournament.objects.get(pk=t.pk).status == "running"
    assert AuditEntry.objects.filter(action="status_changed", actor=admin_user()).count() == 3


def test_changelist_action_moves_the_selected_tournaments(admin_client):
    first, second = new_tournament("A"), new_tournament("B")
    response = admin_client.post(url("league_tournament_changelist"), {
        "action": "make_registration_open", "_selected_action": [first.pk, second.pk]})
    assert response.status_code == 302
    assert set(Tournament.objects.values_list("status", flat=True)) == {"registration_open"}
    assert AuditEntry.objects.filter(action="status_changed", actor=admin_user()).count() == 2


@pytest.mark.parametrize(("status", "action", "data", "message"), [
    ("draft", "pair_draft", {}, "Open registration before pairing the first round."),
    ("draft", "status", {"target": "finished"},
     "A tournament that is “draft” cannot become “finished”."),
    ("lists_locked", "publish_round", {"number": "7"}, "No such round."),
    ("lists_locked", "publish_round", {}, "Say which round."),
])
def test_a_refusal_is_a_message_not_an_error_page(admin_client, status, action, data, message):
    t = new_tournament()
    Tournament.objects.filter(pk=t.pk).update(status=status)
    response = act(admin_client, t, action, **data)
    assert response.status_code == 302
    assert texts(response) == [message]
    assert Tournament.objects.get(pk=t.pk).status == status and not Round.objects.exists()


def test_finishing_with_an_open_round_is_refused(admin_client):
    t, _players = build(4)
    rounds.pair_next_round(SYSTEM, t)
    response = act(admin_client, t, "status", target="finished", confirmation=t.name)
    assert texts(response) == ["Every round must be complete before the tournament finishes."]
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_an_unknown_action_or_a_get_changes_nothing(admin_client):
    t = new_tournament()
    assert admin_client.post(url("league_tournament_action", t.pk, "explode")).status_code == 404
    assert admin_client.get(url("league_tournament_action", t.pk, "publish_lists")).status_code == 405
    assert not Tournament.objects.get(pk=t.pk).lists_published


def test_repairing_a_published_round_needs_its_number(admin_client):
    t, _players = build(6)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    before = set(round_.games.values_list("pk", flat=True))
    page = admin_client.get(url("league_tournament_repair", t.pk))
    assert "Type 1." in page.content.decode()

    wrong = admin_client.post(url("league_tournament_repair", t.pk), {"confirmation": "2"})
    assert wrong.status_code == 200
    assert texts(wrong) == ["Type the round number (1) to confirm."]
    assert set(round_.games.values_list("pk", flat=True)) == before

    right = admin_client.post(url("league_tournament_repair", t.pk), {"confirmation": "1"})
    assert right.status_code == 302
    assert texts(right)[0].startswith("Round 1 paired again and published: 3 tables, 0 byes")
    round_.refresh_from_db()
    after = set(round_.games.values_list("pk", flat=True))
    assert round_.status == "published" and len(after) == 3 and not after & before
    assert audit("round_unpublished", admin_user()) and audit("round_repaired", admin_user())


def test_repairing_is_refused_once_a_result_is_in(admin_client):
    t, _players = build(4)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    settle_all(admin_client, round_)
    response = admin_client.post(url("league_tournament_repair", t.pk), {"confirmation": "1"})
    assert response.status_code == 200
    assert last_message(response) == (
        "Results have been reported in this round: it can no longer be paired again.")


# Results ---------------------------------------------------------------------------------

def test_settling_a_disputed_game(admin_client):
    t, players = build(2, users=True)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    game = round_.games.get()
    a, b = game.player_a, game.player_b
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    results.report(Actor(user=b.user), game.pk, results.ResultInput(winner=b.pk))
    assert Game.objects.get(pk=game.pk).status == "disputed"
    page = admin_client.get(url("league_game_change", game.pk)).content.decode()
    assert "Settle the dispute" in page and page.count("<td>disputed</td>") == 2

    response = admin_client.post(url("league_game_settle", game.pk),
                                 {"result": "b", "vp_a": "120", "vp_b": "830", "comment": "photo"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == "confirmed" and game.winner_id == b.pk
    assert game.victory_points == {str(a.pk): 120, str(b.pk): 830}
    statuses = list(Report.objects.filter(game=game).order_by("pk").values_list("status", flat=True))
    assert statuses == ["superseded", "superseded", "confirmed"]  # every report kept
    staff_report = Report.objects.filter(game=game).latest("pk")
    assert staff_report.by_staff and staff_report.reporter == admin_user()
    assert audit("result_confirmed", admin_user()).data["by_staff"] is True
    round_.refresh_from_db()
    assert round_.status == "completed"


def test_settle_form_errors_and_draft_games(admin_client):
    t, _players = build(2)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=True)
    game = round_.games.get()
    assert "Publish the round before entering results." in admin_client.get(
        url("league_game_change", game.pk)).content.decode()
    response = admin_client.post(url("league_game_settle", game.pk), {"result": "draw"})
    assert texts(response) == ["Publish the round before reporting results."]
    rounds.publish_round(SYSTEM, t, 1)
    response = admin_client.post(url("league_game_settle", game.pk), {"result": "a", "vp_a": "-5"})
    assert response.status_code == 302
    assert last_message(response) == (
        f"victory points of {game.player_a.name}: Ensure this value is greater than or equal to 0.")
    assert Game.objects.get(pk=game.pk).status == "pending" and not Report.objects.exists()
    admin_client.post(url("league_game_settle", game.pk), {"result": "draw"})
    game.refresh_from_db()
    assert game.status == "confirmed" and game.winner_id is None


# Players -------------------------------------------------------------------------------------

def test_unlock_asks_for_a_reason(admin_client):
    t, players = build(3)
    target = players[1]
    changelist = url("league_player_changelist")
    base = {"action": "unlock_list", "_selected_action": [target.pk]}
    page = admin_client.post(changelist, base)
    assert page.status_code == 200 and "Reason" in page.content.decode()
    assert not Player.objects.get(pk=target.pk).list_unlocked
    empty = admin_client.post(changelist, {**base, "apply": "1", "reason": "  "})
    assert empty.status_code == 200 and not Player.objects.get(pk=target.pk).list_unlocked
    done = admin_client.post(changelist, {**base, "apply": "1", "reason": "typo in one unit"})
    assert done.status_code == 302
    assert Player.objects.get(pk=target.pk).list_unlocked
    assert audit("list_unlocked", admin_user()).data == {"player": target.pk, "reason": "typo in one unit"}
    assert not Player.objects.get(pk=players[0].pk).list_unlocked


@pytest.mark.parametrize(("action", "field", "value"), [
    ("players_checked_in_true", "checked_in", True),
    ("players_dropped_true", "dropped", True),
])
def test_check_in_and_drop_actions(admin_client, action, field, value):
    t, players = build(3, lock=False)
    chosen = [players[0].pk, players[2].pk]
    response = admin_client.post(url("league_player_changelist"),
                                 {"action": action, "_selected_action": chosen})
    assert response.status_code == 302 and last_message(response).startswith("2 players ")
    assert set(Player.objects.filter(**{field: value}).values_list("pk", flat=True)) == set(chosen)
    entries = AuditEntry.objects.filter(action="player_changed", actor=admin_user())
    assert sorted(e.data["player"] for e in entries) == sorted(chosen)
    assert all(e.data["after"] == {field: value} for e in entries)


def test_check_out_and_bring_back(admin_client):
    t, players = build(2, lock=False)
    tournaments.update_player(SYSTEM, players[0], checked_in=True, dropped=True)
    for action in ("players_checked_in_false", "players_dropped_false"):
        admin_client.post(url("league_player_changelist"),
                          {"action": action, "_selected_action": [players[0].pk]})
    player = Player.objects.get(pk=players[0].pk)
    assert not player.checked_in and not player.dropped


def test_adding_and_editing_a_player_go_through_the_services(admin_client):
    t = new_tournament()
    get_user_model().objects.create_user("anne")
    user = get_user_model().objects.get(username="anne")
    response = admin_client.post(url("league_player_add"), {
        "tournament": t.pk, "user": user.pk, "name": "Anne", "club": "", "faction": "Orks"})
    assert response.status_code == 302
    player = Player.objects.get(name="Anne")
    assert player.user == user and audit("player_registered", admin_user()).data["player"] == player.pk
    response = admin_client.post(url("league_player_change", player.pk), {
        "name": "Anne M.", "club": "Loups", "faction": "Orks", "checked_in": "on"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.club, player.checked_in) == ("Anne M.", "Loups", True)
    assert audit("player_changed", admin_user()).data["after"] == {
        "name": "Anne M.", "club": "Loups", "checked_in": True}
    # The same account twice in one event: the page answers, nothing is added.
    again = admin_client.post(url("league_player_add"), {
        "tournament": t.pk, "user": user.pk, "name": "Anne bis"})
    assert again.status_code == 200 and Player.objects.filter(user=user).count() == 1
    assert "This account is already registered for this tournament." in again.content.decode()
    assert "player_user_once" not in again.content.decode()


# Exports ----------------------------------------------------------------------------------

def exported_event(admin_client):
    names = ["Zoé Ärger", "=cmd|' /C calc'!A0", "Bob; the \"Builder\"", "Dan", "Eve"]
    t, players = build(names=names, lock=False)
    lists.submit_list(SYSTEM, players[0], role="", entries=LEGAL)
    lists.submit_list(SYSTEM, players[1], role="", entries=ILLEGAL)
    tournaments.transition(SYSTEM, t, "lists_locked")
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    settle_all(admin_client, round_)
    return t, players, names


def test_json_export_holds_the_whole_event(admin_client):
    t, players, names = exported_event(admin_client)
    response = admin_client.get(url("league_tournament_export_json", t.pk))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["tournament"]["seed"] == 1 and data["tournament"]["chart"] == "w40k4-standard"
    assert sorted(p["name"] for p in data["players"]) == sorted(names)
    validity = {p["name"]: [x["versions"][-1]["valid"] for x in p["lists"]] for p in data["players"]}
    assert validity[names[0]] == [True] and validity[names[1]] == [False] and validity["Dan"] == []
    assert sorted(s["player"]["name"] for s in data["standings"]) == sorted(names)
    games = data["rounds"][0]["games"]
    assert len(games) == 3  # two tables and a bye
    played = [g for g in games if len(g["players"]) == 2]
    assert all(g["status"] == "confirmed" and len(g["reports"]) == 1 for g in played)
    assert all(g["reports"][0]["by_staff"] for g in played)


def read_csv(response, delimiter=","):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:]), delimiter=delimiter))


@pytest.mark.parametrize("sep", [",", ";"])
def test_standings_csv(admin_client, sep):
    t, players, names = exported_event(admin_client)
    query = "?sep=semicolon" if sep == ";" else ""
    rows = read_csv(admin_client.get(url("league_tournament_standings_csv", t.pk) + query), sep)
    # The formula-looking name comes back quoted so a spreadsheet shows it as text.
    assert sorted(r["player"] for r in rows) == sorted(
        "'" + n if n.startswith("=") else n for n in names)
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4, 5]
    assert list(rows[0])[-len(t.tiebreaks):] == t.tiebreaks
    winners = {g.winner.name for g in Game.objects.exclude(winner=None)}
    top = [r for r in rows if int(r["points"]) == 3]
    assert len(top) == 3 and {r["player"].lstrip("'") for r in top} >= winners


def test_pairings_csv(admin_client):
    t, players, names = exported_event(admin_client)
    rows = read_csv(admin_client.get(url("league_tournament_pairings_csv", t.pk)))
    assert len(rows) == 3
    seen = {r["player_a"] for r in rows} | {r["player_b"] for r in rows}
    assert seen - {""} == {"'" + n if n.startswith("=") else n for n in names}
    assert sum(1 for r in rows if r["player_b"] == "") == 1  # the bye
    only_round_2 = read_csv(admin_client.get(url("league_tournament_pairings_csv", t.pk) + "?round=2"))
    assert only_round_2 == []


# CSV import -------------------------------------------------------------------------------

def upload(admin_client, t: Tournament, text: str | bytes, name: str = "players.csv"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return admin_client.post(url("league_tournament_import", t.pk),
                             {"file": SimpleUploadedFile(name, data, content_type="text/csv")})


@pytest.mark.parametrize("content", [
    "name,club,faction,username\nAnne Martin,Les Loups,Orks,anne\nBruno,,\"Space Marines, Ultramar\",\n",
    "\ufeffNom;Club;Armée;email\r\nAnne Martin;Les Loups;Orks;a@example.org\r\n"
    "Bruno;;Space Marines, Ultramar;\r\n\r\n",
])
def test_import_registers_every_player(admin_client, content):
    t = new_tournament()
    Tournament.objects.filter(pk=t.pk).update(free_faction=True)  # "Space Marines, Ultramar"
    get_user_model().objects.create_user("anne")
    response = upload(admin_client, t, content)
    assert response.status_code == 302
    got = {p.name: (p.club, p.faction, p.user.username if p.user else None) for p in t.players.all()}
    expected_user = "anne" if "username" in content else None
    assert got == {"Anne Martin": ("Les Loups", "Orks", expected_user),
                   "Bruno": ("", "Space Marines, Ultramar", None)}
    assert "2 players registered." in texts(response)
    assert audit("players_imported", admin_user()).data == {"count": 2}
    assert AuditEntry.objects.filter(action="player_registered", actor=admin_user()).count() == 2


def test_a_bad_file_registers_nobody_and_names_every_bad_line(admin_client):
    t = new_tournament()
    get_user_model().objects.create_user("anne")
    content = ("name;club;username\n"
               "Good One;A;\n"          # line 2
               ";B;\n"                  # line 3: no name
               "Ghost;C;nobody\n"       # line 4: unknown account
               "Anne;D;anne\n"          # line 5
               "Extra;E;;surplus\n"     # line 6: more cells than columns
               "Anne again;F;ANNE\n")   # line 7: the same account twice
    response = upload(admin_client, t, content)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nobody was registered" in page
    for line in (3, 4, 6, 7):
        assert f"Line {line}:" in page
    for line in (2, 5):
        assert f"Line {line}:" not in page
    assert "No account is called “nobody”." in page
    assert not t.players.exists() and not AuditEntry.objects.filter(action="player_registered").exists()


def test_import_page_offers_a_multipart_file_form(admin_client):
    t = new_tournament()
    page = admin_client.get(url("league_tournament_import", t.pk)).content.decode()
    assert 'enctype="multipart/form-data"' in page and 'type="file" name="file"' in page
    assert 'value="Register these players"' in page and "Anne Martin;Les Loups de Lyon" in page


def test_import_refuses_what_it_cannot_read(admin_client):
    t = new_tournament()
    latin1 = upload(admin_client, t, "name\nZoé\n".encode("latin-1"))
    assert "is not UTF-8 text" in latin1.content.decode()
    too_big = upload(admin_client, t, b"name\n" + b"x" * imports.MAX_BYTES)
    assert "larger than 1024 KiB" in too_big.content.decode()
    no_name = upload(admin_client, t, "club,faction\nA,B\n")
    assert "No “name” column" in no_name.content.decode()
    assert not t.players.exists()


def test_import_caps_the_number_of_rows(admin_client):
    t = new_tournament()
    content = "name\n" + "".join(f"P{i}\n" for i in range(imports.MAX_ROWS + 1))
    response = upload(admin_client, t, content)
    assert f"Line {imports.MAX_ROWS + 2}: More than 2000 players" in response.content.decode()
    assert not t.players.exists()


def test_parse_players_csv_reports_physical_line_numbers():
    text = 'name,club\n"Multi\nline name",A\n,B\nLast,"C, D"\n'
    parsed = imports.parse_players_csv(text)
    assert [(e.line, e.message) for e in parsed.errors] == [
        (2, "A value runs over several lines."), (4, "The name is empty.")]
    assert parsed.rows == [imports.PlayerRow(line=5, name="Last", club="C, D")]
    assert imports.delimiter_of("nom;club;faction") == ";"
    assert imports.delimiter_of("name,club") == ","


# Access and the audit log ---------------------------------------------------------------------

def test_nobody_but_staff_reaches_the_cockpit(client):
    t, players = build(2)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=True)
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    pages = [url("league_tournament_changelist"), url("league_tournament_change", t.pk),
             url("league_round_change", round_.pk), url("league_player_changelist"),
             url("league_auditentry_changelist"), url("league_tournament_export_json", t.pk),
             url("league_tournament_standings_csv", t.pk), url("league_tournament_import", t.pk)]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], page
    assert client.post(url("league_tournament_action", t.pk, "publish_round"),
                       {"number": 1}).status_code == 302
    assert client.post(url("league_tournament_repair", t.pk), {"confirmation": "1"}).status_code == 302
    assert Round.objects.get(pk=round_.pk).status == "draft"


def test_audit_log_is_read_only(admin_client):
    new_tournament()
    entry = AuditEntry.objects.get()
    assert admin_client.get(url("league_auditentry_add")).status_code == 403
    assert admin_client.post(url("league_auditentry_delete", entry.pk), {"post": "yes"}).status_code == 403
    admin_client.post(url("league_auditentry_change", entry.pk), {"action": "forged"})
    assert AuditEntry.objects.get(pk=entry.pk).action == "tournament_created"
    listing = admin_client.get(url("league_auditentry_changelist") + f"?tournament__id__exact={entry.tournament_id}")
    assert "event created" in listing.content.decode()  # the action's name, not its key


# Query budget -------------------------------------------------------------------------------

CHANGE_PAGE_QUERIES = 10
EXPORT_QUERIES = 21  # the whole event: every kind of row once (dice rows and batches, clocks,
# check-in window, awards with entries and votes), the standings and their extras


@pytest.mark.parametrize("n", [10, 40])
def test_tournament_page_queries_do_not_grow_with_players(admin_client, django_assert_max_num_queries, n):
    t, players = build(n)
    for p in players[:4]:
        lists.unlock_list(SYSTEM, p, "test")
        lists.submit_list(SYSTEM, p, role="", entries=LEGAL)
    rounds.pair_next_round(SYSTEM, t, draft=False)
    with django_assert_max_num_queries(CHANGE_PAGE_QUERIES):
        response = admin_client.get(url("league_tournament_change", t.pk))
    assert response.status_code == 200 and response.content.decode().count(">valid<") == 4
    with django_assert_max_num_queries(EXPORT_QUERIES):
        exported = admin_client.get(url("league_tournament_export_json", t.pk))
    assert len(json.loads(exported.content)["players"]) == n


def test_round_and_player_pages_queries_are_constant(admin_client):
    counts = []
    for n in (6, 30):
        t, _players = build(n)
        round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
        round_url = url("league_round_change", round_.pk)
        players_url = url("league_player_changelist") + f"?tournament__id__exact={t.pk}"
        # Each page once first: what a process reads once and keeps (content types, a test
        # before this one on the worker may have emptied them) is not what grows with the field.
        admin_client.get(round_url)
        admin_client.get(players_url)
        with CaptureQueriesContext(connection) as round_page:
            admin_client.get(round_url)
        with CaptureQueriesContext(connection) as players_page:
            admin_client.get(players_url)
        counts.append((len(round_page), len(players_page)))
        Tournament.objects.filter(pk=t.pk).update(name=f"done {n}")
    assert counts[0] == counts[1]
