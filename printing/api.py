"""API: mission packs and wall sheets (api-v1): ask for a round's pack or one of its wall
sheets, follow it, download it. Staff only.

Mounted under /api/v1/ by ``path("", include("printing.api"))`` in config/api_urls.py.
"""
from __future__ import annotations

import logging
from typing import Any

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.audit import Actor
from events.errors import Conflict, NotFound
from events.models import Tournament
from printing.models import MissionPack
from printing.services import packs
from printing.services.pack_files import StoreUnavailable, streams_locally

logger = logging.getLogger(__name__)
PACK_ANSWER = inline_serializer("MissionPack", {
    "id": serializers.IntegerField(),
    "kind": serializers.CharField(
        required=False, help_text="mission_pack, turn_pack (an Epic 40,000 campaign turn), or "
                                  "the wall sheet: pairings, find_table, standings or slips"),
    # A plain string: a ChoiceField would add a second "status" enum to the schema (W001).
    "status": serializers.CharField(help_text="pending, running, done or failed"),
    "progress": serializers.IntegerField(min_value=0, max_value=100),
    "download_url": serializers.URLField(required=False),
    "error": serializers.CharField(required=False),
    "stale": serializers.BooleanField(
        help_text="interrupted: pending or running, yet no heartbeat nor progress for "
                  "MUSTER_PACK_INTERRUPTED_SECONDS (its worker died, or none took it). It starts "
                  "again by itself once a worker is up; staff can also retry it, and a new "
                  "request for the round supersedes it"),
    "state": serializers.CharField(
        required=False,
        help_text="the status, or interrupted for a pending or running pack whose worker died "
                  "(stale): pending, running, interrupted, done or failed"),
    "state_label": serializers.CharField(
        required=False, help_text="the state in words, in the reader's language"),
})


class StaffOnly(BasePermission):
    """401 without credentials (DRF's answer to an anonymous caller), 403 for non-staff."""

    message = gettext_lazy("Only the organisers can do this.")
    code = "staff_only"

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


def pack_data(pack: MissionPack, request) -> dict[str, Any]:
    """A pack as api-v1 shows it."""
    state = pack.state  # read once: "stale" and "state" agree
    data: dict[str, Any] = {
        "id": pack.pk, "kind": pack.kind, "status": pack.status, "progress": pack.progress,
        "tournament": pack.round.tournament.slug, "round": pack.round.number,
        "requested_at": pack.requested_at.isoformat(), "stale": state == "interrupted",
        "state": state, "state_label": pack.status_label,
    }
    if pack.status == MissionPack.Status.DONE:
        data["download_url"] = request.build_absolute_uri(
            reverse("api-mission-pack-download", args=[pack.pk]))
        data["pages"] = pack.pages
    if pack.status == MissionPack.Status.FAILED:
        data["error"] = pack.error
    return data


def get_pack(pk: int) -> MissionPack:
    pack = MissionPack.objects.select_related("round__tournament").filter(pk=pk).first()
    if pack is None:
        raise NotFound(_("No such mission pack."), "pack_not_found")
    return pack


class PackRequestView(APIView):
    """POST (staff): print round ``number``'s mission pack in the background."""

    permission_classes = [StaffOnly]

    @extend_schema(request=None, responses={202: PACK_ANSWER, 404: OpenApiResponse(),
                                            409: OpenApiResponse()})
    def post(self, request, slug: str, number: int):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound(_("No such tournament."), "tournament_not_found")
        pack = packs.request_pack(Actor.of(request), tournament, number)
        # Read again (eager mode, without a broker, has built it already) with its round and
        # event, to answer as GET mission-packs/{id}/ does: every field the schema requires.
        return Response(pack_data(get_pack(pack.pk), request), status=status.HTTP_202_ACCEPTED)


WALL_SHEET_KINDS = [kind for kind in MissionPack.Kind.values
                    if kind not in (MissionPack.Kind.MISSION_PACK, MissionPack.Kind.TURN_PACK)]


class WallSheetSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=WALL_SHEET_KINDS,
        help_text="pairings (by table), find_table (players in alphabetical order), standings "
                  "(after this round, with tiebreakers) or slips (each player's results slip)")


class WallSheetRequestView(APIView):
    """POST (staff): print one wall sheet of round ``number`` in the background; follow it
    with ``GET mission-packs/{id}/`` like a mission pack."""

    permission_classes = [StaffOnly]

    @extend_schema(request=WallSheetSerializer, responses={202: PACK_ANSWER, 400: OpenApiResponse(),
                                                           404: OpenApiResponse(),
                                                           409: OpenApiResponse()})
    def post(self, request, slug: str, number: int):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound(_("No such tournament."), "tournament_not_found")
        kind = validated(WallSheetSerializer, request)["kind"]
        pack = packs.request_pack(Actor.of(request), tournament, number, kind=kind)
        # Read again (eager mode, without a broker, has built it already) with its round and
        # event, to answer as GET mission-packs/{id}/ does: every field the schema requires.
        return Response(pack_data(get_pack(pack.pk), request), status=status.HTTP_202_ACCEPTED)


class PackView(APIView):
    """GET (staff): a pack's state, and its download URL once done."""

    permission_classes = [StaffOnly]

    @extend_schema(responses={200: PACK_ANSWER, 404: OpenApiResponse()})
    def get(self, request, pk: int):
        return Response(pack_data(get_pack(pk), request))


class PackDownloadView(APIView):
    """GET (staff): the PDF; 409 while it is being built.

    Only a done pack is served, and the file its row names is always whole (a build uploads a
    new file, then switches the row to it), so a download never gets a partial PDF: 200 with
    the bytes from this machine's disk, or 302 to a signed URL of the object store
    (MEDIA_STORAGE=s3, shared/deploy-v1.md).
    """

    permission_classes = [StaffOnly]

    @extend_schema(responses={(200, "application/pdf"): OpenApiResponse(description="the PDF"),
                              404: OpenApiResponse(), 409: OpenApiResponse()})
    def get(self, request, pk: int):
        pack = get_pack(pk)
        if pack.status != MissionPack.Status.DONE:
            raise Conflict(_("This mission pack is not ready yet."), "pack_not_ready")
        try:
            found = packs.stored(pack)
        except Exception as exc:  # the store is away: say so (503), the node's log says why
            logger.warning("pack %s: the media store did not answer", pack.pk, exc_info=True)
            raise StoreUnavailable(_("The file store cannot be reached right now. Try again in "
                                     "a moment."), "pack_store_unavailable") from exc
        if not found:
            raise NotFound(_("The file of this mission pack is missing."), "pack_file_missing")
        if streams_locally():
            response = FileResponse(default_storage.open(pack.file.name, "rb"), as_attachment=True,
                                    filename=pack.download_name, content_type="application/pdf")
        else:
            # An object store: the bytes come from it, through a URL it signed for a few minutes
            # (S3_QUERYSTRING_EXPIRE), under the name the browser should save.
            response = HttpResponseRedirect(default_storage.url(pack.file.name, parameters={
                "ResponseContentDisposition": content_disposition_header(
                    True, pack.download_name),
                "ResponseContentType": "application/pdf"}))
        response["Cache-Control"] = "private, no-store"
        return response


urlpatterns = [
    path("tournaments/<slug:slug>/rounds/<int:number>/mission-pack/", PackRequestView.as_view(),
         name="api-mission-pack-request"),
    path("tournaments/<slug:slug>/rounds/<int:number>/wall-sheets/",
         WallSheetRequestView.as_view(), name="api-wall-sheet-request"),
    path("mission-packs/<int:pk>/", PackView.as_view(), name="api-mission-pack"),
    path("mission-packs/<int:pk>/download/", PackDownloadView.as_view(),
         name="api-mission-pack-download"),
]
