"""An Epic 40,000 campaign turn on two phones, in a real browser: west declares a move and an
attack, east reacts; the organiser generates the battle; west reports it (a detachment swept
away), east confirms; west keeps its attacker in the territory, east chooses where its
detachments retreat; the organiser closes the turn; the ledger and the map change. Every step
is screenshotted and audited; the hidden-information rule (R12) is checked on each page."""
from __future__ import annotations

import re

import pytest

from campaigns.services import battles as campaign_battles
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.services import turns as campaign_turns
from campaigns.state_serializers import SettingsSerializer
from events.audit import Actor
from events.systems import normalised
from tests.browser.campaigns import (
    EAST_ARMY,
    EAST_NAMES,
    WEST_ARMY,
    WEST_NAMES,
    running_campaign,
)
from tests.browser.events import organiser, user
from tests.browser.test_player_journey import Shots
from tests.browser.test_system_journeys import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
WEST_HELD = "#dbe7f6"  # campaigns/drawing.FILLS


def order_form(page, kind: str):
    return page.locator("form.order-form", has=page.locator(f"#choice-{kind}"))


def declare(page, kind: str, label: str) -> None:
    page.select_option(f"#choice-{kind}", label=label)
    order_form(page, kind).get_by_role("button", name="Declare this order").click()
    page.get_by_text(re.compile(r"^Order (accepted|sealed):")).first.wait_for()  # G11


def shows_none_of(page, names: set[str]) -> None:
    html = page.content()
    assert sorted(n for n in names if n in html) == []


