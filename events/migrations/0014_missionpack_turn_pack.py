"""Mission packs of a new kind: the turn pack of an Epic 40,000 campaign (its round is the
turn's round)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0013_free_faction"),
    ]

    operations = [
        migrations.AlterField(
            model_name="missionpack",
            name="kind",
            field=models.CharField(
                choices=[("mission_pack", "mission pack"), ("pairings", "pairings by table"),
                         ("find_table", "find your table"), ("standings", "standings"),
                         ("slips", "results slips"), ("turn_pack", "campaign turn pack")],
                default="mission_pack", max_length=12, verbose_name="kind"),
        ),
    ]
