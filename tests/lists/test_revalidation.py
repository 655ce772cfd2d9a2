"""Editing a chart re-checks its stored lists: from the admin (eager) and on a real worker."""
import pytest
from django.contrib.auth import get_user_model

from armylists import services, tasks
from armylists.models import ArmyList, ChartSlot
from armylists.validation import Entry

FOUR_HEAVY = [Entry("Captain", "hq", 100), Entry("Tactical", "troops", 150),
              Entry("Tactical", "troops", 150)] + [Entry(f"Tank {i}", "heavy_support", 100) for i in range(4)]


def stored_invalid_list() -> ArmyList:
    chart = services.charts_with_rows().get(slug="w40k4-standard")
    army_list = services.store_list(owner=None, chart=chart, points_limit=1500, entries=FOUR_HEAVY)
    assert army_list.valid is False
    return army_list


def admin_form(chart, heavy_optional: int) -> dict:
    rows = list(chart.rows.select_related("slot"))
    data = {
        "slug": chart.slug, "game_system": chart.game_system_id, "name_en": chart.name_en,
        "name_fr": chart.name_fr, "points_min": "", "points_max": "",
        "rows-TOTAL_FORMS": len(rows), "rows-INITIAL_FORMS": len(rows),
        "rows-MIN_NUM_FORMS": 0, "rows-MAX_NUM_FORMS": 1000,
    }
    for i, row in enumerate(rows):
        optional = heavy_optional if row.slot.code == "heavy_support" else row.optional
        data.update({f"rows-{i}-id": row.pk, f"rows-{i}-chart": chart.pk, f"rows-{i}-slot": row.slot_id,
                     f"rows-{i}-compulsory": row.compulsory, f"rows-{i}-optional": optional})
    return data


@pytest.mark.django_db
def test_admin_chart_edit_revalidates_lists(client, django_capture_on_commit_callbacks):
    army_list = stored_invalid_list()
    admin = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    chart = army_list.chart
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/armylists/chart/{chart.pk}/change/", admin_form(chart, 4))
    assert response.status_code == 302, response.content.decode()[:2000]
    army_list.refresh_from_db()
    assert army_list.valid is True
    assert army_list.report["errors"] == []


@pytest.mark.django_db
def test_revalidation_changes_nothing_when_the_verdict_holds():
    army_list = stored_invalid_list()
    assert services.revalidate_chart_lists(army_list.chart_id) == 0
    army_list.refresh_from_db()
    assert army_list.valid is False


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_revalidates_lists(celery_worker_process):
    army_list = stored_invalid_list()
    ChartSlot.objects.filter(chart=army_list.chart, slot__code="heavy_support").update(optional=4)
    changed = tasks.revalidate_chart_lists.delay(army_list.chart_id).get(timeout=60)
    assert changed == 1
    army_list.refresh_from_db()
    assert army_list.valid is True
