"""Notices of a new kind: the registration confirmation with the check-in code."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0014_missionpack_turn_pack"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notice",
            name="kind",
            field=models.CharField(choices=[("round_published", "round published"), ("result_reported", "opponent's report"), ("dispute_settled", "dispute settled"), ("lists_locked", "lists locked"), ("invitation", "invitation"), ("registered", "registration confirmed")], max_length=20, verbose_name="kind"),
        ),
    ]
