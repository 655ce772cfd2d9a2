"""Every admin page opens for staff on a fresh database, and reference data is editable."""
import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [m for m in admin.site._registry], ids=lambda m: m._meta.label)
def test_changelist_and_first_object_open(admin_client, model):
    info = (model._meta.app_label, model._meta.model_name)
    assert admin_client.get(reverse("admin:{}_{}_changelist".format(*info))).status_code == 200
    first = model.objects.first()
    if first is not None:
        assert admin_client.get(reverse("admin:{}_{}_change".format(*info), args=[first.pk])).status_code == 200


def test_margin_bands_page_says_it_is_a_default(admin_client):
    page = admin_client.get(reverse("admin:missions_marginband_changelist")).content.decode()
    assert "Muster default" in page


def test_stored_list_shows_its_report(admin_client, django_capture_on_commit_callbacks):
    admin_client.post("/api/v1/lists/", {"chart": "w40k4-standard", "points_limit": 100,
                                         "units": [{"name": "Captain", "slot": "hq", "points": 150}]},
                      content_type="application/json")
    from armylists.models import ArmyList
    army_list = ArmyList.objects.get()
    page = admin_client.get(reverse("admin:armylists_armylist_change", args=[army_list.pk])).content.decode()
    assert "The list totals 150 points; the limit is 100" in page
    assert "Troops: 0 choices" in page


def test_nobody_edits_a_dice_roll(admin_client):
    from missions import services
    stream = services.stream_for("admin:test", seed=1)
    services.roll_with(stream, lambda r: r.roll("D6", "test"))
    from missions.models import DiceRoll
    roll = DiceRoll.objects.get()
    response = admin_client.post(reverse("admin:missions_diceroll_change", args=[roll.pk]), {"total": 6})
    roll.refresh_from_db()
    assert response.status_code == 403 or roll.total == DiceRoll.objects.get().total
    assert admin_client.post(reverse("admin:missions_diceroll_delete", args=[roll.pk]), {"post": "yes"}).status_code == 403
    assert DiceRoll.objects.count() == 1
