"""The organiser's cockpit of an Epic 40,000 campaign (systems/epic-campaign.md §1.1 and §1.7):
the set-up checklist, the phase stepper, the whole map, this turn's orders (refused or forced
with a reason), the battles and their report status, the score ledger with manual lines.

The campaign's change page is the cockpit. Every button posts ``action`` to it and calls the
service the API calls, with the signed-in organiser as the actor (checked, locked, audited);
a refusal comes back as an error message, a success as a message, then the page again. The
buttons are in admin/cockpit_actions.py, what the page shows in admin/cockpit_context.py."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.admin.cockpit_actions import ACTIONS
from campaigns.admin.cockpit_context import cockpit_context
from campaigns.admin.forms import CampaignCreateForm
from campaigns.models import Campaign
from campaigns.services import pack as campaign_pack
from campaigns.services import setup as campaign_setup
from campaigns.state_serializers import SettingsSerializer
from events.audit import Actor
from events.errors import ServiceError
from events.services import exports
from events.systems import normalised


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "current_turn", "planet", "winner", "created_at"]
    list_filter = ["status"]
    search_fields = ["name", "slug"]

    def view_on_site(self, obj: Campaign) -> str:
        return reverse("campaign", args=[obj.slug])

    def get_urls(self):
        view = self.admin_site.admin_view(require_POST(self.turn_pack_view))
        return [path("<int:pk>/turn-pack/", view, name="campaigns_campaign_turn_pack"),
                path("<int:pk>/export.json", self.admin_site.admin_view(self.export_json),
                     name="campaigns_campaign_export_json"),
                *super().get_urls()]

    def export_json(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The whole campaign with its event (campaigns.services.backup), which the admin's
        "Import an event" page and manage.py import_campaign read back."""
        found = get_object_or_404(Campaign.objects.select_related(
            "tournament__chart", "tournament__level", "tournament__dice", "tournament__created_by",
            "tournament__game_system"), pk=pk)
        if not self.has_view_or_change_permission(request, found):
            raise PermissionDenied
        response = JsonResponse(exports.event_data(found.tournament),
                                json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = f'attachment; filename="{found.slug}.json"'
        return response

    def turn_pack_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Print the current turn's pack, then watch it on the mission pack's page (progress,
        then the download link), as the round's "print the mission pack" does."""
        found = get_object_or_404(Campaign.objects.select_related("tournament"), pk=pk)
        if not self.has_change_permission(request, found):
            raise PermissionDenied
        try:
            pack = campaign_pack.request_turn_pack(Actor.of(request), found, found.current_turn)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(reverse("admin:campaigns_campaign_change", args=[found.pk]))
        return HttpResponseRedirect(reverse("admin:printing_missionpack_change", args=[pack.pk]))

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a campaign's rows are its history: nothing deletes them from here

    def add_view(self, request, form_url="", extra_context=None) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = CampaignCreateForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            got = form.cleaned_data
            settings = normalised(SettingsSerializer, {
                "victory_score": got["victory_score"], "declaration_mode": got["declaration_mode"]})
            try:
                created = campaign_setup.create_campaign(Actor.of(request), name=got["name"],
                                                         settings=settings,
                                                         army_points=got["army_points"],
                                                         seed=got["seed"])
            except ServiceError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Campaign created: now add its two sides."))
                return HttpResponseRedirect(reverse("admin:campaigns_campaign_change",
                                                    args=[created.pk]))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "form": form, "title": _("New campaign")}
        return TemplateResponse(request, "admin/campaigns/campaign/add.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None) -> HttpResponse:
        found = get_object_or_404(Campaign.objects.select_related("tournament"), pk=object_id)
        if not self.has_view_or_change_permission(request, found):
            raise PermissionDenied
        if request.method == "POST":
            if not self.has_change_permission(request, found):
                raise PermissionDenied
            handler = ACTIONS.get(request.POST.get("action", ""))
            if handler is not None:
                try:
                    messages.success(request, handler(Actor.of(request), found, request.POST))
                except ServiceError as exc:
                    messages.error(request, str(exc))
            return HttpResponseRedirect(request.path)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "original": found, "title": found.name,
                   **cockpit_context(request, found)}
        return TemplateResponse(request, "admin/campaigns/campaign/cockpit.html", context)
