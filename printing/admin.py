"""Admin: mission packs and wall sheets (progress, download, retry), the "print the mission pack"
round action and the wall-sheet buttons of the round and event pages.

Importing this module registers ``MissionPackAdmin``; ``start_pack`` is an action for the
Round admin (``actions = [start_pack]``).
"""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from events.audit import Actor
from events.errors import ServiceError
from events.models import Round
from printing.models import MissionPack
from printing.services import packs

Status = MissionPack.Status
Kind = MissionPack.Kind
WALL_SHEETS = (Kind.PAIRINGS, Kind.FIND_TABLE, Kind.STANDINGS, Kind.SLIPS)


def _change_url(pack: MissionPack) -> str:
    return reverse("admin:printing_missionpack_change", args=[pack.pk])


def _download_url(pack: MissionPack) -> str:
    return reverse("api-mission-pack-download", args=[pack.pk])


@admin.action(description=_("Print the mission pack"))
def start_pack(modeladmin, request: HttpRequest, queryset):
    """Round action: one pack per selected round; with one round, go and watch its progress."""
    started = []
    for round_ in queryset.select_related("tournament"):
        try:
            started.append(packs.request_pack(Actor.of(request), round_.tournament, round_.number))
        except ServiceError as exc:
            messages.error(request, f"{round_}: {exc.message}")
    if len(started) == 1:
        return HttpResponseRedirect(_change_url(started[0]))
    if started:
        messages.success(request, _("%(count)d mission packs started.") % {"count": len(started)})
        return HttpResponseRedirect(reverse("admin:printing_missionpack_changelist"))
    return None


def _retryable(pack: MissionPack) -> bool:
    """Failed, or interrupted: pending or running with no heartbeat since its worker died (the
    sweep starts it again by itself; staff need not wait for it)."""
    return pack.status == Status.FAILED or pack.stale


@admin.action(description=_("Retry the selected failed or stalled packs"), permissions=["view"])
def retry_packs(modeladmin, request: HttpRequest, queryset) -> None:
    retried = 0
    for pack in queryset.exclude(status=Status.DONE):
        if not _retryable(pack):
            continue
        try:
            packs.retry_pack(Actor.of(request), pack)
        except ServiceError as exc:  # it moved again meanwhile
            messages.error(request, f"{pack}: {exc.message}")
            continue
        retried += 1
    messages.info(request, _("%(count)d failed or stalled packs started again.")
                  % {"count": retried})


@admin.register(MissionPack)
class MissionPackAdmin(admin.ModelAdmin):
    """Read-only: packs are made by the round action and the task, never typed in."""

    change_form_template = "packs/admin_change_form.html"
    list_display = ["__str__", "kind", "state", "progress_bar", "download", "requested_by",
                    "requested_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["round__tournament", "requested_by"]
    actions = [retry_packs]
    fields = readonly_fields = ["round", "kind", "state", "progress_bar", "download", "pages",
                                "error", "requested_by", "requested_at", "started_at",
                                "progress_at", "heartbeat_at", "runs", "finished_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("status"), ordering="status")
    def state(self, obj: MissionPack) -> str:
        """The status, or why an interrupted pack is not moving (it restarts by itself)."""
        if obj.interrupted:
            return format_html('<span class="pack-interrupted muster-alert">{}</span>',
                               obj.status_label)
        return obj.status_label

    @admin.display(description=_("progress"))
    def progress_bar(self, obj: MissionPack) -> str:
        return format_html('<progress class="pack-progress" max="100" value="{}">{}%</progress> '
                           '<span class="pack-percent">{}%</span>',
                           obj.progress, obj.progress, obj.progress)

    @admin.display(description=_("file"))
    def download(self, obj: MissionPack) -> str:
        if obj.status == Status.DONE:
            return format_html('<a href="{}">{}</a>', _download_url(obj), _("Download the PDF"))
        if obj.status == Status.FAILED:
            return format_html('<span class="muster-alert">{}</span>', _("failed"))
        if obj.stale:
            return format_html('<span class="pack-stale muster-alert">{}</span>',
                               _("interrupted: restarts by itself, or retry it"))
        return "—"

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/status/", view(self.status_view), name="printing_missionpack_status"),
            path("<int:pk>/retry/", view(require_POST(self.retry_view)),
                 name="printing_missionpack_retry"),
            path("wall-sheet/<int:round_pk>/<slug:kind>/",
                 view(require_POST(self.wall_sheet_view)), name="printing_missionpack_wall_sheet"),
            *super().get_urls(),
        ]

    def _visible(self, request: HttpRequest, pk: int) -> MissionPack:
        pack = get_object_or_404(MissionPack.objects.select_related("round__tournament"), pk=pk)
        if not self.has_view_permission(request, pack):
            raise PermissionDenied
        return pack

    def status_view(self, request: HttpRequest, pk: int) -> JsonResponse:
        """The small JSON the change page polls."""
        pack = self._visible(request, pk)
        state = pack.state  # read once: "stale" and "state" agree
        data = {"status": pack.status, "status_label": pack.status_label, "state": state,
                "progress": pack.progress, "error": pack.error, "stale": state == "interrupted"}
        if pack.status == Status.DONE:
            data["download_url"] = _download_url(pack)
        return JsonResponse(data)

    def retry_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        pack = self._visible(request, pk)
        try:
            packs.retry_pack(Actor.of(request), pack)
        except ServiceError as exc:
            messages.error(request, str(exc.message))
        return HttpResponseRedirect(_change_url(pack))

    def wall_sheet_view(self, request: HttpRequest, round_pk: int,
                        kind: str) -> HttpResponseRedirect:
        """One button of the round (or the event's standings): start the wall sheet and go and
        watch its progress on the same page as a mission pack."""
        if not request.user.has_perm("league.change_tournament"):
            raise PermissionDenied
        if kind not in WALL_SHEETS:
            raise Http404
        round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=round_pk)
        try:
            pack = packs.request_pack(Actor.of(request), round_.tournament, round_.number, kind)
        except ServiceError as exc:
            messages.error(request, str(exc.message))
            return HttpResponseRedirect(reverse("admin:league_round_change", args=[round_.pk]))
        return HttpResponseRedirect(_change_url(pack))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        pack = self.get_object(request, object_id)
        extra = {**(extra_context or {})}
        if pack is not None:
            extra.update({
                "pack_status_url": reverse("admin:printing_missionpack_status", args=[pack.pk]),
                "pack_retry_url": reverse("admin:printing_missionpack_retry", args=[pack.pk]),
                # An interrupted pack is still watched: the sweep starts it again.
                "pack_active": pack.status in (Status.PENDING, Status.RUNNING),
                "pack_stale": pack.stale,
                "pack_retryable": _retryable(pack),
            })
        return super().change_view(request, object_id, form_url, extra)
