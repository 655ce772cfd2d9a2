"""The accounts models, moved from the league app with their tables (league 0020)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('league', '0020_contexts_own_their_models'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables stay where they are: only Django's idea of which app owns them moves.
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='Profile',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('language', models.CharField(blank=True, choices=[('en', 'English'), ('fr', 'Français')], default='', max_length=10, verbose_name='preferred language')),
                    ('notices', models.BooleanField(default=True, verbose_name='e-mail notices')),
                    ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='profile', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                ],
                options={
                    'verbose_name': 'profile',
                    'verbose_name_plural': 'profiles',
                    'db_table': 'league_profile',
                },
            ),
    
        ]),
    ]
