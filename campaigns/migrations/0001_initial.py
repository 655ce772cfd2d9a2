"""The campaigns models, moved from the league app with their tables (league 0020)."""

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
                name='Campaign',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('slug', models.SlugField(max_length=80, unique=True, verbose_name='slug')),
                    ('name', models.CharField(max_length=200, verbose_name='name')),
                    ('status', models.CharField(choices=[('setup', 'setup'), ('placement', 'placement'), ('running', 'running'), ('finished', 'finished')], default='setup', max_length=10, verbose_name='status')),
                    ('army_points', models.PositiveIntegerField(default=5000, verbose_name='army points')),
                    ('victory_score', models.PositiveSmallIntegerField(default=24, verbose_name='victory score')),
                    ('settings', models.JSONField(blank=True, default=dict, verbose_name='settings')),
                    ('planet', models.CharField(blank=True, max_length=40, verbose_name='planet')),
                    ('planet_rolls', models.JSONField(blank=True, default=list, verbose_name='planet rolls')),
                    ('placement_first', models.CharField(blank=True, choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='places first')),
                    ('placement_roll', models.JSONField(blank=True, default=list, verbose_name='placement roll-off')),
                    ('control', models.JSONField(blank=True, default=dict, verbose_name='control')),
                    ('fortified', models.JSONField(blank=True, default=list, verbose_name='fortified territories')),
                    ('isolated', models.JSONField(blank=True, default=list, verbose_name='isolated territories')),
                    ('current_turn', models.PositiveSmallIntegerField(default=0, verbose_name='current turn')),
                    ('winner', models.CharField(blank=True, choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='winner')),
                    ('victory_reason', models.CharField(blank=True, max_length=20, verbose_name='victory')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                    ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='campaign', to='league.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'campaign',
                    'verbose_name_plural': 'campaigns',
                    'db_table': 'league_campaign',
                    'ordering': ['-created_at', '-pk'],
                },
            ),
            migrations.CreateModel(
                name='CampaignScoreEntry',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('turn', models.PositiveSmallIntegerField(verbose_name='turn')),
                    ('side', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='side')),
                    ('kind', models.CharField(max_length=20, verbose_name='kind')),
                    ('points', models.IntegerField(verbose_name='points')),
                    ('subject', models.CharField(blank=True, max_length=200, verbose_name='territory or detachment')),
                    ('detail', models.JSONField(blank=True, default=dict, verbose_name='detail')),
                    ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='score_entries', to='campaigns.campaign')),
                ],
                options={
                    'verbose_name': 'campaign score entry',
                    'verbose_name_plural': 'campaign score entries',
                    'db_table': 'league_campaignscoreentry',
                    'ordering': ['campaign', 'turn', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='CampaignSide',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('side', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='side')),
                    ('army_name', models.CharField(max_length=120, verbose_name='army name')),
                    ('faction', models.SlugField(max_length=60, verbose_name='faction')),
                    ('strategic_value', models.PositiveSmallIntegerField(verbose_name='strategic value')),
                    ('majors', models.JSONField(blank=True, default=list, verbose_name='major territories')),
                    ('surrendered', models.BooleanField(default=False, verbose_name='surrendered')),
                    ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sides', to='campaigns.campaign')),
                    ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='campaign_side', to='league.player', verbose_name='player')),
                ],
                options={
                    'verbose_name': 'campaign side',
                    'verbose_name_plural': 'campaign sides',
                    'db_table': 'league_campaignside',
                    'ordering': ['campaign', '-side'],
                },
            ),
            migrations.CreateModel(
                name='CampaignDetachment',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(max_length=200, verbose_name='name')),
                    ('points', models.PositiveIntegerField(verbose_name='points')),
                    ('kind', models.CharField(choices=[('ground', 'ground'), ('air', 'air'), ('airborne', 'airborne')], default='ground', max_length=8, verbose_name='kind')),
                    ('supreme_commander', models.BooleanField(default=False, verbose_name='Supreme Commander')),
                    ('position', models.PositiveSmallIntegerField(default=0, verbose_name='position in the army')),
                    ('location', models.CharField(blank=True, max_length=2, verbose_name='territory')),
                    ('destroyed', models.BooleanField(default=False, verbose_name='destroyed')),
                    ('placed_order', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='placed as')),
                    ('units', models.JSONField(blank=True, default=list, verbose_name='units')),
                    ('captured_units', models.JSONField(blank=True, default=list, verbose_name='captured units')),
                    ('landed_turn', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='landed in turn')),
                    ('vehicles_in_orbit', models.BooleanField(default=False, verbose_name='vehicles in orbit')),
                    ('side', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='detachments', to='campaigns.campaignside')),
                ],
                options={
                    'verbose_name': 'campaign detachment',
                    'verbose_name_plural': 'campaign detachments',
                    'db_table': 'league_campaigndetachment',
                    'ordering': ['side', 'position', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='CampaignTurn',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveSmallIntegerField(verbose_name='number')),
                    ('phase', models.CharField(blank=True, max_length=12, verbose_name='phase')),
                    ('initiative', models.JSONField(blank=True, default=dict, verbose_name='phase initiative')),
                    ('report', models.JSONField(blank=True, default=dict, verbose_name='turn report')),
                    ('infiltrations', models.JSONField(blank=True, default=list, verbose_name='infiltrations')),
                    ('declarations', models.JSONField(blank=True, default=dict, verbose_name='declarations')),
                    ('air', models.JSONField(blank=True, default=list, verbose_name='air missions')),
                    ('opened_at', models.DateTimeField(auto_now_add=True, verbose_name='opened')),
                    ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed')),
                    ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='turns', to='campaigns.campaign')),
                    ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='campaign_turn', to='league.round', verbose_name='round')),
                ],
                options={
                    'verbose_name': 'campaign turn',
                    'verbose_name_plural': 'campaign turns',
                    'db_table': 'league_campaignturn',
                    'ordering': ['campaign', 'number'],
                },
            ),
            migrations.CreateModel(
                name='CampaignOrder',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('side', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='side')),
                    ('kind', models.CharField(max_length=12, verbose_name='kind')),
                    ('detachments', models.JSONField(blank=True, default=list, verbose_name='detachments')),
                    ('from_code', models.CharField(blank=True, max_length=2, verbose_name='from')),
                    ('to_code', models.CharField(blank=True, max_length=2, verbose_name='to')),
                    ('bonus', models.CharField(blank=True, max_length=20, verbose_name='bonus')),
                    ('commander', models.CharField(blank=True, max_length=200, verbose_name='Supreme Commander')),
                    ('status', models.CharField(default='accepted', max_length=10, verbose_name='status')),
                    ('refusal_code', models.CharField(blank=True, max_length=40, verbose_name='refusal')),
                    ('refusal_params', models.JSONField(blank=True, default=dict, verbose_name='refusal details')),
                    ('sequence', models.PositiveIntegerField(blank=True, null=True, verbose_name='sequence')),
                    ('mission', models.CharField(blank=True, max_length=12, verbose_name='air mission')),
                    ('route', models.JSONField(blank=True, default=list, verbose_name='route')),
                    ('return_route', models.JSONField(blank=True, default=list, verbose_name='return route')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='declared')),
                    ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('escort_of', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='escorts', to='campaigns.campaignorder', verbose_name='escort of')),
                    ('for_attack', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='reactions', to='campaigns.campaignorder', verbose_name='reaction to')),
                    ('turn', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='orders', to='campaigns.campaignturn')),
                ],
                options={
                    'verbose_name': 'campaign order',
                    'verbose_name_plural': 'campaign orders',
                    'db_table': 'league_campaignorder',
                    'ordering': ['turn', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='CampaignBattle',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('territory', models.CharField(max_length=2, verbose_name='territory')),
                    ('attacker', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='attacker')),
                    ('defender', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='defender')),
                    ('contested', models.BooleanField(default=True, verbose_name='contested')),
                    ('attack_ids', models.JSONField(blank=True, default=list, verbose_name='attacks')),
                    ('attackers', models.JSONField(blank=True, default=list, verbose_name='attacking detachments')),
                    ('defender_deployed', models.JSONField(blank=True, default=list, verbose_name='deployed defenders')),
                    ('defender_reserves', models.JSONField(blank=True, default=list, verbose_name='defenders in reserve')),
                    ('attacker_points', models.PositiveIntegerField(default=0, verbose_name='attacker points')),
                    ('defender_points', models.PositiveIntegerField(default=0, verbose_name='defender points')),
                    ('fortifications', models.PositiveSmallIntegerField(default=0, verbose_name='fortifications')),
                    ('at_stake', models.JSONField(blank=True, default=dict, verbose_name='score at stake')),
                    ('isolated', models.JSONField(blank=True, default=list, verbose_name='isolated detachments')),
                    ('stay', models.JSONField(blank=True, default=list, verbose_name='staying')),
                    ('retreat_to', models.JSONField(blank=True, default=dict, verbose_name='retreats')),
                    ('game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='campaign_battle', to='league.game', verbose_name='game')),
                    ('turn', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='battles', to='campaigns.campaignturn')),
                ],
                options={
                    'verbose_name': 'campaign battle',
                    'verbose_name_plural': 'campaign battles',
                    'db_table': 'league_campaignbattle',
                    'ordering': ['turn', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='CampaignReveal',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('to_side', models.CharField(choices=[('west', 'West'), ('east', 'East')], max_length=4, verbose_name='seen by')),
                    ('source', models.CharField(default='battle', max_length=20, verbose_name='how')),
                    ('level', models.CharField(default='full', max_length=12, verbose_name='what is seen')),
                    ('turn', models.PositiveSmallIntegerField(verbose_name='turn')),
                    ('detachment', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reveals', to='campaigns.campaigndetachment')),
                ],
                options={
                    'verbose_name': 'revealed detachment',
                    'verbose_name_plural': 'revealed detachments',
                    'db_table': 'league_campaignreveal',
                    'ordering': ['detachment', 'turn'],
                    'constraints': [models.UniqueConstraint(fields=('detachment', 'to_side'), name='campaign_reveal_once')],
                },
            ),
            migrations.AddConstraint(
                model_name='campaignside',
                constraint=models.UniqueConstraint(fields=('campaign', 'side'), name='campaign_side_once'),
            ),
            migrations.AddConstraint(
                model_name='campaigndetachment',
                constraint=models.UniqueConstraint(fields=('side', 'name'), name='campaign_detachment_name_once'),
            ),
            migrations.AddConstraint(
                model_name='campaignturn',
                constraint=models.UniqueConstraint(fields=('campaign', 'number'), name='campaign_turn_once'),
            ),
            migrations.AddConstraint(
                model_name='campaignbattle',
                constraint=models.UniqueConstraint(fields=('turn', 'territory'), name='campaign_battle_once'),
            ),
    
        ]),
    ]
