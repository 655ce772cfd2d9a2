"""French elision where a campaign's sentences meet a name (config/typography.elide): the cockpit's
"action supplémentaire d'Isidore", the turn pack's "Carte d'Isidore" and "Ordres d'Isidore",
the order form's choices; a name starting with a consonant keeps "de", and English is unchanged."""
from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.choices import _bonus_label
from campaigns.models import Campaign, CampaignOrder, CampaignSide, CampaignTurn
from campaigns.pack_sheets import part_html
from campaigns.services import turns as campaign_turns
from campaigns.services.pack import turn_pack_content, where_line
from events.audit import Actor
from events.models import Player, Tournament
from tests.browser.campaigns import running_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(staff_actor, people) -> Campaign:
    """West is played by Isidore (a vowel), east by Grukk; the moves phase of turn 1 is open."""
    campaign = running_campaign(staff_actor, people["west"], people["east"])
    west = CampaignSide.objects.get(campaign=campaign, side="west")
    Player.objects.filter(pk=west.player_id).update(name="Isidore")
    campaign_turns.roll_initiative(staff_actor, campaign, 1, "moves", [6, 6])
    return campaign


def in_language(campaign: Campaign, language: str) -> None:
    Tournament.objects.filter(campaign=campaign).update(language=language)


def test_the_cockpit_says_whose_extra_action_an_order_used(game, people, desk):
    campaign_turns.declare_order(Actor(user=people["west"]), game, 1,
                                 campaign_turns.OrderInput("move", ("Eagle Scouts",), "9", "8"))
    order = CampaignOrder.objects.get(side="west", kind="move")
    cockpit = reverse("admin:campaigns_campaign_change", args=[game.pk])

    def shown(commander: str, language: str) -> str:
        CampaignOrder.objects.filter(pk=order.pk).update(bonus="supreme_commander",
                                                         commander=commander)
        return unescape(desk.get(cockpit, HTTP_ACCEPT_LANGUAGE=language).content.decode())

    assert "action supplémentaire d'Isidore" in shown("Isidore", "fr")
    assert "action supplémentaire de Varro" in shown("Varro", "fr")
    assert "extra action of Isidore" in shown("Isidore", "en")


def test_the_order_forms_name_the_commanders_extra_action():
    with translation.override("fr"):
        assert _bonus_label("Garde : 9 → 8", "Isidore") == \
            "Garde : 9 → 8 (action supplémentaire d'Isidore)"
        assert _bonus_label("Garde : 9 → 8", "Varro").endswith("(action supplémentaire de Varro)")
    with translation.override("en"):
        assert _bonus_label("Guard", "Isidore") == "Guard (extra action of Isidore)"


def test_the_turn_pack_names_each_players_map_and_order_sheet(game):
    round_ = CampaignTurn.objects.get(campaign=game, number=1).round
    in_language(game, "fr")
    content = turn_pack_content(round_)
    titles = [page.title for page in content.maps]
    assert "Carte d'Isidore (Ouest)" in titles and "Carte de Grukk (Est)" in titles
    orders = unescape(part_html(content, "orders"))
    assert "Ordres d'Isidore" in orders and "Ordres de Grukk" in orders
    assert "de Isidore" not in orders
    in_language(game, "en")
    content = turn_pack_content(round_)
    assert "Map of Isidore (West)" in [page.title for page in content.maps]
    assert "Orders of Isidore" in unescape(part_html(content, "orders"))


def test_a_territory_is_placed_on_the_line_of_a_side():
    with translation.override("fr"):
        assert where_line("A") == "A, ligne 1 de l'Est"
        assert where_line("1") == "1, ligne 3 de l'Ouest"
    with translation.override("en"):
        assert where_line("A") == "A, East line 1"
