"""When a pack's build was handed to the broker (the sweep queues again what it never took)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('printing', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='missionpack',
            name='queued_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='queued'),
        ),
    ]
