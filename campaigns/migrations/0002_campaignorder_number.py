"""Orders get a public number per turn and side (west odd, east even): the id players read says
nothing of the other side's orders (issue #23). Existing orders are numbered in their order."""

from django.db import migrations, models


def number_orders(apps, schema_editor):
    order_model = apps.get_model("campaigns", "CampaignOrder")
    counters: dict[tuple[int, str], int] = {}
    rows = list(order_model.objects.order_by("turn_id", "pk"))
    for row in rows:
        start = 1 if row.side == "west" else 2
        key = (row.turn_id, row.side)
        row.number = counters[key] = counters.get(key, start - 2) + 2
    order_model.objects.bulk_update(rows, ["number"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaignorder",
            name="number",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="number"),
        ),
        migrations.RunPython(number_orders, migrations.RunPython.noop),
    ]
