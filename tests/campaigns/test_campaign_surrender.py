"""Surrender (R35): a side gives up by typing its army's name, through the API or its campaign
page; the campaign and its event end at once with the enemy's victory, audited; nothing else
can surrender for it, and a finished campaign refuses a second surrender."""
from __future__ import annotations

import pytest

from campaigns.models import Campaign
from events.models import AuditEntry, Tournament
from tests.browser.campaigns import running_campaign
from tests.browser.events import organiser, user
from tests.campaigns.test_campaign_api import Players, path, running
from tests.campaigns.test_campaign_pages import act, client_of, page
from tests.tournament_fixtures import expect, get, post

pytestmark = pytest.mark.django_db


def surrender(client, slug: str, side: str, confirm: str):
    return post(client, path(slug, f"sides/{side}/surrender/"), {"confirm": confirm})


def test_a_side_surrenders_through_the_api(staff_user):
    p = Players(staff_user)
    slug = running(p, seed=3)["slug"]
    expect(surrender(p.east, slug, "east", "Space Marines"), 400, "confirmation_mismatch")
    expect(surrender(p.east, slug, "west", "Space Marines"), 403, "not_your_side")
    expect(surrender(p.stranger, slug, "east", "Orks"), 403, "not_your_side")
    expect(surrender(p.east, slug, "north", "Orks"), 404, "side_not_found")
    assert Campaign.objects.get(slug=slug).status == Campaign.Status.RUNNING

    body = expect(surrender(p.east, slug, "east", "  orks "), 200)  # case and spaces forgiven
    assert body["status"] == "finished"
    assert body["victory"] == {"side": "west", "reason": "surrender"}
    campaign = Campaign.objects.get(slug=slug)
    assert campaign.sides.get(side="east").surrendered
    assert campaign.tournament.status == Tournament.Status.FINISHED
    entry = AuditEntry.objects.get(action="campaign_surrendered")
    assert entry.data["side"] == "east" and entry.data["winner"] == "west"
    assert expect(get(p.anon, path(slug)), 200)["victory"]["reason"] == "surrender"

    expect(surrender(p.west, slug, "west", "Space Marines"), 409, "campaign_finished")
    expect(post(p.west, path(slug, "turns/1/orders/"), {"kind": "move", "detachments": ["Eagle Scouts"],
                                                        "from": "9", "to": "6"}), 409)


def test_staff_may_surrender_for_a_side_but_not_during_set_up(staff_user):
    p = Players(staff_user, prefix="s")
    setup = expect(post(p.staff, "/campaigns/", {"name": "Not yet"}), 201)["slug"]
    expect(post(p.staff, path(setup, "sides/"), {
        "side": "west", "username": p.west_user.username, "name": "Marcus",
        "army_name": "Space Marines", "faction": "space-marines", "strategic_value": 5}), 201)
    expect(surrender(p.staff, setup, "west", "Space Marines"), 409, "campaign_not_running")

    slug = running(p, seed=4)["slug"]
    body = expect(surrender(p.staff, slug, "west", "Space Marines"), 200)
    assert body["victory"] == {"side": "east", "reason": "surrender"}


def test_the_campaign_page_offers_surrender_to_its_players_only():
    staff, west, east = organiser(), user("marcus"), user("grukk")
    campaign = running_campaign(staff, west, east)
    assert 'name="action" value="surrender"' not in page(client_of(), campaign)
    assert 'name="action" value="surrender"' not in page(client_of(staff.user), campaign)
    west_page = client_of(west)
    assert 'name="action" value="surrender"' in page(west_page, campaign)

    assert act(west_page, campaign, action="surrender", confirm="Orks\x00").status_code == 400
    refused = act(west_page, campaign, action="surrender", confirm="Orks")
    assert refused.status_code == 200  # shown again with the refusal, nothing changed
    assert "to confirm the surrender" in refused.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING

    army = campaign.sides.get(side="west").army_name
    done = act(west_page, campaign, action="surrender", confirm=army)
    assert done.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.status, campaign.winner, campaign.victory_reason) == (
        Campaign.Status.FINISHED, "east", "surrender")
    assert 'id="victory"' in page(client_of(), campaign)
    assert 'name="action" value="surrender"' not in page(west_page, campaign)
