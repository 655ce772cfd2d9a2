"""The notices models, moved from the league app with their tables (league 0020)."""

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
                name='Notice',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('round_published', 'round published'), ('result_reported', "opponent's report"), ('dispute_settled', 'dispute settled'), ('lists_locked', 'lists locked'), ('invitation', 'invitation'), ('registered', 'registration confirmed'), ('campaign_phase', 'campaign phase open'), ('campaign_battles', 'campaign battles'), ('campaign_choice', 'choice after a battle'), ('campaign_placement', 'campaign placement'), ('campaign_turn_closed', 'campaign turn closed'), ('campaign_surrender', 'campaign surrender'), ('campaign_declare', 'your turn to declare')], max_length=20, verbose_name='kind')),
                    ('key', models.CharField(max_length=100, verbose_name='object')),
                    ('status', models.CharField(choices=[('sending', 'sending'), ('sent', 'sent'), ('failed', 'failed')], default='sending', max_length=10, verbose_name='status')),
                    ('language', models.CharField(blank=True, max_length=10, verbose_name='language')),
                    ('error', models.CharField(blank=True, max_length=500, verbose_name='error')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='claimed')),
                    ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='sent')),
                    ('recipient', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recipient')),
                    ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notices', to='league.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'notice',
                    'verbose_name_plural': 'notices',
                    'db_table': 'league_notice',
                    'ordering': ['-created_at', '-pk'],
                    'constraints': [models.UniqueConstraint(condition=models.Q(('recipient__isnull', False)), fields=('tournament', 'recipient', 'kind', 'key'), name='notice_once'), models.UniqueConstraint(condition=models.Q(('recipient__isnull', True)), fields=('tournament', 'kind', 'key'), name='notice_once_without_account')],
                },
            ),
    
        ]),
    ]
