"""What each side owes in each phase of a turn, on the campaign page (#24 item 9): who declares
first only once the initiative winner chose it; after both sides' attacks the reactions are owed
(no "all orders sent", no lost button); the cockpit counts its battles with plural forms. The
sealed orders stay sealed: what a side reads never depends on the enemy's (R12, G11)."""
from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import ngettext

from campaigns.admin import cockpit_actions
from campaigns.services import turns as campaign_turns
from tests.campaigns.test_campaign_pages import act, client_of, declare, game, page  # noqa: F401

pytestmark = pytest.mark.django_db


def owed_line(html: str) -> str:
    start = html.find('id="owed">')
    return html[start + 10:html.index("</p>", start)] if start >= 0 else ""


def test_who_declares_first_waits_for_the_winners_choice(game, people, staff_actor):  # noqa: F811
    west, east = client_of(people["west"]), client_of(people["east"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "moves", [6, 1])  # west wins
    for client in (west, east):
        html = page(client, game)
        assert "West declares first." not in html
        assert "West won the initiative and chooses who declares first." in html
    assert owed_line(page(west, game)) == "You won the initiative: choose who declares first."
    assert owed_line(page(east, game)).startswith("Send your moves and fortifications")
    # East's sealed move says nothing to west, and settles nothing for the winner's choice.
    assert declare(east, game, "move", "Big Gunz: A → B").status_code == 302
    assert "chooses who declares first" in page(west, game)
    assert act(west, game, action="first", side="east").status_code == 302
    for client in (west, east):
        assert "East declares first." in page(client, game)


def test_after_the_attacks_the_reactions_are_owed(game, people, staff_actor):  # noqa: F811
    west, east = client_of(people["west"]), client_of(people["east"])
    campaign_turns.roll_initiative(staff_actor, game, 1, "attacks", [5, 1])
    assert owed_line(page(east, game)).startswith("Send your attacks, then say they are all sent")
    assert declare(west, game, "attack", "7 → A with Crusader Armour").status_code == 302
    # West's own attack settles who goes first: it declared first.
    assert owed_line(page(west, game)).startswith("Send your attacks, then say they are all sent")
    assert "West declares first." in page(west, game)
    assert "West won the initiative and chooses" in page(east, game)  # sealed: east knows none
    assert act(west, game, action="ready").status_code == 302
    assert owed_line(page(west, game)).startswith("Your attacks are sent")
    assert act(east, game, action="ready").status_code == 302
    html = page(east, game)
    said = html[html.index('id="declaring"'):html.index('id="choice-reaction"')]
    assert "All orders sent" not in said and "orders for this phase are all sent" not in said
    assert 'id="orders-ready"' not in html  # the reactions end when the battles are generated
    assert owed_line(html).startswith("Declare a reaction for each attack against you")
    assert 'id="choice-reaction"' in html
    assert owed_line(page(west, game)).startswith("No attack against you: nothing to declare")


@pytest.mark.parametrize("count", [1, 2])
def test_the_cockpit_counts_its_battles_in_plural_forms(count, monkeypatch):
    monkeypatch.setattr(cockpit_actions.campaign_battles, "generate_battles",
                        lambda actor, c, turn: list(range(count)))
    campaign = type("C", (), {"current_turn": 1})()
    for language in ("en", "fr"):
        with translation.override(language):
            said = cockpit_actions._battles(None, campaign, {})
            assert said == ngettext("%(n)s battle generated.", "%(n)s battles generated.",
                                    count) % {"n": count}
    with translation.override("en"):
        said = cockpit_actions._battles(None, campaign, {})
    assert said == ("1 battle generated." if count == 1 else "2 battles generated.")
