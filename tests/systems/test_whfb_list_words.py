"""The Warhammer Battle list and report, second look (#24 item 11): the category chart shows each
category's points and share against the chart's percentage limits (never "0–∞"); a list sent
with its Army left "not given" is the army chosen at registration; a report missing a
victory-points value on a form without a result choice asks for the points, not a result."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from armylists.models import Chart
from events.models import Tournament
from events.services import lists
from tests.browser.events import system_event
from tests.systems.test_system_game_page import OMS, paired, post, text_of, whfb_body
from tests.systems.test_system_list_pages import (
    EMPIRE,
    select,
    signed_in_player,
    units_post,
    whfb_event,
)

pytestmark = pytest.mark.django_db
TOO_GRAND = [{"name": "Grand Master", "slot": "lords", "points": 400, "unit_type": "character"},
             {"name": "Halberdiers", "slot": "core", "points": 300, "models": 20,
              "unit_type": "infantry"}]


def share_row(html: str, code: str) -> str:
    row = re.search(rf'<tr id="share-{code}"[^>]*>(.*?)</tr>', html, re.S).group(1)
    return text_of(row).strip()


def test_the_category_chart_shows_points_shares_and_limits(client):
    event = whfb_event()
    Tournament.objects.filter(pk=event.pk).update(chart=Chart.objects.get(slug="whfb-standard"))
    _player, url = signed_in_player(client, event, faction="The Empire")
    html = client.post(url, units_post(TOO_GRAND, faction="empire"), follow=True).content.decode()
    assert "∞" not in html
    lords = share_row(html, "lords")
    assert lords.startswith("Lords") and "400 57% at most 50%" in lords
    assert "at most 50% allowed" in lords  # the engine's refusal, beside its category
    assert share_row(html, "core").endswith("300 42% at least 25%")
    assert share_row(html, "rare").endswith("0 0% at most 25%")
    with translation.override("fr"):
        assert translation.gettext("no limit") == "sans limite"
        html = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert share_row(html, "lords").endswith("57 % au plus 50 %")
    assert "<td>au plus 50\u00a0%</td>" in html  # French typography: a non-breaking space


def test_a_chart_without_limits_says_so(client):
    event = whfb_event()  # whfb-open: no percentage limits
    _player, url = signed_in_player(client, event)
    html = client.post(url, units_post(EMPIRE, faction="empire"), follow=True).content.decode()
    assert "∞" not in html and share_row(html, "core").endswith("no limit")
    # Options count in their category's points (10 crossbowmen with stakes: +20).
    assert "520 77%" in share_row(html, "core")


def test_a_list_without_an_army_is_the_registered_one(client):
    event = whfb_event()
    player, url = signed_in_player(client, event, faction="Bretonnie")
    assert '<option value="bretonnia" selected>' in select(client.get(url).content.decode(), "faction")
    html = client.post(url, units_post(EMPIRE, faction=""), follow=True).content.decode()
    stored = lists.current_list(player)
    assert stored.report["faction"] == "bretonnia"
    assert "Army: Bretonnia." in text_of(html)
    assert '<option value="bretonnia" selected>' in select(html, "faction")


def test_a_missing_victory_points_value_asks_for_the_points(client, staff_actor):
    event = system_event(staff_actor, "whfb", "whfb-open", "Nuln", points_limit=2000, scoring=OMS)
    game, alice, _bob = paired(staff_actor, event, {"a": whfb_body(), "b": whfb_body()})
    html = text_of(post(client, alice, game, {"action": "report", "vp_a": "", "vp_b": "700"}))
    assert 'name="winner"' not in html
    assert "Choose the result" not in html
    assert "Fill in both sides' victory points" in html
