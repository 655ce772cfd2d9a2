"""Write one Epic 40,000 campaign as a JSON document that ``import_campaign`` reads back: its
event's document with the campaign's rows (campaigns.services.backup)."""
from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from events.management.commands.export_event import write_export


class Command(BaseCommand):
    help = ("Export one campaign (every row of it and of its event) as JSON, to a file or to "
            "stdout.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the campaign's address (slug)")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        campaign = Campaign.objects.select_related(
            "tournament__chart", "tournament__level", "tournament__dice",
            "tournament__created_by", "tournament__game_system").filter(slug=slug).first()
        if campaign is None:
            raise CommandError(f"No campaign with the slug “{slug}”.")
        write_export(self, campaign.tournament, output, f"Campaign “{slug}”")
