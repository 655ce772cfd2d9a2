"""Phone-sized journeys through events of the other game systems, in a real browser: a Warhammer
Battle army with stakes and baggage, a report with a baggage capture confirmed in French and
standings from the ÖMS table; a W40K Dynamics game's panel, morale helper and advantage test; an
Urban War report with a destroyed commando. Every step is screenshotted and audited."""
from __future__ import annotations

import re

import pytest

from events.models import Game, Player, Tournament
from events.services import rounds, tournaments
from tests.browser.events import (
    COMMANDO,
    WHFB_UNITS,
    lock_and_pair,
    open_event,
    organiser,
    register,
    register_system,
    system_event,
    user,
)
from tests.browser.test_player_journey import Shots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
OMS = {"mode": "vp_table", "preset": "oms-2011"}


def log_in(page, username: str, password: str, to: str, button: str = "Log in") -> None:
    page.goto(f"/login/?next={to}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name=button).click()
    page.wait_for_url(re.compile(f"{re.escape(to)}$"))


def fill_whfb_unit(page, index: int, unit: dict) -> None:
    """One row of the Warhammer Battle list form, from a unit as the API takes it."""
    row = f"#id_units-{index}-"
    page.fill(f"{row}name", unit["name"])
    page.select_option(f"{row}slot", unit["slot"])
    page.select_option(f"{row}unit_type", unit["unit_type"])
    page.fill(f"{row}points", str(unit["points"]))
    page.fill(f"{row}models", str(unit.get("models", 1)))
    if unit.get("tags"):
        page.fill(f"{row}tags", ", ".join(unit["tags"]))
    row_box = page.locator("fieldset.unit").nth(index)
    for option in unit.get("options", ()):
        row_box.locator(f"input[name='units-{index}-options'][value='{option}']").check()
    if unit.get("baggage"):
        page.check(f"{row}baggage")


def game_of(event: Tournament) -> Game:
    return Game.objects.filter(round__tournament=event).select_related("player_a", "player_b").get()


def test_warhammer_battle_baggage_journey(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    event = system_event(staff, "whfb", "whfb-open", "Bataille de Nuln", points_limit=2000,
                         advanced_rules={"stakes": True, "baggage": True}, scoring=OMS)
    register_system(event, user("bob", password="bob-pass-98765"), "Bob",
                    {"faction": "empire", "units": WHFB_UNITS})
    register_system(event, user("alice", password="alice-pass-12345"), "Alice", None)

    # Alice enters her army on the list page: crossbowmen with stakes, a baggage wagon.
    alice = new_page()
    log_in(alice, "alice", "alice-pass-12345", f"/tournaments/{event.slug}/")
    alice.get_by_role("link", name="My list").click()
    alice.select_option("#id_faction", "empire")
    alice.get_by_role("button", name="Add rows").click()  # five units, three spare rows shown
    for index, unit in enumerate(WHFB_UNITS):
        fill_whfb_unit(alice, index, unit)
    shot(alice, "list-form")
    alice.get_by_role("button", name="Submit this list").click()
    alice.get_by_role("heading", name="This list is legal.").wait_for()
    assert "Baggage" in alice.locator(".report").inner_text()
    shot(alice, "list-legal")

    # The organiser locks the lists and pairs round 1.
    event = tournaments.transition(staff, Tournament.objects.get(pk=event.pk),
                                   Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff, event)
    game = game_of(event)

    # Alice reports: her points before the bonus, the baggage she took, Bob's looting knights.
    alice.goto(f"/tournaments/{event.slug}/")
    alice.get_by_role("link", name="My game").click()
    alice.wait_for_url(re.compile(f"/games/{game.pk}/$"))
    assert alice.locator("#declarations").count() == 0 and alice.locator("#vp").count() == 0
    assert "+200" in alice.locator("#report").inner_text()
    alice.get_by_label("Victory points of Alice, before the baggage bonus").fill("1250")
    alice.get_by_label("Victory points of Bob, before the baggage bonus").fill("900")
    alice.get_by_label("Alice (+200 victory points)").check()
    looting = alice.get_by_role("group", name="Units of Bob that left by the enemy's edge to loot")
    looting.get_by_label("Knights").check()
    preview = alice.locator("#report-preview")
    alice.get_by_text("Alice: 1450 victory points (1250 + 200 for the enemy baggage).").wait_for()
    assert "Sending this form records: Alice won." in preview.inner_text()
    assert "Tournament points from the table: Alice 12, Bob 8." in preview.inner_text()
    shot(alice, "report")
    alice.get_by_role("button", name="Send the result").click()
    alice.get_by_text("your opponent must now confirm it").wait_for()
    shot(alice, "reported")

    # Bob, in French, sees the baggage bonus he is asked to confirm, and confirms.
    bob = new_page(locale="fr-FR")
    log_in(bob, "bob", "bob-pass-98765", f"/games/{game.pk}/", button="Se connecter")
    assert bob.locator("html").get_attribute("lang") == "fr"
    reported = bob.locator("#reported").inner_text()
    assert "1450" in reported and "Knights" in reported
    shot(bob, "to-confirm-fr")
    bob.get_by_role("button", name="Confirmer ce résultat").click()
    bob.get_by_text("Résultat confirmé.").wait_for()
    confirmed = bob.locator("#confirmed").inner_text()
    assert "Alice" in confirmed and "1450" in confirmed and "200" in confirmed
    shot(bob, "confirmed-fr")
    assert Game.objects.get(pk=game.pk).victory_points[str(_pk(event, "Alice"))] == 1450

    # The standings: tournament points from the ÖMS table (550 apart: 12 to 8).
    alice.goto(f"/tournaments/{event.slug}/")
    rows = alice.locator("table.standings tbody tr")
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)] == ["Alice", "Bob"]
    assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(2)] == ["12", "8"]
    shot(alice, "standings")


