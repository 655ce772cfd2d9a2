"""A phone-sized player journey in a real browser: sign up, register, list, report, confirm."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.models import Game, Player, Tournament
from events.services import rounds, tournaments
from missions.models import Mission
from tests.browser.a11y import audit
from tests.browser.events import open_event, organiser, register, user

# serialized_rollback: like every transactional test here, so the flush afterwards keeps the
# catalogue (charts, missions) the data migrations loaded.
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


class Shots:
    """Numbered screenshots of each step (a reviewer reads them in order); each step's page is
    also audited for labels, accessible names and contrast."""

    def __init__(self, directory: Path):
        self.directory, self.count = directory, 0

    def __call__(self, page, name: str) -> None:
        self.count += 1
        page.screenshot(path=str(self.directory / f"{self.count:02d}-{name}.png"), full_page=True)
        assert audit(page) == [], name


def fill_unit(page, index: int, name: str, slot: str, points: int, models: int = 1) -> None:
    page.fill(f"#id_units-{index}-name", name)
    page.select_option(f"#id_units-{index}-slot", slot)
    page.fill(f"#id_units-{index}-points", str(points))
    page.fill(f"#id_units-{index}-models", str(models))


def test_player_journey(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    event = open_event(staff, name="Cité en flammes")
    bob = user("bob", password="bob-pass-98765")
    register(event, bob, "Bob")

    # A new player signs up from the event page and lands back on it.
    alice = new_page()
    alice.goto(f"/tournaments/{event.slug}/")
    assert alice.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    alice.get_by_role("link", name="sign up", exact=True).click()
    alice.fill("#id_username", "alice")
    alice.fill("#id_email", "alice@example.org")
    alice.fill("#id_password1", "alice-pass-12345")
    alice.fill("#id_password2", "alice-pass-12345")
    shot(alice, "signup")
    alice.get_by_role("button", name="Create my account").click()
    alice.wait_for_url(re.compile(f"/tournaments/{event.slug}/$"))

    # Registers for the event.
    alice.get_by_label("Name").fill("Alice")
    alice.get_by_label("Club").fill("Lyon")
    alice.get_by_label("Faction").select_option(label="Space Marines")  # the system's faction list
    alice.get_by_role("button", name="Register").click()
    alice.get_by_text("You are registered as Alice.").first.wait_for()
    shot(alice, "registered")

    # Submits an illegal list (no troops), sees why, fixes it.
    alice.get_by_role("link", name="My list").click()
    fill_unit(alice, 0, "Captain", "hq", 100)
    alice.get_by_role("button", name="Submit this list").click()
    alice.get_by_role("heading", name="This list is not legal.").wait_for()
    errors = alice.locator(".report .errors li").all_inner_texts()
    assert any("Troops" in error for error in errors), errors
    shot(alice, "list-illegal")
    fill_unit(alice, 1, "Tactical Squad", "troops", 180, 10)
    fill_unit(alice, 2, "Scout Squad", "troops", 100, 5)
    alice.get_by_role("button", name="Submit this list").click()
    alice.get_by_role("heading", name="This list is legal.").wait_for()
    shot(alice, "list-legal")

    # The organiser locks the lists and pairs round 1.
    event = tournaments.transition(staff, Tournament.objects.get(pk=event.pk),
                                   Tournament.Status.LISTS_LOCKED)
    game = rounds.pair_next_round(staff, event).games.get()
    me = Player.objects.get(tournament=event, user__username="alice")

    # Urban Assault: the objective decides, and with nothing ticked it gives a draw.
    Game.objects.filter(pk=game.pk).update(mission=Mission.objects.get(slug="assaut-urbain"))

    # Alice opens her game from the event page; the page says what sending would record.
    alice.goto(f"/tournaments/{event.slug}/")
    alice.get_by_role("link", name="My game").click()
    alice.wait_for_url(re.compile(f"/games/{game.pk}/$"))
    assert alice.get_by_text("Bob").first.is_visible()
    preview = alice.locator("#report-preview")
    assert "Sending this form records: a draw." in preview.inner_text()
    shot(alice, "game")
    # VP that say otherwise: the draw is flagged before anything is recorded (live, then on send).
    alice.get_by_label("Victory points of Alice").fill("600")
    alice.get_by_label("Victory points of Bob").fill("250")
    alice.locator("#report-preview.conflict").wait_for()
    alice.get_by_role("button", name="Send the result").click()
    warning = alice.locator("#report-preview .warning")
    assert "records a draw, but the victory points (600–250) say Alice won" in warning.inner_text()
    assert alice.get_by_label("I confirm: the objective decided the game").is_visible()
    assert not Game.objects.get(pk=game.pk).reports.exists()
    shot(alice, "draw-warning")
    # She ticks what really happened; the line follows, and the win is sent.
    alice.get_by_label("Occupies the ruin the opponent defends: Alice").check()
    alice.get_by_text("Sending this form records: Alice won.").wait_for()
    alice.get_by_role("button", name="Send the result").click()
    alice.get_by_text("your opponent must now confirm it").wait_for()
    shot(alice, "reported")

    # Bob, in a browser of his own set to French, logs in and confirms: the whole page is French.
    opponent = new_page(locale="fr-FR")
    opponent.goto(f"/login/?next=/games/{game.pk}/")
    assert opponent.locator("html").get_attribute("lang") == "fr"
    opponent.fill("#id_username", "bob")
    opponent.fill("#id_password", "bob-pass-98765")
    opponent.get_by_role("button", name="Se connecter").click()
    opponent.wait_for_url(re.compile(f"/games/{game.pk}/$"))
    shot(opponent, "game-fr")
    # On a phone the confirmation waiting for him is on the first screen.
    confirm = opponent.get_by_role("button", name="Confirmer ce résultat")
    box = confirm.bounding_box()
    assert box is not None and box["y"] + box["height"] <= opponent.viewport_size["height"], box
    confirm.click()
    opponent.get_by_text("Résultat confirmé.").wait_for()
    shot(opponent, "confirmed-fr")
    assert Game.objects.get(pk=game.pk).winner_id == me.pk

    # The standings show the winner first.
    alice.goto(f"/tournaments/{event.slug}/")
    first = alice.locator("table.standings tbody tr").first.locator("td").nth(1)
    assert first.inner_text() == "Alice · Space Marines"  # the name, then the faction
    shot(alice, "standings")

    # The same page in French, through the language switch. Checked on what is French already
    # (compiled catalogue and the catalogue's mission names), not on strings new in this page.
    mission = game.mission
    round_heading = alice.locator("#round-title")
    assert mission.name_en in round_heading.inner_text()
    alice.select_option("#lang", "fr")
    alice.get_by_role("button", name="Se déconnecter").wait_for()
    assert alice.locator("html").get_attribute("lang") == "fr"
    assert mission.name_fr in round_heading.inner_text()
    if mission.name_fr != mission.name_en:
        assert mission.name_en not in round_heading.inner_text()
    shot(alice, "french")
