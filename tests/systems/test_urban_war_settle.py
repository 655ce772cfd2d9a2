"""The admin game page's "Enter the result as an organiser" form of an Urban War game asks what
an Urban War report says (whose commando was destroyed, each side's destroyed enemy models) and
records it: the same system report form as the player's game page (systems/urban_war/report)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from events.audit import Actor
from events.models import Game, PlayerList
from tests.browser.clock_events import new_event, paired_round

pytestmark = pytest.mark.django_db


def labels_of(player_id: int) -> list[str]:
    return [e["label"] for e in PlayerList.objects.get(player_id=player_id, role="").army_list.entries]


def points_of(player_id: int, labels: list[str]) -> int:
    entries = PlayerList.objects.get(player_id=player_id, role="").army_list.entries
    return sum(e["points"] for e in entries if e["label"] in labels)


@pytest.fixture
def urban_game(admin_user) -> Game:
    staff = Actor(user=admin_user)
    tournament = new_event(staff, "urban-war", name="Zone", language="en")
    round_ = paired_round(staff, tournament, 2, with_lists=True)
    return round_.games.get()


def test_the_admin_game_page_offers_urban_war_fields(admin_client, urban_game):
    html = admin_client.get(reverse("admin:league_game_change", args=[urban_game.pk])).content.decode()
    assert 'name="commando_destroyed"' in html
    assert 'name="destroyed_a"' in html and 'name="vp_a"' not in html


def test_an_urban_war_result_entered_by_an_organiser_is_stored_as_entered(admin_client, urban_game):
    a, b = urban_game.player_a_id, urban_game.player_b_id
    killed_by_b = labels_of(a)[:1]
    response = admin_client.post(reverse("admin:league_game_settle", args=[urban_game.pk]), {
        "commando_destroyed": str(b), "destroyed_b": killed_by_b, "comment": "seen at the table"})
    assert response.status_code == 302
    game = Game.objects.get(pk=urban_game.pk)
    assert (game.status, game.winner_id) == ("confirmed", a)
    # A destroyed commando counts whole: the winner scores all of it; the loser what it killed.
    assert game.victory_points == {str(a): points_of(b, labels_of(b)),
                                   str(b): points_of(a, killed_by_b)}
    assert game.outcome["commando_destroyed"] == b
    assert game.reports.get().comment == "seen at the table"


def test_a_refused_urban_war_settle_says_why_and_stores_nothing(admin_client, urban_game):
    response = admin_client.post(reverse("admin:league_game_settle", args=[urban_game.pk]),
                                 {"commando_destroyed": "12345"}, follow=True)
    assert Game.objects.get(pk=urban_game.pk).status == "pending"
    assert "commando" in response.content.decode().lower()