def _pk(event: Tournament, name: str) -> int:
    return Player.objects.get(tournament=event, name=name).pk


def test_dynamics_game_panel_morale_and_advantage(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    event = open_event(staff, name="Dynamique", turn_system="dynamics", points_limit=1500)
    register(event, user("alice", password="alice-pass-12345"), "Alice")
    register(event, user("bob"), "Bob")
    game = lock_and_pair(staff, event).games.get()

    alice = new_page()
    log_in(alice, "alice", "alice-pass-12345", f"/games/{game.pk}/")
    panel = alice.locator("#dynamics")
    # Both lists are 380 points with three units: 2 tokens of each order, 10 in all, 1 sheet.
    cells = [row.locator("td").all_inner_texts() for row in panel.locator("tbody tr").all()]
    assert cells == [["2", "2"], ["10", "10"], ["1", "1"], ["3", "3"]]
    words = panel.inner_text().replace("\u00a0", " ")
    assert "permanent +2" in words and "not the Cities of Death 25 % rule" in words
    shot(alice, "dynamics-panel")

    # The morale helper: 3 pending casualties out of 10 models reach 25 %.
    alice.get_by_label("Models in the unit at the start of the pass").fill("10")
    alice.get_by_label("Pending casualties from shooting").fill("3")
    alice.get_by_role("button", name="Is a morale test needed?").click()
    alice.get_by_text("Morale test required: 3 pending casualties of 10 models").wait_for()
    shot(alice, "morale")

    # The advantage test of turn 1, pass 1, logged for both players.
    alice.get_by_role("button", name="Roll the advantage test").click()
    alice.locator("table.table-rolls").get_by_text("Advantage test, turn 1, pass 1").wait_for()
    assert "wins the advantage." in alice.locator("table.table-rolls").inner_text()
    shot(alice, "advantage")


def test_urban_war_destroyed_commando_journey(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    event = system_event(staff, "urban-war", "urban-war-commando", "Zone urbaine", points_limit=250)
    register_system(event, user("alice", password="alice-pass-12345"), "Alice",
                    {"models": COMMANDO})
    register_system(event, user("bob", password="bob-pass-98765"), "Bob", {"models": COMMANDO})
    game = lock_and_pair(staff, event).games.get()

    alice = new_page()
    log_in(alice, "alice", "alice-pass-12345", f"/games/{game.pk}/")
    report = alice.locator("#report")
    assert report.locator("input[name=vp_a]").count() == 0  # the server derives the points
    alice.get_by_label("The commando of Bob").check()
    alice.get_by_role("group", name="Models of Alice destroyed by Bob").get_by_label(
        re.compile(r"Marine 1 \(")).check()
    alice.get_by_text("Every model of the commando of Bob counts as destroyed.").wait_for()
    assert "Sending this form records: Alice won." in alice.locator("#report-preview").inner_text()
    shot(alice, "report")
    alice.get_by_role("button", name="Send the result").click()
    alice.get_by_text("your opponent must now confirm it").wait_for()
    shot(alice, "reported")

    bob = new_page()
    log_in(bob, "bob", "bob-pass-98765", f"/games/{game.pk}/")
    assert "The commando of Bob was destroyed." in bob.locator("#reported").inner_text()
    bob.get_by_role("button", name="Confirm this result").click()
    bob.get_by_text("Result confirmed.").wait_for()
    confirmed = bob.locator("#confirmed").inner_text()
    assert "Alice destroyed 6 models" in confirmed and "Bob destroyed 1 model: Marine 1" in confirmed
    assert "Victory points (the points of the enemy models destroyed)" in confirmed
    shot(bob, "confirmed")

    bob.goto(f"/tournaments/{event.slug}/")
    first = bob.locator("table.standings tbody tr").first.locator("td").nth(1)
    assert first.inner_text() == "Alice"
    shot(bob, "standings")

