"""Create a campaign and its event from a JSON document written by ``export_campaign`` or the
cockpit's "Whole campaign (JSON)" (the same import as ``import_event``, for campaigns only)."""
from typing import Any

from django.core.management.base import CommandError

from events.management.commands import import_event


class Command(import_event.Command):
    help = ("Import one Epic 40,000 campaign with its event from its JSON export, all or nothing. "
            "Accounts are matched by username, whatever its case (a missing one is created "
            "inactive, without a password); a campaign slug already used is "
            "refused unless --slug gives another one (its event's slug follows).")

    def check_document(self, document: dict[str, Any]) -> None:
        if not document.get("campaign"):
            raise CommandError("This file holds an event, not a campaign: use import_event.")
