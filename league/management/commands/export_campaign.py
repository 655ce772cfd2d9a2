"""Write one Epic 40,000 campaign as a JSON document that ``import_campaign`` reads back: its
event's document with the campaign's rows (league.services.campaign_backup)."""
import json

from django.core.management.base import BaseCommand, CommandError

from league.campaign_models import Campaign
from league.services.exports import event_data


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
        text = json.dumps(event_data(campaign.tournament), ensure_ascii=False, indent=2)
        if output in (None, "-"):
            self.stdout.write(text)
            return
        with open(output, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        self.stderr.write(f"Campaign “{slug}” written to {output}.")
