"""Write one event as a JSON document that ``import_event`` reads back (see events.services.backup)."""
import json

from django.core.management.base import BaseCommand, CommandError

from events.models import Tournament
from events.services.exports import event_data


class Command(BaseCommand):
    help = "Export one event (every row that belongs to it) as JSON, to a file or to stdout."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's address (slug)")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        tournament = Tournament.objects.select_related(
            "chart", "level", "dice", "created_by").filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No event with the slug “{slug}”.")
        write_export(self, tournament, output, f"Event “{slug}”")


def write_export(command: BaseCommand, tournament: Tournament, output: str | None,
                 what: str) -> None:
    """The event's document as JSON on stdout (``output`` None or "-") or in the file named."""
    text = json.dumps(event_data(tournament), ensure_ascii=False, indent=2)
    if output in (None, "-"):
        command.stdout.write(text)
        return
    with open(output, "w", encoding="utf-8") as out:
        out.write(text + "\n")
    command.stderr.write(f"{what} written to {output}.")
