"""The event page and the standings API come from the event's cache: every service that changes
what they show makes the next read show it, readers never get someone else's personal parts, long
lists come a page at a time, and a cached read costs a constant number of queries."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from events import event_cache
from events.audit import Actor
from events.errors import Conflict
from events.models import Game, Player, Tournament
from events.services import results, rounds, tournaments
from events.views import event_sections
from tests.browser.events import open_event, register, user
from tests.tournament_fixtures import client_for, expect, get
from venue.award_models import ScoreComponent
from venue.services import awards

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(staff_actor):
    """Four players with accounts, round 1 published, no result yet."""
    event = open_event(staff_actor, name="Cache et fragments")
    for name in ("Alice", "Bob", "Chloé", "Dan"):
        register(event, user(name.casefold()), name)
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff_actor, event)
    event.refresh_from_db()
    return event


def signed_in(account) -> Client:
    client = Client()
    client.force_login(account)
    return client


def page(client, event: Tournament, query: str = "", **headers) -> str:
    response = client.get(reverse("tournament", args=[event.slug]) + query, **headers)
    assert response.status_code == 200
    return response.content.decode()


def api_rows(event: Tournament, query: str = "") -> dict[str, dict]:
    rows = expect(get(client_for(None), f"/tournaments/{event.slug}/standings/{query}"), 200)
    return {row["player"]["name"]: row for row in rows}


def first_game(event: Tournament) -> Game:
    return Game.objects.filter(round__tournament=event, round__number=1).select_related(
        "player_a__user", "player_b__user").order_by("table").first()


def standings_section(html: str) -> str:
    return html.split('id="standings-title"', 1)[1].split("</section>", 1)[0]


# --- every service that changes the standings shows at once --------------------------------------

def test_a_report_then_its_confirmation_show_at_once(client, event):
    game = first_game(event)
    a, b = game.player_a, game.player_b
    before, points = page(client, event), api_rows(event)  # both cached now
    assert "reported, to be confirmed" not in before and points[a.name]["points"] == 0
    results.report(Actor(user=a.user), game.pk, results.ResultInput(
        winner=a.pk, victory_points={a.pk: 1200, b.pk: 800}))
    assert "reported, to be confirmed" in page(client, event)
    assert api_rows(event)[a.name]["points"] == 0  # not confirmed yet
    results.confirm(Actor(user=b.user), game.pk)
    shown = page(client, event)
    assert f"{a.name} won</strong>" in shown and "1200–800 VP" in shown
    assert api_rows(event)[a.name]["points"] == 3
    assert re.search(rf"<td>1</td><td>{a.name}</td><td>3</td>", standings_section(shown))


def test_a_staff_settlement_of_a_dispute_shows_at_once(client, staff_actor, event):
    game = first_game(event)
    a, b = game.player_a, game.player_b
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    results.report(Actor(user=b.user), game.pk, results.ResultInput(winner=b.pk))
    assert "<td>disputed</td>" in page(client, event) and api_rows(event)[b.name]["wins"] == 0
    results.report(staff_actor, game.pk, results.ResultInput(winner=b.pk))
    assert f"{b.name} won</strong>" in page(client, event)
    assert api_rows(event)[b.name]["wins"] == 1


def test_an_award_and_a_penalty_show_at_once(client, staff_actor, event):
    alice, bob = (Player.objects.get(tournament=event, name=n) for n in ("Alice", "Bob"))
    page(client, event), api_rows(event)
    painting = awards.define_component(staff_actor, event, name="Painting", weight=2)
    awards.set_entry(staff_actor, painting, alice, 3)
    assert '<td class="extra">6</td>' in page(client, event)
    assert api_rows(event)["Alice"]["points"] == 6
    late = awards.define_component(staff_actor, event, name="Late list",
                                   kind=ScoreComponent.Kind.PENALTY)
    awards.set_entry(staff_actor, late, bob, 2, "list sent late")
    assert api_rows(event)["Bob"]["points"] == -2
    assert api_rows(event, "?extras=without")["Bob"]["points"] == 0
    assert "Late list" in page(client, event)


def test_a_drop_shows_at_once(client, staff_actor, event):
    dan = Player.objects.get(tournament=event, name="Dan")
    assert api_rows(event)["Dan"]["dropped"] is False
    tournaments.update_player(staff_actor, dan, dropped=True)
    assert api_rows(event)["Dan"]["dropped"] is True


def test_a_new_round_and_a_repair_show_at_once(client, staff_actor, event):
    staff_client = signed_in(staff_actor.user)  # staff see every table's link: game ids show
    for game in Game.objects.filter(round__tournament=event):
        results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    event.refresh_from_db()
    draft = rounds.pair_next_round(staff_actor, event, draft=True)
    shown = page(staff_client, event)
    assert "?round=2" not in shown  # a draft is not published
    rounds.publish_round(staff_actor, event, draft.number)
    shown = page(staff_client, event)
    old = {g.pk for g in draft.games.all()}
    assert "?round=2" in shown and all(reverse("game", args=[pk]) in shown for pk in old)
    repaired = rounds.repair_published_round(staff_actor, event, 2, "2")
    shown = page(staff_client, event)
    new = {g.pk for g in repaired.games.all()}
    assert new.isdisjoint(old)
    assert all(reverse("game", args=[pk]) in shown for pk in new)
    assert not any(reverse("game", args=[pk]) in shown for pk in old)


def test_a_refused_change_keeps_the_cache(client, event, django_assert_num_queries):
    game = first_game(event)
    page(client, event)
    with pytest.raises(Conflict):  # nothing reported yet: nothing changes
        results.confirm(Actor(user=game.player_b.user), game.pk)
    with django_assert_num_queries(1):  # still cached: the event's id only
        page(client, event)


# --- nobody gets someone else's page --------------------------------------------------------------

def test_languages_staff_and_players_each_get_their_own_sections(client, staff_actor, event):
    game = first_game(event)
    player = game.player_a
    mine = reverse("game", args=[game.pk])
    as_player = page(signed_in(player.user), event)
    assert as_player.count('<tr class="mine">') == 1 and mine in as_player
    as_staff = page(signed_in(staff_actor.user), event)
    assert mine in as_staff
    anonymous = page(client, event)
    assert mine not in anonymous and '<tr class="mine">' not in anonymous
    assert "csrfmiddlewaretoken" in anonymous  # the language switch's token is the reader's
    french = page(client, event, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Classement" in french and "Classement" not in page(client, event)
    other = [g for g in Game.objects.filter(round__tournament=event) if g.pk != game.pk][0]
    assert reverse("game", args=[other.pk]) not in page(signed_in(player.user), event)


def test_cached_entries_are_keyed_by_the_event_version(staff_actor, event,
                                                      django_capture_on_commit_callbacks):
    first = event_cache.for_event(event.pk)
    assert event_cache.for_event(event.pk) == first  # nothing changed
    first.set_many({"probe": "before"})
    event_cache.changed(event.pk)  # in a test the transaction never commits: bumped once
    later = event_cache.for_event(event.pk)
    assert later.version == first.version + 1 and later.get_many(["probe"]) == {}
    assert first.get_many(["probe"]) == {"probe": "before"}  # the old entry is left to expire
    with django_capture_on_commit_callbacks(execute=True):
        event_cache.changed(event.pk)  # committed: once at once, once more after the commit
    assert event_cache.for_event(event.pk).version == later.version + 2
    later = event_cache.for_event(event.pk)
    cache.delete(f"muster:event:{event.pk}:version")  # evicted: a fresh start, never an old one
    assert event_cache.for_event(event.pk).version > later.version


# --- long lists a page at a time; finding a player -----------------------------------------------

@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(event_sections, "TABLES_PER_PAGE", 1)
    monkeypatch.setattr(event_sections, "STANDINGS_PER_PAGE", 3)
    monkeypatch.setattr(event_sections, "PLAYERS_PER_PAGE", 2)


def test_tables_standings_and_players_come_a_page_at_a_time(client, event, small_pages):
    games = list(Game.objects.filter(round__tournament=event).select_related(
        "player_a", "player_b").order_by("table"))
    shown = page(client, event)
    tables = shown.split('id="round-title"', 1)[1].split("</section>", 1)[0]
    assert games[0].player_a.name in tables and games[1].player_a.name not in tables
    assert 'href="?round=1&amp;tables_page=2#round-title"' in tables
    assert 'href="?standings_page=2#standings-title"' in shown
    assert 'href="?players_page=2#players-title"' in shown
    assert "Players (4)" in shown and "1–3 of 4" in shown
    second = page(client, event, "?round=1&tables_page=2")
    tables = second.split('id="round-title"', 1)[1].split("</section>", 1)[0]
    assert games[1].player_a.name in tables and games[0].player_a.name not in tables
    assert standings_section(page(client, event, "?standings_page=2")).count("<tr><td>") == 1
    past_the_end = page(client, event, "?players_page=99")
    assert 'aria-current="page">2</a>' in past_the_end.split('id="players-title"', 1)[1]
    assert page(client, event, "?players_page=x").count("<li>") == page(client, event).count("<li>")


def test_a_signed_in_player_sees_their_table_on_any_page(event, small_pages):
    games = list(Game.objects.filter(round__tournament=event).select_related(
        "player_b__user").order_by("table"))
    player = games[1].player_b  # on the second page of tables
    shown = page(signed_in(player.user), event)
    assert shown.count('<tr class="mine">') == 1 and reverse("game", args=[games[1].pk]) in shown


def test_finding_a_player_by_a_part_of_the_name(client, event):
    game = Game.objects.filter(round__tournament=event, player_a__name="Chloé").first() or \
        Game.objects.get(round__tournament=event, player_b__name="Chloé")
    opponent = game.player_b.name if game.player_a.name == "Chloé" else game.player_a.name
    shown = page(client, event, "?q=chloe")  # accents and case aside
    found = shown.split('class="found"', 1)[1].split("</table>", 1)[0]
    assert "<td>Chloé</td>" in found and f"{game.table} (vs {opponent})" in found
    assert found.count("<tr><td>") == 1
    assert "No player's name holds “zzz”." in page(client, event, "?q=zzz")


# --- query counts -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 24])
def test_cached_reads_take_a_constant_number_of_queries(
        staff_actor, players, django_assert_max_num_queries, django_assert_num_queries):
    event = open_event(staff_actor, name=f"Constante {players}")
    for i in range(players):
        register(event, user(f"q{players}-{i}"), f"Q{i}", units=None)
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff_actor, event)
    anon = client_for(None)
    url = f"/tournaments/{event.slug}/standings/"
    with django_assert_max_num_queries(4):  # event, players, games, awards and penalties
        cold = expect(get(anon, url), 200)
    with django_assert_num_queries(1):  # the event
        assert expect(get(anon, url), 200) == cold
    with django_assert_max_num_queries(8):  # event's id, event, rounds, round's games, ranking
        cold_page = page(anon, event, "?players_page=1")
    with django_assert_num_queries(1):  # the event's id
        assert page(anon, event, "?players_page=1").count("<tr>") == cold_page.count("<tr>")
