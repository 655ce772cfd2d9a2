"""Admin: the organiser's cockpit at the venue.

Every change of state (lifecycle, lists, registration, check-in, pairing, results) goes through
``events.services`` with the signed-in organiser as the actor, so it is checked, locked and
written to the audit log exactly as through the API. A service's refusal is shown as an error
message on the page, never as a server error."""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from events.admin import (  # noqa: F401  (each registers its ModelAdmins)
    audit,
    games,
    players,
    tournaments,
)

# The site's own name on every admin page (Django's default says "Django administration").
admin.site.site_header = _("Muster administration")
admin.site.site_title = _("Muster")
admin.site.index_title = _("Organiser's desk")
