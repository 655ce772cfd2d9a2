"""Check-in at the door on a phone (360 px) in Chromium: an organiser types or scans codes on the
check-in page, a player shows their QR code, then checks themself in from the venue's link."""
from __future__ import annotations

import re

import pytest

from events.audit import Actor
from events.models import Player
from events.services import tournaments
from tests.browser.a11y import audit
from tests.browser.events import open_event, organiser, user
from venue.checkin_codes import shown
from venue.services import checkin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def check(page, shots, name: str) -> None:
    """Screenshot, no sideways scroll at 360 px, and a clean accessibility audit."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    assert audit(page) == [], name


def test_organiser_checks_players_in_by_code_on_a_phone(new_page, screenshots):
    staff = organiser()
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_superuser"])
    event = open_event(staff, name="Cité en flammes")
    alice, bob, other = (tournaments.register_player(staff, event, name=name)
                         for name in ("Alice Martin", "Bruno Petit", "Chloé Durand"))
    elsewhere = tournaments.register_player(staff, open_event(staff, name="Autre"), name="Zoé")

    page = new_page()
    page.goto(f"/admin/league/tournament/{event.pk}/check-in/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "orga-pass-1234")
    page.get_by_role("button", name="Log in").click()
    page.get_by_label("Check-in code").wait_for()
    check(page, screenshots, "01-check-in-page")

    # Typed as read aloud: lower case, with the dashes.
    page.get_by_label("Check-in code").fill(shown(alice.checkin_code).lower())
    page.get_by_role("button", name="Check in", exact=True).click()
    page.get_by_text("Alice Martin is checked in.").wait_for()
    assert page.get_by_label("Check-in code").input_value() == ""  # ready for the next one
    check(page, screenshots, "02-checked-in")

    page.get_by_label("Check-in code").fill(alice.checkin_code)
    page.get_by_role("button", name="Check in", exact=True).click()
    page.get_by_text(re.compile(r"Alice Martin was already checked in \(.*by organiser\)")).wait_for()
    check(page, screenshots, "03-already")

    for wrong, message in (("NOT-A-CODE", "This is not a check-in code"),
                           (elsewhere.checkin_code, "belongs to another event")):
        page.get_by_label("Check-in code").fill(wrong)
        page.get_by_role("button", name="Check in", exact=True).click()
        page.get_by_text(message).wait_for()
    check(page, screenshots, "04-refused")

    # A phone's camera app opens the player's QR link: the code is there, one tap checks in.
    page.goto(f"/admin/league/tournament/{event.pk}/check-in/?code={bob.checkin_code}")
    assert page.get_by_label("Check-in code").input_value() == bob.checkin_code
    page.get_by_role("button", name="Check in", exact=True).click()
    page.get_by_text("Bruno Petit is checked in.").wait_for()

    # Someone without their code: by name from the missing list.
    page.get_by_role("button", name="Check in Chloé Durand").click()
    page.get_by_text("Chloé Durand is checked in.").wait_for()
    page.get_by_text("Everybody is here").wait_for()

    page.get_by_role("button", name="Open self check-in").click()
    page.get_by_role("img", name="QR code for self check-in at Cité en flammes").wait_for()
    check(page, screenshots, "05-self-check-in-open")
    assert set(Player.objects.filter(tournament=event, checked_in=True).values_list(
        "pk", flat=True)) == {alice.pk, bob.pk, other.pk}


def test_player_shows_the_code_then_checks_in_at_the_venue(new_page, screenshots):
    staff = organiser()
    event = open_event(staff, name="Ligue du dimanche soir à Villeurbanne")
    account = user("alice")
    me = tournaments.register_player(Actor(user=account), event, name="Alice Martin")

    page = new_page()
    page.goto(f"/login/?next=/tournaments/{event.slug}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "player-pass-1234")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(f"/tournaments/{event.slug}/$"))
    page.get_by_text(shown(me.checkin_code)).wait_for()
    qr = page.get_by_role("img", name=f"QR code of your check-in code {shown(me.checkin_code)}")
    assert qr.bounding_box()["width"] >= 150  # big enough for a phone's camera
    check(page, screenshots, "01-my-code")

    # The venue's QR code before the organisers open the window: it says so, and shows my code.
    token = checkin.open_window(staff, event).token
    checkin.close_window(staff, event)
    page.goto(f"/tournaments/{event.slug}/check-in/?venue={token}")
    page.get_by_text("Self check-in is not open").wait_for()
    check(page, screenshots, "02-window-closed")

    token = checkin.open_window(staff, event).token
    page.goto(f"/tournaments/{event.slug}/check-in/?venue={token}")
    check(page, screenshots, "03-venue-page")
    page.get_by_role("button", name="Check me in").click()
    page.wait_for_url(re.compile(f"/tournaments/{event.slug}/$"))
    page.get_by_text("You are checked in, Alice Martin. Good games!").wait_for()
    check(page, screenshots, "04-checked-in")
    me.refresh_from_db()
    assert me.checked_in and me.checked_in_by == account
