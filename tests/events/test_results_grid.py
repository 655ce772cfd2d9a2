"""Results at a glance: the staff grid (each table's state, many results entered or settled in
one post, per-row refusals in place, a table changed meanwhile never overwritten, every game
system), two organisers sending the same table at once, the cockpit's "N of M results in" and
clock buttons, and the pairing refusal that names the tables still open."""
from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import connection
from django.urls import reverse

from events.audit import Actor
from events.errors import Conflict
from events.models import AuditEntry, Game, Report, Round, Tournament
from events.services import result_grid, results, rounds
from tests.browser.clock_events import new_event, paired_round
from tests.browser.events import organiser
from venue.services import clock

pytestmark = pytest.mark.django_db
OMS = {"mode": "vp_table", "preset": "oms-2011"}


def grid_url(round_: Round) -> str:
    return reverse("admin:league_round_results", args=[round_.pk])


def tables(round_: Round) -> list[Game]:
    return list(round_.games.exclude(player_b=None).select_related("player_a", "player_b")
                .order_by("table"))


def version(game: Game) -> str:
    return result_grid.current_version(Game.objects.get(pk=game.pk))


def row(game: Game, result: str, **fields) -> dict[str, str]:
    data = {f"g{game.pk}-version": version(game), f"g{game.pk}-result": result}
    data.update({f"g{game.pk}-{k}": str(v) for k, v in fields.items()})
    return data


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def player_report(game: Game, winner: int, vp: dict[int, int] | None = None) -> None:
    """A player of the game reports (the player has an account for this)."""
    account = get_user_model().objects.create_user(f"player-{game.pk}")
    game.player_a.user = account
    game.player_a.save(update_fields=["user"])
    results.report(Actor(user=account), game.pk,
                   results.ResultInput(winner=winner, victory_points=vp or {}))


# --- the page ----------------------------------------------------------------------------------

def test_grid_lists_every_table_with_its_state(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 8)
    a, b, c, d = tables(round_)
    player_report(b, b.player_a_id, {b.player_a_id: 900, b.player_b_id: 300})
    results.report(admin_actor, c.pk, results.ResultInput(winner=None))
    html = admin_client.get(grid_url(round_)).content.decode()
    states = dict(re.findall(r'<tr id="table-(\d+)" class="[^"]*" data-state="(\w+)"', html))
    assert states == {str(a.table): "pending", str(b.table): "reported",
                      str(c.table): "confirmed", str(d.table): "pending"}
    assert f"{b.player_a.name}: {b.player_a.name} won, 900–300 VP" in html
    assert "1 of 4 results in" in html
    assert "accept the reported result" in html
    assert f'name="g{a.pk}-version" value="pending.0"' in html
    for game in (a, b, c, d):
        assert f'<label class="visually-hidden" for="id_g{game.pk}-result">' in html


def test_many_rows_in_one_post_each_through_the_results_service(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 8)
    a, b, c, d = tables(round_)
    player_report(c, c.player_a_id)
    data = {**row(a, "a", vp_a=800, vp_b=200), **row(b, "draw"), **row(c, "accept"),
            **row(d, "")}  # d left alone
    response = admin_client.post(grid_url(round_), data)
    assert response.status_code == 302 and response.url == grid_url(round_)
    assert messages_of(response) == ["3 results recorded."]
    a, b, c, d = (Game.objects.get(pk=g.pk) for g in (a, b, c, d))
    assert (a.status, a.winner_id, a.victory_points) == (
        "confirmed", a.player_a_id, {str(a.player_a_id): 800, str(a.player_b_id): 200})
    assert (b.status, b.winner_id) == ("confirmed", None)
    assert (c.status, c.winner_id) == ("confirmed", c.player_a_id)
    assert Report.objects.get(game=c).status == "confirmed"  # the player's report, accepted
    assert d.status == "pending"
    confirmations = AuditEntry.objects.filter(action="result_confirmed")
    assert confirmations.count() == 3 and {e.actor_id for e in confirmations} == {admin_actor.user.pk}


