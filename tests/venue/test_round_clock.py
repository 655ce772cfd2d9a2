"""The round clock: its moves (audited, under the round's lock), the refusals of impossible moves,
the time left read from the server's clock, the API, the projector page and its polled answer,
the time left on a player's game page, and the query budgets of the new pages."""
from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from events.audit import Actor
from events.errors import Conflict, Forbidden, Invalid
from events.models import AuditEntry, Game, Player, Round, Tournament
from events.services import results, rounds, tournaments
from tests.browser.clock_events import new_event, paired_round, player_names
from tests.browser.events import lock_and_pair, open_event, register, user
from tests.tournament_fixtures import client_for, expect, get, post
from venue.services import clock

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 28, 9, 0, tzinfo=timezone.get_fixed_timezone(0))


class Now:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.value = T0

    def __call__(self) -> datetime:
        return self.value

    def advance(self, **delta: float) -> None:
        self.value += timedelta(**delta)


@pytest.fixture
def now(monkeypatch) -> Now:
    fake = Now()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def event(staff_actor) -> tuple[Tournament, Round]:
    tournament = new_event(staff_actor)
    return tournament, paired_round(staff_actor, tournament, 6)


def in_french(text: str) -> str:
    with translation.override("fr"):
        return translation.gettext(text)


def in_french_n(singular: str, plural: str, n: int) -> str:
    with translation.override("fr"):
        return translation.ngettext(singular, plural, n)


def settle_all(staff_actor: Actor, round_: Round) -> None:
    for game in round_.games.exclude(player_b=None):
        results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))


# --- the service -----------------------------------------------------------------------------

def test_start_pause_resume_extend_end_read_from_the_servers_clock(staff_actor, event, now):
    tournament, round_ = event
    reading = clock.act(staff_actor, tournament, 1, clock.START, 90)
    assert (reading.state, reading.remaining_seconds) == (clock.RUNNING, 90 * 60)
    assert reading.ends_at == T0 + timedelta(minutes=90)
    now.advance(minutes=10, seconds=0.4)
    assert clock.read(Round.objects.get(pk=round_.pk)).remaining_seconds == 80 * 60  # rounded up
    reading = clock.act(staff_actor, tournament, 1, clock.PAUSE)
    assert (reading.state, reading.remaining_seconds, reading.ends_at) == (clock.PAUSED, 80 * 60, None)
    now.advance(minutes=30)  # paused: nothing runs
    assert clock.read(Round.objects.get(pk=round_.pk)).remaining_seconds == 80 * 60
    reading = clock.act(staff_actor, tournament, 1, clock.RESUME)
    now.advance(minutes=5)
    reading = clock.act(staff_actor, tournament, 1, clock.EXTEND, 15)
    assert (reading.state, reading.remaining_seconds) == (clock.RUNNING, 90 * 60)
    assert reading.duration == timedelta(minutes=105)
    now.advance(minutes=100)
    expired = clock.read(Round.objects.get(pk=round_.pk))
    assert (expired.remaining_seconds, expired.expired, expired.state) == (0, True, clock.RUNNING)
    reading = clock.act(staff_actor, tournament, 1, clock.END)
    assert (reading.state, reading.remaining_seconds, reading.expired) == (clock.ENDED, 0, False)
    actions = list(AuditEntry.objects.filter(action__startswith="clock_").order_by("pk")
                   .values_list("action", "data"))
    assert [a for a, _d in actions] == ["clock_start", "clock_pause", "clock_resume",
                                        "clock_extend", "clock_end"]
    assert actions[0][1] == {"round": 1, "minutes": 90, "remaining_seconds": 5400}
    assert actions[3][1]["minutes"] == 15
    assert AuditEntry.objects.filter(action="clock_start").get().actor == staff_actor.user


def test_start_takes_the_default_length(staff_actor, event, now):
    tournament, _round = event
    reading = clock.act(staff_actor, tournament, 1, clock.START)
    assert reading.remaining_seconds == clock.DEFAULT_MINUTES * 60


