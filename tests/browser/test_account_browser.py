"""The account pages at phone width in Chromium: reset by e-mail, profile, language remembered."""
from __future__ import annotations

import re

import pytest
from django.core import mail

from events.models import Player, Round
from tests.browser.a11y import audit
from tests.browser.events import open_event, organiser, user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def check(page, shots, name: str) -> None:
    """Screenshot, no sideways scroll at 360 px, and a clean accessibility audit."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    assert audit(page) == [], name


def test_reset_then_profile_and_language(new_page, screenshots, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice = user("alice")
    event = open_event(organiser(), name="Ligue du dimanche soir à Villeurbanne")
    me = Player.objects.create(tournament=event, user=alice, name="Alice")
    foe = Player.objects.create(tournament=event, name="Bérénice la Très Longue")
    Round.objects.create(tournament=event, number=1, status=Round.Status.PUBLISHED).games.create(
        table=12, player_a=me, player_b=foe)

    page = new_page()
    page.goto("/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    check(page, screenshots, "01-reset-form")
    page.fill("#id_email", "alice@example.org")
    page.get_by_role("button", name="Send me the link").click()
    page.wait_for_url(re.compile("/password-reset/done/$"))
    check(page, screenshots, "02-reset-done")
    link = re.search(r"https?://[^/\s]+(/password-reset/\S+/)", mail.outbox[0].body).group(1)
    page.goto(link)
    check(page, screenshots, "03-new-password")
    page.fill("#id_new_password1", "a-brand-new-pass-9876")
    page.fill("#id_new_password2", "a-brand-new-pass-9876")
    page.get_by_role("button", name="Set my password").click()
    page.wait_for_url(re.compile("/password-reset/complete/$"))
    page.get_by_role("main").get_by_role("link", name="Log in").click()
    page.fill("#id_username", "alice")
    page.fill("#id_password", "a-brand-new-pass-9876")
    page.get_by_role("main").get_by_role("button", name="Log in").click()

    page.get_by_role("link", name="Profile").click()
    page.get_by_role("cell", name="Bérénice la Très Longue").wait_for()
    page.get_by_role("link", name="Report the result of your game against Bérénice la Très Longue").wait_for()
    check(page, screenshots, "04-profile")
    page.select_option("#id_language", "fr")
    page.get_by_role("button", name="Save").click()
    assert page.locator("html").get_attribute("lang") == "fr"

    # A new browser in English: the account's French comes back at log-in.
    other = new_page()
    other.goto("/login/")
    other.fill("#id_username", "alice")
    other.fill("#id_password", "a-brand-new-pass-9876")
    other.locator("main button[type=submit]").click()
    other.wait_for_url(re.compile("/$"))
    assert other.locator("html").get_attribute("lang") == "fr"