def test_a_refused_row_comes_back_as_typed_with_its_reason_and_the_rest_go_through(
        admin_client, admin_actor):
    tournament = new_event(admin_actor, name="Bandes", scoring=OMS)
    round_ = paired_round(admin_actor, tournament, 6)
    a, b, c = tables(round_)
    data = {**row(a, "points", vp_a=1500, vp_b=400), **row(b, "points", vp_a=700),
            **row(c, "", vp_a=12)}
    response = admin_client.post(grid_url(round_), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert Game.objects.get(pk=a.pk).winner_id == a.player_a_id  # the band decided
    assert Game.objects.get(pk=b.pk).status == "pending"
    errors = dict(re.findall(r'id="error-(\d+)">([^<]+)<', html))
    assert set(errors) == {str(b.table), str(c.table)}
    assert "both players" in errors[str(b.table)]  # the service's own words
    assert "Choose a result" in errors[str(c.table)]
    assert f'name="g{b.pk}-vp_a" value="700"' in html  # kept as typed
    assert messages_of(response) == ["1 result recorded.",
                                     "2 tables were not recorded: see their rows."]


def test_a_table_changed_since_the_page_was_loaded_is_not_overwritten(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 4)
    game = tables(round_)[0]
    seen = row(game, "b", vp_a=100, vp_b=900)
    other = Actor(user=get_user_model().objects.create_user("second", is_staff=True))
    results.report(other, game.pk, results.ResultInput(winner=game.player_a_id))
    response = admin_client.post(grid_url(round_), seen)
    html = response.content.decode()
    error = re.search(rf'id="error-{game.table}">([^<]+)<', html).group(1)
    assert "changed since this page was loaded" in error
    assert f"{game.player_a.name} won" in error and "second" in error
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.winner_id == game.player_a_id and fresh.reports.count() == 1
    # The row now carries the game's new version: sending it again is a deliberate choice.
    assert f'name="g{game.pk}-version" value="confirmed.1"' in html
    again = admin_client.post(grid_url(round_), row(game, "b", vp_a=100, vp_b=900))
    assert again.status_code == 302
    assert Game.objects.get(pk=game.pk).winner_id == game.player_b_id


def test_whfb_rows_ask_points_and_the_baggage(admin_client, admin_actor):
    tournament = new_event(admin_actor, "whfb", name="Nuln", advanced_rules={"baggage": True})
    round_ = paired_round(admin_actor, tournament, 4, with_lists=True)
    a, b = tables(round_)
    html = admin_client.get(grid_url(round_)).content.decode()
    assert f'id="id_g{a.pk}-baggage"' in html and "baggage captured by" in html
    response = admin_client.post(grid_url(round_), {**row(a, "a", vp_a=900, vp_b=800, baggage="a"),
                                                    **row(b, "draw", vp_a=500, vp_b=500)})
    assert response.status_code == 302
    a = Game.objects.get(pk=a.pk)
    assert a.victory_points == {str(a.player_a_id): 1100, str(a.player_b_id): 800}
    assert a.outcome["baggage_captured_by"] == a.player_a_id
    assert Game.objects.get(pk=b.pk).winner_id is None


def test_urban_war_rows_ask_the_destroyed_commando(admin_client, admin_actor):
    tournament = new_event(admin_actor, "urban-war", name="Zone")
    round_ = paired_round(admin_actor, tournament, 4, with_lists=True)
    a, b = tables(round_)
    html = admin_client.get(grid_url(round_)).content.decode()
    assert f'id="id_g{a.pk}-vp_a"' not in html and "victory points" not in html
    assert f"commando of {a.player_b.name} destroyed" in html
    response = admin_client.post(grid_url(round_), {**row(a, "lost_b"), **row(b, "none")})
    assert response.status_code == 302, messages_of(response)
    a, b = Game.objects.get(pk=a.pk), Game.objects.get(pk=b.pk)
    assert a.winner_id == a.player_a_id and a.outcome["commando_destroyed"] == a.player_b_id
    assert a.victory_points[str(a.player_a_id)] > 0  # the server derived them
    assert (b.status, b.winner_id) == ("confirmed", None)


def test_a_disputed_table_is_settled_from_the_grid(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 2)
    game = tables(round_)[0]
    player_report(game, game.player_a_id)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.DISPUTED)
    html = admin_client.get(grid_url(round_)).content.decode()
    assert "accept the reported result" not in html  # a dispute is settled, not accepted
    assert admin_client.post(grid_url(round_), row(game, "b")).status_code == 302
    settled = Game.objects.get(pk=game.pk)
    assert (settled.status, settled.winner_id) == ("confirmed", game.player_b_id)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETED


def test_grid_needs_the_change_permission_and_a_published_round(client, admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 2)
    viewer = get_user_model().objects.create_user("viewer", is_staff=True)
    client.force_login(viewer)
    assert client.get(grid_url(round_)).status_code == 403
    draft = Round.objects.get(pk=round_.pk)
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.DRAFT)
    assert "Publish the round before entering results." in admin_client.get(
        grid_url(draft)).content.decode()


def grid_queries(admin_client, round_: Round) -> int:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert admin_client.get(grid_url(round_)).status_code == 200
    return len(queries)


def test_grid_page_queries_do_not_grow(admin_client, admin_actor):
    counts = []
    for players in (6, 40):
        tournament = new_event(admin_actor, name=f"Taille {players}")
        round_ = paired_round(admin_actor, tournament, players)
        games = tables(round_)
        player_report(games[0], games[0].player_a_id)
        results.report(admin_actor, games[1].pk, results.ResultInput(winner=None))
        clock.act(admin_actor, tournament, 1, clock.START, 60)
        counts.append(grid_queries(admin_client, round_))
    assert counts[0] == counts[1] and counts[0] <= 9


