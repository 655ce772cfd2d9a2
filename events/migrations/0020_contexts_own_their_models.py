"""The campaigns, venue, printing, notices and accounts apps take over their models and tables."""

from django.db import migrations



MOVED = {
    "accounts": ["profile"],
    "campaigns": ["campaign", "campaignside", "campaigndetachment", "campaignturn", "campaignorder",
                  "campaignbattle", "campaignreveal", "campaignscoreentry"],
    "notices": ["notice"],
    "printing": ["missionpack"],
    "venue": ["venuecheckin", "roundclock", "scorecomponent", "scoreentry", "scorevote"],
}


def move_content_types(apps, schema_editor):
    """Permissions and admin history follow the models to their new apps."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for app, models in MOVED.items():
        for model in models:
            if not content_type.objects.filter(app_label=app, model=model).exists():
                content_type.objects.filter(app_label="league", model=model).update(app_label=app)


def move_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    for app, models in MOVED.items():
        content_type.objects.filter(app_label=app, model__in=models).update(app_label="league")


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0019_campaign_air_sealed'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        # The tables stay where they are: only Django's idea of which app owns them moves.
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.RemoveField(
                model_name='campaignbattle',
                name='game',
            ),
            migrations.RemoveField(
                model_name='campaignbattle',
                name='turn',
            ),
            migrations.RemoveField(
                model_name='campaigndetachment',
                name='side',
            ),
            migrations.RemoveField(
                model_name='campaignreveal',
                name='detachment',
            ),
            migrations.RemoveField(
                model_name='campaignorder',
                name='created_by',
            ),
            migrations.RemoveField(
                model_name='campaignorder',
                name='escort_of',
            ),
            migrations.RemoveField(
                model_name='campaignorder',
                name='for_attack',
            ),
            migrations.RemoveField(
                model_name='campaignorder',
                name='turn',
            ),
            migrations.RemoveField(
                model_name='campaignscoreentry',
                name='campaign',
            ),
            migrations.RemoveField(
                model_name='campaignside',
                name='campaign',
            ),
            migrations.RemoveField(
                model_name='campaignside',
                name='player',
            ),
            migrations.RemoveField(
                model_name='campaignturn',
                name='campaign',
            ),
            migrations.RemoveField(
                model_name='campaignturn',
                name='round',
            ),
            migrations.RemoveField(
                model_name='missionpack',
                name='requested_by',
            ),
            migrations.RemoveField(
                model_name='missionpack',
                name='round',
            ),
            migrations.RemoveField(
                model_name='notice',
                name='recipient',
            ),
            migrations.RemoveField(
                model_name='notice',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='profile',
                name='user',
            ),
            migrations.RemoveField(
                model_name='roundclock',
                name='round',
            ),
            migrations.RemoveField(
                model_name='scorecomponent',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='scoreentry',
                name='component',
            ),
            migrations.RemoveField(
                model_name='scorevote',
                name='component',
            ),
            migrations.RemoveField(
                model_name='scoreentry',
                name='entered_by',
            ),
            migrations.RemoveField(
                model_name='scoreentry',
                name='player',
            ),
            migrations.RemoveField(
                model_name='scorevote',
                name='voted_for',
            ),
            migrations.RemoveField(
                model_name='scorevote',
                name='voter',
            ),
            migrations.RemoveField(
                model_name='venuecheckin',
                name='opened_by',
            ),
            migrations.RemoveField(
                model_name='venuecheckin',
                name='tournament',
            ),
            migrations.DeleteModel(
                name='Campaign',
            ),
            migrations.DeleteModel(
                name='CampaignBattle',
            ),
            migrations.DeleteModel(
                name='CampaignDetachment',
            ),
            migrations.DeleteModel(
                name='CampaignReveal',
            ),
            migrations.DeleteModel(
                name='CampaignOrder',
            ),
            migrations.DeleteModel(
                name='CampaignScoreEntry',
            ),
            migrations.DeleteModel(
                name='CampaignSide',
            ),
            migrations.DeleteModel(
                name='CampaignTurn',
            ),
            migrations.DeleteModel(
                name='MissionPack',
            ),
            migrations.DeleteModel(
                name='Notice',
            ),
            migrations.DeleteModel(
                name='Profile',
            ),
            migrations.DeleteModel(
                name='RoundClock',
            ),
            migrations.DeleteModel(
                name='ScoreComponent',
            ),
            migrations.DeleteModel(
                name='ScoreEntry',
            ),
            migrations.DeleteModel(
                name='ScoreVote',
            ),
            migrations.DeleteModel(
                name='VenueCheckIn',
            ),
    
        ]),
        migrations.RunPython(move_content_types, move_back),
    ]
