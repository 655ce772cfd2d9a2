"""Two captains through a 5-player WTC draft on their phones (360 px, Chromium): each page polls
the draft (every 2 s; every 0.5 s here, so the test waits less for a captain to see the other's
move), shows only the choices its captain may make, and the draft ends with five games on
tables 1–5."""
from __future__ import annotations

import re
import time

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import TimeoutError

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


def exactly(text: str) -> re.Pattern:
    return re.compile(f"^{re.escape(text)}$")


def act(page) -> bool:
    """Make this captain's move when the page offers one: the first choices, then Send; return
    once the page shows the answer (the page reads the draft again after each move)."""
    form = page.locator("#act")
    if not form.is_visible():
        return False
    status, error = page.locator("#status"), page.locator("#error")
    before = status.inner_text(), page.locator("#commits li").count(), error.inner_text()
    prompt = page.locator("#prompt").inner_text()
    wanted = 2 if "(2)" in prompt else (0 if "(" not in prompt else 1)
    buttons = page.locator("#choices button")
    try:
        for button in [*(buttons.nth(i) for i in range(wanted)), page.locator("#send")]:
            if not form.is_visible():
                raise TimeoutError("the form went away")
            button.click(timeout=5_000)
    except TimeoutError:
        if form.is_visible():
            raise
        # The page polled and re-drew itself under the pointer, and the draft moved on (a click
        # landed elsewhere, e.g. on Send): look at both pages again.
        return True
    # A move changes the status or adds a commit; a refused one (a stale page) shows why.
    status.filter(has_not_text=exactly(before[0])).or_(
        page.locator("#commits li").nth(before[1])).or_(
        error.filter(has_not_text=exactly(before[2]))).first.wait_for()
    return True


def wait_for_a_move(pages, give_up: float) -> None:
    """Until a page offers its captain a move, or the draft is done: the pages see the other
    captain's moves when they poll the draft."""
    while not any(page.locator("#act").is_visible() for page in pages):
        if "Draft done" in pages[0].locator("#status").inner_text():
            return
        assert time.monotonic() < give_up, [page.locator("#status").inner_text() for page in pages]
        pages[0].wait_for_timeout(100)


def test_two_captains_draft_five_players_on_their_phones(new_page, live_server, staff_user, screenshots,
                                                          monkeypatch):
    monkeypatch.setattr("teams.pages.POLL_MILLISECONDS", 500)
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
        if not [page for page in pages if act(page)]:  # each page in turn, then wait for one
            wait_for_a_move(pages, give_up)
    for number, page in enumerate(pages):
        page.screenshot(path=str(screenshots / f"02-done-{number}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert audit(page) == []
    games = MatchGame.objects.filter(match_id=match).select_related("game")
    assert sorted(link.game.table for link in games) == [1, 2, 3, 4, 5]
    assert sorted(link.role for link in games) == ["defender"] * 4 + ["refused"]