# --- two organisers at once --------------------------------------------------------------------

@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_organisers_sending_the_same_table_at_once_one_wins():
    staff = organiser("first")
    second = Actor(user=get_user_model().objects.create_user("second", is_staff=True))
    tournament = new_event(staff)
    round_ = paired_round(staff, tournament, 2)
    game = tables(round_)[0]
    seen = version(game)
    outcomes: list[object] = [None, None]
    barrier = threading.Barrier(2)

    def send(index: int, actor: Actor, winner: int) -> None:
        try:
            barrier.wait(timeout=30)
            outcomes[index] = result_grid.enter(
                actor, game.pk, seen, results.ResultInput(winner=winner))
        except Conflict as exc:
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(0, staff, game.player_a_id)),
               threading.Thread(target=send, args=(1, second, game.player_b_id))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    refused = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(refused) == 1 and refused[0].code == "game_changed"
    assert "confirmed" in str(refused[0])
    final = Game.objects.get(pk=game.pk)
    won = outcomes[0] if not isinstance(outcomes[0], Conflict) else outcomes[1]
    assert final.reports.count() == 1 and final.winner_id == won.winner_id


# --- the cockpit and the pairing refusal ---------------------------------------------------------

def test_cockpit_shows_results_in_and_the_clock_buttons(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 6)
    results.report(admin_actor, tables(round_)[0].pk, results.ResultInput(winner=None))
    page = reverse("admin:league_tournament_change", args=[tournament.pk])
    html = admin_client.get(page).content.decode()
    assert "Round 1: 1 of 3 results in" in html
    assert grid_url(round_) in html and "Start the clock" in html
    clock_url = reverse("admin:league_round_clock", args=[round_.pk])
    response = admin_client.post(clock_url, {"action": "start", "minutes": "75", "next": page})
    assert response.status_code == 302 and response.url == page
    assert messages_of(response) == ["Round 1: clock started, 1:15:00 to play."]
    html = admin_client.get(page).content.decode()
    assert 'value="pause"' in html and 'value="extend"' in html and 'value="start"' not in html
    response = admin_client.post(clock_url, {"action": "resume", "next": page})
    assert messages_of(response) == ["The clock is not paused."]
    assert AuditEntry.objects.filter(action="clock_start", actor=admin_actor.user).exists()


def test_round_page_has_the_clock_and_the_grid(admin_client, admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 4)
    html = admin_client.get(reverse("admin:league_round_change", args=[round_.pk])).content.decode()
    assert 'id="clock-panel"' in html and grid_url(round_) in html
    assert reverse("projector", args=[tournament.slug]) in html


def test_pairing_refusal_names_the_tables_that_block(admin_actor):
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 8)
    games = tables(round_)
    results.report(admin_actor, games[1].pk, results.ResultInput(winner=None))
    results.report(admin_actor, games[2].pk, results.ResultInput(winner=None))
    with pytest.raises(Conflict) as refused:
        rounds.pair_next_round(admin_actor, Tournament.objects.get(pk=tournament.pk))
    assert refused.value.code == "round_unconfirmed"
    assert str(refused.value) == (f"Round 1 still has results to confirm: tables "
                                  f"{games[0].table} and {games[3].table}.")
    results.report(admin_actor, games[0].pk, results.ResultInput(winner=None))
    with pytest.raises(Conflict) as one:
        rounds.pair_next_round(admin_actor, Tournament.objects.get(pk=tournament.pk))
    assert str(one.value).endswith(f"to confirm: table {games[3].table}.")


def test_many_blocking_tables_are_counted_not_all_named():
    assert rounds.tables_text(list(range(1, 16))) == \
        "tables 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 3 more"


def test_grid_shows_open_tables_only_and_pages_long_rounds(admin_client, admin_actor, monkeypatch):
    monkeypatch.setattr("events.admin.round_desk.GRID_PAGE", 2)
    tournament = new_event(admin_actor)
    round_ = paired_round(admin_actor, tournament, 10)
    games = tables(round_)
    results.report(admin_actor, games[0].pk, results.ResultInput(winner=None))

    def shown(query: str) -> list[str]:
        html = admin_client.get(grid_url(round_) + query).content.decode()
        return re.findall(r'<tr id="table-(\d+)"', html)

    assert shown("") == [str(g.table) for g in games[:2]]
    assert shown("?page=3") == [str(games[4].table)]
    assert shown("?show=open") == [str(g.table) for g in games[1:3]]
    assert shown("?show=open&page=2") == [str(g.table) for g in games[3:5]]
    html = admin_client.get(grid_url(round_) + "?show=open&page=2").content.decode()
    assert "1 of 5 results in" in html and "?show=open&amp;page=1" in html
    response = admin_client.post(grid_url(round_) + "?show=open&page=2", row(games[3], "a"))
    assert response.url == grid_url(round_) + "?show=open&page=2"
