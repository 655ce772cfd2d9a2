"""The admin page that creates an event from its JSON export (``events.services.restore``)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from config.request_limits import MIB, max_request_bytes
from events.admin.common import admin_url
from events.audit import Actor
from events.errors import ServiceError
from events.services import restore

SLUG_CODES = ("slug_taken", "slug_invalid")


def upload_cap() -> int:
    """An upload is one request: it cannot pass the request cap; larger files go through
    ``manage.py import_event``."""
    return min(restore.MAX_BYTES, max_request_bytes())


class EventImportForm(forms.Form):
    file = forms.FileField(label=_("Event export (JSON)"))
    slug = forms.SlugField(
        label=_("New address (slug)"), required=False, max_length=80,
        help_text=_("Leave empty to keep the exported one; give another if that one is taken here. "
                    "For a campaign, the campaign's address (its event's follows)."))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "A file from “Whole event (JSON)”, “Whole campaign (JSON)” or manage.py export_event "
            "or export_campaign, at most %(size)s MiB (larger files: manage.py import_event). "
            "Accounts are matched by username, whatever its case; a missing one is created "
            "inactive, without a password.") % {"size": f"{upload_cap() / MIB:g}"}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > upload_cap():
            raise forms.ValidationError(_("The file is larger than %(size)s MiB.")
                                        % {"size": f"{upload_cap() / MIB:g}"})
        return upload


def import_event_view(model_admin, request):
    """Staff who may add tournaments upload an export; errors come back on the page (409 for a
    slug already taken), success goes to the new event with the warnings as messages."""
    if not model_admin.has_add_permission(request):
        raise PermissionDenied
    form = EventImportForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            document = restore.read_document(form.cleaned_data["file"].read(upload_cap() + 1),
                                             max_bytes=upload_cap())
            restored = restore.restore_event(Actor.of(request), document,
                                             slug=form.cleaned_data["slug"] or None)
        except ServiceError as exc:
            form.add_error("slug" if exc.code in SLUG_CODES else "file", str(exc))
            status = exc.status
        else:
            counts = restored.counts
            if restored.campaign is not None:
                return _campaign_imported(request, restored)
            messages.success(request, _(
                "Event “%(name)s” imported: players %(players)s, list versions %(lists)s, rounds "
                "%(rounds)s, games %(games)s, reports %(reports)s, dice rolls %(rolls)s, audit "
                "entries %(audit)s.") % {
                "name": restored.tournament.name, "players": counts["players"],
                "lists": counts["list_versions"], "rounds": counts["rounds"],
                "games": counts["games"], "reports": counts["reports"],
                "rolls": counts["dice_rolls"], "audit": counts["audit_entries"]})
            for warning in restored.warnings:
                messages.warning(request, warning)
            return HttpResponseRedirect(admin_url(restored.tournament))
    context = {**model_admin.admin_site.each_context(request), "opts": model_admin.opts,
               "title": _("Import an event"), "form": form}
    return TemplateResponse(request, "admin/league/tournament/import_event.html", context,
                            status=status)


def _campaign_imported(request, restored: restore.Restored) -> HttpResponseRedirect:
    """A campaign's document: say what came in and open the campaign's cockpit."""
    counts = restored.counts
    messages.success(request, _(
        "Campaign “%(name)s” imported: detachments %(detachments)s, turns %(turns)s, orders "
        "%(orders)s, battles %(battles)s, score lines %(lines)s, dice rolls %(rolls)s, audit "
        "entries %(audit)s.") % {
        "name": restored.campaign.name, "detachments": counts["campaign_detachments"],
        "turns": counts["campaign_turns"], "orders": counts["campaign_orders"],
        "battles": counts["campaign_battles"], "lines": counts["campaign_score_entries"],
        "rolls": counts["dice_rolls"], "audit": counts["audit_entries"]})
    for warning in restored.warnings:
        messages.warning(request, warning)
    return HttpResponseRedirect(admin_url(restored.campaign))
