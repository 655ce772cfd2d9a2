"""Keyboard use and the in-page accessibility audit, in Debian's Chromium."""
from __future__ import annotations

import re

import pytest

from events.audit import Actor
from events.models import Game
from events.services import results
from tests.browser.a11y import audit
from tests.browser.events import lock_and_pair, open_event, organiser, register, user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

BAD_PAGE = """<!doctype html><html><body style="background:#fff">
<p style="color:#bbb">Pale grey text on white</p>
<input id="orphan" name="orphan">
<button></button>
<label for="named">Named</label><input id="named" name="named">
<p style="color:#222">Dark enough</p>
<span id="twice">one</span><span id="twice">two</span>
</body></html>"""


def test_audit_reports_missing_labels_names_and_low_contrast(chromium):
    page = chromium.new_page()
    page.set_content(BAD_PAGE)
    problems = audit(page)
    assert any(p.startswith("no label: input#orphan") for p in problems), problems
    assert any(p.startswith("no accessible name: button") for p in problems), problems
    assert any(p.startswith("contrast") and "Pale grey" in p for p in problems), problems
    assert "duplicate id: twice" in problems
    assert not any("named" in p or "Dark enough" in p for p in problems), problems


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
