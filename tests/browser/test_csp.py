"""The Content-Security-Policy in Chromium: the main pages, an admin page and the API docs load
with nothing refused (no `securitypolicyviolation` event, no console error such as "Refused to
execute inline script"), and their scripts still run: the language menu (static/muster.js), the
live result line of a game page (static/report-preview.js), the admin's nonce'd styles, and
Swagger UI's nonce'd start-up script. (The mission pack page's polling script has its nonce checked
by tests/site/test_security_headers.py: here it would cost its 2 s wait.)"""
from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client

from campaigns.models import Campaign
from events.demo import DEMO_SLUG
from events.models import Game
from tests.browser.demo_site import demo_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Every violation of the page's policy is reported to the test, whatever the page's own scripts.
WATCH = """document.addEventListener("securitypolicyviolation", event => window.cspViolation(
  `${event.violatedDirective} refused ${event.blockedURI || "inline"} `
  + `(${event.sourceFile || "?"}:${event.lineNumber})`));"""


class Watched:
    """A browser page whose policy violations, console errors and uncaught errors are kept."""

    def __init__(self, new_page, live_server, user=None):
        self.page = new_page()
        self.problems: list[str] = []
        self.page.expose_function("cspViolation", self.note)
        self.page.add_init_script(WATCH)
        self.page.on("console", lambda m: m.type == "error" and self.note(f"console: {m.text}"))
        self.page.on("pageerror", lambda error: self.note(f"uncaught: {error}"))
        if user is not None:
            client = Client()
            client.force_login(user)
            self.page.context.add_cookies([{
                "name": django_settings.SESSION_COOKIE_NAME, "url": live_server.url,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])

    def note(self, text: str) -> None:
        self.problems.append(f"{self.page.url}: {text}")

    def goto(self, url: str):
        """Open ``url``; whatever its parsing refused is reported once it has loaded."""
        self.page.goto(url)
        assert self.problems == [], self.problems
        return self.page


def pending_game() -> Game:
    """A game of the demo cup still waiting for its result, between two players with accounts."""
    return (Game.objects.filter(round__tournament__slug=DEMO_SLUG, status=Game.Status.PENDING,
                                player_a__user__isnull=False, player_b__user__isnull=False)
            .select_related("player_a__user", "player_b").order_by("table").first())


@pytest.mark.xdist_group("demo_site")  # with the accessibility tests: one demo site per worker
def test_pages_run_under_the_policy_with_nothing_refused(new_page, live_server, settings, tmp_path):
    demo_site(settings, tmp_path)
    game = pending_game()
    campaign = Campaign.objects.get(slug="demo-laitus-prime")

    # Anyone: the home page, an event, its projector, a campaign, the API docs.
    visitor = Watched(new_page, live_server)
    for url in ["/", f"/tournaments/{DEMO_SLUG}/", f"/campaigns/{campaign.slug}/"]:
        visitor.goto(url).get_by_role("heading", level=1).first.wait_for()
    projector = visitor.goto(f"/tournaments/{DEMO_SLUG}/projector/")
    projector.wait_for_function("() => document.getElementById('clock') !== null")
    docs = visitor.goto("/api/docs/")  # Swagger UI, built by its nonce'd start-up script
    docs.locator(".swagger-ui .info .title", has_text="Muster API").wait_for(timeout=20_000)
    docs.locator(".opblock").first.wait_for()
    # The language menu sends itself (static/muster.js): the page comes back in French.
    home = visitor.goto("/")
    home.select_option("#lang", "fr")
    home.wait_for_function("() => document.documentElement.lang === 'fr'")

    # A player's game page: the result line follows the form as it is filled (fetch, 'self').
    player = Watched(new_page, live_server, user=game.player_a.user)
    page = player.goto(f"/games/{game.pk}/")
    line = page.locator("#report-preview")
    before = line.inner_text()
    page.get_by_label(re.compile(f"Victory points of {re.escape(game.player_a.name)}")).fill("900")
    page.get_by_label(re.compile(f"Victory points of {re.escape(game.player_b.name)}")).fill("100")
    page.wait_for_function("before => document.getElementById('report-preview').innerText !== before",
                           arg=before)

    # A side's player sees the campaign's map, sized by campaign.css (once a style attribute).
    west = Watched(new_page, live_server, user=campaign.sides.get(side="west").player.user)
    map_page = west.goto(f"/campaigns/{campaign.slug}/")
    drawn = map_page.evaluate("['maxWidth', 'display'].map(key => getComputedStyle("
                              "document.querySelector('.campaign-map svg'))[key])")
    assert drawn == ["640px", "block"]
    assert map_page.evaluate("document.documentElement.scrollWidth") <= 360

    # The admin: an event's page, styled by its own nonce'd <style>, with Django's admin scripts.
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "boss-pass-1234")
    staff = Watched(new_page, live_server, user=boss)
    event_page = staff.goto(f"/admin/league/tournament/{game.round.tournament_id}/change/")
    assert event_page.evaluate("getComputedStyle(document.querySelector('.cockpit')).marginBottom") == "20px"

    assert visitor.problems + player.problems + west.problems + staff.problems == []