def test_campaign_turn_journey(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    marcus = user("marcus", password="marcus-pass-12345")
    grukk = user("grukk", password="grukk-pass-12345")
    campaign = running_campaign(staff, marcus, grukk)
    address = f"/campaigns/{campaign.slug}/"
    campaign_turns.roll_initiative(staff, campaign, 1, "moves", [6, 6])

    # West's phone: the map as west sees it, the moves the engine allows.
    west = new_page()
    log_in(west, "marcus", "marcus-pass-12345", address)
    assert west.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    assert west.locator("svg g.territory").count() == 18
    assert west.locator("#campaign-map-A").inner_text().endswith(": Orks")  # R12
    shows_none_of(west, EAST_NAMES)
    shot(west, "west-moves")
    declare(west, "move", "Eagle Scouts: 9 → 8")
    assert "6 of 7" in west.locator("#allowance-move").inner_text()
    shot(west, "west-moved")

    campaign_turns.roll_initiative(staff, campaign, 1, "attacks", [5, 1])
    west.reload()
    declare(west, "attack", "7 → A with Crusader Armour")
    west.get_by_text("Order sealed").first.wait_for()  # G11: hidden until both sides are done
    shot(west, "west-attacked")
    west.get_by_role("button", name="I have sent all my orders for this phase").click()
    west.get_by_text("Noted: your orders for this phase are all sent.").first.wait_for()

    # East's phone: no attack shows until east is done too; then it is told by territory and
    # east reacts from D.
    east = new_page()
    log_in(east, "grukk", "grukk-pass-12345", address)
    assert east.get_by_text("From 7 against A").count() == 0
    east.get_by_role("button", name="I have sent all my orders for this phase").click()
    east.get_by_text("From 7 against A").wait_for()
    shows_none_of(east, WEST_NAMES)
    declare(east, "reaction", "Warboss Grukk from D defends A")
    shot(east, "east-reacted")

    # The organiser generates the battle; west reports it on the campaign page.
    (battle,) = campaign_battles.generate_battles(staff, campaign, 1)
    west.reload()
    sheet = west.locator(f"#battle-{battle.pk}")
    assert "Big Gunz" in sheet.inner_text() and "attacker wins 2, defender wins 1" in sheet.inner_text()
    shows_none_of(west, {"Mob Gork", "Mob Mork", "Kult of Speed"})
    sheet.get_by_label("West (Space Marines) won (the attacker)").check()
    sheet.locator("fieldset", has_text="swept away").get_by_label("Big Gunz").check()
    shot(west, "west-report")
    sheet.get_by_role("button", name="Send the result").click()
    west.get_by_text("Result sent").first.wait_for()
    shot(west, "west-reported")

    east.reload()
    east.get_by_text("Confirm or dispute the result reported for A.").wait_for()
    shot(east, "east-to-confirm")
    east.get_by_role("button", name="Confirm this result").click()
    east.get_by_text("Result confirmed.").first.wait_for()

    # R32: west keeps its attacker in A; G14: east chooses where each detachment retreats.
    west.reload()
    west.locator(f"#battle-{battle.pk}").get_by_label("Crusader Armour").check()
    west.get_by_role("button", name="Save who stays").click()
    west.get_by_text("Saved: who stays in A.").first.wait_for()
    east.reload()
    east.get_by_text("Choose where your detachments retreat from A.").wait_for()
    retreats = east.locator(f"#battle-{battle.pk}")
    retreats.get_by_label("Warboss Grukk retreats to").select_option("D")
    retreats.get_by_label("Big Gunz retreats to").select_option("B")
    shot(east, "east-retreats")
    east.get_by_role("button", name="Save the retreats").click()
    east.get_by_text("Saved: where your detachments retreat from A.").first.wait_for()
    shot(east, "east-retreated")

    # The organiser closes the turn: the ledger and the map change.
    campaign_turns.close_turn(staff, campaign, 1, {"west": 3, "east": 3})
    west.reload()
    assert west.locator("#score-west").inner_text() == "2 points"
    ledger = west.locator("#ledger").inner_text()
    assert "battle won (A)" in ledger and "enemy territory held (A)" in ledger
    assert west.locator("#campaign-map-A").inner_text() == "A: East line 1, held by West: Crusader Armour"
    fill = west.evaluate("document.querySelector('g[data-code=\"A\"] rect').getAttribute('fill')")
    assert fill == WEST_HELD
    assert re.search(r"A: East → West", west.locator("#turn-reports").inner_text())
    assert west.locator("#turn-number").inner_text() == "2"
    shows_none_of(west, {"Mob Gork", "Mob Mork", "Kult of Speed"})
    shot(west, "west-after-close")
    east.reload()
    assert east.locator("#score-east").inner_text() == "-3 points"
    assert "held by West" in east.locator("#campaign-map-A").inner_text()
    shows_none_of(east, WEST_NAMES - {"Crusader Armour"})
    shot(east, "east-after-close")


def test_campaign_set_up_on_a_phone(new_page, screenshots):
    """West enters an army (refused over the points, then fixed with more rows), ticks two
    majors and places a detachment in turn, on a phone and without the enemy's names."""
    shot = Shots(screenshots)
    staff = organiser()
    marcus = user("marcus", password="marcus-pass-12345")
    grukk = user("grukk", password="grukk-pass-12345")
    settings = normalised(SettingsSerializer, {})
    campaign = campaign_setup.create_campaign(staff, name="Laïtus Prime", settings=settings, seed=5)
    campaign_setup.add_side(staff, campaign, side="west", name="Marcus", army_name="Space Marines",
                            faction="space-marines", strategic_value=5, username=marcus.username)
    campaign_setup.add_side(staff, campaign, side="east", name="Grukk", army_name="Orks",
                            faction="orks", strategic_value=3, username=grukk.username)
    campaign_setup.set_army(Actor(user=grukk), campaign, "east", list(EAST_ARMY))
    campaign_setup.set_majors(Actor(user=grukk), campaign, "east", ["G", "I"])
    address = f"/campaigns/{campaign.slug}/"

    west = new_page()
    log_in(west, "marcus", "marcus-pass-12345", address)
    assert west.evaluate("document.documentElement.scrollWidth") <= 360
    army = west.locator("#my-army")
    for index, spec in enumerate(WEST_ARMY[:3]):
        army.locator(f"#id_army-{index}-name").fill(spec.name)
        army.locator(f"#id_army-{index}-points").fill(str(spec.points * 3))
        if spec.supreme_commander:
            army.locator(f"#id_army-{index}-supreme_commander").check()
    shot(west, "west-army-typed")
    army.get_by_role("button", name="Save my army").click()
    west.get_by_text("Army not saved: see the problems below.").wait_for()
    assert "(3400 too many)" in west.locator("#army-report").inner_text()
    assert west.locator("#id_army-2-name").input_value() == WEST_ARMY[2].name  # kept
    shot(west, "west-army-refused")
    west.locator("#my-army").get_by_role("button", name="Add rows").click()
    for index, spec in enumerate(WEST_ARMY):
        west.locator(f"#id_army-{index}-name").fill(spec.name)
        west.locator(f"#id_army-{index}-points").fill(str(spec.points))
        west.locator(f"#id_army-{index}-kind").select_option(spec.kind)
    west.locator("#my-army").get_by_role("button", name="Save my army").click()
    west.get_by_text("Army saved: 6 detachments, 5000 of 5000 points.").wait_for()

    majors = west.locator("#majors")
    majors.get_by_label("1: line 3 (rear line)").check()
    majors.get_by_label("3: line 3 (rear line)").check()
    majors.get_by_role("button", name="Save my majors").click()
    west.get_by_text("Your majors: 1, 3.").wait_for()
    assert "East (Orks) places next." in west.locator("#placement").inner_text()

    campaign_placement.place(Actor(user=grukk), campaign, detachment="Mob Gork", territory="G")
    west.reload()
    placing = west.locator("#placement")
    placing.get_by_label("Detachment").select_option(label="Aquila Guard (1000 points, ground)")
    placing.get_by_label("Territory").select_option("1")
    shot(west, "west-placing")
    placing.get_by_role("button", name="Place this detachment").click()
    west.get_by_text("Aquila Guard placed in 1. East places next.").wait_for()
    assert west.locator("#campaign-map-1").inner_text().endswith(": Aquila Guard")
    assert west.locator("#campaign-map-G").inner_text().endswith(": Orks")  # R12
    assert west.locator("#army-frozen").count() == 1
    shows_none_of(west, EAST_NAMES)
    assert west.evaluate("document.documentElement.scrollWidth") <= 360
    shot(west, "west-placed")
