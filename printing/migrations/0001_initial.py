"""The printing models, moved from the league app with their tables (league 0020)."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import printing.models
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
                name='MissionPack',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('status', models.CharField(choices=[('pending', 'pending'), ('running', 'running'), ('done', 'done'), ('failed', 'failed')], default='pending', max_length=10, verbose_name='status')),
                    ('kind', models.CharField(choices=[('mission_pack', 'mission pack'), ('pairings', 'pairings by table'), ('find_table', 'find your table'), ('standings', 'standings'), ('slips', 'results slips'), ('turn_pack', 'campaign turn pack')], default='mission_pack', max_length=12, verbose_name='kind')),
                    ('progress', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='progress (%)')),
                    ('file', models.FileField(blank=True, max_length=200, upload_to='packs/', verbose_name='file')),
                    ('pages', models.PositiveIntegerField(blank=True, null=True, verbose_name='pages')),
                    ('error', models.TextField(blank=True, verbose_name='error')),
                    ('token', models.CharField(default=printing.models.new_token, editable=False, max_length=32)),
                    ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='requested')),
                    ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                    ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                    ('progress_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='last progress')),
                    ('attempt', models.CharField(blank=True, editable=False, max_length=32)),
                    ('runs', models.PositiveSmallIntegerField(default=0, verbose_name='runs')),
                    ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                    ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='mission_packs', to='league.round', verbose_name='round')),
                ],
                options={
                    'verbose_name': 'mission pack',
                    'verbose_name_plural': 'mission packs',
                    'db_table': 'league_missionpack',
                    'ordering': ['-requested_at', '-pk'],
                },
            ),
    
        ]),
    ]
