"""A campaign's event page (#24 item 8): the tournament a campaign owns links to the campaign's
map and orders and shows none of the Swiss parts (round table, win/draw/loss standings, "My
list"); a Swiss event's page keeps them and reads no campaign."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign
from events.models import Tournament
from tests.browser.campaigns import running_campaign
from tests.browser.events import open_event

pytestmark = pytest.mark.django_db


def event_page(campaign_or_event: Any, account: Any = None, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    if account is not None:
        client.force_login(account)
    event = getattr(campaign_or_event, "tournament", campaign_or_event)
    response = client.get(reverse("tournament", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def game(staff_actor, people) -> Campaign:
    campaign = running_campaign(staff_actor, people["west"], people["east"])
    assert campaign.tournament.status != Tournament.Status.DRAFT
    return campaign


def test_a_campaigns_event_page_links_to_the_map_and_hides_the_swiss_parts(game, people):
    link = f'href="{reverse("campaign", args=[game.slug])}"'
    for account in (people["west"], people["stranger"], None):
        html = event_page(game, account)
        assert link in html
        assert 'id="standings-title"' not in html and 'id="round-title"' not in html
        assert "My list" not in html and "Find a player" not in html
    assert "Map and my orders" in event_page(game, people["west"])
    with translation.override("fr"):
        words = translation.gettext("Map and orders")
    assert words != "Map and orders" and words in event_page(game, None, "fr")


def test_a_swiss_events_page_keeps_its_parts_and_names_no_campaign(staff_actor):
    event = open_event(staff_actor)
    html = event_page(event)
    assert 'id="standings-title"' in html and 'id="campaign-link"' not in html
    # The registry answers for a Swiss event's system: no query for a campaign.
    with CaptureQueriesContext(connection) as captured:
        event_page(event)
    assert not any("league_campaign" in q["sql"] for q in captured.captured_queries)
