import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0005_profile'),
    ]

    operations = [
        migrations.AddField(
            model_name='missionpack',
            name='progress_at',
            field=models.DateTimeField(default=django.utils.timezone.now, verbose_name='last progress'),
        ),
        migrations.AddField(
            model_name='missionpack',
            name='attempt',
            field=models.CharField(blank=True, editable=False, max_length=32),
        ),
        migrations.AddField(
            model_name='missionpack',
            name='runs',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='runs'),
        ),
    ]
