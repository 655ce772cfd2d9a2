"""The results grid settles a whole round of any game system: Urban War rows name the destroyed
commando and each side's destroyed enemy models (the server derives the victory points from the
stored commandos), Warhammer Battle rows the victory points, the baggage captor and each side's
units that left to loot. Every row goes through ``results.report``, so the system's outcome
serializer and ``score`` check it; a row changed meanwhile is still refused (``game_changed``)."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.audit import Actor
from events.models import Game, PlayerList, Round
from events.services import result_grid, results
from tests.browser.clock_events import new_event, paired_round
from tests.events.test_results_grid import grid_url, tables

pytestmark = pytest.mark.django_db


def row(game: Game, result: str, **fields) -> dict[str, object]:
    """A row as the browser posts it: ticked boxes are lists (one field per box)."""
    data: dict[str, object] = {
        f"g{game.pk}-version": result_grid.current_version(Game.objects.get(pk=game.pk)),
        f"g{game.pk}-result": result}
    data.update({f"g{game.pk}-{k}": v if isinstance(v, list) else str(v) for k, v in fields.items()})
    return data


def entries(player_id: int) -> list[dict]:
    return PlayerList.objects.get(player_id=player_id, role="").army_list.entries


def points_of(player_id: int, labels: list[str]) -> int:
    return sum(e["points"] for e in entries(player_id) if e["label"] in labels)


def errors_of(html: str) -> dict[str, str]:
    return dict(re.findall(r'id="error-(\d+)">([^<]+)<', html))


# --- Urban War ---------------------------------------------------------------------------------

@pytest.fixture
def urban_round(admin_actor) -> Round:
    tournament = new_event(admin_actor, "urban-war", name="Zone", language="en")
    return paired_round(admin_actor, tournament, 6, with_lists=True)


def test_urban_war_rows_offer_each_sides_enemy_models(admin_client, urban_round):
    a = tables(urban_round)[0]
    html = admin_client.get(grid_url(urban_round)).content.decode()
    assert "enemy models destroyed" in html
    for side, enemy in (("a", a.player_b_id), ("b", a.player_a_id)):
        offered = re.findall(rf'name="g{a.pk}-destroyed_{side}" value="([^"]+)"', html)
        assert offered == [e["label"] for e in entries(enemy)]
    assert f"Models of {a.player_b.name} destroyed by {a.player_a.name}, table {a.table}" in html


def test_a_whole_urban_war_round_is_settled_from_the_grid(admin_client, urban_round):
    a, b, c = tables(urban_round)
    data = {**row(a, "none", destroyed_a=["Marine 1", "Marine 2"], destroyed_b=["Sergent"]),
            **row(b, "lost_a", destroyed_b=["Marine 3"]),
            **row(c, "lost_b")}
    response = admin_client.post(grid_url(urban_round), data)
    assert response.status_code == 302, errors_of(response.content.decode())
    a, b, c = (Game.objects.get(pk=g.pk) for g in (a, b, c))
    # No commando destroyed: the event's default mode scores a draw; the points are derived.
    assert (a.status, a.winner_id) == ("confirmed", None)
    assert a.outcome["destroyed"] == {str(a.player_a_id): ["Marine 1", "Marine 2"],
                                      str(a.player_b_id): ["Sergent"]}
    assert a.victory_points == {
        str(a.player_a_id): points_of(a.player_b_id, ["Marine 1", "Marine 2"]),
        str(a.player_b_id): points_of(a.player_a_id, ["Sergent"])}
    # A destroyed commando gives the game to its opponent, and all of it counts as destroyed.
    assert b.winner_id == b.player_b_id and b.outcome["commando_destroyed"] == b.player_a_id
    everything = [e["label"] for e in entries(b.player_a_id)]
    assert b.victory_points[str(b.player_b_id)] == points_of(b.player_a_id, everything)
    assert c.winner_id == c.player_a_id
    assert Round.objects.get(pk=urban_round.pk).status == Round.Status.COMPLETED


def test_an_urban_war_row_changed_meanwhile_is_refused_as_typed(admin_client, admin_actor, urban_round):
    game = tables(urban_round)[0]
    seen = row(game, "none", destroyed_a=["Marine 4"])
    other = Actor(user=get_user_model().objects.create_user("second", is_staff=True))
    results.report(other, game.pk, results.ResultInput(
        facts={"commando_destroyed": None, "destroyed": {}}))
    response = admin_client.post(grid_url(urban_round), seen)
    html = response.content.decode()
    assert response.status_code == 200
    assert "changed since this page was loaded" in errors_of(html)[str(game.table)]
    assert re.search(rf'name="g{game.pk}-destroyed_a" value="Marine 4"[^>]*checked', html)
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.reports.count() == 1 and not any(fresh.outcome["destroyed"].values())


def test_a_model_not_in_the_commando_is_refused_in_its_row(admin_client, urban_round):
    a, b, _c = tables(urban_round)
    data = {**row(a, "none", destroyed_a=["Nobody"]), **row(b, "none")}
    response = admin_client.post(grid_url(urban_round), data)
    assert response.status_code == 200
    assert "Nobody" in errors_of(response.content.decode())[str(a.table)]
    assert Game.objects.get(pk=a.pk).status == "pending"
    assert Game.objects.get(pk=b.pk).status == "confirmed"


def grid_queries(admin_client, round_: Round) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert admin_client.get(grid_url(round_)).status_code == 200
    return len(queries)


@pytest.mark.parametrize("system", ["urban-war", "whfb"])
def test_the_grid_reads_the_lists_in_one_query_at_any_size(admin_client, admin_actor, system):
    counts = []
    for players in (4, 14):
        tournament = new_event(admin_actor, system, name=f"{system} {players}",
                               advanced_rules={"baggage": True} if system == "whfb" else None)
        counts.append(grid_queries(admin_client, paired_round(admin_actor, tournament, players,
                                                              with_lists=True)))
    assert counts[0] == counts[1] and counts[0] <= 10


# --- Warhammer Battle ------------------------------------------------------------------------

@pytest.fixture
def whfb_round(admin_actor) -> Round:
    tournament = new_event(admin_actor, "whfb", name="Nuln", language="en",
                           advanced_rules={"baggage": True})
    return paired_round(admin_actor, tournament, 4, with_lists=True)


def test_warhammer_battle_rows_offer_each_sides_units(admin_client, whfb_round):
    a, _b = tables(whfb_round)
    html = admin_client.get(grid_url(whfb_round)).content.decode()
    assert "units that left to loot" in html
    offered = re.findall(rf'name="g{a.pk}-looting_a" value="([^"]+)"', html)
    assert offered == [e["name"] for e in entries(a.player_a_id)]


def test_a_whole_warhammer_battle_round_is_settled_from_the_grid(admin_client, whfb_round):
    a, b = tables(whfb_round)
    data = {**row(a, "a", vp_a=900, vp_b=800, baggage="a", looting_a=["Knights"],
                  looting_b=["Halberdiers", "Crossbowmen"]),
            **row(b, "draw", vp_a=500, vp_b=500)}
    response = admin_client.post(grid_url(whfb_round), data)
    assert response.status_code == 302, errors_of(response.content.decode())
    a, b = Game.objects.get(pk=a.pk), Game.objects.get(pk=b.pk)
    assert a.outcome["looting_units"] == {str(a.player_a_id): ["Knights"],
                                          str(a.player_b_id): ["Halberdiers", "Crossbowmen"]}
    assert a.victory_points == {str(a.player_a_id): 1100, str(a.player_b_id): 800}
    assert (b.winner_id, b.outcome["looting_units"]) == (None, {})
    assert Round.objects.get(pk=whfb_round.pk).status == Round.Status.COMPLETED


def test_accepting_a_report_with_units_ticked_is_refused(admin_client, whfb_round):
    game = tables(whfb_round)[0]
    account = get_user_model().objects.create_user("reporter")
    game.player_a.user = account
    game.player_a.save(update_fields=["user"])
    results.report(Actor(user=account), game.pk, results.ResultInput(
        winner=game.player_a_id, victory_points={game.player_a_id: 700, game.player_b_id: 200}))
    response = admin_client.post(grid_url(whfb_round), row(game, "accept", looting_b=["Knights"]))
    assert "untick the models and units" in errors_of(response.content.decode())[str(game.table)]
    assert Game.objects.get(pk=game.pk).status == "reported"


def test_a_warhammer_battle_row_changed_meanwhile_is_refused(admin_client, admin_actor, whfb_round):
    game = tables(whfb_round)[0]
    seen = row(game, "b", vp_a=100, vp_b=900, looting_a=["General"])
    results.report(admin_actor, game.pk, results.ResultInput(
        winner=game.player_a_id, victory_points={game.player_a_id: 900, game.player_b_id: 100}))
    response = admin_client.post(grid_url(whfb_round), seen)
    assert "changed since this page was loaded" in errors_of(
        response.content.decode())[str(game.table)]
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.winner_id == game.player_a_id and fresh.outcome["looting_units"] == {}