@pytest.mark.parametrize(("moves", "action", "code"), [
    ([], clock.PAUSE, "clock_not_started"),
    ([], clock.RESUME, "clock_not_started"),
    ([], clock.EXTEND, "clock_not_started"),
    ([], clock.END, "clock_not_started"),
    ([clock.START], clock.START, "clock_started"),
    ([clock.START], clock.RESUME, "clock_not_paused"),
    ([clock.START, clock.PAUSE], clock.PAUSE, "clock_not_running"),
    ([clock.START, clock.END], clock.START, "clock_ended"),
    ([clock.START, clock.END], clock.EXTEND, "clock_ended"),
    ([clock.START, clock.END], clock.END, "clock_ended"),
])
def test_impossible_moves_are_409(staff_actor, event, moves, action, code):
    tournament, _round = event
    for move in moves:
        clock.act(staff_actor, tournament, 1, move, 60 if move in (clock.START, clock.EXTEND) else None)
    with pytest.raises(Conflict) as refused:
        clock.act(staff_actor, tournament, 1, action, 10)
    assert refused.value.code == code and str(refused.value)


def test_a_finished_round_refuses_every_move(staff_actor, event):
    tournament, round_ = event
    clock.act(staff_actor, tournament, 1, clock.START, 60)
    settle_all(staff_actor, round_)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETED
    for action in clock.ACTIONS:
        with pytest.raises(Conflict) as refused:
            clock.act(staff_actor, tournament, 1, action, 10)
        assert refused.value.code == "round_finished"
    # Every result is in: the clock reads as over, whatever it still said.
    assert clock.read(Round.objects.get(pk=round_.pk)).state == clock.ENDED


def test_an_earlier_round_and_a_draft_round_refuse(staff_actor, event):
    tournament, round_ = event
    settle_all(staff_actor, round_)
    rounds.pair_next_round(staff_actor, tournament, draft=True)
    with pytest.raises(Conflict) as draft:
        clock.act(staff_actor, tournament, 2, clock.START)
    assert draft.value.code == "round_not_published"
    rounds.publish_round(staff_actor, tournament, 2)
    with pytest.raises(Conflict) as earlier:
        clock.act(staff_actor, tournament, 1, clock.START)
    assert earlier.value.code == "round_finished"
    clock.act(staff_actor, tournament, 2, clock.START)


def test_bad_minutes_players_and_unknown_rounds_are_refused(staff_actor, event):
    tournament, _round = event
    for minutes in (0, -5, clock.MAX_MINUTES + 1, "soon"):
        with pytest.raises(Invalid) as bad:
            clock.act(staff_actor, tournament, 1, clock.START, minutes)
        assert bad.value.code == "clock_minutes_invalid"
    clock.act(staff_actor, tournament, 1, clock.START, 60)
    with pytest.raises(Invalid):
        clock.act(staff_actor, tournament, 1, clock.EXTEND, None)
    with pytest.raises(Forbidden):
        clock.act(Actor(user=user("nobody")), tournament, 1, clock.PAUSE)
    with pytest.raises(Invalid) as unknown:
        clock.act(staff_actor, tournament, 1, "rewind")
    assert unknown.value.code == "clock_action_unknown"
    with pytest.raises(Exception) as missing:
        clock.act(staff_actor, tournament, 9, clock.PAUSE)
    assert missing.value.code == "round_not_found"


def test_every_game_system_has_a_clock_and_its_scenario_on_the_projector(client, staff_actor):
    for system in ("whfb", "urban-war"):
        tournament = new_event(staff_actor, system, name=f"Clock {system}")
        round_ = paired_round(staff_actor, tournament, 4)
        assert round_.mission is None
        rounds.set_scenario(staff_actor, tournament, 1, "\nLa rivière de sang\nDéploiement en diagonale.")
        assert clock.act(staff_actor, tournament, 1, clock.START, 45).state == clock.RUNNING
        html = projector(client, tournament)[1]
        assert "Ronde 1 · La rivière de sang</p>" in html and ">45:00<" in html


# --- the API ---------------------------------------------------------------------------------

