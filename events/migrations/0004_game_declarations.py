from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0003_player_user_once_message'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='declarations',
            field=models.JSONField(blank=True, default=dict, verbose_name='stratagem declarations'),
        ),
    ]
