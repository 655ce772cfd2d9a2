"""Two captains through a 5-player WTC draft on their phones (360 px, Chromium): each page polls
the draft every 2 s, shows only the choices its captain may make, and the draft ends with five
games on tables 1–5."""
from __future__ import annotations

import time

import pytest
from django.conf import settings as django_settings
from django.test import Client

from teams.models import MatchGame
from tests.browser.a11y import audit
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def signed_in(new_page, live_server, user):
    page = new_page()
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "url": live_server.url,
                               "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])
    return page


def act(page) -> bool:
    """Make this captain's move when the page offers one: the first choices, then Send."""
    form = page.locator("#act")
    if not form.is_visible():
        return False
    prompt = page.locator("#prompt").inner_text()
    wanted = 2 if "(2)" in prompt else (0 if "(" not in prompt else 1)
    buttons = page.locator("#choices button")
    for i in range(wanted):
        buttons.nth(i).click()
    page.locator("#send").click()
    return True


def test_two_captains_draft_five_players_on_their_phones(new_page, live_server, staff_user, screenshots):
    event = build(staff_user, teams=2, size=5, prefix="phone")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    pages = [signed_in(new_page, live_server, event.users[t["captain"]]) for t in event.teams]
    for page in pages:
        page.goto(f"/team-matches/{match}/draft/")
        page.locator("#status").wait_for()
    pages[0].screenshot(path=str(screenshots / "01-roll.png"), full_page=True)
    give_up = time.monotonic() + 120
    while "Draft done" not in pages[0].locator("#status").inner_text():
        assert time.monotonic() < give_up, pages[0].locator("#status").inner_text()
        moved = False
        for page in pages:
            moved = act(page) or moved
            page.wait_for_timeout(300)
        if not moved:
            pages[0].wait_for_timeout(500)
    for number, page in enumerate(pages):
        page.screenshot(path=str(screenshots / f"02-done-{number}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert audit(page) == []
    games = MatchGame.objects.filter(match_id=match).select_related("game")
    assert sorted(link.game.table for link in games) == [1, 2, 3, 4, 5]
    assert sorted(link.role for link in games) == ["defender"] * 4 + ["refused"]
