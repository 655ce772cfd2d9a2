"""Create an event from a JSON document written by ``export_event`` or the admin's export; a
campaign's document (``export_campaign``) brings its campaign along."""
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from events.audit import SYSTEM
from events.errors import ServiceError
from events.services import restore


class Command(BaseCommand):
    help = ("Import one event (or a campaign with its event) from its JSON export into this "
            "database, all or nothing. Accounts are matched by username, whatever its case (a "
            "missing one is created inactive, without a password); an "
            "existing slug is refused unless --slug gives another one (a campaign's: its event's "
            "follows).")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export (JSON)")
        parser.add_argument("--slug", help="import under this slug instead of the exported one")

    def check_document(self, document: dict[str, Any]) -> None:
        """What this command accepts beyond a readable export (every export here)."""

    def handle(self, *args, file: str, slug: str | None = None, **options):
        path = Path(file)
        try:
            with path.open("rb") as source:
                data = source.read(restore.MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}") from None
        try:
            document = restore.read_document(data)
            self.check_document(document)
            restored = restore.restore_event(SYSTEM, document, slug=slug)
        except ServiceError as exc:
            raise CommandError(f"{exc} ({exc.code})") from None
        counts = ", ".join(f"{value} {key.replace('_', ' ')}" for key, value in restored.counts.items())
        if restored.campaign is not None:
            what = (f"Campaign “{restored.campaign.slug}” imported (its event: "
                    f"“{restored.tournament.slug}”)")
        else:
            what = f"Event “{restored.tournament.slug}” imported"
        self.stdout.write(self.style.SUCCESS(f"{what}: {counts}."))
        for warning in restored.warnings:
            self.stdout.write(self.style.WARNING(f"Warning: {warning}"))
