"""Events of any game system: the system (filled from each event's chart), scoring, turn system,
advanced rules and settings; the level becomes optional; rounds carry a scenario, games an outcome."""

import django.db.models.deletion
import events.models
from django.db import migrations, models


def fill_game_system(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    for pk, system in Tournament.objects.values_list("pk", "chart__game_system_id"):
        Tournament.objects.filter(pk=pk).update(game_system_id=system)


class Migration(migrations.Migration):

    dependencies = [
        ('armylists', '0004_load_systems'),
        ('league', '0007_username_unique_ci'),
        ('missions', '0002_load_cities_of_death'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='outcome',
            field=models.JSONField(blank=True, default=dict, verbose_name='outcome'),
        ),
        migrations.AddField(
            model_name='round',
            name='scenario',
            field=models.TextField(blank=True, help_text='Written by the organisers for systems without rolled missions.', max_length=5000, verbose_name='scenario'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='advanced_rules',
            field=models.JSONField(blank=True, default=dict, help_text='Warhammer Battle: mantlets, stakes, baggage, baggage_mode.', verbose_name='advanced rules'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='game_system',
            field=models.ForeignKey(help_text='Cannot change once lists or rounds exist.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='armylists.gamesystem', verbose_name='game system'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='scoring',
            field=models.JSONField(blank=True, default=events.models.default_scoring, help_text='{"mode": "wdl"} (points for a win, a draw, a loss) or {"mode": "vp_table", "preset": "oms-2011"} or {"mode": "vp_table", "table": [[min_diff, max_diff, winner_tp, loser_tp], ...]}.', verbose_name='scoring'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='settings',
            field=models.JSONField(blank=True, default=dict, help_text='Urban War: size_min, size_max, result_mode.', verbose_name='system settings'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='turn_system',
            field=models.CharField(choices=[('standard', 'standard'), ('dynamics', 'W40K Dynamics (order tokens)')], default='standard', max_length=10, verbose_name='turn system'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='level',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to='missions.level', verbose_name='level'),
        ),
        migrations.RunPython(fill_game_system, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='tournament',
            name='game_system',
            field=models.ForeignKey(help_text='Cannot change once lists or rounds exist.', on_delete=django.db.models.deletion.PROTECT, related_name='+', to='armylists.gamesystem', verbose_name='game system'),
        ),
    ]