def test_clock_api_moves_and_reads_the_clock(staff_actor, event, now):
    tournament, round_ = event
    api = client_for(staff_actor.user)
    path = f"/tournaments/{tournament.slug}/rounds/1/clock/"
    started = expect(post(api, path, {"action": "start", "minutes": 120}), 200)
    assert started["state"] == "running" and started["remaining_seconds"] == 7200
    assert started["duration_seconds"] == 7200 and started["ends_at"] == "2026-11-28T12:00:00+01:00"
    now.advance(minutes=20)
    body = expect(get(client_for(None), f"/tournaments/{tournament.slug}/rounds/1/"), 200)
    assert body["clock"]["remaining_seconds"] == 100 * 60 and body["clock"]["state"] == "running"
    paused = expect(post(api, path, {"action": "pause"}), 200)
    assert paused["state"] == "paused" and paused["ends_at"] is None
    expect(post(api, path, {"action": "pause"}), 409, "clock_not_running")
    expect(post(api, path, {"action": "extend"}), 400)
    expect(post(api, path, {"action": "extend", "minutes": 0}), 400)
    expect(post(api, path, {"action": "rewind"}), 400)
    assert expect(post(api, path, {"action": "extend", "minutes": 10}), 200)[
        "remaining_seconds"] == 110 * 60
    expect(post(api, path, {"action": "resume"}), 200)
    expect(post(api, path, {"action": "end"}), 200)
    expect(post(api, path, {"action": "start"}), 409, "clock_ended")


def test_clock_api_permissions_and_finished_rounds(staff_actor, event):
    tournament, round_ = event
    path = f"/tournaments/{tournament.slug}/rounds/1/clock/"
    assert post(client_for(None), path, {"action": "start"}).status_code == 401
    expect(post(client_for(user("player")), path, {"action": "start"}), 403, "staff_only")
    expect(post(client_for(user("player2")), path, {"bad": "body"}), 403, "staff_only")
    api = client_for(staff_actor.user)
    expect(post(api, f"/tournaments/{tournament.slug}/rounds/7/clock/", {"action": "start"}),
           404, "round_not_found")
    settle_all(staff_actor, round_)
    expect(post(api, path, {"action": "start"}), 409, "round_finished")
    body = expect(get(api, f"/tournaments/{tournament.slug}/rounds/1/"), 200)
    assert body["clock"]["state"] == "not_started"


# --- the projector ---------------------------------------------------------------------------

def projector(client, tournament: Tournament, **extra):
    response = client.get(reverse("projector", args=[tournament.slug]), **extra)
    return response, response.content.decode()


