"""Issue #25's pages in Chromium at 360 and 1280 px, in English and in French: a circuit's
standings (paged, searchable), a person's breakdown, the profile's circuits block, the league
page (this week, games counted, bye available, the units the list must keep, the weekly table
with its dropped weeks marked), the week list page; and a league game reported from a phone.

One live server, the pages visited in sequence: no page scrolls sideways (a wide table sits in
a scroll box that shows it scrolls), and the French pages keep no English string we know."""
from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.browser.phone_tables import tables_of
from tests.leagues.league_fixtures import build_league, ids, played, weeks_around_now
from tests.tournament_fixtures import expect, list_path, post, put

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1280, "height": 800}
PEOPLE = 60  # more than a page (50)
CAPTAIN = {"name": "Captain", "slot": "hq", "points": 100}
TACTICAL = {"name": "Tactical Squad", "slot": "troops", "points": 150, "models": 10}

# Per page: what the English page says, and what the French one says instead (never the English).
WORDS = {
    "standings": [("Find a player", "Trouver un joueur"), ("Next", "Suivante")],
    "person": [("Raw points", "Points bruts"), ("Counted", "Compté")],
    "profile": [("My circuits", "Mes circuits")],
    "league": [("Week 2", "Semaine 2"), ("Games counted: 1 of 2", "1 sur 2"),
               ("League table", "Classement de la ligue"), ("Report a game", "Déclarer une partie"),
               ("must keep", "doit garder")],
    "week_list": [("Week 2", "Semaine 2")],
}


def sign_in(page, live_server, account) -> None:
    client = Client()
    client.force_login(account)
    page.context.add_cookies([{
        "name": django_settings.SESSION_COOKIE_NAME, "url": live_server.url,
        "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])


def circuit_of(staff, usernames: list[str]) -> str:
    """A placement circuit of one event run elsewhere, ``PEOPLE`` placed (the accounts first)."""
    slug = expect(post(staff, "/circuits/", {"name": "Circuit d'automne", "method": "placement"}),
                  201)["slug"]
    names = usernames + [f"Joueuse au nom assez long n°{i:02d}" for i in range(PEOPLE - len(usernames))]
    lines = ["event,date,rounds,players,player,place"]
    lines += [f"Open de Lyon,2026-10-03,5,{PEOPLE},{name},{place}"
              for place, name in enumerate(names, start=1)]
    expect(post(staff, f"/circuits/{slug}/results/import/", {"csv": "\n".join(lines)}), 201)
    return slug


def no_sideways_scroll(page) -> list[dict[str, Any]]:
    """The page never scrolls sideways; every visible table fits or shows that it scrolls."""
    found = tables_of(page)
    cut = [t["table"] for t in found if not (t["fits"] or t["shows"])]
    assert cut == [], (page.url, cut)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url
    return found


def check_words(page, name: str, french: bool) -> None:
    text = page.locator("main").inner_text() if page.locator("main").count() else page.inner_text("body")
    assert page.evaluate("document.documentElement.lang").startswith("fr" if french else "en")
    for english, translated in WORDS[name]:
        if french:
            assert english not in text, (page.url, english)
            assert translated in text, (page.url, translated)
        else:
            assert english in text, (page.url, english)


def test_season_pages_at_360_and_1280_in_french_and_english(new_page, live_server, staff_user):
    league = build_league(staff_user, 3, prefix="season", escalation=True, drop_worst_weeks=1,
                          weeks=weeks_around_now(past=1, future=1, limits=[300, 400, 600]))
    a, b, c = ids(league)
    # Week 1 (closed): a's list, entered by staff, and a game; week 2 (open): one of two games.
    expect(put(league.staff, list_path(league.slug, a) + "?week=1",
               {"units": [CAPTAIN, TACTICAL]}), 200)
    expect(post(league.staff, f"/tournaments/{league.slug}/weeks/1/games/",
                {"players": [b, c], "result": {"winner": b}}), 201)
    played(league, a, c, 2, a)
    me = league.users[a]
    slug = circuit_of(league.staff, [me.username])
    pages = {
        "standings": f"/circuits/{slug}/",
        "person": f"/circuits/{slug}/people/{me.username}/",
        "profile": "/profile/",
        "league": f"/tournaments/{league.slug}/league/",
        "week_list": f"/tournaments/{league.slug}/league/weeks/2/list/",
    }
    scrolling = []
    browsers = {}  # one signed-in browser per language, resized for the second width
    for viewport in (PHONE, DESK):
        for locale in ("en-GB", "fr-FR"):
            french = locale == "fr-FR"
            if locale not in browsers:
                browsers[locale] = new_page(locale=locale)
                sign_in(browsers[locale], live_server, me)
            page = browsers[locale]
            page.set_viewport_size(viewport)
            for name, path in pages.items():
                page.goto(path)
                page.locator("h1").first.wait_for()
                check_words(page, name, french)
                if name == "person":  # a placing, not the verb (campaigns' "Placer")
                    heads = page.locator("table.circuit-results th").all_inner_texts()
                    assert heads[2] == "Place", heads
                scrolling += [t for t in no_sideways_scroll(page) if t["shows"]]
            # The league page: dropped weeks marked, the units to keep, the bye line for c.
            page.goto(pages["league"])
            assert page.locator("table.league td.dropped").count() >= 1
            assert "Tactical Squad" in page.inner_text("main")
            # Paged and searchable standings.
            page.goto(pages["standings"])
            assert page.locator("table.circuit tbody tr").count() == 50
            page.locator("a[rel=next]").click()
            page.wait_for_url(f"**/circuits/{slug}/?page=2")
            assert page.locator("table.circuit tbody tr").count() == PEOPLE - 50
            page.locator("#circuit-search").fill(me.username)
            page.locator("form[role=search] button").click()
            page.wait_for_url(f"**/circuits/{slug}/?q=*")
            assert page.locator("table.circuit tbody tr").count() == 1
            no_sideways_scroll(page)
    # At 360 px the breakdown's eleven columns are wider than the screen: its box says it scrolls.
    assert "circuit-results" in {t["table"] for t in scrolling}, scrolling

    # Reporting a league game from a phone, in French: b reports a draw against a in week 2 (b met c in week 1).
    page = new_page(locale="fr-FR")  # phone-sized (360 px)
    sign_in(page, live_server, league.users[b])
    page.goto(pages["league"])
    assert "Semaine 2 (ouverte)" in page.inner_text("main")  # a week: feminine
    assert "Exemption disponible (1 restante)" in page.inner_text("main")
    page.select_option("#league-opponent", str(a))
    page.get_by_label("Match nul").check()
    page.get_by_role("button", name="Déclaration", exact=True).click()
    page.wait_for_url(f"**{pages['league']}")
    no_sideways_scroll(page)
    from events.models import Game

    game = Game.objects.get(round__tournament__slug=league.slug, round__number=2,
                            player_a_id=b, player_b_id=a)
    assert game.status == Game.Status.REPORTED and game.winner_id is None
