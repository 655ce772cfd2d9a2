"""Accessibility in Debian's Chromium: axe-core over every player page (no serious or critical
violation), keyboard use, and the organiser's cockpit fitting a 1,280 px screen."""
from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client

from campaigns.models import Campaign
from events.audit import Actor
from events.demo import DEMO_SLUG
from events.models import Game, Player, Round, Tournament
from events.services import results
from tests.browser.a11y import audit
from tests.browser.demo_site import demo_site
from tests.browser.events import lock_and_pair, open_event, organiser, register, user
from tests.leagues.league_fixtures import build_league, ids, played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

BAD_PAGE = """<!doctype html><html lang="en"><head><title>Bad</title></head><body>
<main><h1>Bad page</h1>
<p style="color:#bbb">Pale grey text on white</p>
<input id="orphan" name="orphan">
<button></button>
<label for="named">Named</label><input id="named" name="named">
<p style="color:#222">Dark enough</p>
</main></body></html>"""
OTHER_SYSTEMS = ("demo-dynamics", "demo-nuln", "demo-urban")
COCKPIT_WIDTH = {"width": 1280, "height": 800}


def signed_in(new_page, live_server, account, **options):
    """A page whose context carries ``account``'s session (no log-in form to fill)."""
    page = new_page(**options)
    if account is not None:
        client = Client()
        client.force_login(account)
        page.context.add_cookies([{
            "name": django_settings.SESSION_COOKIE_NAME, "url": live_server.url,
            "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])
    return page


def audited(page, url: str) -> list[str]:
    page.goto(url)
    page.locator("h1").first.wait_for()
    return [f"{url}: {line}" for line in audit(page)]


def test_axe_reports_missing_labels_names_and_low_contrast(chromium):
    page = chromium.new_page()
    page.set_content(BAD_PAGE)
    problems = audit(page)
    assert any(p.startswith("label (critical): #orphan") for p in problems), problems
    assert any(p.startswith("button-name (critical): button") for p in problems), problems
    assert any(p.startswith("color-contrast (serious)") for p in problems), problems
    assert not any("#named" in p for p in problems), problems


@pytest.mark.xdist_group("demo_site")  # one worker builds the demo site once (demo_site.py)
def test_every_player_page_passes_axe(new_page, live_server, settings, tmp_path):
    """Home, each system's demo event and its standings, a game, lists, the profile, log-in,
    sign-up, the campaign, the projector and the league page, as a visitor, a player and a side."""
    demo_site(settings, tmp_path)
    cup_game = (Game.objects.filter(round__tournament__slug=DEMO_SLUG, player_a__user__isnull=False)
                .select_related("player_a__user").order_by("table").first())
    campaign = Campaign.objects.get(slug="demo-laitus-prime")
    league = build_league(get_user_model().objects.create_user("league-staff", is_staff=True), 3,
                          prefix="axe")
    a, b, _ = ids(league)
    played(league, a, b, 2, a)
    # demo-player has a list in every system's demo event.
    demo_player = get_user_model().objects.get(username="demo-player")
    lists = [f"/tournaments/{p.tournament.slug}/players/{p.pk}/list/" for p in
             Player.objects.filter(tournament__slug__in=OTHER_SYSTEMS, user=demo_player)
             .select_related("tournament")]
    assert len(lists) == len(OTHER_SYSTEMS)

    visitor = signed_in(new_page, live_server, None)
    problems = []
    for url in ["/", f"/tournaments/{DEMO_SLUG}/", f"/tournaments/{DEMO_SLUG}/?extras=without",
                *(f"/tournaments/{slug}/" for slug in OTHER_SYSTEMS), "/tournaments/demo-open/",
                f"/campaigns/{campaign.slug}/", f"/tournaments/{league.slug}/league/",
                "/login/", "/signup/"]:
        problems += audited(visitor, url)
    visitor.goto(f"/tournaments/{DEMO_SLUG}/projector/")
    visitor.wait_for_function("() => document.getElementById('clock') !== null")
    problems += [f"projector: {line}" for line in audit(visitor)]

    player = signed_in(new_page, live_server, cup_game.player_a.user)
    for url in [f"/games/{cup_game.pk}/", f"/tournaments/{DEMO_SLUG}/players/"
                f"{cup_game.player_a_id}/list/", "/profile/", f"/tournaments/{DEMO_SLUG}/"]:
        problems += audited(player, url)
    other_player = signed_in(new_page, live_server, demo_player)
    for url in lists:
        problems += audited(other_player, url)
    side = signed_in(new_page, live_server, campaign.sides.get(side="west").player.user)
    problems += audited(side, f"/campaigns/{campaign.slug}/")
    league_player = signed_in(new_page, live_server, league.users[b])
    problems += audited(league_player, f"/tournaments/{league.slug}/league/")
    # French words are longer and set otherwise: a page each of the busiest ones.
    french = signed_in(new_page, live_server, cup_game.player_a.user, locale="fr-FR")
    for url in [f"/tournaments/{DEMO_SLUG}/", f"/games/{cup_game.pk}/"]:
        problems += audited(french, url)
    assert problems == []


@pytest.mark.xdist_group("demo_site")
def test_no_page_of_the_cockpit_scrolls_sideways_at_1280(new_page, live_server, settings, tmp_path):
    """The tournament page (its players table), a round, its results grid, check-in, the awards
    grid and the campaign cockpit, in French (the longer words), at 1,280 px wide."""
    demo_site(settings, tmp_path)
    event = Tournament.objects.get(slug=DEMO_SLUG)
    round_ = Round.objects.filter(tournament=event).order_by("number").first()
    campaign = Campaign.objects.get(slug="demo-laitus-prime")
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "boss-pass-1234")
    page = signed_in(new_page, live_server, boss, locale="fr-FR")
    page.set_viewport_size(COCKPIT_WIDTH)
    wide = {}
    for url in [f"/admin/league/tournament/{event.pk}/change/",
                f"/admin/league/round/{round_.pk}/change/",
                f"/admin/league/round/{round_.pk}/results/",
                f"/admin/league/tournament/{event.pk}/check-in/",
                f"/admin/venue/scorecomponent/grid/{event.pk}/",
                f"/admin/campaigns/campaign/{campaign.pk}/change/"]:
        page.goto(url)
        assert page.locator("#content").count() == 1, url  # the admin page, not a log-in form
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > page.evaluate("innerWidth"):
            wide[url] = width
    assert wide == {}


def test_log_in_and_confirm_a_result_with_the_keyboard_only(new_page, screenshots):
    staff = organiser()
    event = open_event(staff, name="Clavier seul")
    alice, bob = user("alice"), user("bob", password="bob-pass-98765")
    register(event, alice, "Alice")
    register(event, bob, "Bob")
    game = lock_and_pair(staff, event).games.get()
    reporter = alice if game.player_a.user_id == alice.pk else bob
    results.report(Actor(user=reporter), game.pk, results.ResultInput(winner=game.player_a_id))
    opponent_name = "bob" if reporter is alice else "alice"
    password = "bob-pass-98765" if opponent_name == "bob" else "player-pass-1234"

    page = new_page()
    page.goto(f"/login/?next=/games/{game.pk}/")
    page.locator("body").focus()
    for _ in range(12):  # Tab from the top of the page until the username field has the focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "id_username":
            break
    assert page.evaluate("document.activeElement.id") == "id_username"
    page.keyboard.type(opponent_name)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "id_password"
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(f"/games/{game.pk}/$"))

    confirm = page.get_by_role("button", name="Confirm this result")
    for _ in range(60):
        page.keyboard.press("Tab")
        if confirm.evaluate("b => b === document.activeElement"):
            break
    assert confirm.evaluate("b => b === document.activeElement")
    outline = confirm.evaluate("b => getComputedStyle(b).outlineStyle")
    assert outline != "none"  # the focus is visible
    page.screenshot(path=str(screenshots / "keyboard-confirm.png"), full_page=True)
    page.keyboard.press("Enter")
    page.get_by_text("Result confirmed.").wait_for()
    assert Game.objects.get(pk=game.pk).status == Game.Status.CONFIRMED