def test_projector_shows_clock_tables_names_and_standings_in_the_events_language(
        client, staff_actor, now):
    tournament = new_event(staff_actor, language="fr")
    names = ["Zoé Martin", "Alice Bernard", "Marc Petit", "Élodie Roux", "Bob Durand"]
    round_ = paired_round(staff_actor, tournament, 5, names=names)
    clock.act(staff_actor, tournament, 1, clock.START, 90)
    now.advance(minutes=1, seconds=30)
    response, html = projector(client, tournament, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Language"] == "fr"
    assert '<html lang="fr"' in html
    assert 'http-equiv="refresh"' in html and "projector.js" in html
    assert ">1:28:30<" in html and in_french("Time left") in html
    assert "Ronde 1" in html and "Classement" in html
    assert f'id="results-in">{in_french_n("%(in)s of %(total)s result in", "%(in)s of %(total)s results in", 2) % {"in": 0, "total": 2}}<' in html
    games = list(round_.games.select_related("player_a", "player_b").order_by("table"))
    for game in games:
        if game.is_bye:
            assert f'{game.player_a.name}</span> <span class="vs">(exemption)' in html
        else:
            assert game.player_a.name in html and game.player_b.name in html
    find = re.search(r'<section class="panel" id="find".*?</section>', html, re.S).group(0)
    listed = re.findall(r'<span class="name">([^<]+)</span>', find)
    assert listed == ["Alice Bernard", "Bob Durand", "Élodie Roux", "Marc Petit", "Zoé Martin"]


def test_projector_without_a_round_and_for_drafts(client, staff_actor):
    tournament = open_event(staff_actor, name="Pas encore", language="en")
    response, html = projector(client, tournament)
    assert response.status_code == 200 and "No round yet" in html and 'id="clock"' not in html
    draft = tournaments.create_tournament(staff_actor, name="Brouillon", chart=tournament.chart,
                                          points_limit=1000, level=tournament.level, rounds=3)
    assert projector(client, draft)[0].status_code == 404
    assert client.get(reverse("projector_state", args=[draft.slug])).status_code == 404


def test_projector_state_follows_the_clock_and_the_results(client, staff_actor, event, now):
    tournament, round_ = event
    url = reverse("projector_state", args=[tournament.slug])
    first = client.get(url).json()
    assert first["round"] == 1 and first["results_in"] == 0 and first["results_total"] == 3
    assert first["clock"]["state"] == "not_started" and first["clock"]["text"] == "--:--"
    clock.act(staff_actor, tournament, 1, clock.START, 60)
    now.advance(seconds=61)
    state = client.get(url).json()
    assert state["clock"]["remaining_seconds"] == 59 * 60 - 1 and state["clock"]["text"] == "58:59"
    assert state["clock"]["label"] == in_french("Time left")  # the event's language
    assert state["version"] == first["version"]  # the lists did not change
    game = round_.games.exclude(player_b=None).first()
    results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    after = client.get(url).json()
    assert after["version"] != first["version"] and after["results_in"] == 1
    page = projector(client, tournament)[1]
    assert f'data-version="{after["version"]}"' in page  # the page and its answer agree


@pytest.mark.parametrize("players", [8, 64])
def test_projector_queries_do_not_grow(client, staff_actor, players, django_assert_max_num_queries):
    tournament = new_event(staff_actor, name=f"Grand tournoi {players}")
    round_ = paired_round(staff_actor, tournament, players)
    settle_all(staff_actor, round_)
    rounds.pair_next_round(staff_actor, Tournament.objects.get(pk=tournament.pk))
    clock.act(staff_actor, tournament, 2, clock.START, 60)
    # event, standings (players, games), round with clock and mission, games with players
    with django_assert_max_num_queries(6):
        response, html = projector(client, tournament)
    assert response.status_code == 200 and html.count('class="row') >= players * 2
    # event, round with its clock, one aggregate
    with django_assert_max_num_queries(3):
        assert client.get(reverse("projector_state", args=[tournament.slug])).status_code == 200


# --- the game page ---------------------------------------------------------------------------

@pytest.fixture
def table(staff_actor):
    tournament = open_event(staff_actor, name="Partie")
    accounts = [user("alice"), user("bob")]
    for account in accounts:
        register(tournament, account, account.username)
    game = lock_and_pair(staff_actor, tournament).games.get()
    return tournament, game, next(a for a in accounts if a.pk == game.player_a.user_id)


def test_game_page_shows_the_time_left_once_the_clock_runs(client, staff_actor, table, now):
    tournament, game, account = table
    client.force_login(account)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="round-clock"' not in page
    clock.act(staff_actor, tournament, 1, clock.START, 150)
    now.advance(minutes=30)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="round-clock"' in page and ">2:00:00<" in page and "countdown.js" in page
    clock.act(staff_actor, tournament, 1, clock.PAUSE)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "(paused)" in page and 'data-state="paused"' in page
    clock.act(staff_actor, tournament, 1, clock.RESUME)
    now.advance(hours=3)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert ">00:00<" in page and "(time is up)" in page and "round-clock expired" in page


@pytest.mark.parametrize("size", [2, 30])
def test_game_page_with_a_clock_keeps_its_budget(client, staff_actor, size,
                                                 django_assert_max_num_queries):
    tournament = open_event(staff_actor, name=f"Budget {size}")
    accounts = [user(f"c{size}a"), user(f"c{size}b")]
    for i, account in enumerate(accounts):
        register(tournament, account, f"P{i}")
    game = lock_and_pair(staff_actor, tournament).games.get()
    for name in player_names(size):
        tournaments.register_player(staff_actor, tournament, name=name)  # more players, same page
    clock.act(staff_actor, tournament, 1, clock.START, 60)
    client.force_login(next(a for a in accounts if a.pk == game.player_a.user_id))
    with django_assert_max_num_queries(13):
        response = client.get(reverse("game", args=[game.pk]))
    assert 'id="round-clock"' in response.content.decode()


def test_a_bye_has_no_clock_on_its_page(client, staff_actor):
    tournament = open_event(staff_actor, name="Exempt")
    accounts = [user(f"b{i}") for i in range(3)]
    for account in accounts:
        register(tournament, account, account.username)
    round_ = lock_and_pair(staff_actor, tournament)
    clock.act(staff_actor, tournament, 1, clock.START, 60)
    bye = round_.games.get(player_b=None)
    client.force_login(Player.objects.get(pk=bye.player_a_id).user)
    assert 'id="round-clock"' not in client.get(reverse("game", args=[bye.pk])).content.decode()
    assert Game.objects.filter(round=round_).count() == 2
