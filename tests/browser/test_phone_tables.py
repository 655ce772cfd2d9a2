"""At 360 px (#24 items 10 and 12): every table of an Urban War event's pages either fits or shows
that it scrolls (the standings with their tie-breaks, the list with its FS/FU columns, the
game's dice log); the game page's rolls are groups of their own, buttons apart, and a command
test reads as a sum ("9 + 9 = 18; 18 + CD 4 + CAL 2 = 24 against 15: passed.")."""
from __future__ import annotations

import re

import pytest

from tests.browser.events import (
    COMMANDO,
    lock_and_pair,
    organiser,
    register_system,
    system_event,
    user,
)
from tests.browser.phone_tables import assert_tables_fit_or_scroll
from tests.browser.test_player_journey import Shots
from tests.browser.test_system_journeys import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SUM = re.compile(r"^\d+ \+ \d+ = (\d+); \1 \+ CD 4 \+ CAL 2 = \d+ against 15: (passed|failed)\.$"
                 r"|^\d+ \+ \d+ = \d+: an unmodified 5 or less always fails\.$")


def apart(boxes: list[dict[str, float]]) -> bool:
    """No two boxes touch: each pair is at least 4 px apart one way or the other."""
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            gap = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]),
                      b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
            if gap < 4:
                return False
    return True


def test_urban_war_tables_and_rolls_on_a_phone(new_page, screenshots):
    shot = Shots(screenshots)
    staff = organiser()
    event = system_event(staff, "urban-war", "urban-war-commando", "Zone urbaine",
                         points_limit=250, language="en")
    alice = register_system(event, user("alice", password="alice-pass-12345"),
                            "Alice Longuenom-Delacroix", {"models": COMMANDO})
    register_system(event, user("bob", password="bob-pass-98765"), "Bob", {"models": COMMANDO})
    game = lock_and_pair(staff, event).games.get()
    page = new_page()
    log_in(page, "alice", "alice-pass-12345", f"/games/{game.pk}/")

    forms = page.locator("#dice form.roll")
    assert forms.count() >= 4
    assert all(b > 0 for b in forms.evaluate_all(
        "fs => fs.map(f => parseFloat(getComputedStyle(f).borderTopWidth))"))
    assert apart(forms.evaluate_all("fs => fs.map(f => f.getBoundingClientRect().toJSON())"))
    buttons = page.locator("#dice form.roll button")
    assert apart([buttons.nth(i).bounding_box() for i in range(buttons.count())])
    start = page.get_by_role("button", name="Roll for who starts (after deployment)")
    initiative = page.locator("#dice form.roll", has=page.get_by_role(
        "button", name="Roll for initiative"))
    assert initiative.locator("button").all_inner_texts() == ["Roll for initiative"]
    assert start.bounding_box()["y"] + start.bounding_box()["height"] < initiative.bounding_box()["y"]
    command = page.locator("#dice form.roll", has=page.get_by_role(
        "button", name="Roll a command test"))
    command.get_by_label("Command (CD)").fill("4")
    command.get_by_label("Calibre (CAL)").fill("2")
    command.get_by_role("button", name="Roll a command test").click()
    row = page.locator("table.table-rolls tbody tr").first
    row.wait_for()
    assert SUM.match(row.locator("td").nth(4).inner_text()), row.inner_text()
    page.reload()  # the page as it stays, after the roll's one-time message
    shot(page, "game-rolls")
    found = assert_tables_fit_or_scroll(page)

    for path in (f"/tournaments/{event.slug}/players/{alice.pk}/list/",
                 f"/tournaments/{event.slug}/"):
        page.goto(path)
        found += assert_tables_fit_or_scroll(page)
    assert any(t["shows"] for t in found)  # some table is wider than a phone, and says so
    shot(page, "event-page")
