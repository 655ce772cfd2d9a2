"""Check-in at the door (when and by whom, a personal code per player, the venue's self check-in
window) and wall sheets (a kind for each printed pack).

The code is added empty, filled for the players who exist (each their own secret), then made
unique: a callable default would give every existing row the same value."""

import django.db.models.deletion
import venue.checkin_codes
import venue.checkin_models
from django.conf import settings
from django.db import migrations, models


def give_codes(apps, schema_editor):
    """A fresh code for every player registered before codes existed."""
    Player = apps.get_model("league", "Player")
    taken: set[str] = set()
    players = list(Player.objects.filter(checkin_code__isnull=True).only("pk"))
    for player in players:
        code = venue.checkin_codes.new_checkin_code()
        while code in taken:
            code = venue.checkin_codes.new_checkin_code()
        taken.add(code)
        player.checkin_code = code
    Player.objects.bulk_update(players, ["checkin_code"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0010_round_clock'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='missionpack',
            name='kind',
            field=models.CharField(choices=[('mission_pack', 'mission pack'), ('pairings', 'pairings by table'), ('find_table', 'find your table'), ('standings', 'standings'), ('slips', 'results slips')], default='mission_pack', max_length=12, verbose_name='kind'),
        ),
        migrations.AddField(
            model_name='player',
            name='checked_in_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='checked in at'),
        ),
        migrations.AddField(
            model_name='player',
            name='checked_in_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='checked in by'),
        ),
        migrations.AddField(
            model_name='player',
            name='checkin_code',
            field=models.CharField(editable=False, max_length=16, null=True, verbose_name='check-in code'),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='checkin_code',
            field=models.CharField(default=venue.checkin_codes.new_checkin_code, editable=False, max_length=16, unique=True, verbose_name='check-in code'),
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
            },
        ),
    ]
