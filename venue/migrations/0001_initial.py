"""The venue models, moved from the league app with their tables (league 0020)."""

import datetime
import django.core.validators
import django.db.models.deletion
import venue.checkin_models
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
                name='RoundClock',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('duration', models.DurationField(default=datetime.timedelta(0), verbose_name='duration')),
                    ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                    ('running_since', models.DateTimeField(blank=True, null=True, verbose_name='running since')),
                    ('elapsed', models.DurationField(default=datetime.timedelta(0), verbose_name='time run before the last start or resume')),
                    ('ended_at', models.DateTimeField(blank=True, null=True, verbose_name='ended')),
                    ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated')),
                    ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='clock', to='league.round', verbose_name='round')),
                ],
                options={
                    'verbose_name': 'round clock',
                    'verbose_name_plural': 'round clocks',
                    'db_table': 'league_roundclock',
                },
            ),
            migrations.CreateModel(
                name='ScoreComponent',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(max_length=80, verbose_name='name')),
                    ('kind', models.CharField(choices=[('award', 'award'), ('penalty', 'penalty')], default='award', max_length=10, verbose_name='kind')),
                    ('weight', models.PositiveSmallIntegerField(default=1, help_text='Each point entered (or vote received) is worth this many tournament points.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(100)], verbose_name='weight')),
                    ('players_vote', models.BooleanField(default=False, help_text='Players may each give one vote to another player while the event runs.', verbose_name='players vote')),
                    ('counts', models.BooleanField(default=True, help_text='Added to the tournament points when the standings rank with extras.', verbose_name='counts in the ranking')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                    ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='score_components', to='league.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'score component',
                    'verbose_name_plural': 'awards and penalties',
                    'db_table': 'league_scorecomponent',
                    'ordering': ['tournament', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='ScoreEntry',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('value', models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(10000)], verbose_name='value')),
                    ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                    ('entered_at', models.DateTimeField(auto_now=True, verbose_name='entered')),
                    ('component', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='venue.scorecomponent', verbose_name='component')),
                    ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='entered by')),
                    ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='score_entries', to='league.player', verbose_name='player')),
                ],
                options={
                    'verbose_name': 'score entry',
                    'verbose_name_plural': 'score entries',
                    'db_table': 'league_scoreentry',
                    'ordering': ['component', 'player'],
                },
            ),
            migrations.CreateModel(
                name='ScoreVote',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('created_at', models.DateTimeField(auto_now=True, verbose_name='voted')),
                    ('component', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='votes', to='venue.scorecomponent', verbose_name='component')),
                    ('voted_for', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='league.player', verbose_name='voted for')),
                    ('voter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='league.player', verbose_name='voter')),
                ],
                options={
                    'verbose_name': 'vote',
                    'verbose_name_plural': 'votes',
                    'db_table': 'league_scorevote',
                },
            ),
            migrations.CreateModel(
                name='VenueCheckIn',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('is_open', models.BooleanField(default=False, verbose_name='open')),
                    ('token', models.CharField(default=venue.checkin_models.new_venue_token, editable=False, max_length=40)),
                    ('opened_at', models.DateTimeField(blank=True, null=True, verbose_name='opened')),
                    ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed')),
                    ('opened_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='opened by')),
                    ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='venue_check_in', to='league.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'self check-in window',
                    'verbose_name_plural': 'self check-in windows',
                    'db_table': 'league_venuecheckin',
                },
            ),
            migrations.AddConstraint(
                model_name='scorecomponent',
                constraint=models.UniqueConstraint(fields=('tournament', 'name'), name='score_component_name_once'),
            ),
            migrations.AddConstraint(
                model_name='scoreentry',
                constraint=models.UniqueConstraint(fields=('component', 'player'), name='score_entry_once'),
            ),
            migrations.AddConstraint(
                model_name='scorevote',
                constraint=models.UniqueConstraint(fields=('component', 'voter'), name='score_vote_once'),
            ),
            migrations.AddConstraint(
                model_name='scorevote',
                constraint=models.CheckConstraint(condition=models.Q(('voter', models.F('voted_for')), _negated=True), name='score_vote_not_self'),
            ),
    
        ]),
    ]
