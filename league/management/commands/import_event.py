"""Create an event from a JSON document written by ``export_event`` or the admin's export."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.audit import SYSTEM
from league.errors import ServiceError
from league.services import restore


class Command(BaseCommand):
    help = ("Import one event from its JSON export into this database, all or nothing. Accounts "
            "are matched by username (none is created); an existing slug is refused unless "
            "--slug gives another one.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export (JSON)")
        parser.add_argument("--slug", help="import under this slug instead of the exported one")

    def handle(self, *args, file: str, slug: str | None = None, **options):
        path = Path(file)
        try:
            with path.open("rb") as source:
                data = source.read(restore.MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}") from None
        try:
            restored = restore.restore_event(SYSTEM, restore.read_document(data), slug=slug)
        except ServiceError as exc:
            raise CommandError(f"{exc} ({exc.code})") from None
        counts = ", ".join(f"{value} {key.replace('_', ' ')}" for key, value in restored.counts.items())
        self.stdout.write(self.style.SUCCESS(f"Event “{restored.tournament.slug}” imported: {counts}."))
        for warning in restored.warnings:
            self.stdout.write(self.style.WARNING(f"Warning: {warning}"))
