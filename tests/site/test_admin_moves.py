"""Bookmarks of the admin pages of models that left the ``league`` app still lead to them."""
import pytest

from campaigns.models import Campaign

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("old", "new"), [
    ("/admin/league/campaign/", "/admin/campaigns/campaign/"),
    ("/admin/league/missionpack/12/change/?x=1", "/admin/printing/missionpack/12/change/?x=1"),
    ("/admin/league/notice/", "/admin/notices/notice/"),
    ("/admin/league/scorecomponent/add/", "/admin/venue/scorecomponent/add/"),
])
def test_an_old_address_redirects_to_the_new_one(client, old, new):
    response = client.get(old)
    assert (response.status_code, response["Location"]) == (301, new)


def test_the_league_apps_own_models_keep_their_addresses(admin_client):
    assert admin_client.get("/admin/league/tournament/").status_code == 200
    assert admin_client.get("/admin/league/nothing/").status_code == 404


def test_a_redirected_page_opens(admin_client):
    assert Campaign._meta.app_label == "campaigns"
    assert admin_client.get("/admin/league/campaign/", follow=True).status_code == 200
