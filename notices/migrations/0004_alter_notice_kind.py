"""The team round's "round paired" notice gets a readable kind in the admin."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notices', '0003_alter_notice_kind'),
    ]

    operations = [
        migrations.AlterField(
            model_name='notice',
            name='kind',
            field=models.CharField(choices=[('round_published', 'round published'), ('result_reported', "opponent's report"), ('dispute_settled', 'dispute settled'), ('lists_locked', 'lists locked'), ('invitation', 'invitation'), ('registered', 'registration confirmed'), ('campaign_phase', 'campaign phase open'), ('campaign_battles', 'campaign battles'), ('campaign_choice', 'choice after a battle'), ('campaign_placement', 'campaign placement'), ('campaign_turn_closed', 'campaign turn closed'), ('campaign_surrender', 'campaign surrender'), ('campaign_declare', 'your turn to declare'), ('league_week_open', 'league week open'), ('team_round_paired', 'team round paired')], max_length=20, verbose_name='kind'),
        ),
    ]
